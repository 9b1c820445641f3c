package ledger

import (
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestDedupFilter: the filter answers "maybe" for every id until its scan
// of the store has read the store's deduplication records, then "maybe"
// for those and for every id added since, and "no" for ids it never saw
// (but for rare false positives, counted here).
func TestDedupFilter(t *testing.T) {
	t.Parallel()
	st, err := store.Open(store.Options{Badger: store.InMemoryBadgerOptions()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const stored = 2000
	_, err = st.Submit(func(tx *store.Tx) (any, error) {
		for i := range stored {
			tx.Set(store.DedupKey(changeID("u", []string{"alice"}, fmt.Sprint("stored", i))), []byte(`{}`))
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Before the scan: "maybe" for anything.
	blocked := &dedupFilter{seed: maphash.MakeSeed(), stop: make(chan struct{}), done: make(chan struct{})}
	if !blocked.mayHold("never-seen") {
		t.Error("a filter whose scan has not finished answered no")
	}

	f := newDedupFilter(st)
	<-f.done
	if !f.ready.Load() {
		t.Fatal("the scan did not finish")
	}
	for i := range stored {
		if id := changeID("u", []string{"alice"}, fmt.Sprint("stored", i)); !f.mayHold(id) {
			t.Fatalf("stored change id %d: the filter answered no", i)
		}
	}
	falsePositives := 0
	for i := range 10000 {
		id := changeID("u", []string{"alice"}, fmt.Sprint("new", i))
		if f.mayHold(id) {
			falsePositives++
		}
		f.add(id)
		if !f.mayHold(id) {
			t.Fatalf("new change id %d: no after it was added", i)
		}
	}
	if falsePositives > 10 {
		t.Errorf("%d false positives in 10 000 new ids with %d held", falsePositives, stored)
	}
	f.close()
	f.close() // twice: no panic
}

// TestDedupFilterScanStops: closing a filter during its scan ends the
// scan, and the filter stays not ready (answering "maybe").
func TestDedupFilterScanStops(t *testing.T) {
	t.Parallel()
	st, err := store.Open(store.Options{Badger: store.InMemoryBadgerOptions()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.Submit(func(tx *store.Tx) (any, error) {
		tx.Set(store.DedupKey("a"), []byte(`{}`))
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &dedupFilter{seed: maphash.MakeSeed(), stop: make(chan struct{}), done: make(chan struct{})}
	f.stopOnce.Do(func() { close(f.stop) })
	f.scan(st)
	if f.ready.Load() || !f.mayHold("b") {
		t.Error("a stopped scan left the filter ready")
	}
	f.close() // the scan has ended: returns at once
}

// TestDedupFilterPages: a node that sees few commands allocates about a
// page per command (its bits lie in one block), not the whole bitmap;
// and at a million ids the filter still says no to most new ones.
func TestDedupFilterPages(t *testing.T) {
	t.Parallel()
	f := &dedupFilter{seed: maphash.MakeSeed()}
	f.ready.Store(true)
	const few = 30
	for i := range few {
		f.add(fmt.Sprint("cmd", i))
	}
	if n := f.allocatedPages(); n > few {
		t.Errorf("%d commands allocated %d pages of %d bytes", few, n, dedupPageWords*8)
	}

	if testing.Short() {
		return
	}
	const held, probes = 1_000_000, 100_000
	for i := range held {
		f.add(fmt.Sprint("held", i))
	}
	falsePositives := 0
	for i := range probes {
		if f.mayHold(fmt.Sprint("new", i)) {
			falsePositives++
		}
	}
	if rate := float64(falsePositives) / probes; rate > 0.04 {
		t.Errorf("false positives at %d ids: %.1f %%", held, 100*rate)
	} else {
		t.Logf("false positives at %d ids: %.2f %%", held, 100*rate)
	}
}

func (f *dedupFilter) allocatedPages() int {
	n := 0
	for i := range f.pages {
		if f.pages[i].Load() != nil {
			n++
		}
	}
	return n
}

// TestDedupFilterRefusedLeaveNoTrace: a refused command (its
// interpretation fails: alice creates a contract bob signs) leaves its
// change id out of the node's deduplication filter, which holds the id
// of a command committed.
func TestDedupFilterRefusedLeaveNoTrace(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	<-n.dedup.done
	p := lftest.IouPackage("1.0.0")
	dar, _ := lftest.DAR(p)
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	pkgID, _ := lftest.Dalf(p)
	iou := lf.TypeConID{PackageID: pkgID, Module: "Main", Name: "Iou"}
	var parties []string
	for _, hint := range []string{"alice", "bob"} {
		d, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: hint})
		if err != nil {
			t.Fatal(err)
		}
		parties = append(parties, d.Party)
	}
	create := func(id, owner string) Commands {
		return Commands{UserID: "u", ActAs: parties[:1], CommandID: id, Commands: []Command{CreateCommand{Template: TemplateByID(iou),
			Arguments: value.Record{RecordID: &iou, Fields: []value.RecordField{{Label: "owner", Value: value.Party(owner)}, {Label: "amount", Value: value.Int64(1)}}}}}}
	}
	for _, c := range []struct {
		id, owner string
		ok        bool
	}{{"refused", parties[1], false}, {"committed", parties[0], true}} {
		_, err := n.Submit(ctx, create(c.id, c.owner))
		if (err == nil) != c.ok {
			t.Fatalf("%s: %v", c.id, err)
		}
		if held := n.dedup.mayHold(changeID("u", parties[:1], c.id)); held != c.ok {
			t.Errorf("%s: the filter holds its id: %v, want %v", c.id, held, c.ok)
		}
	}
}

// TestDedupFilterFlat: once dedupFlatPages pages are allocated, the
// filter copies them into the whole bitmap, which then answers: for the
// ids added before and after, and no for most others; not before the
// scan has read the store (the filter then answers "maybe" anyway).
func TestDedupFilterFlat(t *testing.T) {
	t.Parallel()
	f := &dedupFilter{seed: maphash.MakeSeed()}
	var added []string
	for i := 0; f.npages.Load() < dedupFlatPages; i++ {
		id := fmt.Sprint("before", i)
		f.add(id)
		added = append(added, id)
	}
	if f.flat.Load() != nil {
		t.Fatal("a filter not ready made its bitmap")
	}
	f.ready.Store(true)
	f.add("ready")
	added = append(added, "ready")
	if f.flat.Load() == nil {
		t.Fatalf("no bitmap at %d pages", f.npages.Load())
	}
	pages := f.allocatedPages()
	for i := range 1000 {
		id := fmt.Sprint("after", i)
		f.add(id)
		added = append(added, id)
	}
	if n := f.allocatedPages(); n != pages {
		t.Errorf("pages allocated after the bitmap: %d, then %d", pages, n)
	}
	for _, id := range added {
		if !f.mayHold(id) {
			t.Fatalf("%s: no after it was added", id)
		}
	}
	falsePositives := 0
	for i := range 10000 {
		if f.mayHold(fmt.Sprint("new", i)) {
			falsePositives++
		}
	}
	if falsePositives > 10 {
		t.Errorf("%d false positives in 10 000 new ids with %d held", falsePositives, len(added))
	}
}
