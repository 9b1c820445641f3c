package interactive

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
)

func TestNodeDifference(t *testing.T) {
	id := Identifier{PackageID: "p", ModuleName: "M", EntityName: "T"}
	ex := func(mut func(x *Exercise)) Node {
		x := &Exercise{LFVersion: "2.1", ContractID: "00aa", PackageName: "n", TemplateID: id, Signatories: []string{"a"},
			Stakeholders: []string{"a", "b"}, ActingParties: []string{"b"}, ChoiceID: "C", ChosenValue: value.Unit{},
			Consuming: true, Children: []string{"1"}, ExerciseResult: value.Text("r")}
		if mut != nil {
			mut(x)
		}
		return Node{NodeID: "0", Exercise: x}
	}
	cr := func(mut func(c *Create)) Node {
		c := &Create{LFVersion: "2.1", ContractID: "00bb", PackageName: "n", TemplateID: id, Argument: value.Int64(1),
			Signatories: []string{"a"}, Stakeholders: []string{"a"}}
		if mut != nil {
			mut(c)
		}
		return Node{NodeID: "1", Create: c}
	}
	for _, tc := range []struct {
		name string
		a, b Node
		want string
	}{
		{"equal exercises", ex(nil), ex(nil), ""},
		{"node ids are not compared", ex(nil), func() Node { n := ex(nil); n.NodeID = "7"; return n }(), ""},
		{"kind", ex(nil), cr(nil), "node kind (create, not exercise)"},
		{"contract id", ex(nil), ex(func(x *Exercise) { x.ContractID = "00ab" }), "contract_id"},
		{"template", ex(nil), ex(func(x *Exercise) { x.TemplateID.EntityName = "U" }), "template_id"},
		{"chosen value", ex(nil), ex(func(x *Exercise) { x.ChosenValue = value.Bool(true) }), "chosen_value"},
		{"consuming", ex(nil), ex(func(x *Exercise) { x.Consuming = false }), "consuming"},
		{"children", ex(nil), ex(func(x *Exercise) { x.Children = nil }), "children"},
		{"result absent", ex(nil), ex(func(x *Exercise) { x.ExerciseResult = nil }), "exercise_result"},
		{"interface", ex(nil), ex(func(x *Exercise) { x.InterfaceID = &id }), "interface_id"},
		{"first difference wins", ex(nil), ex(func(x *Exercise) { x.PackageName, x.Consuming = "m", false }), "package_name"},
		{"create argument", cr(nil), cr(func(c *Create) { c.Argument = value.Int64(2) }), "argument"},
		{"create stakeholders", cr(nil), cr(func(c *Create) { c.Stakeholders = []string{"a", "b"} }), "stakeholders"},
		{"rollback children", Node{Rollback: &Rollback{Children: []string{"1"}}}, Node{Rollback: &Rollback{Children: []string{"2"}}}, "children"},
		{"fetch acting parties", Node{Fetch: &Fetch{ActingParties: []string{"a"}}}, Node{Fetch: &Fetch{}}, "acting_parties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NodeDifference(tc.a, tc.b); got != tc.want {
				t.Errorf("NodeDifference = %q, want %q", got, tc.want)
			}
		})
	}
}
