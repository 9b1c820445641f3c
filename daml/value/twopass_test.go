package value

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// fromJSONTwoPass is FromJSONAt as it was before the one-pass checker:
// CheckValue prints the canonical encoding of raw, which is tokenized
// again and built into a Value. The tests pin FromJSONAt to it (same
// Value, same error) on the value tests' inputs and in the fuzz target.
func fromJSONTwoPass(raw []byte, t lf.Type, path string, lookup func(pkgID string) *lf.Package) (Value, error) {
	canon, err := CheckValue(raw, t, path, lookup)
	if err != nil {
		return nil, err
	}
	// The canonical encoding is valid JSON; building from it needs no
	// checks beyond those of the type.
	tp, serr := tokenize(canon)
	if serr != nil {
		return nil, newError(KindType, &vpath{name: path}, "canonical value does not parse: %s", serr.msg)
	}
	c := &checker{tp: tp, lookup: lookup}
	if path == "" {
		path = "$"
	}
	return c.buildCanonical(0, t, nil, &vpath{name: path}, 0)
}

// buildCanonical turns canonical value i (-1: an omitted record field) of type t
// read in env into a Value.
func (c *checker) buildCanonical(i int, t lf.Type, env *tenv, p *vpath, depth int) (Value, error) {
	tp := c.tp
	if depth > maxCheckDepth {
		return nil, c.invalid(p, "the value is nested too deeply")
	}
	head, args, aenv, err := c.whnf(t, env, p)
	if err != nil {
		return nil, err
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		switch h.Builtin {
		case lf.BuiltinUnit:
			return Unit{}, nil
		case lf.BuiltinBool:
			return Bool(tp.kind(i) == tkTrue), nil
		case lf.BuiltinInt64:
			n, ok := parseInt64(tp.str(i))
			if !ok {
				break
			}
			return Int64(n), nil
		case lf.BuiltinNumeric:
			return Numeric(tp.str(i)), nil
		case lf.BuiltinText:
			return Text(tp.str(i)), nil
		case lf.BuiltinParty:
			return Party(tp.str(i)), nil
		case lf.BuiltinContractID:
			return ContractID(tp.str(i)), nil
		case lf.BuiltinDate:
			y, m, d, _, ok := parseISODate(tp.str(i))
			if !ok {
				break
			}
			return Date(DaysFromCivil(y, m, d)), nil
		case lf.BuiltinTimestamp:
			micros, _, ok := parseTimestamp(tp.str(i))
			if !ok {
				break
			}
			return Timestamp(micros), nil
		case lf.BuiltinOptional:
			elem := args.at(0)
			_, _, nested := c.asOptional(elem, aenv)
			return c.buildCanonicalOptional(i, elem, aenv, nested, p, depth)
		case lf.BuiltinList:
			out := List{}
			ep := &vpath{parent: p, kind: 'i'}
			for e := i + 1; e < tp.next(i); e = tp.next(e) {
				v, err := c.buildCanonical(e, args.at(0), aenv, ep, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
				ep.index++
			}
			return out, nil
		case lf.BuiltinTextMap:
			out := TextMap{}
			kp := &vpath{parent: p, kind: 'k'}
			for k := i + 1; k < tp.next(i); k = tp.next(k + 1) {
				kp.name = tp.str(k)
				v, err := c.buildCanonical(k+1, args.at(0), aenv, kp, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, TextMapEntry{Key: kp.name, Value: v})
			}
			return out, nil
		case lf.BuiltinGenMap:
			out := GenMap{}
			ep := &vpath{parent: p, kind: 'i'}
			for e := i + 1; e < tp.next(i); e = tp.next(e) {
				k, err := c.buildCanonical(e+1, args.at(0), aenv, ep, depth+1)
				if err != nil {
					return nil, err
				}
				v, err := c.buildCanonical(tp.next(e+1), args.at(1), aenv, ep, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, GenMapEntry{Key: k, Value: v})
				ep.index++
			}
			return out, nil
		}
	case *lf.TCon:
		dt, err := c.dataType(h.ID, p)
		if err != nil {
			return nil, err
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		id := h.ID
		switch dt.Variety {
		case lf.RecordVariety:
			out := Record{RecordID: &id, Fields: make([]RecordField, len(dt.Fields))}
			k := i + 1 // canonical records list the fields in order
			fp := &vpath{parent: p, kind: 'f'}
			for fi, f := range dt.Fields {
				vi := -1
				if k < tp.next(i) {
					vi, k = k+1, tp.next(k+1)
				}
				fp.name = f.Name
				v, err := c.buildCanonical(vi, f.Type, denv, fp, depth+1)
				if err != nil {
					return nil, err
				}
				out.Fields[fi] = RecordField{Label: f.Name, Value: v}
			}
			return out, nil
		case lf.VariantVariety:
			tag := tp.str(member(tp, i, "tag"))
			fi := c.fieldIndex(dt, tag)
			if fi < 0 {
				break
			}
			v, err := c.buildCanonical(member(tp, i, "value"), dt.Fields[fi].Type, denv, &vpath{parent: p, kind: 't', name: tag}, depth+1)
			if err != nil {
				return nil, err
			}
			return Variant{VariantID: &id, Constructor: tag, Rank: fi, Value: v}, nil
		case lf.EnumVariety:
			con := tp.str(i)
			for r, name := range dt.Constructors {
				if name == con {
					return Enum{EnumID: &id, Constructor: con, Rank: r}, nil
				}
			}
		}
	}
	return nil, c.internal(p, "canonical value does not match type %s", t)
}

// buildCanonicalOptional is buildCanonical for an Optional elem, in nested mode (each level
// a 0- or 1-element array) or not (null is None).
func (c *checker) buildCanonicalOptional(i int, elem lf.Type, env *tenv, nested bool, p *vpath, depth int) (Value, error) {
	tp := c.tp
	if !nested {
		if i < 0 || tp.kind(i) == tkNull {
			return Optional{}, nil
		}
		v, err := c.buildCanonical(i, elem, env, p, depth+1)
		return Optional{Value: v}, err
	}
	if i < 0 || tp.next(i) == i+1 {
		return Optional{Nested: true}, nil
	}
	ip := &vpath{parent: p, kind: 'i'}
	var v Value
	var err error
	if inner, ienv, ok := c.asOptional(elem, env); ok {
		v, err = c.buildCanonicalOptional(i+1, inner, ienv, true, ip, depth+1)
	} else {
		v, err = c.buildCanonical(i+1, elem, env, ip, depth+1)
	}
	return Optional{Value: v, Nested: true}, err
}

// checkOnePass checks that FromJSONAt and fromJSONTwoPass agree on raw:
// the same Value, or the same *Error (kind, path and message); and that
// the canonical length FromJSONAt's checker counted is the length of
// CheckValue's output.
func checkOnePass(t testing.TB, raw []byte, typ lf.Type, path string, lookup func(string) *lf.Package) {
	t.Helper()
	v1, err1 := FromJSONAt(raw, typ, path, lookup)
	v2, err2 := fromJSONTwoPass(raw, typ, path, lookup)
	if d := cmp.Diff(err2, err1); d != "" {
		t.Fatalf("FromJSONAt(%.200q) error differs from the two-pass route (-two-pass +one-pass):\n%s", raw, d)
	}
	if d := cmp.Diff(v2, v1); d != "" {
		t.Fatalf("FromJSONAt(%.200q) value differs from the two-pass route (-two-pass +one-pass):\n%s", raw, d)
	}
	if err1 != nil {
		return
	}
	canon, err := CheckValue(raw, typ, path, lookup)
	if err != nil {
		t.Fatalf("CheckValue(%.200q) fails where FromJSONAt succeeds: %v", raw, err)
	}
	c, root, err := newChecker(raw, typ, path, lookup)
	if err != nil {
		t.Fatal(err)
	}
	c.build, c.count = true, true
	if _, err := c.value(0, typ, nil, root, 0); err != nil {
		t.Fatal(err)
	}
	if c.size() != len(canon) || len(c.out) != 0 {
		t.Fatalf("counted canonical size of %.200q is %d (%d bytes left printed), CheckValue printed %d bytes: %s", raw, c.size(), len(c.out), len(canon), canon)
	}
}
