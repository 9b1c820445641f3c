package identity_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// FuzzVerify feeds arbitrary strings to an HS256 verifier, twice: as a
// whole token, and as the payload of a token correctly signed with the
// verifier's secret (which reaches the claim rules). Verify must never
// panic, must fail only with UNAUTHENTICATED, and must never accept a token
// without a user id.
func FuzzVerify(f *testing.F) {
	secret := []byte("fuzz-secret")
	v := identity.NewJWTVerifier(identity.HMACSecret(secret), identity.VerifyOptions{
		Clock: authClock, ParticipantID: "participant1",
	})
	good := signToken(f, jwt.SigningMethodHS256, secret, "", baseClaims())
	expired := baseClaims()
	expired["exp"] = authNow.Add(-time.Hour).Unix()
	minted, err := identity.MintHS256(secret, "participant_admin", time.Hour, authClock)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		good, minted,
		signToken(f, jwt.SigningMethodHS256, secret, "", expired),
		signToken(f, jwt.SigningMethodHS256, secret, "kid", baseClaims()),
		signToken(f, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "", baseClaims()),
		"", ".", "..", "a.b.c", "eyJhbGciOiJIUzI1NiJ9.e30.", good + ".",
		`{"sub":"alice","scope":"daml_ledger_api"}`,
		`{"sub":"alice","scp":["daml_ledger_api"],"aud":"participant1"}`,
		`{"sub":"alice","aud":["https://daml.com/jwt/aud/participant/participant1","x"]}`,
		`{"sub":"alice","aud":"https://daml.com/jwt/aud/participant/"}`,
		`{"sub":"","scope":"daml_ledger_api"}`,
		`{"sub":"alice","scope":"daml_ledger_api","exp":1e300,"nbf":-1e300}`,
		`{"sub":"alice","scope":"daml_ledger_api","exp":"x"}`,
		`{"sub":1}`, `null`, `[]`, `"x"`,
	} {
		f.Add(s)
	}
	ctx := context.Background()
	check := func(t *testing.T, what string, c identity.Claims, err error) {
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apierr.Unauthenticated) {
				t.Fatalf("%s: error %v is not an UNAUTHENTICATED *apierr.Error", what, err)
			}
			return
		}
		if c.UserID == "" {
			t.Fatalf("%s: accepted a token without a user id: %+v", what, c)
		}
		if c.ParticipantID != "" && c.ParticipantID != "participant1" {
			t.Fatalf("%s: accepted a token for participant %q", what, c.ParticipantID)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := v.Verify(ctx, s)
		check(t, "token", c, err)

		// s as the payload of a correctly signed token.
		signing := b64u([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + b64u([]byte(s))
		mac := hmac.New(sha256.New, secret)
		mac.Write([]byte(signing))
		c, err = v.Verify(ctx, signing+"."+b64u(mac.Sum(nil)))
		check(t, "signed payload", c, err)
	})
}
