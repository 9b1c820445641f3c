package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/word"
)

// MaxNesting is the maximal nesting of a serializable value (Canton's
// value/Value.scala, MAXIMUM_NESTING).
const MaxNesting = 100

// CheckSerializable checks what normalizing a value checks (Speedy's
// SValue.toNormalizedValue): the nesting is at most MaxNesting (every
// record, variant, list, optional or map level adds one) and every text is
// well-formed (no NUL, valid UTF-8). Functions, structs, Any and TypeRep
// are not serializable.
func CheckSerializable(v Value) *Error {
	_, err := toLedgerValue(v)
	return err
}

// toLedgerValue converts a runtime value that leaves the machine (a create
// argument, a choice argument or result) into its normalized ledger form
// (SValue.toNormalizedValue), with the checks of CheckSerializable
// (ErrValueNesting, ErrMalformedText; ErrInternal for a value that is not
// serializable). Unlike Speedy's normalized values it keeps what the
// Ledger API renders: records, variants and enums carry their type ids,
// record fields their labels, variants and enums their constructor ranks.
// As in Speedy, the trailing fields of a record that are None are dropped.
// Maps keep their (sorted) order.
func toLedgerValue(v Value) (value.Value, *Error) { return toLedger(v, 0) }

func toLedger(v Value, depth int) (value.Value, *Error) {
	if depth > MaxNesting {
		return nil, errorf(ErrValueNesting, "Value exceeds maximum nesting value of %d", MaxNesting)
	}
	switch x := v.(type) {
	case Unit:
		return value.Unit{}, nil
	case Bool:
		return value.Bool(x), nil
	case Int64:
		return value.Int64(x), nil
	case Numeric:
		return value.Numeric(x.ScaledString()), nil
	case Text:
		if err := checkText(string(x)); err != nil {
			return nil, err
		}
		return value.Text(x), nil
	case Timestamp:
		return value.Timestamp(x), nil
	case Date:
		return value.Date(x), nil
	case Party:
		return value.Party(x), nil
	case ContractID:
		return value.ContractID(x), nil
	case *Record:
		n := len(x.Fields)
		for n > 0 {
			if o, ok := x.Fields[n-1].(Optional); !ok || o.Value != nil {
				break
			}
			n--
		}
		var fields []value.RecordField
		if n > 0 {
			fields = make([]value.RecordField, n)
		}
		for i, f := range x.Fields[:n] {
			lv, err := toLedger(f, depth+1)
			if err != nil {
				return nil, err
			}
			fields[i] = value.RecordField{Label: x.Type.Fields[i], Value: lv}
		}
		return value.Record{RecordID: &x.Type.ID, Fields: fields}, nil
	case *Variant:
		lv, err := toLedger(x.Value, depth+1)
		if err != nil {
			return nil, err
		}
		return value.Variant{VariantID: &x.ID, Constructor: x.Con, Rank: x.Rank, Value: lv}, nil
	case *Enum:
		return value.Enum{EnumID: &x.ID, Constructor: x.Con, Rank: x.Rank}, nil
	case *List:
		var out value.List
		for ; x != nil; x = x.Tail {
			lv, err := toLedger(x.Head, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, lv)
		}
		return out, nil
	case Optional:
		if x.Value == nil {
			return value.Optional{}, nil
		}
		lv, err := toLedger(x.Value, depth+1)
		if err != nil {
			return nil, err
		}
		return value.Optional{Value: lv}, nil
	case *Map:
		if x.Text {
			out := make(value.TextMap, len(x.Keys))
			for i, k := range x.Keys {
				kt, ok := k.(Text)
				if !ok {
					return nil, crash("TextMap key of type %T", k)
				}
				if err := checkText(string(kt)); err != nil {
					return nil, err
				}
				lv, err := toLedger(x.Values[i], depth+1)
				if err != nil {
					return nil, err
				}
				out[i] = value.TextMapEntry{Key: string(kt), Value: lv}
			}
			return out, nil
		}
		out := make(value.GenMap, len(x.Keys))
		for i, k := range x.Keys {
			lk, err := toLedger(k, depth+1)
			if err != nil {
				return nil, err
			}
			lv, err := toLedger(x.Values[i], depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = value.GenMapEntry{Key: lk, Value: lv}
		}
		return out, nil
	}
	return nil, crash("value of type %T is not serializable", v)
}

// IsLedgerValueOf reports whether lv is exactly what ToValue gives for v
// (reflect.DeepEqual, nil and empty lists and maps told apart): it walks
// both as toLedger walks v, without building anything, and is false where
// toLedger would fail.
func IsLedgerValueOf(v Value, lv value.Value) bool { return isLedger(v, lv, 0) }

func isLedger(v Value, lv value.Value, depth int) bool {
	if depth > MaxNesting {
		return false
	}
	switch x := v.(type) {
	// A comparison with an interface value is false for another
	// dynamic type (and compares no non-comparable value).
	case Unit:
		return lv == value.Unit{}
	case Bool:
		return lv == value.Bool(x)
	case Int64:
		return lv == value.Int64(x)
	case Numeric:
		y, ok := lv.(value.Numeric)
		return ok && string(y) == x.ScaledString()
	case Text:
		y, ok := lv.(value.Text)
		return ok && string(y) == string(x) && checkText(string(x)) == nil
	case Timestamp:
		return lv == value.Timestamp(x)
	case Date:
		return lv == value.Date(x)
	case Party:
		return lv == value.Party(x)
	case ContractID:
		return lv == value.ContractID(x)
	case *Record:
		y, ok := lv.(value.Record)
		if !ok || y.RecordID == nil || *y.RecordID != x.Type.ID {
			return false
		}
		n := len(x.Fields)
		for n > 0 {
			if o, ok := x.Fields[n-1].(Optional); !ok || o.Value != nil {
				break
			}
			n--
		}
		// toLedger leaves the fields of a record without any nil.
		if len(y.Fields) != n || (n == 0 && y.Fields != nil) {
			return false
		}
		for i, f := range y.Fields {
			if f.Label != x.Type.Fields[i] || !isLedger(x.Fields[i], f.Value, depth+1) {
				return false
			}
		}
		return true
	case *Variant:
		y, ok := lv.(value.Variant)
		return ok && y.VariantID != nil && *y.VariantID == x.ID && y.Constructor == x.Con && y.Rank == x.Rank && isLedger(x.Value, y.Value, depth+1)
	case *Enum:
		y, ok := lv.(value.Enum)
		return ok && y.EnumID != nil && *y.EnumID == x.ID && y.Constructor == x.Con && y.Rank == x.Rank
	case *List:
		y, ok := lv.(value.List)
		if !ok {
			return false
		}
		// toLedger appends: an empty list is nil.
		if x == nil {
			return y == nil
		}
		i := 0
		for ; x != nil; x = x.Tail {
			if i == len(y) || !isLedger(x.Head, y[i], depth+1) {
				return false
			}
			i++
		}
		return i == len(y)
	case Optional:
		y, ok := lv.(value.Optional)
		if !ok || y.Nested {
			return false
		}
		if x.Value == nil || y.Value == nil {
			return x.Value == nil && y.Value == nil
		}
		return isLedger(x.Value, y.Value, depth+1)
	case *Map:
		// toLedger makes its maps: an empty map is not nil.
		if x.Text {
			y, ok := lv.(value.TextMap)
			if !ok || y == nil || len(y) != len(x.Keys) {
				return false
			}
			for i, k := range x.Keys {
				kt, ok := k.(Text)
				if !ok || y[i].Key != string(kt) || checkText(string(kt)) != nil || !isLedger(x.Values[i], y[i].Value, depth+1) {
					return false
				}
			}
			return true
		}
		y, ok := lv.(value.GenMap)
		if !ok || y == nil || len(y) != len(x.Keys) {
			return false
		}
		for i, k := range x.Keys {
			if !isLedger(k, y[i].Key, depth+1) || !isLedger(x.Values[i], y[i].Value, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// verifyLedgerValues makes every create check the normalized argument it
// came with (CreateCommandOf) against toLedgerValue, and IsLedgerValueOf
// against the value toLedgerValue gives (set by the package's tests).
var verifyLedgerValues bool

// checkLedgerValue panics unless lv (nil: none came) is what
// toLedgerValue gives for arg and IsLedgerValueOf accepts that value.
func checkLedgerValue(arg Value, lv value.Value) {
	want, err := toLedgerValue(arg)
	if err != nil {
		if lv != nil {
			panic(fmt.Sprintf("engine: create argument %#v kept as %#v, which toLedgerValue refuses: %v", arg, lv, err))
		}
		return
	}
	if lv != nil && !reflect.DeepEqual(lv, want) {
		panic(fmt.Sprintf("engine: create argument %#v kept as %#v, toLedgerValue gives %#v", arg, lv, want))
	}
	if !IsLedgerValueOf(arg, want) {
		panic(fmt.Sprintf("engine: IsLedgerValueOf refuses the normalized value %#v of %#v", want, arg))
	}
}

func checkText(s string) *Error {
	if asciiWithoutNUL(s) { // most texts: one pass, no error to tell
		return nil
	}
	if strings.IndexByte(s, 0) >= 0 {
		return errorf(ErrMalformedText, "Text is malformed: Text contains null character")
	}
	if !utf8.ValidString(s) {
		return errorf(ErrMalformedText, "Text is malformed: invalid UTF-8")
	}
	return nil
}

// asciiWithoutNUL reports whether s is ASCII without a NUL byte, eight
// bytes at a time: a byte of a word has its high bit set, or is zero
// (subtracting one from each byte borrows into its high bit only then).
func asciiWithoutNUL(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8] // one bounds check, so the eight loads become one
		w := word.Load64(b)
		if (w|(w-ones))&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fromLedgerValue converts a ledger value, as toLedgerValue made it, back
// into a runtime value: records, variants and enums must carry their type
// ids, which give the runtime types (record field lists, constructor
// ranks) from the engine's packages. A record may lack trailing fields
// (they become None, as normalization dropped them); record labels, where
// present, must match the type's fields by position. Maps are taken in
// the order given (the ledger keeps the engine's sorted order). A value
// that does not fit its types is ErrInternal.
func (e *Engine) fromLedgerValue(v value.Value) (Value, *Error) { return e.fromLedger(v, 0, nil) }

// fromLedger is fromLedgerValue of v at nesting depth; when kept is not
// nil, it also clears *kept unless v is exactly what toLedgerValue gives
// for the result (IsLedgerValueOf): each case checks what isLedger would
// check of the value it builds, in the same walk.
func (e *Engine) fromLedger(v value.Value, depth int, kept *bool) (Value, *Error) {
	if kept != nil && depth > MaxNesting {
		*kept = false
	}
	switch x := v.(type) {
	case value.Unit:
		return Unit{}, nil
	case value.Bool:
		return Bool(x), nil
	case value.Int64:
		return Int64(x), nil
	case value.Numeric:
		n, err := numeric.Parse(string(x))
		if err != nil {
			return nil, crash("numeric %q: %v", string(x), err)
		}
		if kept != nil && *kept && n.ScaledString() != string(x) {
			*kept = false
		}
		return Numeric{n}, nil
	case value.Text:
		if kept != nil && *kept && checkText(string(x)) != nil {
			*kept = false
		}
		return Text(x), nil
	case value.Timestamp:
		return Timestamp(x), nil
	case value.Date:
		return Date(x), nil
	case value.Party:
		return e.party(string(x)), nil
	case value.ContractID:
		return ContractID(x), nil
	case value.Record:
		if x.RecordID == nil {
			return nil, crash("record without a type id")
		}
		rt, err := e.recordType(*x.RecordID)
		if err != nil {
			return nil, err
		}
		if len(x.Fields) > len(rt.Fields) {
			return nil, crash("record %s has %d fields, its type %d", rt.ID, len(x.Fields), len(rt.Fields))
		}
		// labeled: keptFields found every field labeled as its type's,
		// which spares the loop's comparisons.
		labeled := false
		if kept != nil && *kept {
			if labeled = keptFields(rt, x); !labeled {
				*kept = false
			}
		}
		r := newRecord(rt)
		fields := r.Fields
		for i := range fields {
			if i >= len(x.Fields) {
				fields[i] = None
				continue
			}
			f := &x.Fields[i]
			if !labeled && f.Label != "" && f.Label != rt.Fields[i] {
				return nil, crash("field %d of record %s is %s, not %s", i, rt.ID, rt.Fields[i], f.Label)
			}
			rv, err := e.fromLedger(f.Value, depth+1, kept)
			if err != nil {
				return nil, err
			}
			fields[i] = rv
		}
		return r, nil
	case value.Variant:
		if x.VariantID == nil {
			return nil, crash("variant without a type id")
		}
		dt, err := e.dataType(*x.VariantID)
		if err != nil {
			return nil, err
		}
		rank := -1
		if dt.Variety == lf.VariantVariety {
			rank = slices.IndexFunc(dt.Fields, func(f lf.Field) bool { return f.Name == x.Constructor })
		}
		if rank < 0 {
			return nil, crash("variant %s has no constructor %s", *x.VariantID, x.Constructor)
		}
		if kept != nil && x.Rank != rank {
			*kept = false
		}
		rv, err := e.fromLedger(x.Value, depth+1, kept)
		if err != nil {
			return nil, err
		}
		return &Variant{ID: *x.VariantID, Con: x.Constructor, Rank: rank, Value: rv}, nil
	case value.Enum:
		if x.EnumID == nil {
			return nil, crash("enum without a type id")
		}
		dt, err := e.dataType(*x.EnumID)
		if err != nil {
			return nil, err
		}
		rank := -1
		if dt.Variety == lf.EnumVariety {
			rank = slices.Index(dt.Constructors, x.Constructor)
		}
		if rank < 0 {
			return nil, crash("enum %s has no constructor %s", *x.EnumID, x.Constructor)
		}
		if kept != nil && x.Rank != rank {
			*kept = false
		}
		return &Enum{ID: *x.EnumID, Con: x.Constructor, Rank: rank}, nil
	case value.List:
		// ToValue appends: an empty list is nil.
		if kept != nil && len(x) == 0 && x != nil {
			*kept = false
		}
		vs := make([]Value, len(x))
		for i, el := range x {
			rv, err := e.fromLedger(el, depth+1, kept)
			if err != nil {
				return nil, err
			}
			vs[i] = rv
		}
		return ListOf(vs...), nil
	case value.Optional:
		if kept != nil && x.Nested {
			*kept = false
		}
		if x.Value == nil {
			return None, nil
		}
		rv, err := e.fromLedger(x.Value, depth+1, kept)
		if err != nil {
			return nil, err
		}
		return Some(rv), nil
	case value.TextMap:
		// ToValue makes its maps: an empty map is not nil.
		if kept != nil && x == nil {
			*kept = false
		}
		out := &Map{Text: true, Keys: make([]Value, len(x)), Values: make([]Value, len(x))}
		for i, en := range x {
			if kept != nil && *kept && checkText(en.Key) != nil {
				*kept = false
			}
			rv, err := e.fromLedger(en.Value, depth+1, kept)
			if err != nil {
				return nil, err
			}
			out.Keys[i], out.Values[i] = Text(en.Key), rv
		}
		return out, nil
	case value.GenMap:
		if kept != nil && x == nil {
			*kept = false
		}
		out := &Map{Keys: make([]Value, len(x)), Values: make([]Value, len(x))}
		for i, en := range x {
			rk, err := e.fromLedger(en.Key, depth+1, kept)
			if err != nil {
				return nil, err
			}
			rv, err := e.fromLedger(en.Value, depth+1, kept)
			if err != nil {
				return nil, err
			}
			out.Keys[i], out.Values[i] = rk, rv
		}
		return out, nil
	}
	return nil, crash("ledger value of type %T", v)
}

// keptFields reports whether the record x of type rt has what isLedger
// wants of the record fromLedger makes of it, its fields' values aside:
// the type's id, every label, and no trailing None (which toLedger drops),
// an empty record holding no field list.
func keptFields(rt *RecordType, x value.Record) bool {
	if rt.ID != *x.RecordID {
		return false
	}
	n := len(x.Fields)
	if n == 0 {
		return x.Fields == nil
	}
	if o, ok := x.Fields[n-1].Value.(value.Optional); ok && o.Value == nil {
		return false
	}
	for i, f := range x.Fields {
		if f.Label != rt.Fields[i] {
			return false
		}
	}
	return true
}

// party returns Party(s), the engine's value of s when it has one
// (Engine.parties), else a new one, which it keeps in s's slot.
func (e *Engine) party(s string) Value {
	if s == "" {
		return Party(s)
	}
	slot := &e.parties[(len(s)+int(s[0]))%len(e.parties)]
	if k, ok := slot.Load().(keptParty); ok && string(k.v.(Party)) == s {
		return k.v // k's Party, not a new one
	}
	v := Value(Party(s))
	slot.Store(keptParty{v})
	return v
}

// keptParty is what a slot of Engine.parties holds: a Party as a Value,
// which party returns as it is (an interface held as an any would be
// converted to a Value at every look-up).
type keptParty struct{ v Value }

// newRecord returns a record of type rt with its fields all nil: for a
// few fields, the record and its fields are one allocation.
func newRecord(rt *RecordType) *Record {
	r, fields := withValues[Record](len(rt.Fields))
	*r = Record{Type: rt, Fields: fields}
	return r
}

// withValues allocates an H and n values (all nil) for the caller to put
// in it: for n up to 8, in one allocation, of exactly n values up to 4
// (each value is 16 bytes, and the allocator's size classes fit the few
// that records, structs, closures and partial applications hold at every
// step), of 8 beyond.
func withValues[H any](n int) (*H, []Value) {
	switch {
	case n <= 1:
		x := &struct {
			h H
			v [1]Value
		}{}
		return &x.h, x.v[:n:n] // never nil: a record of no fields has an empty list
	case n == 2:
		x := &struct {
			h H
			v [2]Value
		}{}
		return &x.h, x.v[:]
	case n == 3:
		x := &struct {
			h H
			v [3]Value
		}{}
		return &x.h, x.v[:]
	case n == 4:
		x := &struct {
			h H
			v [4]Value
		}{}
		return &x.h, x.v[:]
	case n <= 8:
		x := &struct {
			h H
			v [8]Value
		}{}
		return &x.h, x.v[:n:n]
	}
	return new(H), make([]Value, n)
}

// FromValue converts a typed ledger value into a runtime value the
// engine's commands take (a create or choice argument decoded by
// value.FromJSON, a stored contract argument): records, variants and
// enums must carry their type ids, which must name data types of the
// engine's packages. A value that does not fit its types is an *Error of
// kind ErrInternal.
func (e *Engine) FromValue(v value.Value) (Value, error) {
	rv, err := e.fromLedgerValue(v)
	if err != nil {
		return nil, err
	}
	return rv, nil
}

// FromValueKept is FromValue, also returning v when it is exactly what
// ToValue gives for the result (IsLedgerValueOf), else nil: a create
// command may take it as its node's argument (CreateRoom.CreateCommandKept)
// without a walk of its own to tell.
func (e *Engine) FromValueKept(v value.Value) (Value, value.Value, error) {
	kept := true
	rv, err := e.fromLedger(v, 0, &kept)
	if err != nil {
		return nil, nil, err
	}
	if !kept {
		v = nil
	}
	return rv, v, nil
}

// ToValue converts a serializable runtime value (a command's result) into
// its normalized ledger value, as the engine records values in a
// transaction (see Result). A value that is not serializable, nested
// deeper than MaxNesting or holding a malformed text is an *Error.
func ToValue(v Value) (value.Value, error) {
	lv, err := toLedgerValue(v)
	if err != nil {
		return nil, err
	}
	return lv, nil
}
