package ledger_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// partyFormat is the JSON event format reading as p every template (the
// other test files' wire requests use it).
func partyFormat(p string) jsonapi.EventFormat {
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{p: {}}}
}

func TestActiveContracts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, ledger.Options{ListLimit: 4})
	var cids []string
	for i := range 4 {
		cids = append(cids, f.create(t, fmt.Sprintf("c%d", i), f.alice).ContractID)
	}
	f.create(t, "bob1", f.bob)
	atFour, _ := f.n.LedgerEnd(f.ctx)
	if _, err := f.exercise("x", f.alice, cids[0], "Archive", `{}`); err != nil {
		t.Fatal(err)
	}
	end, _ := f.n.LedgerEnd(f.ctx)

	af := ledger.ReadAs(f.alice)
	acs := func(f0 ledger.ReadFormat, at int64) ([]string, error) {
		var ids []string
		for ev, err := range f.n.ActiveContractEvents(f.ctx, f0, at) {
			if err != nil {
				return ids, err
			}
			ids = append(ids, string(ev.ContractID))
		}
		return ids, nil
	}
	now, err := acs(af, end)
	if diff := cmp.Diff(cids[1:], now, cmpopts.SortSlices(func(a, b string) bool { return a < b })); err != nil || diff != "" {
		t.Fatalf("alice's ACS now (-want +got), %v:\n%s", err, diff)
	}
	before, err := acs(af, atFour)
	if diff := cmp.Diff(cids, before, cmpopts.SortSlices(func(a, b string) bool { return a < b })); err != nil || diff != "" {
		t.Fatalf("alice's ACS before the archive (-want +got), %v:\n%s", err, diff)
	}
	// The list limit (413 for 5 contracts with a limit of 4) is the JSON
	// list's (ledger/jsonapi TestActiveContractsListSameAsNode); the typed
	// walk pages instead.
	any := ledger.ReadFormat{AnyParty: []ledger.Filter{}}
	if all, err := acs(any, atFour); err != nil || len(all) != 5 {
		t.Fatalf("every party's ACS before the archive: %d, %v", len(all), err)
	}
	if _, err := acs(af, end+1); !errors.Is(err, apierr.OffsetAfterLedgerEnd) {
		t.Errorf("offset after the end: %v", err)
	}

	// Pages of 2 visit every active contract once.
	seen := map[value.ContractID]bool{}
	req := ledger.PageRequest{Size: i32(2)}
	for pages := 0; pages < 10; pages++ {
		page, err := f.n.ActiveContractEventsPage(f.ctx, any, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Contracts {
			id := c.Created.ContractID
			if seen[id] {
				t.Errorf("%s seen twice", id)
			}
			seen[id] = true
		}
		if page.NextToken == nil {
			break
		}
		req.Token = page.NextToken
	}
	if len(seen) != 4 {
		t.Errorf("paged %d active contracts, want 4", len(seen))
	}

	ev, err := f.n.ContractEvents(f.ctx, value.ContractID(cids[0]), af)
	if err != nil || ev.Created == nil || ev.Archived == nil || ev.Archived.Offset != end || ev.Created.ContractID != value.ContractID(cids[0]) {
		t.Fatalf("events of the archived contract: %+v, %v", ev, err)
	}
	if _, err := f.n.ContractEvents(f.ctx, value.ContractID(cids[1]), ledger.ReadAs(f.bob)); !errors.Is(err, apierr.ContractEventsNotFound) {
		t.Errorf("events invisible to bob: %v", err)
	}
	// An id that is no contract id is INVALID_FIELD, as Canton's
	// requireContractId has it, not "not found".
	for _, cid := range []string{"nope", "00nope", "00ab"} {
		if _, err := f.n.ContractEvents(f.ctx, value.ContractID(cid), af); !errors.Is(err, apierr.InvalidField) {
			t.Errorf("events of contract id %q: %v, want INVALID_FIELD", cid, err)
		}
		if _, err := f.n.Contract(f.ctx, value.ContractID(cid), []string{f.bob}); !errors.Is(err, apierr.InvalidField) {
			t.Errorf("contract id %q: %v, want INVALID_FIELD", cid, err)
		}
	}
	// A querying party that is no party is INVALID_ARGUMENT (Canton's
	// requireParties), not an error of another request's filters_by_party.
	var ae *apierr.Error
	if _, err := f.n.Contract(f.ctx, value.ContractID(cids[0]), []string{"bad!"}); !errors.As(err, &ae) ||
		ae.Code.Name != apierr.InvalidArgument.Name || strings.Contains(ae.Cause, "filters_by_party") {
		t.Errorf("querying party bad!: %v, want INVALID_ARGUMENT", err)
	}
	// The participant's permission per synchronizer is the JSON/gRPC
	// answer's (httpadapter TestConnectedSynchronizers, grpcadapter); the
	// typed node lists its one synchronizer.
	if syncs := f.n.Synchronizers(); len(syncs) != 1 {
		t.Errorf("synchronizers: %v", syncs)
	}
}
