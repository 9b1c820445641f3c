package store

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScanActiveOfTemplate checks an overlay store's index by template
// against a filtered Scan of the party's active-contracts index entries,
// in every version of a history of random writes (entries created,
// rewritten with another template, deleted, on a snapshot that holds
// entries of its own, some versions branching from older ones), each
// version read again after the later ones were made.
func TestScanActiveOfTemplate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 21))
	parties := []string{"alice::1220", "bob::1220", "carol::1220"}
	templates := []string{"p1:M:T", "p1:M:U", "p2:M:T", "p1:M:T2"}
	entry := func() ([]byte, []byte) {
		p, cid := parties[rng.IntN(len(parties))], fmt.Sprintf("00c%03d", rng.IntN(40))
		return ActiveByPartyKey(p, cid), ACSIndexValue(int64(rng.IntN(9)), templates[rng.IntN(len(templates))], "pkg")
	}
	// The snapshot: some entries, other keys around them.
	baseKV := map[string][]byte{"a/x": []byte("1"), "x/y": []byte("2"), "w/": []byte("not an entry")}
	for range 30 {
		k, v := entry()
		baseKV[string(k)] = v
	}
	base := &overlayBase{}
	for _, k := range slices.Sorted(maps.Keys(baseKV)) {
		base.keys = append(base.keys, []byte(k))
		base.vals = append(base.vals, baseKV[k])
	}
	type version struct {
		v     *overlayView
		model map[string][]byte
	}
	versions := []version{{&overlayView{tview: tview{base: base}, byTemplate: tview{base: base.indexByTemplate()}}, baseKV}}
	check := func(round int, ver version) {
		t.Helper()
		r := &Reader{ov: ver.v}
		for _, p := range parties {
			for _, tid := range templates {
				var want, got []string
				for _, k := range slices.Sorted(maps.Keys(ver.model)) {
					cid, ok := bytes.CutPrefix([]byte(k), ActiveByPartyPrefix(p))
					if _, vt, _, _, okv := DecodeACSIndexValue(ver.model[k]); ok && okv && string(vt) == tid {
						want = append(want, string(cid))
					}
				}
				ok, err := r.ScanActiveOfTemplate(p, tid, func(cid []byte) (bool, error) { got = append(got, string(cid)); return true, nil })
				if !ok || err != nil {
					t.Fatalf("ScanActiveOfTemplate: %v, %v", ok, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("round %d: %s's contracts of %s (-filtered scan +index):\n%s", round, p, tid, diff)
				}
			}
		}
	}
	for round := range 200 {
		from := versions[len(versions)-1]
		if round%5 == 0 {
			from = versions[rng.IntN(len(versions))]
		}
		model := maps.Clone(from.model)
		var writes []write
		for range 1 + rng.IntN(8) {
			k, v := entry()
			switch rng.IntN(5) {
			case 0:
				writes = append(writes, write{key: k, del: true})
				delete(model, string(k))
			case 1: // another key
				k = fmt.Appendf(nil, "v/%d", rng.IntN(9))
				fallthrough
			default:
				writes = append(writes, write{key: k, val: v})
				model[string(k)] = v
			}
		}
		ver := version{from.v.with(writes), model}
		versions = append(versions, ver)
		check(round, ver)
	}
	for i, ver := range versions {
		check(-i, ver) // every version stays as it was
	}
	// A Badger store keeps no such index.
	if ok, err := (&Reader{}).ScanActiveOfTemplate("alice", "p:M:T", nil); ok || err != nil {
		t.Errorf("ScanActiveOfTemplate without an overlay: %v, %v; want false", ok, err)
	}
}
