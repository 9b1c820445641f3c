package value

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestDataTypeAcrossLookups: one type (the same TCon) read through
// lookups that give different packages of its id resolves in each
// value's own package, never in the package a pooled checker resolved
// it in for an earlier value.
func TestDataTypeAcrossLookups(t *testing.T) {
	pkgOf := func(field string) *lf.Package {
		m := &lf.Module{Name: "M", DataTypes: []*lf.DataType{{Name: "R", Serializable: true, Variety: lf.RecordVariety,
			Fields: []lf.Field{{Name: field, Type: tText}}}}}
		p := &lf.Package{ID: "7a7a", Modules: []*lf.Module{m}}
		p.Index()
		return p
	}
	pa, pb := pkgOf("a"), pkgOf("b")
	typ := TypeOf("7a7a", "M", "R")
	for range 3 {
		for _, tc := range []struct {
			pkg  *lf.Package
			in   string
			want string
		}{{pa, `{"a":"x"}`, "a"}, {pb, `{"b":"y"}`, "b"}} {
			v, err := FromJSONAt([]byte(tc.in), typ, "arg", PackageLookup(tc.pkg))
			if err != nil {
				t.Fatalf("%s through the package of field %s: %v", tc.in, tc.want, err)
			}
			r, ok := v.(Record)
			if !ok || len(r.Fields) != 1 || r.Fields[0].Label != tc.want {
				t.Fatalf("%s through the package of field %s: %#v", tc.in, tc.want, v)
			}
		}
	}
}
