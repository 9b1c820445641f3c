package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// memoContract is a stored T{owner = alice, n = 5} with a memo, as the
// ledger's cache of decoded arguments hands it out.
func memoContract() *Contract {
	id := tid("T")
	arg := value.Record{RecordID: &id, Fields: []value.RecordField{
		{Label: "owner", Value: value.Party("alice")}, {Label: "n", Value: value.Int64(5)}}}
	return &Contract{ID: "00aa", TemplateID: id, Arg: arg, Signatories: []string{"alice"},
		Stakeholders: []string{"alice"}, Memo: new(ArgMemo)}
}

// bumpCreated is the argument of the contract a Bump of c created.
func bumpCreated(t *testing.T, e *Engine, c *Contract) value.Value {
	t.Helper()
	res, err := e.Submit(context.Background(), Submission{ActAs: []string{"alice"}, Contracts: memStore{c.ID: c}},
		ExerciseCommand(tid("T"), "Bump", c.ID, &Record{Type: &RecordType{ID: tid("Arg")}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Transaction.Nodes {
		if cr, ok := n.(*tx.Create); ok {
			return cr.Arg
		}
	}
	t.Fatal("Bump created nothing")
	return nil
}

// TestContractArgMemo checks that a contract handed out with a memo is
// converted once for the engines of a Cache, that the value they share
// is not changed by a submission that updates it (Bump: this with n =
// n + 1), and that an engine that could not convert it, or has a cache
// of its own, does not take it.
func TestContractArgMemo(t *testing.T) {
	cache := NewCache()
	e := New(PackageMap{testPkg: testPackage(nil)}, Options{Cache: cache})
	c := memoContract()
	id := tid("T")
	wantBumped := value.Record{RecordID: &id, Fields: []value.RecordField{
		{Label: "owner", Value: value.Party("alice")}, {Label: "n", Value: value.Int64(6)}}}

	for i := range 2 {
		if diff := cmp.Diff(value.Value(wantBumped), bumpCreated(t, e, c)); diff != "" {
			t.Errorf("Bump %d created (-want +got):\n%s", i, diff)
		}
	}
	cv := c.Memo.p.Load()
	if cv == nil {
		t.Fatal("the memo is empty after two lookups")
	}
	if got, _ := toLedgerValue(cv.v); !cmp.Equal(c.Arg, got) {
		t.Errorf("the memo's value changed: %v, want %v", got, c.Arg)
	}

	// Another engine of the cache takes the converted value.
	other := New(PackageMap{testPkg: testPackage(nil)}, Options{Cache: cache})
	if got, err := other.contractArg(c); err != nil || got != cv.v {
		t.Errorf("other engine of the cache: %v, %v; want the memo's value", got, err)
	}

	// An engine of the cache without the package converts afresh, and
	// fails as without a memo.
	blind := New(PackageMap{}, Options{Cache: cache})
	if _, err := blind.contractArg(c); errKind(err) != ErrPackage {
		t.Errorf("engine without the package: %v, want ErrPackage", err)
	}

	// An engine with a cache of its own keeps nothing in the memo.
	own := New(PackageMap{testPkg: testPackage(nil)}, Options{})
	fresh := memoContract()
	if _, err := own.contractArg(fresh); err != nil {
		t.Fatal(err)
	}
	if fresh.Memo.p.Load() != nil {
		t.Error("an engine with its own cache filled the memo")
	}
}
