package ledger_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestSubmitForTransaction submits and reads the committed transaction
// back in a format: the default (the actAs parties' ACS delta), a
// ledger-effects format, a format that shows nothing (the transaction
// without events), and formats refused before anything is submitted.
func TestSubmitForTransaction(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := ledgertest.Open(t, ledger.Options{})
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, dar)
	alice, bob := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob")
	iou := ledger.TemplateByID(lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"})
	create := func(id string) ledger.Commands {
		return ledger.Commands{ActAs: []string{alice}, CommandID: id,
			Commands: []ledger.Command{ledger.CreateCommand{Template: iou, Arguments: iouRecord(value.Party(alice), value.Int64(7))}}}
	}

	got, err := n.SubmitForTransaction(ctx, create("c1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 1 || got.CommandID != "c1" || got.EffectiveAt.IsZero() || got.RecordTime.IsZero() {
		t.Fatalf("default format: %+v, want one created event of c1 with its times", got)
	}
	ev, ok := got.Events[0].(*update.CreatedEvent)
	if !ok || ev.TemplateID != iou.ID || len(ev.WitnessParties) != 1 || ev.WitnessParties[0] != alice {
		t.Errorf("default format: event %+v, want alice's Iou", got.Events[0])
	}

	effects := ledger.ReadAs(alice)
	effects.Shape = ledger.LedgerEffects
	exercised, err := n.SubmitForTransaction(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "c2",
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: iou, ContractID: ev.ContractID, Choice: "Transfer",
			Argument: value.Record{Fields: []value.RecordField{{Label: "newOwner", Value: value.Party(bob)}}}}}}, &effects)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := exercised.Events[0].(*update.ExercisedEvent); !ok {
		t.Errorf("ledger effects: first event %T, want the exercise", exercised.Events[0])
	}

	// bob is no informee of alice's Iou: the transaction comes back
	// without events.
	empty, err := n.SubmitForTransaction(ctx, create("c4"), &ledger.ReadFormat{Parties: map[string][]ledger.Filter{bob: nil}})
	if err != nil {
		t.Fatal(err)
	}
	if len(empty.Events) != 0 || empty.UpdateID == "" || empty.Offset == 0 || empty.EffectiveAt.IsZero() {
		t.Errorf("bob's format: %+v, want the transaction without events", empty)
	}

	// Refused formats commit nothing.
	end, err := n.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plain := ledger.WithPrincipal(ctx, identity.Principal{UserID: "plain", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: alice}}})
	unknown := ledger.ReadAs(alice)
	unknown.Parties[alice] = []ledger.Filter{ledger.TemplateFilter(ledger.TemplateByName("nosuchpackage", "Main", "Iou"), false)}
	for _, tt := range []struct {
		name string
		ctx  context.Context
		f    ledger.ReadFormat
		code apierr.Code
	}{
		{"no right to read as bob", plain, ledger.ReadAs(bob), apierr.PermissionDenied},
		{"unknown package name", ctx, unknown, apierr.PackageNamesNotFound},
		{"reads as nobody", ctx, ledger.ReadFormat{}, apierr.InvalidArgument},
	} {
		_, err := n.SubmitForTransaction(tt.ctx, create("refused"), &tt.f)
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code != tt.code {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.code.Name)
		}
	}
	if after, err := n.LedgerEnd(ctx); err != nil || after != end {
		t.Errorf("ledger end %+v (%v) after refused formats, want %d", after, err, end)
	}
}
