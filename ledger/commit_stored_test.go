package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestCommitStoredFormsUnverified: with verifyStoredRecords off, as a
// node runs, the committer writes a create's contract record, update and
// deduplication record under their keys (which it builds in the values'
// pooled buffers) in the forms the verified path writes. Not parallel:
// it turns the package's verification off while it runs.
func TestCommitStoredFormsUnverified(t *testing.T) {
	verifyStoredRecords = false
	t.Cleanup(func() { verifyStoredRecords = true })
	ctx := context.Background()
	in := openIouNode(t)
	n := in.Node
	for i := range 3 {
		c := Commands{ActAs: []string{in.alice}, CommandID: "c" + string(rune('0'+i)),
			Commands: []Command{CreateCommand{Template: TemplateRef{ID: in.iouT}, Arguments: in.iou(in.alice, int64(i))}}}
		res, err := n.Submit(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		cid := string(res.Created()[0].ContractID)
		err = n.st.View(func(r *store.Reader) error {
			raw, err := r.Get(store.ContractKey(cid))
			if err != nil {
				return err
			}
			var rec contractRecord
			if err := decodeContractRecord(raw, &rec); err != nil {
				return err
			}
			if want := encodeContractRecord(&rec, encodeTxNode(&rec.Create)); !bytes.Equal(raw, want) || rec.Create.ContractID != cid || rec.State != contractActive {
				t.Errorf("contract record of %s:\n%s\nwant\n%s", cid, raw, want)
			}
			raw, err = r.Get(store.UpdateKey(rec.CreatedOffset))
			if err != nil {
				return fmt.Errorf("update: %w", err)
			}
			var e logEntry
			if err := decodeLogEntry(raw, &e); err != nil {
				return err
			}
			if e.UpdateID != res.UpdateID || e.Offset != rec.CreatedOffset || len(e.Nodes) != 1 || e.Nodes[0].ContractID != cid {
				t.Errorf("update at %d: %+v", rec.CreatedOffset, e)
			}
			raw, err = r.Get(store.DedupKey(changeID(identity.DefaultParticipantAdmin, c.ActAs, c.CommandID))) // the user of an anonymous in-process caller
			if err != nil {
				return fmt.Errorf("deduplication record: %w", err)
			}
			var d dedupRecord
			if err := json.Unmarshal(raw, &d); err != nil {
				return err
			}
			if want := (dedupRecord{Offset: e.Offset, UpdateID: e.UpdateID, At: e.RecordTime}); d != want || !bytes.Equal(raw, want.encode()) {
				t.Errorf("deduplication record %s, want %+v", raw, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
