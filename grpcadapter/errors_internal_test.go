package grpcadapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/ledgernode/ledgernode/apierr"
)

func anyOf(t *testing.T, m proto.Message) *anypb.Any {
	t.Helper()
	a, err := anypb.New(m)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

// TestStatusAsCanton: apierr errors become the google.rpc.Status Canton's
// ErrorCode.asGrpcStatus builds: code of the category, message
// "CODE(category,correlation prefix): cause", ErrorInfo with the context,
// category, definite_answer and tid, RetryInfo of the category (or code),
// RequestInfo with the correlation id (else the trace id), one
// ResourceInfo per resource, in that order.
func TestStatusAsCanton(t *testing.T) {
	a := &Adapter{log: slog.New(slog.DiscardHandler)}
	withTrace := metadata.NewIncomingContext(context.Background(), metadata.Pairs("traceparent", traceparent))
	const tid = "0af7651916cd43dd8448eb211c80319c"
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want func(t *testing.T) *spb.Status
	}{
		{"not found with a resource and a correlation id", context.Background(), func() error {
			e := apierr.UserNotFound.New("getting user bob failed: no such user").WithResource("USER", "bob")
			e.CorrelationID = "sub-123456789"
			return e
		}(), func(t *testing.T) *spb.Status {
			return &spb.Status{Code: int32(codes.NotFound), Message: "USER_NOT_FOUND(11,sub-1234): getting user bob failed: no such user", Details: []*anypb.Any{
				anyOf(t, &errdetails.ErrorInfo{Reason: "USER_NOT_FOUND", Metadata: map[string]string{"category": "11"}}),
				anyOf(t, &errdetails.RequestInfo{RequestId: "sub-123456789"}),
				anyOf(t, &errdetails.ResourceInfo{ResourceType: "USER", ResourceName: "bob"}),
			}}
		}},
		{"invalid argument with context, definite answer and a trace id", withTrace,
			apierr.InvalidArgument.New("bad thing").WithContext("field", "x").WithContext("bad key!", "y").WithDefiniteAnswer(false),
			func(t *testing.T) *spb.Status {
				return &spb.Status{Code: int32(codes.InvalidArgument), Message: "INVALID_ARGUMENT(8,0): The submitted request has invalid arguments: bad thing", Details: []*anypb.Any{
					anyOf(t, &errdetails.ErrorInfo{Reason: "INVALID_ARGUMENT", Metadata: map[string]string{"field": "x", "badkey": "y", "category": "8", "definite_answer": "false", "tid": tid}}),
					anyOf(t, &errdetails.RequestInfo{RequestId: tid}),
				}}
			}},
		{"contention retries after a second", context.Background(), apierr.ConcurrentUserUpdate.New("stale"),
			func(t *testing.T) *spb.Status {
				return &spb.Status{Code: int32(codes.Aborted), Message: "CONCURRENT_USER_UPDATE_DETECTED(2,0): stale", Details: []*anypb.Any{
					anyOf(t, &errdetails.ErrorInfo{Reason: "CONCURRENT_USER_UPDATE_DETECTED", Metadata: map[string]string{"category": "2"}}),
					anyOf(t, &errdetails.RetryInfo{RetryDelay: durationpb.New(time.Second)}),
				}}
			}},
		{"a plain Go error is an internal error", context.Background(), errors.New("disk on fire"),
			func(t *testing.T) *spb.Status {
				return &spb.Status{Code: int32(codes.Internal), Message: "LEDGER_API_INTERNAL_ERROR(4,0): …", Details: nil}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := a.statusProto(tc.ctx, apierr.From(tc.err))
			want := tc.want(t)
			if strings.HasSuffix(want.Message, "…") {
				// Internal errors are redacted: check the shape only.
				if got.Code != want.Code || !strings.HasPrefix(got.Message, redactedPrefix) {
					t.Errorf("status %v, want a redacted INTERNAL", got)
				}
				return
			}
			if d := cmp.Diff(want, got, protocmp.Transform()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestStatusRedaction: security-sensitive categories are redacted to
// Canton's message with the correlation id (the error's own, else a
// fresh one, under which the details are logged) and the trace id; with
// VerboseErrors they are sent whole.
func TestStatusRedaction(t *testing.T) {
	var log strings.Builder
	a := &Adapter{log: slog.New(slog.NewTextHandler(&log, nil))}
	withTrace := metadata.NewIncomingContext(context.Background(), metadata.Pairs("traceparent", traceparent))
	st := a.statusProto(withTrace, apierr.PermissionDenied.New("secret reason"))
	const tidMsg = " with tid 0af7651916cd43dd8448eb211c80319c"
	if st.Code != int32(codes.PermissionDenied) || !strings.HasPrefix(st.Message, redactedPrefix+" ") || !strings.HasSuffix(st.Message, tidMsg) || strings.Contains(st.Message, "secret") {
		t.Fatalf("redacted status %v", st)
	}
	corr := strings.TrimSuffix(strings.TrimPrefix(st.Message, redactedPrefix+" "), tidMsg)
	var ri errdetails.RequestInfo
	if len(st.Details) != 1 || st.Details[0].UnmarshalTo(&ri) != nil || ri.RequestId != corr {
		t.Errorf("details %v, want RequestInfo %s", st.Details, corr)
	}
	if !strings.Contains(log.String(), corr) || !strings.Contains(log.String(), "secret reason") {
		t.Errorf("the log %q lacks the correlation id or the cause", log.String())
	}

	e := apierr.Unauthenticated.New("expired")
	e.CorrelationID = "cmd-1"
	if st := a.statusProto(context.Background(), e); st.Message != redactedPrefix+" cmd-1 with tid <no-tid>" {
		t.Errorf("message %q", st.Message)
	}

	a.verbose = true
	st = a.statusProto(context.Background(), apierr.PermissionDenied.New("secret reason"))
	var info errdetails.ErrorInfo
	if st.Message != "PERMISSION_DENIED(7,0): "+apierr.PermissionDenied.New("secret reason").Cause || st.Details[0].UnmarshalTo(&info) != nil || info.Reason != "PERMISSION_DENIED" {
		t.Errorf("verbose status %v", st)
	}
}

// TestStatusLimits: a cause longer than 512 characters is cut with
// "...", and a status with huge context stays within 4096 bytes.
func TestStatusLimits(t *testing.T) {
	a := &Adapter{log: slog.New(slog.DiscardHandler)}
	long := strings.Repeat("é", 600)
	st := a.statusProto(context.Background(), apierr.InvalidArgument.New("%s", long))
	cause := []rune(apierr.InvalidArgument.New("%s", long).Cause)
	wantMsg := "INVALID_ARGUMENT(8,0): " + string(cause[:512]) + "..."
	if st.Message != wantMsg {
		t.Errorf("message of %d runes, want %d", len([]rune(st.Message)), len([]rune(wantMsg)))
	}
	e := apierr.InvalidArgument.New("big")
	e.Context = map[string]string{}
	for i := range 100 {
		e.Context[fmt.Sprintf("k%03d", i)] = strings.Repeat("v", 90)
	}
	for i := range 30 {
		e.Resources = append(e.Resources, [2]string{"PARTY", fmt.Sprintf("p%d%s", i, strings.Repeat("x", 90))})
	}
	st = a.statusProto(context.Background(), e)
	if n := proto.Size(st); n > maxStatusBytes {
		t.Errorf("status of %d bytes, want at most %d", n, maxStatusBytes)
	}
	var info errdetails.ErrorInfo
	if err := st.Details[0].UnmarshalTo(&info); err != nil || info.Metadata["category"] != "8" || len(info.Metadata) < 10 {
		t.Errorf("ErrorInfo %v lost too much", &info)
	}
}

// TestStatusKeepsGRPCErrors: errors that are already gRPC statuses, and
// ended contexts, are not turned into internal errors.
func TestStatusKeepsGRPCErrors(t *testing.T) {
	a := &Adapter{log: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct {
		err  error
		code codes.Code
	}{
		{status.Error(codes.ResourceExhausted, "too big"), codes.ResourceExhausted},
		{fmt.Errorf("reading: %w", context.Canceled), codes.Canceled},
		{context.DeadlineExceeded, codes.DeadlineExceeded},
		{io.ErrUnexpectedEOF, codes.Internal},
	} {
		if got := status.Code(a.status(context.Background(), tc.err)); got != tc.code {
			t.Errorf("%v: code %v, want %v", tc.err, got, tc.code)
		}
	}
}
