package identity_test

import (
	"context"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/identity"
)

func TestMintHS256(t *testing.T) {
	secret := []byte("mint-secret")
	clock := func() time.Time { return authNow.Add(500 * time.Millisecond) }
	for _, tc := range []struct {
		name string
		ttl  time.Duration
		want jwt.MapClaims
	}{
		{"with ttl", time.Hour, jwt.MapClaims{
			"sub": "participant_admin", "scope": "daml_ledger_api",
			"iat": float64(authNow.Unix()), "exp": float64(authNow.Add(time.Hour).Unix()),
		}},
		{"without ttl", 0, jwt.MapClaims{
			"sub": "participant_admin", "scope": "daml_ledger_api", "iat": float64(authNow.Unix()),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok, err := identity.MintHS256(secret, "participant_admin", tc.ttl, clock)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := jwt.Parse(tok, func(*jwt.Token) (any, error) { return secret, nil },
				jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(clock))
			if err != nil {
				t.Fatalf("parse minted token: %v", err)
			}
			if diff := cmp.Diff(tc.want, parsed.Claims); diff != "" {
				t.Errorf("claims (-want +got):\n%s", diff)
			}
			v := identity.NewJWTVerifier(identity.HMACSecret(secret), identity.VerifyOptions{Clock: clock})
			c, err := v.Verify(context.Background(), tok)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			want := identity.Claims{UserID: "participant_admin", Scopes: []string{"daml_ledger_api"}}
			if tc.ttl > 0 {
				want.ExpiresAt = authNow.Add(tc.ttl)
			}
			if diff := cmp.Diff(want, c); diff != "" {
				t.Errorf("verified claims (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMintHS256Expires(t *testing.T) {
	secret := []byte("mint-secret")
	tok, err := identity.MintHS256(secret, "bob", time.Minute, authClock)
	if err != nil {
		t.Fatal(err)
	}
	later := func() time.Time { return authNow.Add(time.Minute + 6*time.Second) }
	_, err = identity.NewJWTVerifier(identity.HMACSecret(secret), identity.VerifyOptions{Clock: later}).Verify(context.Background(), tok)
	checkUnauthenticated(t, err, "token expired")
}

func TestMintHS256DefaultClock(t *testing.T) {
	secret := []byte("mint-secret")
	tok, err := identity.MintHS256(secret, "bob", time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := identity.NewJWTVerifier(identity.HMACSecret(secret), identity.VerifyOptions{}).Verify(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
}

func TestMintHS256Rejects(t *testing.T) {
	if _, err := identity.MintHS256(nil, "bob", 0, nil); err == nil {
		t.Error("empty secret: no error")
	}
	if _, err := identity.MintHS256([]byte("s"), "", 0, nil); err == nil {
		t.Error("empty user: no error")
	}
}

func TestMintHS256Scope(t *testing.T) {
	secret := []byte("mint-secret")
	for _, tc := range []struct {
		name  string
		scope string
		want  jwt.MapClaims
	}{
		{"other scope", "other", jwt.MapClaims{"sub": "alice", "scope": "other", "iat": float64(authNow.Unix())}},
		{"two scopes", "daml_ledger_api other", jwt.MapClaims{"sub": "alice", "scope": "daml_ledger_api other", "iat": float64(authNow.Unix())}},
		{"no scope", "", jwt.MapClaims{"sub": "alice", "iat": float64(authNow.Unix())}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok, err := identity.MintHS256Scope(secret, "alice", tc.scope, 0, authClock)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := jwt.Parse(tok, func(*jwt.Token) (any, error) { return secret, nil },
				jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(authClock))
			if err != nil {
				t.Fatalf("parse minted token: %v", err)
			}
			if diff := cmp.Diff(tc.want, parsed.Claims); diff != "" {
				t.Errorf("claims (-want +got):\n%s", diff)
			}
		})
	}
}
