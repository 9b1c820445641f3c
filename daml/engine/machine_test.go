package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
)

func rec(a, b lf.Expr) lf.Expr {
	return &lf.ERecCon{Type: lf.TypeConApp{ID: tid("R")}, Fields: []lf.FieldExpr{{Name: "a", Expr: a}, {Name: "b", Expr: b}}}
}

func recV(a, b Value) Value {
	return &Record{Type: &RecordType{ID: tid("R"), Fields: []string{"a", "b"}}, Fields: []Value{a, b}}
}

func throwE(msg string) lf.Expr {
	return &lf.EThrow{ExceptionType: &lf.TCon{ID: tid("E")},
		Exception: &lf.ERecCon{Type: lf.TypeConApp{ID: tid("E")}, Fields: []lf.FieldExpr{{Name: "msg", Expr: txt(msg)}}}}
}

func TestExpressions(t *testing.T) {
	tests := []struct {
		name string
		x    lf.Expr
		want Value
	}{
		{"int", i64(7), Int64(7)},
		{"text", txt("hé"), Text("hé")},
		{"bool", tru(), Bool(true)},
		{"unit", unit(), Unit{}},
		{"numeric literal", &lf.ENumeric{Text: "1.50", Scale: 2}, Numeric{numeric.MustParse("1.50")}},
		{"app", add(i64(1), i64(2)), Int64(3)},
		{"lambda", app(lam(add(v("x"), v("y")), "x", "y"), i64(40), i64(2)), Int64(42)},
		{"closure captures", app(let("k", i64(10), lam(add(v("x"), v("k")), "x")), i64(5)), Int64(15)},
		{"partial application", let("f", app(lam(add(v("x"), v("y")), "x", "y"), i64(1)), app(v("f"), i64(2))), Int64(3)},
		{"partial builtin", let("f", app(bi(lf.BuiltinAddInt64), i64(1)), app(v("f"), i64(2))), Int64(3)},
		{"over-application", app(lam(lam(add(v("x"), v("y")), "y"), "x"), i64(1), i64(2)), Int64(3)},
		{"curried lambda returning lambda", app(lam(let("z", v("x"), lam(add(v("z"), v("y")), "y")), "x"), i64(3), i64(4)), Int64(7)},
		{"type abstraction erased", app(&lf.ETyApp{Expr: &lf.ETyAbs{Body: lam(v("x"), "x")}, Types: []lf.Type{&lf.TBuiltin{}}}, i64(1)), Int64(1)},
		{"let shadowing", let("x", i64(1), let("x", add(v("x"), i64(1)), v("x"))), Int64(2)},
		{"let chain", &lf.ELet{Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "a"}, Bound: i64(1)}, {Var: lf.VarWithType{Name: "b"}, Bound: add(v("a"), i64(1))}}, Body: add(v("a"), v("b"))}, Int64(3)},
		{"case bool", caseE(fls(), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, i64(1)), alt(&lf.PBuiltinCon{Con: lf.ConFalse}, i64(2))), Int64(2)},
		{"case unit", caseE(unit(), alt(&lf.PBuiltinCon{Con: lf.ConUnit}, i64(1))), Int64(1)},
		{"case default first", caseE(tru(), alt(&lf.PDefault{}, i64(9)), alt(&lf.PBuiltinCon{Con: lf.ConTrue}, i64(1))), Int64(9)},
		{"case nil", caseE(nilE(), alt(&lf.PCons{Head: "h", Tail: "t"}, i64(1)), alt(&lf.PNil{}, i64(0))), Int64(0)},
		{"case cons", caseE(cons(nilE(), i64(5), i64(6)), alt(&lf.PNil{}, i64(0)), alt(&lf.PCons{Head: "h", Tail: "t"}, caseE(v("t"), alt(&lf.PCons{Head: "h2", Tail: "t2"}, add(v("h"), v("h2")))))), Int64(11)},
		{"case some", caseE(&lf.EOptionalSome{Value: i64(3)}, alt(&lf.POptionalNone{}, i64(0)), alt(&lf.POptionalSome{Binder: "x"}, v("x"))), Int64(3)},
		{"case none", caseE(&lf.EOptionalNone{}, alt(&lf.POptionalSome{Binder: "x"}, v("x")), alt(&lf.POptionalNone{}, i64(0))), Int64(0)},
		{"case variant", caseE(&lf.EVariantCon{Type: lf.TypeConApp{ID: tid("V")}, Con: "Rt", Arg: i64(8)},
			alt(&lf.PVariant{ID: tid("V"), Con: "L", Binder: "x"}, i64(0)), alt(&lf.PVariant{ID: tid("V"), Con: "Rt", Binder: "y"}, v("y"))), Int64(8)},
		{"case enum", caseE(&lf.EEnumCon{ID: tid("C"), Con: "Blue"},
			alt(&lf.PEnum{ID: tid("C"), Con: "Red"}, i64(0)), alt(&lf.PEnum{ID: tid("C"), Con: "Blue"}, i64(2))), Int64(2)},
		{"case over record with default", caseE(rec(i64(1), i64(2)), alt(&lf.PDefault{}, i64(4))), Int64(4)},
		{"record", rec(i64(1), txt("x")), recV(Int64(1), Text("x"))},
		{"record fields out of order", &lf.ERecCon{Type: lf.TypeConApp{ID: tid("R")}, Fields: []lf.FieldExpr{{Name: "b", Expr: i64(2)}, {Name: "a", Expr: i64(1)}}}, recV(Int64(1), Int64(2))},
		{"rec_proj", &lf.ERecProj{Type: lf.TypeConApp{ID: tid("R")}, Field: "b", Record: rec(i64(1), i64(2))}, Int64(2)},
		{"rec_upd", &lf.ERecUpd{Type: lf.TypeConApp{ID: tid("R")}, Field: "a", Record: rec(i64(1), i64(2)), Update: i64(5)}, recV(Int64(5), Int64(2))},
		{"struct sorted", &lf.EStructProj{Field: "a", Struct: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "z", Expr: i64(1)}, {Name: "a", Expr: i64(2)}}}}, Int64(2)},
		{"struct_upd", &lf.EStructProj{Field: "z", Struct: &lf.EStructUpd{Field: "z", Update: i64(9), Struct: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "z", Expr: i64(1)}, {Name: "a", Expr: i64(2)}}}}}, Int64(9)},
		{"cons", cons(cons(nilE(), i64(3)), i64(1), i64(2)), ListOf(Int64(1), Int64(2), Int64(3))},
		{"to_any/from_any", &lf.EFromAny{Type: &lf.TCon{ID: tid("R")}, Expr: &lf.EToAny{Type: &lf.TCon{ID: tid("R")}, Expr: rec(i64(1), i64(2))}}, Some(recV(Int64(1), Int64(2)))},
		{"from_any wrong type", &lf.EFromAny{Type: &lf.TCon{ID: tid("V")}, Expr: &lf.EToAny{Type: &lf.TCon{ID: tid("R")}, Expr: rec(i64(1), i64(2))}}, None},
		{"type_rep equal", app(bi(lf.BuiltinEqual), &lf.ETypeRep{Type: &lf.TCon{ID: tid("R")}}, &lf.ETypeRep{Type: &lf.TCon{ID: tid("R")}}), Bool(true)},
		{"top-level value", add(val("one"), val("one")), Int64(2)},
		{"recursive top-level", app(val("len"), cons(nilE(), i64(1), i64(2), i64(3))), Int64(3)},
		{"any exception message", app(bi(lf.BuiltinAnyExceptionMessage), &lf.EToAnyException{Type: &lf.TCon{ID: tid("E")},
			Expr: &lf.ERecCon{Type: lf.TypeConApp{ID: tid("E")}, Fields: []lf.FieldExpr{{Name: "msg", Expr: txt("boom")}}}}), Text("E: boom")},
	}
	values := map[string]lf.Expr{
		"one": i64(1),
		"len": lam(caseE(v("xs"), alt(&lf.PNil{}, i64(0)), alt(&lf.PCons{Head: "h", Tail: "t"}, add(i64(1), app(val("len"), v("t"))))), "xs"),
	}
	e := newTestEngine(values, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustEval(t, e, tc.x)
			if eq, err := Equal(got, tc.want); err != nil || !eq {
				t.Errorf("got %s, want %s (%v)", show(got), show(tc.want), err)
			}
		})
	}
}

func TestUpdates(t *testing.T) {
	e := newTestEngine(nil, Options{})
	ctx := context.Background()
	run := func(x lf.Expr) (Value, error) {
		u, err := e.Eval(ctx, x)
		if err != nil {
			return nil, err
		}
		return e.Apply(ctx, u, Token{})
	}
	block := upd(&lf.UBlock{Bindings: []lf.Binding{
		{Var: lf.VarWithType{Name: "x"}, Bound: upd(&lf.UPure{Expr: i64(1)})},
		{Var: lf.VarWithType{Name: "y"}, Bound: upd(&lf.UPure{Expr: add(v("x"), i64(1))})},
	}, Body: upd(&lf.UPure{Expr: add(v("x"), v("y"))})})
	got, err := run(block)
	if err != nil || got != Int64(3) {
		t.Errorf("block: got %v, %v; want 3", got, err)
	}
	// try: the handler returns Some (pure (message of the exception)).
	try := upd(&lf.UTryCatch{Try: upd(&lf.UEmbedExpr{Expr: throwE("oops")}), Var: "ex",
		Catch: &lf.EOptionalSome{Value: upd(&lf.UPure{Expr: app(bi(lf.BuiltinAnyExceptionMessage), v("ex"))})}})
	got, err = run(try)
	if err != nil || got != Text("E: oops") {
		t.Errorf("try: got %v, %v", got, err)
	}
	// try catching an ArithmeticError.
	try = upd(&lf.UTryCatch{Try: upd(&lf.UPure{Expr: app(bi(lf.BuiltinDivInt64), i64(1), i64(0))}), Var: "ex",
		Catch: &lf.EOptionalSome{Value: upd(&lf.UPure{Expr: app(bi(lf.BuiltinAnyExceptionMessage), v("ex"))})}})
	// The try expression itself is evaluated when the try runs, inside
	// the handler.
	got, err = run(try)
	if err != nil || got != Text("ArithmeticError while evaluating (DIV_INT64 1 0).") {
		t.Errorf("try pure: got %v, %v", got, err)
	}
	try = upd(&lf.UTryCatch{Try: upd(&lf.UEmbedExpr{Expr: upd(&lf.UPure{Expr: app(bi(lf.BuiltinDivInt64), i64(1), i64(0))})}), Var: "ex",
		Catch: &lf.EOptionalSome{Value: upd(&lf.UPure{Expr: app(bi(lf.BuiltinAnyExceptionMessage), v("ex"))})}})
	got, err = run(try)
	if err != nil || got != Text("ArithmeticError while evaluating (DIV_INT64 1 0).") {
		t.Errorf("try arithmetic: got %v, %v", got, err)
	}
	// None re-raises.
	try = upd(&lf.UTryCatch{Try: upd(&lf.UEmbedExpr{Expr: throwE("again")}), Var: "ex", Catch: &lf.EOptionalNone{}})
	_, err = run(try)
	if e, ok := err.(*Error); !ok || e.Kind != ErrFailureStatus || e.Message != "E: again" {
		t.Errorf("re-raise: got %v", err)
	}
	// ERROR is not catchable.
	try = upd(&lf.UTryCatch{Try: upd(&lf.UEmbedExpr{Expr: app(bi(lf.BuiltinError), txt("fatal"))}), Var: "ex",
		Catch: &lf.EOptionalSome{Value: upd(&lf.UPure{Expr: i64(0)})}})
	_, err = run(try)
	if errKind(err) != ErrUserError {
		t.Errorf("ERROR in try: got %v", err)
	}
}

func TestErrors(t *testing.T) {
	e := newTestEngine(map[string]lf.Expr{"bad": throwE("top")}, Options{})
	tests := []struct {
		name    string
		x       lf.Expr
		kind    ErrorKind
		id, msg string
	}{
		{"unhandled exception", throwE("boom"), ErrFailureStatus, "UNHANDLED_EXCEPTION/M:E", "E: boom"},
		{"arithmetic", app(bi(lf.BuiltinAddInt64), i64(9223372036854775807), i64(1)), ErrFailureStatus,
			"UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError", "ArithmeticError while evaluating (ADD_INT64 9223372036854775807 1)."},
		{"right to left", add(app(bi(lf.BuiltinDivInt64), i64(1), i64(0)), app(bi(lf.BuiltinError), txt("x"))), ErrUserError, "", "x"},
		{"right to left record", rec(app(bi(lf.BuiltinError), txt("first")), app(bi(lf.BuiltinError), txt("last"))), ErrUserError, "", "last"},
		{"function comparison", app(bi(lf.BuiltinEqual), lam(v("x"), "x"), lam(v("x"), "x")), ErrNonComparableValues, "", "functions are not comparable"},
		{"fail with status", app(bi(lf.BuiltinFailWithStatus), txt("my-id"), &lf.EFailureCategory{Category: lf.InvalidIndependentOfSystemState}, txt("m"), bi(lf.BuiltinTextMapEmpty)), ErrFailureStatus, "my-id", "m"},
		{"no match", caseE(tru(), alt(&lf.PBuiltinCon{Con: lf.ConFalse}, i64(0))), ErrInternal, "", "No match for engine.Bool in case expression"},
		{"top-level failure", val("bad"), ErrFailureStatus, "UNHANDLED_EXCEPTION/M:E", "E: top"},
		{"message throws", &lf.EThrow{ExceptionType: &lf.TCon{ID: tid("E")}, Exception: &lf.ERecCon{Type: lf.TypeConApp{ID: tid("E")},
			Fields: []lf.FieldExpr{{Name: "msg", Expr: app(bi(lf.BuiltinUnixDaysToDate), i64(9223372036854775807))}}}}, ErrFailureStatus,
			"UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError", "ArithmeticError while evaluating (UNIX_DAYS_TO_DATE 9223372036854775807)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Eval(context.Background(), tc.x)
			ee, ok := err.(*Error)
			if !ok {
				t.Fatalf("got %v, want an *Error", err)
			}
			if ee.Kind != tc.kind || ee.ErrorID != tc.id || ee.Message != tc.msg {
				t.Errorf("got %v %q %q, want %v %q %q", ee.Kind, ee.ErrorID, ee.Message, tc.kind, tc.id, tc.msg)
			}
		})
	}
}

func TestTopLevelEvaluatedOnce(t *testing.T) {
	n := 0
	e := newTestEngine(map[string]lf.Expr{"traced": app(bi(lf.BuiltinTrace), txt("eval"), i64(5))},
		Options{Trace: func(string) { n++ }})
	for range 3 {
		if got := mustEval(t, e, add(val("traced"), val("traced"))); got != Int64(10) {
			t.Fatalf("got %v", got)
		}
	}
	if n != 1 {
		t.Errorf("traced %d times, want 1", n)
	}
}

func TestOverride(t *testing.T) {
	e := newTestEngine(map[string]lf.Expr{"cast": app(bi(lf.BuiltinError), txt("not here"))}, Options{
		Override: func(ref lf.TypeConID) (Value, bool) {
			if ref == tid("cast") {
				return Identity(), true
			}
			return nil, false
		}})
	if got := mustEval(t, e, app(val("cast"), i64(3))); got != Int64(3) {
		t.Errorf("got %v", got)
	}
}

// sumR is a non-tail-recursive sum: every element adds a continuation.
var sumR = lam(caseE(v("xs"), alt(&lf.PNil{}, i64(0)), alt(&lf.PCons{Head: "h", Tail: "t"}, add(v("h"), app(val("sumR"), v("t"))))), "xs")

// countdown is a tail-recursive loop: countdown n acc.
var countdown = lam(caseE(app(bi(lf.BuiltinEqual), v("n"), i64(0)),
	alt(&lf.PBuiltinCon{Con: lf.ConTrue}, v("acc")),
	alt(&lf.PBuiltinCon{Con: lf.ConFalse}, app(val("countdown"), app(bi(lf.BuiltinSubInt64), v("n"), i64(1)), add(v("acc"), i64(1))))), "n", "acc")

func intList(n int) *List {
	var l *List
	for i := n; i >= 1; i-- {
		l = &List{Head: Int64(i), Tail: l}
	}
	return l
}

func TestDeepRecursion(t *testing.T) {
	const n = 100_000
	e := newTestEngine(map[string]lf.Expr{"sumR": sumR}, Options{})
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("sumR"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Apply(ctx, f, intList(n))
	if err != nil || got != Int64(n*(n+1)/2) {
		t.Fatalf("sumR: got %v, %v", got, err)
	}
	// FOLDR and FOLDL over a long list.
	got, err = e.Apply(ctx, builtinPAPs[lf.BuiltinFoldR], builtinPAPs[lf.BuiltinAddInt64], Int64(0), intList(n))
	if err != nil || got != Int64(n*(n+1)/2) {
		t.Fatalf("FOLDR: got %v, %v", got, err)
	}
	got, err = e.Apply(ctx, builtinPAPs[lf.BuiltinFoldL], builtinPAPs[lf.BuiltinSubInt64], Int64(0), intList(3))
	if err != nil || got != Int64(-6) {
		t.Fatalf("FOLDL: got %v, %v", got, err)
	}
}

func TestGuards(t *testing.T) {
	loop := map[string]lf.Expr{"loop": lam(app(val("loop"), v("x")), "x")}
	t.Run("step budget", func(t *testing.T) {
		e := newTestEngine(loop, Options{MaxSteps: 100_000})
		_, err := e.Eval(context.Background(), app(val("loop"), i64(1)))
		if errKind(err) != ErrStepLimit {
			t.Errorf("got %v", err)
		}
	})
	t.Run("cancellation", func(t *testing.T) {
		e := newTestEngine(loop, Options{MaxSteps: -1})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := e.Eval(ctx, app(val("loop"), i64(1)))
		if errKind(err) != ErrCanceled {
			t.Errorf("got %v", err)
		}
	})
}

func BenchmarkCountdown(b *testing.B) {
	const n = 100_000
	e := newTestEngine(map[string]lf.Expr{"countdown": countdown}, Options{MaxSteps: -1})
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("countdown"))
	if err != nil {
		b.Fatal(err)
	}
	var steps int64
	for b.Loop() {
		m := e.newMachine(ctx)
		m.ctrl = &nApplyValue{fn: f, args: []Value{Int64(n), Int64(0)}}
		got, err := m.result()
		if err != nil || got != Int64(n) {
			b.Fatal(got, err)
		}
		steps = m.steps
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*steps), "ns/step")
	b.ReportMetric(float64(steps), "steps/op")
}

func show(v Value) string { return fmt.Sprintf("%#v", v) }

// TestClosureEnvironment pins closure.enter's environment: the results
// are those of a fresh environment, the caller's arguments are never
// written, one argument slice serves several calls, and the environment
// never shares the argument slice's memory — the slice is often a
// continuation frame's buffer, and sharing it would keep that frame, and
// through it every caller's frame, alive: a Daml loop of a million
// iterations retained a million frames until its evaluation ended
// (BenchmarkCommitterVsInterpretation in ledger ran 1.6x slower).
func TestClosureEnvironment(t *testing.T) {
	tests := []struct {
		name string
		fn   lf.Expr
		args []Value
		want Value
	}{
		{"no binders", lam(add(v("x"), v("y")), "x", "y"), []Value{Int64(40), Int64(2)}, Int64(42)},
		{"let binder", lam(let("z", add(v("x"), v("y")), add(v("z"), v("x"))), "x", "y"), []Value{Int64(1), Int64(2)}, Int64(4)},
		{"case binders", lam(caseE(v("xs"), alt(&lf.PNil{}, v("d")), alt(&lf.PCons{Head: "h", Tail: "t"}, v("h"))), "xs", "d"),
			[]Value{intList(3), Int64(0)}, Int64(1)},
		{"let shadowing a parameter", lam(let("x", add(v("x"), i64(1)), v("x")), "x"), []Value{Int64(1)}, Int64(2)},
		{"partial application keeps a copy of its arguments", lam(lam(add(v("x"), v("y")), "y"), "x"), []Value{Int64(5)}, nil},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(map[string]lf.Expr{"f": tc.fn}, Options{})
			f, err := e.EvalValue(ctx, tid("f"))
			if err != nil {
				t.Fatal(err)
			}
			clo := f.(*PAP).fn.(*closure)
			args := slices.Clone(tc.args)
			m := e.newMachine(ctx)
			clo.enter(m, args)
			if len(m.env) == 0 || &m.env[0] == &args[0] {
				t.Fatalf("the environment shares the argument slice (slots %d, arity %d)", clo.code.slots, clo.code.arity)
			}
			for range 2 {
				got, err := e.Apply(ctx, f, args...)
				if err != nil {
					t.Fatal(err)
				}
				if tc.want == nil {
					// The partial application must have copied x: changing
					// the argument slice afterwards does not reach it.
					args2 := slices.Clone(tc.args)
					g, err := e.Apply(ctx, f, args2...)
					if err != nil {
						t.Fatal(err)
					}
					args2[0] = Int64(100)
					got, err = e.Apply(ctx, g, Int64(1))
					if err != nil || got != Int64(6) {
						t.Fatalf("returned closure: %v, %v", got, err)
					}
				} else if show(got) != show(tc.want) {
					t.Errorf("got %s, want %s", show(got), show(tc.want))
				}
				if diff := cmp.Diff(fmt.Sprintf("%#v", tc.args), fmt.Sprintf("%#v", args)); diff != "" {
					t.Errorf("arguments modified (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestDirectPathsMatchGeneralPaths pins the inline evaluations (a direct
// op on atomic arguments run on the machine's opScratch, an application
// of a closure to atomic arguments entered at once, an evaluated
// top-level value read as an atomic) to the general path through
// continuation frames: every expression is evaluated with atomic
// arguments (variables bound by a lambda, constants, a top-level value)
// and with the same arguments behind an identity call, which is never
// atomic, and the two results must be equal.
func TestDirectPathsMatchGeneralPaths(t *testing.T) {
	id := lam(v("z"), "z")
	wrap := func(x lf.Expr) lf.Expr { return app(id, x) }
	rt := lf.TypeConApp{ID: tid("R")}
	tests := []struct {
		name string
		// build makes the expression from its arguments.
		build func(a ...lf.Expr) lf.Expr
		args  []lf.Expr
	}{
		{"rec_proj", func(a ...lf.Expr) lf.Expr { return &lf.ERecProj{Type: rt, Field: "b", Record: a[0]} }, []lf.Expr{rec(i64(1), txt("x"))}},
		{"rec_upd", func(a ...lf.Expr) lf.Expr { return &lf.ERecUpd{Type: rt, Field: "a", Record: a[0], Update: a[1]} },
			[]lf.Expr{rec(i64(1), i64(2)), i64(9)}},
		{"variant", func(a ...lf.Expr) lf.Expr {
			return &lf.EVariantCon{Type: lf.TypeConApp{ID: tid("V")}, Con: "Rt", Arg: a[0]}
		}, []lf.Expr{i64(8)}},
		{"cons", func(a ...lf.Expr) lf.Expr { return cons(a[2], a[0], a[1]) }, []lf.Expr{i64(1), i64(2), cons(nilE(), i64(3))}},
		{"cons beyond the scratch", func(a ...lf.Expr) lf.Expr { return cons(a[0], a[1], a[1], a[1], a[1], a[1]) }, []lf.Expr{nilE(), txt("s")}},
		{"some", func(a ...lf.Expr) lf.Expr { return &lf.EOptionalSome{Value: a[0]} }, []lf.Expr{txt("s")}},
		{"struct", func(a ...lf.Expr) lf.Expr {
			return &lf.EStructProj{Field: "q", Struct: &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "q", Expr: a[0]}, {Name: "p", Expr: a[1]}}}}
		}, []lf.Expr{i64(1), i64(2)}},
		{"to_any and from_any", func(a ...lf.Expr) lf.Expr {
			return &lf.EFromAny{Type: &lf.TBuiltin{Builtin: lf.BuiltinInt64}, Expr: &lf.EToAny{Type: &lf.TBuiltin{Builtin: lf.BuiltinInt64}, Expr: a[0]}}
		}, []lf.Expr{i64(4)}},
		{"two records from the same variables", func(a ...lf.Expr) lf.Expr {
			return let("r1", rec(a[0], a[1]), let("r2", rec(a[1], a[0]), cons(nilE(), v("r1"), v("r2"))))
		}, []lf.Expr{i64(1), i64(2)}},
		{"ops bound by lets", func(a ...lf.Expr) lf.Expr {
			return let("x", &lf.EOptionalSome{Value: a[0]}, let("y", &lf.EOptionalSome{Value: a[1]}, cons(nilE(), v("x"), v("y"))))
		}, []lf.Expr{i64(1), i64(2)}},
		{"closure applied to atomics", func(a ...lf.Expr) lf.Expr {
			return app(lam(let("s", add(v("p"), v("q")), cons(nilE(), v("s"), v("p"))), "p", "q"), a[0], a[1])
		}, []lf.Expr{i64(5), i64(6)}},
		{"top-level function", func(a ...lf.Expr) lf.Expr { return app(val("swap"), a[0], a[1]) }, []lf.Expr{i64(1), txt("b")}},
		{"top-level value as an argument", func(a ...lf.Expr) lf.Expr { return cons(nilE(), a[0], val("seven")) }, []lf.Expr{i64(1)}},
		{"update value", func(a ...lf.Expr) lf.Expr { return upd(&lf.UPure{Expr: a[0]}) }, []lf.Expr{i64(3)}},
	}
	values := map[string]lf.Expr{
		"swap":  lam(rec(v("y"), v("x")), "x", "y"),
		"seven": add(i64(3), i64(4)),
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(values, Options{})
			// Evaluate the top-level values first, so that they are atomic.
			for name := range values {
				if _, err := e.EvalValue(context.Background(), tid(name)); err != nil {
					t.Fatal(err)
				}
			}
			// Atomic: the arguments are the parameters of a lambda.
			params := make([]string, len(tc.args))
			vars := make([]lf.Expr, len(tc.args))
			wrapped := make([]lf.Expr, len(tc.args))
			for i, a := range tc.args {
				params[i] = fmt.Sprintf("a%d", i)
				vars[i] = v(params[i])
				wrapped[i] = wrap(a)
			}
			atomic := mustEval(t, e, app(lam(tc.build(vars...), params...), tc.args...))
			general := mustEval(t, e, tc.build(wrapped...))
			if !sameValue(t, general, atomic) {
				t.Errorf("atomic arguments give %s, the general path %s", show(atomic), show(general))
			}
		})
	}
}

// sameValue compares two values with Equal; partial applications (which
// Equal does not compare) by arity and arguments.
func sameValue(t *testing.T, a, b Value) bool {
	t.Helper()
	if pa, ok := a.(*PAP); ok {
		pb, ok := b.(*PAP)
		if !ok || pa.arity != pb.arity || len(pa.args) != len(pb.args) {
			return false
		}
		for i := range pa.args {
			if !sameValue(t, pa.args[i], pb.args[i]) {
				return false
			}
		}
		return true
	}
	eq, err := Equal(a, b)
	if err != nil {
		t.Fatalf("Equal(%s, %s): %v", show(a), show(b), err)
	}
	return eq
}

// TestInlineArgumentsMatchFrames pins the inline evaluation of direct
// builtin calls and direct ops among the nodes of an application or an
// op (startSeq, kSeq, enterClosure) to their evaluation through
// continuation frames (each argument behind an identity call): the same
// value or error, and the same trace order (right to left).
func TestInlineArgumentsMatchFrames(t *testing.T) {
	id := lam(v("z"), "z")
	wrap := func(x lf.Expr) lf.Expr { return app(id, x) }
	tr := func(msg string, x lf.Expr) lf.Expr { return app(bi(lf.BuiltinTrace), txt(msg), x) }
	div := func(a, b lf.Expr) lf.Expr { return app(bi(lf.BuiltinDivInt64), a, b) }
	rt := lf.TypeConApp{ID: tid("R")}
	three := lam(cons(nilE(), v("p"), v("q"), v("r")), "p", "q", "r")
	tests := []struct {
		name string
		// build makes the expression from its arguments, each of which is
		// inline (a direct call or op) or behind an identity call.
		build func(a ...lf.Expr) lf.Expr
		args  []lf.Expr
	}{
		{"closure on direct calls", func(a ...lf.Expr) lf.Expr { return app(three, a...) },
			[]lf.Expr{tr("a", add(i64(1), i64(2))), tr("b", i64(3)), tr("c", i64(4))}},
		{"closure on a direct op", func(a ...lf.Expr) lf.Expr { return app(three, a...) },
			[]lf.Expr{tr("a", i64(1)), &lf.ERecProj{Type: rt, Field: "a", Record: v("r0")}, tr("c", i64(4))}},
		{"a call that throws", func(a ...lf.Expr) lf.Expr { return app(three, a...) },
			[]lf.Expr{tr("a", i64(1)), div(i64(1), i64(0)), tr("c", i64(4))}},
		{"a call that fails", func(a ...lf.Expr) lf.Expr { return app(three, a...) },
			[]lf.Expr{tr("a", i64(1)), app(bi(lf.BuiltinError), txt("no")), tr("c", i64(4))}},
		{"builtin function on direct calls", func(a ...lf.Expr) lf.Expr {
			return app(bi(lf.BuiltinAppendText), a...)
		}, []lf.Expr{tr("a", txt("x")), tr("b", txt("y"))}},
		{"partial application", func(a ...lf.Expr) lf.Expr { return app(app(three, a[0]), a[1], a[2]) },
			[]lf.Expr{tr("a", i64(1)), tr("b", i64(2)), tr("c", i64(3))}},
		{"over-application", func(a ...lf.Expr) lf.Expr { return app(lam(id, "u"), a...) },
			[]lf.Expr{tr("a", i64(1)), tr("b", i64(2))}},
		{"op on direct calls", func(a ...lf.Expr) lf.Expr { return cons(a[2], a[0], a[1]) },
			[]lf.Expr{tr("a", i64(1)), tr("b", i64(2)), tr("c", nilE())}},
		{"record beyond the frame buffer", func(a ...lf.Expr) lf.Expr { return cons(nilE(), a...) },
			[]lf.Expr{tr("a", i64(1)), tr("b", i64(2)), tr("c", i64(3)), tr("d", i64(4)), tr("e", i64(5)), tr("f", i64(6))}},
	}
	run := func(x lf.Expr) (Value, []string, error) {
		var traces []string
		e := newTestEngine(nil, Options{Trace: func(s string) { traces = append(traces, s) }})
		// r0 is an atomic record for the direct ops.
		got, err := e.Eval(context.Background(), app(lam(x, "r0"), rec(i64(7), i64(8))))
		return got, traces, err
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wrapped := make([]lf.Expr, len(tc.args))
			for i, a := range tc.args {
				wrapped[i] = wrap(a)
			}
			iv, itr, ierr := run(tc.build(tc.args...))
			fv, ftr, ferr := run(tc.build(wrapped...))
			if (ierr == nil) != (ferr == nil) || ierr != nil && ierr.Error() != ferr.Error() {
				t.Fatalf("inline error %v, through frames %v", ierr, ferr)
			}
			if ierr == nil && !sameValue(t, fv, iv) {
				t.Errorf("inline %s, through frames %s", show(iv), show(fv))
			}
			if diff := cmp.Diff(ftr, itr); diff != "" {
				t.Errorf("traces (-frames +inline):\n%s", diff)
			}
		})
	}
}

// TestApplicationFramesReused: the frame an application waits in for an
// argument that needs the machine is reused once the call is entered
// (releasesVals), so a loop whose calls take such arguments allocates no
// frame per iteration; and a reused frame's values are not the values
// of an over-application's pending arguments (apply copies them), nor of
// a closure's environment.
func TestApplicationFramesReused(t *testing.T) {
	id := lam(v("z"), "z")
	// countdownID is countdown with every argument behind an identity
	// call, so that each recursive call waits in a frame.
	countdownID := lam(caseE(app(bi(lf.BuiltinEqual), v("n"), i64(0)),
		alt(&lf.PBuiltinCon{Con: lf.ConTrue}, v("acc")),
		alt(&lf.PBuiltinCon{Con: lf.ConFalse}, app(val("countdownID"),
			app(val("id"), app(bi(lf.BuiltinSubInt64), v("n"), i64(1))), app(val("id"), add(v("acc"), i64(1)))))), "n", "acc")
	// over applies a two-argument function to three arguments, each
	// behind an identity call: (\a b -> id (\c -> [a, b, c])).
	over := app(lam(app(id, lam(cons(nilE(), v("a"), v("b"), v("c")), "c")), "a", "b"),
		app(id, i64(1)), app(id, i64(2)), app(id, i64(3)))
	// overPAP does the same through a partial application holding the
	// first argument (apply joins its arguments in a reused buffer).
	mk := lam(app(id, lam(cons(nilE(), v("a"), v("b"), v("c")), "c")), "a", "b")
	overPAP := app(app(id, app(mk, app(id, i64(1)))), app(id, i64(2)), app(id, i64(3)))
	e := newTestEngine(map[string]lf.Expr{"countdownID": countdownID, "id": id, "over": over, "overPAP": overPAP}, Options{})
	ctx := context.Background()
	for _, name := range []string{"over", "overPAP"} {
		if got := mustEval(t, e, val(name)); !sameValue(t, got, ListOf(Int64(1), Int64(2), Int64(3))) {
			t.Errorf("%s: %s", name, show(got))
		}
	}
	f, err := e.EvalValue(ctx, tid("countdownID"))
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(n int64) float64 {
		return allocsPerRun(t, 5, func() {
			if got, err := e.Apply(ctx, f, Int64(n), Int64(0)); err != nil || got != Int64(n) {
				t.Fatalf("countdownID %d: %v, %v", n, got, err)
			}
		})
	}
	// Per iteration: the environments of the three calls and the two
	// Int64 results; the frame was a sixth.
	if perIteration := (allocs(2000) - allocs(1000)) / 1000; perIteration > 5.5 {
		t.Errorf("%.2f allocations per iteration, want 5", perIteration)
	}
}

// TestClosureOneAllocation: building a closure that captures a few values
// is one allocation (the function value, its closure and the captured
// values), not three.
func TestClosureOneAllocation(t *testing.T) {
	id := lam(v("z"), "z")
	// loopC n = if n == 0 then 0 else loopC ((id (\k -> n + k - n)) (n - 1)):
	// each iteration builds one closure capturing n and applies it.
	loopC := lam(caseE(app(bi(lf.BuiltinEqual), v("n"), i64(0)),
		alt(&lf.PBuiltinCon{Con: lf.ConTrue}, i64(0)),
		alt(&lf.PBuiltinCon{Con: lf.ConFalse}, app(val("loopC"),
			app(app(val("id"), lam(app(bi(lf.BuiltinSubInt64), add(v("n"), v("k")), v("n")), "k")), app(bi(lf.BuiltinSubInt64), v("n"), i64(1)))))), "n")
	e := newTestEngine(map[string]lf.Expr{"loopC": loopC, "id": id}, Options{})
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("loopC"))
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(n int64) float64 {
		return allocsPerRun(t, 5, func() {
			if got, err := e.Apply(ctx, f, Int64(n)); err != nil || got != Int64(0) {
				t.Fatalf("loopC %d: %v, %v", n, got, err)
			}
		})
	}
	// Per iteration: the closure, the environments of the three calls,
	// the frames the machine cannot reuse and the Int64 results, 9 in all;
	// the closure was 3 (its PAP, its closure, its captured values).
	if perIteration := (allocs(2000) - allocs(1000)) / 1000; perIteration > 9.5 {
		t.Errorf("%.2f allocations per iteration, want 9", perIteration)
	}
}

// TestCaseFramesReused: the frame a case expression waits in for its
// scrutinee is reused once it matched, so a loop that cases on a call
// allocates no frame per iteration for it.
func TestCaseFramesReused(t *testing.T) {
	id := lam(v("z"), "z")
	// loopM n = case id (n == 0) of True -> 0; False -> loopM (n - 1)
	loopM := lam(caseE(app(val("id"), app(bi(lf.BuiltinEqual), v("n"), i64(0))),
		alt(&lf.PBuiltinCon{Con: lf.ConTrue}, i64(0)),
		alt(&lf.PBuiltinCon{Con: lf.ConFalse}, app(val("loopM"), app(bi(lf.BuiltinSubInt64), v("n"), i64(1))))), "n")
	e := newTestEngine(map[string]lf.Expr{"loopM": loopM, "id": id}, Options{})
	ctx := context.Background()
	f, err := e.EvalValue(ctx, tid("loopM"))
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(n int64) float64 {
		return allocsPerRun(t, 5, func() {
			if got, err := e.Apply(ctx, f, Int64(n)); err != nil || got != Int64(0) {
				t.Fatalf("loopM %d: %v, %v", n, got, err)
			}
		})
	}
	// Per iteration: the environments of the two calls and the Int64;
	// the case's frame was a fourth.
	if perIteration := (allocs(2000) - allocs(1000)) / 1000; perIteration > 3.5 {
		t.Errorf("%.2f allocations per iteration, want 3", perIteration)
	}
}
