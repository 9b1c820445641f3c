package ledger_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
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
	filter := func(iface string, view bool) ledger.ReadFormat {
		return ledger.ReadFormat{Parties: map[string][]ledger.Filter{owner: {ledger.InterfaceFilterText(iface, view, false)}}}
	}
	acs := func(f ledger.ReadFormat) ([]*update.CreatedEvent, error) {
		var out []*update.CreatedEvent
		for ev, err := range n.ActiveContractEvents(ctx, f, resp.CompletionOffset) {
			if err != nil {
				return nil, err
			}
			out = append(out, ev)
		}
		return out, nil
	}
	evs, err := acs(filter(holdingIface, true))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("ACS %+v", evs)
	}
	ev := evs[0]
	if len(ev.InterfaceViews) != 1 {
		t.Fatalf("interface views %+v", ev.InterfaceViews)
	}
	view := ev.InterfaceViews[0]
	if view.Err != nil || view.Value == nil {
		t.Fatalf("view %+v", view)
	}
	if view.InterfaceID.Module != "Splice.Api.Token.HoldingV1" || view.InterfaceID.Name != "Holding" {
		t.Errorf("view of %v, want Holding", view.InterfaceID)
	}
	if view.ImplementationPackageID != ev.TemplateID.PackageID {
		t.Errorf("implementationPackageId %q, want the only splice-amulet version %q", view.ImplementationPackageID, ev.TemplateID.PackageID)
	}
	// The view as the JSON API writes it (value.AppendJSON: numerics
	// with their scale, a DA.Map as [key, value] pairs).
	var got map[string]any
	if err := json.Unmarshal(value.AppendJSON(nil, view.Value), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"owner": owner, "instrumentId": map[string]any{"admin": dso, "id": "Amulet"}, "amount": "100.0000000000",
		"lock": nil, "meta": map[string]any{"values": []any{ // a DA.Map (GenMap): [key, value] pairs
			[]any{"splice.lfdecentralizedtrust.org/created-in-round", "Round {number = 3}"},
			[]any{"splice.lfdecentralizedtrust.org/rate-per-round", "RatePerRound {rate = 0.001}"}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Holding view (-want +got):\n%s", diff)
	}
	// Without includeInterfaceView the contract matches, without views.
	evs, err = acs(filter(holdingIface, false))
	if err != nil || len(evs) != 1 || len(evs[0].InterfaceViews) != 0 {
		t.Errorf("without views: %v %+v", err, evs)
	}
	// An unknown interface is refused, not an empty answer.
	_, err = acs(filter("#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Nope", true))
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code.Name != "TEMPLATES_OR_INTERFACES_NOT_FOUND" {
		t.Errorf("unknown interface: %v", err)
	}
	_, err = acs(filter("#no-such-package:M:I", true))
	if !errors.As(err, &ae) || ae.Code.Name != "PACKAGE_NAMES_NOT_FOUND" {
		t.Errorf("unknown package name: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
