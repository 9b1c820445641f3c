package engine

import (
	"sync/atomic"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
)

// Value is a runtime value of the machine: one of Unit, Bool, Int64,
// Numeric, Text, Timestamp, Date, Party, ContractID, *List, Optional,
// *Map, *Record, *Variant, *Enum, *Struct, *Any, TypeRep, *PAP and Token.
// Values are immutable once built and may be shared between goroutines.
type Value interface {
	isValue()
}

// Unit is the value ().
type Unit struct{}

// Bool is a Bool value.
type Bool bool

// Int64 is an Int64 value.
type Int64 int64

// Numeric is a Numeric value (a daml/numeric.Numeric: 38 digits, scale
// 0..37).
type Numeric struct {
	numeric.Numeric
}

// Text is a Text value (UTF-8).
type Text string

// Timestamp is a Timestamp value: microseconds since the epoch, UTC.
type Timestamp int64

// Date is a Date value: days since the epoch.
type Date int32

// Party is a Party value.
type Party string

// ContractID is a ContractId value: the contract id in its hex form.
type ContractID string

// List is a non-empty list cell; the empty list is a nil *List. Lists are
// persistent: a cell is never modified after it is built.
type List struct {
	// Head is the first element.
	Head Value
	// Tail is the rest of the list (nil when empty).
	Tail *List
}

// Optional is an Optional value: None when Value is nil, Some Value
// otherwise.
type Optional struct {
	// Value is the payload of Some, or nil for None.
	Value Value
}

// Map is a TextMap (Text is true; keys are Text values) or a GenMap. Keys
// are sorted ascending by the generic order (Compare) and unique; Values
// are parallel to Keys.
type Map struct {
	// Text reports a TextMap.
	Text bool
	// Keys are the sorted keys.
	Keys []Value
	// Values are the values, in the order of Keys.
	Values []Value
}

// RecordType describes a record type: its id and field names in
// declaration order. It is shared by all records of the type.
type RecordType struct {
	// ID identifies the type.
	ID lf.TypeConID
	// Fields are the field names in declaration order.
	Fields []string
}

// Record is a record value; Fields are positional, in declaration order.
type Record struct {
	// Type is the record's type.
	Type *RecordType
	// Fields are the field values.
	Fields []Value
}

// Variant is a variant value. Rank is the constructor's position in the
// data type's definition.
type Variant struct {
	// ID identifies the variant type.
	ID lf.TypeConID
	// Con is the constructor's name.
	Con string
	// Rank is the constructor's position.
	Rank int
	// Value is the constructor's argument.
	Value Value
}

// Enum is an enum value.
type Enum struct {
	// ID identifies the enum type.
	ID lf.TypeConID
	// Con is the constructor's name.
	Con string
	// Rank is the constructor's position.
	Rank int
}

// Struct is a struct value; Names are sorted and Values parallel to them.
type Struct struct {
	// Names are the field names, sorted.
	Names []string
	// Values are the field values.
	Values []Value
}

// Any is an Any or AnyException value, or an interface value (then Type
// is the template's type constructor and Value the template record).
type Any struct {
	// Type is the type of Value (a bare type constructor in stable LF).
	Type lf.Type
	// Value is the wrapped value.
	Value Value
}

// TypeRep is a TypeRep value.
type TypeRep struct {
	// Type is the represented type.
	Type lf.Type
}

// PAP is a function value: a closure or a builtin with the arguments it
// has received so far and its arity. Update values are PAPs waiting for
// the Token.
type PAP struct {
	fn    callable
	args  []Value
	arity int
}

// Token is the internal argument that runs an update.
type Token struct{}

func (Unit) isValue()       {}
func (Bool) isValue()       {}
func (Int64) isValue()      {}
func (Numeric) isValue()    {}
func (Text) isValue()       {}
func (Timestamp) isValue()  {}
func (Date) isValue()       {}
func (Party) isValue()      {}
func (ContractID) isValue() {}
func (*List) isValue()      {}
func (Optional) isValue()   {}
func (*Map) isValue()       {}
func (*Record) isValue()    {}
func (*Variant) isValue()   {}
func (*Enum) isValue()      {}
func (*Struct) isValue()    {}
func (*Any) isValue()       {}
func (TypeRep) isValue()    {}
func (*PAP) isValue()       {}
func (Token) isValue()      {}

// None is the Optional value None.
var None = Optional{}

// Some returns the Optional value Some v.
func Some(v Value) Optional { return Optional{Value: v} }

// ListOf builds a list of the given elements, first element first (its
// cells are one allocation).
func ListOf(vs ...Value) *List { return listOnto(vs, nil) }

// listOnto returns the list of vs followed by tail (shared), the cells
// for vs allocated at once.
func listOnto(vs []Value, tail *List) *List {
	if len(vs) == 0 {
		return tail
	}
	cells := newCells(len(vs), tail)
	for i, v := range vs {
		cells[i].Head = v
	}
	return &cells[0]
}

// partyLists are a few singleton lists of a party, [p]: what a
// template's signatories and observers usually are (toParties of one
// party field), built at every create. Values are immutable, so one list
// serves every [p] of its party, on every engine; a slot holds the last
// one made for the parties that fall in it.
var partyLists [16]atomic.Pointer[List]

// partyList returns [v] for v, a Party: a kept list (partyLists) when
// its slot holds one of the same party, else a new one, which it keeps.
func partyList(v Value, p Party) *List {
	if p == "" {
		return &List{Head: v}
	}
	slot := &partyLists[(len(p)+int(p[0])+int(p[len(p)-1]))%len(partyLists)]
	if l := slot.Load(); l != nil && l.Head.(Party) == p {
		return l
	}
	l := &List{Head: v}
	slot.Store(l)
	return l
}

// newCells returns n > 0 list cells in one allocation, each linked to the
// next and the last to tail: the list from &cells[0] once the caller has
// set their heads (values are immutable once shared: set them first).
func newCells(n int, tail *List) []List {
	cells := make([]List, n)
	for i := range n - 1 {
		cells[i].Tail = &cells[i+1]
	}
	cells[n-1].Tail = tail
	return cells
}

// Slice returns the elements of l, first element first, in a slice of
// its own allocated once (nil for the empty list).
func (l *List) Slice() []Value {
	if l == nil {
		return nil
	}
	out := make([]Value, 0, l.Len())
	for ; l != nil; l = l.Tail {
		out = append(out, l.Head)
	}
	return out
}

// Len returns the number of elements of l.
func (l *List) Len() int {
	n := 0
	for ; l != nil; l = l.Tail {
		n++
	}
	return n
}

// Arity returns the number of arguments p still needs.
func (p *PAP) Arity() int { return p.arity - len(p.args) }

// Field returns the value of the named field, or nil if r has no such
// field.
func (r *Record) Field(name string) Value {
	for i, f := range r.Type.Fields {
		if f == name {
			return r.Fields[i]
		}
	}
	return nil
}
