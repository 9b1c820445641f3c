package value

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// typeAsTypes are the types the differential tests type values against:
// every builtin, records with Optional fields, generic records (variables
// bound to variables, Numeric scales), nested Optionals written directly
// and through a synonym, variants, enums, recursion, maps.
func typeAsTypes(tb testing.TB) ([]lf.Type, func(string) *lf.Package) {
	pkg := valuesPackage(tb)
	con := func(name string, args ...lf.Type) lf.Type { return TypeOf(pkg.ID, "Main", name, args...) }
	return []lf.Type{
		con("R"), con("Ping"), con("Fz"), con("NestedOpt"), con("Shape"), con("Color"), con("Tree"), con("Empty"),
		con("Pair", tOpt(tInt64), tNum(2)),
		con("Pair", tTextMap(con("Color")), tList(con("Shape"))),
		con("Box", tOpt(tInt64)), con("Box", tText),
		con("BoxNested", tInt64),
		con("Scaled", tnat(0)), con("Scaled", tnat(37)),
		con("Wrap", tOpt(tText)),
		tUnit, tBool, tInt64, tText, tParty, tDate, tTimestamp, tNum(10), tNum(0), tCid(con("R")),
		tOpt(tInt64), tOpt(tOpt(tInt64)), tOpt(syn("Opt", tInt64)), syn("Opt", syn("I")),
		tList(tOpt(con("R"))), tTextMap(tOpt(tInt64)), tGenMap(con("Shape"), tTimestamp),
		tList(con("Pair", tOpt(tOpt(tParty)), tDate)),
		tGenMap(tText, tInt64), tGenMap(tInt64, tText), tGenMap(tCid(con("R")), tUnit), tGenMap(tParty, tOpt(tText)),
		tGenMap(con("Color"), tNum(2)), tGenMap(tNum(2), tUnit), tGenMap(tDate, tTimestamp), tGenMap(tTimestamp, tDate),
		tGenMap(tOpt(tInt64), tBool), tGenMap(con("Pair", tText, tOpt(tInt64)), tUnit), tGenMap(tList(tInt64), tUnit),
		tGenMap(tBool, tGenMap(con("Shape"), tText)), tGenMap(tTextMap(tInt64), tUnit), tGenMap(con("Tree"), tUnit),
	}, PackageLookup(pkg, synPkg())
}

// bytesSource reads choices from fuzz bytes (zero once they run out).
type bytesSource struct{ b []byte }

func (s *bytesSource) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	x := s.b[0]
	s.b = s.b[1:]
	return x
}

// n returns a choice in [0, k).
func (s *bytesSource) n(k int) int { return int(s.byte()) % k }

// valueGen builds values for a type from a source of choices: mostly of
// the type's shape, but now and then of another kind, with fields
// unlabelled, missing, duplicated or unknown, map keys out of order or
// repeated, Numerics of other scales, bad parties, dates and ids, and
// Optional flags that disagree with the type.
type valueGen struct {
	s *bytesSource
	c checker
}

// odd reports a deviation from the type's shape (about one in twelve).
func (g *valueGen) odd() bool { return g.s.n(12) == 0 }

var (
	genTexts     = []string{"", "a", "x\u00e9\n", "\"q\\", "Alice::1220", "bad party!", "\x00", "\xff", "Red", "Circle", "z"}
	genNumerics  = []string{"0", "1.5", "-12.25", "1.00000000001", "1e3", "abc", "99999999999999999999999999999", "0.0000000000", "-0"}
	genParties   = []string{"alice::1220", "Bob", "", "a b", "p::" + strings.Repeat("1", 300)}
	genCids      = []string{cidV1, cidV2, "", "00", "not-a-cid"}
	genLabels    = []string{"", "a", "b", "x", "i", "n", "fst", "snd", "unknown", "Circle"}
	genDates     = []Date{0, 18000, -719162, -719163, 2932896, 2932897, 1 << 30}
	genTimes     = []Timestamp{0, 1, -62135596800000000, -62135596800000001, 253402300799999999, 253402300800000000, 1700000000123456}
	genScalarGen = []func(g *valueGen) Value{
		func(g *valueGen) Value { return Unit{} },
		func(g *valueGen) Value { return Bool(g.s.n(2) == 0) },
		func(g *valueGen) Value { return Int64(int64(g.s.byte()) - 128) },
		func(g *valueGen) Value { return Text(genTexts[g.s.n(len(genTexts))]) },
		func(g *valueGen) Value { return Party(genParties[g.s.n(len(genParties))]) },
		func(g *valueGen) Value { return Numeric(genNumerics[g.s.n(len(genNumerics))]) },
		func(g *valueGen) Value { return genDates[g.s.n(len(genDates))] },
		func(g *valueGen) Value { return genTimes[g.s.n(len(genTimes))] },
		func(g *valueGen) Value { return ContractID(genCids[g.s.n(len(genCids))]) },
		func(g *valueGen) Value { return Optional{Nested: g.s.n(2) == 0} },
		func(g *valueGen) Value { return List{} },
		func(g *valueGen) Value { return nil },
		func(g *valueGen) Value { return Enum{Constructor: genTexts[g.s.n(len(genTexts))]} },
		func(g *valueGen) Value { return Record{} },
	}
)

// any returns a value of no particular type.
func (g *valueGen) any() Value {
	return genScalarGen[g.s.n(len(genScalarGen))](g)
}

func (g *valueGen) value(t lf.Type, env *tenv, depth int) Value {
	if g.odd() || depth > 6 {
		return g.any()
	}
	c := &g.c
	head, args, aenv, err := c.whnf(t, env, &c.root)
	if err != nil {
		return g.any()
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		switch h.Builtin {
		case lf.BuiltinUnit:
			return Unit{}
		case lf.BuiltinBool:
			return Bool(g.s.n(2) == 0)
		case lf.BuiltinInt64:
			return Int64(int64(g.s.byte())*1000003 - 1000)
		case lf.BuiltinText:
			return Text(genTexts[g.s.n(len(genTexts))])
		case lf.BuiltinParty:
			return Party(genParties[g.s.n(len(genParties))])
		case lf.BuiltinNumeric:
			return Numeric(genNumerics[g.s.n(len(genNumerics))])
		case lf.BuiltinDate:
			return genDates[g.s.n(len(genDates))]
		case lf.BuiltinTimestamp:
			return genTimes[g.s.n(len(genTimes))]
		case lf.BuiltinContractID:
			return ContractID(genCids[g.s.n(len(genCids))])
		case lf.BuiltinOptional:
			if args.n != 1 || g.s.n(3) == 0 {
				return Optional{Nested: g.s.n(4) == 0}
			}
			return Optional{Value: g.value(args.at(0), aenv, depth+1), Nested: g.s.n(4) == 0}
		case lf.BuiltinList:
			out := List{}
			for range g.s.n(4) {
				out = append(out, g.value(args.at(0), aenv, depth+1))
			}
			return out
		case lf.BuiltinTextMap:
			out := TextMap{}
			for range g.s.n(4) {
				out = append(out, TextMapEntry{Key: genTexts[g.s.n(len(genTexts))], Value: g.value(args.at(0), aenv, depth+1)})
			}
			return out
		case lf.BuiltinGenMap:
			out := GenMap{}
			for range g.s.n(4) {
				out = append(out, GenMapEntry{Key: g.value(args.at(0), aenv, depth+1), Value: g.value(args.at(1), aenv, depth+1)})
			}
			return out
		}
	case *lf.TCon:
		dt, id, err := c.dataTypeOf(h, &c.root)
		if err != nil || args.n != len(dt.Params) {
			return g.any()
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		switch dt.Variety {
		case lf.RecordVariety:
			r := Record{}
			if g.s.n(2) == 0 {
				r.RecordID = id
			}
			unlabelled := g.s.n(3) == 0
			for _, f := range dt.Fields {
				if g.odd() {
					continue // missing
				}
				label := f.Name
				if unlabelled {
					label = ""
				}
				r.Fields = append(r.Fields, RecordField{Label: label, Value: g.value(f.Type, denv, depth+1)})
				if g.odd() {
					r.Fields = append(r.Fields, RecordField{Label: genLabels[g.s.n(len(genLabels))], Value: g.any()})
				}
			}
			if g.s.n(4) == 0 && len(r.Fields) > 1 && !unlabelled {
				r.Fields[0], r.Fields[len(r.Fields)-1] = r.Fields[len(r.Fields)-1], r.Fields[0]
			}
			return r
		case lf.VariantVariety:
			fi := g.s.n(len(dt.Fields))
			ctor := dt.Fields[fi].Name
			if g.odd() {
				ctor = genLabels[g.s.n(len(genLabels))]
			}
			return Variant{Constructor: ctor, Rank: g.s.n(3), Value: g.value(dt.Fields[fi].Type, denv, depth+1)}
		case lf.EnumVariety:
			ctor := dt.Constructors[g.s.n(len(dt.Constructors))]
			if g.odd() {
				ctor = genTexts[g.s.n(len(genTexts))]
			}
			return Enum{Constructor: ctor, Rank: g.s.n(3)}
		}
	}
	return g.any()
}

// compareTypeAs checks TypeAs of v against the JSON round trip it stands
// for: the same Value or the same error. It reports whether v was typed
// directly.
func compareTypeAs(t testing.TB, v Value, typ lf.Type, lookup func(string) *lf.Package) bool {
	t.Helper()
	want, werr := FromJSONAt(AppendJSONAs(nil, v, typ, lookup), typ, "arg", lookup)
	direct, ok := typeAsDirect(v, typ, lookup)
	if ok {
		if werr != nil {
			t.Fatalf("typed %#v as %s directly to %#v, the round trip fails: %v", v, typ, direct, werr)
		}
		if d := cmp.Diff(want, direct); d != "" {
			t.Fatalf("typing %#v as %s directly (-round trip +direct):\n%s", v, typ, d)
		}
	}
	got, gerr := TypeAs(v, typ, "arg", lookup)
	if cause(gerr) != cause(werr) || code(gerr) != code(werr) {
		t.Fatalf("TypeAs(%#v, %s) error %v, the round trip's %v", v, typ, gerr, werr)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("TypeAs(%#v, %s) (-round trip +TypeAs):\n%s", v, typ, d)
	}
	return ok
}

// TestTypeAsMatchesJSON types many generated values against many types
// with TypeAs and with the JSON round trip and compares the results and
// errors; the direct path must type most well-formed values.
func TestTypeAsMatchesJSON(t *testing.T) {
	types, lookup := typeAsTypes(t)
	r := rand.New(rand.NewPCG(1, 2))
	direct, accepted := 0, 0
	const runs = 20000
	for i := range runs {
		typ := types[i%len(types)]
		buf := make([]byte, 64)
		for k := range buf {
			buf[k] = byte(r.Uint32())
		}
		g := &valueGen{s: &bytesSource{b: buf}, c: checker{lookup: lookup, root: vpath{name: "$"}}}
		v := g.value(typ, nil, 0)
		if compareTypeAs(t, v, typ, lookup) {
			direct++
		}
		if _, err := TypeAs(v, typ, "arg", lookup); err == nil {
			accepted++
		}
	}
	t.Logf("%d values: %d accepted, %d typed directly", runs, accepted, direct)
	if direct < accepted/2 {
		t.Errorf("only %d of %d accepted values were typed directly", direct, accepted)
	}
}

// TestTypeAsCases pins cases of the round trip's semantics on the direct
// path: each value is typed directly and as the round trip types it.
func TestTypeAsCases(t *testing.T) {
	pkg := valuesPackage(t)
	lookup := PackageLookup(pkg, synPkg())
	con := func(name string, args ...lf.Type) lf.Type { return TypeOf(pkg.ID, "Main", name, args...) }
	for _, tc := range []struct {
		name string
		v    Value
		typ  lf.Type
	}{
		{"unlabelled record", Record{Fields: []RecordField{{Value: Text("1")}, {Value: Party("alice::1220")}, {Value: Party("bob::1220")}}}, con("Ping")},
		{"fields out of order, missing Optionals", Record{Fields: []RecordField{{Label: "c", Value: Text("x")}, {Label: "a", Value: Int64(1)}}}, con("R")},
		{"unknown None field dropped", Record{Fields: []RecordField{{Label: "a", Value: Int64(1)}, {Label: "c", Value: Text("")}, {Label: "new", Value: Optional{}}}}, con("R")},
		{"numeric scale", Record{Fields: []RecordField{{Label: "v", Value: Numeric("1.5")}}}, con("Scaled", tnat(3))},
		{"nested optional", Optional{Value: Optional{Value: Int64(1)}}, tOpt(tOpt(tInt64))},
		{"nested optional through a synonym", Optional{Value: Optional{}}, tOpt(syn("Opt", tInt64))},
		{"text map sorted", TextMap{{Key: "b", Value: Int64(1)}, {Key: "a", Value: Int64(2)}}, tTextMap(tInt64)},
		{"variant rank", Variant{Constructor: "Maybe", Value: Optional{Value: Int64(3)}}, con("Shape")},
		{"enum rank", Enum{Constructor: "Blue"}, con("Color")},
		{"contract id, date, timestamp", List{Record{Fields: []RecordField{{Value: Optional{Value: Optional{Value: Party("p::1")}}}, {Value: Date(18000)}}}}, tList(con("Pair", tOpt(tOpt(tParty)), tDate))},
		{"empty list and text map", Record{Fields: []RecordField{{Value: List{}}, {Value: TextMap{}}}}, con("Pair", tList(tInt64), tTextMap(tUnit))},
		{"empty gen map", GenMap{}, tGenMap(tText, tUnit)},
		{"gen map in key order", GenMap{{Key: Variant{Constructor: "Circle", Value: Numeric("1")}, Value: Timestamp(0)}, {Key: Variant{Constructor: "Empty", Value: Unit{}}, Value: Timestamp(1)}}, tGenMap(con("Shape"), tTimestamp)},
		{"gen map of contract ids", GenMap{{Key: ContractID(cidV1), Value: Unit{}}, {Key: ContractID(cidV2), Value: Unit{}}}, tGenMap(tCid(con("R")), tUnit)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !compareTypeAs(t, tc.v, tc.typ, lookup) {
				t.Errorf("not typed directly")
			}
		})
	}
}

// FuzzTypeAsMatchesJSON: for values generated from the fuzz bytes against
// each of typeAsTypes, TypeAs gives the JSON round trip's value or error,
// and a value typed directly is the round trip's; so for the values the
// round trip gives, and those changed as the engine's differ.
func FuzzTypeAsMatchesJSON(f *testing.F) {
	types, lookup := typeAsTypes(f)
	for _, s := range []string{"", "\x01\x02\x03", "\xff\xfe\xfd\xfc\x00\x01", strings.Repeat("\x05", 40), strings.Repeat("\x0c\x00", 30)} {
		for k := range types {
			f.Add(uint8(k), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, k uint8, data []byte) {
		typ := types[int(k)%len(types)]
		g := &valueGen{s: &bytesSource{b: data}, c: checker{lookup: lookup, root: vpath{name: "$"}}}
		v := g.value(typ, nil, 0)
		compareTypeAs(t, v, typ, lookup)
		// The engine's form of the value: type ids and ranks, as typed
		// or changed (engineForm).
		if typed, err := FromJSONAt(AppendJSONAs(nil, v, typ, lookup), typ, "arg", lookup); err == nil {
			compareTypeAs(t, typed, typ, lookup)
			compareTypeAs(t, engineForm(typed, len(data)), typ, lookup)
		}
	})
}

// TestTimestampBounds: the bounds of the direct path are the round trip's.
func TestTimestampBounds(t *testing.T) {
	for _, tc := range []struct {
		ts Timestamp
		in bool
	}{{MinTimestamp, true}, {MinTimestamp - 1, false}, {MaxTimestamp, true}, {MaxTimestamp + 1, false}} {
		_, err := FromJSON(AppendJSON(nil, tc.ts), tTimestamp, nil)
		if (err == nil) != tc.in {
			t.Errorf("Timestamp %d: round trip error %v, want in range %v", int64(tc.ts), err, tc.in)
		}
	}
}

// TestJSONAppenderMatchesJSON prints and types many generated values of
// many types through one JSONAppender, as a transaction's values are (its
// caches of data types shared by all of them, the TCon cache cleared on
// the way), and compares each with AppendJSONAs and the JSON round trip
// of a fresh resolution.
func TestJSONAppenderMatchesJSON(t *testing.T) {
	types, lookup := typeAsTypes(t)
	r := rand.New(rand.NewPCG(3, 4))
	js := NewJSONAppender(lookup)
	pkg := valuesPackage(t)
	var buf []byte
	const runs = 20000
	for i := range runs {
		typ := types[i%len(types)]
		if i%7 == 0 {
			// A fresh TCon, as TypeOf makes for each created contract.
			typ = TypeOf(pkg.ID, "Main", "Fz")
		}
		data := make([]byte, 64)
		for k := range data {
			data[k] = byte(r.Uint32())
		}
		g := &valueGen{s: &bytesSource{b: data}, c: checker{lookup: lookup, root: vpath{name: "$"}}}
		v := g.value(typ, nil, 0)
		vs := []Value{v}
		if typed, err := FromJSONAt(AppendJSONAs(nil, v, typ, lookup), typ, "arg", lookup); err == nil {
			// Values with type ids and ranks, as the engine's: typed
			// ones (kept as they are), and typed ones changed as the
			// engine's may differ.
			vs = append(vs, typed, engineForm(typed, i))
		}
		for _, v := range vs {
			want := AppendJSONAs(nil, v, typ, lookup)
			buf = js.AppendAs(buf[:0], v, typ)
			if string(buf) != string(want) {
				t.Fatalf("AppendAs(%#v, %s) = %s, AppendJSONAs %s", v, typ, buf, want)
			}
			wantV, werr := FromJSONAt(want, typ, "arg", lookup)
			got, gerr := js.TypeAs(v, typ, "arg")
			if cause(gerr) != cause(werr) || code(gerr) != code(werr) {
				t.Fatalf("TypeAs(%#v, %s) error %v, the round trip's %v", v, typ, gerr, werr)
			}
			if d := cmp.Diff(wantV, got); d != "" {
				t.Fatalf("TypeAs(%#v, %s) (-round trip +TypeAs):\n%s", v, typ, d)
			}
		}
	}
	if len(js.c.tcons) > maxCachedTCons {
		t.Errorf("%d TCons cached, at most %d wanted", len(js.c.tcons), maxCachedTCons)
	}
}

// TestAppendJSONDate: a Date prints as fmt's "%04d-%02d-%02d" of its civil
// date, for every day of years 1 to 9999 and days outside them.
func TestAppendJSONDate(t *testing.T) {
	lo, hi := DaysFromCivil(-2, 1, 1), DaysFromCivil(10001, 12, 31)
	for d := lo; d <= hi; d++ {
		y, m, dd := CivilFromDays(d)
		want := fmt.Sprintf(`"%04d-%02d-%02d"`, y, m, dd)
		if got := string(AppendJSON(nil, Date(d))); got != want {
			t.Fatalf("AppendJSON(Date(%d)) = %s, want %s", d, got, want)
		}
	}
}

// engineForm changes a typed value as the engine's values can differ
// from it (k chooses how): records without their trailing None fields,
// Optionals not flagged Nested, variant and enum ranks off by one, type
// ids copied, non-canonical Numerics, maps out of order.
func engineForm(v Value, k int) Value {
	switch x := v.(type) {
	case Record:
		n := len(x.Fields)
		for k%2 == 0 && n > 0 && x.Fields[n-1].Value == (Optional{}) {
			n--
		}
		out := Record{RecordID: x.RecordID, Fields: make([]RecordField, n)}
		if k%3 == 0 && x.RecordID != nil {
			id := *x.RecordID
			out.RecordID = &id
		}
		for i := range n {
			out.Fields[i] = RecordField{Label: x.Fields[i].Label, Value: engineForm(x.Fields[i].Value, k/2+i)}
		}
		return out
	case Variant:
		if k%5 == 1 {
			x.Rank++
		}
		x.Value = engineForm(x.Value, k/3)
		return x
	case Enum:
		if k%5 == 2 {
			x.Rank++
		}
		return x
	case Optional:
		if k%7 == 3 {
			x.Nested = false
		}
		if x.Value != nil {
			x.Value = engineForm(x.Value, k/2)
		}
		return x
	case Numeric:
		if k%4 == 1 && strings.Contains(string(x), ".") {
			return x + "0"
		}
		return x
	case List:
		out := make(List, len(x))
		for i, e := range x {
			out[i] = engineForm(e, k/2+i)
		}
		return out
	case TextMap:
		out := make(TextMap, len(x))
		for i, e := range x {
			out[i] = TextMapEntry{Key: e.Key, Value: engineForm(e.Value, k/2+i)}
		}
		if k%3 == 1 {
			slices.Reverse(out)
		}
		return out
	case GenMap:
		out := make(GenMap, len(x))
		for i, e := range x {
			out[i] = GenMapEntry{Key: engineForm(e.Key, k/2+i), Value: engineForm(e.Value, k/3+i)}
		}
		if k%3 == 2 {
			slices.Reverse(out)
		}
		return out
	}
	return v
}
