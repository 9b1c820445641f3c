package jsonapi_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/cryptotest"

	"github.com/ledgernode/ledgernode/apierr"
)

// The goldens: the answers of the ledger's JSON reads (Node.UpdatesPage,
// Node.TransactionByID …, deleted by issue 24) on the fixtures of this
// package, recorded while those reads existed, in
// testdata/<Test>.golden.gz, one file per top-level test. The tests
// compare the JSON layer's answers (bodies, list and stream elements,
// refusals) with them byte for byte.
//
// After a deliberate change of the wire, regenerate them from the JSON
// layer's answers and review the diff (testdata/README.md):
//
//	go test ./ledger/jsonapi -run 'SameAsNode|Refusals|MatchesJSONReads' -update
//
// The fixtures are deterministic, so no answer is normalized: a golden
// test builds its node on static time (newEmitLedger) after seeding
// crypto/rand (deterministicRandom), which fixes the participant's key
// (so the party ids), the contract ids, the update ids and the blobs.
// Such a test cannot run in parallel (the seed is process-wide).
var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden.gz from the JSON layer's answers")

// deterministicRandom seeds crypto/rand for the rest of t (the golden
// tests' fixtures; see updateGolden).
func deterministicRandom(t *testing.T) {
	cryptotest.SetGlobalRandom(t, 24)
}

// goldenFile is the stored answers of one top-level test: keys (subtest
// and answer names) to the hashes of bodies, each body stored once.
type goldenFile struct {
	Keys   map[string]string `json:"keys"`
	Bodies map[string]string `json:"bodies"`
}

// golden is the goldens of one top-level test as the test reads them.
type golden struct {
	mu   sync.Mutex
	path string
	file goldenFile
	used map[string]bool
}

var (
	goldensMu sync.Mutex
	goldens   = map[string]*golden{}
)

// useGolden opens the goldens of the top-level test t: at its end, every
// stored answer must have been compared (or, with -update, the answers
// are written).
func useGolden(t *testing.T) {
	t.Helper()
	name := t.Name()
	g := &golden{path: filepath.Join("testdata", name+".golden.gz"), used: map[string]bool{},
		file: goldenFile{Keys: map[string]string{}, Bodies: map[string]string{}}}
	if !*updateGolden {
		b, err := os.ReadFile(g.path)
		if err != nil {
			t.Fatalf("goldens: %v (record them with -update)", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &g.file); err != nil {
			t.Fatal(err)
		}
	}
	goldensMu.Lock()
	goldens[name] = g
	goldensMu.Unlock()
	t.Cleanup(func() {
		goldensMu.Lock()
		delete(goldens, name)
		goldensMu.Unlock()
		if *updateGolden {
			if t.Failed() {
				t.Errorf("goldens: not written, the test failed")
				return
			}
			raw, err := json.Marshal(g.file)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(raw)
			zw.Close()
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(g.path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		var missed []string
		for k := range g.file.Keys {
			if !g.used[k] {
				missed = append(missed, k)
			}
		}
		slices.Sort(missed)
		if len(missed) > 0 {
			t.Errorf("goldens: %d stored answers were not compared (the test read less than it did), first %q", len(missed), missed[0])
		}
	})
}

func goldenOf(t testing.TB) *golden {
	name, _, _ := strings.Cut(t.Name(), "/")
	goldensMu.Lock()
	defer goldensMu.Unlock()
	g := goldens[name]
	if g == nil {
		t.Fatalf("goldens: %s did not call useGolden", name)
	}
	return g
}

// goldenAnswer is the stored form of an answer: its body, or its refusal
// (Canton's code and the error's text).
func goldenAnswer(body []byte, err error) []byte {
	if err == nil {
		return body
	}
	var ae *apierr.Error
	code := ""
	if errors.As(err, &ae) {
		code = ae.Code.Name
	}
	return []byte("refusal " + code + ": " + err.Error())
}

// goldenWant is the stored answer named key of the current top-level
// test. With -update, the first answer given for key (got) is stored and
// returned. ok is false (and t fails) when there is none.
func goldenWant(t testing.TB, key string, got []byte) (want []byte, ok bool) {
	t.Helper()
	g := goldenOf(t)
	g.mu.Lock()
	defer g.mu.Unlock()
	h, ok := g.file.Keys[key]
	if *updateGolden && !ok {
		sum := sha256.Sum256(got)
		h, ok = hex.EncodeToString(sum[:12]), true
		g.file.Keys[key], g.file.Bodies[h] = h, string(got)
	}
	g.used[key] = true
	if !ok {
		t.Errorf("goldens: no stored answer %q (the test reads more than it did: -update)", key)
		return nil, false
	}
	return []byte(g.file.Bodies[h]), true
}

// checkGolden compares an answer of the JSON layer (got, in goldenAnswer's
// form) with the stored answer named what in the current subtest. It
// reports whether they are the same.
func checkGolden(t testing.TB, what string, got []byte) bool {
	t.Helper()
	want, ok := goldenWant(t, goldenKey(t, what), got)
	return ok && sameWire(t, what, want, got)
}

// goldenKey names the answer what of the current subtest; the emitters'
// modes (emitModes) share their answers.
func goldenKey(t testing.TB, what string) string {
	name := strings.NewReplacer("/decoded/", "/", "/stored/", "/").Replace(t.Name() + "/")
	return strings.TrimSuffix(name, "/") + " | " + what
}

// limitName names a list's limit in the names of answers ("none" for
// nil).
func limitName(limit *int64) string {
	if limit == nil {
		return "none"
	}
	return fmt.Sprint(*limit)
}
