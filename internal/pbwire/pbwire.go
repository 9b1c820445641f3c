// Package pbwire is the one protobuf wire layer of ledgernode: it reads
// the fields of a serialized protobuf message in wire order and writes
// them, without generated code, for the hand-written codecs of Daml-LF
// archives (daml/lf), Ledger API values (daml/value) and the
// interactive-submission and topology messages (interactive). Callers
// name field numbers with constants of their own, per message.
//
// A Reader yields one Field at a time and never allocates; Walk is the
// callback form, WalkSkippingGroups its protobuf-java-lenient variant.
// Field values alias the input buffer. Accessors check the wire type the
// declaration expects and return an *Error otherwise. Acc merges the
// occurrences of a singular message field, and MaxDepth/CheckDepth bound
// nesting as protobuf-java does. Encoder writes fields in the caller's
// order (field-number order, as deterministic protobuf marshalling does).
package pbwire

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// Error is a malformed-protobuf error: a tag, length or value that cannot
// be read, or a field whose wire type does not match its declaration.
type Error struct {
	// Msg describes the problem.
	Msg string
}

// Error returns "malformed protobuf: " and the description.
func (e *Error) Error() string { return "malformed protobuf: " + e.Msg }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Field is one field of a message as read from the wire.
type Field struct {
	// Num is the field number.
	Num protowire.Number
	// Type is the wire type: VarintType, Fixed32Type, Fixed64Type or
	// BytesType (groups are skipped or rejected, see Reader).
	Type protowire.Type
	// Uint is the raw value of a varint, fixed32 or fixed64 field.
	Uint uint64
	// Bytes is the value of a length-delimited field; it aliases the
	// message buffer.
	Bytes []byte
}

// Reader reads the fields of one message in wire order. The zero Reader
// reads an empty message; use NewReader.
type Reader struct {
	b   []byte
	err error
	// SkipGroups makes Next skip group fields (as protobuf parsers skip
	// unknown fields) instead of failing on them.
	SkipGroups bool
}

// NewReader returns a Reader over the message b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// Next returns the next field. It returns false at the end of the message
// or on malformed input; Err then tells which.
func (r *Reader) Next() (Field, bool) {
	// Fast path: a one-byte tag (field numbers 1 to 15) with a one-byte
	// varint or length, the most common fields of Daml-LF archives, read
	// without the general decoding below; anything else (field number 0,
	// longer varints, other wire types, a length beyond the message)
	// goes the general way, which reports what is wrong.
	if b := r.b; len(b) >= 2 && r.err == nil && b[0] < 0x80 && b[0] >= 8 && b[1] < 0x80 {
		num, typ := protowire.Number(b[0]>>3), protowire.Type(b[0]&7)
		switch {
		case typ == protowire.VarintType:
			r.b = b[2:]
			return Field{Num: num, Type: typ, Uint: uint64(b[1])}, true
		case typ == protowire.BytesType && int(b[1]) <= len(b)-2:
			n := 2 + int(b[1])
			r.b = b[n:]
			return Field{Num: num, Type: typ, Bytes: b[2:n]}, true
		}
	}
	for len(r.b) > 0 && r.err == nil {
		num, typ, n := protowire.ConsumeTag(r.b)
		if n < 0 {
			r.err = errorf("%v", protowire.ParseError(n))
			return Field{}, false
		}
		b := r.b[n:]
		f := Field{Num: num, Type: typ}
		switch typ {
		case protowire.VarintType:
			f.Uint, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.Uint = uint64(v)
		case protowire.Fixed64Type:
			f.Uint, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			f.Bytes, n = protowire.ConsumeBytes(b)
		default:
			if !r.SkipGroups {
				r.err = errorf("unexpected wire type %d for field %d", typ, num)
				return Field{}, false
			}
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				r.err = errorf("field %d: %v", num, protowire.ParseError(n))
				return Field{}, false
			}
			r.b = b[n:]
			continue
		}
		if n < 0 {
			r.err = errorf("field %d: %v", num, protowire.ParseError(n))
			return Field{}, false
		}
		r.b = b[n:]
		return f, true
	}
	return Field{}, false
}

// Rest returns the bytes Next has not read yet.
func (r *Reader) Rest() []byte { return r.b }

// Err returns the error that stopped Next, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Walk calls fn for every field of the message b in wire order and stops
// at the first error, from the wire or from fn. Groups are rejected.
func Walk(b []byte, fn func(Field) error) error {
	r := NewReader(b)
	for {
		f, ok := r.Next()
		if !ok {
			return r.Err()
		}
		if err := fn(f); err != nil {
			return err
		}
	}
}

// Has reports whether the message b has a well-formed field numbered num
// before any malformed part.
func Has(b []byte, num protowire.Number) bool {
	r := Reader{b: b, SkipGroups: true}
	for f, ok := r.Next(); ok; f, ok = r.Next() {
		if f.Num == num {
			return true
		}
	}
	return false
}

func (f Field) wrongType(want protowire.Type) *Error {
	return errorf("field %d has wire type %d, want %d", f.Num, f.Type, want)
}

// IsBytes reports whether the field is length-delimited.
func (f Field) IsBytes() bool { return f.Type == protowire.BytesType }

// IsVarint reports whether the field is a varint.
func (f Field) IsVarint() bool { return f.Type == protowire.VarintType }

// IsFixed32 reports whether the field is a fixed32.
func (f Field) IsFixed32() bool { return f.Type == protowire.Fixed32Type }

// IsFixed64 reports whether the field is a fixed64.
func (f Field) IsFixed64() bool { return f.Type == protowire.Fixed64Type }

// Message returns the value of a length-delimited field (an embedded
// message or bytes).
func (f Field) Message() ([]byte, error) {
	if f.Type != protowire.BytesType {
		return nil, f.wrongType(protowire.BytesType)
	}
	return f.Bytes, nil
}

// Text returns the value of a string field, which must be valid UTF-8.
func (f Field) Text() (string, error) {
	if f.Type != protowire.BytesType {
		return "", f.wrongType(protowire.BytesType)
	}
	if !utf8.Valid(f.Bytes) {
		return "", errorf("field %d is not valid UTF-8", f.Num)
	}
	return string(f.Bytes), nil
}

// Uint64 returns the value of a uint64 varint field.
func (f Field) Uint64() (uint64, error) {
	if f.Type != protowire.VarintType {
		return 0, f.wrongType(protowire.VarintType)
	}
	return f.Uint, nil
}

// Int64 returns the value of an int64 varint field.
func (f Field) Int64() (int64, error) {
	v, err := f.Uint64()
	return int64(v), err
}

// Int32 returns the value of an int32 or enum varint field (the low 32
// bits, as protobuf parsers do).
func (f Field) Int32() (int32, error) {
	v, err := f.Uint64()
	return int32(v), err
}

// Bool returns the value of a bool varint field.
func (f Field) Bool() (bool, error) {
	v, err := f.Uint64()
	return v != 0, err
}

// SInt64 returns the value of a zig-zag encoded sint64 varint field.
func (f Field) SInt64() (int64, error) {
	v, err := f.Uint64()
	return protowire.DecodeZigZag(v), err
}

// SFixed64 returns the value of an sfixed64 field.
func (f Field) SFixed64() (int64, error) {
	if f.Type != protowire.Fixed64Type {
		return 0, f.wrongType(protowire.Fixed64Type)
	}
	return int64(f.Uint), nil
}

// AppendInt32s appends the values of a repeated int32 (or enum) field,
// accepting both the packed form (one length-delimited field) and the
// unpacked form (one varint field per value).
func (f Field) AppendInt32s(dst []int32) ([]int32, error) {
	switch f.Type {
	case protowire.VarintType:
		return append(dst, int32(f.Uint)), nil
	case protowire.BytesType:
		b := f.Bytes
		for len(b) > 0 {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return dst, errorf("field %d: %v", f.Num, protowire.ParseError(n))
			}
			dst = append(dst, int32(v))
			b = b[n:]
		}
		return dst, nil
	default:
		return dst, f.wrongType(protowire.VarintType)
	}
}
