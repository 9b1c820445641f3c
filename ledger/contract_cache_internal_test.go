package ledger

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// decodedTemplatePackage decodes lftest.TemplatePackage(name, version,
// fields…) as the node would.
func decodedTemplatePackage(t *testing.T, name, version string, fields ...lftest.Field) *lf.Package {
	t.Helper()
	dar, _ := lftest.DAR(lftest.TemplatePackage(name, version, nil, fields...))
	d, err := lf.ReadDAR(dar, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d.Main
}

// uncached is storedContract's argument without the cache.
func uncached(t *testing.T, lookup func(string) *lf.Package, c *txNode) value.Value {
	t.Helper()
	tc, err := splitTypeCon(c.TemplateID)
	if err != nil {
		t.Fatal(err)
	}
	v, err := value.FromJSON(c.Argument, value.TypeOf(tc.PackageID, tc.Module, tc.Name), lookup)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestStoredContractCache reads stored create nodes that a cache keyed
// on less than what decides the value would confuse: each read, first
// and repeated, must be what an uncached decoding gives.
func TestStoredContractCache(t *testing.T) {
	t.Parallel()
	owner := lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}
	n := lftest.Field{Name: "n", Type: lftest.B(lftest.Int64)}
	note := lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))}
	// The same package name, upgraded with an optional field; and v2
	// under v1's id (a lookup that resolves v1's id to another package).
	v1 := decodedTemplatePackage(t, "cache-test", "1.0.0", owner, n)
	v2 := decodedTemplatePackage(t, "cache-test", "2.0.0", owner, n, note)
	impostor := *v2
	impostor.ID = v1.ID
	both := value.PackageLookup(v1, v2)
	swapped := value.PackageLookup(&impostor, v2)
	tid := func(p *lf.Package) string { return p.ID + ":Main:T" }
	node := func(cid, templateID, arg string) *txNode {
		return &txNode{ContractID: cid, TemplateID: templateID, Argument: json.RawMessage(arg), Signatories: []string{"alice::ns"}}
	}
	argA := `{"owner":"alice::ns","n":"1"}`
	argB := `{"owner":"alice::ns","n":"2"}`
	reads := []struct {
		name   string
		lookup func(string) *lf.Package
		c      *txNode
	}{
		{"contract on node 1", both, node("00aa", tid(v1), argA)},
		{"same id, other argument (node 2)", both, node("00aa", tid(v1), argB)},
		{"same bytes, upgraded template", both, node("00aa", tid(v2), argA)},
		{"same bytes and template id, other package behind the id", swapped, node("00aa", tid(v1), argA)},
		{"back to the first package", both, node("00aa", tid(v1), argA)},
	}
	for round := range 2 {
		for _, r := range reads {
			got, err := storedContract(r.lookup, r.c)
			if err != nil {
				t.Fatalf("round %d, %s: %v", round, r.name, err)
			}
			if d := cmp.Diff(uncached(t, r.lookup, r.c), got.Arg); d != "" {
				t.Errorf("round %d, %s: argument (-want +got):\n%s", round, r.name, d)
			}
		}
	}
	// The reads do differ where the key does.
	a, _ := storedContract(both, node("00aa", tid(v1), argA))
	u, _ := storedContract(both, node("00aa", tid(v2), argA))
	s, _ := storedContract(swapped, node("00aa", tid(v1), argA))
	if len(a.Arg.(value.Record).Fields) != 2 || len(u.Arg.(value.Record).Fields) != 3 || len(s.Arg.(value.Record).Fields) != 3 {
		t.Errorf("field counts %d, %d, %d; want 2 (v1), 3 (v2), 3 (v2 behind v1's id)",
			len(a.Arg.(value.Record).Fields), len(u.Arg.(value.Record).Fields), len(s.Arg.(value.Record).Fields))
	}
}

// TestStoredContractCacheCallerChanges changes the contract a read
// returned, in place, and reads it again: the second read is unchanged.
func TestStoredContractCacheCallerChanges(t *testing.T) {
	t.Parallel()
	pkg := decodedTemplatePackage(t, "cache-mutation", "1.0.0",
		lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)},
		lftest.Field{Name: "tags", Type: lftest.ListOf(lftest.B(lftest.Text))})
	lookup := value.PackageLookup(pkg)
	c := &txNode{ContractID: "00bb", TemplateID: pkg.ID + ":Main:T", Argument: json.RawMessage(`{"owner":"alice::ns","tags":["a","b"]}`),
		Signatories: []string{"alice::ns"}, Observers: []string{"bob::ns"}}
	want := uncached(t, lookup, c)
	changes := []struct {
		name string
		do   func(c *txNodeContract)
	}{
		{"field replaced", func(c *txNodeContract) { c.Arg.(value.Record).Fields[0].Value = value.Party("mallory::ns") }},
		{"list element", func(c *txNodeContract) { c.Arg.(value.Record).Fields[1].Value.(value.List)[0] = value.Text("z") }},
		{"record id", func(c *txNodeContract) { c.Arg.(value.Record).RecordID.Name = "Other" }},
		{"signatories", func(c *txNodeContract) { c.Signatories[0] = "mallory::ns" }},
	}
	for _, ch := range changes {
		first, err := storedContract(lookup, c)
		if err != nil {
			t.Fatal(err)
		}
		ch.do(&txNodeContract{Arg: first.Arg, Signatories: first.Signatories})
		again, err := storedContract(lookup, c)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, again.Arg); d != "" {
			t.Errorf("%s: the next read changed (-want +got):\n%s", ch.name, d)
		}
		if d := cmp.Diff([]string{"alice::ns"}, again.Signatories); d != "" {
			t.Errorf("%s: the next read's signatories changed (-want +got):\n%s", ch.name, d)
		}
		if d := cmp.Diff([]string{"alice::ns"}, c.Signatories); d != "" {
			t.Errorf("%s: the stored node's signatories changed (-want +got):\n%s", ch.name, d)
		}
	}
}

// txNodeContract is what a caller of storedContract may change.
type txNodeContract struct {
	Arg         value.Value
	Signatories []string
}

// TestArgCacheBound fills a small cache far past its budget: it keeps at
// most two generations of its budget's half, and still answers right.
func TestArgCacheBound(t *testing.T) {
	t.Parallel()
	pkg := decodedTemplatePackage(t, "cache-bound", "1.0.0", lftest.Field{Name: "n", Type: lftest.B(lftest.Int64)})
	lookup := value.PackageLookup(pkg)
	typ := value.TypeOf(pkg.ID, "Main", "T")
	const budget = 4 << 10
	c := newArgCache(budget)
	for i := range 1000 {
		raw := []byte(`{"n":"` + string(rune('0'+i%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i/100)) + `"}`)
		v, _, err := c.decodeSharedMemo(pkg.ID+":Main:T", raw, pkg, func() (value.Value, error) { return value.FromJSON(raw, typ, lookup) })
		if err != nil {
			t.Fatal(err)
		}
		want, _ := value.FromJSON(raw, typ, lookup)
		if d := cmp.Diff(want, v); d != "" {
			t.Fatalf("entry %d (-want +got):\n%s", i, d)
		}
		if c.gens.size > budget/2 {
			t.Fatalf("entry %d: generation of %d estimated bytes, over half the budget %d", i, c.gens.size, budget)
		}
		entries := len(c.gens.cur) + len(c.gens.old)
		if entries > 2*(budget/2)/argEntrySize(len(raw))+2 {
			t.Fatalf("entry %d: %d entries kept", i, entries)
		}
	}
}

// TestRecordCacheByBytes decodes records of one contract id that differ
// (another argument on another node; the same contract archived): each
// read, first and repeated, is what decodeContractRecord gives.
func TestRecordCacheByBytes(t *testing.T) {
	t.Parallel()
	create := func(arg string) txNode {
		return txNode{ContractID: "00cc", TemplateID: "p:Main:T", Argument: json.RawMessage(arg), Signatories: []string{"alice::ns"}}
	}
	records := [][]byte{
		encodeContractRecordJSON(&contractRecord{Create: create(`{"n":"1"}`), SynchronizerID: "s", State: contractActive, CreatedOffset: 3}),
		encodeContractRecordJSON(&contractRecord{Create: create(`{"n":"2"}`), SynchronizerID: "s", State: contractActive, CreatedOffset: 3}),
		encodeContractRecordJSON(&contractRecord{Create: create(`{"n":"1"}`), SynchronizerID: "s", State: contractArchived, CreatedOffset: 3, ArchivedOffset: 5}),
	}
	for round := range 2 {
		for i, raw := range records {
			var want contractRecord
			if err := decodeContractRecord(raw, &want); err != nil {
				t.Fatal(err)
			}
			got, err := storedRecords.decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, *got, cmp.AllowUnexported(txNode{})); d != "" {
				t.Errorf("round %d, record %d (-want +got):\n%s", round, i, d)
			}
		}
	}
}

// TestLoadContractCopy: the committer sets the state of the records it
// loads through the cache (an archive); a later load, and the next
// transaction if that commit is rolled back, see the stored record.
func TestLoadContractCopy(t *testing.T) {
	t.Parallel()
	n, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	cid := "00" + strings.Repeat("dd", 32)
	raw := encodeContractRecordJSON(&contractRecord{Create: txNode{ContractID: cid, TemplateID: "p:Main:T", Argument: json.RawMessage(`{}`)},
		SynchronizerID: "s", State: contractActive, CreatedOffset: 1})
	if _, err := n.st.Submit(func(t *store.Tx) (any, error) { t.Set(store.ContractKey(cid), raw); return nil, nil }); err != nil {
		t.Fatal(err)
	}
	rollback := errors.New("rolled back")
	_, err = n.st.Submit(func(tx *store.Tx) (any, error) {
		rec, err := loadContractCopy(tx, cid)
		if err != nil {
			return nil, err
		}
		rec.State, rec.ArchivedOffset = contractArchived, 2
		return nil, rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("commit: %v, want the rollback", err)
	}
	err = n.st.View(func(r *store.Reader) error {
		rec, err := loadContractCopy(store.ReadOnlyTx(r), cid)
		if err != nil {
			return err
		}
		if rec.State != contractActive || rec.ArchivedOffset != 0 {
			t.Errorf("after a rolled-back archive: state %q, archived at %d; want active", rec.State, rec.ArchivedOffset)
		}
		if _, err := loadContractCopy(store.ReadOnlyTx(r), "00"+strings.Repeat("ee", 32)); !errors.Is(err, apierr.ContractNotFound) {
			t.Errorf("unknown contract: %v, want CONTRACT_NOT_FOUND", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
