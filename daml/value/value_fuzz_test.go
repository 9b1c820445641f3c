package value

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzFromJSON: CheckValue and FromJSON never panic on any JSON against
// the record Main:Fz (every builtin, nested Optional, generic records,
// variants, enums, TextMap, GenMap with variant and record keys,
// recursion); they fail only with KindInvalid or KindPreprocessing, and
// with the same error; an accepted value's canonical output is valid JSON
// that checks to itself; AppendJSON of FromJSON's value prints exactly
// that output; and the typed value survives the JSON and protobuf round
// trips with its maps sorted by Compare. FromJSON (one pass) also agrees
// with the two-pass route (fromJSONTwoPass: the same Value or the same
// *Error) and counts the length of CheckValue's output.
func FuzzFromJSON(f *testing.F) {
	pkg := valuesPackage(f)
	fz := TypeOf(pkg.ID, "Main", "Fz")
	lookup := PackageLookup(pkg)
	for _, s := range []string{
		`{"i": "1", "n": "1", "oo": []}`,
		`{"i": "-12", "n": 3.25, "t": "x\u00e9\n", "p": "alice::1220", "d": "2020-02-29", "ts": "2020-02-29T12:00:00.000001+01:00", "oo": [[]]}`,
		`{"i": "1", "n": "1.5", "oo": [["7"]], "l": [{"tag": "Circle", "value": "1"}, {"tag": "Rect", "value": {"w": "1", "h": "2"}}, {"tag": "Maybe", "value": null}]}`,
		`{"i": "1", "n": "1", "oo": [], "tm": {"z": "Red", "a": "Blue", "": "Green"}}`,
		`{"i": "1", "n": "1", "oo": [], "gm": [[{"tag": "Empty", "value": {}}, "1970-01-01T00:00:00Z"], [{"tag": "Maybe", "value": "1"}, "1970-01-01T00:00:01Z"], [{"tag": "Empty", "value": 1}, "2000-01-01T00:00Z"]]}`,
		`{"i": "1", "n": "1", "oo": [], "bx": {"x": "3"}, "sc": {"v": "7"}, "u": [1, {}], "bo": true, "c": "` + cidV1 + `"}`,
		`{"i": "1", "n": "1", "oo": [], "tr": {"tag": "Node", "value": {"l": {"tag": "Leaf", "value": {}}, "v": "2", "r": {"tag": "Leaf", "value": {}}}}}`,
		`{"i": "1", "n": "1", "oo": [], "gk": [[{"fst": "1", "snd": "1.5"}, {}], [{"snd": "0"}, null], [{"fst": null, "snd": "0.00"}, 1]]}`,
		`{"i": "1", "n": "1", "oo": [], "c": "` + cidV2 + `", "unknown": null}`,
		`{"i": "9223372036854775808", "n": "1"}`,
		`{"i": "1", "n": "1.00000000001", "oo": []}`,
		`{"i": "1", "more": 1}`,
		`[1, 2]`, `null`, `"x"`, `{"i": "1", "i": "2"}`, `{"ts": "0000-12-31T23:30:00-01:00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkOnePass(t, data, fz, "arg", lookup)
		out, err := CheckValue(data, fz, "arg", lookup)
		v, ferr := FromJSONAt(data, fz, "arg", lookup)
		if cause(ferr) != cause(err) || code(ferr) != code(err) {
			t.Fatalf("FromJSON error %v, CheckValue error %v", ferr, err)
		}
		if err != nil {
			var ve *Error
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if ve.Kind != KindInvalid && ve.Kind != KindPreprocessing {
				t.Fatalf("unexpected code for %q: %v", data, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("canonical output of %q is not valid JSON: %s", data, out)
		}
		again, err := CheckValue(out, fz, "arg", lookup)
		if err != nil {
			t.Fatalf("canonical output %s of %q does not check: %v", out, data, err)
		}
		if string(again) != string(out) {
			t.Fatalf("canonical output is not a fixed point:\n in  %q\n out %s\n out2 %s", data, out, again)
		}
		if js := AppendJSON(nil, v); string(js) != string(out) {
			t.Fatalf("AppendJSON(FromJSON(%q))\n got %s\nwant %s", data, js, out)
		}
		checkTypedValue(t, v, fz, lookup)
	})
}
