package value

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// typeAsBenchValues are a Ping-sized record (unlabelled, as the gRPC API
// sends it) and a larger nested one: a list of 20 Fz records with
// Optionals, a nested Optional, variants, a TextMap of enums and a
// generic record.
func typeAsBenchValues(b *testing.B) (ping, nested Value, pingT, nestedT lf.Type, lookup func(string) *lf.Package) {
	pkg := valuesPackage(b)
	lookup = PackageLookup(pkg)
	pingT = TypeOf(pkg.ID, "Main", "Ping")
	ping = Record{Fields: []RecordField{{Value: Text("ping-1")}, {Value: Party("alice::1220")}, {Value: Party("bob::1220")}}}
	fz := Record{Fields: []RecordField{
		{Label: "i", Value: Int64(42)},
		{Label: "n", Value: Numeric("3.25")},
		{Label: "t", Value: Optional{Value: Text("hello")}},
		{Label: "p", Value: Optional{Value: Party("alice::1220")}},
		{Label: "d", Value: Optional{Value: Date(18000)}},
		{Label: "ts", Value: Optional{Value: Timestamp(1700000000123456)}},
		{Label: "oo", Value: Optional{Value: Optional{Value: Int64(7)}}},
		{Label: "l", Value: Optional{Value: List{
			Variant{Constructor: "Circle", Value: Numeric("1.5")},
			Variant{Constructor: "Rect", Value: Record{Fields: []RecordField{{Value: Int64(1)}, {Value: Int64(2)}}}},
		}}},
		{Label: "tm", Value: Optional{Value: TextMap{{Key: "b", Value: Enum{Constructor: "Red"}}, {Key: "a", Value: Enum{Constructor: "Blue"}}}}},
		{Label: "bx", Value: Optional{Value: Record{Fields: []RecordField{{Value: Optional{Value: Optional{Value: Int64(3)}}}}}}},
		{Label: "c", Value: Optional{Value: ContractID(cidV1)}},
	}}
	l := make(List, 20)
	for i := range l {
		l[i] = fz
	}
	return ping, l, pingT, tList(TypeOf(pkg.ID, "Main", "Fz")), lookup
}

// BenchmarkTypeAs compares TypeAs with the JSON round trip it replaces.
func BenchmarkTypeAs(b *testing.B) {
	ping, nested, pingT, nestedT, lookup := typeAsBenchValues(b)
	for _, bc := range []struct {
		name string
		v    Value
		t    lf.Type
	}{{"ping", ping, pingT}, {"nested", nested, nestedT}} {
		if _, ok := typeAsDirect(bc.v, bc.t, lookup); !ok {
			b.Fatalf("%s is not typed directly", bc.name)
		}
		b.Run(bc.name+"/direct", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := TypeAs(bc.v, bc.t, "arg", lookup); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/roundtrip", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FromJSONAt(AppendJSONAs(nil, bc.v, bc.t, lookup), bc.t, "arg", lookup); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJSONAppender prints the values of BenchmarkTypeAs in the form
// the engine gives them (record ids and labels), as a transaction's
// events are rendered (one JSONAppender for many values), and types them
// for the decoded-argument cache (render+type).
func BenchmarkJSONAppender(b *testing.B) {
	ping, nested, pingT, nestedT, lookup := typeAsBenchValues(b)
	for _, bc := range []struct {
		name string
		v    Value
		t    lf.Type
	}{{"ping", ping, pingT}, {"nested", nested, nestedT}} {
		v, err := TypeAs(bc.v, bc.t, "", lookup)
		if err != nil {
			b.Fatal(err)
		}
		js := NewJSONAppender(lookup)
		var buf []byte
		b.Run(bc.name+"/render", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = js.AppendAs(buf[:0], v, bc.t)
			}
		})
		b.Run(bc.name+"/render+type", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = js.AppendAs(buf[:0], v, bc.t)
				if _, err := TypeAs(v, bc.t, "", lookup); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
