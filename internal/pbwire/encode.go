package pbwire

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// Encoder appends proto3 fields to B in the order the caller writes them
// (callers write them in field-number order, as protobuf's deterministic
// marshalling does). The plain methods skip proto3 defaults; the "Always"
// methods write the field even when it holds its default (oneof members,
// optional fields). The first error (a string that is not valid UTF-8)
// is kept in Err; writing goes on regardless.
type Encoder struct {
	// B is the encoded message so far.
	B []byte
	// Err is the first error met.
	Err error
}

// String writes a string field unless s is empty.
func (e *Encoder) String(num protowire.Number, s string) {
	if s != "" {
		e.StringAlways(num, s)
	}
}

// StringAlways writes a string field; s must be valid UTF-8.
func (e *Encoder) StringAlways(num protowire.Number, s string) {
	if e.Err == nil && !utf8.ValidString(s) {
		e.Err = fmt.Errorf("field %d: string %q is not valid UTF-8", num, s)
	}
	e.B = protowire.AppendTag(e.B, num, protowire.BytesType)
	e.B = protowire.AppendString(e.B, s)
}

// BytesAlways writes a bytes field.
func (e *Encoder) BytesAlways(num protowire.Number, p []byte) {
	e.B = protowire.AppendTag(e.B, num, protowire.BytesType)
	e.B = protowire.AppendBytes(e.B, p)
}

// VarintAlways writes a varint field.
func (e *Encoder) VarintAlways(num protowire.Number, v uint64) {
	e.B = protowire.AppendTag(e.B, num, protowire.VarintType)
	e.B = protowire.AppendVarint(e.B, v)
}

// Fixed64Always writes a fixed64 (or sfixed64) field.
func (e *Encoder) Fixed64Always(num protowire.Number, v uint64) {
	e.B = protowire.AppendTag(e.B, num, protowire.Fixed64Type)
	e.B = protowire.AppendFixed64(e.B, v)
}

// Message writes an embedded message whose fields f writes (always:
// message presence is meaningful). An error of f becomes e's.
func (e *Encoder) Message(num protowire.Number, f func(*Encoder)) {
	var inner Encoder
	f(&inner)
	if e.Err == nil {
		e.Err = inner.Err
	}
	e.BytesAlways(num, inner.B)
}

// Strings writes a repeated string field: one field per element, empty
// strings included.
func (e *Encoder) Strings(num protowire.Number, ss []string) {
	for _, s := range ss {
		e.StringAlways(num, s)
	}
}

// Bytes writes a bytes field unless p is empty.
func (e *Encoder) Bytes(num protowire.Number, p []byte) {
	if len(p) > 0 {
		e.BytesAlways(num, p)
	}
}

// Varint writes a varint field (uint64, uint32, int64, enum) unless v is 0.
func (e *Encoder) Varint(num protowire.Number, v uint64) {
	if v != 0 {
		e.VarintAlways(num, v)
	}
}

// OptVarint writes a varint field when v is not nil, even when *v is 0
// (a proto3 optional field).
func (e *Encoder) OptVarint(num protowire.Number, v *uint64) {
	if v != nil {
		e.VarintAlways(num, *v)
	}
}

// Bool writes a bool field when v is true.
func (e *Encoder) Bool(num protowire.Number, v bool) {
	if v {
		e.VarintAlways(num, 1)
	}
}

// Int32 writes an int32 (or enum) field unless v is 0; negative values
// are written as the sign-extended 64-bit varint, as protobuf does.
func (e *Encoder) Int32(num protowire.Number, v int32) { e.Varint(num, uint64(int64(v))) }

// PackedInt32s writes a repeated int32 (or enum) field in the packed form
// (one length-delimited field of varints, sign-extended as Int32 does),
// nothing when vs is empty.
func (e *Encoder) PackedInt32s(num protowire.Number, vs []int32) {
	if len(vs) == 0 {
		return
	}
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(int64(v)))
	}
	e.BytesAlways(num, p)
}
