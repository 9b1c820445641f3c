package ledger

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/daml/value"
)

// Typing a Go caller's value goes through its JSON form (value.TypeValue),
// and the JSON encoding writes several kinds alike: a Text "1" reads as an
// Int64, a Text as a Party, a record as a TextMap. Canton's command
// preprocessor types a Ledger API value kind by kind, so a value whose
// kinds differ from the typed value's is refused here.

// kindMismatch compares a caller's value v with its typed form t: the path
// below v (".field", "[i]", ".value") of the first part whose kind differs,
// and the kinds there; ok when every part of v has its kind in t.
func kindMismatch(v, t value.Value) (path, got, want string, ok bool) {
	bad := func(p string) (string, string, string, bool) { return p, kindName(v), kindName(t), false }
	switch x := v.(type) {
	case value.Record:
		y, isRec := t.(value.Record)
		if !isRec {
			return bad("")
		}
		for i, f := range x.Fields {
			var tf *value.RecordField
			if f.Label == "" {
				if i < len(y.Fields) {
					tf = &y.Fields[i]
				}
			} else {
				for j := range y.Fields {
					if y.Fields[j].Label == f.Label {
						tf = &y.Fields[j]
						break
					}
				}
			}
			name := f.Label
			if name == "" {
				name = strconv.Itoa(i)
			}
			if tf == nil {
				return "." + name, kindName(f.Value), "no field", false
			}
			if p, g, w, ok := kindMismatch(f.Value, tf.Value); !ok {
				return "." + name + p, g, w, false
			}
		}
	case value.Variant:
		y, isVar := t.(value.Variant)
		if !isVar || y.Constructor != x.Constructor {
			return bad("")
		}
		if p, g, w, ok := kindMismatch(x.Value, y.Value); !ok {
			return "." + x.Constructor + p, g, w, false
		}
	case value.Enum:
		if y, isEnum := t.(value.Enum); !isEnum || y.Constructor != x.Constructor {
			return bad("")
		}
	case value.Optional:
		y, isOpt := t.(value.Optional)
		if !isOpt || (x.Value == nil) != (y.Value == nil) {
			return bad("")
		}
		if x.Value != nil {
			return kindMismatch(x.Value, y.Value)
		}
	case value.List:
		y, isList := t.(value.List)
		if !isList || len(y) != len(x) {
			return bad("")
		}
		for i := range x {
			if p, g, w, ok := kindMismatch(x[i], y[i]); !ok {
				return "[" + strconv.Itoa(i) + "]" + p, g, w, false
			}
		}
	case value.TextMap:
		y, isMap := t.(value.TextMap)
		if !isMap || len(y) != len(x) {
			return bad("")
		}
		byKey := make(map[string]value.Value, len(y))
		for _, e := range y {
			byKey[e.Key] = e.Value
		}
		for _, e := range x {
			if p, g, w, ok := kindMismatch(e.Value, byKey[e.Key]); !ok {
				return "[" + strconv.Quote(e.Key) + "]" + p, g, w, false
			}
		}
	case value.GenMap:
		// The typed map is sorted by key: each entry must have one of
		// the same kinds.
		y, isMap := t.(value.GenMap)
		if !isMap || len(y) != len(x) {
			return bad("")
		}
	entries:
		for i, e := range x {
			for _, te := range y {
				_, _, _, kok := kindMismatch(e.Key, te.Key)
				_, _, _, vok := kindMismatch(e.Value, te.Value)
				if kok && vok {
					continue entries
				}
			}
			return "[" + strconv.Itoa(i) + "]", kindName(e.Value), "another kind", false
		}
	default:
		// kindName's comparison, without formatting the names: the
		// kinds are the values' dynamic types (nil for nothing).
		if reflect.TypeOf(v) != reflect.TypeOf(t) {
			return bad("")
		}
	}
	return "", "", "", true
}

// kindName names a value's kind (its daml/value type: "Int64", "Text").
func kindName(v value.Value) string {
	if v == nil {
		return "nothing"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", v), "value.")
}
