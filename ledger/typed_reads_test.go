package ledger_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// typedPingPackage is a Ping package as Canton's admin workflow has it
// (Ping:Ping {id: Text, initiator: Party, responder: Party}, signatory
// initiator, observer responder), with a consuming choice Respond : Text
// -> Text (it returns its argument) controlled by the responder.
func typedPingPackage() lftest.Package {
	ping := lf.TypeConApp{ID: lf.TypeConID{Module: "Ping", Name: "Ping"}}
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	one := func(field string) lf.Expr {
		return &lf.ECons{Type: party, Front: []lf.Expr{&lf.ERecProj{Type: ping, Field: field, Record: &lf.EVar{Name: "this"}}}, Tail: &lf.ENil{Type: party}}
	}
	return lftest.Package{Name: "typedping", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Ping",
		DataTypes: []lftest.DataType{{Name: "Ping", Serializable: true, Fields: []lftest.Field{
			{Name: "id", Type: lftest.B(lftest.Text)}, {Name: "initiator", Type: lftest.B(lftest.Party)}, {Name: "responder", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "Ping", Signatories: one("initiator"), Observers: one("responder"),
			Choices: []lftest.Choice{{Name: "Respond", Consuming: true, Arg: lftest.B(lftest.Text), Ret: lftest.B(lftest.Text), Controllers: one("responder"),
				Update: &lf.EUpdate{Update: &lf.UPure{Type: &lf.TBuiltin{Builtin: lf.BuiltinText}, Expr: &lf.EVar{Name: "arg"}}}}}}},
	}}}
}

// typedFixture is a node where alice created a Ping for bob (update
// created) and bob responded (update responded).
type typedFixture struct {
	node               *ledger.Node
	alice, bob         string
	pkg                *lf.Package
	created, responded string
}

func newTypedFixture(t *testing.T) typedFixture {
	t.Helper()
	node := ledgertest.Open(t, ledger.Options{})
	p := typedPingPackage()
	dar, _ := lftest.DAR(p)
	ledgertest.MustUploadDAR(t, node, dar)
	_, dalf := lftest.Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := typedFixture{node: node, pkg: pkg, alice: ledgertest.MustAllocate(t, node, "alice"), bob: ledgertest.MustAllocate(t, node, "bob")}
	ping := ledger.MustParseTemplateRef("#typedping:Ping:Ping")
	created := ledgertest.Submit(t, node, ledger.Commands{ActAs: []string{f.alice}, CommandID: "ping", Commands: []ledger.Command{
		ledger.CreateCommand{Template: ping, Arguments: ledgertest.Record(map[string]value.Value{
			"id": value.Text("1"), "initiator": value.Party(f.alice), "responder": value.Party(f.bob)})}}})
	f.created = created.UpdateID
	res := ledgertest.Exercise(t, node, f.bob, ping, created.Created()[0].ContractID, "Respond", value.Text("pong"))
	f.responded = res.UpdateID
	return f
}

// wireFormat is the JSON reads' format for the parties in a shape.
func wireFormat(shape string, parties ...string) *ledger.TransactionFormat {
	return wireFormatBlobs(shape, false, parties...)
}

// wireFormatBlobs is wireFormat, with created-event blobs when blobs.
func wireFormatBlobs(shape string, blobs bool, parties ...string) *ledger.TransactionFormat {
	ef := ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{}, Verbose: true}
	var fs ledger.Filters
	if blobs {
		fs.Cumulative = []ledger.CumulativeFilter{{IdentifierFilter: ledger.IdentifierFilter{
			WildcardFilter: &ledger.Wrapped[ledger.WildcardFilterValue]{Value: ledger.WildcardFilterValue{IncludeCreatedEventBlob: true}}}}}
	}
	for _, p := range parties {
		ef.FiltersByParty[p] = fs
	}
	return &ledger.TransactionFormat{EventFormat: ef, TransactionShape: shape}
}

// fromJSON is what a typed read should hold for a JSON transaction: its
// values decoded with value.FromJSON and the package's types.
func (f typedFixture) fromJSON(t *testing.T, jt ledger.JsTransaction) *ledger.Transaction {
	t.Helper()
	lookup := value.PackageLookup(f.pkg)
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tid := func(s string) lf.TypeConID {
		id, err := lf.SplitIdentifier(s)
		if err != nil {
			t.Fatal(err)
		}
		return lf.TypeConID{PackageID: id.PackageID, Module: id.Module, Name: id.Entity}
	}
	decode := func(raw []byte, ty lf.Type) value.Value {
		v, err := value.FromJSON(raw, ty, lookup)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", raw, err)
		}
		return v
	}
	blob := func(s string) []byte {
		if s == "" {
			return nil
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	out := &ledger.Transaction{UpdateID: jt.UpdateID, Offset: jt.Offset, CommandID: jt.CommandID, WorkflowID: jt.WorkflowID,
		EffectiveAt: at(jt.EffectiveAt), RecordTime: at(jt.RecordTime), SynchronizerID: jt.SynchronizerID, Events: []ledger.Event{}}
	for _, e := range jt.Events {
		switch {
		case e.CreatedEvent != nil:
			c := e.CreatedEvent
			id := tid(c.TemplateID)
			out.Events = append(out.Events, &ledger.CreatedEvent{Offset: c.Offset, NodeID: c.NodeID, ContractID: value.ContractID(c.ContractID),
				TemplateID: id, PackageName: c.PackageName, Argument: decode(c.CreateArgument, value.TypeOf(id.PackageID, id.Module, id.Name)),
				Signatories: c.Signatories, Observers: c.Observers, WitnessParties: c.WitnessParties, CreatedAt: at(c.CreatedAt), ACSDelta: c.ACSDelta,
				Blob: blob(c.CreatedEventBlob)})
		case e.ArchivedEvent != nil:
			a := e.ArchivedEvent
			out.Events = append(out.Events, &ledger.ArchivedEvent{Offset: a.Offset, NodeID: a.NodeID, ContractID: value.ContractID(a.ContractID),
				TemplateID: tid(a.TemplateID), PackageName: a.PackageName, WitnessParties: a.WitnessParties})
		case e.ExercisedEvent != nil:
			x := e.ExercisedEvent
			id := tid(x.TemplateID)
			ch := f.pkg.Choice(id.Module, id.Name, x.Choice)
			out.Events = append(out.Events, &ledger.ExercisedEvent{Offset: x.Offset, NodeID: x.NodeID, ContractID: value.ContractID(x.ContractID),
				TemplateID: id, PackageName: x.PackageName, Choice: x.Choice, Argument: decode(x.ChoiceArgument, ch.ArgType),
				Result: decode(x.ExerciseResult, ch.ReturnType), ActingParties: x.ActingParties, Consuming: x.Consuming,
				WitnessParties: x.WitnessParties, LastDescendantNodeID: x.LastDescendantNodeID, ACSDelta: x.ACSDelta})
		}
	}
	return out
}

// TestTransactionAgreesWithJSON: the typed read of an update holds the
// events, ids and parties of the JSON read of the same update, and its
// values are the JSON's decoded with the package's types (records with
// their type id and labels).
func TestTransactionAgreesWithJSON(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	tests := []struct {
		name   string
		update string
		party  string
		shape  ledger.Shape
		wire   string
		blobs  bool
		events int
	}{
		{"create as alice, ACS delta", f.created, f.alice, ledger.ACSDelta, ledger.ShapeACSDelta, false, 1},
		{"create as bob, ledger effects", f.created, f.bob, ledger.LedgerEffects, ledger.ShapeLedgerEffects, false, 1},
		{"create as bob, with its blob", f.created, f.bob, ledger.ACSDelta, ledger.ShapeACSDelta, true, 1},
		{"respond as alice, ACS delta", f.responded, f.alice, ledger.ACSDelta, ledger.ShapeACSDelta, false, 1},
		{"respond as bob, ledger effects", f.responded, f.bob, ledger.LedgerEffects, ledger.ShapeLedgerEffects, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js, err := f.node.TransactionByID(ctx, ledger.GetTransactionByIDRequest{UpdateID: tt.update, TransactionFormat: wireFormatBlobs(tt.wire, tt.blobs, tt.party)})
			if err != nil {
				t.Fatal(err)
			}
			format := ledger.ReadFormat{Parties: map[string][]ledger.Filter{tt.party: {ledger.WildcardFilter(tt.blobs)}}, Shape: tt.shape}
			got, err := f.node.Transaction(ctx, tt.update, format)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Events) != tt.events {
				t.Fatalf("%d events, want %d: %+v", len(got.Events), tt.events, got.Events)
			}
			if c, ok := got.Events[0].(*ledger.CreatedEvent); ok && (len(c.Blob) > 0) != tt.blobs {
				t.Errorf("created event blob of %d bytes, want one: %v", len(c.Blob), tt.blobs)
			}
			if diff := cmp.Diff(f.fromJSON(t, js.Transaction), got); diff != "" {
				t.Errorf("typed read (-from JSON +typed):\n%s", diff)
			}
			// The typed page read holds the same transaction.
			var paged *ledger.Transaction
			for tr, err := range f.node.Transactions(ctx, format, ledger.OffsetRange{}) {
				if err != nil {
					t.Fatal(err)
				}
				if tr.UpdateID == tt.update {
					paged = tr
				}
			}
			if diff := cmp.Diff(got, paged); diff != "" {
				t.Errorf("Transactions vs Transaction (-one +paged):\n%s", diff)
			}
		})
	}
	// Values are typed: the create's argument is a record of Ping:Ping with
	// its labels, the exercise's result the choice's Text.
	tr, err := f.node.Transaction(ctx, f.responded, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}, Shape: ledger.LedgerEffects})
	if err != nil {
		t.Fatal(err)
	}
	x, ok := tr.Events[0].(*ledger.ExercisedEvent)
	if !ok || x.Result != value.Text("pong") || x.Argument != value.Text("pong") {
		t.Errorf("Respond event %#v, want argument and result \"pong\"", tr.Events[0])
	}
	cr, err := f.node.Transaction(ctx, f.created, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}})
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := cr.Events[0].(*ledger.CreatedEvent).Argument.(value.Record)
	if !ok || rec.RecordID == nil || rec.RecordID.Name != "Ping" || len(rec.Fields) != 3 || rec.Fields[1].Label != "initiator" {
		t.Errorf("create argument %#v, want a Ping:Ping record with labels", cr.Events[0].(*ledger.CreatedEvent).Argument)
	}
}

// pageErr is the error of an UpdatesPage call.
func pageErr(_ ledger.GetUpdatesPageResponse, err error) error { return err }

// TestTypedReadRefusals: the typed reads refuse with the codes of the
// JSON reads they stand for, and change nothing.
func TestTypedReadRefusals(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	charlie := ledger.WithPrincipal(ctx, identity.Principal{UserID: "charlie",
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: "charlie::1220" + "00"}}})
	end, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		ctx    context.Context
		update string
		party  string
		want   apierr.Code
	}{
		{"unknown update id", ctx, "1220" + "ab", f.alice, apierr.UpdateNotFound},
		{"invisible to the party", ctx, f.created, ledgertest.MustAllocate(t, f.node, "dave"), apierr.UpdateNotFound},
		{"no right to read as the party", charlie, f.created, f.alice, apierr.PermissionDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, jsErr := f.node.TransactionByID(tt.ctx, ledger.GetTransactionByIDRequest{UpdateID: tt.update, TransactionFormat: wireFormat(ledger.ShapeACSDelta, tt.party)})
			_, err := f.node.Transaction(tt.ctx, tt.update, ledger.ReadFormat{Parties: map[string][]ledger.Filter{tt.party: nil}})
			for _, e := range []error{jsErr, err} {
				var ae *apierr.Error
				if !errors.As(e, &ae) || ae.Code.Name != tt.want.Name {
					t.Errorf("error %v, want %s", e, tt.want.Name)
				}
			}
		})
	}
	// The walks refuse with the codes of the JSON pages they read.
	code := func(err error) string {
		var ae *apierr.Error
		if !errors.As(err, &ae) {
			return fmt.Sprint("no apierr: ", err)
		}
		return ae.Code.Name
	}
	only := func(seq iter.Seq2[*ledger.Transaction, error]) error {
		var errs []error
		for tr, err := range seq {
			if err == nil {
				t.Errorf("walk yielded %s, want only an error", tr.UpdateID)
			}
			errs = append(errs, err)
		}
		if len(errs) != 1 {
			t.Fatalf("walk yielded %d errors, want 1: %v", len(errs), errs)
		}
		return errs[0]
	}
	cur, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bad := cur.Offset + 1
	walks := []struct {
		name        string
		typed, wire error
	}{
		{"Transactions without rights",
			only(f.node.Transactions(charlie, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.OffsetRange{})),
			pageErr(f.node.UpdatesPage(charlie, ledger.GetUpdatesPageRequest{UpdateFormat: ledger.UpdateFormat{IncludeTransactions: wireFormat(ledger.ShapeACSDelta, f.alice)}}))},
		{"Transactions after the ledger end",
			only(f.node.Transactions(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.OffsetRange{After: bad})),
			pageErr(f.node.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{BeginOffsetExclusive: bad, UpdateFormat: ledger.UpdateFormat{IncludeTransactions: wireFormat(ledger.ShapeACSDelta, f.alice)}}))},
		{"Transactions with no party",
			only(f.node.Transactions(ctx, ledger.ReadFormat{}, ledger.OffsetRange{})),
			pageErr(f.node.UpdatesPage(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: ledger.UpdateFormat{IncludeTransactions: wireFormat(ledger.ShapeACSDelta)}}))},
	}
	var acsErr error
	for _, err := range f.node.ActiveContractEvents(charlie, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, 0) {
		acsErr = err
	}
	_, acsWire := f.node.ActiveContractsPage(charlie, ledger.GetActiveContractsPageRequest{EventFormat: wireFormat(ledger.ShapeACSDelta, f.alice).EventFormat})
	walks = append(walks, struct {
		name        string
		typed, wire error
	}{"ActiveContractEvents without rights", acsErr, acsWire})
	for _, w := range walks {
		if w.wire == nil || code(w.typed) != code(w.wire) {
			t.Errorf("%s: typed %v, JSON %v", w.name, w.typed, w.wire)
		}
	}
	after, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Offset != end.Offset+1 { // dave's allocation only
		t.Errorf("ledger end %d after the refusals, want %d", after.Offset, end.Offset+1)
	}
}

// TestActiveContractEventsAgreeWithJSON: the typed active contracts are
// the JSON ones, with typed arguments, at the ledger end and at an
// earlier offset.
func TestActiveContractEventsAgreeWithJSON(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	created, err := f.node.Transaction(ctx, f.created, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{created.Offset, 0} {
		var got []*ledger.CreatedEvent
		for ev, err := range f.node.ActiveContractEvents(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}, at) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ev)
		}
		var want []*ledger.CreatedEvent
		if at != 0 {
			want = []*ledger.CreatedEvent{created.Events[0].(*ledger.CreatedEvent)}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("active at %d (-want +got):\n%s", at, diff)
		}
	}
}

// TestTransactionsTail: with Tail the walk waits for transactions
// committed after it started, and ends with ctx's error once ctx ends.
func TestTransactionsTail(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ping := ledger.MustParseTemplateRef("#typedping:Ping:Ping")
	var got []string
	var last error
	for tr, err := range f.node.Transactions(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}, ledger.OffsetRange{Tail: true}) {
		if err != nil {
			last = err
			continue
		}
		got = append(got, tr.UpdateID)
		switch len(got) {
		case 2: // caught up: commit one more while the walk waits
			go func() {
				_, err := f.node.Submit(ctx, ledger.Commands{ActAs: []string{f.alice}, CommandID: "ping-2", Commands: []ledger.Command{
					ledger.CreateCommand{Template: ping, Arguments: ledgertest.Record(map[string]value.Value{
						"id": value.Text("2"), "initiator": value.Party(f.alice), "responder": value.Party(f.bob)})}}})
				if err != nil {
					t.Errorf("Submit: %v", err)
					cancel()
				}
			}()
		case 3:
			cancel()
		}
	}
	if len(got) != 3 || got[0] != f.created || got[1] != f.responded {
		t.Errorf("transactions %v, want %s, %s and a third", got, f.created, f.responded)
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("last element %v, want context.Canceled", last)
	}
}
