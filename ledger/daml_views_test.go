package ledger_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

const holdingIface = "#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding"

// TestAmuletHoldingView creates a Splice Amulet and reads it through an
// InterfaceFilter on the token-standard Holding interface: the view is
// computed through the engine, and unknown interfaces are refused.
func TestAmuletHoldingView(t *testing.T) {
	t.Parallel()
	data := realDAR(t, "splice-amulet-0.1.8.dar")
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	ledgertest.MustUploadDAR(t, n, data)
	dso, owner := ledgertest.MustAllocate(t, n, "dso"), ledgertest.MustAllocate(t, n, "alice")
	arg := `{"dso": "` + dso + `", "owner": "` + owner + `", "amount": {"initialAmount": "100.0", "createdAt": {"number": "3"}, "ratePerRound": {"rate": "0.001"}}}`
	resp, err := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: "amulet-1", ActAs: []string{dso, owner}, UserID: "u1",
		Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#splice-amulet:Splice.Amulet:Amulet", CreateArguments: json.RawMessage(arg)}}}})
	if err != nil {
		t.Fatalf("create Amulet: %v", err)
	}
	filter := func(iface string, view bool) ledger.EventFormat {
		return ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{owner: {Cumulative: []ledger.CumulativeFilter{{IdentifierFilter: ledger.IdentifierFilter{
			InterfaceFilter: &ledger.Wrapped[ledger.InterfaceFilterValue]{Value: ledger.InterfaceFilterValue{InterfaceID: iface, IncludeInterfaceView: view}}}}}}}}
	}
	acs, err := n.ActiveContracts(ctx, ledger.GetActiveContractsRequest{EventFormat: ptr(filter(holdingIface, true)), ActiveAtOffset: resp.CompletionOffset}, ledger.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(acs) != 1 || acs[0].ContractEntry.JsActiveContract == nil {
		t.Fatalf("ACS %+v", acs)
	}
	ev := acs[0].ContractEntry.JsActiveContract.CreatedEvent
	if len(ev.InterfaceViews) != 1 {
		t.Fatalf("interface views %+v", ev.InterfaceViews)
	}
	b, _ := json.Marshal(ev.InterfaceViews[0])
	var view struct {
		InterfaceID             string
		ViewStatus              struct{ Code int }
		ViewValue               map[string]any
		ImplementationPackageID string
	}
	if err := json.Unmarshal(b, &view); err != nil {
		t.Fatal(err)
	}
	if view.ViewStatus.Code != 0 || view.ViewValue == nil {
		t.Fatalf("view %s", b)
	}
	if pkg, _, _ := strings.Cut(ev.TemplateID, ":"); view.ImplementationPackageID != pkg {
		t.Errorf("implementationPackageId %q, want the only splice-amulet version %q", view.ImplementationPackageID, pkg)
	}
	want := map[string]any{"owner": owner, "instrumentId": map[string]any{"admin": dso, "id": "Amulet"}, "amount": "100.0000000000",
		"lock": nil, "meta": map[string]any{"values": []any{ // a DA.Map (GenMap): [key, value] pairs
			[]any{"splice.lfdecentralizedtrust.org/created-in-round", "Round {number = 3}"},
			[]any{"splice.lfdecentralizedtrust.org/rate-per-round", "RatePerRound {rate = 0.001}"}}}}
	if diff := cmp.Diff(want, view.ViewValue); diff != "" {
		t.Errorf("Holding view (-want +got):\n%s\n%s", diff, b)
	}
	// Without includeInterfaceView the contract matches, without views.
	acs, err = n.ActiveContracts(ctx, ledger.GetActiveContractsRequest{EventFormat: ptr(filter(holdingIface, false)), ActiveAtOffset: resp.CompletionOffset}, ledger.ListOptions{})
	if err != nil || len(acs) != 1 || len(acs[0].ContractEntry.JsActiveContract.CreatedEvent.InterfaceViews) != 0 {
		t.Errorf("without views: %v %+v", err, acs)
	}
	// An unknown interface is refused, not an empty answer.
	_, err = n.ActiveContracts(ctx, ledger.GetActiveContractsRequest{EventFormat: ptr(filter("#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Nope", true)),
		ActiveAtOffset: resp.CompletionOffset}, ledger.ListOptions{})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code.Name != "TEMPLATES_OR_INTERFACES_NOT_FOUND" {
		t.Errorf("unknown interface: %v", err)
	}
	_, err = n.ActiveContracts(ctx, ledger.GetActiveContractsRequest{EventFormat: ptr(filter("#no-such-package:M:I", true)),
		ActiveAtOffset: resp.CompletionOffset}, ledger.ListOptions{})
	if !errors.As(err, &ae) || ae.Code.Name != "PACKAGE_NAMES_NOT_FOUND" {
		t.Errorf("unknown package name: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
