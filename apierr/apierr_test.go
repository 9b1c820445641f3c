package apierr_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
)

func TestCategoryMapping(t *testing.T) {
	for _, tc := range []struct {
		cat      apierr.Category
		grpc     apierr.GRPCCode
		status   int
		retry    time.Duration
		redacted bool
	}{
		{apierr.TransientServerFailure, 14, 503, time.Second, false},
		{apierr.ContentionOnSharedResources, 10, 409, time.Second, false},
		{apierr.DeadlineExceededRequestStateUnknown, 4, 504, time.Second, false},
		{apierr.SystemInternalAssumptionViolated, 13, 500, 0, true},
		{apierr.SecurityAlert, 3, 400, 0, true},
		{apierr.AuthInterceptorInvalidAuthenticationCredentials, 16, 401, 0, true},
		{apierr.InsufficientPermission, 7, 403, 0, true},
		{apierr.InvalidIndependentOfSystemState, 3, 400, 0, false},
		{apierr.InvalidGivenCurrentSystemStateOther, 9, 400, 0, false},
		{apierr.InvalidGivenCurrentSystemStateResourceExists, 6, 409, 0, false},
		{apierr.InvalidGivenCurrentSystemStateResourceMissing, 5, 404, 0, false},
		{apierr.InvalidGivenCurrentSystemStateSeekAfterEnd, 11, 400, time.Second, false},
		{apierr.BackgroundProcessDegradationWarning, 13, 500, 0, false},
		{apierr.InternalUnsupportedOperation, 12, 501, 0, true},
	} {
		t.Run(tc.cat.String(), func(t *testing.T) {
			if got := tc.cat.GRPC(); got != tc.grpc {
				t.Errorf("GRPC() = %d, want %d", got, tc.grpc)
			}
			if got := tc.cat.GRPC().HTTPStatus(); got != tc.status {
				t.Errorf("HTTP status = %d, want %d", got, tc.status)
			}
			if got := tc.cat.Retry(); got != tc.retry {
				t.Errorf("Retry() = %v, want %v", got, tc.retry)
			}
			if got := tc.cat.Redacted(); got != tc.redacted {
				t.Errorf("Redacted() = %v, want %v", got, tc.redacted)
			}
		})
	}
}

func TestGRPCToHTTP(t *testing.T) {
	want := map[apierr.GRPCCode]int{0: 200, 1: 499, 2: 500, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403,
		8: 429, 9: 400, 10: 409, 11: 400, 12: 501, 13: 500, 14: 503, 15: 500, 16: 401, 99: 500}
	for code, status := range want {
		if got := code.HTTPStatus(); got != status {
			t.Errorf("gRPC %d -> HTTP %d, want %d", code, got, status)
		}
	}
}

func TestErrorsIsAndAs(t *testing.T) {
	base := apierr.UserNotFound.New("user %s not found", "bob").WithResource("USER", "bob")
	wrapped := fmt.Errorf("creating: %w", base)
	if !errors.Is(wrapped, apierr.UserNotFound) {
		t.Error("errors.Is(wrapped, UserNotFound) = false")
	}
	if errors.Is(wrapped, apierr.UserAlreadyExists) {
		t.Error("errors.Is(wrapped, UserAlreadyExists) = true")
	}
	var e *apierr.Error
	if !errors.As(wrapped, &e) || e.HTTPStatus() != 404 || e.Resources[0] != [2]string{"USER", "bob"} {
		t.Fatalf("errors.As gave %+v", e)
	}
	if got, want := e.Error(), "USER_NOT_FOUND(11): user bob not found"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	cause := errors.New("disk on fire")
	internal := apierr.From(cause)
	if !errors.Is(internal, apierr.InternalError) || !errors.Is(internal, cause) || internal.HTTPStatus() != 500 {
		t.Errorf("From(plain error) = %v", internal)
	}
	if apierr.From(nil) != nil {
		t.Error("From(nil) != nil")
	}
	if got := apierr.InvalidArgument.New("x").Cause; got != "The submitted request has invalid arguments: x" {
		t.Errorf("INVALID_ARGUMENT cause = %q", got)
	}
	if got := apierr.MaximumListElementsReached.New("too many").HTTPStatus(); got != 413 {
		t.Errorf("list limit status = %d, want 413", got)
	}
}

func TestQuote(t *testing.T) {
	long := strings.Repeat("a", 3<<19)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"short", "alice::1220ab", "alice::1220ab"},
		{"at the limit", strings.Repeat("b", apierr.QuoteLimit), strings.Repeat("b", apierr.QuoteLimit)},
		{"one over", strings.Repeat("c", apierr.QuoteLimit+1), strings.Repeat("c", 100) + "…(257 bytes)"},
		{"huge", long, strings.Repeat("a", 100) + "…(1572864 bytes)"},
		// A two-byte rune straddles byte 100: the cut backs off before it.
		{"utf-8 boundary", strings.Repeat("d", 99) + strings.Repeat("é", 200), strings.Repeat("d", 99) + "…(499 bytes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := apierr.Quote(tc.in); got != tc.want {
				t.Errorf("Quote = %.200q (%d bytes), want %.200q", got, len(got), tc.want)
			}
		})
	}
	e := apierr.InvalidArgument.New("x").WithResource("CONTRACT_ID", long).WithContext("k", long)
	if len(e.Resources[0][1]) > 200 || len(e.Context["k"]) > 200 {
		t.Errorf("WithResource/WithContext keep %d/%d bytes of a 1.5 MiB value", len(e.Resources[0][1]), len(e.Context["k"]))
	}
}

// TestNewCorrelationID: a correlation id is a UUID v4, fresh each time.
func TestNewCorrelationID(t *testing.T) {
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := apierr.NewCorrelationID(), apierr.NewCorrelationID()
	if !uuid.MatchString(a) || !uuid.MatchString(b) || a == b {
		t.Errorf("correlation ids %q and %q, want two different UUID v4", a, b)
	}
}

// TestTraceID: the trace id of valid W3C traceparent values, "" for the
// rest.
func TestTraceID(t *testing.T) {
	const id = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, tc := range []struct{ in, want string }{
		{"00-" + id + "-00f067aa0ba902b7-01", id},
		{" 00-" + id + "-00f067aa0ba902b7-00 ", id},
		{"01-" + id + "-00f067aa0ba902b7-01-future", id},
		{"00-" + id + "-00f067aa0ba902b7-01-extra", ""},
		{"ff-" + id + "-00f067aa0ba902b7-01", ""},
		{"00-" + strings.ToUpper(id) + "-00f067aa0ba902b7-01", ""},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", ""},
		{"00-" + id + "-0000000000000000-01", ""},
		{"00-" + id[:31] + "-00f067aa0ba902b7-01", ""},
		{"", ""},
	} {
		if got := apierr.TraceID(tc.in); got != tc.want {
			t.Errorf("TraceID(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
