package ledger

import (
	"bytes"
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
// single parties, overlapping parties and template filters, with
// contracts of two parties, of two templates, and archived ones in the
// index; on a node of its own store and on a node restored from a
// prepared snapshot (a Daml Script's, whose store keeps an index by
// template that activeNow reads for a template filter).
func TestActiveNowIsIndexedContractsAtTheEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// Main:T {a: Party, b: Party}, both signatories, in two packages.
	fields := []lftest.Field{{Name: "a", Type: lftest.B(lftest.Party)}, {Name: "b", Type: lftest.B(lftest.Party)}}
	dar1, ids1 := lftest.DAR(lftest.TemplatePackage("acs-now", "1.0.0", nil, fields...))
	dar2, ids2 := lftest.DAR(lftest.TemplatePackage("acs-now-other", "1.0.0", nil, fields...))
	opts := Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)}
	open := func(opts Options) *Node {
		n, err := Open(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	base := open(opts)
	for _, d := range [][]byte{dar1, dar2} {
		if err := base.UploadDAR(ctx, UploadDARRequest{DAR: d}); err != nil {
			t.Fatal(err)
		}
	}
	var snap bytes.Buffer
	if err := base.Snapshot(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	prepared, err := PrepareSnapshot(snap.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	restored := opts
	restored.Restore = prepared.Reader()
	for name, n := range map[string]*Node{"own store": base, "restored": open(restored)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			activeNowCases(t, n, lf.TypeConID{PackageID: ids1[0], Module: "Main", Name: "T"}, lf.TypeConID{PackageID: ids2[0], Module: "Main", Name: "T"})
		})
	}
}

// activeNowCases is TestActiveNowIsIndexedContractsAtTheEnd on node n,
// whose packages hold templates tt and tu ({a: Party, b: Party}, both
// signatories, with a choice Go).
func activeNowCases(t *testing.T, n *Node, tt, tu lf.TypeConID) {
	ctx := context.Background()
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
	create := func(tid lf.TypeConID, a, b string) value.ContractID {
		tr := submit(union([]string{a, b}), CreateCommand{Template: TemplateRef{ID: tid}, Arguments: value.Record{RecordID: &tid,
			Fields: []value.RecordField{{Label: "a", Value: value.Party(a)}, {Label: "b", Value: value.Party(b)}}}})
		return tr.Nodes[tr.Roots[0]].(*tx.Create).ContractID
	}
	for i, ab := range [][2]string{{alice, alice}, {alice, bob}, {bob, bob}, {bob, alice}, {carol, carol}, {alice, bob}, {alice, carol}} {
		create(tt, ab[0], ab[1])
		if i%2 == 0 {
			create(tu, ab[1], ab[0])
		}
	}
	gone := create(tt, alice, bob)
	submit([]string{alice, bob}, ExerciseCommand{Template: TemplateRef{ID: tt}, ContractID: gone, Choice: "Go", Argument: value.Unit{}})
	gone2 := create(tt, carol, carol)
	submit([]string{carol}, ExerciseCommand{Template: TemplateRef{ID: tt}, ContractID: gone2, Choice: "Go", Argument: value.Unit{}})
	gone3 := create(tu, alice, carol)
	submit([]string{alice, carol}, ExerciseCommand{Template: TemplateRef{ID: tu}, ContractID: gone3, Choice: "Go", Argument: value.Unit{}})

	all := func(string, []byte, []byte) bool { return true }
	none := func(string, []byte, []byte) bool { return false }
	onlyBob := func(party string, _, _ []byte) bool { return party == bob }
	of := func(tid lf.TypeConID) func(string, []byte, []byte) bool {
		return func(_ string, id, _ []byte) bool { return string(id) == tid.String() }
	}
	for _, c := range []struct {
		name     string
		parties  []string
		keep     func(string, []byte, []byte) bool
		template string // activeNow's templateID
	}{
		{"alice", []string{alice}, all, ""},
		{"carol (one archived)", []string{carol}, all, ""},
		{"alice and bob", []string{alice, bob}, all, ""},
		{"everyone", []string{alice, bob, carol}, all, ""},
		{"nothing kept", []string{alice, bob}, none, ""},
		{"bob's entries only", []string{alice, bob}, onlyBob, ""},
		{"alice's T", []string{alice}, of(tt), tt.String()},
		{"alice's other T", []string{alice}, of(tu), tu.String()},
		{"carol's other T (one archived)", []string{carol}, of(tu), tu.String()},
		{"everyone's T", []string{alice, bob, carol}, of(tt), tt.String()},
		{"everyone's other T", []string{alice, bob, carol}, of(tu), tu.String()},
		{"an unknown template", []string{alice, bob}, of(lf.TypeConID{PackageID: tt.PackageID, Module: "Main", Name: "U"}), tt.PackageID + ":Main:U"},
	} {
		var got, want []string
		err := n.st.View(func(r *store.Reader) error {
			end, err := snapshotEnd(r)
			if err != nil {
				return err
			}
			if err := indexedContracts(r, c.parties, end, "", c.keep, func(cid string, _ []byte) (bool, error) { want = append(want, cid); return true, nil }); err != nil {
				return err
			}
			return activeNow(r, c.parties, c.template, c.keep, func(cid string) (bool, error) { got = append(got, cid); return true, nil })
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: contracts (-indexedContracts +activeNow):\n%s", c.name, d)
		}
		if slices.Contains(got, string(gone)) || slices.Contains(got, string(gone2)) || slices.Contains(got, string(gone3)) {
			t.Errorf("%s: an archived contract is visited", c.name)
		}
		if c.name == "alice's T" && len(got) != 5 || c.name == "everyone's other T" && len(got) != 4 {
			t.Errorf("%s: %d contracts", c.name, len(got))
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
