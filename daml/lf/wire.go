package lf

import (
	"fmt"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// parseError is a decoding failure inside a dalf. ReadDAR turns it into a
// DAR_PARSE_ERROR naming the dalf.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

func errorf(format string, args ...any) error {
	return &parseError{msg: fmt.Sprintf(format, args...)}
}

// field is one protobuf field as read from the wire (by reader),
// with accessors that name the message field in their errors.
type field struct {
	num protowire.Number
	typ protowire.Type
	u   uint64 // varint, fixed32 and fixed64 values
	b   []byte // bytes value (length-delimited)
}

// eachField calls fn for every field of the message b, in wire order.
// Groups are rejected: Daml-LF has none.
func eachField(b []byte, fn func(f field) error) error {
	r := newReader(b)
	for {
		f, ok := r.next()
		if !ok {
			return r.err
		}
		if err := fn(f); err != nil {
			return err
		}
	}
}

// eachMessage calls fn for every field of the message b, in wire order,
// with the field's number and its embedded-message bytes. Every field
// must be length-delimited: any other wire type is reported, naming msg,
// before fn sees the field, so fn rejects unknown numbers itself.
func eachMessage(b []byte, msg string, fn func(num protowire.Number, x []byte) error) error {
	r := newReader(b)
	for {
		f, ok := r.next()
		if !ok {
			return r.err
		}
		x, err := f.message(msg)
		if err != nil {
			return err
		}
		if err := fn(f.num, x); err != nil {
			return err
		}
	}
}

// The accessors below are small enough to be inlined into the decoders
// (they run for most fields); their errors are built out of line.

func (f field) wrongType(msg string) error { return wrongType(msg, f.num, f.typ) }

//go:noinline
func wrongType(msg string, num protowire.Number, typ protowire.Type) error {
	return errorf("malformed protobuf: %s field %d has wire type %d", msg, num, typ)
}

func unknownField(msg string, f field) error {
	return errorf("Message %s has unknown field %d", msg, f.num)
}

// bytesOf returns the value of a length-delimited field.
func (f field) bytesOf(msg string) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, wrongType(msg, f.num, f.typ)
	}
	return f.b, nil
}

// message is bytesOf for embedded messages.
func (f field) message(msg string) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, wrongType(msg, f.num, f.typ)
	}
	return f.b, nil
}

// str returns the value of a string field, which must be UTF-8.
func (f field) str(msg string) (string, error) {
	b, err := f.utf8(msg)
	return string(b), err
}

// utf8 is str without the conversion: the field's bytes, checked.
func (f field) utf8(msg string) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, f.wrongType(msg)
	}
	if !utf8.Valid(f.b) {
		return nil, errorf("malformed protobuf: %s field %d is not valid UTF-8", msg, f.num)
	}
	return f.b, nil
}

// int32Of returns the value of an int32 (or enum) field.
func (f field) int32Of(msg string) (int32, error) {
	if f.typ != protowire.VarintType {
		return 0, wrongType(msg, f.num, f.typ)
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

// sfixed64Of returns the value of an sfixed64 field.
func (f field) sfixed64Of(msg string) (int64, error) {
	if f.typ != protowire.Fixed64Type {
		return 0, f.wrongType(msg)
	}
	return int64(f.u), nil
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
	if f.typ != protowire.VarintType && f.typ != protowire.BytesType {
		return nil, f.wrongType(msg)
	}
	var buf [16]int32
	vs, err := pbwire.Field{Num: f.num, Type: f.typ, Uint: f.u, Bytes: f.b}.AppendInt32s(buf[:0])
	if err != nil {
		return nil, errorf("malformed protobuf: %s: %v", msg, err)
	}
	for _, v := range vs {
		if v < 0 {
			return nil, errorf("%s: negative index %d", msg, v)
		}
		dst = append(dst, int(v))
	}
	return dst, nil
}

// reader reads the fields of one message in wire order, as pbwire.Reader
// does, with the same errors, but yields fields in the decoders' form and
// reads the usual field (a one-byte tag and a one-byte length or varint)
// in a path small enough to be inlined into the decoders' loops: reading
// fields is most of decoding a package.
type reader struct {
	b   []byte
	err error
}

// next returns the next field; false at the end of the message or on
// malformed input (r.err, after which r.b is empty).
func (r *reader) next() (field, bool) {
	b := r.b
	// The usual field: a one-byte tag (field number 1 to 15) and a
	// one-byte length or varint value.
	if len(b) >= 2 && b[0] < 0x80 && b[0] >= 8 && b[1] < 0x80 {
		num, l := protowire.Number(b[0]>>3), int(b[1])
		switch protowire.Type(b[0] & 7) {
		case protowire.BytesType:
			if l <= len(b)-2 {
				r.b = b[2+l:]
				return field{num: num, typ: protowire.BytesType, b: b[2 : 2+l]}, true
			}
		case protowire.VarintType:
			r.b = b[2:]
			return field{num: num, typ: protowire.VarintType, u: uint64(l)}, true
		}
	}
	// A one-byte tag and a two-byte varint: interned indexes from 128.
	if len(b) >= 3 && b[0] < 0x80 && b[0] >= 8 && b[0]&7 == byte(protowire.VarintType) && b[1] >= 0x80 && b[2] < 0x80 {
		r.b = b[3:]
		return field{num: protowire.Number(b[0] >> 3), typ: protowire.VarintType, u: uint64(b[1]&0x7f) | uint64(b[2])<<7}, true
	}
	if len(b) == 0 {
		return field{}, false
	}
	return r.slow()
}

// slow is next for any other field: pbwire's reader, whose errors the
// decoder's are.
func (r *reader) slow() (field, bool) {
	pr := pbwire.NewReader(r.b)
	f, ok := pr.Next()
	if !ok {
		if err := pr.Err(); err != nil {
			r.err = &parseError{msg: err.Error()}
		}
		r.b = nil
		return field{}, false
	}
	r.b = pr.Rest()
	return field{num: f.Num, typ: f.Type, u: f.Uint, b: f.Bytes}, true
}

func newReader(b []byte) reader { return reader{b: b} }
