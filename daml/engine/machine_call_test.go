package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestAtomicBodyCall pins calls of functions whose body is atomic (a
// parameter, a captured value, a constant or a top-level value), which
// return without an environment (closure.value), and applications whose
// function is a projected dictionary method (nApp.applyDirect): the
// values, over- and partial applications, strictness in the arguments
// and the failures are those of an ordinary call.
func TestAtomicBodyCall(t *testing.T) {
	dict := &lf.EStructCon{Fields: []lf.FieldExpr{
		{Name: "m_sub", Expr: lam(val("sub"), "u")},
		{Name: "m_k", Expr: lam(i64(7), "u")},
	}}
	defs := map[string]lf.Expr{
		"sub":   lam(app(bi(lf.BuiltinSubInt64), v("a"), v("b")), "a", "b"),
		"dict":  dict,
		"first": lam(v("a"), "a", "b"),
		"lazy":  lam(val("sub"), "u"), // a top-level value not evaluated before its first call
	}
	method := func(name string) lf.Expr { return &lf.EStructProj{Field: name, Struct: val("dict")} }
	div0 := app(bi(lf.BuiltinDivInt64), i64(1), i64(0))
	tests := []struct {
		name    string
		x       lf.Expr
		want    Value
		wantErr ErrorKind
	}{
		{name: "parameter", x: app(val("first"), i64(1), i64(2)), want: Int64(1)},
		{name: "second parameter", x: app(lam(v("b"), "a", "b"), i64(1), i64(2)), want: Int64(2)},
		{name: "captured", x: let("k", i64(5), app(lam(v("k"), "a"), i64(1))), want: Int64(5)},
		{name: "constant", x: app(method("m_k"), unit()), want: Int64(7)},
		{name: "top-level value, over-applied", x: app(method("m_sub"), unit(), i64(3), i64(4)), want: Int64(-1)},
		{name: "top-level value not yet evaluated", x: app(val("lazy"), unit(), i64(9), i64(4)), want: Int64(5)},
		{name: "partial application after", x: let("g", app(method("m_sub"), unit(), i64(3)), app(v("g"), i64(10))), want: Int64(-7)},
		{name: "over-applied constant", x: app(method("m_k"), unit(), i64(1)), wantErr: ErrInternal},
		{name: "strict in an unused argument", x: app(val("first"), i64(1), div0), wantErr: ErrFailureStatus},
		{name: "strict in the argument of an over-application", x: app(method("m_sub"), unit(), i64(3), div0), wantErr: ErrFailureStatus},
		{name: "method of a variable", x: let("d", val("dict"), app(&lf.EStructProj{Field: "m_sub", Struct: v("d")}, unit(), i64(2), i64(1))), want: Int64(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEngine(defs, Options{})
			for range 2 { // the second time with the top-level values evaluated
				got, err := e.Eval(context.Background(), tt.x)
				if tt.wantErr != 0 {
					if errKind(err) != tt.wantErr {
						t.Fatalf("got %v, %v; want a %v error", got, err, tt.wantErr)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(show(tt.want), show(got)); diff != "" {
					t.Fatalf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestAtomicBodyCallSteps pins that a call of a function whose body is
// atomic takes no step of its own, and over-applying it pushes no frame:
// applying (\_ -> sub) to (), 3 and 4 is the apply's step, sub's body's
// and the machine's last, which returns the value (5 before: the
// method's body and the over-application's frame took one each).
func TestAtomicBodyCallSteps(t *testing.T) {
	e := newTestEngine(map[string]lf.Expr{
		"sub":    lam(app(bi(lf.BuiltinSubInt64), v("a"), v("b")), "a", "b"),
		"method": lam(val("sub"), "u"),
	}, Options{})
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("method"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.EvalValue(ctx, tid("sub")); err != nil {
		t.Fatal(err)
	}
	m := e.newMachine(ctx)
	m.ctrl = &nApplyValue{fn: f, args: []Value{Unit{}, Int64(3), Int64(4)}}
	got, err := m.result()
	if err != nil || got != Int64(-1) {
		t.Fatalf("got %v, %v", got, err)
	}
	if m.steps != 3 {
		t.Errorf("took %d steps, want 3", m.steps)
	}
}
