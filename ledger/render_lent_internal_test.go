package ledger

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
)

// TestLentReadKeepsNothing: a lent read (decodeLogEntryLent, a lending
// typedRenderer) renders each update as the owned read does, and once
// the entry's bytes are overwritten (as the store reuses a value's
// memory) nothing the read keeps for the next entries (the renderer's
// template and time caches, the intern table) holds them.
func TestLentReadKeepsNothing(t *testing.T) {
	t.Parallel()
	n := openTestNode(t, Options{})
	entry := func(i int) *logEntry {
		return &logEntry{Kind: kindTransaction, Offset: int64(i), UpdateID: "upd" + strings.Repeat("u", i), RecordTime: "2026-01-01T00:00:00Z",
			EffectiveAt: "2026-01-01T00:00:01Z", SynchronizerID: "sync", CommandID: "cmd", Nodes: []txNode{{ContractID: "00cid" + strings.Repeat("c", i),
				TemplateID: "pkg:M:T", PackageName: "p", Argument: []byte(`{"x":"1"}`), Signatories: []string{"a"}, Observers: []string{"b"},
				CreatedAt: "2026-01-01T00:00:02Z", Engine: true}}}
	}
	ctx := rawjson.WithStoredValues(context.Background())
	spec := n.typedUpdateSpec(UpdateReadFormat{Transactions: &ReadFormat{Parties: map[string][]Filter{"a": nil}, Shape: LedgerEffects}})
	rd := newRenderer(spec, n)
	tr := n.typedRendererFor(ctx)
	tr.lend = true
	names, lent := &internTable{}, new(lentEntries)
	var e logEntry
	for i := 1; i <= 3; i++ {
		buf := slices.Clone(entry(i).encode())
		if err := decodeLogEntryLent(buf, &e, names, lent); err != nil {
			t.Fatal(err)
		}
		got, err := tr.update(&e, rd)
		if err != nil {
			t.Fatal(err)
		}
		var owned logEntry
		if err := decodeLogEntry(entry(i).encode(), &owned); err != nil {
			t.Fatal(err)
		}
		want, err := n.typedRendererFor(ctx).update(&owned, newRenderer(spec, n))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("update %d (-owned +lent):\n%s", i, diff)
		}
		copy(buf, bytes.Repeat([]byte{'X'}, len(buf))) // the store reuses the bytes
		for k, v := range tr.templates {
			if strings.Contains(k, "XX") || strings.Contains(v.id.PackageID+v.id.Module+v.id.Name, "XX") {
				t.Fatalf("update %d: the renderer's template cache keeps lent bytes: %q", i, k)
			}
		}
		for k := range names.m {
			if strings.Contains(k, "XX") {
				t.Fatalf("update %d: the intern table keeps lent bytes: %q", i, k)
			}
		}
		if bytes.Contains(tr.lastTime, []byte("XX")) {
			t.Fatalf("update %d: the renderer's last time keeps lent bytes", i)
		}
	}
}

// TestWirePageKeepsNothing: the wire page reads entries with their names
// lent (scanRawNames); an entry it writes and one it leaves to the typed
// renderer (a blob asked for: decoded again with interned names) keep
// none of the entry's bytes once they are overwritten: not the interned
// names, not the renderer's template cache, not the filter.
func TestWirePageKeepsNothing(t *testing.T) {
	t.Parallel()
	n := openTestNode(t, Options{})
	entry := func(i int) *logEntry {
		return &logEntry{Kind: kindTransaction, Offset: int64(i), UpdateID: "upd" + strings.Repeat("u", i), RecordTime: "2026-01-01T00:00:00Z",
			EffectiveAt: "2026-01-01T00:00:01Z", SynchronizerID: "sync", CommandID: "cmd", Nodes: []txNode{{ContractID: "00cid" + strings.Repeat("c", i),
				TemplateID: "pkg" + strings.Repeat("p", i) + ":M:T", PackageName: "p" + strings.Repeat("n", i), Argument: []byte(`{"x":"1"}`),
				Signatories: []string{"a" + strings.Repeat("a", i)}, Observers: []string{"b"}, CreatedAt: "2026-01-01T00:00:02Z", Engine: true}}}
	}
	ctx := rawjson.WithStoredValues(context.Background())
	for _, blobs := range []bool{false, true} {
		wp := &wirePage{p: &wirepage.Page{}}
		tr := n.typedRendererFor(ctx)
		tr.lend = true
		var e logEntry
		lent := new(lentEntries)
		for i := 1; i <= 3; i++ {
			party := "a" + strings.Repeat("a", i)
			spec := n.typedUpdateSpec(UpdateReadFormat{Transactions: &ReadFormat{Parties: map[string][]Filter{party: {WildcardFilter(blobs)}}, Shape: ACSDelta}})
			rd := newRenderer(spec, n)
			buf := slices.Clone(entry(i).encode())
			if err := decodeLogEntryLent(buf, &e, nil, lent); err != nil {
				t.Fatal(err)
			}
			e.raw = buf
			if wrote := wp.transaction(&e, false, rd.tx) == wireWritten; wrote == blobs {
				t.Fatalf("blobs %v: written by the wire page: %v", blobs, wrote)
			}
			if blobs {
				typed, err := wp.interned(e.raw)
				if err != nil {
					t.Fatal(err)
				}
				if u, err := tr.update(typed, rd); err != nil || u == nil {
					t.Fatalf("typed: %v, %v", u, err)
				}
			}
			copy(buf, bytes.Repeat([]byte{'X'}, len(buf))) // the store reuses the bytes
			for k, v := range tr.templates {
				if strings.Contains(k, "XX") || strings.Contains(v.id.PackageID+v.id.Module+v.id.Name, "XX") {
					t.Fatalf("entry %d: the renderer's template cache keeps lent bytes: %q", i, k)
				}
			}
			for k := range wp.names.m {
				if strings.Contains(k, "XX") {
					t.Fatalf("entry %d: the intern table keeps lent bytes: %q", i, k)
				}
			}
			for k := range rd.tx.byParty {
				if strings.Contains(k+rd.tx.one, "XX") {
					t.Fatalf("entry %d: the filter keeps lent bytes: %q", i, k)
				}
			}
		}
		if blobs == (len(wp.p.Out) != 0) {
			t.Errorf("blobs %v: the page holds %q", blobs, wp.p.Out)
		}
	}
}
