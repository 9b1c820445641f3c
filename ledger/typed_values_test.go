package ledger_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestTypedKeyAndUnitResult: a keyed contract's created event carries its
// key typed with the template's key type, and a choice returning () its
// Unit result.
func TestTypedKeyAndUnitResult(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	d, _ := lftest.DAR(keyPackage())
	ledgertest.MustUploadDAR(t, node, d)
	alice := ledgertest.MustAllocate(t, node, "alice")
	k := ledger.MustParseTemplateRef("#keys:Main:K")
	created := ledgertest.Submit(t, node, ledger.Commands{ActAs: []string{alice}, Commands: []ledger.Command{ledger.CreateCommand{Template: k,
		Arguments: ledgertest.Record(map[string]value.Value{"owner": value.Party(alice), "n": value.Int64(1)})}}})
	ctx := context.Background()
	tr, err := node.Transaction(ctx, created.UpdateID, ledger.ReadFormat{Parties: map[string][]ledger.Filter{alice: nil}})
	if err != nil {
		t.Fatal(err)
	}
	c := tr.Events[0].(*ledger.CreatedEvent)
	if c.Key != value.Party(alice) {
		t.Errorf("key %#v, want Party %s", c.Key, alice)
	}
	gone := ledgertest.Exercise(t, node, alice, k, c.ContractID, "Go", nil)
	tr, err = node.Transaction(ctx, gone.UpdateID, ledger.ReadFormat{Parties: map[string][]ledger.Filter{alice: nil}, Shape: ledger.LedgerEffects})
	if err != nil {
		t.Fatal(err)
	}
	x := tr.Events[0].(*ledger.ExercisedEvent)
	if diff := cmp.Diff(value.Value(value.Unit{}), x.Result); diff != "" || !x.Consuming || !x.ACSDelta {
		t.Errorf("Go: result (-want +got) %s, consuming %v, ACS delta %v", diff, x.Consuming, x.ACSDelta)
	}
	if diff := cmp.Diff(value.Value(value.Unit{}), x.Argument); diff != "" {
		t.Errorf("Go: argument (-want +got):\n%s", diff)
	}
}

// TestTypedInterfaceView: an interface filter with views gives the
// Holding view of an Amulet as the JSON read shows it, decoded with the
// interface's view type.
func TestTypedInterfaceView(t *testing.T) {
	data := realDAR(t, "splice-amulet-0.1.8.dar")
	t.Parallel()
	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	node := ledgertest.Open(t, ledger.Options{})
	ledgertest.MustUploadDAR(t, node, data)
	dso, owner := ledgertest.MustAllocate(t, node, "dso"), ledgertest.MustAllocate(t, node, "alice")
	ctx := context.Background()
	arg := `{"dso": "` + dso + `", "owner": "` + owner + `", "amount": {"initialAmount": "100.0", "createdAt": {"number": "3"}, "ratePerRound": {"rate": "0.001"}}}`
	if _, err := jsonapi.New(node).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: "amulet-1", ActAs: []string{dso, owner},
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#splice-amulet:Splice.Amulet:Amulet", CreateArguments: json.RawMessage(arg)}}}}); err != nil {
		t.Fatal(err)
	}
	holding := ledger.MustParseTemplateRef(holdingIface)
	var got []*ledger.CreatedEvent
	for c, err := range node.ActiveContractEvents(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{owner: {ledger.InterfaceFilter(holding, true, false)}}}, 0) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	js, err := node.ActiveContractsPage(ctx, ledger.GetActiveContractsPageRequest{EventFormat: ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{
		owner: {Cumulative: []ledger.CumulativeFilter{{IdentifierFilter: ledger.IdentifierFilter{InterfaceFilter: &ledger.Wrapped[ledger.InterfaceFilterValue]{
			Value: ledger.InterfaceFilterValue{InterfaceID: holdingIface, IncludeInterfaceView: true}}}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(js.ActiveContracts) != 1 || len(got[0].InterfaceViews) != 1 {
		t.Fatalf("typed %+v, JSON %+v", got, js.ActiveContracts)
	}
	jv := js.ActiveContracts[0].ContractEntry.JsActiveContract.CreatedEvent.InterfaceViews[0].(ledger.JsInterfaceView)
	iid, err := lf.SplitIdentifier(jv.InterfaceID)
	if err != nil {
		t.Fatal(err)
	}
	iface := dar.Package(iid.PackageID).Interface(iid.Module, iid.Entity)
	want, err := value.FromJSON(jv.ViewValue, iface.View, dar.Package)
	if err != nil {
		t.Fatal(err)
	}
	v := got[0].InterfaceViews[0]
	if v.Err != nil || v.InterfaceID.String() != jv.InterfaceID || v.ImplementationPackageID != jv.ImplementationPackageID {
		t.Errorf("view %+v, JSON %+v", v, jv)
	}
	if diff := cmp.Diff(want, v.Value); diff != "" {
		t.Errorf("Holding view (-JSON decoded +typed):\n%s", diff)
	}
	if r, ok := v.Value.(value.Record); !ok || r.RecordID == nil || r.RecordID.Name != "HoldingView" {
		t.Errorf("view %#v, want a HoldingView record", v.Value)
	}
}
