package tx

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestMapContractIDsInKeysAndQueries: MapContractIDs replaces a mapped
// contract id inside contract keys (of creates, fetches and exercises)
// and in the results of a key query, not only in ids and arguments, and
// leaves the input unchanged.
func TestMapContractIDsInKeysAndQueries(t *testing.T) {
	const local, global = value.ContractID("00aa"), value.ContractID("00aabb")
	key := func(c value.ContractID) *KeyWithMaintainers {
		return &KeyWithMaintainers{Key: value.Record{Fields: []value.RecordField{{Label: "ref", Value: c}}}, Maintainers: []string{"alice"}}
	}
	tpl := lf.TypeConID{PackageID: "p", Module: "M", Name: "T"}
	in := &Transaction{Roots: []NodeID{0, 1, 2, 3}, Nodes: []Node{
		&Create{ContractID: local, TemplateID: tpl, Arg: value.Record{}, Key: key(local)},
		&Fetch{ContractID: local, TemplateID: tpl, Key: key(local)},
		&Exercise{TargetID: local, TemplateID: tpl, ChosenValue: value.Record{}, Key: key(local)},
		&QueryByKey{TemplateID: tpl, Key: *key(local), Result: []value.ContractID{local}},
	}}
	out := in.MapContractIDs(map[value.ContractID]value.ContractID{local: global})
	want := []Node{
		&Create{ContractID: global, TemplateID: tpl, Arg: value.Record{}, Key: key(global)},
		&Fetch{ContractID: global, TemplateID: tpl, Key: key(global)},
		&Exercise{TargetID: global, TemplateID: tpl, ChosenValue: value.Record{}, Key: key(global)},
		&QueryByKey{TemplateID: tpl, Key: *key(global), Result: []value.ContractID{global}},
	}
	if diff := cmp.Diff(want, out.Nodes, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("mapped nodes (-want +got):\n%s", diff)
	}
	if got := in.Nodes[3].(*QueryByKey).Result[0]; got != local {
		t.Errorf("the input's query result became %s", got)
	}
}
