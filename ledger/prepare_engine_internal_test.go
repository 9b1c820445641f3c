package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/interactive"
)

// TestPreparedTransactionNodes: every node kind of an engine transaction
// becomes its prepared node with Canton's node ids, children, the exercise
// result (absent for an exercise cut short) and the node seeds.
func TestPreparedTransactionNodes(t *testing.T) {
	tid := lf.TypeConID{PackageID: "pkg", Module: "M", Name: "T"}
	iid := lf.TypeConID{PackageID: "pkg", Module: "M", Name: "I"}
	pid := interactive.Identifier{PackageID: "pkg", ModuleName: "M", EntityName: "T"}
	iidp := interactive.Identifier{PackageID: "pkg", ModuleName: "M", EntityName: "I"}
	arg := value.Record{RecordID: &tid, Fields: []value.RecordField{{Label: "p", Value: value.Party("a")}}}
	in := &tx.Transaction{
		Roots: []tx.NodeID{0, 5},
		Nodes: []tx.Node{
			&tx.Exercise{TargetID: "00aa", PackageName: "p", TemplateID: tid, Choice: "C", Consuming: true, ActingParties: []string{"a"},
				ChosenValue: value.Unit{}, Signatories: []string{"a"}, Stakeholders: []string{"a", "b"}, ChoiceObservers: []string{"c"},
				Children: []tx.NodeID{1, 2}, Result: value.Text("r"), Version: tx.VersionNoKey},
			&tx.Fetch{ContractID: "00bb", PackageName: "p", TemplateID: tid, InterfaceID: &iid, ActingParties: []string{"a"},
				Signatories: []string{"b"}, Stakeholders: []string{"b"}, Version: tx.VersionNoKey},
			&tx.Rollback{Children: []tx.NodeID{3}},
			&tx.Exercise{TargetID: "00bb", PackageName: "p", TemplateID: tid, Choice: "D", ActingParties: []string{"a"},
				ChosenValue: value.Unit{}, Signatories: []string{"b"}, Stakeholders: []string{"b"}, Children: []tx.NodeID{4}, Version: tx.VersionNoKey},
			&tx.Create{ContractID: "00cc", PackageName: "p", TemplateID: tid, Arg: arg, Signatories: []string{"a"}, Stakeholders: []string{"a"}, Version: tx.VersionNoKey},
			&tx.Create{ContractID: "00dd", PackageName: "p", TemplateID: tid, Arg: arg, Signatories: []string{"a"}, Stakeholders: []string{"a"}, Version: tx.VersionNoKey},
		},
		NodeSeeds: []tx.NodeSeed{{Node: 0, Seed: tx.Hash{1}}, {Node: 3, Seed: tx.Hash{3}}, {Node: 4, Seed: tx.Hash{4}}, {Node: 5, Seed: tx.Hash{5}}},
	}
	got, err := (&pkgView{}).preparedTransaction(in)
	if err != nil {
		t.Fatal(err)
	}
	seed := func(b byte) []byte { s := make([]byte, 32); s[0] = b; return s }
	create := func(cid string) *interactive.Create {
		return &interactive.Create{LFVersion: "2.1", ContractID: cid, PackageName: "p", TemplateID: pid, Argument: arg,
			Signatories: []string{"a"}, Stakeholders: []string{"a"}}
	}
	want := interactive.Transaction{Version: "2.1", Roots: []string{"0", "5"}, Nodes: []interactive.Node{
		{NodeID: "0", Exercise: &interactive.Exercise{LFVersion: "2.1", ContractID: "00aa", PackageName: "p", TemplateID: pid,
			Signatories: []string{"a"}, Stakeholders: []string{"a", "b"}, ActingParties: []string{"a"}, ChoiceID: "C",
			ChosenValue: value.Unit{}, Consuming: true, Children: []string{"1", "2"}, ExerciseResult: value.Text("r"), ChoiceObservers: []string{"c"}}},
		{NodeID: "1", Fetch: &interactive.Fetch{LFVersion: "2.1", ContractID: "00bb", PackageName: "p", TemplateID: pid,
			Signatories: []string{"b"}, Stakeholders: []string{"b"}, ActingParties: []string{"a"}, InterfaceID: &iidp}},
		{NodeID: "2", Rollback: &interactive.Rollback{Children: []string{"3"}}},
		{NodeID: "3", Exercise: &interactive.Exercise{LFVersion: "2.1", ContractID: "00bb", PackageName: "p", TemplateID: pid,
			Signatories: []string{"b"}, Stakeholders: []string{"b"}, ActingParties: []string{"a"}, ChoiceID: "D",
			ChosenValue: value.Unit{}, Children: []string{"4"}}},
		{NodeID: "4", Create: create("00cc")},
		{NodeID: "5", Create: create("00dd")},
	}, NodeSeeds: []interactive.NodeSeed{{NodeID: 0, Seed: seed(1)}, {NodeID: 3, Seed: seed(3)}, {NodeID: 4, Seed: seed(4)}, {NodeID: 5, Seed: seed(5)}}}
	if diff := cmp.Diff(want, got, cmp.Comparer(value.Equal)); diff != "" {
		t.Errorf("prepared transaction (-want +got):\n%s", diff)
	}
	// Each node equals its expected self field by field.
	for i := range want.Nodes {
		if d := interactive.NodeDifference(want.Nodes[i], got.Nodes[i]); d != "" {
			t.Errorf("node %d: %s differs", i, d)
		}
	}
}
