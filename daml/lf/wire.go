package lf

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// parseError is a decoding failure inside a dalf. ReadDAR turns it into a
// DAR_PARSE_ERROR naming the dalf.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

func errorf(format string, args ...any) error {
	return &parseError{msg: fmt.Sprintf(format, args...)}
}

// field is one protobuf field as read from the wire.
type field struct {
	num protowire.Number
	typ protowire.Type
	u   uint64 // varint, fixed32 and fixed64 values
	b   []byte // bytes value (length-delimited)
}

// eachField calls fn for every field of the message b, in wire order.
// Groups are rejected: Daml-LF has none.
func eachField(b []byte, fn func(f field) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return errorf("malformed protobuf: %v", protowire.ParseError(n))
		}
		b = b[n:]
		f := field{num: num, typ: typ}
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
			return errorf("malformed protobuf: unexpected wire type %d for field %d", typ, num)
		}
		if n < 0 {
			return errorf("malformed protobuf: field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

func (f field) wrongType(msg string) error {
	return errorf("malformed protobuf: %s field %d has wire type %d", msg, f.num, f.typ)
}

func unknownField(msg string, f field) error {
	return errorf("Message %s has unknown field %d", msg, f.num)
}

// bytesOf returns the value of a length-delimited field.
func (f field) bytesOf(msg string) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, f.wrongType(msg)
	}
	return f.b, nil
}

// message is bytesOf for embedded messages.
func (f field) message(msg string) ([]byte, error) { return f.bytesOf(msg) }

// str returns the value of a string field, which must be UTF-8.
func (f field) str(msg string) (string, error) {
	b, err := f.bytesOf(msg)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", errorf("malformed protobuf: %s field %d is not valid UTF-8", msg, f.num)
	}
	return string(b), nil
}

// int32Of returns the value of an int32 (or enum) field.
func (f field) int32Of(msg string) (int32, error) {
	if f.typ != protowire.VarintType {
		return 0, f.wrongType(msg)
	}
	return int32(f.u), nil
}

// boolOf returns the value of a bool field.
func (f field) boolOf(msg string) (bool, error) {
	if f.typ != protowire.VarintType {
		return false, f.wrongType(msg)
	}
	return f.u != 0, nil
}

// sint64Of returns the value of a zig-zag encoded sint64 field.
func (f field) sint64Of(msg string) (int64, error) {
	if f.typ != protowire.VarintType {
		return 0, f.wrongType(msg)
	}
	return protowire.DecodeZigZag(f.u), nil
}

// index returns an int32 field used as a table index; negative values are
// malformed.
func (f field) index(msg string) (int, error) {
	v, err := f.int32Of(msg)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, errorf("%s: negative index %d", msg, v)
	}
	return int(v), nil
}

// appendIndices appends the values of a repeated int32 field, accepting the
// packed form (the usual one) and the unpacked form.
func (f field) appendIndices(dst []int, msg string) ([]int, error) {
	switch f.typ {
	case protowire.VarintType:
		if int32(f.u) < 0 {
			return nil, errorf("%s: negative index %d", msg, int32(f.u))
		}
		return append(dst, int(int32(f.u))), nil
	case protowire.BytesType:
		b := f.b
		for len(b) > 0 {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return nil, errorf("malformed protobuf: %s: %v", msg, protowire.ParseError(n))
			}
			if int32(v) < 0 {
				return nil, errorf("%s: negative index %d", msg, int32(v))
			}
			dst = append(dst, int(int32(v)))
			b = b[n:]
		}
		return dst, nil
	default:
		return nil, f.wrongType(msg)
	}
}
