package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestJSONEntriesWrittenBefore: a store whose log entries are in the JSON
// form, as a node wrote them before the binary form, reads as it did in
// the binary form — update pages of both shapes, ascending and
// descending, by any party and through a party's index, updates by id —
// with the two forms mixed too; a snapshot of it restores and reads
// alike; its updates prune.
func TestJSONEntriesWrittenBefore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	in := openIouNode(t)
	n, alice, bob, iouT, iou, transfer := in.Node, in.alice, in.bob, in.iouT, in.iou, in.transfer()
	var updateIDs []string
	for i, c := range []Command{
		CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 3)},
		CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 4)},
		CreateAndExerciseCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 5), Choice: "Transfer", Argument: transfer},
	} {
		res, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "c" + string(rune('0'+i)), Commands: []Command{c}})
		if err != nil {
			t.Fatal(err)
		}
		updateIDs = append(updateIDs, res.UpdateID)
		if i == 0 {
			cid := res.Created()[0].ContractID
			res, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "x", Commands: []Command{
				ExerciseCommand{Template: TemplateRef{ID: iouT}, ContractID: cid, Choice: "Transfer", Argument: transfer}}})
			if err != nil {
				t.Fatal(err)
			}
			updateIDs = append(updateIDs, res.UpdateID)
		}
	}

	// reads renders what the readers of the log read, as JSON.
	reads := func(n *Node) string {
		t.Helper()
		var out []any
		flat, effects := ReadFormat{AnyParty: []Filter{}}, ReadAs(alice)
		effects.Shape = LedgerEffects
		all := &TopologyReadFormat{ParticipantAuthorizations: []string{}}
		for _, f := range []UpdateReadFormat{{Transactions: &flat, Topology: all}, {Transactions: &effects}, {Transactions: new(ReadAs(bob))}} {
			for _, desc := range []bool{false, true} {
				page, err := n.UpdatesPage(ctx, f, OffsetRange{Descending: desc}, new(int32(100)), nil)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, page.Updates)
			}
		}
		for _, id := range updateIDs {
			u, err := n.UpdateByID(ctx, id, UpdateReadFormat{Transactions: &effects})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, u)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// rewrite writes the entries at odd (or every) offsets in the JSON
	// form, as a node wrote them before: the submission path's nodes
	// encoded ahead, spliced last.
	rewrite := func(every bool) {
		t.Helper()
		_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
			return nil, tx.Scan([]byte(store.PrefixUpdate), nil, func(k, v []byte) (bool, error) {
				var e logEntry
				if err := decodeLogEntry(v, &e); err != nil {
					return false, err
				}
				if v[0] != binlogV1 || !every && e.Offset%2 == 0 {
					return true, nil
				}
				e.nodesAhead = e.Nodes != nil
				tx.Set(k, e.encodeJSON())
				return true, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	forms := func(n *Node) (json, bin int) {
		t.Helper()
		err := n.st.View(func(r *store.Reader) error {
			return r.Scan([]byte(store.PrefixUpdate), nil, func(_, v []byte) (bool, error) {
				if v[0] == '{' {
					json++
				} else {
					bin++
				}
				return true, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return json, bin
	}

	want := reads(n)
	if !strings.Contains(want, bob) || strings.Count(want, `"Label":"amount"`) < 10 {
		t.Fatalf("the reads miss the updates: %s", want)
	}
	if js, _ := forms(n); js != 2 { // the two parties
		t.Fatalf("%d entries in the JSON form, want the 2 topology ones", js)
	}
	rewrite(false)
	if js, bin := forms(n); js <= 2 || bin == 0 {
		t.Fatalf("%d JSON entries and %d binary ones, want both forms", js, bin)
	}
	if diff := cmp.Diff(want, reads(n)); diff != "" {
		t.Errorf("reads of a store of both forms (-binary +mixed):\n%s", diff)
	}
	rewrite(true)
	if _, bin := forms(n); bin != 0 {
		t.Fatalf("%d binary entries left", bin)
	}
	if diff := cmp.Diff(want, reads(n)); diff != "" {
		t.Errorf("reads of a store of JSON entries (-binary +JSON):\n%s", diff)
	}

	var snap bytes.Buffer
	if err := n.Snapshot(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	restored := openTestNode(t, Options{Restore: bytes.NewReader(snap.Bytes())})
	if _, bin := forms(restored); bin != 0 {
		t.Fatalf("%d binary entries in the restored store", bin)
	}
	if diff := cmp.Diff(want, reads(restored)); diff != "" {
		t.Errorf("reads of a snapshot of JSON entries restored (-binary +restored):\n%s", diff)
	}
	// New entries are binary beside the old ones.
	if _, err := restored.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "new",
		Commands: []Command{CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 6)}}}); err != nil {
		t.Fatal(err)
	}
	if _, bin := forms(restored); bin != 1 {
		t.Fatalf("%d binary entries after a submission, want 1", bin)
	}
	if err := restored.prune(ctx, PruneRequest{PruneUpTo: restored.st.LedgerEnd() - 1}, 2); err != nil {
		t.Fatal(err)
	}
	if js, bin := forms(restored); js != 0 || bin != 1 {
		t.Fatalf("%d JSON entries and %d binary ones after pruning, want the last binary one", js, bin)
	}
}
