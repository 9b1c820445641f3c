package ledger

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
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
