package value

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// A private protobuf field walker for DecodeProto (to be replaced by
// internal/pbwire's walker).

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

// isBytes, isVarint and isFixed64 tell whether a known field arrived with
// the wire type its declaration needs. Like protobuf-java, a field with
// another wire type is treated as an unknown field and skipped.
func (f pbField) isBytes() bool   { return f.typ == protowire.BytesType }
func (f pbField) isVarint() bool  { return f.typ == protowire.VarintType }
func (f pbField) isFixed64() bool { return f.typ == protowire.Fixed64Type }

// str returns the field as a proto3 string (valid UTF-8 required).
func (f pbField) str(what string) (string, error) {
	if !utf8.Valid(f.b) {
		return "", fmt.Errorf("%s is not valid UTF-8", what)
	}
	return string(f.b), nil
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
