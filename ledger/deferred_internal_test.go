package ledger

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestDeferredRecordsAreTheEagerOnes: on a node restored from a prepared
// snapshot (a Daml Script's, whose store renders lazily), Submit leaves
// its update records to be rendered at their first read (deferred.go);
// read back, each is byte for byte the record the eager path encodes
// from the same transaction (exercise arguments and results of records
// and of Int64, create arguments holding text that the encoding escapes,
// transient contracts), and the Ledger API's update reads see it; so are
// the records of its contracts; a node of its own store renders at once.
func TestDeferredRecordsAreTheEagerOnes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	iou, heavy := lftest.IouPackage("1.0.0"), lftest.HeavyPackage()
	noted := lftest.TemplatePackage("deferred-noted", "1.0.0", nil,
		lftest.Field{Name: "a", Type: lftest.B(lftest.Party)}, lftest.Field{Name: "note", Type: lftest.B(lftest.Text)})
	var opts Options
	base := openTestNode(t, opts)
	var ids []string
	for _, p := range []lftest.Package{iou, heavy, noted} {
		dar, pids := lftest.DAR(p)
		if err := base.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, pids[0])
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
	iouT := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"}
	heavyT := lf.TypeConID{PackageID: ids[1], Module: "Main", Name: "Heavy"}
	notedT := lf.TypeConID{PackageID: ids[2], Module: "Main", Name: "T"}
	for _, c := range []struct {
		name string
		n    *Node
		lazy bool
	}{{"restored", openTestNode(t, restored), true}, {"own store", base, false}} {
		t.Run(c.name, func(t *testing.T) {
			n := c.n
			if got := n.st.RendersLazily(); got != c.lazy {
				t.Fatalf("RendersLazily = %v, want %v", got, c.lazy)
			}
			parties := allocateParties(t, n, "alice", "bob")
			alice, bob := parties[0], parties[1]
			record := func(id lf.TypeConID, fields ...any) value.Record {
				r := value.Record{RecordID: &id}
				for i := 0; i < len(fields); i += 2 {
					r.Fields = append(r.Fields, value.RecordField{Label: fields[i].(string), Value: fields[i+1].(value.Value)})
				}
				return r
			}
			cmds := 0
			submit := func(c ...Command) *Committed {
				t.Helper()
				cmds++
				res, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: fmt.Sprint("deferred-", cmds), Commands: c}, AllowEffectfulRollback())
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			created := func(res *Committed) value.ContractID { return res.Created()[0].ContractID }
			spinT := lf.TypeConID{PackageID: ids[1], Module: "Main", Name: "Spin"}
			transferT := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Transfer"}
			var all []*Committed
			add := func(res *Committed) *Committed { all = append(all, res); return res }
			add(submit(CreateCommand{Template: TemplateRef{ID: notedT}, Arguments: record(notedT, "a", value.Party(alice), "note", value.Text("<b>&\u2028 x</b>"))}))
			h := created(add(submit(CreateCommand{Template: TemplateRef{ID: heavyT}, Arguments: record(heavyT, "owner", value.Party(alice))})))
			add(submit(ExerciseCommand{Template: TemplateRef{ID: heavyT}, ContractID: h, Choice: "Spin", Argument: record(spinT, "n", value.Int64(7))}))
			i := created(add(submit(CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: record(iouT, "owner", value.Party(alice), "amount", value.Int64(3))})))
			add(submit(ExerciseCommand{Template: TemplateRef{ID: iouT}, ContractID: i, Choice: "Transfer", Argument: record(transferT, "newOwner", value.Party(bob))}))
			// A transient contract: created and archived by one transaction.
			add(submit(CreateAndExerciseCommand{Template: TemplateRef{ID: notedT}, Arguments: record(notedT, "a", value.Party(alice), "note", value.Text("gone")),
				Choice: "Go", Argument: value.Unit{}}))

			stored := func(key []byte) []byte {
				t.Helper()
				var v []byte
				if err := n.st.View(func(r *store.Reader) error {
					var err error
					v, err = r.Get(key)
					return err
				}); err != nil {
					t.Fatal(err)
				}
				return v
			}
			for _, res := range all {
				raw := stored(store.UpdateKey(res.Offset))
				want, nodes := eagerRecord(t, n, res, raw)
				if !bytes.Equal(raw, want) {
					t.Errorf("update %d: stored\n%s\nwant\n%s", res.Offset, raw, want)
				}
				// The records of its contracts, created or transient (those
				// archived since are the archive's), as the eager path writes
				// them (encodeContractRecord of the node's encoding).
				for i := range nodes {
					nd := &nodes[i]
					if nd.Exercise {
						continue
					}
					got := stored(store.ContractKey(nd.ContractID))
					var rec contractRecord
					if err := decodeContractRecord(got, &rec); err != nil {
						t.Fatal(err)
					}
					var want []byte
					switch {
					case nd.Transient:
						c := rec
						c.Create = *nd
						want = encodeContractRecordJSON(&c)
					case rec.State == contractActive:
						want = encodeContractRecord(&rec, encodeTxNode(nd))
					default:
						continue
					}
					if !bytes.Equal(got, want) {
						t.Errorf("contract %s: stored\n%s\nwant\n%s", nd.ContractID, got, want)
					}
				}
				f := ReadAs(alice)
				f.Shape = LedgerEffects
				u, err := n.UpdateByID(ctx, res.UpdateID, UpdateReadFormat{Transactions: &f})
				if tr, ok := u.(*update.Transaction); err != nil || !ok || tr.UpdateID != res.UpdateID || len(tr.Events) == 0 {
					t.Errorf("UpdateByID(%d) = %+v, %v", res.Offset, u, err)
				}
			}
		})
	}
}

// eagerRecord returns the update record the eager path (committable
// without deferral) stores for the committed transaction res, whose
// stored record is raw (for the fields the committer sets).
func eagerRecord(t *testing.T, n *Node, res *Committed, raw []byte) ([]byte, []txNode) {
	t.Helper()
	var e logEntry
	if err := decodeLogEntry(raw, &e); err != nil {
		t.Fatal(err)
	}
	var pkgs *pkgView
	if err := n.st.View(func(r *store.Reader) error {
		var err error
		pkgs, err = n.readPkgView(store.ReadOnlyTx(r), res.SynchronizerID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	r := pkgs.valueRenderer()
	defer pkgs.putRenderer(r)
	nodes, err := pkgs.eventNodes(r, res.Transaction, formatTime(res.EffectiveAt), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Nodes = nodes
	e.nodesAhead = true
	return e.encode(), e.Nodes
}
