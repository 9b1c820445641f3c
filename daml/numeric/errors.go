package numeric

import (
	"fmt"
	"strings"
)

// Kind classifies a Numeric failure.
type Kind int

const (
	// KindOverflow: the result needs more than 38 digits at its scale.
	KindOverflow Kind = iota + 1
	// KindDivisionByZero: DIV_NUMERIC by 0.
	KindDivisionByZero
	// KindBadScale: a scale outside 0…37, or a ROUND_NUMERIC digit count
	// outside (scale-38, scale].
	KindBadScale
	// KindPrecisionLoss: CAST_NUMERIC would drop non-zero digits.
	KindPrecisionLoss
	// KindInt64Range: NUMERIC_TO_INT64 of a value outside Int64.
	KindInt64Range
	// KindScaleMismatch: ADD/SUB of operands of different scales (a type
	// error the LF type checker rules out).
	KindScaleMismatch
	// KindSyntax: a text that is not a Numeric in the expected form.
	KindSyntax
)

// Error is a Numeric failure. Msg follows the wording of Speedy's
// NumericModule where it has one. Compare kinds with errors.Is against the
// Err* sentinels.
type Error struct {
	Kind Kind
	Msg  string
}

// Sentinels for errors.Is: an *Error matches the sentinel of its Kind.
var (
	ErrOverflow       = &Error{Kind: KindOverflow, Msg: "overflow"}
	ErrDivisionByZero = &Error{Kind: KindDivisionByZero, Msg: "division by zero"}
	ErrBadScale       = &Error{Kind: KindBadScale, Msg: "bad scale"}
	ErrPrecisionLoss  = &Error{Kind: KindPrecisionLoss, Msg: "precision loss"}
	ErrInt64Range     = &Error{Kind: KindInt64Range, Msg: "does not fit into an Int64"}
	ErrScaleMismatch  = &Error{Kind: KindScaleMismatch, Msg: "scale mismatch"}
	ErrSyntax         = &Error{Kind: KindSyntax, Msg: "syntax"}
)

func errorf(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Error returns "numeric: " and the message.
func (e *Error) Error() string { return "numeric: " + e.Msg }

// Is reports whether target is an *Error of the same Kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind
}

// The Daml type of the exception value an ArithmeticError stands for: the
// record DA.Exception.ArithmeticError:ArithmeticError { message : Text } of
// the stable package daml-prim-DA-Exception-ArithmeticError.
const (
	ArithmeticErrorPackageID = "ee33fb70918e7aaa3d3fc44d64a399fb2bf5bcefc54201b1690ecd448551ba88"
	ArithmeticErrorModule    = "DA.Exception.ArithmeticError"
	ArithmeticErrorName      = "ArithmeticError"
	ArithmeticErrorField     = "message"
)

// ArithmeticError is the catchable Daml exception
// DA.Exception.ArithmeticError:ArithmeticError that Speedy throws when an
// arithmetic builtin fails (ADD/SUB/MUL/DIV/MOD/EXP_INT64,
// ADD/SUB/MUL/DIV/ROUND/CAST_NUMERIC, INT64_TO_NUMERIC, NUMERIC_TO_INT64,
// UNIX_DAYS_TO_DATE, UNIX_MICROSECONDS_TO_TIMESTAMP).
//
// Args are all the builtin's runtime arguments, witness included, already
// in their message form: Int64 in decimal, Numeric as Numeric.String
// (NUMERIC_TO_TEXT), Timestamp and Date as TIMESTAMP_TO_TEXT/DATE_TO_TEXT.
type ArithmeticError struct {
	Builtin string   // e.g. "ADD_INT64"
	Args    []string // the printed arguments
	Cause   error    // the underlying failure, if any (may be nil)
}

// NewArithmeticError returns the ArithmeticError for builtin applied to the
// printed arguments args.
func NewArithmeticError(builtin string, cause error, args ...string) *ArithmeticError {
	return &ArithmeticError{Builtin: builtin, Args: args, Cause: cause}
}

// Message returns the exception's message field, exactly as Speedy builds
// it: "ArithmeticError while evaluating (<NAME> <arg1> … <argN>)."
func (e *ArithmeticError) Message() string {
	return ArithmeticErrorMessage(e.Builtin, e.Args...)
}

// Error returns Message.
func (e *ArithmeticError) Error() string { return e.Message() }

// Unwrap returns the cause.
func (e *ArithmeticError) Unwrap() error { return e.Cause }

// ArithmeticErrorMessage builds Speedy's ArithmeticError message for a
// builtin name and its printed arguments, e.g.
// ("ADD_INT64", "9223372036854775807", "1") gives
// "ArithmeticError while evaluating (ADD_INT64 9223372036854775807 1).".
func ArithmeticErrorMessage(builtin string, args ...string) string {
	var b strings.Builder
	b.WriteString("ArithmeticError while evaluating (")
	b.WriteString(builtin)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	b.WriteString(").")
	return b.String()
}
