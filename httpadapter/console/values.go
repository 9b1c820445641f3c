package console

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Val is a Daml value as a page draws it: a tree the templates walk
// (html/template escapes every string of it).
type Val struct {
	// Kind selects the drawing: text, party, cid, num, bool, unit, time,
	// date, record, list, none, some, variant, enum, map, raw.
	Kind string
	// Text is a scalar's text, a variant's or enum's constructor, a
	// record's type name.
	Text string
	// Fields are a record's fields or a map's entries (Key is the label).
	Fields []FieldVal
	// Items are a list's elements, a Some's or a variant's argument.
	Items []Val
}

// FieldVal is a labelled value.
type FieldVal struct {
	// Key is a record field's label or a map entry's text key.
	Key string
	// KeyV is a GenMap entry's key, drawn as a value (Key is then empty).
	KeyV *Val
	// V is the value.
	V Val
}

// maxRenderItems bounds the elements of one list or map drawn on a page.
const maxRenderItems = 200

// renderJSON draws a Daml JSON value of type t: typed through the LF
// type when it decodes against it, as plain JSON otherwise.
func renderJSON(raw json.RawMessage, t lf.Type, lookup func(string) *lf.Package) Val {
	if t != nil {
		if v, err := value.FromJSON(raw, t, lookup); err == nil {
			return renderValue(v, t, lookup)
		}
	}
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return Val{Kind: "raw", Text: string(raw)}
	}
	return renderAny(x)
}

// renderValue draws a typed value; t (when known) tells Party from Text.
func renderValue(v value.Value, t lf.Type, lookup func(string) *lf.Package) Val {
	switch x := v.(type) {
	case value.Unit:
		return Val{Kind: "unit", Text: "()"}
	case value.Bool:
		return Val{Kind: "bool", Text: strconv.FormatBool(bool(x))}
	case value.Int64:
		return Val{Kind: "num", Text: strconv.FormatInt(int64(x), 10)}
	case value.Numeric:
		return Val{Kind: "num", Text: string(x)}
	case value.Text:
		return Val{Kind: "text", Text: string(x)}
	case value.Party:
		return Val{Kind: "party", Text: string(x)}
	case value.ContractID:
		return Val{Kind: "cid", Text: string(x)}
	case value.Timestamp:
		return Val{Kind: "time", Text: time.UnixMicro(int64(x)).UTC().Format(time.RFC3339Nano)}
	case value.Date:
		y, m, d := value.CivilFromDays(int64(x))
		return Val{Kind: "date", Text: fmt.Sprintf("%04d-%02d-%02d", y, m, d)}
	case value.Optional:
		if x.Value == nil {
			return Val{Kind: "none", Text: "None"}
		}
		return Val{Kind: "some", Items: []Val{renderValue(x.Value, elemType(t, 0), lookup)}}
	case value.List:
		out := Val{Kind: "list"}
		et := elemType(t, 0)
		for i, e := range x {
			if i == maxRenderItems {
				out.Text = fmt.Sprintf("… %d more", len(x)-i)
				break
			}
			out.Items = append(out.Items, renderValue(e, et, lookup))
		}
		return out
	case value.TextMap:
		out := Val{Kind: "map"}
		et := elemType(t, 0)
		for i, e := range x {
			if i == maxRenderItems {
				out.Text = fmt.Sprintf("… %d more", len(x)-i)
				break
			}
			out.Fields = append(out.Fields, FieldVal{Key: e.Key, V: renderValue(e.Value, et, lookup)})
		}
		return out
	case value.GenMap:
		out := Val{Kind: "map"}
		kt, vt := elemType(t, 0), elemType(t, 1)
		for i, e := range x {
			if i == maxRenderItems {
				out.Text = fmt.Sprintf("… %d more", len(x)-i)
				break
			}
			k := renderValue(e.Key, kt, lookup)
			out.Fields = append(out.Fields, FieldVal{KeyV: &k, V: renderValue(e.Value, vt, lookup)})
		}
		return out
	case value.Record:
		out := Val{Kind: "record"}
		if x.RecordID != nil {
			out.Text = x.RecordID.Name
		}
		fields := fieldTypes(t, lookup)
		for i, f := range x.Fields {
			var ft lf.Type
			if i < len(fields) {
				ft = fields[i].Type
			}
			out.Fields = append(out.Fields, FieldVal{Key: f.Label, V: renderValue(f.Value, ft, lookup)})
		}
		return out
	case value.Variant:
		out := Val{Kind: "variant", Text: x.Constructor}
		var at lf.Type
		for _, f := range fieldTypes(t, lookup) {
			if f.Name == x.Constructor {
				at = f.Type
			}
		}
		if x.Value != nil {
			if _, unit := x.Value.(value.Unit); !unit {
				out.Items = []Val{renderValue(x.Value, at, lookup)}
			}
		}
		return out
	case value.Enum:
		return Val{Kind: "enum", Text: x.Constructor}
	}
	return Val{Kind: "raw", Text: string(value.AppendJSON(nil, v))}
}

// renderAny draws plain JSON (a value whose type is not known).
func renderAny(x any) Val {
	switch y := x.(type) {
	case nil:
		return Val{Kind: "none", Text: "null"}
	case bool:
		return Val{Kind: "bool", Text: strconv.FormatBool(y)}
	case float64:
		return Val{Kind: "num", Text: strconv.FormatFloat(y, 'f', -1, 64)}
	case string:
		return Val{Kind: "text", Text: y}
	case []any:
		out := Val{Kind: "list"}
		for i, e := range y {
			if i == maxRenderItems {
				out.Text = fmt.Sprintf("… %d more", len(y)-i)
				break
			}
			out.Items = append(out.Items, renderAny(e))
		}
		return out
	case map[string]any:
		out := Val{Kind: "record"}
		for _, k := range sortedKeys(y) {
			out.Fields = append(out.Fields, FieldVal{Key: k, V: renderAny(y[k])})
		}
		return out
	}
	return Val{Kind: "raw", Text: fmt.Sprint(x)}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// elemType is the i-th type argument of an applied builtin type (List a,
// Optional a, TextMap a, GenMap k v), or nil.
func elemType(t lf.Type, i int) lf.Type {
	if t == nil {
		return nil
	}
	_, args := lf.SplitApp(t)
	if i < len(args) {
		return args[i]
	}
	return nil
}

// fieldTypes returns the fields (or constructors) of a record or variant
// type, its type parameters substituted.
func fieldTypes(t lf.Type, lookup func(string) *lf.Package) []lf.Field {
	if t == nil {
		return nil
	}
	head, args := lf.SplitApp(t)
	tc, ok := head.(*lf.TCon)
	if !ok {
		return nil
	}
	p := lookup(tc.ID.PackageID)
	if p == nil {
		return nil
	}
	d := p.DataType(tc.ID.Module, tc.ID.Name)
	if d == nil {
		return nil
	}
	if len(d.Params) == 0 || len(args) != len(d.Params) {
		if len(d.Params) > 0 {
			return nil
		}
		return d.Fields
	}
	sub := map[string]lf.Type{}
	for i, prm := range d.Params {
		sub[prm.Name] = args[i]
	}
	out := make([]lf.Field, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = lf.Field{Name: f.Name, Type: substitute(f.Type, sub)}
	}
	return out
}

// substitute replaces type variables.
func substitute(t lf.Type, sub map[string]lf.Type) lf.Type {
	switch x := t.(type) {
	case *lf.TVar:
		if r, ok := sub[x.Name]; ok {
			return r
		}
	case *lf.TApp:
		return &lf.TApp{Fun: substitute(x.Fun, sub), Arg: substitute(x.Arg, sub)}
	}
	return t
}

// formField is an input of a form generated from an LF type.
type formField struct {
	// Name is the input's name ("f.path.to.field").
	Name  string
	Label string
	Type  string
	// Input is text, party, checkbox, select, json or group (a nested
	// record).
	Input    string
	Value    string
	Options  []string
	Optional bool
	Children []formField
}

// builtinOf returns the builtin head of a type and its arguments.
func builtinOf(t lf.Type) (lf.BuiltinType, []lf.Type, bool) {
	head, args := lf.SplitApp(t)
	b, ok := head.(*lf.TBuiltin)
	if !ok {
		return 0, nil, false
	}
	return b.Builtin, args, true
}

// formFields generates the inputs of a record type's fields.
func formFields(prefix string, t lf.Type, lookup func(string) *lf.Package, depth int) []formField {
	var out []formField
	for _, f := range fieldTypes(t, lookup) {
		out = append(out, fieldInput(prefix+"."+f.Name, f.Name, f.Type, lookup, depth))
	}
	return out
}

// fieldInput is the input of one value of type t.
func fieldInput(name, label string, t lf.Type, lookup func(string) *lf.Package, depth int) formField {
	ff := formField{Name: name, Label: label, Type: typeText(t), Input: "json"}
	if b, args, ok := builtinOf(t); ok {
		switch b {
		case lf.BuiltinText, lf.BuiltinInt64, lf.BuiltinNumeric, lf.BuiltinContractID, lf.BuiltinDate, lf.BuiltinTimestamp:
			ff.Input = "text"
		case lf.BuiltinParty:
			ff.Input = "party"
		case lf.BuiltinBool:
			ff.Input = "checkbox"
		case lf.BuiltinUnit:
			ff.Input = "none"
		case lf.BuiltinOptional:
			if len(args) == 1 {
				inner := fieldInput(name, label, args[0], lookup, depth)
				if inner.Input == "text" || inner.Input == "party" {
					inner.Optional, inner.Type = true, ff.Type
					return inner
				}
			}
			ff.Value = "null"
		case lf.BuiltinList:
			ff.Value = "[]"
		case lf.BuiltinTextMap:
			ff.Value = "{}"
		case lf.BuiltinGenMap:
			ff.Value = "[]"
		}
		return ff
	}
	if tc, ok := t.(*lf.TCon); ok && depth < 4 {
		if p := lookup(tc.ID.PackageID); p != nil {
			if d := p.DataType(tc.ID.Module, tc.ID.Name); d != nil && len(d.Params) == 0 {
				switch {
				case d.Variety == lf.EnumVariety:
					ff.Input, ff.Options = "select", d.Constructors
				case d.Variety == lf.RecordVariety:
					ff.Input = "group"
					ff.Children = formFields(name, t, lookup, depth+1)
				}
			}
		}
	}
	return ff
}

// formJSON assembles the Daml JSON of a record type from a form's
// values, as formFields named its inputs; the node then checks it
// against the type.
func formJSON(prefix string, t lf.Type, form func(string) string, has func(string) bool, lookup func(string) *lf.Package) (json.RawMessage, error) {
	fields := formFields(prefix, t, lookup, 0)
	obj, err := groupJSON(fields, form, has)
	if err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

func groupJSON(fields []formField, form func(string) string, has func(string) bool) (map[string]json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	for _, f := range fields {
		raw, err := fieldJSON(f, form, has)
		if err != nil {
			return nil, err
		}
		if raw != nil {
			obj[f.Label] = raw
		}
	}
	return obj, nil
}

func fieldJSON(f formField, form func(string) string, has func(string) bool) (json.RawMessage, error) {
	v := form(f.Name)
	switch f.Input {
	case "none":
		return json.RawMessage("{}"), nil
	case "group":
		obj, err := groupJSON(f.Children, form, has)
		if err != nil {
			return nil, err
		}
		return json.Marshal(obj)
	case "checkbox":
		return json.Marshal(has(f.Name) && v != "")
	case "text", "party", "select":
		if f.Optional && v == "" {
			return json.RawMessage("null"), nil
		}
		return json.Marshal(v)
	}
	v = strings.TrimSpace(v)
	if v == "" {
		v = f.Value
	}
	if v == "" {
		return nil, nil
	}
	if !json.Valid([]byte(v)) {
		return nil, fmt.Errorf("field %s: not valid JSON (Daml JSON of %s expected)", strings.TrimPrefix(f.Name, "f."), f.Type)
	}
	return json.RawMessage(v), nil
}
