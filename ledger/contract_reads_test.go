package ledger_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// createPing has alice create a Ping (id) for bob on f's node and returns
// its contract id.
func (f typedFixture) createPing(t *testing.T, id string) value.ContractID {
	t.Helper()
	res := ledgertest.Submit(t, f.node, ledger.Commands{ActAs: []string{f.alice}, WorkflowID: "wf-" + id, Commands: []ledger.Command{
		ledger.CreateCommand{Template: ledger.MustParseTemplateRef("#typedping:Ping:Ping"), Arguments: ledgertest.Record(map[string]value.Value{
			"id": value.Text(id), "initiator": value.Party(f.alice), "responder": value.Party(f.bob)})}}})
	return res.Created()[0].ContractID
}

// checkPing asserts that ev is the created event of the Ping id (alice's,
// for bob) with the contract id cid, seen by witnesses (in any order), its
// argument a typed Ping record with its labels.
func (f typedFixture) checkPing(t *testing.T, ev *update.CreatedEvent, cid value.ContractID, id string, witnesses ...string) {
	t.Helper()
	if ev == nil {
		t.Errorf("no created event, want Ping %s (%s)", id, cid)
		return
	}
	rec, ok := ev.Argument.(value.Record)
	fields := map[string]value.Value{}
	for _, fl := range rec.Fields {
		fields[fl.Label] = fl.Value
	}
	want := map[string]value.Value{"id": value.Text(id), "initiator": value.Party(f.alice), "responder": value.Party(f.bob)}
	if !ok || rec.RecordID == nil || rec.RecordID.Name != "Ping" || !cmp.Equal(want, fields) {
		t.Errorf("argument %#v, want the Ping record %v", ev.Argument, want)
	}
	byName := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	if ev.ContractID != cid || ev.TemplateID.Module != "Ping" || ev.TemplateID.Name != "Ping" || ev.PackageName != "typedping" ||
		!cmp.Equal([]string{f.alice}, ev.Signatories) || !cmp.Equal([]string{f.bob}, ev.Observers) ||
		!cmp.Equal(witnesses, ev.WitnessParties, byName) || ev.CreatedAt.IsZero() {
		t.Errorf("created event %+v; want Ping %s (%s) of alice for bob, seen by %v", ev, id, cid, witnesses)
	}
}

// TestActiveContractEventsPage: the pages hold the readers' contracts in
// order, with typed events, the page's offset and continuation tokens (the
// JSON API's token is the base64 of this one); a token keeps its offset
// after the ledger moves on.
func TestActiveContractEventsPage(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	type ping struct {
		id     string
		offset int64
	}
	pings := map[value.ContractID]ping{}
	var cids []value.ContractID
	for i := range 5 {
		cid := f.createPing(t, fmt.Sprint("p", i))
		end, err := f.node.LedgerEnd(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pings[cid] = ping{fmt.Sprint("p", i), end}
		cids = append(cids, cid)
	}
	slices.Sort(cids)
	atEnd, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sync := f.node.Synchronizers()[0]
	format := ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}, Verbose: true}
	size := int32(2)
	req := ledger.PageRequest{Size: &size}
	var got []*update.CreatedEvent
	pages := 0
	for {
		page, err := f.node.ActiveContractEventsPage(ctx, format, req)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if pages == 1 {
			f.createPing(t, "later") // not on the pages: they read at the first page's offset
		}
		if want := min(2, 5-len(got)); page.At != atEnd || len(page.Contracts) != want {
			t.Fatalf("page %d: at %d with %d contracts; want at %d with %d", pages, page.At, len(page.Contracts), atEnd, want)
		}
		for i, c := range page.Contracts {
			cid := cids[len(got)]
			p := pings[cid]
			want := ledger.PagedContract{Created: c.Created, WorkflowID: "wf-" + p.id, SynchronizerID: sync}
			if d := cmp.Diff(want, c, ignoreToken); d != "" {
				t.Errorf("page %d, contract %d (-want +typed):\n%s", pages, i, d)
			}
			f.checkPing(t, c.Created, cid, p.id, f.bob)
			if c.Created.Offset != p.offset || !c.Created.ACSDelta || len(c.Created.Blob) != 0 {
				t.Errorf("page %d, contract %d at %d (ACS delta %v, %d-byte blob); want at %d, ACS delta, no blob", pages, i, c.Created.Offset,
					c.Created.ACSDelta, len(c.Created.Blob), p.offset)
			}
			got = append(got, c.Created)
		}
		if (page.NextToken == nil) != (len(got) == 5) {
			t.Fatalf("page %d: next token %q after %d of 5 contracts", pages, page.NextToken, len(got))
		}
		if page.NextToken == nil || pages > 5 {
			break
		}
		req.Token = page.NextToken
	}
	if pages != 3 {
		t.Errorf("%d pages of %d, want 3 (5 Pings)", pages, size)
	}
	// The pages hold what the walk reads at their offset, in its order.
	first, err := f.node.ActiveContractEventsPage(ctx, format, ledger.PageRequest{Size: &size})
	if err != nil {
		t.Fatal(err)
	}
	at := first.At - 1 // before "later"
	var walk []*update.CreatedEvent
	for ev, err := range f.node.ActiveContractEvents(ctx, format, at) {
		if err != nil {
			t.Fatal(err)
		}
		walk = append(walk, ev)
	}
	if d := cmp.Diff(walk, got); d != "" {
		t.Errorf("pages vs ActiveContractEvents at %d (-walk +pages):\n%s", at, d)
	}
	for _, c := range got {
		if rec, ok := c.Argument.(value.Record); !ok || rec.RecordID == nil || rec.Fields[0].Label != "id" {
			t.Errorf("argument %#v is not a typed Ping record", c.Argument)
		}
	}
}

// TestActiveContractEventsPageRefusals: the typed page refuses with the
// codes of the JSON page, and changes nothing.
func TestActiveContractEventsPageRefusals(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	f.createPing(t, "a")
	f.createPing(t, "b")
	ctx := context.Background()
	charlie := ledger.WithPrincipal(ctx, identity.Principal{UserID: "charlie",
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}})
	one, zero := int32(1), int32(0)
	first, err := f.node.ActiveContractEventsPage(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.PageRequest{Size: &one})
	if err != nil || first.NextToken == nil {
		t.Fatalf("alice's first page: %+v, %v", first, err)
	}
	end, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, earlier := end+1, first.At-1
	tests := []struct {
		name   string
		ctx    context.Context
		format ledger.ReadFormat
		req    ledger.PageRequest
		want   apierr.Code
	}{
		{"a token that is no token", ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.PageRequest{Token: []byte("garbage")}, apierr.InvalidField},
		{"another format's token", ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}, ledger.PageRequest{Size: &one, Token: first.NextToken}, apierr.InvalidACSPageToken},
		{"a token of another offset", ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.PageRequest{At: &earlier, Size: &one, Token: first.NextToken}, apierr.InvalidACSPageToken},
		{"a size of 0", ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.PageRequest{Size: &zero}, apierr.InvalidArgument},
		{"an offset after the ledger end", ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}}, ledger.PageRequest{At: &after}, apierr.OffsetAfterLedgerEnd},
		{"no right to read as the party", charlie, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}, ledger.PageRequest{}, apierr.PermissionDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := f.node.ActiveContractEventsPage(tt.ctx, tt.format, tt.req)
			if codeOf(err) != tt.want.Name {
				t.Errorf("page %+v, error %v; want %s", page, err, tt.want.Name)
			}
		})
	}
	if e, _ := f.node.LedgerEnd(ctx); e != end {
		t.Errorf("ledger end %d after the refusals, want %d", e, end)
	}
}

// TestActiveContractEventsPageInTransit: a contract unassigned and not
// yet assigned is on the page with its typed unassigned event, as the
// JSON page's JsIncompleteUnassigned, its submitter included (Canton's
// ACSReader builds it from the unassign event, submitter and all).
func TestActiveContractEventsPageInTransit(t *testing.T) {
	t.Parallel()
	syncs := []string{"s1::1220" + fmt.Sprintf("%064x", 1), "s2::1220" + fmt.Sprintf("%064x", 2)}
	node := ledgertest.Open(t, ledger.Options{Synchronizers: syncs})
	dar, _ := lftest.DAR(typedPingPackage())
	for _, s := range syncs {
		if err := node.UploadDAR(context.Background(), ledger.UploadDARRequest{DAR: dar, SynchronizerID: s}); err != nil {
			t.Fatal(err)
		}
	}
	f := typedFixture{node: node, alice: ledgertest.MustAllocate(t, node, "alice"), bob: ledgertest.MustAllocate(t, node, "bob")}
	_, dalf := lftest.Dalf(typedPingPackage())
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.pkg = pkg
	ctx := context.Background()
	moving := f.createPing(t, "moving")
	f.createPing(t, "staying")
	res, err := node.Reassign(ctx, ledger.ReassignCommands{CommandID: "unassign", Submitter: f.alice,
		Commands: []ledger.ReassignCommand{ledger.UnassignContract{ContractID: moving, Source: syncs[0], Target: syncs[1]}}},
		ledger.ReassignmentEvents(ledger.ReadAs(f.alice)))
	if err != nil {
		t.Fatal(err)
	}
	un, ok := res.Events[0].(*update.UnassignedEvent)
	if !ok || len(res.Events) != 1 {
		t.Fatalf("unassignment events %+v", res.Events)
	}
	page, err := node.ActiveContractEventsPage(ctx, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}, ledger.PageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Contracts) != 2 {
		t.Fatalf("%d typed contracts, want 2", len(page.Contracts))
	}
	inTransit := 0
	for i, c := range page.Contracts {
		if c.Created.ContractID != moving {
			if c.Unassigned != nil || c.SynchronizerID != syncs[0] || c.ReassignmentCounter != 0 || c.WorkflowID != "wf-staying" {
				t.Errorf("contract %d: %+v, want staying active on %s", i, c, syncs[0])
			}
			f.checkPing(t, c.Created, c.Created.ContractID, "staying", f.bob)
			continue
		}
		inTransit++
		f.checkPing(t, c.Created, moving, "moving", f.bob)
		want := ledger.PagedContract{Created: c.Created, WorkflowID: "wf-moving",
			SynchronizerID: syncs[0], ReassignmentCounter: 1, Unassigned: &update.UnassignedEvent{Offset: res.Offset, NodeID: un.NodeID,
				ReassignmentID: un.ReassignmentID, ContractID: moving, TemplateID: c.Created.TemplateID,
				PackageName: "typedping", Source: syncs[0], Target: syncs[1], Submitter: f.alice, ReassignmentCounter: 1, WitnessParties: []string{f.bob}}}
		if d := cmp.Diff(want, c, ignoreToken); d != "" {
			t.Errorf("contract in transit (-want +typed):\n%s", d)
		}
		if un.ReassignmentID == "" || un.TemplateID != c.Created.TemplateID {
			t.Errorf("unassignment %+v of %v", un, c.Created.TemplateID)
		}
	}
	if inTransit != 1 {
		t.Errorf("%d contracts in transit, want 1", inTransit)
	}
}

// TestContract: Contract answers a contract's created event with typed
// values (Canton's GetContract), for an active and an archived
// contract, and refuses with its codes: a non-stakeholder or an unknown
// contract (CONTRACT_PAYLOAD_NOT_FOUND), a party the caller may not read
// as (PERMISSION_DENIED, also for a malformed contract id), a malformed
// contract id (INVALID_FIELD).
func TestContract(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	created, err := f.node.Transaction(ctx, f.created, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}})
	if err != nil {
		t.Fatal(err)
	}
	archived := created.Events[0].(*update.CreatedEvent).ContractID
	active := f.createPing(t, "active")
	dave := ledgertest.MustAllocate(t, f.node, "dave")
	for _, tt := range []struct {
		name      string
		cid       value.ContractID
		id        string
		parties   []string
		witnesses []string
	}{
		{"active, as alice", active, "active", []string{f.alice}, []string{f.alice}},
		{"active, as bob and dave", active, "active", []string{f.bob, dave}, []string{f.bob}},
		{"active, as any party", active, "active", nil, []string{f.alice, f.bob}},
		{"archived, as bob", archived, "1", []string{f.bob}, []string{f.bob}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.node.Contract(ctx, tt.cid, tt.parties)
			if err != nil {
				t.Fatal(err)
			}
			f.checkPing(t, got, tt.cid, tt.id, tt.witnesses...)
			if got.Offset != 0 || got.NodeID != 0 || len(got.InterfaceViews) != 0 {
				t.Errorf("contract at offset %d, node %d, with %d views; want 0, 0, none", got.Offset, got.NodeID, len(got.InterfaceViews))
			}
			if got.ContractID != tt.cid || len(got.Blob) == 0 || got.Argument.(value.Record).RecordID == nil {
				t.Errorf("contract %s, blob of %d bytes, argument %#v; want %s with its blob, typed", got.ContractID, len(got.Blob), got.Argument, tt.cid)
			}
		})
	}
	charlie := ledger.WithPrincipal(ctx, identity.Principal{UserID: "charlie",
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}})
	for _, tt := range []struct {
		name    string
		ctx     context.Context
		cid     value.ContractID
		parties []string
		want    apierr.Code
	}{
		{"a non-stakeholder", ctx, active, []string{dave}, apierr.ContractPayloadNotFound},
		{"an unknown contract", ctx, "00" + value.ContractID(fmt.Sprintf("%064x", 9)), []string{f.alice}, apierr.ContractPayloadNotFound},
		{"no contract id", ctx, "", []string{f.alice}, apierr.MissingField},
		{"no right to read as the party", charlie, active, []string{f.bob}, apierr.PermissionDenied},
		{"no right to read as any party", charlie, active, nil, apierr.PermissionDenied},
		{"a malformed contract id", ctx, "zz", []string{f.alice}, apierr.InvalidField},
		// Authorization first, as Canton's ContractServiceAuthorization
		// runs before requireContractId.
		{"a malformed contract id, no right to read as the party", charlie, "zz", []string{f.bob}, apierr.PermissionDenied},
		{"a malformed contract id, no right to read as any party", charlie, "zz", nil, apierr.PermissionDenied},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.node.Contract(tt.ctx, tt.cid, tt.parties)
			if codeOf(err) != tt.want.Name {
				t.Errorf("typed %v (%v); want %s", got, err, tt.want.Name)
			}
		})
	}
}

// TestContractEvents: ContractEvents answers a contract's create and
// archive events (Canton's GetEventsByContractId) with typed values and
// their synchronizers,
// for an active and an archived contract, and refuses with its codes: a
// format showing none of the events or an unknown contract
// (CONTRACT_EVENTS_NOT_FOUND), a party the caller may not read as.
func TestContractEvents(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	created, err := f.node.Transaction(ctx, f.created, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}})
	if err != nil {
		t.Fatal(err)
	}
	archived := created.Events[0].(*update.CreatedEvent).ContractID
	responded, err := f.node.Transaction(ctx, f.responded, ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.alice: nil}})
	if err != nil {
		t.Fatal(err)
	}
	active := f.createPing(t, "active")
	activeEnd, err := f.node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dave := ledgertest.MustAllocate(t, f.node, "dave")
	sync := f.node.Synchronizers()[0]
	for _, tt := range []struct {
		name      string
		cid       value.ContractID
		id        string
		at        int64 // the create's offset
		parties   []string
		witnesses []string
		blobs     bool
		archived  bool
	}{
		{"active, as alice", active, "active", activeEnd, []string{f.alice}, []string{f.alice}, false, false},
		{"active, as bob and dave, with blobs", active, "active", activeEnd, []string{f.bob, dave}, []string{f.bob}, true, false},
		{"archived, as alice", archived, "1", created.Offset, []string{f.alice}, []string{f.alice}, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.node.ContractEvents(ctx, tt.cid, readAsBlobs(tt.blobs, tt.parties...))
			if err != nil {
				t.Fatal(err)
			}
			f.checkPing(t, got.Created, tt.cid, tt.id, tt.witnesses...)
			if got.Created.Offset != tt.at || !got.Created.ACSDelta {
				t.Errorf("created at %d (ACS delta %v), want at %d in the ACS delta", got.Created.Offset, got.Created.ACSDelta, tt.at)
			}
			if a := got.Archived; a != nil {
				want := &update.ArchivedEvent{Offset: responded.Offset, NodeID: a.NodeID, ContractID: tt.cid, TemplateID: got.Created.TemplateID,
					PackageName: "typedping", WitnessParties: tt.witnesses}
				if d := cmp.Diff(want, a); d != "" || got.ArchivedSynchronizerID != sync {
					t.Errorf("archived on %s (-want +typed):\n%s", got.ArchivedSynchronizerID, d)
				}
			}
			if (got.Archived != nil) != tt.archived || got.CreatedSynchronizerID != sync || (len(got.Created.Blob) > 0) != tt.blobs {
				t.Errorf("events %+v; want archived: %v, on %s, blob: %v", got, tt.archived, sync, tt.blobs)
			}
			if tt.archived && got.Archived.Offset != responded.Offset {
				t.Errorf("archived at %d, want the Respond's offset %d", got.Archived.Offset, responded.Offset)
			}
		})
	}
	charlie := ledger.WithPrincipal(ctx, identity.Principal{UserID: "charlie",
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: f.alice}}})
	for _, tt := range []struct {
		name    string
		ctx     context.Context
		cid     value.ContractID
		parties []string
		want    apierr.Code
	}{
		{"a non-stakeholder", ctx, active, []string{dave}, apierr.ContractEventsNotFound},
		{"an unknown contract", ctx, "00" + value.ContractID(fmt.Sprintf("%064x", 9)), []string{f.alice}, apierr.ContractEventsNotFound},
		{"no contract id", ctx, "", []string{f.alice}, apierr.MissingField},
		{"no right to read as the party", charlie, active, []string{f.bob}, apierr.PermissionDenied},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.node.ContractEvents(tt.ctx, tt.cid, readAsBlobs(false, tt.parties...))
			if codeOf(err) != tt.want.Name {
				t.Errorf("typed %+v (%v); want %s", got, err, tt.want.Name)
			}
		})
	}
}

// readAsBlobs reads as the parties every template, with blobs or not.
func readAsBlobs(blobs bool, parties ...string) ledger.ReadFormat {
	f := ledger.ReadFormat{Parties: map[string][]ledger.Filter{}}
	for _, p := range parties {
		f.Parties[p] = []ledger.Filter{ledger.WildcardFilter(blobs)}
	}
	return f
}

// ignoreToken leaves out a paged contract's continuation token (its
// bytes are the node's; TestContractTokensContinue checks what they do).
var ignoreToken = cmpopts.IgnoreFields(ledger.PagedContract{}, "Token")

// TestContractTokensContinue: each contract's token asks for the
// contracts after it, at the page's offset.
func TestContractTokensContinue(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	for i := range 4 {
		f.createPing(t, fmt.Sprint("p", i))
	}
	format := ledger.ReadAs(f.bob)
	all, err := f.node.ActiveContractEventsPage(ctx, format, ledger.PageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	f.createPing(t, "later")
	for i, c := range all.Contracts {
		rest, err := f.node.ActiveContractEventsPage(ctx, format, ledger.PageRequest{Token: c.Token})
		if err != nil {
			t.Fatal(err)
		}
		var got, want []value.ContractID
		for _, r := range rest.Contracts {
			got = append(got, r.Created.ContractID)
		}
		for _, r := range all.Contracts[i+1:] {
			want = append(want, r.Created.ContractID)
		}
		if rest.At != all.At || !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
			t.Errorf("after contract %d: at %d, %v; want at %d, %v", i, rest.At, got, all.At, want)
		}
	}
}
