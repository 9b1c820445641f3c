package tx

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// pkg is a made-up package id (64 hex digits).
const pkg = "c1a1f8f2b3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e"

func tpl(name string) lf.TypeConID { return lf.TypeConID{PackageID: pkg, Module: "M", Name: name} }

// ledgerCid is a committed-looking V1 id of a ledger contract numbered n.
func ledgerCid(n int) value.ContractID {
	return value.ContractID(fmt.Sprintf("00%064x", n) + "ca121220" + strings.Repeat("ab", 32))
}

func newBuilder(actAs ...string) *Builder {
	return NewBuilder(Config{ActAs: actAs, TransactionSeed: Hash{1, 2, 3}, PreparationTime: 1_700_000_000_000_000})
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// exercise returns an ExerciseInput on a contract with signatories sigs
// and stakeholders stk.
func exercise(cid value.ContractID, name, choice string, consuming bool, ctrl, sigs, stk []string) ExerciseInput {
	return ExerciseInput{TargetID: cid, PackageName: "p", TemplateID: tpl(name), Choice: choice, Consuming: consuming,
		Controllers: ctrl, Signatories: sigs, Stakeholders: stk, ChosenValue: value.Record{}}
}

func fetch(cid value.ContractID, name string, sigs, stk []string) FetchInput {
	return FetchInput{ContractID: cid, PackageName: "p", TemplateID: tpl(name), Signatories: sigs, Stakeholders: stk}
}

func create(name string, sigs, obs []string) CreateInput {
	return CreateInput{PackageName: "p", TemplateID: tpl(name), Arg: value.Record{Fields: []value.RecordField{{Value: value.Text(name)}}}, Signatories: sigs, Observers: obs}
}

// shape renders a transaction as nested lists with node ids: "C<tpl>" for
// a create, "F<tpl>" for a fetch, "X<choice>(…)" for an exercise (a "!"
// marks one without a result), "R(…)" for a rollback.
func shape(t *Transaction) string {
	var walk func(ids []NodeID) string
	walk = func(ids []NodeID) string {
		var parts []string
		for _, id := range ids {
			var s string
			switch n := t.Nodes[id].(type) {
			case *Create:
				s = "C" + n.TemplateID.Name
			case *Fetch:
				s = "F" + n.TemplateID.Name
			case *Exercise:
				s = "X" + n.Choice
				if n.Result == nil {
					s += "!"
				}
				s += "(" + walk(n.Children) + ")"
			case *QueryByKey:
				s = "Q" + n.TemplateID.Name
			case *Rollback:
				s = "R(" + walk(n.Children) + ")"
			}
			parts = append(parts, fmt.Sprintf("%s#%d", s, id))
		}
		return strings.Join(parts, " ")
	}
	return walk(t.Roots)
}

func ps(s ...string) []string { return s }
