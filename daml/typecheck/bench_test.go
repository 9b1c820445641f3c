package typecheck

import (
	"strconv"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// BenchmarkCheckAmulet type-checks every non-stable package of
// splice-amulet-0.1.8.dar (splice-amulet with its daml-prim, daml-stdlib
// and other dependencies), as a DAR upload does.
func BenchmarkCheckAmulet(b *testing.B) {
	dar := realDAR(b, "splice-amulet-0.1.8.dar", lf.ReadOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckDAR(dar, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckCasesOverLargeVariant checks a package of 2 000 cases,
// each matching the last of a 5 000-constructor variant (a hostile
// package's shape: the lookups, not the package's size, are the cost),
// with the large data type's names found by scans (as before
// linearNames) and through the checker's maps.
func BenchmarkCheckCasesOverLargeVariant(b *testing.B) {
	const cons, cases = 5000, 2000
	fields := make([]lf.Field, cons)
	for i := range fields {
		fields[i] = lf.Field{Name: "C" + strconv.Itoa(i), Type: tyUnit}
	}
	last := fields[cons-1].Name
	m := baseModule()
	m.DataTypes = append(m.DataTypes, &lf.DataType{Name: "BigV", Serializable: true, Variety: lf.VariantVariety, Fields: fields})
	scrut := &lf.EVariantCon{Type: tcapp("BigV"), Con: last, Arg: unitE}
	for i := range cases {
		e := ecase(scrut, alt(&lf.PVariant{ID: id("BigV"), Con: last, Binder: "x"}, unitE), alt(&lf.PDefault{}, unitE))
		m.Values = append(m.Values, lf.NewDefValue("v"+strconv.Itoa(i), tyUnit, e))
	}
	p := testPackage(m)
	for _, bc := range []struct {
		name   string
		linear int
	}{{"scans", 1 << 30}, {"maps", linearNames}} {
		b.Run(bc.name, func(b *testing.B) {
			defer func(n int) { linearNames = n }(linearNames)
			linearNames = bc.linear
			for b.Loop() {
				if err := Check(p, lookupDATypes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
