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
//
// The result shares with v the parts of v that already are what the round
// trip gives (as most of an engine's values are: records labelled in
// order with their type ids, ranks set), v itself when all of it is:
// neither must be changed in place afterwards.
func TypeAs(v Value, t lf.Type, path string, lookup func(pkgID string) *lf.Package) (Value, error) {
	return TypeAsAt(v, t, func() string { return path }, lookup)
}

// TypeAs is value.TypeAs resolving data types through the appender's
// lookup and caches (kept for the next values): for typing the many
// values of one transaction.
func (a *JSONAppender) TypeAs(v Value, t lf.Type, path string) (Value, error) {
	return a.TypeAsAt(v, t, func() string { return path })
}

// TypeAsAt is value.TypeAsAt resolving data types as a.TypeAs does.
func (a *JSONAppender) TypeAsAt(v Value, t lf.Type, path func() string) (Value, error) {
	if tv, ok := typeAsDirectWith(&a.c, v, t); ok {
		return tv, nil
	}
	return FromJSONAt(a.AppendAs(nil, v, t), t, path(), a.c.lookup)
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
	return typeAsDirectWith(&checker{lookup: lookup, root: vpath{name: "$"}}, v, t)
}

// typeAsDirectWith is typeAsDirect resolving types through c (and its
// caches).
func typeAsDirectWith(c *checker, v Value, t lf.Type) (Value, bool) {
	d := directTyper{c: c}
	tv, _, ok := d.value(v, t, nil, 0)
	if !ok || d.size > maxValueBytes/2 {
		return nil, false
	}
	return tv, true
}

// directTyper types values directly (typeAsDirect), through a checker for
// its type resolution.
type directTyper struct {
	c *checker
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

// The typing functions return the typed value, whether it is v itself
// (same: v already is what the round trip gives, as the engine's values
// mostly are, so that nothing is copied) and ok. A value returned the
// same may carry its own pointers to type ids where the round trip's
// carry the checker's: they are equal.

func (d *directTyper) value(v Value, t lf.Type, env *tenv, depth int) (Value, bool, bool) {
	if depth > directMaxDepth || v == nil {
		return nil, false, false
	}
	c := d.c
	head, args, aenv, err := c.whnf(t, env, &c.root)
	if err != nil {
		return nil, false, false
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		if builtinArity(h.Builtin) != args.n {
			return nil, false, false
		}
		return d.builtin(v, h.Builtin, args, aenv, depth)
	case *lf.TCon:
		dt, id, err := c.dataTypeOf(h, &c.root)
		if err != nil || args.n != len(dt.Params) {
			return nil, false, false
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		d.size += 32
		switch dt.Variety {
		case lf.RecordVariety:
			if r, ok := v.(Record); ok {
				tv, same, ok := d.record(r, id, dt, denv, depth)
				if same {
					return v, true, true // not boxed again
				}
				return tv, false, ok
			}
		case lf.VariantVariety:
			x, ok := v.(Variant)
			if !ok {
				return nil, false, false
			}
			fi := c.fieldIndex(dt, x.Constructor)
			if fi < 0 || !d.str(x.Constructor) {
				return nil, false, false
			}
			tv, same, ok := d.value(x.Value, dt.Fields[fi].Type, denv, depth+1)
			if !ok {
				return nil, false, false
			}
			if same && x.Rank == fi && sameID(x.VariantID, id) {
				return v, true, true
			}
			return Variant{VariantID: id, Constructor: x.Constructor, Rank: fi, Value: tv}, false, true
		case lf.EnumVariety:
			x, ok := v.(Enum)
			if !ok {
				return nil, false, false
			}
			rank := slices.Index(dt.Constructors, x.Constructor)
			if rank < 0 || !d.str(x.Constructor) {
				return nil, false, false
			}
			if x.Rank == rank && sameID(x.EnumID, id) {
				return v, true, true
			}
			return Enum{EnumID: id, Constructor: x.Constructor, Rank: rank}, false, true
		}
	}
	return nil, false, false
}

// sameID reports whether a value's type id is id.
func sameID(have, id *lf.TypeConID) bool {
	return have == id || have != nil && *have == *id
}

func (d *directTyper) builtin(v Value, b lf.BuiltinType, args targs, env *tenv, depth int) (Value, bool, bool) {
	d.size += 8
	switch b {
	case lf.BuiltinUnit:
		if _, ok := v.(Unit); ok {
			return v, true, true
		}
	case lf.BuiltinBool:
		if _, ok := v.(Bool); ok {
			return v, true, true
		}
	case lf.BuiltinInt64:
		if _, ok := v.(Int64); ok {
			d.size += 24
			return v, true, true
		}
	case lf.BuiltinNumeric:
		x, ok := v.(Numeric)
		if !ok || !d.str(string(x)) {
			return nil, false, false
		}
		scale, err := d.c.scale(args.at(0), env, &d.c.root)
		if err != nil {
			return nil, false, false
		}
		out, kind, _ := canonicalNumeric(string(x), scale)
		if kind != numOK {
			return nil, false, false
		}
		d.size += len(out)
		if out == string(x) {
			return v, true, true
		}
		return Numeric(out), false, true
	case lf.BuiltinText:
		if x, ok := v.(Text); ok && d.str(string(x)) {
			return v, true, true
		}
	case lf.BuiltinParty:
		if x, ok := v.(Party); ok && d.str(string(x)) && validParty(string(x)) == "" {
			return v, true, true
		}
	case lf.BuiltinContractID:
		if x, ok := v.(ContractID); ok && d.str(string(x)) {
			if msg, _ := validContractID(string(x)); msg == "" {
				return v, true, true
			}
		}
	case lf.BuiltinDate:
		if x, ok := v.(Date); ok {
			if y, _, _ := CivilFromDays(int64(x)); y >= 1 && y <= 9999 {
				d.size += 8
				return v, true, true
			}
		}
	case lf.BuiltinTimestamp:
		// Printed and read back, a Timestamp keeps its value within the
		// range the reader accepts.
		if x, ok := v.(Timestamp); ok && x >= MinTimestamp && x <= MaxTimestamp {
			d.size += 32
			return v, true, true
		}
	case lf.BuiltinOptional:
		x, ok := v.(Optional)
		if !ok {
			return nil, false, false
		}
		elem := args.at(0)
		_, _, nested := d.c.asOptional(elem, env)
		return d.optional(v, x, elem, env, nested, depth)
	case lf.BuiltinList:
		x, ok := v.(List)
		if !ok {
			return nil, false, false
		}
		// The round trip reads an empty list back as a non-nil one.
		var out List // nil while x's elements are kept
		if x == nil {
			out = List{}
		}
		for i, e := range x {
			tv, same, ok := d.value(e, args.at(0), env, depth+1)
			if !ok {
				return nil, false, false
			}
			if !same && out == nil {
				out = make(List, len(x))
				copy(out, x[:i])
			}
			if out != nil {
				out[i] = tv
			}
		}
		if out == nil {
			return v, true, true
		}
		return out, false, true
	case lf.BuiltinTextMap:
		x, ok := v.(TextMap)
		if !ok {
			return nil, false, false
		}
		var out TextMap // nil while x's entries are kept
		if x == nil {
			out = TextMap{}
		}
		for i, e := range x {
			if !d.str(e.Key) {
				return nil, false, false
			}
			tv, same, ok := d.value(e.Value, args.at(0), env, depth+1)
			if !ok {
				return nil, false, false
			}
			// The JSON object is read back sorted by key; x is kept only
			// if its keys are strictly in order.
			if out == nil && (!same || i > 0 && x[i-1].Key >= e.Key) {
				out = make(TextMap, len(x))
				copy(out, x[:i])
			}
			if out != nil {
				out[i] = TextMapEntry{Key: e.Key, Value: tv}
			}
		}
		if out == nil {
			return v, true, true
		}
		slices.SortStableFunc(out, func(a, b TextMapEntry) int { return strings.Compare(a.Key, b.Key) })
		// A duplicate key fails the round trip.
		for k := 1; k < len(out); k++ {
			if out[k].Key == out[k-1].Key {
				return nil, false, false
			}
		}
		return out, false, true
	case lf.BuiltinGenMap:
		x, ok := v.(GenMap)
		if !ok {
			return nil, false, false
		}
		if len(x) == 0 {
			if x != nil {
				return v, true, true
			}
			return GenMap{}, false, true
		}
		start := d.size
		var out GenMap // nil while x's entries are kept
		for i, e := range x {
			d.size += 8
			k, ksame, ok := d.value(e.Key, args.at(0), env, depth+1)
			if !ok {
				return nil, false, false
			}
			tv, vsame, ok := d.value(e.Value, args.at(1), env, depth+1)
			if !ok {
				return nil, false, false
			}
			// The round trip orders the keys in the LF order and keeps the
			// last of equal ones: keys already strictly in order are kept
			// as they are, any others are left to it.
			prev := x
			if out != nil {
				prev = out
			}
			if i > 0 && Compare(prev[i-1].Key, k) >= 0 {
				return nil, false, false
			}
			if out == nil && !(ksame && vsame) {
				out = make(GenMap, len(x))
				copy(out, x[:i])
			}
			if out != nil {
				out[i] = GenMapEntry{Key: k, Value: tv}
			}
		}
		// The round trip spends three times the map's canonical length
		// of a budget of at least 1<<20 (checkGenMap).
		d.genMapWork += 3 * (d.size - start)
		if d.genMapWork > 1<<19 {
			return nil, false, false
		}
		if out == nil {
			return v, true, true
		}
		return out, false, true
	}
	return nil, false, false
}

// optional types an Optional elem, in nested mode (each level an array in
// JSON) or not (None is null, so that a Some printing null is read back as
// None: left to the round trip). v is x as a Value (returned when same).
func (d *directTyper) optional(v Value, x Optional, elem lf.Type, env *tenv, nested bool, depth int) (Value, bool, bool) {
	if !nested {
		if x.Value == nil {
			return Optional{}, !x.Nested, true
		}
		tv, same, ok := d.value(x.Value, elem, env, depth+1)
		if !ok || printsNull(tv) {
			return nil, false, false
		}
		if same && !x.Nested {
			return v, true, true
		}
		return Optional{Value: tv}, false, true
	}
	if x.Value == nil {
		return Optional{Nested: true}, x.Nested, true
	}
	var tv Value
	var same, ok bool
	if inner, ienv, isOpt := d.c.asOptional(elem, env); isOpt {
		io, isOptV := x.Value.(Optional)
		if !isOptV {
			return nil, false, false
		}
		tv, same, ok = d.optional(x.Value, io, inner, ienv, true, depth+1)
	} else {
		tv, same, ok = d.value(x.Value, elem, env, depth+1)
	}
	if !ok {
		return nil, false, false
	}
	if same && x.Nested {
		return v, true, true
	}
	return Optional{Value: tv, Nested: true}, false, true
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
func (d *directTyper) record(r Record, id *lf.TypeConID, dt *lf.DataType, env *tenv, depth int) (Value, bool, bool) {
	if sameID(r.RecordID, id) && labelledInOrder(r, dt) {
		return d.recordInOrder(r, id, dt, env, depth)
	}
	c := d.c
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
			return nil, false, false
		}
		d.size += 4
		if fi < 0 {
			if !printsNull(f.Value) || slices.Contains(unknown, label) {
				return nil, false, false
			}
			unknown = append(unknown, label)
			continue
		}
		if seenMore != nil {
			if seenMore[fi] {
				return nil, false, false
			}
			seenMore[fi] = true
		} else {
			if seen&(1<<fi) != 0 {
				return nil, false, false
			}
			seen |= 1 << fi
		}
		tv, _, ok := d.value(f.Value, dt.Fields[fi].Type, env, depth+1)
		if !ok {
			return nil, false, false
		}
		fields[fi] = RecordField{Label: dt.Fields[fi].Name, Value: tv}
	}
	if !d.missingFields(fields, dt, env) {
		return nil, false, false
	}
	return Record{RecordID: id, Fields: fields}, false, true
}

// labelledInOrder reports whether every field of r is labelled with the
// name of dt's field at its position (as the engine's records are, which
// may lack trailing fields).
func labelledInOrder(r Record, dt *lf.DataType) bool {
	if len(r.Fields) > len(dt.Fields) {
		return false
	}
	for i, f := range r.Fields {
		if f.Label == "" || f.Label != dt.Fields[i].Name {
			return false
		}
	}
	return true
}

// recordInOrder is record for a record of type id labelledInOrder: it is
// kept as it is when it has all of dt's fields, each kept as it is.
func (d *directTyper) recordInOrder(r Record, id *lf.TypeConID, dt *lf.DataType, env *tenv, depth int) (Value, bool, bool) {
	var fields []RecordField // nil while r's fields are kept
	for i, f := range r.Fields {
		if !d.str(f.Label) {
			return nil, false, false
		}
		d.size += 4
		tv, same, ok := d.value(f.Value, dt.Fields[i].Type, env, depth+1)
		if !ok {
			return nil, false, false
		}
		if !same && fields == nil {
			fields = make([]RecordField, len(dt.Fields))
			copy(fields, r.Fields[:i])
		}
		if fields != nil {
			fields[i] = RecordField{Label: f.Label, Value: tv}
		}
	}
	if fields == nil {
		if len(r.Fields) == len(dt.Fields) && r.Fields != nil {
			return nil, true, true // the caller returns r as it was boxed
		}
		fields = make([]RecordField, len(dt.Fields))
		copy(fields, r.Fields)
	}
	if !d.missingFields(fields, dt, env) {
		return nil, false, false
	}
	return Record{RecordID: id, Fields: fields}, false, true
}

// missingFields sets the fields of dt that fields lacks (a nil Value):
// read as absent fields, each None if dt's field is an Optional not
// written nested; ok is false for any other.
func (d *directTyper) missingFields(fields []RecordField, dt *lf.DataType, env *tenv) bool {
	c := d.c
	for fi := range fields {
		if fields[fi].Value != nil {
			continue
		}
		head, args, aenv, err := c.whnf(dt.Fields[fi].Type, env, &c.root)
		if err != nil {
			return false
		}
		if b, ok := head.(*lf.TBuiltin); !ok || b.Builtin != lf.BuiltinOptional || args.n != 1 {
			return false
		}
		if _, _, nested := c.asOptional(args.at(0), aenv); nested {
			return false
		}
		fields[fi] = RecordField{Label: dt.Fields[fi].Name, Value: Optional{}}
	}
	return true
}
