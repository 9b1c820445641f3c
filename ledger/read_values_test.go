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
	"github.com/ledgernode/ledgernode/ledger/update"
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
	c := tr.Events[0].(*update.CreatedEvent)
	if c.Key != value.Party(alice) {
		t.Errorf("key %#v, want Party %s", c.Key, alice)
	}
	gone := ledgertest.Exercise(t, node, alice, k, c.ContractID, "Go", nil)
	tr, err = node.Transaction(ctx, gone.UpdateID, ledger.ReadFormat{Parties: map[string][]ledger.Filter{alice: nil}, Shape: ledger.LedgerEffects})
	if err != nil {
		t.Fatal(err)
	}
	x := tr.Events[0].(*update.ExercisedEvent)
	if diff := cmp.Diff(value.Value(value.Unit{}), x.Result); diff != "" || !x.Consuming || !x.ACSDelta {
		t.Errorf("Go: result (-want +got) %s, consuming %v, ACS delta %v", diff, x.Consuming, x.ACSDelta)
	}
	if diff := cmp.Diff(value.Value(value.Unit{}), x.Argument); diff != "" {
		t.Errorf("Go: argument (-want +got):\n%s", diff)
	}
}

// TestTypedInterfaceView: an interface filter with views gives the
// Holding view of an Amulet, typed with the interface's view type: the
// value the JSON read shows, decoded with that type.
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
	var got []*update.CreatedEvent
	for c, err := range node.ActiveContractEvents(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{owner: {ledger.InterfaceFilter(holding, true, false)}}}, 0) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	if len(got) != 1 || len(got[0].InterfaceViews) != 1 {
		t.Fatalf("typed %+v", got)
	}
	v := got[0].InterfaceViews[0]
	if v.Err != nil || v.InterfaceID.Module != "Splice.Api.Token.HoldingV1" || v.InterfaceID.Name != "Holding" ||
		v.ImplementationPackageID != got[0].TemplateID.PackageID {
		t.Fatalf("view %+v, want Holding's, implemented by the Amulet's package %s", v, got[0].TemplateID.PackageID)
	}
	ipkg := dar.Package(v.InterfaceID.PackageID)
	if ipkg == nil || ipkg.Name != "splice-api-token-holding-v1" {
		t.Fatalf("interface package %s is not splice-api-token-holding-v1's", v.InterfaceID.PackageID)
	}
	// The view Canton's JSON API shows, decoded with the view type.
	viewJSON := `{"owner": "` + owner + `", "instrumentId": {"admin": "` + dso + `", "id": "Amulet"}, "amount": "100.0000000000", "lock": null,
		"meta": {"values": [["splice.lfdecentralizedtrust.org/created-in-round", "Round {number = 3}"],
			["splice.lfdecentralizedtrust.org/rate-per-round", "RatePerRound {rate = 0.001}"]]}}`
	want, err := value.FromJSON([]byte(viewJSON), ipkg.Interface(v.InterfaceID.Module, v.InterfaceID.Name).View, dar.Package)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, v.Value); diff != "" {
		t.Errorf("Holding view (-want +typed):\n%s", diff)
	}
	if r, ok := v.Value.(value.Record); !ok || r.RecordID == nil || r.RecordID.Name != "HoldingView" {
		t.Errorf("view %#v, want a HoldingView record", v.Value)
	}
}
