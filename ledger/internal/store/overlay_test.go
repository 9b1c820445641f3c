package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/google/go-cmp/cmp"
)

// overlayFixture is a Prepared snapshot of a store holding keys "k/000" to
// "k/199" (odd ones deleted again), a blob of several chunks and a
// spilled value, and its stores: an overlay store and a Badger in-memory
// store restored from the same snapshot.
func overlayFixture(t *testing.T) (p *Prepared, ov, bg *Store) {
	t.Helper()
	src := openSpilling(t)
	if err := src.PutBlob(BlobPrefix("pkg", "p1"), pattern(2*BlobChunk+5, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		for i := range 200 {
			tx.Set(fmt.Appendf(nil, "k/%03d", i), fmt.Appendf(nil, "v%d", i))
		}
		tx.Set([]byte("a/big"), pattern(300<<10, 2)) // spilled
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Submit(func(tx *Tx) (any, error) {
		tx.NextOffset()
		for i := 1; i < 200; i += 2 {
			tx.Delete(fmt.Appendf(nil, "k/%03d", i))
		}
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	buf := backupOf(t, src)
	p, err := Prepare(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	mem := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithCompression(options.None).WithBlockCacheSize(0).WithMemTableSize(8 << 20)
	open := func(r io.Reader) *Store {
		s, err := Open(Options{Badger: mem, Spill: Spill{Above: 64 << 10, Inline: 256 << 10}, Restore: r})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	ov, bg = open(p.OverlayReader()), open(struct{ io.Reader }{p.Reader()}) // the plain stream
	if ov.ov == nil || bg.ov != nil {
		t.Fatal("not an overlay store and a Badger store")
	}
	return p, ov, bg
}

// dump reads a store's whole state as Scan and ScanReverse of every
// prefix give it, and Get of every key.
func dump(t *testing.T, s *Store, keys [][]byte) (fwd, rev []string, gets map[string]string) {
	t.Helper()
	gets = map[string]string{}
	err := s.View(func(r *Reader) error {
		for _, prefix := range []string{"", "k/", "k/0", "k/1", "k/05", "k/199", "n/", "b/", "zz"} {
			// (Not the chunks of spilled values: an overlay store holds
			// the values themselves.)
			r.Scan([]byte(prefix), nil, func(k, v []byte) (bool, error) {
				if !bytes.HasPrefix(k, []byte(PrefixSpill)) {
					fwd = append(fwd, fmt.Sprintf("%s %s=%.20x", prefix, k, v))
				}
				return true, nil
			})
			r.ScanReverse([]byte(prefix), nil, func(k, v []byte) (bool, error) {
				if !bytes.HasPrefix(k, []byte(PrefixSpill)) {
					rev = append(rev, fmt.Sprintf("%s %s=%.20x", prefix, k, v))
				}
				return true, nil
			})
		}
		for _, start := range []string{"k/050", "k/0505", "k/100", "k/5"} {
			r.Scan([]byte("k/"), []byte(start), func(k, v []byte) (bool, error) {
				fwd = append(fwd, fmt.Sprintf("from %s %s=%s", start, k, v))
				return len(fwd)%7 != 0, nil // stops early sometimes
			})
			r.ScanReverse([]byte("k/"), []byte(start), func(k, v []byte) (bool, error) {
				rev = append(rev, fmt.Sprintf("down from %s %s=%s", start, k, v))
				return true, nil
			})
		}
		for _, k := range keys {
			v, err := r.Get(k)
			switch {
			case errors.Is(err, ErrNotFound):
				gets[string(k)] = "absent"
			case err != nil:
				return err
			default:
				gets[string(k)] = fmt.Sprintf("%x", v)
			}
			// GetFunc reads what Get reads.
			var fv []byte
			ferr := r.GetFunc(k, func(val []byte) error { fv = slices.Clone(val); return nil })
			if !errors.Is(ferr, err) || !bytes.Equal(fv, v) {
				t.Errorf("GetFunc(%s) = %.20x, %v; Get = %.20x, %v", k, fv, ferr, v, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fwd, rev, gets
}

// TestOverlayMatchesBadger: an overlay store restored from a Prepared
// snapshot reads as a Badger store restored from the same snapshot, before
// and after the same random writes and deletions (of the snapshot's keys
// and new ones, in group commits and blob writes), forward, in reverse,
// from a start key and by Get.
func TestOverlayMatchesBadger(t *testing.T) {
	t.Parallel()
	_, ov, bg := overlayFixture(t)
	var keys [][]byte
	for i := range 300 {
		keys = append(keys, fmt.Appendf(nil, "k/%03d", i), fmt.Appendf(nil, "k/%03d/x", i))
	}
	keys = append(keys, []byte("a/big"), append(BlobPrefix("pkg", "p1"), 0, 0, 0, 1), []byte("k/"), KeyLedgerEnd)
	compare := func(when string) {
		t.Helper()
		f1, r1, g1 := dump(t, ov, keys)
		f2, r2, g2 := dump(t, bg, keys)
		if diff := cmp.Diff(f2, f1); diff != "" {
			t.Errorf("%s: Scan (-badger +overlay):\n%s", when, diff)
		}
		if diff := cmp.Diff(r2, r1); diff != "" {
			t.Errorf("%s: ScanReverse (-badger +overlay):\n%s", when, diff)
		}
		if diff := cmp.Diff(g2, g1); diff != "" {
			t.Errorf("%s: Get (-badger +overlay):\n%s", when, diff)
		}
		if ov.LedgerEnd() != bg.LedgerEnd() {
			t.Errorf("%s: ledger end %d, badger %d", when, ov.LedgerEnd(), bg.LedgerEnd())
		}
	}
	compare("restored")
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 30 {
		// The same operation on both stores: random sets and deletes, some
		// reading what the group staged before them.
		op := func(seed uint64) Op {
			return func(tx *Tx) (any, error) {
				r := rand.New(rand.NewPCG(seed, 0))
				tx.NextOffset()
				for range 1 + r.IntN(20) {
					k := keys[r.IntN(len(keys)-4)]
					switch r.IntN(4) {
					case 0:
						tx.Delete(k)
					case 1:
						if v, err := tx.Get(k); err == nil {
							tx.Set(k, append(v, 'x'))
						}
					default:
						tx.Set(k, fmt.Appendf(nil, "r%d-%d", round, r.IntN(1000)))
					}
				}
				if r.IntN(5) == 0 {
					return nil, errors.New("refused") // writes nothing
				}
				return nil, nil
			}
		}
		seed := rng.Uint64()
		for _, s := range []*Store{ov, bg} {
			s.Submit(op(seed))
		}
		if round%10 == 3 {
			for _, s := range []*Store{ov, bg} {
				if err := s.DeleteBlob(BlobPrefix("pkg", "p1")); err != nil {
					t.Fatal(err)
				}
				if err := s.PutBlob(BlobPrefix("pkg", "p1"), pattern(BlobChunk+round, 3)); err != nil {
					t.Fatal(err)
				}
			}
		}
		compare(fmt.Sprintf("after round %d", round))
	}
}

// TestOverlaySnapshotIsolation: a read holds the version it started with
// while commits go on, and the stores restored from one snapshot are
// independent; a backup of an overlay store restores as a plain store
// with the same state.
func TestOverlaySnapshotIsolation(t *testing.T) {
	t.Parallel()
	p, ov, _ := overlayFixture(t)
	other, err := Open(Options{Badger: badger.DefaultOptions("").WithInMemory(true), Restore: p.OverlayReader()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	set := func(s *Store, k, v string) {
		t.Helper()
		if _, err := s.Submit(func(tx *Tx) (any, error) { tx.NextOffset(); tx.Set([]byte(k), []byte(v)); return nil, nil }); err != nil {
			t.Fatal(err)
		}
	}
	get := func(r *Reader, k string) string {
		v, err := r.Get([]byte(k))
		if err != nil {
			return err.Error()
		}
		return string(v)
	}
	err = ov.View(func(r *Reader) error {
		set(ov, "k/000", "new")
		set(ov, "k/500", "added")
		if got := get(r, "k/000") + "," + get(r, "k/500"); got != "v0,"+ErrNotFound.Error() {
			t.Errorf("a read that started before two commits sees %s", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ov.View(func(r *Reader) error {
		if got := get(r, "k/000") + "," + get(r, "k/500"); got != "new,added" {
			t.Errorf("after the commits: %s", got)
		}
		return nil
	})
	other.View(func(r *Reader) error {
		if got := get(r, "k/000") + "," + get(r, "k/500"); got != "v0,"+ErrNotFound.Error() {
			t.Errorf("another store of the snapshot sees %s", got)
		}
		return nil
	})
	if ov.LedgerEnd() != 4 || other.LedgerEnd() != 2 {
		t.Errorf("ledger ends %d and %d, want 4 and 2", ov.LedgerEnd(), other.LedgerEnd())
	}

	var buf bytes.Buffer
	if err := ov.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	plain, err := Open(Options{Badger: badger.DefaultOptions("").WithInMemory(true).WithLogger(nil), Restore: &buf})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	keys := [][]byte{[]byte("k/000"), []byte("k/001"), []byte("k/500"), []byte("a/big"), KeyLedgerEnd}
	f1, r1, g1 := dump(t, ov, keys)
	f2, r2, g2 := dump(t, plain, keys)
	if diff := cmp.Diff(slices.Concat(f1, r1), slices.Concat(f2, r2)); diff != "" {
		t.Errorf("restored from a backup: scans (-overlay +restored):\n%s", diff)
	}
	if diff := cmp.Diff(g1, g2); diff != "" {
		t.Errorf("restored from a backup: gets (-overlay +restored):\n%s", diff)
	}
	if plain.LedgerEnd() != 4 {
		t.Errorf("restored from a backup: ledger end %d, want 4", plain.LedgerEnd())
	}
}

// TestPreparedKeepsNoStream: a Prepared snapshot keeps its entries, not
// the stream it was prepared from (which its caller may reuse): the
// stores restored from it after the stream was overwritten, durable,
// in-memory and overlay, hold the snapshot's state.
func TestPreparedKeepsNoStream(t *testing.T) {
	t.Parallel()
	src := openSpilling(t)
	blob := pattern(2*BlobChunk+9, 4)
	if err := src.PutBlob(BlobPrefix("pkg", "p1"), blob); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Submit(func(tx *Tx) (any, error) { tx.NextOffset(); tx.Set([]byte("k/a"), []byte("A")); return nil, nil }); err != nil {
		t.Fatal(err)
	}
	buf := backupOf(t, src)
	stream := buf.Bytes()
	p, err := Prepare(stream)
	if err != nil {
		t.Fatal(err)
	}
	clear(stream)
	mem := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil)
	for name, o := range map[string]Options{
		"durable":   {Badger: badger.DefaultOptions(t.TempDir()).WithLogger(nil), Restore: p.Reader()},
		"in-memory": {Badger: mem, Restore: p.Reader()},
		"overlay":   {Badger: mem, Restore: p.OverlayReader()},
		"plain":     {Badger: mem, Restore: struct{ io.Reader }{p.Reader()}},
	} {
		s, err := Open(o)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		s.View(func(r *Reader) error {
			got, err := r.GetBlob(BlobPrefix("pkg", "p1"))
			a, err2 := r.Get([]byte("k/a"))
			if err != nil || err2 != nil || !bytes.Equal(got, blob) || string(a) != "A" {
				t.Errorf("%s: blob of %d bytes (%v), k/a %q (%v)", name, len(got), err, a, err2)
			}
			return nil
		})
		if s.LedgerEnd() != 1 {
			t.Errorf("%s: ledger end %d, want 1", name, s.LedgerEnd())
		}
		s.Close()
	}
}

// TestStoreSubmitKinds runs the committer's rules on both kinds of store,
// an overlay store (whose operations run on their callers' goroutines)
// and a Badger one (a committer goroutine): a failed or panicking
// operation leaves nothing and gives its offsets back; concurrent
// operations run one at a time, each seeing the writes of those before
// it, and take contiguous offsets; a Tx's GetFunc sees its own staged
// writes; a commit closes the Changed channel; after Close, Submit is
// ErrClosed.
func TestStoreSubmitKinds(t *testing.T) {
	t.Parallel()
	_, ov, bg := overlayFixture(t)
	for _, c := range []struct {
		name string
		s    *Store
	}{{"overlay", ov}, {"badger", bg}} {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			end := s.LedgerEnd()
			if _, err := s.Submit(func(tx *Tx) (any, error) {
				tx.NextOffset()
				tx.Set([]byte("n/failed"), []byte("x"))
				return nil, errors.New("rejected")
			}); err == nil || err.Error() != "rejected" {
				t.Fatalf("failed op: %v", err)
			}
			if _, err := s.Submit(func(tx *Tx) (any, error) { tx.NextOffset(); panic("boom") }); err == nil {
				t.Fatal("panic not reported")
			}
			if s.LedgerEnd() != end {
				t.Fatalf("ledger end %d after failed ops, want %d", s.LedgerEnd(), end)
			}
			ch := s.Changed()
			const workers, each = 4, 25
			var wg sync.WaitGroup
			offsets := make(chan int64, workers*each)
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range each {
						_, err := s.Submit(func(tx *Tx) (any, error) {
							n := 0
							err := tx.GetFunc([]byte("n/count"), func(v []byte) error { n, _ = strconv.Atoi(string(v)); return nil })
							if err != nil && !errors.Is(err, ErrNotFound) {
								return nil, err
							}
							tx.Set([]byte("n/count"), []byte(strconv.Itoa(n+1)))
							var staged []byte
							if err := tx.GetFunc([]byte("n/count"), func(v []byte) error { staged = slices.Clone(v); return nil }); err != nil {
								return nil, err
							}
							if string(staged) != strconv.Itoa(n+1) {
								return nil, fmt.Errorf("GetFunc read %q after staging %d", staged, n+1)
							}
							offsets <- tx.NextOffset()
							return nil, nil
						})
						if err != nil {
							t.Error(err)
						}
					}
				}()
			}
			wg.Wait()
			close(offsets)
			var got []int64
			for o := range offsets {
				got = append(got, o)
			}
			slices.Sort(got)
			for i, o := range got {
				if o != end+int64(i)+1 {
					t.Fatalf("offsets %v: not contiguous from %d", got, end+1)
				}
			}
			select {
			case <-ch:
			default:
				t.Fatal("Changed channel not closed after a commit")
			}
			var count []byte
			if err := s.View(func(r *Reader) error {
				if _, err := r.Get([]byte("n/failed")); !errors.Is(err, ErrNotFound) {
					return fmt.Errorf("the failed op's write: %v", err)
				}
				var err error
				count, err = r.Get([]byte("n/count"))
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if string(count) != strconv.Itoa(workers*each) || s.LedgerEnd() != end+workers*each {
				t.Fatalf("count %s, ledger end %d; want %d, %d", count, s.LedgerEnd(), workers*each, end+workers*each)
			}
			s.Close()
			if _, err := s.Submit(func(tx *Tx) (any, error) { return nil, nil }); !errors.Is(err, ErrClosed) {
				t.Fatalf("Submit after Close: %v", err)
			}
		})
	}
}

// TestOverlayVersionsStay builds many versions of an overlay, each from
// the one before by a batch of random writes and deletions (several of
// them to keys near each other, which share the top of the tree, and some
// to one key twice), and also from older versions: every version still
// reads as the model of its own writes afterwards, by get and by scan,
// although a batch changes the nodes it made in place (tinsert).
func TestOverlayVersionsStay(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	base := &overlayBase{}
	for i := range 50 {
		base.keys = append(base.keys, fmt.Appendf(nil, "b/%03d", i*2))
		base.vals = append(base.vals, fmt.Appendf(nil, "base%d", i))
	}
	type version struct {
		v     *overlayView
		model map[string]string
	}
	model0 := map[string]string{}
	for i, k := range base.keys {
		model0[string(k)] = string(base.vals[i])
	}
	versions := []version{{&overlayView{tview: tview{base: base}, byTemplate: tview{base: base.indexByTemplate()}}, model0}}
	for round := range 300 {
		from := versions[len(versions)-1]
		if round%7 == 0 {
			from = versions[rng.IntN(len(versions))] // a branch from an older version
		}
		model := maps.Clone(from.model)
		var writes []write
		for range 1 + rng.IntN(12) {
			k := fmt.Appendf(nil, "b/%03d", rng.IntN(120))
			if rng.IntN(4) == 0 {
				writes = append(writes, write{key: k, del: true})
				delete(model, string(k))
				continue
			}
			v := fmt.Appendf(nil, "r%d-%d", round, len(writes))
			writes = append(writes, write{key: k, val: v})
			model[string(k)] = string(v)
		}
		versions = append(versions, version{from.v.with(writes), model})
	}
	for i, ver := range versions {
		got := map[string]string{}
		if err := ver.v.scan([]byte("b/"), []byte("b/"), false, func(k, v []byte) (bool, error) {
			got[string(k)] = string(v)
			return true, nil
		}); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(ver.model, got); d != "" {
			t.Fatalf("version %d by scan (-model +got):\n%s", i, d)
		}
		for k := range 120 {
			key := fmt.Sprintf("b/%03d", k)
			v, ok := ver.v.get([]byte(key))
			if want, has := ver.model[key]; ok != has || string(v) != want {
				t.Fatalf("version %d: get %s = %q, %v; want %q, %v", i, key, v, ok, want, has)
			}
		}
	}
}
