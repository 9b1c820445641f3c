package ledger

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/engine/prim"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
)

// wireError is what a client sees of an *apierr.Error.
type wireError struct {
	Code      string
	Category  apierr.Category
	GRPC      apierr.GRPCCode
	HTTP      int
	Retry     time.Duration
	Cause     string
	Context   map[string]string
	Resources [][2]string
}

func toWire(e *apierr.Error) wireError {
	return wireError{Code: e.Code.Name, Category: e.Category(), GRPC: e.GRPCCode(), HTTP: e.HTTPStatus(),
		Retry: e.Retry(), Cause: e.Cause, Context: e.Context, Resources: e.Resources}
}

const pfx = "Interpretation error: Error: "

// TestEngineErrors: every engine error kind reaches the client with
// Canton's code, category, gRPC code, HTTP status, cause, context and
// resources (Canton's RejectionGenerators and the
// CommandExecution.Interpreter error codes), and every kind the engine defines has a
// row here and a code in engineCodes.
func TestEngineErrors(t *testing.T) {
	tpl := lf.TypeConID{PackageID: "0123456789abcdef", Module: "Main", Name: "Iou"}
	cid := "00" + fmt.Sprintf("%064x", 7)
	auth := &tx.AuthorizationError{Kind: tx.CreateMissingAuthorization, NodeID: 0, TemplateID: tpl, Required: []string{"alice", "bob"}, Authorizers: []string{"alice"}}
	inactive := &tx.ContractNotActiveError{ContractID: "00aa", TemplateID: tpl, ConsumedBy: 3}
	rollback := &tx.EffectfulRollbackError{Nodes: []tx.Node{&tx.Create{ContractID: "00bb", TemplateID: tpl}}}
	crypto := func(k prim.CryptoErrorKind) *prim.CryptoError {
		return &prim.CryptoError{Kind: k, Value: "zz", Cause: "not hex"}
	}
	withCause := func(kind engine.ErrorKind, cause error) *engine.Error {
		return &engine.Error{Kind: kind, Message: cause.Error(), Cause: cause}
	}
	msg := func(kind engine.ErrorKind, m string) *engine.Error { return &engine.Error{Kind: kind, Message: m} }
	bad := func(code string, cat apierr.Category, grpc apierr.GRPCCode, http int, cause string, res ...[2]string) wireError {
		return wireError{Code: code, Category: cat, GRPC: grpc, HTTP: http, Cause: cause, Resources: res}
	}
	const (
		c8  = apierr.InvalidIndependentOfSystemState
		c9  = apierr.InvalidGivenCurrentSystemStateOther
		c11 = apierr.InvalidGivenCurrentSystemStateResourceMissing
	)
	tests := []struct {
		name string
		err  *engine.Error
		want wireError
	}{
		{"internal", msg(engine.ErrInternal, "no matching case alternative"),
			bad("LEDGER_API_INTERNAL_ERROR", apierr.SystemInternalAssumptionViolated, apierr.GRPCInternal, 500,
				"Daml-Engine interpretation failed with internal error: no matching case alternative")},
		{"user error", msg(engine.ErrUserError, "Amount must be positive"),
			bad("INTERPRETATION_USER_ERROR", c9, apierr.GRPCFailedPrecondition, 400, pfx+"User abort: Amount must be positive",
				[2]string{"EXCEPTION_TEXT", "Amount must be positive"})},
		{"unhandled exception", &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed", Category: 9, Message: "Assertion failed"},
			wireError{Code: "DAML_FAILURE", Category: c9, GRPC: apierr.GRPCFailedPrecondition, HTTP: 400,
				Cause:   pfx + "User failure: UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed (error category 9): Assertion failed",
				Context: map[string]string{"error_id": "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed"}}},
		{"fail with status 8, metadata", &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "MY_ERROR", Category: 8, Message: "bad input",
			Metadata: map[string]string{"field": "amount", "error_id": "spoofed"}},
			wireError{Code: "DAML_FAILURE", Category: c8, GRPC: apierr.GRPCInvalidArgument, HTTP: 400,
				Cause:   pfx + "User failure: MY_ERROR (error category 8): bad input",
				Context: map[string]string{"error_id": "MY_ERROR", "field": "amount"}}},
		{"fail with status 11", &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "GONE", Category: 11, Message: "no"},
			wireError{Code: "DAML_FAILURE", Category: c11, GRPC: apierr.GRPCNotFound, HTTP: 404,
				Cause: pfx + "User failure: GONE (error category 11): no", Context: map[string]string{"error_id": "GONE"}}},
		{"fail with status, invalid category", &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "X", Category: 42, Message: "m"},
			bad("LEDGER_API_INTERNAL_ERROR", apierr.SystemInternalAssumptionViolated, apierr.GRPCInternal, 500,
				"Error category ordinal 42 is not a valid error category. This is likely a programming bug. Please report this error. "+
					"Original raised error cause: "+pfx+"User failure: X (error category 42): m")},
		{"fail with status, category overflowing int", &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "X", Category: 1<<32 + 8, Message: "m"},
			bad("LEDGER_API_INTERNAL_ERROR", apierr.SystemInternalAssumptionViolated, apierr.GRPCInternal, 500,
				"Error category ordinal 4294967304 is not a valid error category. This is likely a programming bug. Please report this error. "+
					"Original raised error cause: "+pfx+"User failure: X (error category 4294967304): m")},
		{"non-comparable", msg(engine.ErrNonComparableValues, "functions are not comparable"),
			bad("NON_COMPARABLE_VALUES", c8, apierr.GRPCInvalidArgument, 400, pfx+"functions are not comparable")},
		{"cid comparability", msg(engine.ErrContractIDComparability, "The global contract ID "+cid+" conflicts with a local contract ID"),
			bad("CONTRACT_ID_COMPARABILITY", c8, apierr.GRPCInvalidArgument, 400, pfx+"The global contract ID "+cid+" conflicts with a local contract ID")},
		{"value nesting", msg(engine.ErrValueNesting, "Value exceeds maximum nesting value of 100"),
			bad("VALUE_NESTING", c8, apierr.GRPCInvalidArgument, 400, pfx+"Value exceeds maximum nesting value of 100")},
		{"malformed text", msg(engine.ErrMalformedText, "Text is malformed: invalid UTF-8"),
			bad("MALFORMED_TEXT", c8, apierr.GRPCInvalidArgument, 400, pfx+"Text is malformed: invalid UTF-8")},
		{"wrongly typed", msg(engine.ErrWronglyTypedContract, "Update failed due to wrongly typed contract id 00aa\nExpected contract of type A but got B"),
			bad("WRONGLY_TYPED_CONTRACT", c9, apierr.GRPCFailedPrecondition, 400, pfx+"Update failed due to wrongly typed contract id 00aa\nExpected contract of type A but got B")},
		{"requiring interface", msg(engine.ErrContractDoesNotImplementRequiringInterface, "Update failed due to contract 00aa not implementing the requiring interface"),
			bad("CONTRACT_DOES_NOT_IMPLEMENT_REQUIRING_INTERFACE", c8, apierr.GRPCInvalidArgument, 400, pfx+"Update failed due to contract 00aa not implementing the requiring interface")},
		{"crypto bytes", withCause(engine.ErrCryptoMalformedByteEncoding, crypto(prim.MalformedByteEncoding)),
			bad("INTERPRETATION_CRYPTO_ERROR_MALFORMED_BYTE_ENCODING", c9, apierr.GRPCFailedPrecondition, 400,
				pfx+"Invalid byte encoding format for zz :\nnot hex", [2]string{"CRYPTO_VALUE", "zz"})},
		{"crypto key", withCause(engine.ErrCryptoMalformedKey, crypto(prim.MalformedKey)),
			bad("INTERPRETATION_CRYPTO_ERROR_MALFORMED_KEY", c9, apierr.GRPCFailedPrecondition, 400,
				pfx+"Malformed public key for zz :\nnot hex", [2]string{"CRYPTO_VALUE", "zz"})},
		{"crypto signature", withCause(engine.ErrCryptoMalformedSignature, crypto(prim.MalformedSignature)),
			bad("INTERPRETATION_CRYPTO_ERROR_MALFORMED_SIGNATURE", c9, apierr.GRPCFailedPrecondition, 400,
				pfx+"Malformed signature for zz :\nnot hex", [2]string{"CRYPTO_VALUE", "zz"})},
		{"package", msg(engine.ErrPackage, "unknown package abc"),
			bad("LEDGER_API_INTERNAL_ERROR", apierr.SystemInternalAssumptionViolated, apierr.GRPCInternal, 500, "unknown package abc")},
		{"step limit", msg(engine.ErrStepLimit, "evaluation exceeded the budget of 10 steps"),
			bad("INTERPRETATION_DEV_ERROR", c9, apierr.GRPCFailedPrecondition, 400,
				pfx+"Cost budget has been exceeded:\nevaluation exceeded the budget of 10 steps", [2]string{"DEV_ERROR_TYPE", "Cost"})},
		{"time limit", &engine.Error{Kind: engine.ErrCanceled, Message: "context deadline exceeded",
			Cause: fmt.Errorf("deadline: %w", &interpretationDeadline{let: time.Date(2026, 1, 2, 3, 4, 5, 123_000_000, time.UTC), tolerance: time.Minute})},
			wireError{Code: "INTERPRETATION_TIME_EXCEEDED", Category: apierr.ContentionOnSharedResources, GRPC: apierr.GRPCAborted, HTTP: 409, Retry: time.Minute,
				Cause: "Time exceeds limit of Ledger Effective Time (2026-01-02T03:04:05.123Z) + tolerance (1m). Interpretation aborted."}},
		{"unsupported", msg(engine.ErrUnsupported, "builtin X is not supported"),
			bad("UNSUPPORTED_OPERATION", apierr.InternalUnsupportedOperation, apierr.GRPCUnimplemented, 501, "builtin X is not supported")},
		{"contract not found (store)", msg(engine.ErrContractNotFound, "Contract could not be found with id "+cid),
			bad("CONTRACT_NOT_FOUND", c11, apierr.GRPCNotFound, 404, "Contract could not be found with id "+cid, [2]string{"CONTRACT_ID", cid})},
		{"contract not found (store error)", &engine.Error{Kind: engine.ErrContractNotFound, Message: "Contract could not be found with id " + cid, Cause: errors.New("disk")},
			bad("CONTRACT_NOT_FOUND", c11, apierr.GRPCNotFound, 404, "Contract could not be found with id "+cid, [2]string{"CONTRACT_ID", cid})},
		{"contract not found (rolled back)", withCause(engine.ErrContractNotFound, &tx.ContractNotFoundError{ContractID: "00cc"}),
			bad("CONTRACT_NOT_FOUND", c11, apierr.GRPCNotFound, 404, "Contract could not be found with id 00cc", [2]string{"CONTRACT_ID", "00cc"})},
		{"contract not active", withCause(engine.ErrContractNotActive, inactive),
			bad("CONTRACT_NOT_ACTIVE", c11, apierr.GRPCNotFound, 404,
				pfx+"Update failed due to fetch of an inactive contract 00aa (Main:Iou@01234567).\nThe contract had been consumed in sub-transaction #NodeId(3):",
				[2]string{"TEMPLATE_ID", "0123456789abcdef:Main:Iou"}, [2]string{"CONTRACT_ID", "00aa"})},
		{"authorization", withCause(engine.ErrFailedAuthorization, auth),
			bad("DAML_AUTHORIZATION_ERROR", c8, apierr.GRPCInvalidArgument, 400,
				pfx+"node NodeId(0) (0123456789abcdef:Main:Iou) requires authorizers alice,bob, but only alice were given")},
		{"precondition", msg(engine.ErrTemplatePreconditionViolated, "Update failed due to precondition violation when creating Main:Iou@01234567"),
			bad("TEMPLATE_PRECONDITION_VIOLATED", c8, apierr.GRPCInvalidArgument, 400, pfx+"Update failed due to precondition violation when creating Main:Iou@01234567")},
		{"not implementing interface", msg(engine.ErrContractDoesNotImplementInterface, "Update failed due to contract 00aa not implementing an interface"),
			bad("CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE", c8, apierr.GRPCInvalidArgument, 400, pfx+"Update failed due to contract 00aa not implementing an interface")},
		{"effectful rollback", withCause(engine.ErrEffectfulRollback, rollback),
			bad("DAML_EFFECTFUL_ROLLBACK_ERROR", c8, apierr.GRPCInvalidArgument, 400, pfx+"Tried to rollback side-effectful node(s): Create of Main:Iou@01234567(00bb)")},
		{"upgrade translation", msg(engine.ErrUpgradeTranslationFailed, "Translation of contract 00aa fails."),
			bad("INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED", c8, apierr.GRPCInvalidArgument, 400, pfx+"Translation of contract 00aa fails.")},
		{"upgrade validation", msg(engine.ErrUpgradeValidationFailed, "Validation fails when trying to upgrade the contract 00aa"),
			bad("INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED", c8, apierr.GRPCInvalidArgument, 400, pfx+"Validation fails when trying to upgrade the contract 00aa")},
		{"key not found", msg(engine.ErrContractKeyNotFound, "dependency error: couldn't find key: GlobalKey(p:M:T, \"k\")"),
			bad("CONTRACT_KEY_NOT_FOUND", c11, apierr.GRPCNotFound, 404, "dependency error: couldn't find key: GlobalKey(p:M:T, \"k\")")},
		{"unresolved package name", msg(engine.ErrUnresolvedPackageName, "Update failed due to a failed package name resolution: splice-amulet"),
			bad("UNRESOLVED_PACKAGE_NAME", c11, apierr.GRPCNotFound, 404, pfx+"Update failed due to a failed package name resolution: splice-amulet")},
		{"create empty maintainers", msg(engine.ErrCreateEmptyContractKeyMaintainers, "Update failed due to a contract key with an empty set of maintainers when creating M:T@p"),
			bad("CREATE_EMPTY_CONTRACT_KEY_MAINTAINERS", c8, apierr.GRPCInvalidArgument, 400, pfx+"Update failed due to a contract key with an empty set of maintainers when creating M:T@p")},
		{"fetch empty maintainers", msg(engine.ErrFetchEmptyContractKeyMaintainers, "Update failed due to a contract key with an empty set of maintainers when fetching or looking up by key"),
			bad("FETCH_EMPTY_CONTRACT_KEY_MAINTAINERS", c8, apierr.GRPCInvalidArgument, 400, pfx+"Update failed due to a contract key with an empty set of maintainers when fetching or looking up by key")},
		{"cid in key", msg(engine.ErrContractIDInContractKey, "Contract IDs are not supported in contract keys: 00aa"),
			bad("CONTRACT_ID_IN_CONTRACT_KEY", c8, apierr.GRPCInvalidArgument, 400, pfx+"Contract IDs are not supported in contract keys: 00aa")},
		{"unknown kind", msg(engine.ErrorKind(9999), "what"),
			bad("LEDGER_API_INTERNAL_ERROR", apierr.SystemInternalAssumptionViolated, apierr.GRPCInternal, 500, "unmapped Daml engine error ErrorKind(9999): what")},
	}
	covered := map[engine.ErrorKind]bool{engine.ErrCanceled: true} // TestEngineCanceled
	for _, tc := range tests {
		covered[tc.err.Kind] = true
		t.Run(tc.name, func(t *testing.T) {
			got := damlError(fmt.Errorf("interpret: %w", tc.err))
			var ae *apierr.Error
			if !errors.As(got, &ae) {
				t.Fatalf("damlError = %T %v, want *apierr.Error", got, got)
			}
			if diff := cmp.Diff(tc.want, toWire(ae)); diff != "" {
				t.Errorf("wire error (-want +got):\n%s", diff)
			}
			var back *engine.Error
			if !errors.As(got, &back) || back != tc.err {
				t.Errorf("the engine error is not reachable through Unwrap")
			}
		})
	}
	for k := engine.ErrorKind(1); k.String() != fmt.Sprintf("ErrorKind(%d)", int(k)); k++ {
		if !covered[k] {
			t.Errorf("engine kind %v has no test row", k)
		}
		if _, ok := engineCodes[k]; !ok && k != engine.ErrCanceled {
			t.Errorf("engine kind %v has no Canton code", k)
		}
	}
}

// TestEngineCanceled: a cancelled run is the bare context error, except
// when the interpretation deadline ended it (INTERPRETATION_TIME_EXCEEDED).
func TestEngineCanceled(t *testing.T) {
	canceled := &engine.Error{Kind: engine.ErrCanceled, Message: context.Canceled.Error(), Cause: context.Canceled}
	if got := damlError(canceled); got != context.Canceled {
		t.Errorf("damlError(canceled) = %v, want context.Canceled", got)
	}
	deadline := &engine.Error{Kind: engine.ErrCanceled, Message: "deadline", Cause: context.DeadlineExceeded}
	if got := damlError(deadline); got != context.DeadlineExceeded {
		t.Errorf("damlError(deadline) = %v, want context.DeadlineExceeded", got)
	}

	let := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ctx, cancel := withInterpretationDeadline(context.Background(), let, 90*time.Second)
	defer cancel()
	<-ctx.Done() // let + 90 s is in the past
	run := &engine.Error{Kind: engine.ErrCanceled, Message: ctx.Err().Error(), Cause: ctx.Err()}
	var ae *apierr.Error
	if got := interpretationError(ctx, fmt.Errorf("submit: %w", run)); !errors.As(got, &ae) || !errors.Is(got, apierr.InterpretationTimeExceeded) {
		t.Fatalf("interpretationError = %v, want INTERPRETATION_TIME_EXCEEDED", got)
	}
	want := wireError{Code: "INTERPRETATION_TIME_EXCEEDED", Category: apierr.ContentionOnSharedResources, GRPC: apierr.GRPCAborted, HTTP: 409, Retry: time.Minute,
		Cause: "Time exceeds limit of Ledger Effective Time (2026-01-02T03:04:05Z) + tolerance (1m 30s). Interpretation aborted."}
	if diff := cmp.Diff(want, toWire(ae)); diff != "" {
		t.Errorf("time exceeded (-want +got):\n%s", diff)
	}

	plain, cancel2 := context.WithCancel(context.Background())
	cancel2()
	run2 := &engine.Error{Kind: engine.ErrCanceled, Message: plain.Err().Error(), Cause: plain.Err()}
	if got := interpretationError(plain, run2); got != context.Canceled {
		t.Errorf("interpretationError(cancelled) = %v, want context.Canceled", got)
	}
	other := &engine.Error{Kind: engine.ErrUserError, Message: "x"}
	if got := interpretationError(ctx, other); !errors.Is(got, apierr.InterpretationUserError) {
		t.Errorf("interpretationError(user error) = %v, want INTERPRETATION_USER_ERROR", got)
	}
}

// TestJavaTimeText: times and durations print as Canton prints them.
func TestJavaTimeText(t *testing.T) {
	instants := []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "2026-01-02T03:04:05Z"},
		{time.Date(2026, 1, 2, 3, 4, 5, 120_000_000, time.UTC), "2026-01-02T03:04:05.120Z"},
		{time.Date(2026, 1, 2, 3, 4, 5, 123_400_000, time.UTC), "2026-01-02T03:04:05.123400Z"},
		{time.Date(2026, 1, 2, 3, 4, 5, 1, time.FixedZone("x", 3600)), "2026-01-02T02:04:05.000000001Z"},
	}
	for _, tc := range instants {
		if got := javaInstant(tc.t); got != tc.want {
			t.Errorf("javaInstant(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
	durations := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {time.Minute, "1m"}, {90 * time.Second, "1m 30s"}, {24 * time.Hour, "24h"},
		{time.Hour + 500*time.Millisecond, "1h 0.5s"}, {1500 * time.Microsecond, "0.0015s"},
	}
	for _, tc := range durations {
		if got := javaDuration(tc.d); got != tc.want {
			t.Errorf("javaDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
