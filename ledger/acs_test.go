package ledger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
)

func partyFormat(p string) ledger.EventFormat {
	return ledger.EventFormat{FiltersByParty: map[string]ledger.Filters{p: {}}}
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

	af := partyFormat(f.alice)
	now, err := f.n.ActiveContracts(f.ctx, ledger.GetActiveContractsRequest{ActiveAtOffset: end.Offset, EventFormat: &af}, ledger.ListOptions{})
	if err != nil || len(now) != 3 {
		t.Fatalf("alice's ACS now: %d, %v", len(now), err)
	}
	for _, c := range now {
		if c.ContractEntry.JsActiveContract == nil || c.ContractEntry.JsActiveContract.CreatedEvent.ContractID == cids[0] {
			t.Errorf("ACS entry %+v", c.ContractEntry)
		}
	}
	before, err := f.n.ActiveContracts(f.ctx, ledger.GetActiveContractsRequest{ActiveAtOffset: atFour.Offset, EventFormat: &af}, ledger.ListOptions{})
	if err != nil || len(before) != 4 {
		t.Fatalf("alice's ACS before the archive: %d, %v", len(before), err)
	}
	any := ledger.EventFormat{FiltersForAnyParty: &ledger.Filters{}}
	_, err = f.n.ActiveContracts(f.ctx, ledger.GetActiveContractsRequest{ActiveAtOffset: atFour.Offset, EventFormat: &any}, ledger.ListOptions{})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.HTTPStatus() != 413 {
		t.Fatalf("5 contracts with a list limit of 4: %v", err)
	}
	if _, err := f.n.ActiveContracts(f.ctx, ledger.GetActiveContractsRequest{ActiveAtOffset: end.Offset + 1, EventFormat: &af}, ledger.ListOptions{}); !errors.Is(err, apierr.OffsetAfterLedgerEnd) {
		t.Errorf("offset after the end: %v", err)
	}

	// Pages of 2 visit every active contract once.
	seen := map[string]bool{}
	req := ledger.GetActiveContractsPageRequest{EventFormat: any, MaxPageSize: i32(2)}
	for pages := 0; pages < 10; pages++ {
		page, err := f.n.ActiveContractsPage(f.ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.ActiveContracts {
			id := c.ContractEntry.JsActiveContract.CreatedEvent.ContractID
			if seen[id] {
				t.Errorf("%s seen twice", id)
			}
			seen[id] = true
		}
		if page.NextPageToken == nil {
			break
		}
		req.PageToken = *page.NextPageToken
	}
	if len(seen) != 4 {
		t.Errorf("paged %d active contracts, want 4", len(seen))
	}

	ev, err := f.n.EventsByContractID(f.ctx, ledger.GetEventsByContractIDRequest{ContractID: cids[0], EventFormat: af})
	if err != nil || ev.Created == nil || ev.Archived == nil || ev.Archived.ArchivedEvent.Offset != end.Offset {
		t.Fatalf("events of the archived contract: %+v, %v", ev, err)
	}
	if _, err := f.n.EventsByContractID(f.ctx, ledger.GetEventsByContractIDRequest{ContractID: cids[1], EventFormat: partyFormat(f.bob)}); !errors.Is(err, apierr.ContractEventsNotFound) {
		t.Errorf("events invisible to bob: %v", err)
	}
	cs, err := f.n.ConnectedSynchronizers(f.ctx, ledger.ConnectedSynchronizersRequest{Party: f.alice})
	if err != nil || len(cs.ConnectedSynchronizers) != 1 || cs.ConnectedSynchronizers[0].Permission != "PARTICIPANT_PERMISSION_SUBMISSION" {
		t.Errorf("connected synchronizers: %+v, %v", cs, err)
	}
}
