package value

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// valuePkg is a synthetic package with the data types the value tests
// check against, all in module Main.
func valuePkg() lftest.Package {
	self := lftest.Self()
	con := func(name string, args ...lftest.Type) lftest.Type {
		return lftest.App(lftest.Con(self, "Main", name), args...)
	}
	b := lftest.B
	text, i64, unit := b(lftest.Text), b(lftest.Int64), b(lftest.Unit)
	rec := func(name string, fields ...lftest.Field) lftest.DataType {
		return lftest.DataType{Name: name, Serializable: true, Fields: fields}
	}
	gen := func(name string, params []string, fields ...lftest.Field) lftest.DataType {
		d := rec(name, fields...)
		for _, p := range params {
			kind := "*"
			if p == "n" {
				kind = "nat"
			}
			d.Params = append(d.Params, lftest.Param{Name: p, Kind: kind})
		}
		return d
	}
	variant := func(name string, ctors ...lftest.Field) lftest.DataType {
		return lftest.DataType{Name: name, Kind: "variant", Serializable: true, Fields: ctors}
	}
	a := lftest.Var("a")
	return lftest.Package{Name: "values", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{
		Name: "Main",
		DataTypes: []lftest.DataType{
			rec("R",
				lftest.Field{Name: "a", Type: i64},
				lftest.Field{Name: "b", Type: lftest.Opt(text)},
				lftest.Field{Name: "c", Type: text},
				lftest.Field{Name: "d", Type: lftest.Opt(i64)},
				lftest.Field{Name: "e", Type: lftest.Opt(i64)}),
			gen("Pair", []string{"a", "b"},
				lftest.Field{Name: "fst", Type: a},
				lftest.Field{Name: "snd", Type: lftest.Var("b")}),
			gen("Box", []string{"a"}, lftest.Field{Name: "x", Type: lftest.Opt(a)}),
			gen("BoxNested", []string{"a"}, lftest.Field{Name: "y", Type: lftest.Opt(lftest.Opt(a))}),
			gen("Scaled", []string{"n"}, lftest.Field{Name: "v", Type: lftest.App(b(lftest.Numeric), lftest.Var("n"))}),
			// Wrap passes its parameter on to Box: variables bound to variables.
			gen("Wrap", []string{"a"}, lftest.Field{Name: "box", Type: con("Box", a)}),
			rec("NestedOpt",
				lftest.Field{Name: "oo", Type: lftest.Opt(lftest.Opt(i64))},
				lftest.Field{Name: "ooo", Type: lftest.Opt(lftest.Opt(lftest.Opt(text)))},
				lftest.Field{Name: "z", Type: lftest.Opt(i64)}),
			variant("Shape",
				lftest.Field{Name: "Circle", Type: lftest.Num(10)},
				lftest.Field{Name: "Rect", Type: con("Shape.Rect")},
				lftest.Field{Name: "Empty", Type: unit},
				lftest.Field{Name: "Maybe", Type: lftest.Opt(i64)}),
			rec("Shape.Rect", lftest.Field{Name: "w", Type: i64}, lftest.Field{Name: "h", Type: i64}),
			{Name: "Color", Kind: "enum", Serializable: true, Enum: []string{"Red", "Green", "Blue"}},
			variant("Tree",
				lftest.Field{Name: "Leaf", Type: unit},
				lftest.Field{Name: "Node", Type: con("Tree.Node")}),
			rec("Tree.Node",
				lftest.Field{Name: "l", Type: con("Tree")},
				lftest.Field{Name: "v", Type: i64},
				lftest.Field{Name: "r", Type: con("Tree")}),
			rec("Empty"),
			// Ping is the payload of Canton's Ping template (for benchmarks).
			rec("Ping",
				lftest.Field{Name: "id", Type: text},
				lftest.Field{Name: "initiator", Type: b(lftest.Party)},
				lftest.Field{Name: "responder", Type: b(lftest.Party)}),
			// Fz is the record the fuzz target checks against.
			rec("Fz",
				lftest.Field{Name: "i", Type: i64},
				lftest.Field{Name: "n", Type: lftest.Num(10)},
				lftest.Field{Name: "t", Type: lftest.Opt(text)},
				lftest.Field{Name: "p", Type: lftest.Opt(b(lftest.Party))},
				lftest.Field{Name: "d", Type: lftest.Opt(b(lftest.Date))},
				lftest.Field{Name: "ts", Type: lftest.Opt(b(lftest.Timestamp))},
				lftest.Field{Name: "oo", Type: lftest.Opt(lftest.Opt(i64))},
				lftest.Field{Name: "l", Type: lftest.Opt(lftest.ListOf(con("Shape")))},
				lftest.Field{Name: "tm", Type: lftest.Opt(lftest.App(b(lftest.TextMap), con("Color")))},
				lftest.Field{Name: "gm", Type: lftest.Opt(lftest.App(b(lftest.GenMap), con("Shape"), b(lftest.Timestamp)))},
				lftest.Field{Name: "bx", Type: lftest.Opt(con("Box", lftest.Opt(i64)))},
				lftest.Field{Name: "sc", Type: lftest.Opt(con("Scaled", lftest.Nat(0)))},
				lftest.Field{Name: "u", Type: lftest.Opt(unit)},
				lftest.Field{Name: "bo", Type: lftest.Opt(b(lftest.Bool))},
				lftest.Field{Name: "c", Type: lftest.Opt(lftest.CID(con("R")))},
				lftest.Field{Name: "tr", Type: lftest.Opt(con("Tree"))},
				lftest.Field{Name: "gk", Type: lftest.Opt(lftest.App(b(lftest.GenMap), con("Pair", lftest.Opt(i64), lftest.Num(2)), unit))}),
		},
		Templates: []lftest.Template{{Name: "R", Choices: []lftest.Choice{{Name: "Go", Consuming: true, Arg: unit, Ret: unit}}}},
	}}}
}

var (
	valuePkgOnce sync.Once
	valuePkgDec  *lf.Package
)

// valuesPackage returns valuePkg encoded and decoded (once).
func valuesPackage(t testing.TB) *lf.Package {
	valuePkgOnce.Do(func() {
		_, dalf := lftest.Dalf(valuePkg())
		p, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
		if err != nil {
			t.Fatalf("decode the value test package: %v", err)
		}
		valuePkgDec = p
	})
	if valuePkgDec == nil {
		t.Fatal("the value test package did not decode")
	}
	return valuePkgDec
}

// synPkg is a hand-built package with type synonyms (lfenc cannot encode
// them): Opt a = Optional a, I = Int64, Loop = Loop.
func synPkg() *lf.Package {
	id := "5e5e"
	m := &lf.Module{Name: "M", Synonyms: []*lf.TypeSynonym{
		{Name: "Opt", Params: []lf.TypeParam{{Name: "x", Kind: star}}, Type: tapp(tb(lf.BuiltinOptional), tvar("x"))},
		{Name: "I", Type: tb(lf.BuiltinInt64)},
		{Name: "Loop", Type: &lf.TSyn{ID: lf.TypeConID{PackageID: id, Module: "M", Name: "Loop"}}},
	}}
	p := &lf.Package{ID: id, Modules: []*lf.Module{m}}
	p.Index()
	return p
}

func syn(name string, args ...lf.Type) lf.Type {
	return &lf.TSyn{ID: lf.TypeConID{PackageID: "5e5e", Module: "M", Name: name}, Args: args}
}

// Builtin types.
var (
	tUnit      = tb(lf.BuiltinUnit)
	tBool      = tb(lf.BuiltinBool)
	tInt64     = tb(lf.BuiltinInt64)
	tText      = tb(lf.BuiltinText)
	tParty     = tb(lf.BuiltinParty)
	tDate      = tb(lf.BuiltinDate)
	tTimestamp = tb(lf.BuiltinTimestamp)
)

func tNum(n int) lf.Type           { return tapp(tb(lf.BuiltinNumeric), tnat(n)) }
func tOpt(t lf.Type) lf.Type       { return tapp(tb(lf.BuiltinOptional), t) }
func tList(t lf.Type) lf.Type      { return tapp(tb(lf.BuiltinList), t) }
func tTextMap(t lf.Type) lf.Type   { return tapp(tb(lf.BuiltinTextMap), t) }
func tGenMap(k, v lf.Type) lf.Type { return tapp(tb(lf.BuiltinGenMap), k, v) }
func tCid(t lf.Type) lf.Type       { return tapp(tb(lf.BuiltinContractID), t) }

// vcase is one CheckValue case: the input checked at path "arg" against
// typ gives want, or fails with code, a cause containing msg and ending
// with " at '<path>'".
type vcase struct {
	name string
	typ  lf.Type
	in   string
	want string
	code string
	msg  string
	path string
}

const (
	invalidArg = "INVALID_ARGUMENT"
	preproc    = "COMMAND_PREPROCESSING_FAILED"
	internal   = "LEDGER_API_INTERNAL_ERROR"
)

func runValueCases(t *testing.T, lookup func(string) *lf.Package, cases []vcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkOnePass(t, []byte(tc.in), tc.typ, "arg", lookup)
			got, err := CheckValue(json.RawMessage(tc.in), tc.typ, "arg", lookup)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("CheckValue(%s) failed: %v", tc.in, err)
				}
				if string(got) != tc.want {
					t.Fatalf("CheckValue(%s)\n got %s\nwant %s", tc.in, got, tc.want)
				}
				again, err := CheckValue(got, tc.typ, "arg", lookup)
				if err != nil || string(again) != string(got) {
					t.Fatalf("canonical output %s is not a fixed point: %s, %v", got, again, err)
				}
				v, err := FromJSONAt([]byte(tc.in), tc.typ, "arg", lookup)
				if err != nil {
					t.Fatalf("FromJSON(%s) failed: %v", tc.in, err)
				}
				if js := AppendJSON(nil, v); string(js) != tc.want {
					t.Fatalf("AppendJSON(FromJSON(%s))\n got %s\nwant %s", tc.in, js, tc.want)
				}
				checkTypedValue(t, v, tc.typ, lookup)
				return
			}
			if _, ferr := FromJSONAt([]byte(tc.in), tc.typ, "arg", lookup); cause(ferr) != cause(err) || code(ferr) != code(err) {
				t.Errorf("FromJSON error %v, CheckValue error %v", ferr, err)
			}
			if err == nil {
				t.Fatalf("CheckValue(%s) = %s, want %s", tc.in, got, tc.code)
			}
			var ve *Error
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if got := code(err); got != tc.code {
				t.Errorf("code %s, want %s (%v)", got, tc.code, err)
			}
			if !strings.Contains(ve.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", ve.Message, tc.msg)
			}
			if tc.path != "" && (ve.Path != tc.path || !strings.HasSuffix(ve.Error(), " at '"+tc.path+"'")) {
				t.Errorf("error %q (path %q) does not end with the path 'at %s'", ve.Error(), ve.Path, tc.path)
			}
		})
	}
}

// checkTypedValue checks the properties of a value FromJSON returned:
// JSON and protobuf round trips, and map entries in strictly ascending
// order by Compare (the order the checker sorted GenMap keys by).
func checkTypedValue(t *testing.T, v Value, typ lf.Type, lookup func(string) *lf.Package) {
	t.Helper()
	back, err := FromJSON(AppendJSON(nil, v), typ, lookup)
	if err != nil {
		t.Fatalf("FromJSON(AppendJSON(v)) failed: %v", err)
	}
	if d := cmp.Diff(v, back); d != "" {
		t.Fatalf("JSON round trip (-want +got):\n%s", d)
	}
	b, err := EncodeProto(v)
	if err != nil {
		t.Fatalf("EncodeProto: %v", err)
	}
	dec, err := DecodeProto(b)
	if err != nil {
		t.Fatalf("DecodeProto: %v", err)
	}
	if d := cmp.Diff(v, dec, protoLosses); d != "" {
		t.Fatalf("protobuf round trip (-want +got):\n%s", d)
	}
	want := AppendJSON(nil, v)
	if got := AppendJSONAs(nil, strip(dec), typ, lookup); string(got) != string(want) {
		t.Fatalf("AppendJSONAs of the stripped value\n got %s\nwant %s", got, want)
	}
	walkValues(v, func(x Value) {
		switch m := x.(type) {
		case GenMap:
			for i := 1; i < len(m); i++ {
				if Compare(m[i-1].Key, m[i].Key) >= 0 {
					t.Fatalf("GenMap keys not strictly ascending: %#v, %#v", m[i-1].Key, m[i].Key)
				}
			}
		case TextMap:
			for i := 1; i < len(m); i++ {
				if m[i-1].Key >= m[i].Key {
					t.Fatalf("TextMap keys not strictly ascending: %q, %q", m[i-1].Key, m[i].Key)
				}
			}
		}
	})
}

// strip removes what the engine's normalized values lack: record labels
// and type ids, Optional nesting flags and constructor ranks.
func strip(v Value) Value {
	switch x := v.(type) {
	case Optional:
		if x.Value != nil {
			return Optional{Value: strip(x.Value)}
		}
		return Optional{}
	case List:
		out := List{}
		for _, e := range x {
			out = append(out, strip(e))
		}
		return out
	case TextMap:
		out := TextMap{}
		for _, e := range x {
			out = append(out, TextMapEntry{Key: e.Key, Value: strip(e.Value)})
		}
		return out
	case GenMap:
		out := GenMap{}
		for _, e := range x {
			out = append(out, GenMapEntry{Key: strip(e.Key), Value: strip(e.Value)})
		}
		return out
	case Record:
		out := Record{}
		for _, f := range x.Fields {
			out.Fields = append(out.Fields, RecordField{Value: strip(f.Value)})
		}
		return out
	case Variant:
		return Variant{Constructor: x.Constructor, Value: strip(x.Value)}
	case Enum:
		return Enum{Constructor: x.Constructor}
	}
	return v
}

// protoLosses ignores what value.proto does not carry.
var protoLosses = cmp.Options{
	cmpopts.EquateEmpty(),
	cmpopts.IgnoreFields(Variant{}, "Rank"),
	cmpopts.IgnoreFields(Enum{}, "Rank"),
	cmpopts.IgnoreFields(Optional{}, "Nested"),
}

// walkValues calls f on v and every value inside it.
func walkValues(v Value, f func(Value)) {
	f(v)
	switch x := v.(type) {
	case Optional:
		if x.Value != nil {
			walkValues(x.Value, f)
		}
	case List:
		for _, e := range x {
			walkValues(e, f)
		}
	case TextMap:
		for _, e := range x {
			walkValues(e.Value, f)
		}
	case GenMap:
		for _, e := range x {
			walkValues(e.Key, f)
			walkValues(e.Value, f)
		}
	case Record:
		for _, e := range x.Fields {
			walkValues(e.Value, f)
		}
	case Variant:
		walkValues(x.Value, f)
	}
}

func ok(name string, typ lf.Type, in, want string) vcase {
	return vcase{name: name, typ: typ, in: in, want: want}
}

func bad(name string, typ lf.Type, in, code, msg, path string) vcase {
	return vcase{name: name, typ: typ, in: in, code: code, msg: msg, path: path}
}

const (
	hex64  = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	cidV1  = "00" + hex64 + "ca12" + hex64
	cidV2  = "01" + "0011223344" + "55667788990011" + "80" + hex64
	wantIA = invalidArg
)

func TestCheckValueBuiltins(t *testing.T) {
	n10, n0, n37 := tNum(10), tNum(0), tNum(37)
	cases := []vcase{
		// Unit: anything, printed {}.
		ok("unit object", tUnit, `{}`, `{}`),
		ok("unit null", tUnit, `null`, `{}`),
		ok("unit array", tUnit, ` [1, {"x": 2}] `, `{}`),
		ok("unit string", tUnit, `"x"`, `{}`),

		// Bool.
		ok("bool true", tBool, `true`, `true`),
		ok("bool false", tBool, `false`, `false`),
		bad("bool string", tBool, `"true"`, wantIA, "expected a JSON boolean for Bool, got a string", "arg"),
		bad("bool null", tBool, `null`, wantIA, "got null", "arg"),

		// Int64: a string parsed like Long.parseLong.
		ok("int64", tInt64, `"42"`, `"42"`),
		ok("int64 negative", tInt64, `"-7"`, `"-7"`),
		ok("int64 plus", tInt64, `"+5"`, `"5"`),
		ok("int64 leading zeros", tInt64, `"007"`, `"7"`),
		ok("int64 minus zero", tInt64, `"-0"`, `"0"`),
		ok("int64 max", tInt64, `"9223372036854775807"`, `"9223372036854775807"`),
		ok("int64 min", tInt64, `"-9223372036854775808"`, `"-9223372036854775808"`),
		bad("int64 overflow", tInt64, `"9223372036854775808"`, wantIA, `could not read Int64 string "9223372036854775808"`, "arg"),
		bad("int64 decimal", tInt64, `"1.0"`, wantIA, "could not read Int64 string", "arg"),
		bad("int64 space", tInt64, `" 1"`, wantIA, "could not read Int64 string", "arg"),
		bad("int64 empty", tInt64, `""`, wantIA, "could not read Int64 string", "arg"),
		bad("int64 sign only", tInt64, `"+"`, wantIA, "could not read Int64 string", "arg"),
		bad("int64 non-ascii digits", tInt64, `"١٢"`, wantIA, "could not read Int64 string", "arg"),
		bad("int64 number", tInt64, `42`, wantIA, "expected a JSON string (e.g. \"42\") for Int64, got a number", "arg"),

		// Numeric 10.
		ok("numeric", n10, `"1.5"`, `"1.5000000000"`),
		ok("numeric plus", n10, `"+1.5"`, `"1.5000000000"`),
		ok("numeric trailing dot", n10, `"1."`, `"1.0000000000"`),
		ok("numeric negative", n10, `"-0.25"`, `"-0.2500000000"`),
		ok("numeric minus zero", n10, `"-0.000"`, `"0.0000000000"`),
		ok("numeric leading zeros", n10, `"0001.5"`, `"1.5000000000"`),
		ok("numeric extra zeros", n10, `"1.100000000000000"`, `"1.1000000000"`),
		ok("numeric 28 digits", n10, `"`+strings.Repeat("9", 28)+`"`, `"`+strings.Repeat("9", 28)+`.0000000000"`),
		ok("numeric json number", n10, `1.5`, `"1.5000000000"`),
		ok("numeric json integer", n10, `-3`, `"-3.0000000000"`),
		ok("numeric json 1e-3", n10, `1e-3`, `"0.0010000000"`),
		ok("numeric json below 1e7", n10, `9999999`, `"9999999.0000000000"`),
		bad("numeric json 1e7", n10, `10000000`, wantIA, `Could not read Numeric string "1.0E7"`, "arg"),
		bad("numeric json 1e-4", n10, `0.0001`, wantIA, `Could not read Numeric string "1.0E-4"`, "arg"),
		bad("numeric leading dot", n10, `".5"`, wantIA, `Could not read Numeric string ".5"`, "arg"),
		bad("numeric exponent", n10, `"1e5"`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric space", n10, `" 1"`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric empty", n10, `""`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric dot", n10, `"."`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric 39 digits", n10, `"1`+strings.Repeat("0", 38)+`"`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric 38 decimals", n10, `"0.`+strings.Repeat("0", 38)+`"`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric precision over 38", n10, `"1`+strings.Repeat("0", 28)+"."+strings.Repeat("0", 10)+`1"`, wantIA, "Could not read Numeric string", "arg"),
		bad("numeric precision loss", n10, `"1.00000000001"`, preproc, `Cannot represent "1.00000000001" as (Numeric 10) without loss of precision`, "arg"),
		bad("numeric out of bounds", n10, `"1`+strings.Repeat("0", 28)+`"`, preproc, "Out-of-bounds (Numeric 10)", "arg"),
		bad("numeric bool", n10, `true`, wantIA, "for Numeric 10, got a boolean", "arg"),
		bad("numeric null", n10, `null`, wantIA, "got null", "arg"),

		// Numeric 0: a trailing dot.
		ok("numeric0", n0, `"42"`, `"42."`),
		ok("numeric0 dot", n0, `"1."`, `"1."`),
		ok("numeric0 zeros", n0, `"-5.000"`, `"-5."`),
		ok("numeric0 38 digits", n0, `"`+strings.Repeat("9", 38)+`"`, `"`+strings.Repeat("9", 38)+`."`),
		bad("numeric0 fraction", n0, `"1.5"`, preproc, "without loss of precision", "arg"),

		// Numeric 37.
		ok("numeric37", n37, `"0.1"`, `"0.1`+strings.Repeat("0", 36)+`"`),
		ok("numeric37 one", n37, `"-1.5"`, `"-1.5`+strings.Repeat("0", 36)+`"`),
		ok("numeric37 37 decimals", n37, `"9.`+strings.Repeat("9", 37)+`"`, `"9.`+strings.Repeat("9", 37)+`"`),
		bad("numeric37 bound", n37, `"10"`, preproc, "Out-of-bounds (Numeric 37)", "arg"),
		bad("numeric37 38 decimals", n37, `"0.`+strings.Repeat("1", 38)+`"`, wantIA, "Could not read Numeric string", "arg"),

		// Text.
		ok("text", tText, `"héllo"`, `"héllo"`),
		ok("text escapes", tText, `"a\"b\\c\/d\n\t\u0001\u00e9\ud83d\ude00<>&"`, `"a\"b\\c/d\n\t\u0001é😀<>&"`),
		ok("text empty", tText, `""`, `""`),
		bad("text number", tText, `1`, wantIA, "expected a JSON string for Text, got a number", "arg"),
		bad("text null", tText, `null`, wantIA, "expected a JSON string for Text, got null", "arg"),

		// Party.
		ok("party", tParty, `"alice::1220abcd"`, `"alice::1220abcd"`),
		ok("party chars", tParty, `"Alice Bob_-:1"`, `"Alice Bob_-:1"`),
		ok("party 255", tParty, `"`+strings.Repeat("p", 255)+`"`, `"`+strings.Repeat("p", 255)+`"`),
		bad("party bad char", tParty, `"p@rty"`, wantIA, `non expected character 0x40 in Daml-LF Party "p@rty"`, "arg"),
		bad("party empty", tParty, `""`, wantIA, "Daml-LF Party is empty", "arg"),
		bad("party too long", tParty, `"`+strings.Repeat("p", 256)+`"`, wantIA, "is too long (max: 255)", "arg"),
		bad("party non-ascii", tParty, `"é"`, wantIA, "non expected character", "arg"),
		bad("party number", tParty, `1`, wantIA, "for Party, got a number", "arg"),

		// ContractId.
		ok("cid v1", tCid(tUnit), `"`+cidV1+`"`, `"`+cidV1+`"`),
		ok("cid v2", tCid(tUnit), `"`+cidV2+`"`, `"`+cidV2+`"`),
		ok("cid v1 94-byte suffix", tCid(tUnit), `"00`+hex64+strings.Repeat("ab", 94)+`"`, `"00`+hex64+strings.Repeat("ab", 94)+`"`),
		bad("cid v1 suffix too long", tCid(tUnit), `"00`+hex64+strings.Repeat("ab", 95)+`"`, wantIA, "the suffix is too long", "arg"),
		bad("cid v1 local", tCid(tUnit), `"00`+hex64+`"`, preproc, "non-suffixed V1 contract ids are forbidden", "arg"),
		bad("cid v2 local", tCid(tUnit), `"01`+strings.Repeat("00", 12)+`"`, preproc, "local contract ids are forbidden", "arg"),
		bad("cid v2 relative", tCid(tUnit), `"01`+strings.Repeat("00", 12)+"00"+hex64+`"`, preproc, "relative contract ids are forbidden", "arg"),
		bad("cid v2 suffix too long", tCid(tUnit), `"01`+strings.Repeat("00", 12)+strings.Repeat("80", 34)+`"`, wantIA, "the suffix is too long", "arg"),
		bad("cid uppercase", tCid(tUnit), `"`+strings.ToUpper(cidV1)+`"`, wantIA, "cannot parse ContractId", "arg"),
		bad("cid odd", tCid(tUnit), `"`+cidV1+`0"`, wantIA, "cannot parse ContractId", "arg"),
		bad("cid version", tCid(tUnit), `"02`+hex64+`"`, wantIA, "cannot parse ContractId", "arg"),
		bad("cid short", tCid(tUnit), `"0011"`, wantIA, "cannot parse ContractId", "arg"),
		bad("cid empty", tCid(tUnit), `""`, wantIA, "cannot parse ContractId", "arg"),
		bad("cid number", tCid(tUnit), `0`, wantIA, "for ContractId, got a number", "arg"),

		// Date.
		ok("date", tDate, `"2023-04-06"`, `"2023-04-06"`),
		ok("date min", tDate, `"0001-01-01"`, `"0001-01-01"`),
		ok("date max", tDate, `"9999-12-31"`, `"9999-12-31"`),
		ok("date leap", tDate, `"2024-02-29"`, `"2024-02-29"`),
		bad("date year 0", tDate, `"0000-12-31"`, wantIA, "out of bound Date", "arg"),
		bad("date year 10000", tDate, `"+10000-01-01"`, wantIA, "out of bound Date", "arg"),
		bad("date negative year", tDate, `"-0001-01-01"`, wantIA, "out of bound Date", "arg"),
		bad("date not leap", tDate, `"2023-02-29"`, wantIA, "malformed Date", "arg"),
		bad("date 1900 not leap", tDate, `"1900-02-29"`, wantIA, "malformed Date", "arg"),
		bad("date short", tDate, `"2023-4-6"`, wantIA, "malformed Date", "arg"),
		bad("date month 13", tDate, `"2023-13-01"`, wantIA, "malformed Date", "arg"),
		bad("date with time", tDate, `"2023-04-06T00:00Z"`, wantIA, "malformed Date", "arg"),
		bad("date 5-digit year without sign", tDate, `"20230-01-01"`, wantIA, "malformed Date", "arg"),
		bad("date number", tDate, `20230406`, wantIA, "for Date, got a number", "arg"),

		// Timestamp.
		ok("timestamp", tTimestamp, `"2023-04-06T04:30:23.123456Z"`, `"2023-04-06T04:30:23.123456Z"`),
		ok("timestamp epoch", tTimestamp, `"1970-01-01T00:00:00Z"`, `"1970-01-01T00:00:00Z"`),
		ok("timestamp 10us", tTimestamp, `"1970-01-01T00:00:00.00001Z"`, `"1970-01-01T00:00:00.00001Z"`),
		ok("timestamp offset", tTimestamp, `"2023-04-06T06:30:23+02:00"`, `"2023-04-06T04:30:23Z"`),
		ok("timestamp negative offset", tTimestamp, `"2023-04-05T23:00:00-01:30"`, `"2023-04-06T00:30:00Z"`),
		ok("timestamp offset seconds", tTimestamp, `"2023-04-06T00:00:10+00:00:10"`, `"2023-04-06T00:00:00Z"`),
		ok("timestamp no seconds", tTimestamp, `"2023-04-06T04:30Z"`, `"2023-04-06T04:30:00Z"`),
		ok("timestamp 9 digits", tTimestamp, `"2023-04-06T04:30:23.123456789Z"`, `"2023-04-06T04:30:23.123456Z"`),
		ok("timestamp trailing zeros", tTimestamp, `"2023-04-06T04:30:23.100Z"`, `"2023-04-06T04:30:23.1Z"`),
		ok("timestamp sub-microsecond", tTimestamp, `"2023-04-06T04:30:23.0000009Z"`, `"2023-04-06T04:30:23Z"`),
		ok("timestamp before epoch", tTimestamp, `"1969-12-31T23:59:59.5Z"`, `"1969-12-31T23:59:59.5Z"`),
		ok("timestamp zone", tTimestamp, `"2023-04-06T04:30:23+05:30[Asia/Kolkata]"`, `"2023-04-05T23:00:23Z"`),
		ok("timestamp Z zone", tTimestamp, `"2023-04-06T04:30:23Z[UTC]"`, `"2023-04-06T04:30:23Z"`),
		ok("timestamp lowercase t", tTimestamp, `"2023-04-06t04:30:23Z"`, `"2023-04-06T04:30:23Z"`),
		ok("timestamp min", tTimestamp, `"0001-01-01T00:00:00Z"`, `"0001-01-01T00:00:00Z"`),
		ok("timestamp max", tTimestamp, `"9999-12-31T23:59:59.9999999Z"`, `"9999-12-31T23:59:59.999999Z"`),
		ok("timestamp year 0 with offset", tTimestamp, `"0000-12-31T23:30:00-01:00"`, `"0001-01-01T00:30:00Z"`),
		ok("timestamp year 10000 with offset", tTimestamp, `"+10000-01-01T00:30:00+01:00"`, `"9999-12-31T23:30:00Z"`),
		bad("timestamp below range", tTimestamp, `"0000-12-31T23:59:59.999999Z"`, wantIA, "out of bound Timestamp", "arg"),
		bad("timestamp below range by offset", tTimestamp, `"0001-01-01T00:30:00+01:00"`, wantIA, "out of bound Timestamp", "arg"),
		bad("timestamp above range", tTimestamp, `"9999-12-31T23:59:59-00:01"`, wantIA, "out of bound Timestamp", "arg"),
		bad("timestamp local", tTimestamp, `"2023-04-06T04:30:23"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp space", tTimestamp, `"2023-04-06 04:30:23Z"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp hour 24", tTimestamp, `"2023-04-06T24:00:00Z"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp second 60", tTimestamp, `"2023-04-06T23:59:60Z"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp offset 19h", tTimestamp, `"2023-04-06T04:30:23+19:00"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp offset 18:30", tTimestamp, `"2023-04-06T04:30:23+18:30"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp 10 digits", tTimestamp, `"2023-04-06T04:30:23.1234567891Z"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp bad zone", tTimestamp, `"2023-04-06T04:30:23Z[1x]"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp date only", tTimestamp, `"2023-04-06"`, wantIA, "malformed Timestamp", "arg"),
		bad("timestamp number", tTimestamp, `0`, wantIA, "for Timestamp, got a number", "arg"),

		// Optional, simple and nested as written.
		ok("optional none", tOpt(tInt64), `null`, `null`),
		ok("optional some", tOpt(tInt64), `"5"`, `"5"`),
		bad("optional some bad", tOpt(tInt64), `5`, wantIA, "for Int64, got a number", "arg"),
		ok("nested none", tOpt(tOpt(tInt64)), `[]`, `[]`),
		ok("nested some none", tOpt(tOpt(tInt64)), `[[]]`, `[[]]`),
		ok("nested some some", tOpt(tOpt(tInt64)), `[["5"]]`, `[["5"]]`),
		ok("nested extra elements ignored", tOpt(tOpt(tInt64)), `[["5", "x"], 7]`, `[["5"]]`),
		bad("nested null", tOpt(tOpt(tInt64)), `null`, wantIA, "expected a JSON array ([] for None, [x] for Some x) for a nested Optional, got null", "arg"),
		bad("nested inner plain", tOpt(tOpt(tInt64)), `["5"]`, wantIA, "for a nested Optional, got a string", "arg[0]"),
		bad("nested inner value", tOpt(tOpt(tInt64)), `[[5]]`, wantIA, "for Int64, got a number", "arg[0][0]"),
		ok("triple", tOpt(tOpt(tOpt(tText))), `[[["x"]]]`, `[[["x"]]]`),
		ok("triple some some none", tOpt(tOpt(tOpt(tText))), `[[[]]]`, `[[[]]]`),
		ok("triple some none", tOpt(tOpt(tOpt(tText))), `[[]]`, `[[]]`),
		ok("list of optionals", tList(tOpt(tInt64)), `[null, "1"]`, `[null,"1"]`),
		ok("optional list", tOpt(tList(tInt64)), `["1"]`, `["1"]`),

		// List.
		ok("list", tList(tInt64), `["1", "2"]`, `["1","2"]`),
		ok("list empty", tList(tInt64), `[]`, `[]`),
		bad("list object", tList(tInt64), `{}`, wantIA, "expected a JSON array for List, got an object", "arg"),
		bad("list element", tList(tInt64), `["1", 2]`, wantIA, "for Int64, got a number", "arg[1]"),
		bad("list of lists", tList(tList(tText)), `[[], ["a", 1]]`, wantIA, "for Text", "arg[1][1]"),

		// TextMap.
		ok("textmap sorted", tTextMap(tInt64), `{"b": "2", "a": "1", "": "0"}`, `{"":"0","a":"1","b":"2"}`),
		ok("textmap empty", tTextMap(tInt64), `{}`, `{}`),
		ok("textmap code point order", tTextMap(tInt64), `{"😀": "1", "\uffff": "2", "z": "3"}`, `{"z":"3","`+"\uffff"+`":"2","😀":"1"}`),
		bad("textmap duplicate", tTextMap(tInt64), `{"a": "1", "a": "2"}`, wantIA, `duplicate TextMap key "a"`, "arg"),
		bad("textmap value", tTextMap(tInt64), `{"k": 1}`, wantIA, "for Int64", "arg.k"),
		bad("textmap odd key", tTextMap(tInt64), `{"x y": 1}`, wantIA, "for Int64", `arg["x y"]`),
		bad("textmap array", tTextMap(tInt64), `[]`, wantIA, "expected a JSON object for TextMap, got an array", "arg"),

		// GenMap.
		ok("genmap sorted, last wins", tGenMap(tText, tInt64), `[["b", "2"], ["a", "1"], ["b", "3"]]`, `[["a","1"],["b","3"]]`),
		ok("genmap empty", tGenMap(tText, tInt64), `[]`, `[]`),
		ok("genmap extra elements ignored", tGenMap(tText, tInt64), `[["a", "1", "extra"]]`, `[["a","1"]]`),
		ok("genmap int keys", tGenMap(tInt64, tText), `[["10", "a"], ["9", "b"], ["-1", "c"], ["+9", "d"]]`, `[["-1","c"],["9","d"],["10","a"]]`),
		ok("genmap numeric keys", tGenMap(tNum(2), tText), `[["10", "a"], ["9.99", "b"], ["-2", "c"], ["9.990", "d"], ["-10", "e"]]`,
			`[["-10.00","e"],["-2.00","c"],["9.99","d"],["10.00","a"]]`),
		ok("genmap timestamp keys", tGenMap(tTimestamp, tInt64),
			`[["2023-01-01T00:00:00.5Z", "1"], ["2023-01-01T00:00:00Z", "2"], ["2023-01-01T01:00:00+01:00", "3"]]`,
			`[["2023-01-01T00:00:00Z","3"],["2023-01-01T00:00:00.5Z","1"]]`),
		ok("genmap optional keys", tGenMap(tOpt(tInt64), tText), `[["1", "a"], [null, "b"]]`, `[[null,"b"],["1","a"]]`),
		ok("genmap nested optional keys", tGenMap(tOpt(tOpt(tInt64)), tText), `[[[["1"]], "a"], [[], "b"], [[[]], "c"]]`, `[[[],"b"],[[[]],"c"],[[["1"]],"a"]]`),
		ok("genmap list keys", tGenMap(tList(tInt64), tText), `[[["1","2"], "a"], [["1"], "b"], [[], "c"], [["0","5"], "d"]]`,
			`[[[],"c"],[["0","5"],"d"],[["1"],"b"],[["1","2"],"a"]]`),
		ok("genmap textmap keys", tGenMap(tTextMap(tInt64), tText), `[[{"b":"1"}, "x"], [{"a":"2"}, "y"], [{"a":"1","c":"0"}, "z"]]`,
			`[[{"a":"1","c":"0"},"z"],[{"a":"2"},"y"],[{"b":"1"},"x"]]`),
		ok("genmap text keys code point order", tGenMap(tText, tInt64), `[["😀", "1"], ["\uffff", "2"]]`, `[["`+"\uffff"+`","2"],["😀","1"]]`),
		ok("genmap bool keys", tGenMap(tBool, tInt64), `[[true, "1"], [false, "2"]]`, `[[false,"2"],[true,"1"]]`),
		ok("genmap date keys", tGenMap(tDate, tInt64), `[["2023-01-02", "1"], ["0999-01-01", "2"]]`, `[["0999-01-01","2"],["2023-01-02","1"]]`),
		ok("genmap unit keys", tGenMap(tUnit, tInt64), `[[{}, "1"], [null, "2"]]`, `[[{},"2"]]`),
		bad("genmap object", tGenMap(tText, tInt64), `{}`, wantIA, "expected a JSON array of [key, value] arrays for GenMap, got an object", "arg"),
		bad("genmap short entry", tGenMap(tText, tInt64), `[["a", "1"], ["b"]]`, wantIA, "fewer than 2 elements", "arg[1]"),
		bad("genmap entry kind", tGenMap(tText, tInt64), `[5]`, wantIA, "expected a [key, value] array for a GenMap entry, got a number", "arg[0]"),
		bad("genmap bad key", tGenMap(tInt64, tText), `[["x", "a"]]`, wantIA, "could not read Int64", "arg[0][0]"),
		bad("genmap bad value", tGenMap(tText, tInt64), `[["a", 1]]`, wantIA, "for Int64", "arg[0][1]"),
	}
	runValueCases(t, nil, cases)
}

func TestCheckValueRecordsVariantsEnums(t *testing.T) {
	pkg := valuesPackage(t)
	id := pkg.ID
	lookup := PackageLookup(pkg)
	r := TypeOf(id, "Main", "R")
	shape := TypeOf(id, "Main", "Shape")
	color := TypeOf(id, "Main", "Color")
	pair := func(a, b lf.Type) lf.Type { return TypeOf(id, "Main", "Pair", a, b) }
	cases := []vcase{
		// Records: declaration order, trailing Nones omitted, upgrades.
		ok("record", r, `{"c": "x", "a": "1"}`, `{"a":"1","b":null,"c":"x"}`),
		ok("record full", r, `{"e": "5", "d": "4", "c": "x", "b": "y", "a": "1"}`, `{"a":"1","b":"y","c":"x","d":"4","e":"5"}`),
		ok("record inner none", r, `{"a": "1", "c": "x", "e": "5"}`, `{"a":"1","b":null,"c":"x","d":null,"e":"5"}`),
		ok("record explicit nulls", r, `{"a": "1", "b": null, "c": "x", "d": null, "e": null}`, `{"a":"1","b":null,"c":"x"}`),
		ok("record unknown null ignored", r, `{"a": "1", "c": "x", "more": null}`, `{"a":"1","b":null,"c":"x"}`),
		bad("record unknown non-null", r, `{"a": "1", "c": "x", "more": "don't ignore meee!!"}`, wantIA,
			"Unexpected fields: more", "arg"),
		bad("record unknown fields listed", r, `{"a": "1", "c": "x", "z": 1, "y": [], "w": null}`, wantIA, "Unexpected fields: z, y", "arg"),
		bad("record many unknown fields", r, `{"a": "1", "c": "x", "f1": 1, "f2": 1, "f3": 1, "f4": 1, "f5": 1, "f6": 1, "f7": 1, "f8": 1, "f9": 1, "f10": 1, "f11": 1, "a b": 1}`, wantIA,
			`Unexpected fields: f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, … (2 more)`, "arg"),
		bad("record missing", r, `{"a": "1"}`, preproc, "Missing non-optional fields: c", "arg"),
		bad("record missing before unexpected", r, `{"more": 1}`, preproc, "Missing non-optional fields: a, c", "arg"),
		bad("record null for non-optional", r, `{"a": "1", "c": null}`, wantIA, "expected a JSON string for Text, got null", "arg.c"),
		bad("record field kind", r, `{"a": 1, "c": "x"}`, wantIA, "for Int64, got a number", "arg.a"),
		bad("record optional field kind", r, `{"a": "1", "c": "x", "d": 4}`, wantIA, "for Int64, got a number", "arg.d"),
		bad("record positional", r, `["1", null, "x"]`, wantIA, "expected a JSON object for record Main:R, got an array", "arg"),
		bad("record null", r, `null`, wantIA, "for record Main:R, got null", "arg"),
		bad("record duplicate field", r, `{"a": "1", "a": "2", "c": "x"}`, wantIA, "duplicate field a", "arg"),
		bad("record duplicate unknown field", r, `{"a": "1", "c": "x", "m": null, "m": null}`, wantIA, "duplicate field m", "arg"),
		ok("empty record", TypeOf(id, "Main", "Empty"), `{}`, `{}`),
		ok("empty record unknown null", TypeOf(id, "Main", "Empty"), `{"x": null}`, `{}`),

		// Generic records: parameters bound from the TCon arguments.
		ok("pair", pair(tInt64, tText), `{"snd": "x", "fst": "1"}`, `{"fst":"1","snd":"x"}`),
		ok("pair optional via variable missing", pair(tOpt(tInt64), tText), `{"snd": "x"}`, `{"fst":null,"snd":"x"}`),
		ok("pair trailing optional via variable", pair(tInt64, tOpt(tText)), `{"fst": "1", "snd": null}`, `{"fst":"1"}`),
		bad("pair missing", pair(tInt64, tText), `{"fst": "1"}`, preproc, "Missing non-optional fields: snd", "arg"),
		ok("pair nested optional argument", pair(tOpt(tOpt(tInt64)), tText), `{"fst": [["1"]], "snd": "x"}`, `{"fst":[["1"]],"snd":"x"}`),
		bad("pair nested optional argument missing", pair(tOpt(tOpt(tInt64)), tText), `{"snd": "x"}`, wantIA,
			"for a nested Optional, got nothing (the field is missing)", "arg.fst"),
		ok("pair of pairs", pair(pair(tInt64, tBool), tList(tText)), `{"fst": {"fst": "1", "snd": true}, "snd": ["a"]}`, `{"fst":{"fst":"1","snd":true},"snd":["a"]}`),
		bad("pair of pairs path", pair(pair(tInt64, tBool), tList(tText)), `{"fst": {"fst": "1", "snd": 0}, "snd": ["a"]}`, wantIA, "for Bool", "arg.fst.snd"),
		ok("scaled", TypeOf(id, "Main", "Scaled", tnat(3)), `{"v": "1.5"}`, `{"v":"1.500"}`),
		bad("scaled precision", TypeOf(id, "Main", "Scaled", tnat(0)), `{"v": "1.5"}`, preproc, "(Numeric 0)", "arg.v"),

		// Optional through a type variable: null rule at both levels.
		ok("box some", TypeOf(id, "Main", "Box", tOpt(tInt64)), `{"x": "5"}`, `{"x":"5"}`),
		ok("box null", TypeOf(id, "Main", "Box", tOpt(tInt64)), `{"x": null}`, `{}`),
		ok("box missing", TypeOf(id, "Main", "Box", tOpt(tInt64)), `{}`, `{}`),
		bad("box array", TypeOf(id, "Main", "Box", tOpt(tInt64)), `{"x": []}`, wantIA, "for Int64, got an array", "arg.x"),
		ok("wrap box", TypeOf(id, "Main", "Wrap", tOpt(tInt64)), `{"box": {"x": "5"}}`, `{"box":{"x":"5"}}`),
		ok("wrap box none", TypeOf(id, "Main", "Wrap", tOpt(tInt64)), `{"box": {}}`, `{"box":{}}`),
		// Optional (Optional a) written literally, a = Optional Int64.
		ok("box nested none", TypeOf(id, "Main", "BoxNested", tOpt(tInt64)), `{"y": []}`, `{"y":[]}`),
		ok("box nested some none", TypeOf(id, "Main", "BoxNested", tOpt(tInt64)), `{"y": [[]]}`, `{"y":[[]]}`),
		ok("box nested some some none", TypeOf(id, "Main", "BoxNested", tOpt(tInt64)), `{"y": [[null]]}`, `{"y":[[null]]}`),
		ok("box nested some some some", TypeOf(id, "Main", "BoxNested", tOpt(tInt64)), `{"y": [["5"]]}`, `{"y":[["5"]]}`),
		ok("box nested of int", TypeOf(id, "Main", "BoxNested", tInt64), `{"y": [["5"]]}`, `{"y":[["5"]]}`),
		bad("box nested missing", TypeOf(id, "Main", "BoxNested", tInt64), `{}`, wantIA, "for a nested Optional, got nothing (the field is missing)", "arg.y"),
		bad("box nested null", TypeOf(id, "Main", "BoxNested", tInt64), `{"y": null}`, wantIA, "for a nested Optional, got null", "arg.y"),
		ok("nested fields", TypeOf(id, "Main", "NestedOpt"), `{"oo": [], "ooo": [[["t"]]]}`, `{"oo":[],"ooo":[[["t"]]]}`),
		ok("nested fields some", TypeOf(id, "Main", "NestedOpt"), `{"oo": [[]], "ooo": [], "z": "1"}`, `{"oo":[[]],"ooo":[],"z":"1"}`),

		// Variants.
		ok("variant", shape, `{"tag": "Circle", "value": "2"}`, `{"tag":"Circle","value":"2.0000000000"}`),
		ok("variant record constructor", shape, `{"value": {"h": "2", "w": "1"}, "tag": "Rect"}`, `{"tag":"Rect","value":{"w":"1","h":"2"}}`),
		ok("variant unit constructor, extra keys", shape, `{"tag": "Empty", "value": 42, "extra": 1}`, `{"tag":"Empty","value":{}}`),
		ok("variant optional constructor", shape, `{"tag": "Maybe", "value": null}`, `{"tag":"Maybe","value":null}`),
		bad("variant missing value", shape, `{"tag": "Empty"}`, wantIA, "Variant type json must have 'tag' and 'value' fields", "arg"),
		bad("variant missing tag", shape, `{"value": {}}`, wantIA, "Variant type json must have 'tag' and 'value' fields", "arg"),
		bad("variant not object", shape, `"Circle"`, wantIA, "Variant type json must have 'tag' and 'value' fields", "arg"),
		bad("variant unknown tag", shape, `{"tag": "Nope", "value": 1}`, wantIA, "Unexpected variant tag: Nope", "arg.tag"),
		bad("variant tag kind", shape, `{"tag": 1, "value": 1}`, wantIA, "expected a JSON string for a variant tag, got a number", "arg.tag"),
		bad("variant duplicate tag", shape, `{"tag": "Empty", "tag": "Circle", "value": 1}`, wantIA, `duplicate variant key "tag"`, "arg"),
		bad("variant value", shape, `{"tag": "Circle", "value": "1.00000000001"}`, preproc, "without loss of precision", "arg.tag(Circle)"),
		bad("variant record missing", shape, `{"tag": "Rect", "value": {"w": "1"}}`, preproc, "Missing non-optional fields: h", "arg.tag(Rect)"),
		bad("variant record field", shape, `{"tag": "Rect", "value": {"w": "1", "h": 2}}`, wantIA, "for Int64", "arg.tag(Rect).h"),

		// Enums.
		ok("enum", color, `"Green"`, `"Green"`),
		bad("enum unknown", color, `"Purple"`, wantIA, `Unexpected enum constructor "Purple" of Main:Color: expected one of Red, Green, Blue`, "arg"),
		bad("enum kind", color, `0`, wantIA, "expected a JSON string naming a constructor for enum Main:Color, got a number", "arg"),
		ok("list of enums", tList(color), `["Red", "Blue"]`, `["Red","Blue"]`),
		bad("list of enums path", tList(color), `["Red", "blue"]`, wantIA, "Unexpected enum constructor", "arg[1]"),

		// GenMap keys ordered by Daml-LF value order.
		ok("genmap enum keys", tGenMap(color, tText), `[["Blue", "b"], ["Red", "r"], ["Green", "g"]]`, `[["Red","r"],["Green","g"],["Blue","b"]]`),
		ok("genmap variant keys", tGenMap(shape, tInt64),
			`[[{"tag":"Empty","value":{}}, "1"], [{"tag":"Rect","value":{"w":"1","h":"2"}}, "2"], [{"tag":"Circle","value":"2"}, "3"], [{"tag":"Circle","value":"-1"}, "4"], [{"tag":"Rect","value":{"w":"1","h":"1"}}, "5"]]`,
			`[[{"tag":"Circle","value":"-1.0000000000"},"4"],[{"tag":"Circle","value":"2.0000000000"},"3"],[{"tag":"Rect","value":{"w":"1","h":"1"}},"5"],[{"tag":"Rect","value":{"w":"1","h":"2"}},"2"],[{"tag":"Empty","value":{}},"1"]]`),
		ok("genmap record keys", tGenMap(pair(tOpt(tInt64), tText), tInt64),
			`[[{"fst": "2", "snd": "a"}, "1"], [{"snd": "z"}, "2"], [{"fst": "1", "snd": "b"}, "3"], [{"fst": null, "snd": "a"}, "4"]]`,
			`[[{"fst":null,"snd":"a"},"4"],[{"fst":null,"snd":"z"},"2"],[{"fst":"1","snd":"b"},"3"],[{"fst":"2","snd":"a"},"1"]]`),
		ok("genmap record keys with omitted trailing none", tGenMap(r, tInt64),
			`[[{"a": "1", "c": "x", "e": "1"}, "1"], [{"a": "1", "c": "x"}, "2"]]`,
			`[[{"a":"1","b":null,"c":"x"},"2"],[{"a":"1","b":null,"c":"x","d":null,"e":"1"},"1"]]`),

		// Recursion.
		ok("tree", TypeOf(id, "Main", "Tree"),
			`{"tag":"Node","value":{"l":{"tag":"Leaf","value":{}},"v":"1","r":{"tag":"Node","value":{"l":{"tag":"Leaf","value":null},"v":"2","r":{"tag":"Leaf","value":[]}}}}}`,
			`{"tag":"Node","value":{"l":{"tag":"Leaf","value":{}},"v":"1","r":{"tag":"Node","value":{"l":{"tag":"Leaf","value":{}},"v":"2","r":{"tag":"Leaf","value":{}}}}}}`),
		bad("tree path", TypeOf(id, "Main", "Tree"),
			`{"tag":"Node","value":{"l":{"tag":"Leaf","value":{}},"v":"1","r":{"tag":"Node","value":{"l":{"tag":"Leaf","value":{}},"v":2,"r":{"tag":"Leaf","value":{}}}}}}`,
			wantIA, "for Int64", "arg.tag(Node).r.tag(Node).v"),

		// Choice argument type from the decoded package.
		ok("template choice argument", pkg.Choice("Main", "R", "Go").ArgType, `{"anything": 1}`, `{}`),
	}
	runValueCases(t, lookup, cases)
}

func TestCheckValueFuzzRecord(t *testing.T) {
	pkg := valuesPackage(t)
	fz := TypeOf(pkg.ID, "Main", "Fz")
	lookup := PackageLookup(pkg)
	in := `{
		"i": "-12", "n": 3.25, "t": "x", "p": "alice::1220", "d": "2020-02-29",
		"ts": "2020-02-29T12:00:00.000001+01:00", "oo": [[]],
		"l": [{"tag": "Circle", "value": "1"}, {"tag": "Rect", "value": {"w": "1", "h": "2"}}],
		"tm": {"z": "Red", "a": "Blue"},
		"gm": [[{"tag": "Empty", "value": {}}, "1970-01-01T00:00:00Z"], [{"tag": "Maybe", "value": "1"}, "1970-01-01T00:00:01Z"]],
		"bx": {"x": null}, "sc": {"v": "7"}, "u": [], "bo": false, "c": "` + cidV1 + `",
		"tr": {"tag": "Leaf", "value": {}},
		"gk": [[{"fst": "1", "snd": "1.5"}, {}], [{"snd": "0"}, null]],
		"unknown": null
	}`
	want := `{"i":"-12","n":"3.2500000000","t":"x","p":"alice::1220","d":"2020-02-29",` +
		`"ts":"2020-02-29T11:00:00.000001Z","oo":[[]],` +
		`"l":[{"tag":"Circle","value":"1.0000000000"},{"tag":"Rect","value":{"w":"1","h":"2"}}],` +
		`"tm":{"a":"Blue","z":"Red"},` +
		`"gm":[[{"tag":"Empty","value":{}},"1970-01-01T00:00:00Z"],[{"tag":"Maybe","value":"1"},"1970-01-01T00:00:01Z"]],` +
		`"bx":{},"sc":{"v":"7."},"u":{},"bo":false,"c":"` + cidV1 + `",` +
		`"tr":{"tag":"Leaf","value":{}},` +
		`"gk":[[{"fst":null,"snd":"0.00"},{}],[{"fst":"1","snd":"1.50"},{}]]}`
	runValueCases(t, lookup, []vcase{
		ok("everything", fz, in, want),
		ok("minimal", fz, `{"i": "1", "n": "1", "oo": []}`, `{"i":"1","n":"1.0000000000","t":null,"p":null,"d":null,"ts":null,"oo":[]}`),
		bad("nested optional field missing", fz, `{"i": "1", "n": "1"}`, wantIA, "for a nested Optional, got nothing (the field is missing)", "arg.oo"),
		ok("trailing nones dropped, inner kept", fz, `{"i": "1", "n": "1", "t": null, "oo": [], "bo": null}`, `{"i":"1","n":"1.0000000000","t":null,"p":null,"d":null,"ts":null,"oo":[]}`),
	})
}

func TestCheckValueSynonyms(t *testing.T) {
	lookup := PackageLookup(synPkg())
	runValueCases(t, lookup, []vcase{
		ok("synonym", syn("I"), `"1"`, `"1"`),
		ok("synonym optional", syn("Opt", tInt64), `null`, `null`),
		ok("synonym of synonym", syn("Opt", syn("I")), `"3"`, `"3"`),
		// Optional written through a synonym counts as written: nested.
		ok("optional of synonym optional", tOpt(syn("Opt", tInt64)), `[["1"]]`, `[["1"]]`),
		// The synonym's parameter is a variable: Opt (Optional Int64) uses
		// the null rule at both levels.
		ok("synonym optional of optional", syn("Opt", tOpt(tInt64)), `"5"`, `"5"`),
		ok("synonym optional of optional none", syn("Opt", tOpt(tInt64)), `null`, `null`),
		bad("cyclic synonym", syn("Loop"), `1`, internal, "does not resolve", "arg"),
		bad("unknown synonym", syn("Nope"), `1`, internal, "type synonym M:Nope is not defined", "arg"),
	})
}

func TestCheckValueTypeErrors(t *testing.T) {
	pkg := valuesPackage(t)
	lookup := PackageLookup(pkg)
	runValueCases(t, lookup, []vcase{
		bad("unknown package", TypeOf("feed", "Main", "R"), `{}`, internal, "package feed of data type Main:R is not known", "arg"),
		bad("unknown data type", TypeOf(pkg.ID, "Main", "Nope"), `{}`, internal, "data type Main:Nope is not defined", "arg"),
		bad("wrong arity", TypeOf(pkg.ID, "Main", "Pair", tInt64), `{}`, internal, "has 2 parameters but is applied to 1", "arg"),
		bad("unbound variable", tvar("a"), `1`, internal, "type variable a is not bound", "arg"),
		bad("function", tapp(tb(lf.BuiltinArrow), tInt64, tInt64), `1`, internal, "not serializable", "arg"),
		bad("any", tb(lf.BuiltinAny), `1`, internal, "not serializable", "arg"),
		bad("bare optional", tb(lf.BuiltinOptional), `null`, internal, "applied to 0 arguments instead of 1", "arg"),
		bad("numeric scale 38", tNum(38), `"1"`, internal, "scale 0..37", "arg"),
		bad("struct", &lf.TStruct{}, `{}`, internal, "no JSON encoding", "arg"),
		bad("error inside list", tList(TypeOf("feed", "M", "T")), `[{}]`, internal, "is not known", "arg[0]"),
	})
	if _, err := CheckValue(json.RawMessage(`1`), nil, "arg", lookup); code(err) != internal {
		t.Errorf("nil type: %v", err)
	}
}

func TestCheckValueMalformedJSON(t *testing.T) {
	deep := strings.Repeat("[", maxValueDepth+1) + strings.Repeat("]", maxValueDepth+1)
	okDeep := strings.Repeat("[", maxValueDepth) + strings.Repeat("]", maxValueDepth)
	runValueCases(t, nil, []vcase{
		bad("empty", tUnit, ``, wantIA, "malformed JSON: unexpected end of input (byte 0)", "arg"),
		bad("syntax", tUnit, `{"a":}`, wantIA, "malformed JSON", "arg"),
		bad("trailing data", tUnit, `1 2`, wantIA, "unexpected data after the value", "arg"),
		bad("trailing comma", tList(tInt64), `["1",]`, wantIA, "malformed JSON", "arg"),
		bad("single quotes", tText, `'x'`, wantIA, "malformed JSON", "arg"),
		bad("invalid utf-8", tText, "\"\xff\"", wantIA, "invalid UTF-8", "arg"),
		bad("lone high surrogate", tText, `"\ud800"`, wantIA, "unpaired surrogate", "arg"),
		bad("lone low surrogate", tText, `"\udc00x"`, wantIA, "unpaired surrogate", "arg"),
		bad("control character", tText, "\"a\tb\"", wantIA, "control character", "arg"),
		bad("bad escape", tText, `"\x"`, wantIA, "invalid escape", "arg"),
		bad("bad unicode escape", tText, `"\u00g0"`, wantIA, `invalid \u escape`, "arg"),
		ok("uppercase unicode escape", tText, `"\u00E9\uD83D\uDE00"`, `"é😀"`),
		bad("bad literal", tBool, `tru`, wantIA, "invalid literal", "arg"),
		bad("unterminated string", tText, `"abc`, wantIA, "unterminated string", "arg"),
		bad("unterminated object", tUnit, `{"a": 1`, wantIA, "unexpected end of input in an object", "arg"),
		bad("unterminated array", tUnit, `[1`, wantIA, "unexpected end of input in an array", "arg"),
		bad("object key", tUnit, `{1: 2}`, wantIA, "expected a string object key", "arg"),
		bad("object colon", tUnit, `{"a" 2}`, wantIA, "expected ':'", "arg"),
		bad("leading zero", tUnit, `01`, wantIA, "malformed JSON", "arg"),
		bad("bare dot number", tUnit, `1.`, wantIA, "malformed JSON", "arg"),
		bad("nan", tUnit, `NaN`, wantIA, "malformed JSON", "arg"),
		bad("too deep", tUnit, deep, wantIA, "nested more than 1000 levels deep", "arg"),
		ok("deep enough", tUnit, okDeep, `{}`),
	})
	big := make([]byte, maxValueBytes+1)
	if _, err := CheckValue(big, tUnit, "arg", nil); code(err) != invalidArg || !strings.Contains(cause(err), "more than the limit") {
		t.Errorf("oversized value: %v", err)
	}
}

func TestCheckValuePathPrefix(t *testing.T) {
	pkg := valuesPackage(t)
	r := TypeOf(pkg.ID, "Main", "R")
	_, err := CheckValue(json.RawMessage(`{"a": "x", "c": "y"}`), r, "", PackageLookup(pkg))
	if !strings.HasSuffix(cause(err), " at '$.a'") {
		t.Errorf("empty prefix: %v", err)
	}
	_, err = CheckValue(json.RawMessage(`[{"k": {"a": "1", "c": 3}}]`), tList(tTextMap(r)), "createArguments.items", PackageLookup(pkg))
	if !strings.HasSuffix(cause(err), " at 'createArguments.items[0].k.c'") {
		t.Errorf("nested path: %v", err)
	}
	var ve *Error
	if !errors.As(err, &ve) || ve.Kind != KindInvalid || ve.Path != "createArguments.items[0].k.c" {
		t.Errorf("kind and path: %#v", err)
	}
	_, err = CheckValue(json.RawMessage(`{"a": "1"}`), r, "p", PackageLookup(pkg))
	if !errors.As(err, &ve) || ve.Kind != KindPreprocessing || ve.Error() != "Missing non-optional fields: c at 'p'" {
		t.Errorf("missing field: %#v", err)
	}
}

func TestCheckValueDeepRecursiveValue(t *testing.T) {
	pkg := valuesPackage(t)
	tree := TypeOf(pkg.ID, "Main", "Tree")
	leaf := `{"tag":"Leaf","value":{}}`
	// Each tree level is two JSON levels: 499 levels fit in 1000.
	v := leaf
	for range 499 {
		v = `{"tag":"Node","value":{"l":` + leaf + `,"v":"1","r":` + v + `}}`
	}
	out, err := CheckValue(json.RawMessage(v), tree, "arg", PackageLookup(pkg))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := CheckValue(out, tree, "arg", PackageLookup(pkg)); err != nil || string(again) != string(out) {
		t.Fatalf("not a fixed point: %v", err)
	}
	v = `{"tag":"Node","value":{"l":` + leaf + `,"v":"1","r":` + v + `}}`
	if _, err := CheckValue(json.RawMessage(v), tree, "arg", PackageLookup(pkg)); code(err) != invalidArg {
		t.Fatalf("1001 levels: %v", err)
	}
}

func TestCheckValueLargeGenMap(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("[")
	const n = 20000
	for i := range n {
		if i > 0 {
			sb.WriteString(",")
		}
		// Keys in descending order, each twice.
		k := n/2 - i/2
		sb.WriteString(`["` + strings.Repeat("k", 3) + itoa(k) + `","` + itoa(i) + `"]`)
	}
	sb.WriteString("]")
	out, err := CheckValue(json.RawMessage(sb.String()), tGenMap(tText, tInt64), "arg", nil)
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]string
	if err := json.Unmarshal(out, &pairs); err != nil {
		t.Fatal(err)
	}
	if len(pairs) != n/2 {
		t.Fatalf("%d entries, want %d", len(pairs), n/2)
	}
	for i := 1; i < len(pairs); i++ {
		if pairs[i-1][0] >= pairs[i][0] {
			t.Fatalf("not sorted at %d: %v %v", i, pairs[i-1], pairs[i])
		}
	}
	// The last of duplicated keys wins: key k appears at i = 2(n/2-k) and
	// 2(n/2-k)+1.
	if pairs[0][0] != "kkk1" || pairs[0][1] != itoa(n-1) {
		t.Errorf("first entry %v", pairs[0])
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestCheckValueWorkBudget(t *testing.T) {
	in := json.RawMessage(`[["b", "1"], ["a", "2"], ["c", "3"]]`)
	tp, serr := tokenize(in)
	if serr != nil {
		t.Fatal(serr.msg)
	}
	c := &checker{tp: tp, budget: 10}
	err := c.check(0, tGenMap(tText, tInt64), nil, &vpath{name: "arg"}, 0)
	if code(err) != invalidArg || !strings.Contains(cause(err), "too complex") {
		t.Errorf("over budget: %v", err)
	}
	c = &checker{tp: tp, budget: 1000}
	if err := c.check(0, tGenMap(tText, tInt64), nil, &vpath{name: "arg"}, 0); err != nil || string(c.out) != `[["a","2"],["b","1"],["c","3"]]` {
		t.Errorf("within budget: %s %v", c.out, err)
	}
}

func TestTypeOfAndPackageLookup(t *testing.T) {
	ty := TypeOf("p", "M", "T", tInt64, tText)
	if got, want := ty.String(), "p:M:T Int64 Text"; got != want {
		t.Errorf("TypeOf = %s, want %s", got, want)
	}
	a, b := &lf.Package{ID: "a"}, &lf.Package{ID: "b"}
	l := PackageLookup(a, nil, b)
	if l("a") != a || l("b") != b || l("c") != nil {
		t.Errorf("PackageLookup")
	}
}

func TestJavaDoubleString(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0.0", "-0": "-0.0", "1": "1.0", "1.5": "1.5", "100": "100.0", "0.001": "0.001",
		"9999999.5": "9999999.5", "10000000": "1.0E7", "1e7": "1.0E7", "0.0009": "9.0E-4",
		"12345678901234567890": "1.2345678901234567E19", "1e400": "Infinity", "-1e400": "-Infinity",
		"0.1": "0.1", "1e-400": "0.0", "123.456e1": "1234.56",
	} {
		if got := javaDoubleString(in); got != want {
			t.Errorf("javaDoubleString(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestCivilDays(t *testing.T) {
	for _, d := range []int64{-719162, -1, 0, 1, 59, 365, 2932896, -1000000000, 1000000000} {
		y, m, dd := CivilFromDays(d)
		if back := DaysFromCivil(y, m, dd); back != d {
			t.Errorf("day %d -> %d-%d-%d -> %d", d, y, m, dd, back)
		}
	}
	if DaysFromCivil(1970, 1, 1) != 0 || DaysFromCivil(2000, 3, 1) != 11017 {
		t.Error("DaysFromCivil")
	}
}

// benchRecords is a list of 1000 records of Main:R and its type.
func benchRecords(b *testing.B) (json.RawMessage, lf.Type, func(string) *lf.Package) {
	pkg := valuesPackage(b)
	typ := tList(TypeOf(pkg.ID, "Main", "R"))
	var sb strings.Builder
	sb.WriteString("[")
	for i := range 1000 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"a": "` + itoa(i) + `", "b": "text", "c": "more text", "e": "7"}`)
	}
	sb.WriteString("]")
	return json.RawMessage(sb.String()), typ, PackageLookup(pkg)
}

// BenchmarkFromJSON decodes a list of 1000 records of Main:R to a typed
// value.
func BenchmarkFromJSON(b *testing.B) {
	in, typ, lookup := benchRecords(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromJSON(in, typ, lookup); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendJSON prints a list of 1000 records of Main:R.
func BenchmarkAppendJSON(b *testing.B) {
	in, typ, lookup := benchRecords(b)
	v, err := FromJSON(in, typ, lookup)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = AppendJSON(buf[:0], v)
	}
}

// BenchmarkCheckValue checks a list of 1000 records of Main:R.
func BenchmarkCheckValue(b *testing.B) {
	pkg := valuesPackage(b)
	typ := tList(TypeOf(pkg.ID, "Main", "R"))
	var sb strings.Builder
	sb.WriteString("[")
	for i := range 1000 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"a": "` + itoa(i) + `", "b": "text", "c": "more text", "e": "7"}`)
	}
	sb.WriteString("]")
	in := json.RawMessage(sb.String())
	lookup := PackageLookup(pkg)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CheckValue(in, typ, "arg", lookup); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromJSONPing decodes the create argument of a Ping (a record
// of a Text and two Parties, as the ledger's Ping benchmark sends it),
// one pass against the two-pass route.
func BenchmarkFromJSONPing(b *testing.B) {
	pkg := valuesPackage(b)
	typ := TypeOf(pkg.ID, "Main", "Ping")
	lookup := PackageLookup(pkg)
	in := []byte(`{"id":"p12345","initiator":"alice::1220` + hex64 + `","responder":"bob::1220` + hex64 + `"}`)
	for _, route := range []struct {
		name string
		f    func([]byte, lf.Type, string, func(string) *lf.Package) (Value, error)
	}{{"one-pass", FromJSONAt}, {"two-pass", fromJSONTwoPass}} {
		b.Run(route.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := route.f(in, typ, "createArguments", lookup); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
