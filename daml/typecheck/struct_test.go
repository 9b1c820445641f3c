package typecheck

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// synDict is a type class's dictionary type: type SynDict (a:*) =
// <m: forall b. a -> b -> b, n: a> (its binder b captures a variable b
// substituted for a unless renamed).
var synDict = &lf.TypeSynonym{Name: "SynDict", Params: []lf.TypeParam{{Name: "a", Kind: star}},
	Type: &lf.TStruct{Fields: []lf.Field{
		{Name: "m", Type: tall("b", star, tfn(tv("a"), tv("b"), tv("b")))},
		{Name: "n", Type: tv("a")},
	}}}

type structSynCase struct {
	name string
	typ  lf.Type
	expr lf.Expr
	want string // the mismatch's types ("" when accepted)
}

// structSynCases check struct expressions against synonyms of struct
// types (structMismatch compares them without expanding the synonym).
func structSynCases() []structSynCase {
	dict := func(m, n lf.Expr) lf.Expr {
		return &lf.EStructCon{Fields: []lf.FieldExpr{{Name: "n", Expr: n}, {Name: "m", Expr: m}}}
	}
	// (\(d: SynDict b) -> d) <...>, under /\b. \(x: b).
	open := func(m lf.Expr) lf.Expr {
		return tlam("b", star, lam("x", tv("b"), eapp(lam("d", syn("SynDict", tv("b")), ev("d")), dict(m, ev("x")))))
	}
	openType := tall("b", star, tfn(tv("b"), syn("SynDict", tv("b"))))
	m2 := func(y, z lf.Type) lf.Expr { return tlam("c", star, lam("y", y, lam("z", z, ev("z")))) }
	return []structSynCase{
		{"closed", syn("SynDict", tyInt64), dict(m2(tyInt64, tv("c")), int1), ""},
		{"closed, field mismatch", syn("SynDict", tyInt64), dict(m2(tyInt64, tv("c")), text("x")),
			"Mod:SynDict Int64\n * found type: (m: ∀c. Int64 → c → c, n: Text)"},
		{"closed, method mismatch", syn("SynDict", tyInt64), dict(m2(tyText, tv("c")), int1),
			"Mod:SynDict Int64\n * found type: (m: ∀c. Text → c → c, n: Int64)"},
		{"open, binder renamed", openType, open(m2(tv("b"), tv("c"))), ""},
		{"open, captured variable", openType, open(m2(tv("c"), tv("c"))),
			"Mod:SynDict b\n * found type: (m: ∀c. c → c → c, n: b)"},
	}
}

// TestStructAgainstSynonym: a struct is checked against a synonym of a
// struct type as against its expansion, the synonym's binders renamed
// where they would capture a variable of its arguments; the message
// shows the struct's type (the messages are those of the checker that
// expanded the synonym).
func TestStructAgainstSynonym(t *testing.T) {
	t.Parallel()
	for _, tt := range structSynCases() {
		t.Run(tt.name, func(t *testing.T) {
			m := baseModule()
			m.Synonyms = append(m.Synonyms, synDict)
			m.Values = append(m.Values, lf.NewDefValue("test", tt.typ, tt.expr))
			e := checkErr(t, testPackage(m))
			switch {
			case tt.want == "" && e != nil:
				t.Fatalf("refused: %v", e)
			case tt.want != "" && e == nil:
				t.Fatal("accepted")
			case tt.want != "":
				want := "validation error in value cafe:Mod:test: type mismatch:\n * expected type: " + tt.want
				if e.Kind != ETypeMismatch || e.Error() != want {
					t.Fatalf("got %v %q, want ETypeMismatch %q", e.Kind, e.Error(), want)
				}
			}
		})
	}
}
