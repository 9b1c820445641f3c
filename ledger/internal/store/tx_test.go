package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTxStagedWrites stages writes, overwrites and deletions through Set,
// SetOwned and Delete, below and above the number of writes from which a
// Tx indexes them, and checks what the operation reads back and what is
// committed.
func TestTxStagedWrites(t *testing.T) {
	for _, n := range []int{1, 3, indexFrom - 1, indexFrom, indexFrom + 1, 3 * indexFrom} {
		t.Run(fmt.Sprint(n, " keys"), func(t *testing.T) {
			s := openTest(t, 8<<20)
			key := func(i int) []byte { return fmt.Appendf(nil, "k/%03d", i) }
			want := map[string]string{}
			_, err := s.Submit(func(tx *Tx) (any, error) {
				reused := make([]byte, 0, 16)
				for i := range n {
					if i%2 == 0 {
						reused = append(reused[:0], key(i)...)
						tx.Set(reused, []byte("first"))
					} else {
						tx.SetOwned(key(i), []byte("first"))
					}
					want[string(key(i))] = "first"
				}
				// Overwrite every third key, delete every fifth; both
				// through a key the Tx does not own.
				for i := 0; i < n; i += 3 {
					tx.Set(key(i), []byte("second"))
					want[string(key(i))] = "second"
				}
				for i := 0; i < n; i += 5 {
					tx.Delete(key(i))
					delete(want, string(key(i)))
				}
				for i := range n + 2 {
					v, err := tx.Get(key(i))
					w, ok := want[string(key(i))]
					switch {
					case !ok && !errors.Is(err, ErrNotFound):
						return nil, fmt.Errorf("Get(%s) = %q, %v; want ErrNotFound", key(i), v, err)
					case ok && (err != nil || string(v) != w):
						return nil, fmt.Errorf("Get(%s) = %q, %v; want %q", key(i), v, err, w)
					}
				}
				if got := len(tx.writes); got != n {
					return nil, fmt.Errorf("%d staged writes, want %d (one per key)", got, n)
				}
				return nil, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			err = s.View(func(r *Reader) error {
				return r.Scan([]byte("k/"), nil, func(k, v []byte) (bool, error) {
					got[string(k)] = string(v)
					return true, nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("committed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendPartyUpdateKey(t *testing.T) {
	for _, c := range []struct {
		party string
		off   int64
	}{{"", 0}, {"alice::1220ab", 1}, {"bob", 1 << 40}, {"ü/x", -1}} {
		old := append(append([]byte(PrefixPartyUpdate+c.party), '/'), OffsetBytes(c.off)...)
		if diff := cmp.Diff(old, PartyUpdateKey(c.party, c.off)); diff != "" {
			t.Errorf("PartyUpdateKey(%q, %d) (-want +got):\n%s", c.party, c.off, diff)
		}
		want := append([]byte("prefix"), old...)
		if diff := cmp.Diff(want, AppendPartyUpdateKey([]byte("prefix"), c.party, c.off)); diff != "" {
			t.Errorf("AppendPartyUpdateKey(%q, %d) (-want +got):\n%s", c.party, c.off, diff)
		}
	}
}

// TestContractKeyEntry pins the layout of a key index entry: the key's
// prefix, the inverted creation offset and node id, the contract id, so
// that a prefix scan yields the most recent contract first.
func TestContractKeyEntry(t *testing.T) {
	hash := bytes.Repeat([]byte{0xab}, 32)
	for _, c := range []struct {
		off  int64
		node int32
		cid  string
	}{{1, 0, "00aa"}, {1 << 40, 7, "00bb"}, {0, 0, ""}} {
		want := append(append(append(ContractKeyPrefix(hash), OffsetBytes(^c.off)...), binary.BigEndian.AppendUint32(nil, ^uint32(c.node))...), c.cid...)
		got := ContractKeyEntry(hash, c.off, c.node, c.cid)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ContractKeyEntry(%d, %d, %q) (-want +got):\n%s", c.off, c.node, c.cid, diff)
		}
		if id := string(got[len(ContractKeyPrefix(hash))+ContractKeyEntryIDOffset:]); id != c.cid {
			t.Errorf("contract id at ContractKeyEntryIDOffset: %q, want %q", id, c.cid)
		}
		if !bytes.HasPrefix(got, []byte(PrefixContractKey)) {
			t.Errorf("entry %x outside %s", got, PrefixContractKey)
		}
	}
	newer := ContractKeyEntry(hash, 5, 0, "x")
	older := ContractKeyEntry(hash, 4, 9, "x")
	if bytes.Compare(newer, older) >= 0 {
		t.Errorf("the entry of offset 5 does not sort before offset 4's")
	}
}
