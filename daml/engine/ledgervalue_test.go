package engine

import (
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
