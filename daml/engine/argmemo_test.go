package engine

import (
	"context"
	"sync"
	"testing"
	"weak"

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

// TestValidationMemo checks the validations an engine keeps in the memo
// of a stored contract's argument (argmemo.go): an engine without a
// trace sink records that it validated the contract under its template's
// package and, at the next use of a contract with that argument and
// metadata, trusts the record instead of evaluating the precondition,
// signatories and observers again; it trusts no other engine's record,
// nor one for other metadata, and a traced engine neither records nor
// trusts. A stored T whose precondition fails (n = -1) shows whether the
// engine evaluated it.
func TestValidationMemo(t *testing.T) {
	cache := NewCache()
	newEngine := func(opts Options) *Engine {
		opts.Cache = cache
		return New(PackageMap{testPkg: testPackage(nil)}, opts)
	}
	plain, other := newEngine(Options{}), newEngine(Options{})
	traced := newEngine(Options{Trace: func(string) {}})
	alice, aliceBob := []string{"alice"}, []string{"alice", "bob"}
	type check struct {
		e                  *Engine
		sigs, stakeholders []string
	}
	tests := []struct {
		name         string
		e            *Engine
		n            int64
		stakeholders []string // stored; the signatories are alice
		before       []check  // validations in the memo before
		wantErr      ErrorKind
		wantAfter    []check
	}{
		{name: "records its validation", e: plain, n: 5, stakeholders: alice,
			wantAfter: []check{{plain, alice, alice}}},
		{name: "trusts its own validation", e: plain, n: -1, stakeholders: alice,
			before: []check{{plain, alice, alice}}, wantAfter: []check{{plain, alice, alice}}},
		{name: "evaluates without a validation", e: plain, n: -1, stakeholders: alice,
			wantErr: ErrTemplatePreconditionViolated},
		{name: "does not trust another engine's", e: plain, n: -1, stakeholders: alice,
			before: []check{{other, alice, alice}}, wantErr: ErrTemplatePreconditionViolated,
			wantAfter: []check{{other, alice, alice}}},
		{name: "does not trust one for other metadata", e: plain, n: 5, stakeholders: aliceBob,
			before: []check{{plain, alice, alice}}, wantErr: ErrUpgradeValidationFailed,
			wantAfter: []check{{plain, alice, alice}}},
		{name: "records one per metadata", e: plain, n: 5, stakeholders: alice,
			before: []check{{plain, alice, aliceBob}}, wantAfter: []check{{plain, alice, aliceBob}, {plain, alice, alice}}},
		{name: "traced engine does not trust", e: traced, n: -1, stakeholders: alice,
			before: []check{{traced, alice, alice}}, wantErr: ErrTemplatePreconditionViolated,
			wantAfter: []check{{traced, alice, alice}}},
		{name: "traced engine does not record", e: traced, n: 5, stakeholders: alice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := memoContract()
			c.Arg.(value.Record).Fields[1].Value = value.Int64(tt.n)
			c.Stakeholders = tt.stakeholders
			for _, ch := range tt.before {
				c.Memo.addValidated(weak.Make(ch.e), testPkg, ch.sigs, ch.stakeholders)
			}
			// Twice: the second submission finds what the first recorded.
			for range 2 {
				_, err := tt.e.Submit(context.Background(), Submission{ActAs: []string{"alice"}, Contracts: memStore{c.ID: c}},
					ExerciseCommand(tid("T"), "Peek", c.ID, &Record{Type: &RecordType{ID: tid("Arg")}}))
				if got := errKind(err); got != tt.wantErr {
					t.Fatalf("Submit: %v, want error kind %v", err, tt.wantErr)
				}
			}
			var got []check
			if cs := c.Memo.checks.Load(); cs != nil {
				for _, ch := range cs.list {
					if ch.pkg != testPkg {
						t.Errorf("validation under package %q, want %q", ch.pkg, testPkg)
					}
					got = append(got, check{ch.e.Value(), ch.sigs, ch.stakeholders})
				}
			}
			if diff := cmp.Diff(tt.wantAfter, got, cmp.AllowUnexported(check{}), cmp.Comparer(func(a, b *Engine) bool { return a == b })); diff != "" {
				t.Errorf("validations in the memo (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidationMemoConcurrent has engines submit at once against one
// contract and its memo (run it with -race): every engine's validation is
// recorded, each once, and each engine trusts its own.
func TestValidationMemoConcurrent(t *testing.T) {
	cache := NewCache()
	engines := make([]*Engine, 4)
	for i := range engines {
		engines[i] = New(PackageMap{testPkg: testPackage(nil)}, Options{Cache: cache})
	}
	c := memoContract()
	var wg sync.WaitGroup
	errs := make([]error, len(engines))
	for i, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if _, err := e.Submit(context.Background(), Submission{ActAs: []string{"alice"}, Contracts: memStore{c.ID: c}},
					ExerciseCommand(tid("T"), "Peek", c.ID, &Record{Type: &RecordType{ID: tid("Arg")}})); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("engine %d: %v", i, err)
		}
	}
	cs := c.Memo.checks.Load()
	if cs == nil {
		t.Fatal("no validation recorded")
	}
	for i, e := range engines {
		n := 0
		for _, ch := range cs.list {
			if ch.e.Value() == e {
				n++
			}
		}
		if n != 1 {
			t.Errorf("engine %d has %d validations recorded, want 1", i, n)
		}
	}
}
