package engine

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// translate converts a contract argument from one version of its package
// to another (as Speedy's speedy/ValueTranslator.scala
// unsafeTranslateValue does for a stored contract), guided by the type ids
// the values carry: records, variants and enums of package from become the
// types of the same module and name in package to. A record gains the
// target's extra trailing fields as None (upgrades may only add Optional
// fields) and may lose trailing fields only when they are None; a variant
// or enum constructor must exist in the target. Values of other packages
// are walked but keep their types.
func (e *Engine) translate(v Value, from, to string) (Value, *Error) {
	remap := func(id lf.TypeConID) lf.TypeConID {
		if id.PackageID == from {
			id.PackageID = to
		}
		return id
	}
	switch x := v.(type) {
	case *Record:
		fields := make([]Value, len(x.Fields))
		for i, f := range x.Fields {
			tf, err := e.translate(f, from, to)
			if err != nil {
				return nil, err
			}
			fields[i] = tf
		}
		if x.Type.ID.PackageID != from {
			return &Record{Type: x.Type, Fields: fields}, nil
		}
		rt, err := e.recordType(remap(x.Type.ID))
		if err != nil {
			return nil, errorf(ErrUpgradeTranslationFailed, "%s", err.Message)
		}
		for len(fields) > len(rt.Fields) {
			if o, ok := fields[len(fields)-1].(Optional); !ok || o.Value != nil {
				return nil, errorf(ErrUpgradeTranslationFailed, "record %s has a field the target type %s lacks", x.Type.ID, rt.ID)
			}
			fields = fields[:len(fields)-1]
		}
		for i := range fields {
			if rt.Fields[i] != x.Type.Fields[i] {
				return nil, errorf(ErrUpgradeTranslationFailed, "field %d of %s is %s in the target type", i, x.Type.ID, rt.Fields[i])
			}
		}
		for len(fields) < len(rt.Fields) {
			fields = append(fields, None)
		}
		return &Record{Type: rt, Fields: fields}, nil
	case *Variant:
		p, err := e.translate(x.Value, from, to)
		if err != nil {
			return nil, err
		}
		if x.ID.PackageID != from {
			return &Variant{ID: x.ID, Con: x.Con, Rank: x.Rank, Value: p}, nil
		}
		id := remap(x.ID)
		dt, derr := e.dataType(id)
		if derr != nil {
			return nil, errorf(ErrUpgradeTranslationFailed, "%s", derr.Message)
		}
		rank := slices.IndexFunc(dt.Fields, func(f lf.Field) bool { return f.Name == x.Con })
		if rank < 0 {
			return nil, errorf(ErrUpgradeTranslationFailed, "constructor %s is not in %s", x.Con, id)
		}
		return &Variant{ID: id, Con: x.Con, Rank: rank, Value: p}, nil
	case *Enum:
		if x.ID.PackageID != from {
			return x, nil
		}
		id := remap(x.ID)
		dt, derr := e.dataType(id)
		if derr != nil {
			return nil, errorf(ErrUpgradeTranslationFailed, "%s", derr.Message)
		}
		rank := slices.Index(dt.Constructors, x.Con)
		if rank < 0 {
			return nil, errorf(ErrUpgradeTranslationFailed, "constructor %s is not in %s", x.Con, id)
		}
		return &Enum{ID: id, Con: x.Con, Rank: rank}, nil
	case *List:
		var out []Value
		for ; x != nil; x = x.Tail {
			h, err := e.translate(x.Head, from, to)
			if err != nil {
				return nil, err
			}
			out = append(out, h)
		}
		return ListOf(out...), nil
	case Optional:
		if x.Value == nil {
			return x, nil
		}
		p, err := e.translate(x.Value, from, to)
		if err != nil {
			return nil, err
		}
		return Some(p), nil
	case *Map:
		out := &Map{Text: x.Text, Keys: make([]Value, len(x.Keys)), Values: make([]Value, len(x.Values))}
		for i := range x.Keys {
			k, err := e.translate(x.Keys[i], from, to)
			if err != nil {
				return nil, err
			}
			val, err := e.translate(x.Values[i], from, to)
			if err != nil {
				return nil, err
			}
			out.Keys[i], out.Values[i] = k, val
		}
		return out, nil
	}
	return v, nil
}
