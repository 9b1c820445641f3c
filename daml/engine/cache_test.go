package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// mutableSource is a PackageSource to which packages can be added.
type mutableSource struct {
	mu   sync.Mutex
	pkgs map[string]*lf.Package
}

func (s *mutableSource) Package(id string) *lf.Package {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pkgs[id]
}

func (s *mutableSource) add(p *lf.Package) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pkgs == nil {
		s.pkgs = map[string]*lf.Package{}
	}
	s.pkgs[p.ID] = p
}

// cacheTestValues are the values of the package of the Cache tests.
var cacheTestValues = map[string]lf.Expr{
	"traced": app(bi(lf.BuiltinTrace), txt("eval"), i64(5)),
	"cast":   app(bi(lf.BuiltinError), txt("not here")),
}

func TestCacheShares(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		shared bool
		want   int // traces of the two engines' evaluations of "traced"
	}{
		{name: "shared", shared: true, want: 1},
		{name: "own", shared: false, want: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var c *Cache
			if tc.shared {
				c = NewCache()
			}
			var mu sync.Mutex
			n := 0
			trace := func(string) { mu.Lock(); n++; mu.Unlock() }
			// Each engine decodes the package itself (same id, same
			// content), as nodes reading their own stores do.
			a := New(PackageMap{testPkg: testPackage(cacheTestValues)}, Options{Cache: c, Trace: trace})
			b := New(PackageMap{testPkg: testPackage(cacheTestValues)}, Options{Cache: c, Trace: trace})
			for _, e := range []*Engine{a, b} {
				if got := mustEval(t, e, add(val("traced"), i64(1))); got != Int64(6) {
					t.Fatalf("got %v", got)
				}
			}
			if n != tc.want {
				t.Errorf("traced %d times, want %d", n, tc.want)
			}
			if same := a.valueDef(tid("traced")) == b.valueDef(tid("traced")); same != tc.shared {
				t.Errorf("engines share the compiled definition: %v, want %v", same, tc.shared)
			}
			ra, err := a.recordType(tid("R"))
			if err != nil {
				t.Fatal(err)
			}
			rb, err := b.recordType(tid("R"))
			if err != nil {
				t.Fatal(err)
			}
			if same := ra == rb; same != tc.shared {
				t.Errorf("engines share the record type: %v, want %v", same, tc.shared)
			}
		})
	}
}

// cacheEntries are the engine's entry points that name a package's
// definitions, each run on a fresh memStore.
var cacheEntries = []struct {
	name string
	run  func(e *Engine) error
}{
	{"EvalValue", func(e *Engine) error {
		_, err := e.EvalValue(context.Background(), tid("traced"))
		return err
	}},
	{"Eval", func(e *Engine) error {
		_, err := e.Eval(context.Background(), add(val("traced"), i64(1)))
		return err
	}},
	{"NewRecord", func(e *Engine) error {
		_, err := e.NewRecord(tid("R"), Int64(1), Int64(2))
		return err
	}},
	{"ExceptionMessage", func(e *Engine) error {
		rt := &RecordType{ID: tid("E"), Fields: []string{"msg"}}
		_, err := e.ExceptionMessage(context.Background(), &Any{Type: &lf.TCon{ID: tid("E")}, Value: &Record{Type: rt, Fields: []Value{Text("x")}}})
		return err
	}},
	{"Submit create and exercise", func(e *Engine) error {
		ctx := context.Background()
		store := memStore{}
		alice := Submission{ActAs: []string{"alice"}, Contracts: store}
		arg := &Record{Type: &RecordType{ID: tid("T"), Fields: []string{"owner", "n"}}, Fields: []Value{Party("alice"), Int64(0)}}
		res, err := e.Submit(ctx, alice, CreateCommand(tid("T"), arg))
		if err != nil {
			return err
		}
		store.commit(res.Transaction)
		unit := &Record{Type: &RecordType{ID: tid("Arg")}}
		_, err = e.Submit(ctx, alice, ExerciseCommand(tid("T"), "Bump", res.Results[0].(ContractID), unit))
		return err
	}},
}

// TestCacheVisibility checks that an engine answers "unknown package" for
// a package its own source lacks, whatever another engine sharing its
// Cache has compiled from it, and that the failure is kept by no one.
func TestCacheVisibility(t *testing.T) {
	t.Parallel()
	for _, tc := range cacheEntries {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := NewCache()
			has := New(PackageMap{testPkg: testPackage(cacheTestValues)}, Options{Cache: c})
			lacks := &mutableSource{}
			without := New(lacks, Options{Cache: c})
			// The engine without the package first, then the one with it,
			// then the first again.
			if err := tc.run(without); errKind(err) != ErrPackage || !strings.Contains(err.Error(), "unknown package") {
				t.Fatalf("without the package, before: got %v, want unknown package", err)
			}
			if err := tc.run(has); err != nil {
				t.Fatalf("with the package: %v", err)
			}
			if err := tc.run(without); errKind(err) != ErrPackage || !strings.Contains(err.Error(), "unknown package") {
				t.Fatalf("without the package, after another engine ran it: got %v, want unknown package", err)
			}
			// Once the source has the package, the engine runs it.
			lacks.add(testPackage(cacheTestValues))
			if err := tc.run(without); err != nil {
				t.Fatalf("once the source has the package: %v", err)
			}
		})
	}
}

// TestPackageFailureNotKept checks that an engine whose source gains a
// package runs it although it failed with "unknown package" before (with
// its own cache).
func TestPackageFailureNotKept(t *testing.T) {
	t.Parallel()
	for _, tc := range cacheEntries {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := &mutableSource{}
			e := New(src, Options{})
			if err := tc.run(e); errKind(err) != ErrPackage {
				t.Fatalf("before: got %v, want unknown package", err)
			}
			src.add(testPackage(cacheTestValues))
			if err := tc.run(e); err != nil {
				t.Fatalf("after: %v", err)
			}
		})
	}
}

// TestCacheOverride checks that an engine with an Override does not
// share compiled code, whichever engine compiles first.
func TestCacheOverride(t *testing.T) {
	t.Parallel()
	for _, overrideFirst := range []bool{true, false} {
		c := NewCache()
		over := New(PackageMap{testPkg: testPackage(cacheTestValues)}, Options{Cache: c, Override: func(ref lf.TypeConID) (Value, bool) {
			if ref == tid("cast") {
				return Identity(), true
			}
			return nil, false
		}})
		plain := New(PackageMap{testPkg: testPackage(cacheTestValues)}, Options{Cache: c})
		check := func(e *Engine) {
			t.Helper()
			_, err := e.Eval(context.Background(), app(val("cast"), i64(3)))
			if e == over && err != nil {
				t.Errorf("override first %v: overridden: %v", overrideFirst, err)
			}
			if e == plain && errKind(err) != ErrUserError {
				t.Errorf("override first %v: not overridden: got %v, want the user error", overrideFirst, err)
			}
		}
		if overrideFirst {
			check(over)
			check(plain)
		} else {
			check(plain)
			check(over)
		}
	}
}

// TestCacheConcurrentEngines runs the entry points on engines sharing a
// Cache at the same time (for the race detector): half of them lack the
// package and must answer "unknown package" throughout.
func TestCacheConcurrentEngines(t *testing.T) {
	t.Parallel()
	c := NewCache()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 8 {
		var src PackageSource = PackageMap{}
		if i%2 == 0 {
			src = PackageMap{testPkg: testPackage(cacheTestValues)}
		}
		e := New(src, Options{Cache: c})
		wg.Go(func() {
			for _, tc := range cacheEntries {
				err := tc.run(e)
				if has := i%2 == 0; has && err != nil || !has && errKind(err) != ErrPackage {
					errs <- tc.name + ": " + fmt.Sprint(err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
