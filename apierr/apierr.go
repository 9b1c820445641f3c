// Package apierr is the error model shared by every ledgernode package.
//
// Every error the library returns is, or wraps, an *Error that carries
// Canton's error code (for example USER_NOT_FOUND), its error category, the
// human-readable cause, context and resources. The category fixes the gRPC
// status code and, through it, the HTTP status, exactly as Canton's JSON
// Ledger API 3.5 maps them.
//
// Each code is a Code value declared once in this package. A Code is itself
// an error, so callers test for a failure with errors.Is:
//
//	if errors.Is(err, apierr.UserNotFound) { … }
//
// and reach the details with errors.As:
//
//	var e *apierr.Error
//	if errors.As(err, &e) { log.Print(e.Code, e.Cause) }
package apierr

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/internal/quote"
)

// Category is Canton's error category (ErrorCategory.scala). The numbers are
// the ones Canton prints in errorCategory.
type Category int

// The Canton error categories. CategoryRedacted (-1) is what a client sees in
// place of a security-sensitive category.
const (
	CategoryRedacted                                Category = -1
	TransientServerFailure                          Category = 1
	ContentionOnSharedResources                     Category = 2
	DeadlineExceededRequestStateUnknown             Category = 3
	SystemInternalAssumptionViolated                Category = 4
	SecurityAlert                                   Category = 5
	AuthInterceptorInvalidAuthenticationCredentials Category = 6
	InsufficientPermission                          Category = 7
	InvalidIndependentOfSystemState                 Category = 8
	InvalidGivenCurrentSystemStateOther             Category = 9
	InvalidGivenCurrentSystemStateResourceExists    Category = 10
	InvalidGivenCurrentSystemStateResourceMissing   Category = 11
	InvalidGivenCurrentSystemStateSeekAfterEnd      Category = 12
	BackgroundProcessDegradationWarning             Category = 13
	InternalUnsupportedOperation                    Category = 14
)

// GRPCCode is a gRPC status code value (0 OK … 16 UNAUTHENTICATED).
type GRPCCode int

// The gRPC status codes used by the categories.
const (
	GRPCOK                 GRPCCode = 0
	GRPCCancelled          GRPCCode = 1
	GRPCUnknown            GRPCCode = 2
	GRPCInvalidArgument    GRPCCode = 3
	GRPCDeadlineExceeded   GRPCCode = 4
	GRPCNotFound           GRPCCode = 5
	GRPCAlreadyExists      GRPCCode = 6
	GRPCPermissionDenied   GRPCCode = 7
	GRPCResourceExhausted  GRPCCode = 8
	GRPCFailedPrecondition GRPCCode = 9
	GRPCAborted            GRPCCode = 10
	GRPCOutOfRange         GRPCCode = 11
	GRPCUnimplemented      GRPCCode = 12
	GRPCInternal           GRPCCode = 13
	GRPCUnavailable        GRPCCode = 14
	GRPCDataLoss           GRPCCode = 15
	GRPCUnauthenticated    GRPCCode = 16
)

type categoryInfo struct {
	name     string
	grpc     GRPCCode
	retry    time.Duration
	redacted bool
}

var categories = map[Category]categoryInfo{
	TransientServerFailure:                          {"TransientServerFailure", GRPCUnavailable, time.Second, false},
	ContentionOnSharedResources:                     {"ContentionOnSharedResources", GRPCAborted, time.Second, false},
	DeadlineExceededRequestStateUnknown:             {"DeadlineExceededRequestStateUnknown", GRPCDeadlineExceeded, time.Second, false},
	SystemInternalAssumptionViolated:                {"SystemInternalAssumptionViolated", GRPCInternal, 0, true},
	SecurityAlert:                                   {"SecurityAlert", GRPCInvalidArgument, 0, true},
	AuthInterceptorInvalidAuthenticationCredentials: {"AuthInterceptorInvalidAuthenticationCredentials", GRPCUnauthenticated, 0, true},
	InsufficientPermission:                          {"InsufficientPermission", GRPCPermissionDenied, 0, true},
	InvalidIndependentOfSystemState:                 {"InvalidIndependentOfSystemState", GRPCInvalidArgument, 0, false},
	InvalidGivenCurrentSystemStateOther:             {"InvalidGivenCurrentSystemStateOther", GRPCFailedPrecondition, 0, false},
	InvalidGivenCurrentSystemStateResourceExists:    {"InvalidGivenCurrentSystemStateResourceExists", GRPCAlreadyExists, 0, false},
	InvalidGivenCurrentSystemStateResourceMissing:   {"InvalidGivenCurrentSystemStateResourceMissing", GRPCNotFound, 0, false},
	InvalidGivenCurrentSystemStateSeekAfterEnd:      {"InvalidGivenCurrentSystemStateSeekAfterEnd", GRPCOutOfRange, time.Second, false},
	BackgroundProcessDegradationWarning:             {"BackgroundProcessDegradationWarning", GRPCInternal, 0, false},
	InternalUnsupportedOperation:                    {"InternalUnsupportedOperation", GRPCUnimplemented, 0, true},
}

// String returns the category's Canton name.
func (c Category) String() string {
	if i, ok := categories[c]; ok {
		return i.name
	}
	return fmt.Sprintf("Category(%d)", int(c))
}

// GRPC returns the gRPC status code Canton uses for the category
// (UNKNOWN for an unknown category).
func (c Category) GRPC() GRPCCode {
	if i, ok := categories[c]; ok {
		return i.grpc
	}
	return GRPCUnknown
}

// Retry returns the retry delay Canton advertises for the category, or 0
// when errors of the category are not retryable.
func (c Category) Retry() time.Duration { return categories[c].retry }

// Valid reports whether c is one of Canton's error categories (1 to 14).
func (c Category) Valid() bool {
	_, ok := categories[c]
	return ok
}

// Redacted reports whether Canton hides the details of errors of this
// category from clients (security-sensitive categories 4, 5, 6, 7 and 14).
func (c Category) Redacted() bool { return categories[c].redacted }

// HTTPStatus maps a gRPC status code to the HTTP status Canton's JSON API
// answers with (GrpcHttpErrorCodes).
func (g GRPCCode) HTTPStatus() int {
	switch g {
	case GRPCOK:
		return 200
	case GRPCCancelled:
		return 499
	case GRPCInvalidArgument, GRPCFailedPrecondition, GRPCOutOfRange:
		return 400
	case GRPCDeadlineExceeded:
		return 504
	case GRPCNotFound:
		return 404
	case GRPCAlreadyExists, GRPCAborted:
		return 409
	case GRPCPermissionDenied:
		return 403
	case GRPCResourceExhausted:
		return 429
	case GRPCUnimplemented:
		return 501
	case GRPCUnavailable:
		return 503
	case GRPCUnauthenticated:
		return 401
	default: // UNKNOWN, INTERNAL, DATA_LOSS and anything else
		return 500
	}
}

// Code is one Canton error code with its category. Codes are declared once,
// in this package; a Code is an error so that errors.Is(err, apierr.X)
// tells whether err carries code X.
type Code struct {
	// Name is the code as Canton prints it, e.g. "USER_NOT_FOUND".
	Name string
	// Category is the code's error category.
	Category Category
	// prefix is the fixed text Canton puts before the detail in the cause.
	prefix string
	// status overrides the category's HTTP status where Canton forces one.
	status int
	// retry overrides the category's retry delay where Canton sets one
	// for the code.
	retry time.Duration
}

// InCategory returns the code with another category. It is for codes
// whose category is chosen per error (DAML_FAILURE takes the category
// the Daml code gives); errors.Is still matches by name. The caller must
// pass a category for which Valid is true.
func (c Code) InCategory(cat Category) Code {
	c.Category = cat
	return c
}

// Error returns the code's name, so a Code can serve as a sentinel error.
func (c Code) Error() string { return c.Name }

// New returns an error of this code whose cause is the code's fixed prefix
// followed by the formatted detail.
func (c Code) New(format string, args ...any) *Error {
	detail := format
	if len(args) > 0 {
		detail = fmt.Sprintf(format, args...)
	}
	return &Error{Code: c, Cause: c.prefix + detail}
}

// Wrap is New with an underlying error kept as Err (reachable by errors.Is
// and errors.As).
func (c Code) Wrap(err error, format string, args ...any) *Error {
	e := c.New(format, args...)
	e.Err = err
	return e
}

// Error is the one error type of ledgernode. Its zero value is not useful;
// build one with a Code's New or Wrap and add resources and context with
// the With* methods.
type Error struct {
	// Code is Canton's error code with its category.
	Code Code
	// Cause is the human-readable explanation sent to clients (unless the
	// category is redacted).
	Cause string
	// Context holds Canton's context keys (string to string).
	Context map[string]string
	// Resources are (resource type, name) pairs such as ("USER", "bob"),
	// in order.
	Resources [][2]string
	// CorrelationID is the request's correlation id when known (the
	// submission id for commands).
	CorrelationID string
	// DefiniteAnswer is set for errors whose definite-answer flag Canton
	// prints (nil prints null).
	DefiniteAnswer *bool
	// Err is the underlying error, if any.
	Err error
}

// Error returns "CODE(category): cause", Canton's log form of an error.
func (e *Error) Error() string {
	return fmt.Sprintf("%s(%d): %s", e.Code.Name, int(e.Code.Category), e.Cause)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Code (or an *Error with the same code).
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t.Name == e.Code.Name
	case *Error:
		return t.Code.Name == e.Code.Name
	}
	return false
}

// Category returns the error's category.
func (e *Error) Category() Category { return e.Code.Category }

// GRPCCode returns the gRPC status code of the error's category.
func (e *Error) GRPCCode() GRPCCode { return e.Code.Category.GRPC() }

// Retry returns the retry delay Canton advertises for the error: the
// code's own delay where Canton sets one (INTERPRETATION_TIME_EXCEEDED,
// 60 s), otherwise the category's (0 when not retryable).
func (e *Error) Retry() time.Duration {
	if e.Code.retry != 0 {
		return e.Code.retry
	}
	return e.Code.Category.Retry()
}

// HTTPStatus returns the HTTP status Canton's JSON API answers with.
func (e *Error) HTTPStatus() int {
	if e.Code.status != 0 {
		return e.Code.status
	}
	return e.GRPCCode().HTTPStatus()
}

// WithResource appends a (type, name) resource and returns e. The name is
// bounded with Quote.
func (e *Error) WithResource(kind, name string) *Error {
	e.Resources = append(e.Resources, [2]string{kind, Quote(name)})
	return e
}

// WithContext sets a context key and returns e. The value is bounded with
// Quote.
func (e *Error) WithContext(key, value string) *Error {
	if e.Context == nil {
		e.Context = map[string]string{}
	}
	e.Context[key] = Quote(value)
	return e
}

// WithDefiniteAnswer sets the definite-answer flag and returns e.
func (e *Error) WithDefiniteAnswer(v bool) *Error {
	e.DefiniteAnswer = &v
	return e
}

// ContextKeys returns the context keys in sorted order (for stable output).
func (e *Error) ContextKeys() []string { return slices.Sorted(maps.Keys(e.Context)) }

// From returns err as an *Error: itself when it is (or wraps) one, and
// otherwise a LEDGER_API_INTERNAL_ERROR wrapping it. From(nil) is nil.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var c Code
	if errors.As(err, &c) {
		return c.New("%s", strings.TrimSpace(err.Error()))
	}
	return InternalError.Wrap(err, "%v", err)
}

// QuoteLimit is the length in bytes of the longest string Quote keeps
// whole. Every valid identifier of the Ledger API (party, user, contract,
// update, command and synchronizer ids) fits.
const QuoteLimit = quote.Limit

// Quote returns outside input (an id, a token, a path, a URL, …) in the
// form an error may quote it: s itself when it is at most QuoteLimit bytes
// long, and otherwise its first 100 bytes (cut at a UTF-8 boundary)
// followed by "…(<n> bytes)", so that an error never grows with its input.
// Every cause, resource and context value that quotes a request goes
// through Quote; WithResource and WithContext apply it themselves.
// It is internal/quote's Bare, the one implementation shared with daml/.
func Quote(s string) string { return quote.Bare(s) }

// DecodeFailure is the underlying error (Err) of an error built by
// Malformed: the request does not have the shape of its type. Detail
// names the problem and where it is ("… at 'commands[0]'").
type DecodeFailure struct {
	Detail string
}

// Error returns the detail.
func (d *DecodeFailure) Error() string { return d.Detail }

// Malformed returns the error of a request that breaks a rule Canton's
// JSON codecs check while decoding (a one-of holding two variants, an
// identifier that is not package:module:entity, an unknown enum name, a
// timestamp that does not parse). It is INVALID_ARGUMENT, and it wraps a
// *DecodeFailure so that a JSON front end can answer it as Canton does, a
// 400 text/plain "Invalid value for: body (<detail>)".
func Malformed(format string, args ...any) *Error {
	detail := fmt.Sprintf(format, args...)
	return InvalidArgument.Wrap(&DecodeFailure{Detail: detail}, "%s", detail)
}

// NewCorrelationID returns a fresh random correlation id (a UUID v4), as
// Canton gives a redacted error: the adapters send it to the client and
// log the full error under it.
func NewCorrelationID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// TraceID returns the trace id of a W3C traceparent header value
// ("00-<32 hex>-<16 hex>-<2 hex>"), or "" when the value is not a valid
// traceparent (an unknown version "ff", ids of zeros, upper-case hex, a
// version-00 value with more parts). The adapters put it in an error's
// trace context, as Canton does.
func TraceID(traceparent string) string {
	parts := strings.Split(strings.TrimSpace(traceparent), "-")
	if len(parts) < 4 || len(parts[0]) != 2 || parts[0] == "ff" || (parts[0] == "00" && len(parts) != 4) {
		return ""
	}
	id, parent, flags := parts[1], parts[2], parts[3]
	if len(id) != 32 || len(parent) != 16 || len(flags) != 2 ||
		!isLowerHex(parts[0]) || !isLowerHex(id) || !isLowerHex(parent) || !isLowerHex(flags) ||
		id == strings.Repeat("0", 32) || parent == strings.Repeat("0", 16) {
		return ""
	}
	return id
}

// isLowerHex reports whether s is lower-case hexadecimal.
func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
