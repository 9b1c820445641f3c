package value

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// cloneSample is a value with every kind of part that can be changed in
// place, in value and pointer form; the record ids of the outer record
// and of the first list element are one pointer, as FromJSON shares them.
func cloneSample() Value {
	rid := &lf.TypeConID{PackageID: "p", Module: "M", Name: "R"}
	inner := Record{RecordID: rid, Fields: []RecordField{{Label: "n", Value: Int64(1)}}}
	return Record{RecordID: rid, Fields: []RecordField{
		{Label: "list", Value: List{inner, Text("a")}},
		{Label: "opt", Value: Optional{Value: List{Party("alice")}}},
		{Label: "optLeaf", Value: Optional{Value: Int64(7)}},
		{Label: "var", Value: Variant{VariantID: &lf.TypeConID{PackageID: "p", Module: "M", Name: "V"}, Constructor: "C", Rank: 1, Value: List{Int64(2)}}},
		{Label: "enum", Value: Enum{EnumID: &lf.TypeConID{PackageID: "p", Module: "M", Name: "E"}, Constructor: "Red"}},
		{Label: "tmap", Value: TextMap{{Key: "k", Value: List{Numeric("1.0")}}}},
		{Label: "gmap", Value: GenMap{{Key: List{Int64(3)}, Value: List{Date(4)}}}},
		{Label: "pRec", Value: &Record{RecordID: rid, Fields: []RecordField{{Label: "x", Value: Text("t")}}}},
		{Label: "pList", Value: &List{Int64(5)}},
		{Label: "pText", Value: ptr(Text("pt"))},
	}}
}

func TestCloneEqualsOriginal(t *testing.T) {
	v := cloneSample()
	if d := cmp.Diff(v, Clone(v)); d != "" {
		t.Fatalf("clone differs (-orig +clone):\n%s", d)
	}
	if Clone(nil) != nil {
		t.Fatal("Clone(nil) is not nil")
	}
}

// TestCloneIsolation changes a clone in place every way a caller could
// and checks that the original is unchanged (and the other way round).
func TestCloneIsolation(t *testing.T) {
	mutations := []struct {
		name string
		do   func(v Value)
	}{
		{"record field", func(v Value) { v.(Record).Fields[0].Value = Unit{} }},
		{"record id", func(v Value) { v.(Record).RecordID.Name = "X" }},
		{"list element", func(v Value) { field(v, "list").(List)[1] = Text("b") }},
		{"nested record field", func(v Value) { field(v, "list").(List)[0].(Record).Fields[0].Value = Int64(9) }},
		{"nested record id", func(v Value) { field(v, "list").(List)[0].(Record).RecordID.Module = "X" }},
		{"optional content", func(v Value) { field(v, "opt").(Optional).Value.(List)[0] = Party("bob") }},
		{"variant id", func(v Value) { field(v, "var").(Variant).VariantID.Name = "X" }},
		{"variant content", func(v Value) { field(v, "var").(Variant).Value.(List)[0] = Int64(0) }},
		{"enum id", func(v Value) { field(v, "enum").(Enum).EnumID.Name = "X" }},
		{"text map entry", func(v Value) { field(v, "tmap").(TextMap)[0].Key = "z" }},
		{"text map value", func(v Value) { field(v, "tmap").(TextMap)[0].Value.(List)[0] = Numeric("2.0") }},
		{"gen map key", func(v Value) { field(v, "gmap").(GenMap)[0].Key.(List)[0] = Int64(0) }},
		{"gen map value", func(v Value) { field(v, "gmap").(GenMap)[0].Value.(List)[0] = Date(0) }},
		{"pointer record", func(v Value) { field(v, "pRec").(*Record).Fields[0].Value = Text("u") }},
		{"pointer record replaced", func(v Value) { *field(v, "pRec").(*Record) = Record{} }},
		{"pointer list", func(v Value) { (*field(v, "pList").(*List))[0] = Int64(6) }},
		{"pointer text", func(v Value) { *field(v, "pText").(*Text) = "changed" }},
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			orig := cloneSample()
			want := cloneSample()
			m.do(Clone(orig))
			if d := cmp.Diff(want, orig); d != "" {
				t.Errorf("changing the clone changed the original (-want +got):\n%s", d)
			}
			c := Clone(orig)
			m.do(orig)
			if d := cmp.Diff(want, c); d != "" {
				t.Errorf("changing the original changed the clone (-want +got):\n%s", d)
			}
		})
	}
}

// TestCloneSharesIDsAsOriginal: one type id pointer of the original is
// one pointer of the clone.
func TestCloneSharesIDsAsOriginal(t *testing.T) {
	c := Clone(cloneSample()).(Record)
	inner := c.Fields[0].Value.(List)[0].(Record)
	if c.RecordID != inner.RecordID {
		t.Fatal("the clone's records of one type have distinct id pointers")
	}
}

// field returns the value of the field label of the record v.
func field(v Value, label string) Value {
	for _, f := range v.(Record).Fields {
		if f.Label == label {
			return f.Value
		}
	}
	panic("no field " + label)
}
