package value

import "github.com/ledgernode/ledgernode/daml/lf"

// Clone returns a deep copy of v that shares no memory a caller can write
// with v: every slice (List, TextMap, GenMap, Record fields) and every
// type id pointer (RecordID, VariantID, EnumID) is new, so that changing
// the copy in place cannot change v, nor v the copy. Leaves (Text, Party,
// Numeric, …) are shared: Go strings and the values boxed in an
// interface cannot be changed in place. A type id pointer shared by
// several records of v is shared by their copies too (one new pointer
// per original), as FromJSON shares it. Pointer forms of the values
// (*Record, …) are copied as the values they point to.
//
// Clone lets a cache hand out values it keeps (see ledger's contract
// cache) without a caller being able to corrupt them.
func Clone(v Value) Value {
	var c cloner
	return c.value(v)
}

// cloner copies one value; ids maps each type id pointer met to its copy.
type cloner struct {
	ids []idCopy
}

type idCopy struct{ from, to *lf.TypeConID }

func (c *cloner) id(p *lf.TypeConID) *lf.TypeConID {
	if p == nil {
		return nil
	}
	for _, e := range c.ids {
		if e.from == p {
			return e.to
		}
	}
	q := new(lf.TypeConID)
	*q = *p
	c.ids = append(c.ids, idCopy{p, q})
	return q
}

func (c *cloner) value(v Value) Value {
	switch x := v.(type) {
	case Record:
		return c.record(x)
	case Variant:
		return Variant{VariantID: c.id(x.VariantID), Constructor: x.Constructor, Rank: x.Rank, Value: c.value(x.Value)}
	case Enum:
		return Enum{EnumID: c.id(x.EnumID), Constructor: x.Constructor, Rank: x.Rank}
	case Optional:
		if x.Value == nil || isLeaf(x.Value) {
			return v // the boxed Optional cannot be changed in place
		}
		return Optional{Value: c.value(x.Value), Nested: x.Nested}
	case List:
		if x == nil {
			return x
		}
		out := make(List, len(x))
		for i, e := range x {
			out[i] = c.value(e)
		}
		return out
	case TextMap:
		if x == nil {
			return x
		}
		out := make(TextMap, len(x))
		for i, e := range x {
			out[i] = TextMapEntry{Key: e.Key, Value: c.value(e.Value)}
		}
		return out
	case GenMap:
		if x == nil {
			return x
		}
		out := make(GenMap, len(x))
		for i, e := range x {
			out[i] = GenMapEntry{Key: c.value(e.Key), Value: c.value(e.Value)}
		}
		return out
	case *Record:
		return ptr(c.record(*x))
	case *Variant:
		return ptr(c.value(*x).(Variant))
	case *Enum:
		return ptr(c.value(*x).(Enum))
	case *Optional:
		return &Optional{Value: c.value(x.Value), Nested: x.Nested}
	case *List:
		return ptr(c.value(*x).(List))
	case *TextMap:
		return ptr(c.value(*x).(TextMap))
	case *GenMap:
		return ptr(c.value(*x).(GenMap))
	case *Unit:
		return ptr(*x)
	case *Bool:
		return ptr(*x)
	case *Int64:
		return ptr(*x)
	case *Numeric:
		return ptr(*x)
	case *Timestamp:
		return ptr(*x)
	case *Date:
		return ptr(*x)
	case *Party:
		return ptr(*x)
	case *Text:
		return ptr(*x)
	case *ContractID:
		return ptr(*x)
	}
	return v // nil or a leaf
}

func (c *cloner) record(r Record) Record {
	out := Record{RecordID: c.id(r.RecordID)}
	if r.Fields != nil {
		out.Fields = make([]RecordField, len(r.Fields))
		for i, f := range r.Fields {
			out.Fields[i] = RecordField{Label: f.Label, Value: c.value(f.Value)}
		}
	}
	return out
}

// isLeaf reports whether v is a value with no part that can be changed
// in place once boxed in an interface.
func isLeaf(v Value) bool {
	switch v.(type) {
	case Unit, Bool, Int64, Numeric, Timestamp, Date, Party, Text, ContractID:
		return true
	}
	return false
}

func ptr[T any](v T) *T { return &v }
