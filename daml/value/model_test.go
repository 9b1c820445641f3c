package value

import (
	"math/big"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestCompareOrder: each group lists values of one type in strictly
// ascending LF order; Compare must agree on every pair, and Equal on the
// diagonal only.
func TestCompareOrder(t *testing.T) {
	id := &lf.TypeConID{PackageID: "p", Module: "M", Name: "T"}
	other := &lf.TypeConID{PackageID: "q", Module: "N", Name: "U"}
	some := func(v Value) Value { return Optional{Value: v} }
	rec := func(vs ...Value) Value {
		r := Record{RecordID: id}
		for _, v := range vs {
			r.Fields = append(r.Fields, RecordField{Label: "f", Value: v})
		}
		return r
	}
	v1a := ContractID("00" + hex64 + "00")
	v1b := ContractID("00" + hex64 + "ff")
	v1c := ContractID("00" + "1" + hex64[1:] + "00")
	v2 := ContractID("01" + "00112233445566778899aabb" + "80")
	groups := map[string][]Value{
		"unit":      {Unit{}},
		"bool":      {Bool(false), Bool(true)},
		"int64":     {Int64(-1 << 63), Int64(-1), Int64(0), Int64(7), Int64(1<<63 - 1)},
		"date":      {Date(-719162), Date(0), Date(2932896)},
		"timestamp": {Timestamp(-62135596800000000), Timestamp(-1), Timestamp(0), Timestamp(1)},
		"numeric": {Numeric("-10.00"), Numeric("-9.99"), Numeric("-0.01"), Numeric("0.00"), Numeric("0.01"),
			Numeric("0.10"), Numeric("0.99"), Numeric("1.00"), Numeric("9.00"), Numeric("10.00"), Numeric("100.00")},
		// Code-point order, not UTF-16 order: U+FFFF < U+1F600.
		"text":            {Text(""), Text("A"), Text("B"), Text("a"), Text("ab"), Text("é"), Text("\uffff"), Text("😀")},
		"party":           {Party("Alice::1"), Party("alice::1"), Party("bob")},
		"contract id":     {v1a, v1b, v1c, v2},
		"optional":        {Optional{}, some(Int64(-5)), some(Int64(3))},
		"nested optional": {Optional{Nested: true}, some(Optional{Nested: true}), some(some(Int64(1)))},
		"list":            {List{}, List{Int64(1)}, List{Int64(1), Int64(0)}, List{Int64(2)}},
		"text map": {TextMap{}, TextMap{{Key: "a", Value: Int64(9)}},
			TextMap{{Key: "a", Value: Int64(9)}, {Key: "b", Value: Int64(0)}},
			TextMap{{Key: "b", Value: Int64(0)}}, TextMap{{Key: "b", Value: Int64(1)}}},
		"gen map": {GenMap{}, GenMap{{Key: Int64(1), Value: Text("z")}},
			GenMap{{Key: Int64(1), Value: Text("z")}, {Key: Int64(2), Value: Text("a")}},
			GenMap{{Key: Int64(2), Value: Text("a")}}, GenMap{{Key: Int64(2), Value: Text("b")}}},
		// Field by field; a missing trailing field is None.
		"record": {rec(Int64(1), Optional{}), rec(Int64(1), some(Int64(0))), rec(Int64(2)), rec(Int64(2), some(Text("")))},
		// By declaration rank first, whatever the names.
		"variant": {Variant{VariantID: id, Constructor: "Zed", Rank: 0, Value: Int64(9)},
			Variant{VariantID: id, Constructor: "Abc", Rank: 1, Value: Int64(0)},
			Variant{VariantID: id, Constructor: "Abc", Rank: 1, Value: Int64(1)}},
		"enum": {Enum{EnumID: id, Constructor: "Red", Rank: 0}, Enum{EnumID: id, Constructor: "Green", Rank: 1},
			Enum{EnumID: id, Constructor: "Blue", Rank: 2}},
	}
	sign := func(n int) int {
		switch {
		case n < 0:
			return -1
		case n > 0:
			return 1
		}
		return 0
	}
	for name, vs := range groups {
		for i, a := range vs {
			for j, b := range vs {
				want := sign(i - j)
				if got := sign(Compare(a, b)); got != want {
					t.Errorf("%s: Compare(%#v, %#v) = %d, want %d", name, a, b, got, want)
				}
				if got := Equal(a, b); got != (i == j) {
					t.Errorf("%s: Equal(%#v, %#v) = %v", name, a, b, got)
				}
			}
		}
	}

	// What the order ignores.
	for _, tc := range []struct {
		name string
		a, b Value
	}{
		{"record type id and labels", Record{RecordID: id, Fields: []RecordField{{Label: "x", Value: Int64(1)}}},
			Record{RecordID: other, Fields: []RecordField{{Value: Int64(1)}}}},
		{"trailing None fields", rec(Int64(1)), rec(Int64(1), Optional{}, Optional{})},
		{"variant type id", Variant{VariantID: id, Constructor: "C", Value: Unit{}}, Variant{Constructor: "C", Value: Unit{}}},
		{"enum type id", Enum{EnumID: id, Constructor: "C"}, Enum{Constructor: "C"}},
		{"optional nesting flag", Optional{Value: Int64(1), Nested: true}, Optional{Value: Int64(1)}},
		{"negative zero", Numeric("-0.00"), Numeric("0.00")},
	} {
		if r := Compare(tc.a, tc.b); r != 0 {
			t.Errorf("%s: Compare = %d, want 0", tc.name, r)
		}
	}

	// Different scales: the value first, then the scale.
	for _, tc := range []struct {
		a, b Numeric
		want int
	}{
		{"1.5", "1.50", -1}, {"1.50", "1.5", 1}, {"1.6", "1.50", 1}, {"2.", "1.9999", 1}, {"-2.", "-1.9999", -1},
	} {
		if got := sign(Compare(tc.a, tc.b)); got != tc.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}

	// Values of different types order by kind, nil first.
	kinds := []Value{nil, Unit{}, Bool(false), Int64(0), Date(0), Timestamp(0), Numeric("0."), Party("p"), Text(""),
		ContractID(v1a), Optional{}, List{}, TextMap{}, GenMap{}, Record{}, Variant{}, Enum{}}
	for i := 1; i < len(kinds); i++ {
		if Compare(kinds[i-1], kinds[i]) >= 0 || Compare(kinds[i], kinds[i-1]) <= 0 {
			t.Errorf("kind order: %#v, %#v", kinds[i-1], kinds[i])
		}
	}
}

func TestNumericScaleAndUnscaled(t *testing.T) {
	for _, tc := range []struct {
		n        Numeric
		scale    int
		unscaled string
		ok       bool
	}{
		{"42.", 0, "42", true},
		{"1.5000000000", 10, "15000000000", true},
		{"-0.05", 2, "-5", true},
		{"-12.30", 2, "-1230", true},
		{"0.", 0, "0", true},
		{"0." + "0000000000000000000000000000000000001", 37, "1", true},
		{"x.1", 1, "", false},
	} {
		if got := tc.n.Scale(); got != tc.scale {
			t.Errorf("Scale(%s) = %d, want %d", tc.n, got, tc.scale)
		}
		u, s, ok := tc.n.Unscaled()
		if ok != tc.ok || (ok && (u.Cmp(mustBig(t, tc.unscaled)) != 0 || s != tc.scale)) {
			t.Errorf("Unscaled(%s) = %v, %d, %v", tc.n, u, s, ok)
		}
		if ok {
			if back := NumericOf(u, s); back != tc.n {
				t.Errorf("NumericOf(%v, %d) = %s, want %s", u, s, back, tc.n)
			}
		}
	}
}

func mustBig(t *testing.T, s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad big %q", s)
	}
	return b
}

// TestAppendJSONAsMismatch: where the value does not match the type, the
// part prints as AppendJSON prints it (CheckValue then reports it), and
// unlabelled record fields take the type's field names.
func TestAppendJSONAsMismatch(t *testing.T) {
	pkg := valuesPackage(t)
	lookup := PackageLookup(pkg)
	r := TypeOf(pkg.ID, "Main", "R")
	shared := NewJSONAppender(lookup)
	for _, tc := range []struct {
		name string
		v    Value
		typ  lf.Type
		want string
	}{
		{"text for int64", Text("x"), tInt64, `"x"`},
		{"list for optional", List{Int64(1)}, tOpt(tOpt(tInt64)), `["1"]`},
		{"plain optional for nested", Optional{Value: Int64(1)}, tOpt(tOpt(tInt64)), `["1"]`},
		{"nested flag ignored", Optional{Value: Int64(1), Nested: true}, tOpt(tInt64), `"1"`},
		{"unknown type", Int64(1), TypeOf("nope", "M", "T"), `"1"`},
		{"nil type", Int64(1), nil, `"1"`},
		{"record labels from the type", Record{Fields: []RecordField{{Value: Int64(1)}, {Value: Optional{}}, {Value: Text("c")}}}, r,
			`{"a":"1","b":null,"c":"c"}`},
		{"variant unknown constructor", Variant{Constructor: "Nope", Value: Unit{}}, TypeOf(pkg.ID, "Main", "Shape"), `{"tag":"Nope","value":{}}`},
	} {
		if got := string(AppendJSONAs(nil, tc.v, tc.typ, lookup)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		// One JSONAppender prints every case, twice (the data types it
		// resolved kept), as AppendJSONAs does.
		for round := range 2 {
			if got := string(shared.AppendAs(nil, tc.v, tc.typ)); got != tc.want {
				t.Errorf("%s: JSONAppender (round %d): got %s, want %s", tc.name, round, got, tc.want)
			}
		}
	}
}
