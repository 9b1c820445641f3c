package ledger

import (
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strconv"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestStoreWrittenWithEarlierBadgerOptionsOpens: a store written by an
// earlier ledgernode, whose on-disk options compressed the tables with
// Snappy, kept a block cache, 16 MiB memtables and a level 0 of 5 tables,
// opens with today's options (no compression, no block cache; Badger
// keeps each table's compression in its manifest), reads every contract
// and update as before, takes new commits, and opens again after them.
func TestStoreWrittenWithEarlierBadgerOptionsOpens(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	logger := slog.New(slog.DiscardHandler)
	earlier := func(b badger.Options) badger.Options {
		return b.WithCompression(options.Snappy).WithBlockCacheSize(32 << 20).WithMemTableSize(16 << 20).
			WithNumLevelZeroTables(5).WithNumLevelZeroTablesStall(15)
	}
	n, err := Open(Options{Dir: dir, Logger: logger, Badger: earlier})
	if err != nil {
		t.Fatal(err)
	}
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	alice := allocateParties(t, n, "alice")[0]
	iouT := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"}
	seq := 0
	create := func(n *Node, count int) {
		t.Helper()
		for range count {
			seq++
			if _, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "c" + strconv.Itoa(seq),
				Commands: []Command{iouCreate(iouT, alice, seq)}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// reads is what alice reads: her active contracts and every update.
	reads := func(n *Node) string {
		t.Helper()
		var out []any
		for c, err := range n.ActiveContractEvents(ctx, ReadAs(alice), 0) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		page, err := n.UpdatesPage(ctx, UpdateReadFormat{Transactions: new(ReadAs(alice))}, OffsetRange{}, new(int32(1000)), nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Updates)
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	create(n, 200)
	want := reads(n)
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if tables, _ := filepath.Glob(filepath.Join(dir, "*.sst")); len(tables) == 0 {
		t.Fatal("the earlier options wrote no table: the test reads nothing they compressed")
	}

	for round := range 2 {
		n, err := Open(Options{Dir: dir, Logger: logger})
		if err != nil {
			t.Fatalf("round %d: opening the store with today's options: %v", round, err)
		}
		if got := reads(n); got != want {
			t.Fatalf("round %d: alice reads, after reopening:\n%.300s…\nwant\n%.300s…", round, got, want)
		}
		create(n, 50)
		want = reads(n)
		if err := n.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLargeTransactionOnDisk: an on-disk node commits one transaction of
// 2 000 creates (its memtable of 8 MiB bounds one Badger transaction to
// about 3 000 such creates; an in-memory node's to about 1 000), and
// refuses one of 8 000 with REQUEST_ENTITY_TOO_LARGE, leaving no trace:
// the ledger end and the party's contracts are as before, and the
// command id is free for a smaller command.
func TestLargeTransactionOnDisk(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n, err := Open(Options{Dir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	alice := allocateParties(t, n, "alice")[0]
	iouT := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"}
	creates := func(count int) []Command {
		cmds := make([]Command, count)
		for i := range cmds {
			cmds[i] = iouCreate(iouT, alice, i)
		}
		return cmds
	}
	contracts := func() int {
		t.Helper()
		count := 0
		for _, err := range n.ActiveContractEvents(ctx, ReadAs(alice), 0) {
			if err != nil {
				t.Fatal(err)
			}
			count++
		}
		return count
	}
	if _, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "large", Commands: creates(2000)}); err != nil {
		t.Fatalf("a transaction of 2 000 creates: %v", err)
	}
	end, _ := n.LedgerEnd(ctx)
	_, err = n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "too-large", Commands: creates(8000)})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.RequestTooLarge {
		t.Fatalf("a transaction of 8 000 creates: %v, want %s", err, apierr.RequestTooLarge.Name)
	}
	if got, _ := n.LedgerEnd(ctx); got != end {
		t.Errorf("ledger end after the refusal = %d, want %d", got, end)
	}
	if got := contracts(); got != 2000 {
		t.Errorf("alice has %d contracts after the refusal, want 2000", got)
	}
	if _, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "too-large", Commands: creates(1)}); err != nil {
		t.Errorf("the refused command's id, again with one create: %v", err)
	}
}

// iouCreate is the command creating an Iou (lftest.IouPackage's
// template iouT) of owner for amount.
func iouCreate(iouT lf.TypeConID, owner string, amount int) Command {
	return CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: value.Record{RecordID: &iouT, Fields: []value.RecordField{
		{Label: "owner", Value: value.Party(owner)}, {Label: "amount", Value: value.Int64(int64(amount))}}}}
}
