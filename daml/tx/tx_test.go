package tx

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shape renders a transaction as nested lists: "C"/"F" for a create or a
// fetch with its contract id, "X(...)" for an exercise, "R(...)" for a
// rollback, with node ids.
func shape(t *Transaction) string {
	var walk func(ids []NodeID) string
	walk = func(ids []NodeID) string {
		s := ""
		for i, id := range ids {
			if i > 0 {
				s += " "
			}
			switch n := t.Nodes[id].(type) {
			case *Create:
				s += "C" + n.ContractID
			case *Fetch:
				s += "F" + n.ContractID
			case *Exercise:
				s += "X" + n.TargetID + "(" + walk(n.Children) + ")"
			case *Rollback:
				s += "R(" + walk(n.Children) + ")"
			}
			s += "#" + string(rune('0'+int(id)))
		}
		return s
	}
	return walk(t.Roots)
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   *Transaction
		want string
	}{
		{"renumbered in pre-order", &Transaction{
			Nodes: []Node{&Create{ContractID: "b"}, &Exercise{TargetID: "x", Children: []NodeID{0, 2}}, &Fetch{ContractID: "f"}},
			Roots: []NodeID{1},
		}, "Xx(Cb#1 Ff#2)#0"},
		{"empty rollback dropped", &Transaction{
			Nodes: []Node{&Rollback{}, &Create{ContractID: "a"}},
			Roots: []NodeID{0, 1},
		}, "Ca#0"},
		{"leading rollback split", &Transaction{
			Nodes: []Node{&Create{ContractID: "a"}, &Rollback{Children: []NodeID{0}}, &Create{ContractID: "b"}, &Rollback{Children: []NodeID{1, 2}}},
			Roots: []NodeID{3},
		}, "R(Ca#1)#0 R(Cb#3)#2"},
		{"trailing rollback flattened", &Transaction{
			Nodes: []Node{&Create{ContractID: "a"}, &Create{ContractID: "b"}, &Rollback{Children: []NodeID{1}}, &Rollback{Children: []NodeID{0, 2}}},
			Roots: []NodeID{3},
		}, "R(Ca#1 Cb#2)#0"},
		{"middle rollback kept", &Transaction{
			Nodes: []Node{&Create{ContractID: "a"}, &Create{ContractID: "b"}, &Rollback{Children: []NodeID{1}}, &Create{ContractID: "c"}, &Rollback{Children: []NodeID{0, 2, 3}}},
			Roots: []NodeID{4},
		}, "R(Ca#1 R(Cb#3)#2 Cc#4)#0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, shape(tc.in.Normalize())); diff != "" {
				t.Error(diff)
			}
		})
	}
}
