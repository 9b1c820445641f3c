package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// ACSByScanForTest is the reference for the active-contracts reads: the
// active contracts at an offset that a format shows, after the contract id
// after, found by a scan of every contract record (as every read did
// before the index).
func ACSByScanForTest(t testing.TB, n *Node, at int64, f ReadFormat, after string) []PagedContract {
	t.Helper()
	return acsForTest(t, n, f, -1, func(r *store.Reader, ef *eventFilter, fn acsVisit) error {
		return n.acsVisitScan(r, at, ef, after, fn)
	})
}

// ACSAtForTest is acsVisitAt (the index for a format by parties) after the
// contract id after, at most max contracts.
func ACSAtForTest(t testing.TB, n *Node, at int64, f ReadFormat, after string, max int) []PagedContract {
	t.Helper()
	return acsForTest(t, n, f, max, func(r *store.Reader, ef *eventFilter, fn acsVisit) error {
		return n.acsVisitAt(r, at, ef, after, fn)
	})
}

// acsForTest renders the contracts a walk of the ACS visits for a format,
// at most max of them (all when max < 0).
func acsForTest(t testing.TB, n *Node, f ReadFormat, max int, walk func(*store.Reader, *eventFilter, acsVisit) error) []PagedContract {
	t.Helper()
	spec := n.typedEventSpec(f)
	ef := newSpecFilter(&spec, n)
	tr := n.typedRendererFor(context.Background())
	out := []PagedContract{}
	var failed error
	err := n.st.View(func(r *store.Reader) error {
		return walk(r, ef, func(c *contractRecord, w []string, m filterMatch) bool {
			pc, err := tr.pagedContract(c, w, ef, m)
			if err != nil {
				failed = err
				return false
			}
			out = append(out, pc)
			return max < 0 || len(out) < max
		})
	})
	if err == nil {
		err = failed
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// EngineContractsByScanForTest is the reference for EngineContracts: the
// same answer found by a scan of every contract record (its code before
// the index, without its textual shortcuts).
func EngineContractsByScanForTest(t testing.TB, n *Node, parties []string, match func(lf.TypeConID) bool) []EngineContract {
	t.Helper()
	sync, err := n.synchronizer("")
	if err != nil {
		t.Fatal(err)
	}
	type found struct {
		rec  contractRecord
		tmpl lf.TypeConID
	}
	var recs []found
	var pkgs *pkgView
	err = n.st.View(func(r *store.Reader) error {
		if pkgs, err = n.snapshotPkgView(store.ReadOnlyTx(r), sync); err != nil {
			return err
		}
		return r.Scan([]byte(store.PrefixContract), nil, func(_, v []byte) (bool, error) {
			var c contractRecord
			if err := json.Unmarshal(v, &c); err != nil {
				return false, err
			}
			if c.State != contractActive || c.SynchronizerID != sync || !intersects(c.Create.stakeholders(), parties) {
				return true, nil
			}
			tc, err := splitTypeCon(c.Create.TemplateID)
			if err != nil {
				return false, err
			}
			if match == nil || match(tc) {
				recs = append(recs, found{c, tc})
			}
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(recs, func(a, b found) int {
		if a.rec.CreatedOffset != b.rec.CreatedOffset {
			return int(a.rec.CreatedOffset - b.rec.CreatedOffset)
		}
		return int(a.rec.Create.ID - b.rec.Create.ID)
	})
	out := make([]EngineContract, 0, len(recs))
	for i := range recs {
		ec, err := pkgs.engineContract(&recs[i].rec.Create)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, EngineContract{Contract: *ec, CreatedOffset: recs[i].rec.CreatedOffset})
	}
	return out
}

// ACSIndexDumpForTest returns the active-contracts index entries and its
// marker.
func ACSIndexDumpForTest(t testing.TB, n *Node) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := n.st.View(func(r *store.Reader) error {
		for _, p := range []string{store.PrefixActiveByParty, store.PrefixArchivedByParty, string(store.KeyACSIndex)} {
			err := r.Scan([]byte(p), nil, func(k, v []byte) (bool, error) {
				out[string(k)] = string(v)
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// UnindexForTest makes the node's store look written before the index
// (no index entries, no marker), then leaves in it what an interrupted
// build could: an entry of a contract that no longer exists and an active
// entry of each archived contract (whose archived entries are gone).
func UnindexForTest(t testing.TB, n *Node) {
	t.Helper()
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		for _, p := range []string{store.PrefixActiveByParty, store.PrefixArchivedByParty} {
			err := tx.Scan([]byte(p), nil, func(k, v []byte) (bool, error) {
				tx.Delete(k)
				if p == store.PrefixArchivedByParty {
					party, rest, _ := strings.Cut(string(k[len(p):]), "/")
					tx.Set(store.ActiveByPartyKey(party, rest[8:]), slices.Clone(v))
				}
				return true, nil
			})
			if err != nil {
				return nil, err
			}
		}
		tx.Set(store.ActiveByPartyKey("ghost", "00dead"), store.ACSIndexValue(1, "p:M:T", "p"))
		tx.Delete(store.KeyACSIndex)
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// RebuildACSIndexForTest builds the index again as Open does on a store
// without it, in committer operations of about batch entries.
func RebuildACSIndexForTest(t testing.TB, n *Node, batch int) {
	t.Helper()
	if err := n.buildACSIndex(batch); err != nil {
		t.Fatal(err)
	}
}

// CheckEntryRecordsForTest fails t unless every active entry of the
// active-contracts index carries its contract's stored record where the
// node's entries carry records (on disk), and none does in memory.
func CheckEntryRecordsForTest(t testing.TB, n *Node) {
	t.Helper()
	entries := 0
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan([]byte(store.PrefixActiveByParty), nil, func(k, v []byte) (bool, error) {
			entries++
			_, cid, _ := strings.Cut(string(k[len(store.PrefixActiveByParty):]), "/")
			_, _, _, got, _ := store.DecodeACSIndexValue(v)
			if !n.indexRecords() {
				if got != nil {
					t.Errorf("in memory, the entry %s carries a record", k)
				}
				return true, nil
			}
			want, err := r.Get(store.ContractKey(cid))
			if err != nil {
				return false, err
			}
			if string(got) != string(want) {
				t.Errorf("the entry %s carries\n%s\nthe contract's record is\n%s", k, got, want)
			}
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if entries == 0 {
		t.Error("the index has no active entry")
	}
}

// StripEntryRecordsForTest rewrites every active entry of the index
// without its record, as a store written before the entries carried
// records holds them.
func StripEntryRecordsForTest(t testing.TB, n *Node) {
	t.Helper()
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		return nil, tx.Scan([]byte(store.PrefixActiveByParty), nil, func(k, v []byte) (bool, error) {
			co, tid, pkg, _, ok := store.DecodeACSIndexValue(v)
			if !ok {
				return false, fmt.Errorf("entry %s: not an index value", k)
			}
			tx.Set(slices.Clone(k), store.ACSIndexValue(co, string(tid), string(pkg)))
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
