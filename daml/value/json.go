package value

import (
	"fmt"
	"strconv"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// FromJSON decodes the JSON value raw of Daml-LF type t into a typed
// value, applying exactly the rules and errors of CheckValue (errors are
// *Error, paths start with "$"). Data types are resolved through lookup.
//
// The result carries what the JSON encoding of the type says: record and
// variant type ids, record field labels, every record field in
// declaration order (a missing Optional field is None), the constructor
// ranks of variants and enums, Numerics in canonical form at their type's
// scale, TextMap entries sorted by key and GenMap entries sorted by the LF
// order with unique keys, and Optional.Nested where the type nests
// Optionals as written. AppendJSON of the result prints what CheckValue
// returns for raw.
func FromJSON(raw []byte, t lf.Type, lookup func(pkgID string) *lf.Package) (Value, error) {
	return FromJSONAt(raw, t, "", lookup)
}

// FromJSONAt is FromJSON with the path prefix naming raw in errors (as
// CheckValue's path: "createArguments"; "" stands for "$").
func FromJSONAt(raw []byte, t lf.Type, path string, lookup func(pkgID string) *lf.Package) (Value, error) {
	// One pass over raw: the checker of CheckValue builds the value as it
	// checks it, counting the canonical encoding (for its size limit)
	// rather than printing it.
	c, root, err := newChecker(raw, t, path, lookup)
	if err != nil {
		return nil, err
	}
	c.build, c.count = true, true
	v, err := c.value(0, t, nil, root, 0)
	putChecker(c)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// AppendJSON appends the JSON encoding of v to dst, as CheckValue prints
// it: for a value FromJSON returned, exactly CheckValue's canonical
// output. Unit is {}; Int64, Numeric (its text as is), Date, Timestamp,
// Text, Party and ContractID are strings; an Optional is null or its
// content, or, when Nested, a 0- or 1-element array; a List is an array, a
// TextMap an object and a GenMap an array of [key, value] pairs, in entry
// order; a record is an object of its labelled fields with the trailing
// fields that print as null left out; a variant is {"tag":…,"value":…}
// and an enum its constructor. A record with an unlabelled field has no
// such encoding: it prints as an array of its field values (which
// FromJSON rejects). A nil Value prints as null.
func AppendJSON(dst []byte, v Value) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case Unit:
		return append(dst, '{', '}')
	case Bool:
		return strconv.AppendBool(dst, bool(x))
	case Int64:
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(x), 10)
		return append(dst, '"')
	case Numeric:
		return appendJSONString(dst, string(x))
	case Date:
		y, m, d := CivilFromDays(int64(x))
		if y < 0 || y > 9999 {
			return fmt.Appendf(dst, `"%04d-%02d-%02d"`, y, m, d)
		}
		// fmt's %04d-%02d-%02d, without fmt (dates are common in values).
		return append(dst, '"', byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10),
			'-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10), '"')
	case Timestamp:
		dst = append(dst, '"')
		dst = appendTimestamp(dst, int64(x))
		return append(dst, '"')
	case Party:
		return appendJSONString(dst, string(x))
	case Text:
		return appendJSONString(dst, string(x))
	case ContractID:
		return appendJSONString(dst, string(x))
	case Optional:
		if !x.Nested {
			return AppendJSON(dst, x.Value)
		}
		dst = append(dst, '[')
		if x.Value != nil {
			dst = AppendJSON(dst, x.Value)
		}
		return append(dst, ']')
	case List:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, e)
		}
		return append(dst, ']')
	case TextMap:
		dst = append(dst, '{')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, e.Key)
			dst = append(dst, ':')
			dst = AppendJSON(dst, e.Value)
		}
		return append(dst, '}')
	case GenMap:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			dst = AppendJSON(dst, e.Key)
			dst = append(dst, ',')
			dst = AppendJSON(dst, e.Value)
			dst = append(dst, ']')
		}
		return append(dst, ']')
	case Record:
		for _, f := range x.Fields {
			if f.Label == "" {
				dst = append(dst, '[')
				for i, f := range x.Fields {
					if i > 0 {
						dst = append(dst, ',')
					}
					dst = AppendJSON(dst, f.Value)
				}
				return append(dst, ']')
			}
		}
		dst = append(dst, '{')
		keep := len(dst)
		for i, f := range x.Fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, f.Label)
			dst = append(dst, ':')
			vs := len(dst)
			dst = AppendJSON(dst, f.Value)
			if string(dst[vs:]) != "null" {
				keep = len(dst)
			}
		}
		return append(dst[:keep], '}')
	case Variant:
		dst = append(dst, `{"tag":`...)
		dst = appendJSONString(dst, x.Constructor)
		dst = append(dst, `,"value":`...)
		dst = AppendJSON(dst, x.Value)
		return append(dst, '}')
	case Enum:
		return appendJSONString(dst, x.Constructor)
	}
	return append(dst, "null"...)
}

// AppendJSONAs is AppendJSON guided by the LF type t of v, for values that
// do not carry what the JSON encoding takes from the type (values decoded
// from protobuf, or produced by the engine): Optionals nest as t writes
// them (as FromJSON sets Optional.Nested; v's flags are ignored), and a
// record's unlabelled fields take the names of t's fields by position.
// Data types are resolved through lookup. Where v does not match t (or t
// does not resolve) that part prints as AppendJSON prints it, so that
// checking the output against t (CheckValue) reports the mismatch.
func AppendJSONAs(dst []byte, v Value, t lf.Type, lookup func(pkgID string) *lf.Package) []byte {
	c := &checker{lookup: lookup, root: vpath{name: "$"}}
	return c.appendAs(dst, v, t, nil, 0)
}

// JSONAppender prints values as AppendJSONAs does, through one lookup,
// and keeps the data types it resolved for the next values: for printing
// the many values of one transaction. It is not safe for concurrent use.
type JSONAppender struct {
	c checker
}

// NewJSONAppender returns a JSONAppender resolving data types through
// lookup.
func NewJSONAppender(lookup func(pkgID string) *lf.Package) *JSONAppender {
	return &JSONAppender{c: checker{lookup: lookup, root: vpath{name: "$"}}}
}

// AppendAs appends v printed as AppendJSONAs(dst, v, t, lookup) prints
// it.
func (a *JSONAppender) AppendAs(dst []byte, v Value, t lf.Type) []byte {
	return a.c.appendAs(dst, v, t, nil, 0)
}

func (c *checker) appendAs(dst []byte, v Value, t lf.Type, env *tenv, depth int) []byte {
	switch v.(type) {
	case Optional, List, TextMap, GenMap, Record, Variant:
	default:
		// Only these kinds print after their type: the others print as
		// AppendJSON prints them whatever t is.
		return AppendJSON(dst, v)
	}
	if depth > maxCheckDepth {
		return AppendJSON(dst, v)
	}
	root := &c.root // error paths only: the errors are not returned
	head, args, aenv, err := c.whnf(t, env, root)
	if err != nil {
		return AppendJSON(dst, v)
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		switch {
		case h.Builtin == lf.BuiltinOptional && args.n == 1:
			if o, ok := v.(Optional); ok {
				elem := args.at(0)
				_, _, nested := c.asOptional(elem, aenv)
				return c.appendOptionalAs(dst, o, elem, aenv, nested, depth)
			}
		case h.Builtin == lf.BuiltinList && args.n == 1:
			if l, ok := v.(List); ok {
				dst = append(dst, '[')
				for i, e := range l {
					if i > 0 {
						dst = append(dst, ',')
					}
					dst = c.appendAs(dst, e, args.at(0), aenv, depth+1)
				}
				return append(dst, ']')
			}
		case h.Builtin == lf.BuiltinTextMap && args.n == 1:
			if m, ok := v.(TextMap); ok {
				dst = append(dst, '{')
				for i, e := range m {
					if i > 0 {
						dst = append(dst, ',')
					}
					dst = appendJSONString(dst, e.Key)
					dst = append(dst, ':')
					dst = c.appendAs(dst, e.Value, args.at(0), aenv, depth+1)
				}
				return append(dst, '}')
			}
		case h.Builtin == lf.BuiltinGenMap && args.n == 2:
			if m, ok := v.(GenMap); ok {
				dst = append(dst, '[')
				for i, e := range m {
					if i > 0 {
						dst = append(dst, ',')
					}
					dst = append(dst, '[')
					dst = c.appendAs(dst, e.Key, args.at(0), aenv, depth+1)
					dst = append(dst, ',')
					dst = c.appendAs(dst, e.Value, args.at(1), aenv, depth+1)
					dst = append(dst, ']')
				}
				return append(dst, ']')
			}
		}
	case *lf.TCon:
		dt, _, err := c.dataTypeOf(h, root)
		if err != nil || args.n != len(dt.Params) {
			break
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		switch x := v.(type) {
		case Record:
			if dt.Variety != lf.RecordVariety {
				break
			}
			return c.appendRecordAs(dst, x, dt, denv, depth)
		case Variant:
			fi := c.fieldIndex(dt, x.Constructor)
			if dt.Variety != lf.VariantVariety || fi < 0 {
				break
			}
			dst = append(dst, `{"tag":`...)
			dst = appendJSONString(dst, x.Constructor)
			dst = append(dst, `,"value":`...)
			dst = c.appendAs(dst, x.Value, dt.Fields[fi].Type, denv, depth+1)
			return append(dst, '}')
		}
	}
	return AppendJSON(dst, v)
}

// appendOptionalAs prints an Optional elem in nested mode (each level a
// 0- or 1-element array) or not (null is None).
func (c *checker) appendOptionalAs(dst []byte, o Optional, elem lf.Type, env *tenv, nested bool, depth int) []byte {
	if !nested {
		if o.Value == nil {
			return append(dst, "null"...)
		}
		return c.appendAs(dst, o.Value, elem, env, depth+1)
	}
	dst = append(dst, '[')
	if o.Value != nil {
		inner, ienv, ok := c.asOptional(elem, env)
		if io, isOpt := o.Value.(Optional); ok && isOpt {
			dst = c.appendOptionalAs(dst, io, inner, ienv, true, depth+1)
		} else {
			dst = c.appendAs(dst, o.Value, elem, env, depth+1)
		}
	}
	return append(dst, ']')
}

// appendRecordAs prints a record of data type dt: each field labelled by
// its own label or else by the name of dt's field at its position, read
// with the type of dt's field of that name; trailing fields printed as
// null are left out.
func (c *checker) appendRecordAs(dst []byte, r Record, dt *lf.DataType, env *tenv, depth int) []byte {
	if c.plainDT != dt {
		c.plainDT, c.plainNames = dt, namesPlain(dt)
	}
	dst = append(dst, '{')
	keep := len(dst)
	for i, f := range r.Fields {
		label := f.Label
		if label == "" && i < len(dt.Fields) {
			label = dt.Fields[i].Name
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		if c.plainNames && i < len(dt.Fields) && label == dt.Fields[i].Name {
			// A plain name is its JSON string's body.
			dst = append(dst, '"')
			dst = append(dst, label...)
			dst = append(dst, '"')
		} else {
			dst = appendJSONString(dst, label)
		}
		dst = append(dst, ':')
		vs := len(dst)
		switch f.Value.(type) {
		case Optional, List, TextMap, GenMap, Record, Variant:
			fi := -1
			if i < len(dt.Fields) && dt.Fields[i].Name == label {
				fi = i // labelled in dt's order, as the engine's records are
			} else {
				fi = c.fieldIndex(dt, label)
			}
			if fi >= 0 {
				dst = c.appendAs(dst, f.Value, dt.Fields[fi].Type, env, depth+1)
			} else {
				dst = AppendJSON(dst, f.Value)
			}
		default:
			// The other kinds print as AppendJSON prints them whatever
			// their type (appendAs), which is not looked up.
			dst = AppendJSON(dst, f.Value)
		}
		if string(dst[vs:]) != "null" {
			keep = len(dst)
		}
	}
	return append(dst[:keep], '}')
}
