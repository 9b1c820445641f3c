package value

import "fmt"

// ErrorKind classifies an *Error by whose fault it is and at which stage
// Canton would reject the value; the ledger maps each kind to one Canton
// error code.
type ErrorKind uint8

const (
	// KindInvalid: the value breaks the JSON encoding or the Ledger API's
	// value rules (malformed JSON, a JSON value of the wrong kind, an
	// unknown non-null record field, a bad variant, an Int64 that is not a
	// 64-bit integer, a malformed Numeric, an invalid party or contract id,
	// a date or timestamp out of range, a duplicated key, input beyond the
	// size limits). Canton: INVALID_ARGUMENT.
	KindInvalid ErrorKind = iota + 1
	// KindPreprocessing: the Daml engine's preprocessing rejects the value
	// (a missing non-optional record field, a Numeric with more decimals
	// than its scale or out of its bounds, a local or relative contract
	// id). Canton: COMMAND_PREPROCESSING_FAILED.
	KindPreprocessing
	// KindType: the type has no JSON encoding (a function, Any, an unknown
	// package or data type, an unbound type variable). This is a fault of
	// the caller, not of the value. Canton: an internal error.
	KindType
)

// String returns the kind's name ("invalid", "preprocessing", "type").
func (k ErrorKind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindPreprocessing:
		return "preprocessing"
	case KindType:
		return "type"
	}
	return fmt.Sprintf("ErrorKind(%d)", uint8(k))
}

// Error is the error of FromJSON and CheckValue: what is wrong (Message)
// with the value at Path. Error() is "<Message> at '<Path>'", the cause
// text Canton's error carries.
type Error struct {
	// Path is the JSON path of the fault: the caller's prefix ("$" when
	// none), then ".field", "[3]" for list elements, ".key" or ["key"] for
	// TextMap entries, and ".tag(Con)" for a variant's value.
	Path string
	// Kind says which Canton code the error maps to.
	Kind ErrorKind
	// Message says what is wrong, without the path.
	Message string
}

// Error returns "<Message> at '<Path>'".
func (e *Error) Error() string { return e.Message + " at '" + e.Path + "'" }

func newError(kind ErrorKind, p *vpath, format string, args ...any) *Error {
	return &Error{Path: p.String(), Kind: kind, Message: fmt.Sprintf(format, args...)}
}
