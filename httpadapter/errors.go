package httpadapter

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
)

// jsCantonError is Canton's JsCantonError body. All ten keys are always
// printed, absent optional values as null, like Canton's printer.
type jsCantonError struct {
	Code           string            `json:"code"`
	Cause          string            `json:"cause"`
	CorrelationID  *string           `json:"correlationId"`
	TraceID        *string           `json:"traceId"`
	Context        map[string]string `json:"context"`
	Resources      [][2]string       `json:"resources"`
	ErrorCategory  int               `json:"errorCategory"`
	GRPCCodeValue  *int              `json:"grpcCodeValue"`
	RetryInfo      *string           `json:"retryInfo"`
	DefiniteAnswer *bool             `json:"definiteAnswer"`
}

// The redacted form of security-sensitive errors (Canton's JSON layer
// prints these for the gRPC layer's "An error occurred. Please contact the
// operator…" statuses).
const (
	redactedCode  = "NA"
	redactedCause = "A security-sensitive error has been received"
)

// tokenResolutionError marks an error of (*ledger.Node).Authenticate. When
// it is PERMISSION_DENIED, Canton's JSON layer (which resolves the token's
// user itself) adds the context {"ledger_api_error": "invalid token"} to
// the otherwise redacted body.
type tokenResolutionError struct{ err error }

func (e *tokenResolutionError) Error() string { return e.err.Error() }
func (e *tokenResolutionError) Unwrap() error { return e.err }

// fail writes err: a decodeError, or a Node error built by
// apierr.Malformed (a request breaking a rule of Canton's JSON codecs), as
// 400 text/plain "Invalid value for: body (…)"; anything else as a
// JsCantonError with the status of its category.
func (a *adapter) fail(w http.ResponseWriter, r *http.Request, err error) {
	var de *decodeError
	if errors.As(err, &de) {
		writeText(w, http.StatusBadRequest, de.Error())
		return
	}
	var df *apierr.DecodeFailure
	if errors.As(err, &df) {
		writeText(w, http.StatusBadRequest, invalidBody(df.Detail).Error())
		return
	}
	body, status := a.errorBody(r, err)
	writeJSON(w, status, body)
}

// errorBody builds the JsCantonError body of err and its HTTP status.
func (a *adapter) errorBody(r *http.Request, err error) (jsCantonError, int) {
	e := apierr.From(err)
	body := a.cantonError(r, e)
	var tre *tokenResolutionError
	if errors.As(err, &tre) && errors.Is(err, apierr.PermissionDenied) {
		body.Context["ledger_api_error"] = "invalid token"
	}
	if body.CorrelationID != nil {
		noteCorrelationID(r, *body.CorrelationID)
	}
	return body, e.HTTPStatus()
}

// cantonError builds the JsCantonError body of e, redacted when its
// category is security-sensitive (the details are then logged under the
// body's correlation id) unless Options.VerboseErrors is set.
func (a *adapter) cantonError(r *http.Request, e *apierr.Error) jsCantonError {
	grpc := int(e.GRPCCode())
	traceID := traceIDFrom(r)
	cat := e.Category()
	if cat.Redacted() && !a.verbose {
		corr := apierr.NewCorrelationID()
		a.log.Warn("httpadapter: security-sensitive error redacted for the client",
			"correlationId", corr,
			"errorCorrelationId", e.CorrelationID,
			"traceId", deref(traceID),
			"method", r.Method,
			"path", r.URL.Path,
			"code", e.Code.Name,
			"category", int(cat),
			"cause", e.Cause,
			"context", e.Context,
			"resources", e.Resources,
		)
		return jsCantonError{
			Code:          redactedCode,
			Cause:         redactedCause,
			CorrelationID: &corr,
			TraceID:       traceID,
			Context:       map[string]string{},
			Resources:     [][2]string{},
			ErrorCategory: int(apierr.CategoryRedacted),
			GRPCCodeValue: &grpc,
		}
	}
	ctx := make(map[string]string, len(e.Context)+2)
	maps.Copy(ctx, e.Context)
	ctx["category"] = strconv.Itoa(int(cat))
	if e.DefiniteAnswer != nil {
		ctx["definite_answer"] = strconv.FormatBool(*e.DefiniteAnswer)
	}
	res := e.Resources
	if res == nil {
		res = [][2]string{}
	}
	body := jsCantonError{
		Code:           e.Code.Name,
		Cause:          e.Cause,
		TraceID:        traceID,
		Context:        ctx,
		Resources:      res,
		ErrorCategory:  int(cat),
		GRPCCodeValue:  &grpc,
		DefiniteAnswer: e.DefiniteAnswer,
	}
	if e.CorrelationID != "" {
		c := e.CorrelationID
		body.CorrelationID = &c
	}
	retry := cat.Retry()
	if cat == e.Code.Category {
		// A code may set its own delay (INTERPRETATION_TIME_EXCEEDED: 60 s).
		retry = e.Retry()
	}
	if retry > 0 {
		s := scalaDuration(retry)
		body.RetryInfo = &s
	}
	return body
}

// scalaDuration formats d as Scala's FiniteDuration prints itself, in the
// largest unit that holds it exactly: "1 second", "30 seconds",
// "500 milliseconds".
func scalaDuration(d time.Duration) string {
	units := []struct {
		size time.Duration
		name string
	}{
		{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"},
		{time.Second, "second"}, {time.Millisecond, "millisecond"},
		{time.Microsecond, "microsecond"}, {time.Nanosecond, "nanosecond"},
	}
	for _, u := range units {
		if d%u.size == 0 {
			n := int64(d / u.size)
			if n == 1 {
				return "1 " + u.name
			}
			return fmt.Sprintf("%d %ss", n, u.name)
		}
	}
	return d.String() // unreachable: every duration is whole nanoseconds
}

// traceIDFrom returns the trace id of a valid W3C traceparent header
// ("00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>"), or nil.
func traceIDFrom(r *http.Request) *string {
	id := apierr.TraceID(r.Header.Get("traceparent"))
	if id == "" {
		return nil
	}
	return &id
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
