package value

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestCountedFieldNames: a record counts and prints its fields' names as
// CheckValue prints them, whether they are plain (counted by length,
// lastNamesPlain; printed as they are, plainNames) or not (a quote and a
// non-ASCII letter in a hand-built package's names).
func TestCountedFieldNames(t *testing.T) {
	t.Parallel()
	for _, names := range [][2]string{{"id", "initiator"}, {`q"x`, "é"}} {
		m := &lf.Module{Name: "M", DataTypes: []*lf.DataType{{Name: "R", Serializable: true, Variety: lf.RecordVariety,
			Fields: []lf.Field{{Name: names[0], Type: tText}, {Name: names[1], Type: tText}}}}}
		p := &lf.Package{ID: "6b6b", Modules: []*lf.Module{m}}
		p.Index()
		typ := TypeOf("6b6b", "M", "R")
		key := func(s string) string { return string(appendJSONString(nil, s)) }
		raw := []byte(`{` + key(names[0]) + `:"a",` + key(names[1]) + `:"b"}`)
		want, err := CheckValue(raw, typ, "", PackageLookup(p))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		for range 2 { // the second with the data type resolved before
			c, root, err := newChecker(raw, typ, "", PackageLookup(p))
			if err != nil {
				t.Fatal(err)
			}
			c.build, c.count = true, true
			if _, err := c.value(0, typ, nil, root, 0); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			if plain := names[0] == "id"; c.pooled.lastNamesPlain != plain {
				t.Errorf("%s: lastNamesPlain %v, want %v", raw, c.pooled.lastNamesPlain, plain)
			}
			if c.n != len(want) {
				t.Errorf("%s: counted %d bytes, CheckValue prints %d (%s)", raw, c.n, len(want), want)
			}
			putChecker(c)
		}
		// Printed, by an appender that prints the type again (plainDT),
		// the names as they are or escaped; unlabelled fields take them
		// from the type.
		v, err := FromJSON(raw, typ, PackageLookup(p))
		if err != nil {
			t.Fatal(err)
		}
		a := NewJSONAppender(PackageLookup(p))
		unlabelled := Record{Fields: []RecordField{{Value: Text("a")}, {Value: Text("b")}}}
		for range 2 {
			for _, v := range []Value{v, unlabelled} {
				if got := a.AppendAs(nil, v, typ); string(got) != string(want) {
					t.Errorf("%s printed %s, want %s", raw, got, want)
				}
			}
		}
	}
}
