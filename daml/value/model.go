package value

import (
	"cmp"
	"math/big"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Value is a Daml-LF value: one of Unit, Bool, Int64, Numeric, Timestamp,
// Date, Party, Text, ContractID, Optional, List, TextMap, GenMap, Record,
// Variant and Enum. The same model serves the JSON codec (FromJSON,
// AppendJSON), the protobuf codec of the Ledger API's value.proto
// (EncodeProto, DecodeProto) and the LF order (Compare, Equal).
type Value interface{ isValue() }

// Unit is the unit value.
type Unit struct{}

// Bool is a boolean.
type Bool bool

// Int64 is a 64-bit integer.
type Int64 int64

// Numeric is a decimal in Daml-LF's canonical text form: an optional "-",
// the integer digits without leading zeros ("0" when none), a ".", and
// exactly scale decimals ("1.5000000000" is 1.5 at scale 10, "42." is 42
// at scale 0). The scale is the number of decimals (Scale); a Numeric n
// value has at most 38 digits and n ≤ 37. The text is what the protobuf
// codec carries and what the hashes take; Unscaled gives the unscaled
// integer for arithmetic. Values decoded from protobuf are not checked:
// the text is the sender's.
type Numeric string

// Timestamp is microseconds since the Unix epoch, UTC.
type Timestamp int64

// Date is days since the Unix epoch.
type Date int32

// Party is a party id.
type Party string

// Text is a string (valid UTF-8).
type Text string

// ContractID is a contract id in lowercase hex (V1 "00…" or V2 "01…").
type ContractID string

// Optional is an optional value; a nil Value is None.
type Optional struct {
	// Value is the content, nil for None.
	Value Value
	// Nested tells AppendJSON to write this Optional as a 0- or 1-element
	// JSON array ([] None, [x] Some x) rather than null or the plain
	// value. FromJSON sets it where the type, as written, puts an Optional
	// directly inside an Optional (see CheckValue). Compare, Equal and the
	// protobuf codec ignore it.
	Nested bool
}

// List is a list.
type List []Value

// TextMap is a text map. FromJSON returns its entries sorted by key with
// unique keys, which is the order Canton hashes and prints.
type TextMap []TextMapEntry

// TextMapEntry is one TextMap entry.
type TextMapEntry struct {
	// Key is the entry key.
	Key string
	// Value is the entry value.
	Value Value
}

// GenMap is a generic map. FromJSON returns its entries sorted by key in
// the LF order (Compare) with unique keys; the protobuf codec and the
// hashes keep the order as given.
type GenMap []GenMapEntry

// GenMapEntry is one GenMap entry.
type GenMapEntry struct {
	// Key is the entry key.
	Key Value
	// Value is the entry value.
	Value Value
}

// Record is a record value.
type Record struct {
	// RecordID is the record's type (nil: absent).
	RecordID *lf.TypeConID
	// Fields are the fields in declaration order. A field whose Label is
	// "" has no label; AppendJSON needs every label.
	Fields []RecordField
}

// RecordField is a record field; an empty Label is an absent label.
type RecordField struct {
	// Label is the field name ("" = none).
	Label string
	// Value is the field value.
	Value Value
}

// Variant is a variant value.
type Variant struct {
	// VariantID is the variant's type (nil: absent).
	VariantID *lf.TypeConID
	// Constructor is the constructor name.
	Constructor string
	// Rank is the constructor's position in the data type's declaration;
	// Compare orders variants by it. FromJSON sets it; the protobuf codec
	// does not carry it (decoded values have rank 0).
	Rank int
	// Value is the argument.
	Value Value
}

// Enum is an enum value.
type Enum struct {
	// EnumID is the enum's type (nil: absent).
	EnumID *lf.TypeConID
	// Constructor is the constructor name.
	Constructor string
	// Rank is the constructor's position in the enum's declaration;
	// Compare orders enums by it. FromJSON sets it; the protobuf codec does
	// not carry it (decoded values have rank 0).
	Rank int
}

func (Unit) isValue()       {}
func (Bool) isValue()       {}
func (Int64) isValue()      {}
func (Numeric) isValue()    {}
func (Timestamp) isValue()  {}
func (Date) isValue()       {}
func (Party) isValue()      {}
func (Text) isValue()       {}
func (ContractID) isValue() {}
func (Optional) isValue()   {}
func (List) isValue()       {}
func (TextMap) isValue()    {}
func (GenMap) isValue()     {}
func (Record) isValue()     {}
func (Variant) isValue()    {}
func (Enum) isValue()       {}

// Scale returns the number of decimals of n (its Numeric scale).
func (n Numeric) Scale() int {
	if i := strings.IndexByte(string(n), '.'); i >= 0 {
		return len(n) - i - 1
	}
	return 0
}

// Unscaled returns n as an unscaled integer and its scale (n = unscaled ×
// 10^-scale), or ok = false when n is not a decimal text.
func (n Numeric) Unscaled() (unscaled *big.Int, scale int, ok bool) {
	s := string(n)
	intPart, frac, _ := strings.Cut(s, ".")
	u, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok {
		return nil, 0, false
	}
	return u, len(frac), true
}

// NumericOf returns the canonical Numeric of unscaled × 10^-scale
// (scale ≥ 0): NumericOf(15, 1) is "1.5", NumericOf(42, 0) is "42.". It
// does not check the 38-digit bound.
func NumericOf(unscaled *big.Int, scale int) Numeric {
	digits := new(big.Int).Abs(unscaled).String()
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	cut := len(digits) - scale
	s := digits[:cut] + "." + digits[cut:]
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return Numeric(s)
}

// rank orders the kinds of values, for Compare on values of different
// types (which well-typed LF never compares).
func rank(v Value) int {
	switch v.(type) {
	case nil:
		return 0
	case Unit:
		return 1
	case Bool:
		return 2
	case Int64:
		return 3
	case Date:
		return 4
	case Timestamp:
		return 5
	case Numeric:
		return 6
	case Party:
		return 7
	case Text:
		return 8
	case ContractID:
		return 9
	case Optional:
		return 10
	case List:
		return 11
	case TextMap:
		return 12
	case GenMap:
		return 13
	case Record:
		return 14
	case Variant:
		return 15
	case Enum:
		return 16
	}
	return 17
}

// Compare orders two values by Daml-LF's total order (Speedy's
// svalue/Ordering.scala), the order of the LESS builtins and of GenMap
// keys: False < True; Int64, Date and Timestamp numerically; Numeric by
// value (the scale breaks ties between equal values of different scales);
// Text, Party and ContractID by bytes (for valid UTF-8 that is code-point
// order, and for lowercase-hex contract ids V1 before V2, then
// discriminator, then suffix); None < Some; lists lexicographically, a
// proper prefix first; TextMap and GenMap as their sequences k1, v1, k2,
// v2, … in entry order; records field by field (type id and labels ignored,
// a missing trailing field counting as None); variants by Rank, then by
// constructor name, then by argument; enums by Rank, then by constructor
// name.
//
// Compare does not raise the engine's ContractIdComparability error: two
// ids with the same discriminator compare by their suffixes. Values of
// different types, which a well-typed program never compares, are
// ordered by their Go type (nil first).
func Compare(a, b Value) int {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch x := a.(type) {
	case nil, Unit:
		return 0
	case Bool:
		return cmpBool(bool(x), bool(b.(Bool)))
	case Int64:
		return cmp.Compare(x, b.(Int64))
	case Date:
		return cmp.Compare(x, b.(Date))
	case Timestamp:
		return cmp.Compare(x, b.(Timestamp))
	case Numeric:
		y := b.(Numeric)
		if r := cmpNumericText(string(x), string(y)); r != 0 {
			return r
		}
		return cmp.Compare(x.Scale(), y.Scale())
	case Party:
		return strings.Compare(string(x), string(b.(Party)))
	case Text:
		return strings.Compare(string(x), string(b.(Text)))
	case ContractID:
		return strings.Compare(string(x), string(b.(ContractID)))
	case Optional:
		y := b.(Optional)
		if x.Value == nil || y.Value == nil {
			return cmpBool(x.Value != nil, y.Value != nil)
		}
		return Compare(x.Value, y.Value)
	case List:
		y := b.(List)
		for i := 0; i < len(x) && i < len(y); i++ {
			if r := Compare(x[i], y[i]); r != 0 {
				return r
			}
		}
		return cmp.Compare(len(x), len(y))
	case TextMap:
		y := b.(TextMap)
		for i := 0; i < len(x) && i < len(y); i++ {
			if r := strings.Compare(x[i].Key, y[i].Key); r != 0 {
				return r
			}
			if r := Compare(x[i].Value, y[i].Value); r != 0 {
				return r
			}
		}
		return cmp.Compare(len(x), len(y))
	case GenMap:
		y := b.(GenMap)
		for i := 0; i < len(x) && i < len(y); i++ {
			if r := Compare(x[i].Key, y[i].Key); r != 0 {
				return r
			}
			if r := Compare(x[i].Value, y[i].Value); r != 0 {
				return r
			}
		}
		return cmp.Compare(len(x), len(y))
	case Record:
		y := b.(Record)
		for i := 0; i < len(x.Fields) || i < len(y.Fields); i++ {
			if r := Compare(fieldOrNone(x.Fields, i), fieldOrNone(y.Fields, i)); r != 0 {
				return r
			}
		}
		return 0
	case Variant:
		y := b.(Variant)
		if r := cmp.Compare(x.Rank, y.Rank); r != 0 {
			return r
		}
		if r := strings.Compare(x.Constructor, y.Constructor); r != 0 {
			return r
		}
		return Compare(x.Value, y.Value)
	case Enum:
		y := b.(Enum)
		if r := cmp.Compare(x.Rank, y.Rank); r != 0 {
			return r
		}
		return strings.Compare(x.Constructor, y.Constructor)
	}
	return 0
}

// Equal reports whether a and b are equal in the LF order: Compare(a, b)
// == 0. Type ids, record labels and Optional.Nested do not matter.
func Equal(a, b Value) bool { return Compare(a, b) == 0 }

// fieldOrNone returns field i, or None past the end (normalized values
// drop trailing None fields).
func fieldOrNone(fs []RecordField, i int) Value {
	if i < len(fs) {
		return fs[i].Value
	}
	return Optional{}
}

// cmpNumericText orders two decimal texts (an optional sign, digits, an
// optional "." and digits) by value, whatever their scales.
func cmpNumericText(a, b string) int {
	na, ia, fa := splitDecimal(a)
	nb, ib, fb := splitDecimal(b)
	if ia == "" && fa == "" {
		na = false
	}
	if ib == "" && fb == "" {
		nb = false
	}
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	r := cmp.Compare(len(ia), len(ib))
	if r == 0 {
		r = strings.Compare(ia, ib)
	}
	if r == 0 {
		r = strings.Compare(fa, fb) // no trailing zeros: byte order is value order
	}
	if na {
		return -r
	}
	return r
}

// splitDecimal returns the sign, the integer digits without leading zeros
// and the fraction digits without trailing zeros of a decimal text.
func splitDecimal(s string) (neg bool, intPart, frac string) {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, _ = strings.Cut(s, ".")
	return neg, strings.TrimLeft(intPart, "0"), strings.TrimRight(frac, "0")
}
