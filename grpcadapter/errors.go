package grpcadapter

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/ledgernode/ledgernode/apierr"
)

// Limits of Canton's status serialization
// (SerializableErrorCodeComponents, ErrorCode.MaxErrorContentBytes).
const (
	// maxCauseLength is the longest cause kept in the message
	// (MaxCauseLogLength); a longer one is cut and ends with "...".
	maxCauseLength = 512
	// maxStatusBytes bounds the serialized Status (MaxErrorContentBytes).
	maxStatusBytes = 4096
	// maxIDLength bounds trace and correlation ids
	// (MaxTraceIdCorrelationIdSize).
	maxIDLength = 256
)

// redactedPrefix starts the message of a redacted status
// (BaseError.RedactedMessage).
const redactedPrefix = "An error occurred. Please contact the operator and inquire about the request"

// invalidMetadataKey matches what Canton removes from context keys
// (ValidMetadataKeyRegex: "[^(a-zA-Z0-9-_)]").
var invalidMetadataKey = regexp.MustCompile(`[^(a-zA-Z0-9-_)]`)

// status returns err as the gRPC error Canton sends for it. An error that
// already is a gRPC status (a request gRPC could not decode) is kept; a
// context ended by the client is CANCELLED or DEADLINE_EXCEEDED.
func (a *Adapter) status(ctx context.Context, err error) error {
	var e *apierr.Error
	if !errors.As(err, &e) {
		if _, ok := status.FromError(err); ok {
			return err
		}
		switch {
		case errors.Is(err, context.Canceled):
			return status.Error(codes.Canceled, err.Error())
		case errors.Is(err, context.DeadlineExceeded):
			return status.Error(codes.DeadlineExceeded, err.Error())
		}
	}
	return status.ErrorProto(a.statusProto(ctx, apierr.From(err)))
}

// statusProto builds the google.rpc.Status of e as Canton's
// ErrorCode.asGrpcStatus does.
func (a *Adapter) statusProto(ctx context.Context, e *apierr.Error) *spb.Status {
	traceID := traceIDFrom(ctx)
	corr := truncateID(e.CorrelationID)
	cat := e.Category()
	code := int32(e.GRPCCode())
	if cat.Redacted() && !a.verbose {
		if corr == "" {
			// Canton prints "<no-correlation-id>"; a fresh id lets the
			// operator find the logged details.
			corr = apierr.NewCorrelationID()
		}
		a.log.Warn("grpcadapter: security-sensitive error redacted for the client",
			"correlationId", corr, "traceId", traceID, "method", methodFrom(ctx),
			"code", e.Code.Name, "category", int(cat), "cause", e.Cause,
			"context", e.Context, "resources", e.Resources)
		tid := traceID
		if tid == "" {
			tid = "<no-tid>"
		}
		return &spb.Status{
			Code:    code,
			Message: fmt.Sprintf("%s %s with tid %s", redactedPrefix, corr, tid),
			Details: []*anypb.Any{mustAny(&errdetails.RequestInfo{RequestId: corr})},
		}
	}
	if e.GRPCCode() == apierr.GRPCInternal {
		a.log.Warn("grpcadapter: internal error", "method", methodFrom(ctx), "error", e.Error())
	}

	md := map[string]string{}
	for k, v := range e.Context {
		k = invalidMetadataKey.ReplaceAllString(k, "")
		if len(k) > 63 {
			k = k[:63]
		}
		if k != "" && v != "" {
			md[k] = v
		}
	}
	if e.DefiniteAnswer != nil {
		md["definite_answer"] = strconv.FormatBool(*e.DefiniteAnswer)
	}
	if traceID != "" {
		md["tid"] = traceID
	}
	md["category"] = strconv.Itoa(int(cat))

	details := []*anypb.Any{mustAny(&errdetails.ErrorInfo{Reason: e.Code.Name, Metadata: md})}
	retry := cat.Retry()
	if cat == e.Code.Category {
		retry = e.Retry() // a code may set its own delay
	}
	if retry > 0 {
		details = append(details, mustAny(&errdetails.RetryInfo{RetryDelay: retryDelay(retry)}))
	}
	if id := firstNonEmpty(corr, traceID); id != "" {
		details = append(details, mustAny(&errdetails.RequestInfo{RequestId: id}))
	}
	for _, r := range e.Resources {
		details = append(details, mustAny(&errdetails.ResourceInfo{ResourceType: r[0], ResourceName: r[1]}))
	}
	st := &spb.Status{Code: code, Message: message(e, corr), Details: details}
	shrink(st, len(e.Resources))
	return st
}

// message is Canton's "CODE(category,correlation-id prefix): cause"
// (ErrorCodeMsg), the cause cut at maxCauseLength characters.
func message(e *apierr.Error, corr string) string {
	cause := e.Cause
	if utf8.RuneCountInString(cause) > maxCauseLength {
		cause = string([]rune(cause)[:maxCauseLength]) + "..."
	}
	c := "0"
	if corr != "" {
		c = corr
		if r := []rune(c); len(r) > 8 {
			c = string(r[:8])
		}
	}
	return fmt.Sprintf("%s(%d,%s): %s", e.Code.Name, int(e.Category()), c, cause)
}

// shrink keeps st within maxStatusBytes: Canton shares a budget between
// the context entries and the resources (truncateDetails); here, while st
// is too large, the last resource and then the longest context entry are
// dropped, which leaves every error of ordinary size as it is.
func shrink(st *spb.Status, resources int) {
	for proto.Size(st) > maxStatusBytes {
		if resources > 0 {
			st.Details = st.Details[:len(st.Details)-1]
			resources--
			continue
		}
		var info errdetails.ErrorInfo
		if err := st.Details[0].UnmarshalTo(&info); err != nil {
			return
		}
		keys := make([]string, 0, len(info.Metadata))
		for k := range info.Metadata {
			if k != "category" && k != "tid" && k != "definite_answer" {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return
		}
		sort.Slice(keys, func(i, j int) bool {
			return len(keys[i])+len(info.Metadata[keys[i]]) > len(keys[j])+len(info.Metadata[keys[j]])
		})
		delete(info.Metadata, keys[0])
		st.Details[0] = mustAny(&info)
	}
}

// retryDelay is Canton's RetryInfoDetail: whole milliseconds.
func retryDelay(d time.Duration) *durationpb.Duration {
	ms := d.Milliseconds()
	return &durationpb.Duration{Seconds: ms / 1000, Nanos: int32(ms%1000) * 1e6}
}

func mustAny(m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		panic(err) // the detail types are registered: unreachable
	}
	return a
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// truncateID cuts an id longer than maxIDLength as Canton does
// (truncateString: the first 253 characters and "...").
func truncateID(s string) string {
	if utf8.RuneCountInString(s) <= maxIDLength {
		return s
	}
	return string([]rune(s)[:maxIDLength-3]) + "..."
}

// traceIDFrom returns the trace id of a valid W3C traceparent metadata
// value ("00-<32 hex>-<16 hex>-<2 hex>"), or "".
func traceIDFrom(ctx context.Context) string {
	vs := metadata.ValueFromIncomingContext(ctx, "traceparent")
	if len(vs) == 0 {
		return ""
	}
	return apierr.TraceID(vs[0])
}

// methodFrom returns the full method name of the call ctx serves.
func methodFrom(ctx context.Context) string {
	m, _ := grpc.Method(ctx)
	return m
}
