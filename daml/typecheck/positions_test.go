package typecheck

import (
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestLargeDataTypePositions checks that the names of data types larger
// than linearNames, found through the checker's maps, give the verdicts
// and messages the scans give: constructions, projections, updates,
// patterns and exhaustiveness over a 40-constructor variant and enum and
// a 40-field record, accepted and refused.
func TestLargeDataTypePositions(t *testing.T) {
	const n = 40
	var vfields, rfields []lf.Field
	var cons []string
	for i := range n {
		vfields = append(vfields, lf.Field{Name: fmt.Sprintf("C%d", i), Type: tyUnit})
		rfields = append(rfields, lf.Field{Name: fmt.Sprintf("f%d", i), Type: tyInt64})
		cons = append(cons, fmt.Sprintf("E%d", i))
	}
	bigTypes := []*lf.DataType{
		{Name: "BigV", Serializable: true, Variety: lf.VariantVariety, Fields: vfields},
		{Name: "BigR", Serializable: true, Variety: lf.RecordVariety, Fields: rfields},
		{Name: "BigE", Serializable: true, Variety: lf.EnumVariety, Constructors: cons},
	}
	rec := func() lf.Expr {
		fs := make([]lf.FieldExpr, n)
		for i := range fs {
			fs[i] = lf.FieldExpr{Name: rfields[i].Name, Expr: &lf.EInt64{Value: int64(i)}}
		}
		return &lf.ERecCon{Type: tcapp("BigR"), Fields: fs}
	}
	vcase := func(skip int, dflt bool, extra ...lf.CaseAlt) lf.Expr {
		var alts []lf.CaseAlt
		for i := range n {
			if i != skip {
				alts = append(alts, alt(&lf.PVariant{ID: id("BigV"), Con: vfields[i].Name, Binder: "x"}, unitE))
			}
		}
		if dflt {
			alts = append(alts, alt(&lf.PDefault{}, unitE))
		}
		alts = append(alts, extra...)
		return ecase(&lf.EVariantCon{Type: tcapp("BigV"), Con: "C7", Arg: unitE}, alts...)
	}
	ecaseOf := func(skip int) lf.Expr {
		var alts []lf.CaseAlt
		for i := range n {
			if i != skip {
				alts = append(alts, alt(&lf.PEnum{ID: id("BigE"), Con: cons[i]}, unitE))
			}
		}
		return ecase(&lf.EEnumCon{ID: id("BigE"), Con: "E3"}, alts...)
	}
	cases := map[string]struct {
		typ  lf.Type
		expr lf.Expr
	}{
		"variant con":              {tc("BigV"), &lf.EVariantCon{Type: tcapp("BigV"), Con: "C39", Arg: unitE}},
		"unknown variant con":      {tc("BigV"), &lf.EVariantCon{Type: tcapp("BigV"), Con: "C40", Arg: unitE}},
		"enum con":                 {tc("BigE"), &lf.EEnumCon{ID: id("BigE"), Con: "E39"}},
		"unknown enum con":         {tc("BigE"), &lf.EEnumCon{ID: id("BigE"), Con: "E40"}},
		"projection":               {tyInt64, &lf.ERecProj{Type: tcapp("BigR"), Field: "f39", Record: rec()}},
		"unknown projection":       {tyInt64, &lf.ERecProj{Type: tcapp("BigR"), Field: "f40", Record: rec()}},
		"update":                   {tc("BigR"), &lf.ERecUpd{Type: tcapp("BigR"), Field: "f33", Record: rec(), Update: &lf.EInt64{Value: 1}}},
		"unknown update":           {tc("BigR"), &lf.ERecUpd{Type: tcapp("BigR"), Field: "g", Record: rec(), Update: &lf.EInt64{Value: 1}}},
		"exhaustive variant case":  {tyUnit, vcase(-1, false)},
		"variant case, default":    {tyUnit, vcase(17, true)},
		"variant case, one short":  {tyUnit, vcase(17, false)},
		"unknown variant pattern":  {tyUnit, vcase(-1, false, alt(&lf.PVariant{ID: id("BigV"), Con: "C99", Binder: "x"}, unitE))},
		"exhaustive enum case":     {tyUnit, ecaseOf(-1)},
		"enum case, one short":     {tyUnit, ecaseOf(33)},
		"variant case, all but C0": {tyUnit, vcase(0, false)},
	}
	verdict := func(typ lf.Type, e lf.Expr) string {
		m := baseModule()
		m.DataTypes = append(m.DataTypes, bigTypes...)
		m.Values = append(m.Values, lf.NewDefValue("test", typ, e))
		if err := checkErr(t, testPackage(m)); err != nil {
			return err.Error()
		}
		return "accepted"
	}
	defer func(n int) { linearNames = n }(linearNames)
	refused := 0
	for name, c := range cases {
		linearNames = 1 << 20 // every lookup a scan
		scanned := verdict(c.typ, c.expr)
		linearNames = 32 // the large types' lookups in the maps
		mapped := verdict(c.typ, c.expr)
		if mapped != scanned {
			t.Errorf("%s: %s through the maps, %s by scans", name, mapped, scanned)
		}
		if scanned != "accepted" {
			refused++
		}
	}
	if refused != 8 {
		t.Errorf("%d cases refused, want 8 (the unknown names and the cases short of a constructor)", refused)
	}
}
