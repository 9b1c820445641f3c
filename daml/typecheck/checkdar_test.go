package typecheck

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// badPackage is a package whose value x : Bool = () does not type-check,
// after n well-typed values that the checker goes through first.
func badPackage(name string, n int) lftest.Package {
	i64 := &lf.TBuiltin{Builtin: lf.BuiltinInt64}
	var vals []lftest.Value
	for i := range n {
		vals = append(vals, lftest.Value{Name: fmt.Sprintf("f%d", i), Type: lftest.Fn(lftest.B(lftest.Int64), lftest.B(lftest.Int64)),
			Expr: &lf.EAbs{Params: []lf.VarWithType{{Name: "n", Type: i64}}, Body: &lf.EApp{Fun: &lf.EBuiltinFun{Fun: lf.BuiltinAddInt64},
				Args: []lf.Expr{&lf.EVar{Name: "n"}, &lf.EInt64{Value: int64(i)}}}}})
	}
	vals = append(vals, lftest.Value{Name: "x", Type: lftest.B(lftest.Bool), Expr: &lf.EBuiltinCon{Con: lf.ConUnit}})
	return lftest.Package{Name: name, Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main", Values: vals}}}
}

// TestCheckDARFirstErrorInDAROrder: CheckDAR, which checks packages
// concurrently, reports the error of the first ill-typed package in the
// DAR's order, even when a later one fails much sooner; skip is asked
// about every package once.
func TestCheckDARFirstErrorInDAROrder(t *testing.T) {
	t.Parallel()
	data, ids := lftest.DAR(lftest.IouPackage("1.0.0"), badPackage("slow", 3000), lftest.HeavyPackage(), badPackage("fast", 0), badPackage("fast2", 1))
	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		asked := map[string]int{}
		err := CheckDAR(dar, func(id string) bool { asked[id]++; return false })
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("CheckDAR = %v, want an *Error", err)
		}
		if e.Kind != ETypeMismatch || e.PackageID != ids[1] {
			t.Fatalf("error in package %s (%v), want the first ill-typed one %s", e.PackageID, e.Kind, ids[1])
		}
		for _, id := range ids {
			if asked[id] != 1 {
				t.Errorf("skip asked %d times about %s", asked[id], id)
			}
		}
	}
	// Skipping the first ill-typed package, the next one is reported.
	err = CheckDAR(dar, func(id string) bool { return id == ids[1] })
	var e *Error
	if !errors.As(err, &e) || e.PackageID != ids[3] {
		t.Errorf("skipping %s: %v, want the error of %s", ids[1], err, ids[3])
	}
}
