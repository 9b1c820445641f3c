package interactive

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxProtoDepth bounds message nesting when decoding, like protobuf-java's
// default recursion limit (100), which is what Canton parses with.
const maxProtoDepth = 100

var errTooDeep = errors.New("protobuf message nesting exceeds 100 levels")

// pbEnc appends proto3 fields in field-number order as the caller writes
// them. Scalar helpers skip proto3 defaults; "Always" variants write the
// field even when it holds the default (oneof members, optional fields).
type pbEnc struct {
	b   []byte
	err error
}

func (e *pbEnc) str(num protowire.Number, s string) {
	if s != "" {
		e.strAlways(num, s)
	}
}

func (e *pbEnc) strAlways(num protowire.Number, s string) {
	if e.err == nil && !utf8.ValidString(s) {
		e.err = fmt.Errorf("field %d: string %q is not valid UTF-8", num, s)
	}
	e.b = protowire.AppendTag(e.b, num, protowire.BytesType)
	e.b = protowire.AppendString(e.b, s)
}

func (e *pbEnc) strs(num protowire.Number, ss []string) {
	for _, s := range ss {
		e.strAlways(num, s)
	}
}

func (e *pbEnc) bytes(num protowire.Number, p []byte) {
	if len(p) > 0 {
		e.bytesAlways(num, p)
	}
}

func (e *pbEnc) bytesAlways(num protowire.Number, p []byte) {
	e.b = protowire.AppendTag(e.b, num, protowire.BytesType)
	e.b = protowire.AppendBytes(e.b, p)
}

func (e *pbEnc) varint(num protowire.Number, v uint64) {
	if v != 0 {
		e.varintAlways(num, v)
	}
}

func (e *pbEnc) varintAlways(num protowire.Number, v uint64) {
	e.b = protowire.AppendTag(e.b, num, protowire.VarintType)
	e.b = protowire.AppendVarint(e.b, v)
}

func (e *pbEnc) optVarint(num protowire.Number, v *uint64) {
	if v != nil {
		e.varintAlways(num, *v)
	}
}

func (e *pbEnc) boolean(num protowire.Number, v bool) {
	if v {
		e.varintAlways(num, 1)
	}
}

// int32 fields are varints of the sign-extended 64-bit value.
func (e *pbEnc) int32(num protowire.Number, v int32) { e.varint(num, uint64(int64(v))) }

func (e *pbEnc) packedEnums(num protowire.Number, vs []int32) {
	if len(vs) == 0 {
		return
	}
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(int64(v)))
	}
	e.bytesAlways(num, p)
}

// msg writes an embedded message (always: message presence is meaningful).
func (e *pbEnc) msg(num protowire.Number, f func(*pbEnc)) {
	inner := pbEnc{}
	f(&inner)
	if e.err == nil {
		e.err = inner.err
	}
	e.bytesAlways(num, inner.b)
}

// pbField is one decoded field.
type pbField struct {
	num protowire.Number
	typ protowire.Type
	u   uint64 // varint, fixed32 and fixed64 values
	b   []byte // bytes value
}

// pbFields walks the fields of one message. Groups are skipped; malformed
// input is an error.
func pbFields(b []byte, fn func(f pbField) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("malformed protobuf: %v", protowire.ParseError(n))
		}
		b = b[n:]
		f := pbField{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.u, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.u = uint64(v)
		case protowire.Fixed64Type:
			f.u, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			f.b, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n >= 0 {
				b = b[n:]
				continue // groups and other wire types are unknown fields
			}
		}
		if n < 0 {
			return fmt.Errorf("malformed protobuf field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// isBytes and isVarint tell whether a known field arrived with
// the wire type its declaration needs. Like protobuf-java, a field with
// another wire type is treated as an unknown field and skipped.
func (f pbField) isBytes() bool  { return f.typ == protowire.BytesType }
func (f pbField) isVarint() bool { return f.typ == protowire.VarintType }

// str returns the field as a proto3 string (valid UTF-8 required).
func (f pbField) str(what string) (string, error) {
	if !utf8.Valid(f.b) {
		return "", fmt.Errorf("%s is not valid UTF-8", what)
	}
	return string(f.b), nil
}

// enums returns the values of a repeated enum field, packed or not.
func (f pbField) enums() ([]int32, error) {
	if f.isVarint() {
		return []int32{int32(f.u)}, nil
	}
	var out []int32
	b := f.b
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, fmt.Errorf("malformed packed field %d: %v", f.num, protowire.ParseError(n))
		}
		out = append(out, int32(v))
		b = b[n:]
	}
	return out, nil
}

// msgAcc accumulates a singular embedded message: when the field occurs
// more than once, proto merge semantics equal decoding the concatenation.
type msgAcc struct {
	set bool
	b   []byte
}

func (a *msgAcc) add(p []byte) {
	a.set = true
	a.b = append(a.b, p...)
}
