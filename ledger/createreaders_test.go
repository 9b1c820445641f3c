package ledger

import (
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/tx"
)

// TestCreateReadersIsParties checks that createReaders, when it answers,
// answers what parties() builds, and that it answers for a create
// command's entry.
func TestCreateReadersIsParties(t *testing.T) {
	cases := []struct {
		name      string
		sigs, obs []string
		witnesses []string
		stk       []string
		exercise  bool
		want      bool // createReaders answers
	}{
		{name: "create", sigs: []string{"a"}, obs: []string{"b"}, stk: []string{"a", "b"}, want: true},
		{name: "signatories only", sigs: []string{"a", "b"}, stk: []string{"a", "b"}, want: true},
		{name: "observer first", sigs: []string{"b"}, obs: []string{"a"}, stk: []string{"a", "b"}, want: true},
		{name: "repeats", sigs: []string{"a"}, obs: []string{"a", "b"}, stk: []string{"a", "b"}, want: true},
		{name: "witnesses", sigs: []string{"a"}, obs: []string{"b"}, witnesses: []string{"a", "b", "c"}, stk: []string{"a", "b"}},
		{name: "a stakeholder missing", sigs: []string{"a"}, stk: []string{"a", "b"}},
		{name: "an observer not a stakeholder", sigs: []string{"a"}, obs: []string{"c"}, stk: []string{"a"}},
		{name: "unsorted stakeholders", sigs: []string{"a"}, obs: []string{"b"}, stk: []string{"b", "a"}},
		{name: "no stakeholders", stk: nil},
		{name: "exercise", sigs: []string{"a"}, stk: []string{"a"}, exercise: true},
	}
	for _, c := range cases {
		tr := &tx.Transaction{Nodes: []tx.Node{&tx.Create{Signatories: c.sigs, Stakeholders: c.stk}}, Roots: []tx.NodeID{0}}
		nd := txNode{ID: 0, Engine: true, Exercise: c.exercise, Signatories: c.sigs, Observers: c.obs, Witnesses: c.witnesses}
		if c.exercise {
			nd.Stakeholders = c.stk
		}
		e := &logEntry{Kind: kindTransaction, Nodes: []txNode{nd}}
		got := e.createReaders(tr)
		if (got != nil) != c.want {
			t.Errorf("%s: createReaders = %v, answering %v, want answering %v", c.name, got, got != nil, c.want)
		}
		if got != nil && !slices.Equal(got, e.parties()) {
			t.Errorf("%s: createReaders = %v, parties() = %v", c.name, got, e.parties())
		}
	}
	two := &logEntry{Nodes: []txNode{{Engine: true, Signatories: []string{"a"}}, {Engine: true, Signatories: []string{"a"}}}}
	if got := two.createReaders(&tx.Transaction{Nodes: []tx.Node{&tx.Create{Stakeholders: []string{"a"}}, &tx.Create{Stakeholders: []string{"a"}}}}); got != nil {
		t.Errorf("two nodes: createReaders = %v, want nil", got)
	}
}
