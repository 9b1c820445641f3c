package console

import (
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestFullTree: with the re-interpreted transaction, the tree holds the
// viewer's events at their node ids, and under an event it sees the
// fetches and the rolled-back subtree (marked), while an exercise the
// viewer does not see is left out and its visible children rise.
func TestFullTree(t *testing.T) {
	tpl := lf.TypeConID{PackageID: "p", Module: "M", Name: "T"}
	none := func(string) *lf.Package { return nil }
	// 0 Exercise A [1 Fetch, 2 Rollback [3 Create], 4 Exercise B [5 Create]]
	full := &tx.Transaction{Roots: []tx.NodeID{0}, Nodes: []tx.Node{
		&tx.Exercise{TargetID: "c0", TemplateID: tpl, Choice: "A", Consuming: true, Children: []tx.NodeID{1, 2, 4}, ChosenValue: value.Record{}, Result: value.Unit{}},
		&tx.Fetch{ContractID: "c1", TemplateID: tpl},
		&tx.Rollback{Children: []tx.NodeID{3}},
		&tx.Create{ContractID: "c3", TemplateID: tpl, Arg: value.Record{}},
		&tx.Exercise{TargetID: "c4", TemplateID: tpl, Choice: "B", Children: []tx.NodeID{5}, ChosenValue: value.Record{}, Result: value.Unit{}},
		&tx.Create{ContractID: "c5", TemplateID: tpl, Arg: value.Record{}},
	}}
	tid := tpl.String()
	exercised := func(id, last int32, cid, choice string) jsonapi.JsEvent {
		return jsonapi.JsEvent{ExercisedEvent: &jsonapi.JsExercisedEvent{NodeID: id, LastDescendantNodeID: last, ContractID: cid, TemplateID: tid, Choice: choice,
			ChoiceArgument: []byte(`{}`), ExerciseResult: []byte(`{}`), Consuming: choice == "A", ACSDelta: choice == "A"}}
	}
	createdEv := func(id int32, cid string) jsonapi.JsEvent {
		return jsonapi.JsEvent{CreatedEvent: &jsonapi.JsCreatedEvent{NodeID: id, ContractID: cid, TemplateID: tid, CreateArgument: []byte(`{}`), ACSDelta: true}}
	}
	// draw lists the tree in pre-order as "depth kind id [rb]".
	var draw func(ns []*treeNode, depth int, out *[]string)
	draw = func(ns []*treeNode, depth int, out *[]string) {
		for _, n := range ns {
			s := string(rune('0'+depth)) + " " + n.Kind + " " + n.ContractID
			if n.RolledBack {
				s += " rb"
			}
			*out = append(*out, s)
			draw(n.Children, depth+1, out)
		}
	}
	tests := []struct {
		name string
		evs  []jsonapi.JsEvent
		full *tx.Transaction
		want []string
	}{
		{"everything", []jsonapi.JsEvent{exercised(0, 5, "c0", "A"), exercised(4, 5, "c4", "B"), createdEv(5, "c5")}, full,
			[]string{"0 exercise c0", "1 fetch c1", "1 rollback  rb", "2 create c3 rb", "1 exercise c4", "2 create c5"}},
		{"a viewer of B only", []jsonapi.JsEvent{exercised(4, 5, "c4", "B"), createdEv(5, "c5")}, full,
			[]string{"0 exercise c4", "1 create c5"}},
		{"without the re-interpretation", []jsonapi.JsEvent{exercised(0, 5, "c0", "A"), exercised(4, 5, "c4", "B"), createdEv(5, "c5")}, nil,
			[]string{"0 exercise c0", "1 exercise c4", "2 create c5"}},
	}
	for _, tc := range tests {
		var got []string
		draw(buildTree(tc.evs, tc.full, none), 0, &got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
