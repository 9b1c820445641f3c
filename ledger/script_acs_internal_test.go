package ledger

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestActiveNowIsIndexedContractsAtTheEnd: activeNow visits the contracts
// indexedContracts visits at the snapshot's ledger end, each once, for
// single parties, overlapping parties and a template filter, with
// contracts of two parties and archived ones in the index.
func TestActiveNowIsIndexedContractsAtTheEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n, err := Open(Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	// Main:T {a: Party, b: Party}, both signatories.
	p := lftest.TemplatePackage("acs-now", "1.0.0", nil,
		lftest.Field{Name: "a", Type: lftest.B(lftest.Party)}, lftest.Field{Name: "b", Type: lftest.B(lftest.Party)})
	dar, ids := lftest.DAR(p)
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	tt := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "T"}
	var parties []string
	for _, h := range []string{"alice", "bob", "carol"} {
		d, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: h})
		if err != nil {
			t.Fatal(err)
		}
		parties = append(parties, d.Party)
	}
	alice, bob, carol := parties[0], parties[1], parties[2]
	cmds := 0
	submit := func(actAs []string, c Command) *tx.Transaction {
		cmds++
		res, err := n.Submit(ctx, Commands{ActAs: actAs, CommandID: fmt.Sprint("acs-now-", cmds), Commands: []Command{c}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Transaction
	}
	create := func(a, b string) value.ContractID {
		tr := submit(union([]string{a, b}), CreateCommand{Template: TemplateRef{ID: tt}, Arguments: value.Record{RecordID: &tt,
			Fields: []value.RecordField{{Label: "a", Value: value.Party(a)}, {Label: "b", Value: value.Party(b)}}}})
		return tr.Nodes[tr.Roots[0]].(*tx.Create).ContractID
	}
	for _, ab := range [][2]string{{alice, alice}, {alice, bob}, {bob, bob}, {bob, alice}, {carol, carol}, {alice, bob}} {
		create(ab[0], ab[1])
	}
	gone := create(alice, bob)
	submit([]string{alice, bob}, ExerciseCommand{Template: TemplateRef{ID: tt}, ContractID: gone, Choice: "Go", Argument: value.Unit{}})
	gone2 := create(carol, carol)
	submit([]string{carol}, ExerciseCommand{Template: TemplateRef{ID: tt}, ContractID: gone2, Choice: "Go", Argument: value.Unit{}})

	all := func(string, []byte, []byte) bool { return true }
	none := func(string, []byte, []byte) bool { return false }
	onlyBob := func(party string, _, _ []byte) bool { return party == bob }
	for _, c := range []struct {
		name    string
		parties []string
		keep    func(string, []byte, []byte) bool
	}{
		{"alice", []string{alice}, all},
		{"carol (one archived)", []string{carol}, all},
		{"alice and bob", []string{alice, bob}, all},
		{"everyone", []string{alice, bob, carol}, all},
		{"nothing kept", []string{alice, bob}, none},
		{"bob's entries only", []string{alice, bob}, onlyBob},
	} {
		var got, want []string
		err := n.st.View(func(r *store.Reader) error {
			end, err := snapshotEnd(r)
			if err != nil {
				return err
			}
			if err := indexedContracts(r, c.parties, end, "", c.keep, func(cid string) (bool, error) { want = append(want, cid); return true, nil }); err != nil {
				return err
			}
			return activeNow(r, c.parties, c.keep, func(cid string) (bool, error) { got = append(got, cid); return true, nil })
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: contracts (-indexedContracts +activeNow):\n%s", c.name, d)
		}
		if slices.Contains(got, string(gone)) || slices.Contains(got, string(gone2)) {
			t.Errorf("%s: an archived contract is visited", c.name)
		}
	}
}

// snapshotEnd is the ledger end of the reader's snapshot (activeNow's
// reference, indexedContracts, reads at it).
func snapshotEnd(r *store.Reader) (int64, error) {
	v, err := r.Get(store.KeyLedgerEnd)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return store.DecodeOffset(v), nil
}
