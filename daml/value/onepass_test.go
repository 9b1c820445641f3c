package value

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestFromJSONOnePass pins FromJSONAt to the two-pass route (CheckValue,
// then building from the canonical encoding) on inputs aimed at what the
// one pass does differently: counting the canonical encoding instead of
// printing it (escaped strings, timestamp fractions, trailing Nones next
// to GenMaps printed while counting), and building GenMaps from the
// entries as checked rather than as printed. The inputs of the other
// value tests go through the same check in runValueCases.
func TestFromJSONOnePass(t *testing.T) {
	pkg := valuesPackage(t)
	id := pkg.ID
	lookup := PackageLookup(pkg)
	r := TypeOf(id, "Main", "R")
	fz := TypeOf(id, "Main", "Fz")
	shape := TypeOf(id, "Main", "Shape")
	color := TypeOf(id, "Main", "Color")
	pair := func(a, b lf.Type) lf.Type { return TypeOf(id, "Main", "Pair", a, b) }
	box := func(a lf.Type) lf.Type { return TypeOf(id, "Main", "Box", a) }
	cases := []struct {
		name string
		typ  lf.Type
		in   string
	}{
		{"text escapes", tText, `"a\"b\\c\/d\b\f\n\r\t\u0001\u001f\u00e9\ud83d\ude00"`},
		{"text plain unicode", tText, `"é😀 x"`},
		{"text in record", r, `{"a": "1", "b": "\u0000", "c": "\n"}`},
		{"party escaped", tParty, `"\u0061lice::1220"`},
		{"party invalid escaped", tParty, `"al\nice"`},
		{"contract id escaped", tCid(r), `"\u0030` + cidV1[1:] + `"`},
		{"enum escaped", color, `"R\u0065d"`},
		{"enum unknown escaped", color, `"R\u0065x"`},
		{"variant tag escaped", shape, `{"t\u0061g": "Circ\u006ce", "value": 1}`},
		{"record key escaped", r, `{"\u0061": "1", "c": "x", "m\u00f6re": null}`},
		{"record key escaped unexpected", r, `{"\u0061": "1", "c": "x", "m\u00f6re": 1}`},
		{"textmap keys escaped", tTextMap(tInt64), `{"b\n": "1", "a\"": "2", "\u00e9": "3", "": "4"}`},
		{"textmap duplicate after unescape", tTextMap(tInt64), `{"a": "1", "\u0061": "2"}`},
		{"int64 forms", tList(tInt64), `["+5", "-0", "007", "-9223372036854775808", "9223372036854775807"]`},
		{"numeric forms", tList(tNum(10)), `[1e6, -0, 1.5e-3, "-0.000", "+1.", 0.0010]`},
		{"numeric 37", tList(tNum(37)), `[0, "0.1", -0.5]`},
		{"numeric 0", tList(tNum(0)), `["42", 1, "-0"]`},
		{"dates", tList(tDate), `["0001-01-01", "9999-12-31", "2020-02-29", "+10000-01-01"]`},
		{"dates in range", tList(tDate), `["0001-01-01", "9999-12-31", "2020-02-29", "1969-12-31"]`},
		{"timestamps", tList(tTimestamp), `["1969-12-31T23:59:59.5Z", "1970-01-01T00:00:00.000001Z", "2020-01-01T00:00:00.123456789+01:00",
			"2020-01-01T00:00:00.100000Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "2020-01-01T00:00:00.010Z[Europe/Paris]",
			"1960-06-30T12:00:00.000010-05:30", "2020-01-01T00:00Z"]`},
		{"timestamp out of range", tList(tTimestamp), `["1970-01-01T00:00:00Z", "0000-12-31T23:59:59.999999Z"]`},
		{"unit forms", tList(tUnit), `[null, 1, "x", [], {"a": [1]}]`},
		{"bools", tList(tBool), `[true, false]`},
		{"nested optionals", tList(tOpt(tOpt(tOpt(tInt64)))), `[[], [[]], [[[]]], [[["1"]]]]`},
		{"optional via variable", tList(box(tOpt(tInt64))), `[{}, {"x": null}, {"x": "1"}]`},
		{"fz everything", fz, `{"i": "-12", "n": 3.25, "t": "x\u00e9\n", "p": "alice::1220", "d": "2020-02-29",
			"ts": "2020-02-29T12:00:00.000001+01:00", "oo": [[]], "l": [{"tag": "Circle", "value": "1"}, {"tag": "Rect", "value": {"w": "1", "h": "2"}}, {"tag": "Maybe", "value": null}],
			"tm": {"z": "Red", "a": "Blue", "": "Green"},
			"gm": [[{"tag": "Empty", "value": {}}, "1970-01-01T00:00:00Z"], [{"tag": "Maybe", "value": "1"}, "1970-01-01T00:00:01.5Z"], [{"tag": "Empty", "value": 1}, "2000-01-01T00:00Z"]],
			"bx": {"x": "3"}, "sc": {"v": "7"}, "u": [1, {}], "bo": true, "c": "` + cidV1 + `",
			"tr": {"tag": "Node", "value": {"l": {"tag": "Leaf", "value": {}}, "v": "2", "r": {"tag": "Leaf", "value": {}}}},
			"gk": [[{"fst": "1", "snd": "1.5"}, {}], [{"snd": "0"}, null], [{"fst": null, "snd": "0.00"}, 1]]}`},
		// A GenMap (printed while counting) as the last non-null field,
		// before trailing Nones, and as a trailing None.
		{"genmap then trailing nones", fz, `{"i": "1", "n": "1", "oo": [], "gm": [[{"tag": "Circle", "value": 2}, "1970-01-01T00:00:00.25Z"]], "u": null, "bo": null}`},
		{"genmap empty then trailing nones", fz, `{"i": "1", "n": "1", "oo": [], "gk": [], "tr": null}`},
		{"genmap null", fz, `{"i": "1", "n": "1", "oo": [], "gm": null, "gk": null}`},
		// Records with trailing Nones inside GenMap keys and values (printed).
		{"genmap record keys", tGenMap(r, r), `[[{"a": "2", "c": "x"}, {"a": "1", "c": "y", "e": null}], [{"a": "1", "c": "x", "d": null}, {"a": "1", "c": "\u00e9", "e": "3"}],
			[{"a": "2", "c": "x", "e": null}, {"a": "9", "c": "z"}]]`},
		{"genmap of genmaps", tGenMap(tGenMap(tInt64, tText), tList(tGenMap(tText, tOpt(tInt64)))),
			`[[[["2", "b"], ["1", "a"]], [[["y", null], ["x", "1"]], []]], [[], [[["q", "2"], ["q", "3"]]]], [[["1", "a"], ["2", "b"]], []]]`},
		{"genmap pair keys", tGenMap(pair(tOpt(tInt64), tNum(2)), tUnit), `[[{"fst": "1", "snd": "1.5"}, {}], [{"snd": "0"}, null], [{"fst": null, "snd": "0.00"}, 1]]`},
		{"genmap of records in a list", tList(pair(tGenMap(tInt64, tOpt(tText)), tOpt(tInt64))), `[{"fst": [["2", null], ["1", "x"]]}, {"fst": [], "snd": null}, {"fst": [["1", "\t"]], "snd": "4"}]`},
		{"genmap error after entries", tGenMap(tInt64, tText), `[["1", "a"], ["2", 3]]`},
		{"genmap bad entry", tGenMap(tInt64, tText), `[["1", "a"], ["2"]]`},
		{"error after genmap", pair(tGenMap(tInt64, tText), tInt64), `{"fst": [["1", "a"]], "snd": 2}`},
		{"error in list", tList(r), `[{"a": "1", "c": "x"}, {"a": "1", "c": 2}]`},
		{"variant in list", tList(shape), `[{"tag": "Circle", "value": "1e1"}, {"value": {"h": "1", "w": "2"}, "tag": "Rect"}, {"tag": "Maybe", "value": "3"}, {"tag": "Empty", "value": null}]`},
		{"variant bad tag", tList(shape), `[{"tag": "Circle", "value": "1"}, {"tag": "Square", "value": {}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkOnePass(t, []byte(tc.in), tc.typ, "arg", lookup)
			checkOnePass(t, []byte(tc.in), tc.typ, "", lookup)
		})
	}
}

// TestFromJSONOnePassLimits pins FromJSONAt to the two-pass route where
// the canonical encoding outgrows its limit: the error names the same
// element whether the encoding is counted, printed inside a GenMap while
// counting, or printed. And the GenMap work budget fails the same way
// when building.
func TestFromJSONOnePassLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds values of 64 MiB")
	}
	// A Numeric 37 written as the JSON number 0 (2 input bytes with its
	// comma) prints as 41 bytes and a comma.
	zeros := strings.TrimSuffix(strings.Repeat("0,", maxCanonicalBytes/42+1000), ",")
	for _, tc := range []struct {
		name string
		typ  lf.Type
		in   string
	}{
		{"list", tList(tNum(37)), "[" + zeros + "]"},
		{"genmap value", tGenMap(tInt64, tList(tNum(37))), `[["1", [` + zeros + `]]]`},
		{"list after genmap", tList(tOpt(tGenMap(tInt64, tList(tNum(37))))), `[[["1", [` + zeros[:len(zeros)/2] + `]]], [["2", [` + zeros[:len(zeros)/2] + `]]], [["3", [0]]]]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromJSONAt([]byte(tc.in), tc.typ, "arg", nil)
			if code(err) != invalidArg || !strings.Contains(cause(err), "the canonical value exceeds") {
				t.Fatalf("FromJSONAt: %v, want the canonical size limit", err)
			}
			checkOnePass(t, []byte(tc.in), tc.typ, "arg", nil)
		})
	}
	in := []byte(`[["b", "1"], ["a", "2"], ["c", "3"]]`)
	for _, budget := range []int{10, 1000} {
		var errs [2]error
		var vals [2]Value
		for k, build := range []bool{false, true} {
			c, root, err := newChecker(in, tGenMap(tText, tInt64), "arg", nil)
			if err != nil {
				t.Fatal(err)
			}
			c.budget = budget
			c.build, c.count = build, build
			vals[k], errs[k] = c.value(0, tGenMap(tText, tInt64), nil, root, 0)
		}
		if cause(errs[0]) != cause(errs[1]) || code(errs[0]) != code(errs[1]) {
			t.Errorf("budget %d: printing error %v, building error %v", budget, errs[0], errs[1])
		}
		if budget == 10 && !strings.Contains(cause(errs[1]), "too complex") {
			t.Errorf("budget %d: building error %v, want too complex", budget, errs[1])
		}
		if budget == 1000 && (errs[1] != nil || len(vals[1].(GenMap)) != 3) {
			t.Errorf("budget %d: building gave %v, %v", budget, vals[1], errs[1])
		}
	}
}

// TestCanonicalLengths pins the lengths the one pass counts to the
// printers: jsonStringLen to appendJSONString, timestampLen to
// appendTimestamp and int64Len to strconv.AppendInt.
func TestCanonicalLengths(t *testing.T) {
	var all strings.Builder
	for c := range 256 {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "x", `"`, `\`, "a\x00b\x1f\x7f", "é😀", all.String()} {
		if got, want := jsonStringLen(s), len(appendJSONString(nil, s)); got != want {
			t.Errorf("jsonStringLen(%q) = %d, want %d", s, got, want)
		}
	}
	for _, n := range []int64{0, 1, -1, 9, 10, -9, -10, 99, 100, -100, 1 << 40, -(1 << 40), math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		if got, want := int64Len(n), len(strconv.AppendInt(nil, n, 10)); got != want {
			t.Errorf("int64Len(%d) = %d, want %d", n, got, want)
		}
	}
	for _, m := range []int64{
		0, 1, -1, 10, 100_000, 120_000, 999_999, 1_000_000, -1_000_000, -500_000, -999_999,
		minTimestampSec * 1_000_000, maxTimestampSec*1_000_000 + 999_999, 1_234_567_890_123_456, -1_234_567_890_123_450,
	} {
		if got, want := timestampLen(m), len(appendTimestamp(nil, m)); got != want {
			t.Errorf("timestampLen(%d) = %d, want %d (%s)", m, got, want, appendTimestamp(nil, m))
		}
	}
}

// TestParseShortInt64 pins the allocation-free Int64 parser to
// parseInt64 on strings of up to 18 bytes.
func TestParseShortInt64(t *testing.T) {
	for _, s := range []string{
		"", "+", "-", "0", "-0", "+0", "7", "42", "-42", "+42", "007", "-007", "1.0", " 1", "1 ", "1a", "a1", "--1", "+-1",
		"١٢", "123456789012345678", "-12345678901234567", "+99999999999999999", "999999999999999999", "1_000",
	} {
		n1, ok1 := parseShortInt64([]byte(s))
		n2, ok2 := parseInt64(s)
		if n1 != n2 || ok1 != ok2 {
			t.Errorf("parseShortInt64(%q) = %d, %v; parseInt64 = %d, %v", s, n1, ok1, n2, ok2)
		}
	}
}
