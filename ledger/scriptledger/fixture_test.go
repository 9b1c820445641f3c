package scriptledger_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

// TestFixtureNodes: the nodes of a fixture start alike (ledger end,
// packages, decoded and as payloads) and are independent: a party one
// allocates and a package it uploads are unknown to the other; and a
// snapshot of a fixture's node restores into an ordinary node holding every
// package payload (the node's store shares the fixture's payloads, its
// snapshot copies them).
func TestFixtureNodes(t *testing.T) {
	t.Parallel()
	data := scripttest.ReadDAR(t, amuletTestDAR)
	ctx := context.Background()
	fx, err := scriptledger.NewFixture(ctx, ledger.Options{}, data)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *ledger.Node {
		t.Helper()
		n, err := fx.Open()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	a, b := open(), open()
	ledgerEnd := func(n *ledger.Node) int64 {
		t.Helper()
		end, err := n.LedgerEnd(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return end
	}
	listPackages := func(n *ledger.Node) []string {
		t.Helper()
		pkgs, err := n.ListPackages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return pkgs
	}
	endA, endB := ledgerEnd(a), ledgerEnd(b)
	pkgsA, pkgsB := listPackages(a), listPackages(b)
	if diff := cmp.Diff(pkgsA, pkgsB); diff != "" || endA != endB || len(pkgsA) < 2 {
		t.Fatalf("the fixture's nodes differ: ends %v, %v; packages (-a +b):\n%s", endA, endB, diff)
	}
	src, err := a.PackageSource(ctx)
	if err != nil || len(src) != len(pkgsA) {
		t.Fatalf("PackageSource: %d packages, %v; want %d", len(src), err, len(pkgsA))
	}

	alice, err := a.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	pingDAR := scripttest.ReadDAR(t, "../../../shared/testdata/dars/canton-builtin-admin-workflow-ping.dar")
	if err := a.UploadDAR(ctx, ledger.UploadDARRequest{DAR: pingDAR}); err != nil {
		t.Fatal(err)
	}
	got, err := b.GetParties(ctx, []string{alice.Party}, "")
	if err != nil || len(got) != 0 {
		t.Errorf("b knows a's party: %v, %v", got, err)
	}
	if now := listPackages(b); !cmp.Equal(now, pkgsB) {
		t.Errorf("b's packages changed with a's upload: %d, were %d", len(now), len(pkgsB))
	}
	if now := ledgerEnd(b); now != endB {
		t.Errorf("b's ledger end moved with a's writes: %v, was %v", now, endB)
	}
	if now := ledgerEnd(open()); now != endA {
		t.Errorf("a new node of the fixture starts at %v, want %v", now, endA)
	}

	var snap bytes.Buffer
	if err := b.Snapshot(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	plain, err := ledger.Open(ledger.Options{Restore: &snap})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	for _, id := range pkgsB {
		arch, err := plain.GetPackage(ctx, id)
		sum := sha256.Sum256(arch.Payload)
		if err != nil || hex.EncodeToString(sum[:]) != id {
			t.Errorf("package %s restored from a fixture node's snapshot: %d bytes hashing to %x, %v", id, len(arch.Payload), sum, err)
		}
	}
	if src, err := plain.PackageSource(ctx); err != nil || len(src) != len(pkgsB) {
		t.Errorf("PackageSource of the restored node: %d packages, %v; want %d", len(src), err, len(pkgsB))
	}
}
