package pbwire

import (
	"errors"
	"unicode/utf8"
)

// MaxDepth bounds message nesting when decoding, like protobuf-java's
// default recursion limit (100), which is what Canton parses with. The
// top-level message is at depth 1.
const MaxDepth = 100

// ErrTooDeep is the error of a decoder that met a message nested more than
// MaxDepth levels deep.
var ErrTooDeep = errors.New("protobuf message nesting exceeds 100 levels")

// CheckDepth returns ErrTooDeep when a message at nesting level depth
// (1 for a top-level message) exceeds MaxDepth, nil otherwise.
func CheckDepth(depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	return nil
}

// WalkSkippingGroups is Walk for decoders that follow protobuf-java's
// leniency: group fields are skipped as unknown fields instead of
// rejected. Malformed input is still an error.
func WalkSkippingGroups(b []byte, fn func(Field) error) error {
	r := Reader{b: b, SkipGroups: true}
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

// Acc accumulates the occurrences of a singular embedded message field:
// when the field occurs more than once, protobuf's merge semantics equal
// decoding the concatenation of the occurrences. The zero Acc is an
// absent field.
type Acc struct {
	// Set reports whether the field occurred at least once.
	Set bool
	// B is the concatenation of the occurrences.
	B []byte
}

// Add records one occurrence with value p.
func (a *Acc) Add(p []byte) {
	a.Set = true
	a.B = append(a.B, p...)
}

// NamedText returns the value of a length-delimited field as a string,
// which must be valid UTF-8; the error otherwise is "<what> is not valid
// UTF-8". Unlike Text it does not check the wire type: callers test
// IsBytes first, as lenient decoders skip fields of another wire type.
func (f Field) NamedText(what string) (string, error) {
	if !utf8.Valid(f.Bytes) {
		return "", errors.New(what + " is not valid UTF-8")
	}
	return string(f.Bytes), nil
}

// Int32s returns the values of a repeated int32 (or enum) field, packed
// or not (see AppendInt32s).
func (f Field) Int32s() ([]int32, error) { return f.AppendInt32s(nil) }
