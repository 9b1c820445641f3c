package value

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TypeAs types v against the LF type t exactly as the JSON round trip
// FromJSONAt(AppendJSONAs(nil, v, t, lookup), t, path, lookup) does: the
// same Value (record ids, labels and declaration order, missing Optional
// fields as None, unknown fields printing null dropped, Numerics at their
// type's scale, TextMaps sorted by key, constructor ranks, Optional.Nested
// as t writes it) or the same *Error.
//
// A value whose parts have the Go kinds t asks for and that the round trip
// accepts unchanged is typed directly, without printing it; anything else
// (a kind the JSON form would re-read as another, a value the round trip
// rejects, GenMaps whose keys are not strictly in the LF order, values
// near the size, depth or work limits) is
// typed by the round trip itself, so that its errors are the round trip's.
func TypeAs(v Value, t lf.Type, path string, lookup func(pkgID string) *lf.Package) (Value, error) {
	return TypeAsAt(v, t, func() string { return path }, lookup)
}

// TypeAsAt is TypeAs with the path made only when the value is typed by
// the round trip (which names it in errors).
func TypeAsAt(v Value, t lf.Type, path func() string, lookup func(pkgID string) *lf.Package) (Value, error) {
	if tv, ok := typeAsDirect(v, t, lookup); ok {
		return tv, nil
	}
	return FromJSONAt(AppendJSONAs(nil, v, t, lookup), t, path(), lookup)
}

// typeAsDirect is TypeAs without the round trip: ok is false where the
// value is left to the round trip.
func typeAsDirect(v Value, t lf.Type, lookup func(pkgID string) *lf.Package) (Value, bool) {
	d := directTyper{c: checker{lookup: lookup, root: vpath{name: "$"}}}
	tv, ok := d.value(v, t, nil, 0)
	if !ok || d.size > maxValueBytes/2 {
		return nil, false
	}
	return tv, true
}

// directTyper types values directly (typeAsDirect), through a checker for
// its type resolution.
type directTyper struct {
	c checker
	// size bounds from above the length of the JSON the round trip would
	// print; a value past half of maxValueBytes (the most JSON the round
	// trip reads) is left to the round trip, so that its size refusals
	// stay the round trip's.
	size int
	// genMapWork bounds the round trip's GenMap work from above.
	genMapWork int
}

// directMaxDepth is the deepest the direct typer goes (well within the
// depth limits of the round trip's printer and checker).
const directMaxDepth = maxValueDepth / 2

// str accounts for a JSON string s and reports whether it survives the
// round trip (valid UTF-8).
func (d *directTyper) str(s string) bool {
	d.size += 6*len(s) + 2
	return utf8.ValidString(s)
}

func (d *directTyper) value(v Value, t lf.Type, env *tenv, depth int) (Value, bool) {
	if depth > directMaxDepth || v == nil {
		return nil, false
	}
	c := &d.c
	head, args, aenv, err := c.whnf(t, env, &c.root)
	if err != nil {
		return nil, false
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		if builtinArity(h.Builtin) != args.n {
			return nil, false
		}
		return d.builtin(v, h.Builtin, args, aenv, depth)
	case *lf.TCon:
		dt, id, err := c.dataTypeOf(h, &c.root)
		if err != nil || args.n != len(dt.Params) {
			return nil, false
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		d.size += 32
		switch dt.Variety {
		case lf.RecordVariety:
			if r, ok := v.(Record); ok {
				return d.record(r, id, dt, denv, depth)
			}
		case lf.VariantVariety:
			x, ok := v.(Variant)
			if !ok {
				return nil, false
			}
			fi := c.fieldIndex(dt, x.Constructor)
			if fi < 0 || !d.str(x.Constructor) {
				return nil, false
			}
			tv, ok := d.value(x.Value, dt.Fields[fi].Type, denv, depth+1)
			if !ok {
				return nil, false
			}
			return Variant{VariantID: id, Constructor: x.Constructor, Rank: fi, Value: tv}, true
		case lf.EnumVariety:
			x, ok := v.(Enum)
			if !ok {
				return nil, false
			}
			rank := slices.Index(dt.Constructors, x.Constructor)
			if rank < 0 || !d.str(x.Constructor) {
				return nil, false
			}
			return Enum{EnumID: id, Constructor: x.Constructor, Rank: rank}, true
		}
	}
	return nil, false
}

func (d *directTyper) builtin(v Value, b lf.BuiltinType, args targs, env *tenv, depth int) (Value, bool) {
	d.size += 8
	switch b {
	case lf.BuiltinUnit:
		if _, ok := v.(Unit); ok {
			return v, true
		}
	case lf.BuiltinBool:
		if _, ok := v.(Bool); ok {
			return v, true
		}
	case lf.BuiltinInt64:
		if _, ok := v.(Int64); ok {
			d.size += 24
			return v, true
		}
	case lf.BuiltinNumeric:
		x, ok := v.(Numeric)
		if !ok || !d.str(string(x)) {
			return nil, false
		}
		scale, err := d.c.scale(args.at(0), env, &d.c.root)
		if err != nil {
			return nil, false
		}
		out, kind, _ := canonicalNumeric(string(x), scale)
		if kind != numOK {
			return nil, false
		}
		d.size += len(out)
		return Numeric(out), true
	case lf.BuiltinText:
		if x, ok := v.(Text); ok && d.str(string(x)) {
			return v, true
		}
	case lf.BuiltinParty:
		if x, ok := v.(Party); ok && d.str(string(x)) && validParty(string(x)) == "" {
			return v, true
		}
	case lf.BuiltinContractID:
		if x, ok := v.(ContractID); ok && d.str(string(x)) {
			if msg, _ := validContractID(string(x)); msg == "" {
				return v, true
			}
		}
	case lf.BuiltinDate:
		if x, ok := v.(Date); ok {
			if y, _, _ := CivilFromDays(int64(x)); y >= 1 && y <= 9999 {
				d.size += 8
				return v, true
			}
		}
	case lf.BuiltinTimestamp:
		// Printed and read back, a Timestamp keeps its value within the
		// range the reader accepts.
		if x, ok := v.(Timestamp); ok && x >= MinTimestamp && x <= MaxTimestamp {
			d.size += 32
			return v, true
		}
	case lf.BuiltinOptional:
		x, ok := v.(Optional)
		if !ok {
			return nil, false
		}
		elem := args.at(0)
		_, _, nested := d.c.asOptional(elem, env)
		return d.optional(x, elem, env, nested, depth)
	case lf.BuiltinList:
		x, ok := v.(List)
		if !ok {
			return nil, false
		}
		out := make(List, len(x))
		for i, e := range x {
			tv, ok := d.value(e, args.at(0), env, depth+1)
			if !ok {
				return nil, false
			}
			out[i] = tv
		}
		return out, true
	case lf.BuiltinTextMap:
		x, ok := v.(TextMap)
		if !ok {
			return nil, false
		}
		out := make(TextMap, len(x))
		for i, e := range x {
			if !d.str(e.Key) {
				return nil, false
			}
			tv, ok := d.value(e.Value, args.at(0), env, depth+1)
			if !ok {
				return nil, false
			}
			out[i] = TextMapEntry{Key: e.Key, Value: tv}
		}
		// The JSON object is read back sorted by key; a duplicate key
		// fails there.
		slices.SortStableFunc(out, func(a, b TextMapEntry) int { return strings.Compare(a.Key, b.Key) })
		for k := 1; k < len(out); k++ {
			if out[k].Key == out[k-1].Key {
				return nil, false
			}
		}
		return out, true
	case lf.BuiltinGenMap:
		x, ok := v.(GenMap)
		if !ok {
			return nil, false
		}
		if len(x) == 0 {
			return GenMap{}, true
		}
		start := d.size
		out := make(GenMap, len(x))
		for i, e := range x {
			d.size += 8
			k, ok := d.value(e.Key, args.at(0), env, depth+1)
			if !ok {
				return nil, false
			}
			tv, ok := d.value(e.Value, args.at(1), env, depth+1)
			if !ok {
				return nil, false
			}
			// The round trip orders the keys in the LF order and keeps the
			// last of equal ones: keys already strictly in order are kept
			// as they are, any others are left to it.
			if i > 0 && Compare(out[i-1].Key, k) >= 0 {
				return nil, false
			}
			out[i] = GenMapEntry{Key: k, Value: tv}
		}
		// The round trip spends three times the map's canonical length
		// of a budget of at least 1<<20 (checkGenMap).
		d.genMapWork += 3 * (d.size - start)
		if d.genMapWork > 1<<19 {
			return nil, false
		}
		return out, true
	}
	return nil, false
}

// optional types an Optional elem, in nested mode (each level an array in
// JSON) or not (None is null, so that a Some printing null is read back as
// None: left to the round trip).
func (d *directTyper) optional(x Optional, elem lf.Type, env *tenv, nested bool, depth int) (Value, bool) {
	if !nested {
		if x.Value == nil {
			return Optional{}, true
		}
		tv, ok := d.value(x.Value, elem, env, depth+1)
		if !ok || printsNull(tv) {
			return nil, false
		}
		return Optional{Value: tv}, true
	}
	if x.Value == nil {
		return Optional{Nested: true}, true
	}
	var tv Value
	var ok bool
	if inner, ienv, isOpt := d.c.asOptional(elem, env); isOpt {
		io, isOptV := x.Value.(Optional)
		if !isOptV {
			return nil, false
		}
		tv, ok = d.optional(io, inner, ienv, true, depth+1)
	} else {
		tv, ok = d.value(x.Value, elem, env, depth+1)
	}
	if !ok {
		return nil, false
	}
	return Optional{Value: tv, Nested: true}, true
}

// printsNull reports whether AppendJSON prints v as null.
func printsNull(v Value) bool {
	for {
		switch x := v.(type) {
		case nil:
			return true
		case Optional:
			if x.Nested {
				return false
			}
			v = x.Value
		default:
			return false
		}
	}
}

// record types a record of data type dt: its fields are matched to dt's
// by label (an unlabelled field by position), in dt's order; a field of dt
// it lacks must be a (non-nested) Optional, None; a field dt lacks must
// print as null and is dropped.
func (d *directTyper) record(r Record, id *lf.TypeConID, dt *lf.DataType, env *tenv, depth int) (Value, bool) {
	c := &d.c
	fields := make([]RecordField, len(dt.Fields))
	var seen uint64 // fields set, for up to 64 (else a slice)
	var seenMore []bool
	if len(dt.Fields) > 64 {
		seenMore = make([]bool, len(dt.Fields))
	}
	var unknown []string
	for i, f := range r.Fields {
		label := f.Label
		fi := -1
		if i < len(dt.Fields) && (label == "" || label == dt.Fields[i].Name) {
			// Unlabelled, or labelled in dt's order.
			label, fi = dt.Fields[i].Name, i
		} else {
			fi = c.fieldIndex(dt, label)
		}
		if !d.str(label) {
			return nil, false
		}
		d.size += 4
		if fi < 0 {
			if !printsNull(f.Value) || slices.Contains(unknown, label) {
				return nil, false
			}
			unknown = append(unknown, label)
			continue
		}
		if seenMore != nil {
			if seenMore[fi] {
				return nil, false
			}
			seenMore[fi] = true
		} else {
			if seen&(1<<fi) != 0 {
				return nil, false
			}
			seen |= 1 << fi
		}
		tv, ok := d.value(f.Value, dt.Fields[fi].Type, env, depth+1)
		if !ok {
			return nil, false
		}
		fields[fi] = RecordField{Label: dt.Fields[fi].Name, Value: tv}
	}
	for fi := range fields {
		if fields[fi].Value != nil {
			continue
		}
		// Missing: read as an absent field, None if dt's field is an
		// Optional not written nested.
		head, args, aenv, err := c.whnf(dt.Fields[fi].Type, env, &c.root)
		if err != nil {
			return nil, false
		}
		if b, ok := head.(*lf.TBuiltin); !ok || b.Builtin != lf.BuiltinOptional || args.n != 1 {
			return nil, false
		}
		if _, _, nested := c.asOptional(args.at(0), aenv); nested {
			return nil, false
		}
		fields[fi] = RecordField{Label: dt.Fields[fi].Name, Value: Optional{}}
	}
	return Record{RecordID: id, Fields: fields}, true
}
