package identity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
)

// TestErrorTable: every kind has a Canton code in the table.
func TestErrorTable(t *testing.T) {
	n := 0
	for k := ErrorKind(1); k.String() != fmt.Sprintf("ErrorKind(%d)", int(k)); k++ {
		n++
		if _, ok := codes[k]; !ok {
			t.Errorf("kind %v has no Canton code", k)
		}
	}
	if n != len(codes) {
		t.Errorf("%d kinds have names, the table has %d entries", n, len(codes))
	}
	if got := ErrorKind(0).Code(); got.Name != apierr.InternalError.Name {
		t.Errorf("ErrorKind(0).Code() = %s, want %s", got.Name, apierr.InternalError.Name)
	}
}

// TestErrorKinds: every exported function's failure is an *Error of its
// kind, reachable with errors.As; the token path's is also the
// *apierr.Error of the kind's code.
func TestErrorKinds(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		err   func() error
		kind  ErrorKind
		field string
		api   bool // the error is already the kind's *apierr.Error
	}{
		{name: "party syntax", err: func() error { return ValidatePartyString("") }, kind: KindInvalid},
		{name: "ledger string syntax", err: func() error { return ValidateLedgerString("a@b") }, kind: KindInvalid},
		{name: "user id syntax", err: func() error { return ValidateUserID("a b") }, kind: KindInvalid},
		{name: "uid without delimiter", err: func() error { _, err := ParseUID("alice"); return err }, kind: KindInvalid},
		{name: "uid identifier", err: func() error { return ValidateUIDIdentifier("a::b") }, kind: KindInvalid},
		{name: "annotation key", err: func() error { return ValidateAnnotationKey("-bad") }, kind: KindInvalid},
		{name: "annotation value", err: func() error { return ValidateAnnotations(map[string]string{"k": ""}, false) }, kind: KindInvalid},
		{name: "annotations size", err: func() error {
			return ValidateAnnotations(map[string]string{"k": strings.Repeat("v", MaxAnnotationsSize)}, false)
		}, kind: KindAnnotationsTooLarge},
		{name: "right", err: func() error { return Right{Kind: RightCanActAs}.Validate() }, kind: KindInvalid},
		{name: "right json", err: func() error { var r Right; return r.UnmarshalJSON([]byte(`{"kind":{}}`)) }, kind: KindInvalid},
		{name: "idp missing id", err: func() error { return IdentityProviderConfig{}.Validate() }, kind: KindMissingField, field: "identity_provider_id"},
		{name: "idp bad id", err: func() error { return IdentityProviderConfig{IdentityProviderID: "a@b"}.Validate() }, kind: KindInvalidField, field: "identity_provider_id"},
		{name: "jwks url", err: func() error { return ValidateJWKSURL("ftp://x/jwks") }, kind: KindInvalidField, field: "jwks_url"},
		{name: "auth spec", err: func() error { _, err := ParseAuthSpec("bogus", VerifyOptions{}); return err }, kind: KindConfig},
		{name: "auth spec file", err: func() error { _, err := ParseAuthSpec("rs256:/nonexistent.pem", VerifyOptions{}); return err }, kind: KindConfig},
		{name: "public key", err: func() error { _, err := PublicKey("not a key"); return err }, kind: KindConfig},
		{name: "pem", err: func() error { _, err := ParsePublicKeyPEM(nil); return err }, kind: KindConfig},
		{name: "mint", err: func() error { _, err := MintHS256(nil, "alice", 0, nil); return err }, kind: KindConfig},
		{name: "unverified issuer", err: func() error { _, err := UnverifiedIssuer("a.b"); return err }, kind: KindUnauthenticated},
		{name: "verify", err: func() error {
			_, err := NewJWTVerifier(HMACSecret([]byte("s")), VerifyOptions{}).Verify(ctx, "")
			return err
		}, kind: KindUnauthenticated, api: true},
		{name: "verify bad token", err: func() error {
			_, err := NewJWTVerifier(HMACSecret([]byte("s")), VerifyOptions{}).Verify(ctx, "a.b.c")
			return err
		}, kind: KindUnauthenticated, api: true},
		{name: "key source", err: func() error { _, err := HMACSecret([]byte("s")).Key(ctx, AlgRS256, ""); return err }, kind: KindUnauthenticated, api: true},
		{name: "jwks", err: func() error { _, err := NewJWKS("http://x", JWKSOptions{}).Key(ctx, AlgHS256, ""); return err }, kind: KindUnauthenticated, api: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is no *identity.Error", err, err)
			}
			if e.Kind != tt.kind || e.Field != tt.field {
				t.Errorf("kind %v, field %q; want %v, %q", e.Kind, e.Field, tt.kind, tt.field)
			}
			var ae *apierr.Error
			isAPI := errors.As(err, &ae)
			if isAPI != tt.api {
				t.Fatalf("error %v is an *apierr.Error: %v, want %v", err, isAPI, tt.api)
			}
			if isAPI && (ae.Code.Name != tt.kind.Code().Name || ae.Cause != e.Message) {
				t.Errorf("apierr %s %q, want %s %q", ae.Code.Name, ae.Cause, tt.kind.Code().Name, e.Message)
			}
		})
	}
}

// TestAPIError: the table's Canton error of each kind of error, as a
// client sees it.
func TestAPIError(t *testing.T) {
	type wire struct {
		Code   string
		Status int
		Cause  string
	}
	tests := []struct {
		name string
		err  error
		want wire
	}{
		{"missing field", IdentityProviderConfig{IdentityProviderID: "idp"}.Validate(),
			wire{"MISSING_FIELD", 400, "The submitted command is missing a mandatory field: issuer"}},
		{"invalid field", ValidateJWKSURL("/jwks"),
			wire{"INVALID_FIELD", 400, `The submitted command has a field with invalid value: jwks_url: Malformed URL: "/jwks"`}},
		{"invalid", ValidateUserID("a b"),
			wire{"INVALID_ARGUMENT", 400, "The submitted request has invalid arguments: user id \"a b\" does not match [a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}"}},
		{"unauthenticated", newError(KindUnauthenticated, "token is empty"),
			wire{"UNAUTHENTICATED", 401, "token is empty"}},
		{"config", newError(KindConfig, "MintHS256: empty secret"),
			wire{"LEDGER_API_INTERNAL_ERROR", 500, "MintHS256: empty secret"}},
		{"already an apierr", apierr.UserNotFound.New("x"),
			wire{"USER_NOT_FOUND", 404, "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ae *apierr.Error
			if !errors.As(APIError(tt.err), &ae) {
				t.Fatalf("APIError(%v) is no *apierr.Error", tt.err)
			}
			got := wire{ae.Code.Name, ae.HTTPStatus(), ae.Cause}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.name != "already an apierr" && !errors.Is(ae, tt.err) {
				t.Errorf("APIError does not wrap %v", tt.err)
			}
		})
	}
	if APIError(nil) != nil {
		t.Error("APIError(nil) != nil")
	}
	other := errors.New("other")
	if APIError(other) != other {
		t.Error("APIError changed a foreign error")
	}
}
