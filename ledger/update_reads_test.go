package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
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

// TestTransaction: the read of an update holds its events, ids, offsets
// and parties (each asserted here; the JSON bytes are package jsonapi's to
// test), with typed values (records with their type id and labels).
func TestTransaction(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	end, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	respondedAt, createdAt := end, end-1 // the fixture's last two commits
	sync := f.node.Synchronizers()[0]
	var cid value.ContractID // the Ping's, from the first read
	tests := []struct {
		name   string
		update string
		party  string
		shape  ledger.Shape
		blobs  bool
		check  func(t *testing.T, ev update.Event)
	}{
		{"create as alice, ACS delta", f.created, f.alice, ledger.ACSDelta, false, func(t *testing.T, ev update.Event) {
			c, _ := ev.(*update.CreatedEvent)
			if c == nil || !cidPattern.MatchString(string(c.ContractID)) {
				t.Fatalf("event %#v, want a created event with a contract id", ev)
			}
			cid = c.ContractID
			f.checkPing(t, c, cid, "1", f.alice)
			if c.Offset != createdAt || c.NodeID != 0 || !c.ACSDelta || len(c.Blob) != 0 {
				t.Errorf("created event %+v, want node 0 at %d in the ACS delta, no blob", c, createdAt)
			}
		}},
		{"create as bob, ledger effects", f.created, f.bob, ledger.LedgerEffects, false, func(t *testing.T, ev update.Event) {
			c, _ := ev.(*update.CreatedEvent)
			f.checkPing(t, c, cid, "1", f.bob)
			if c != nil && (c.Offset != createdAt || !c.ACSDelta) {
				t.Errorf("created event %+v, want at %d, in the ACS delta", c, createdAt)
			}
		}},
		{"create as bob, with its blob", f.created, f.bob, ledger.ACSDelta, true, func(t *testing.T, ev update.Event) {
			c, _ := ev.(*update.CreatedEvent)
			f.checkPing(t, c, cid, "1", f.bob)
		}},
		{"respond as alice, ACS delta", f.responded, f.alice, ledger.ACSDelta, false, func(t *testing.T, ev update.Event) {
			a, ok := ev.(*update.ArchivedEvent)
			if !ok || a.ContractID != cid || a.TemplateID.Name != "Ping" || a.PackageName != "typedping" || a.Offset != respondedAt ||
				!cmp.Equal([]string{f.alice}, a.WitnessParties) {
				t.Errorf("event %#v, want the archive of %s seen by alice", ev, cid)
			}
		}},
		{"respond as bob, ledger effects", f.responded, f.bob, ledger.LedgerEffects, false, func(t *testing.T, ev update.Event) {
			x, ok := ev.(*update.ExercisedEvent)
			if !ok || x.ContractID != cid || x.Choice != "Respond" || !x.Consuming || x.TemplateID.Name != "Ping" || x.PackageName != "typedping" ||
				x.Offset != respondedAt || x.NodeID != 0 || x.LastDescendantNodeID != 0 || !x.ACSDelta ||
				!cmp.Equal([]string{f.bob}, x.ActingParties) || !cmp.Equal([]string{f.bob}, x.WitnessParties) ||
				x.Argument != value.Text("pong") || x.Result != value.Text("pong") {
				t.Errorf("event %#v, want bob's consuming Respond on %s", ev, cid)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			format := ledger.ReadFormat{Parties: map[string][]ledger.Filter{tt.party: {ledger.WildcardFilter(tt.blobs)}}, Shape: tt.shape}
			got, err := f.node.Transaction(ctx, tt.update, format)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Events) != 1 {
				t.Fatalf("%d events, want 1: %+v", len(got.Events), got.Events)
			}
			if c, ok := got.Events[0].(*update.CreatedEvent); ok && (len(c.Blob) > 0) != tt.blobs {
				t.Errorf("created event blob of %d bytes, want one: %v", len(c.Blob), tt.blobs)
			}
			wantAt := createdAt
			if tt.update == f.responded {
				wantAt = respondedAt
			}
			if got.UpdateID != tt.update || got.Offset != wantAt || got.SynchronizerID != sync || got.EffectiveAt.IsZero() || got.RecordTime.IsZero() {
				t.Errorf("transaction %+v; want %s at %d on %s", got, tt.update, wantAt, sync)
			}
			tt.check(t, got.Events[0])
			// The typed page read holds the same transaction.
			var paged *update.Transaction
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
	x, ok := tr.Events[0].(*update.ExercisedEvent)
	if !ok || x.Result != value.Text("pong") || x.Argument != value.Text("pong") {
		t.Errorf("Respond event %#v, want argument and result \"pong\"", tr.Events[0])
	}
	cr, err := f.node.Transaction(ctx, f.created, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}})
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := cr.Events[0].(*update.CreatedEvent).Argument.(value.Record)
	if !ok || rec.RecordID == nil || rec.RecordID.Name != "Ping" || len(rec.Fields) != 3 || rec.Fields[1].Label != "initiator" {
		t.Errorf("create argument %#v, want a Ping:Ping record with labels", cr.Events[0].(*update.CreatedEvent).Argument)
	}
}

// TestReadRefusals: the reads refuse with Canton's codes (those the JSON
// API answers too), and change nothing.
func TestReadRefusals(t *testing.T) {
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
		{"unknown update id", ctx, "1220" + strings.Repeat("ab", 32), f.alice, apierr.UpdateNotFound},
		{"malformed update id", ctx, "1220" + "ab", f.alice, apierr.InvalidArgument},
		{"invisible to the party", ctx, f.created, ledgertest.MustAllocate(t, f.node, "dave"), apierr.UpdateNotFound},
		{"no right to read as the party", charlie, f.created, f.alice, apierr.PermissionDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.node.Transaction(tt.ctx, tt.update, ledger.ReadFormat{Parties: map[string][]ledger.Filter{tt.party: nil}})
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != tt.want.Name {
				t.Errorf("error %v, want %s", err, tt.want.Name)
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
	only := func(seq iter.Seq2[*update.Transaction, error]) error {
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
	bad := cur + 1
	walks := []struct {
		name  string
		typed error
		want  apierr.Code
	}{
		{"Transactions without rights",
			only(f.node.Transactions(charlie, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.OffsetRange{})), apierr.PermissionDenied},
		{"Transactions after the ledger end",
			only(f.node.Transactions(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.OffsetRange{After: bad})), apierr.OffsetAfterLedgerEnd},
		{"Transactions with no party",
			only(f.node.Transactions(ctx, ledger.ReadFormat{}, ledger.OffsetRange{})), apierr.InvalidArgument},
	}
	var acsErr error
	for _, err := range f.node.ActiveContractEvents(charlie, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, 0) {
		acsErr = err
	}
	walks = append(walks, struct {
		name  string
		typed error
		want  apierr.Code
	}{"ActiveContractEvents without rights", acsErr, apierr.PermissionDenied})
	for _, w := range walks {
		if code(w.typed) != w.want.Name {
			t.Errorf("%s: %v, want %s", w.name, w.typed, w.want.Name)
		}
	}
	after, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after != end+1 { // dave's allocation only
		t.Errorf("ledger end %d after the refusals, want %d", after, end+1)
	}
}

// TestActiveContractEvents: the active contracts, with typed arguments, at
// the ledger end and at an earlier offset.
func TestActiveContractEvents(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	created, err := f.node.Transaction(ctx, f.created, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{created.Offset, 0} {
		var got []*update.CreatedEvent
		for ev, err := range f.node.ActiveContractEvents(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}, at) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ev)
		}
		var want []*update.CreatedEvent
		if at != 0 {
			want = []*update.CreatedEvent{created.Events[0].(*update.CreatedEvent)}
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
