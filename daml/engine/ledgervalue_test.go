package engine

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
	"github.com/ledgernode/ledgernode/daml/value"
)

func TestToLedgerValue(t *testing.T) {
	e := newTestEngine(nil, Options{})
	rt, err := e.recordType(tid("R"))
	if err != nil {
		t.Fatal(err)
	}
	rID, vID, cID := tid("R"), tid("V"), tid("C")
	r := func(a, b Value) Value { return &Record{Type: rt, Fields: []Value{a, b}} }
	lr := func(fs ...value.RecordField) value.Value { return value.Record{RecordID: &rID, Fields: fs} }
	fa := func(v value.Value) value.RecordField { return value.RecordField{Label: "a", Value: v} }
	fb := func(v value.Value) value.RecordField { return value.RecordField{Label: "b", Value: v} }
	tests := []struct {
		name string
		in   Value
		want value.Value
	}{
		{"scalars", ListOf(Unit{}, Bool(true), Int64(-3), Text("é"), Timestamp(5), Date(-1), Party("alice"), ContractID("00ab")),
			value.List{value.Unit{}, value.Bool(true), value.Int64(-3), value.Text("é"), value.Timestamp(5), value.Date(-1), value.Party("alice"), value.ContractID("00ab")}},
		{"numeric", Numeric{numeric.MustParse("1.50")}, value.Numeric("1.50")},
		{"numeric scale 0", Numeric{numeric.MustParse("42.")}, value.Numeric("42.")},
		{"record", r(Int64(1), Some(Int64(2))), lr(fa(value.Int64(1)), fb(value.Optional{Value: value.Int64(2)}))},
		{"trailing None dropped", r(Int64(1), None), lr(fa(value.Int64(1)))},
		{"all trailing Nones dropped", r(None, None), lr()},
		{"inner None kept", r(None, Some(None)), lr(fa(value.Optional{}), fb(value.Optional{Value: value.Optional{}}))},
		{"nested record", r(r(Int64(1), None), None), lr(fa(lr(fa(value.Int64(1)))))},
		{"variant", &Variant{ID: vID, Con: "Rt", Rank: 1, Value: Int64(7)}, value.Variant{VariantID: &vID, Constructor: "Rt", Rank: 1, Value: value.Int64(7)}},
		{"enum", &Enum{ID: cID, Con: "Blue", Rank: 2}, value.Enum{EnumID: &cID, Constructor: "Blue", Rank: 2}},
		{"text map", &Map{Text: true, Keys: []Value{Text("a"), Text("b")}, Values: []Value{Int64(1), None}},
			value.TextMap{{Key: "a", Value: value.Int64(1)}, {Key: "b", Value: value.Optional{}}}},
		{"gen map", &Map{Keys: []Value{Int64(1)}, Values: []Value{Text("x")}}, value.GenMap{{Key: value.Int64(1), Value: value.Text("x")}}},
		{"empty list", (*List)(nil), value.List(nil)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := toLedgerValue(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("toLedgerValue (-want +got):\n%s", diff)
			}
			back, err := e.fromLedgerValue(got)
			if err != nil {
				t.Fatalf("fromLedgerValue: %v", err)
			}
			if !valueEq(back, tc.in) {
				t.Errorf("round trip: got %s, want %s", show(back), show(tc.in))
			}
		})
	}
}

func TestToLedgerValueErrors(t *testing.T) {
	tests := []struct {
		name string
		in   Value
		kind ErrorKind
	}{
		{"NUL in a record field", &Record{Type: &RecordType{ID: tid("R"), Fields: []string{"a", "b"}}, Fields: []Value{Text("\x00"), None}}, ErrMalformedText},
		{"invalid UTF-8 map key", &Map{Text: true, Keys: []Value{Text("\xff")}, Values: []Value{Unit{}}}, ErrMalformedText},
		{"struct", &Struct{Names: []string{"x"}, Values: []Value{Unit{}}}, ErrInternal},
		{"any", &Any{Type: &lf.TCon{ID: tid("R")}, Value: Unit{}}, ErrInternal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := toLedgerValue(tc.in)
			if err == nil || err.Kind != tc.kind {
				t.Errorf("got %v, want %v", err, tc.kind)
			}
		})
	}
}

func TestFromLedgerValueErrors(t *testing.T) {
	e := newTestEngine(nil, Options{})
	rID, vID, cID, unknown := tid("R"), tid("V"), tid("C"), tid("Nope")
	tests := []struct {
		name string
		in   value.Value
		kind ErrorKind
	}{
		{"record without id", value.Record{Fields: []value.RecordField{{Value: value.Int64(1)}}}, ErrInternal},
		{"record with too many fields", value.Record{RecordID: &rID, Fields: make([]value.RecordField, 3)}, ErrInternal},
		{"record label mismatch", value.Record{RecordID: &rID, Fields: []value.RecordField{{Label: "b", Value: value.Int64(1)}}}, ErrInternal},
		{"unknown record type", value.Record{RecordID: &unknown}, ErrPackage},
		{"unknown variant constructor", value.Variant{VariantID: &vID, Constructor: "X", Value: value.Unit{}}, ErrInternal},
		{"enum id of a variant", value.Enum{EnumID: &vID, Constructor: "L"}, ErrInternal},
		{"unknown enum constructor", value.Enum{EnumID: &cID, Constructor: "Pink"}, ErrInternal},
		{"bad numeric", value.Numeric("1e5"), ErrInternal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.fromLedgerValue(tc.in)
			if err == nil || err.Kind != tc.kind {
				t.Errorf("got %v, want %v", err, tc.kind)
			}
		})
	}
	// Ranks come from the package, not from the stored value (the
	// protobuf codec does not carry them).
	got, err := e.fromLedgerValue(value.Enum{EnumID: &cID, Constructor: "Green"})
	if err != nil {
		t.Fatal(err)
	}
	if en, ok := got.(*Enum); !ok || en.Rank != 1 {
		t.Errorf("enum Green: got %s", show(got))
	}
}

// ledgerValueSamples returns record type R of e and values of every kind
// (R's records, a variant, an enum, maps, lists, scalars), each with a
// ledger value (toLedgerValue).
func ledgerValueSamples(t *testing.T, e *Engine) (*RecordType, []Value) {
	t.Helper()
	rt, err := e.recordType(tid("R"))
	if err != nil {
		t.Fatal(err)
	}
	vID, cID := tid("V"), tid("C")
	r := func(a, b Value) Value { return &Record{Type: rt, Fields: []Value{a, b}} }
	return rt, []Value{
		ListOf(Unit{}, Bool(true), Int64(-3), Text("é"), Timestamp(5), Date(-1), Party("alice"), ContractID("00ab")),
		Numeric{numeric.MustParse("1.50")},
		r(Int64(1), Some(Int64(2))),
		r(Int64(1), None),
		r(None, None),
		r(None, Some(None)),
		r(r(Int64(1), None), Some(r(None, None))),
		r(Numeric{numeric.MustParse("42.")}, ListOf(r(Text("a"), None))),
		&Variant{ID: vID, Con: "Rt", Rank: 1, Value: r(Int64(7), None)},
		&Enum{ID: cID, Con: "Blue", Rank: 2},
		&Map{Text: true, Keys: []Value{Text("a"), Text("b")}, Values: []Value{Int64(1), None}},
		&Map{Text: true},
		&Map{Keys: []Value{Int64(1)}, Values: []Value{r(Text("x"), None)}},
		&Map{},
		(*List)(nil),
	}
}

// TestIsLedgerValueOf checks IsLedgerValueOf(v, lv) against
// reflect.DeepEqual(toLedgerValue(v), lv) for values of every kind and
// for every single change of their normalized values (labels, trailing
// Nones, ids, ranks, numerics' scale, nil and empty containers, nested
// Optionals), both for v and for v read back from the changed value (as
// FromValue gives a create's argument).
func TestIsLedgerValueOf(t *testing.T) {
	e := newTestEngine(nil, Options{})
	rt, ins := ledgerValueSamples(t, e)
	ins = append(ins,
		&Record{Type: rt, Fields: []Value{Text("\x00"), None}},
		&Map{Text: true, Keys: []Value{Text("\xff")}, Values: []Value{Unit{}}},
	)
	check := func(v Value, lv value.Value) {
		t.Helper()
		want, err := toLedgerValue(v)
		eq := err == nil && reflect.DeepEqual(want, lv)
		if got := IsLedgerValueOf(v, lv); got != eq {
			t.Errorf("IsLedgerValueOf(%s, %#v) = %v, want %v", show(v), lv, got, eq)
		}
	}
	for _, v := range ins {
		lv, err := toLedgerValue(v)
		if err != nil {
			lv = value.Record{RecordID: &rt.ID, Fields: []value.RecordField{{Label: "a", Value: value.Text("\x00")}}}
		}
		for _, c := range append(ledgerValueChanges(lv), lv) {
			check(v, c)
			if back, err := e.fromLedgerValue(c); err == nil {
				check(back, c)
			}
		}
	}
	deep := Value(Int64(0))
	for range MaxNesting + 1 {
		deep = Some(deep)
	}
	lv := value.Value(value.Int64(0))
	for range MaxNesting + 1 {
		lv = value.Optional{Value: lv}
	}
	check(deep, lv)
	if IsLedgerValueOf(deep, lv) {
		t.Error("IsLedgerValueOf accepts a value nested too deep")
	}
}

// ledgerValueChanges returns lv changed in one place each, in every place.
func ledgerValueChanges(lv value.Value) []value.Value {
	other := tid("Other")
	var out []value.Value
	switch x := lv.(type) {
	case value.Numeric:
		out = append(out, x+"0")
	case value.Text:
		out = append(out, x+"x")
	case value.Int64:
		out = append(out, x+1)
	case value.Bool:
		out = append(out, !x)
	case value.Timestamp:
		out = append(out, x+1)
	case value.Date:
		out = append(out, x+1)
	case value.Party:
		out = append(out, x+"x")
	case value.ContractID:
		out = append(out, x+"00")
	case value.Unit:
		out = append(out, value.Bool(false))
	case value.Optional:
		out = append(out, value.Optional{Value: x.Value, Nested: true})
		if x.Value != nil {
			for _, c := range ledgerValueChanges(x.Value) {
				out = append(out, value.Optional{Value: c})
			}
		}
	case value.List:
		if x == nil {
			out = append(out, value.List{})
		} else if len(x) == 0 {
			out = append(out, value.List(nil))
		}
		for i, e := range x {
			for _, c := range ledgerValueChanges(e) {
				out = append(out, append(append(append(value.List{}, x[:i]...), c), x[i+1:]...))
			}
		}
	case value.TextMap:
		if len(x) == 0 {
			out = append(out, value.TextMap(nil))
		}
		for i, e := range x {
			for _, c := range ledgerValueChanges(e.Value) {
				m := append(value.TextMap{}, x...)
				m[i].Value = c
				out = append(out, m)
			}
			m := append(value.TextMap{}, x...)
			m[i].Key += "x"
			out = append(out, m)
		}
	case value.GenMap:
		if len(x) == 0 {
			out = append(out, value.GenMap(nil))
		}
		for i, e := range x {
			for _, c := range ledgerValueChanges(e.Value) {
				m := append(value.GenMap{}, x...)
				m[i].Value = c
				out = append(out, m)
			}
			for _, c := range ledgerValueChanges(e.Key) {
				m := append(value.GenMap{}, x...)
				m[i].Key = c
				out = append(out, m)
			}
		}
	case value.Record:
		out = append(out,
			value.Record{Fields: x.Fields},
			value.Record{RecordID: &other, Fields: x.Fields},
			value.Record{RecordID: x.RecordID, Fields: append(append([]value.RecordField{}, x.Fields...), value.RecordField{Label: "b", Value: value.Optional{}})})
		if x.Fields == nil {
			out = append(out, value.Record{RecordID: x.RecordID, Fields: []value.RecordField{}})
		}
		for i, f := range x.Fields {
			fs := append([]value.RecordField{}, x.Fields...)
			fs[i].Label = ""
			out = append(out, value.Record{RecordID: x.RecordID, Fields: fs})
			for _, c := range ledgerValueChanges(f.Value) {
				fs := append([]value.RecordField{}, x.Fields...)
				fs[i].Value = c
				out = append(out, value.Record{RecordID: x.RecordID, Fields: fs})
			}
		}
	case value.Variant:
		out = append(out, value.Variant{Constructor: x.Constructor, Rank: x.Rank, Value: x.Value},
			value.Variant{VariantID: x.VariantID, Constructor: x.Constructor, Rank: x.Rank + 1, Value: x.Value})
		for _, c := range ledgerValueChanges(x.Value) {
			out = append(out, value.Variant{VariantID: x.VariantID, Constructor: x.Constructor, Rank: x.Rank, Value: c})
		}
	case value.Enum:
		out = append(out, value.Enum{Constructor: x.Constructor, Rank: x.Rank},
			value.Enum{EnumID: x.EnumID, Constructor: x.Constructor, Rank: x.Rank + 1})
	}
	return out
}
