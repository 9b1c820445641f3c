package identity_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ledgernode/ledgernode/identity"
)

// authKind is one way of configuring the verifier's key, with the tokens
// it must accept and the foreign tokens it must refuse.
type authKind struct {
	name   string
	method jwt.SigningMethod
	sign   any    // signs good tokens
	other  any    // a different key of the same kind (bad signature)
	kid    string // kid header of good tokens
	source identity.KeySource
	// foreign are tokens of another algorithm or key kind, or alg none,
	// each of which must be refused with the given cause.
	foreign []foreignToken
}

type foreignToken struct {
	name   string
	method jwt.SigningMethod
	key    any
	cause  string
}

func mustSource(t *testing.T, pemBytes []byte) identity.KeySource {
	t.Helper()
	pub, err := identity.ParsePublicKeyPEM(pemBytes)
	if err != nil {
		t.Fatal(err)
	}
	src, err := identity.PublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// authKinds returns the key kinds of the authentication matrix.
func authKinds(t *testing.T) []authKind {
	k := authKeys()
	none := foreignToken{"alg none", jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "signing algorithm none is not accepted"}
	srv := newJWKSServer(t,
		rsaJWK("rsa-1", &k.rsa.PublicKey),
		ecJWK("ec-1", &k.ec.PublicKey),
	)
	jwks := identity.NewJWKS(srv.URL+"/jwks.json", identity.JWKSOptions{Timeout: 5 * time.Second})
	rsaForeign := []foreignToken{
		none,
		{"HS/RS confusion: HS256 signed with the PEM public key", jwt.SigningMethodHS256, k.rsaPEM, "signing algorithm HS256 is not accepted"},
		{"ES256 token for an RSA key", jwt.SigningMethodES256, k.ec, "signing algorithm ES256 is not accepted"},
		{"RS384 with the right key", jwt.SigningMethodRS384, k.rsa, "signing algorithm RS384 is not accepted"},
		{"PS256 with the right key", jwt.SigningMethodPS256, k.rsa, "signing algorithm PS256 is not accepted"},
	}
	ecForeign := []foreignToken{
		none,
		{"HS/ES confusion: HS256 signed with the PEM public key", jwt.SigningMethodHS256, k.ecPEM, "signing algorithm HS256 is not accepted"},
		{"RS256 token for an EC key", jwt.SigningMethodRS256, k.rsa, "signing algorithm RS256 is not accepted"},
		{"ES384 with a P-384 key", jwt.SigningMethodES384, k.ecP384, "signing algorithm ES384 is not accepted"},
	}
	return []authKind{
		{
			name: "HS256 secret", method: jwt.SigningMethodHS256, sign: k.hmac, other: k.hmacOther,
			source: identity.HMACSecret(k.hmac),
			foreign: []foreignToken{
				none,
				{"RS256 token for a secret", jwt.SigningMethodRS256, k.rsa, "signing algorithm RS256 is not accepted"},
				{"ES256 token for a secret", jwt.SigningMethodES256, k.ec, "signing algorithm ES256 is not accepted"},
				{"HS512 with the right secret", jwt.SigningMethodHS512, k.hmac, "signing algorithm HS512 is not accepted"},
			},
		},
		{name: "RS256 public key PEM", method: jwt.SigningMethodRS256, sign: k.rsa, other: k.rsaOther,
			source: mustSource(t, k.rsaPEM), foreign: rsaForeign},
		{name: "RS256 PKCS1 PEM", method: jwt.SigningMethodRS256, sign: k.rsa, other: k.rsaOther,
			source: mustSource(t, k.rsaPKCS1PEM), foreign: rsaForeign},
		{name: "RS256 certificate PEM", method: jwt.SigningMethodRS256, sign: k.rsa, other: k.rsaOther,
			source: mustSource(t, k.rsaCertPEM), foreign: rsaForeign},
		{name: "ES256 public key PEM", method: jwt.SigningMethodES256, sign: k.ec, other: k.ecOther,
			source: mustSource(t, k.ecPEM), foreign: ecForeign},
		{name: "ES256 certificate PEM", method: jwt.SigningMethodES256, sign: k.ec, other: k.ecOther,
			source: mustSource(t, k.ecCertPEM), foreign: ecForeign},
		{
			name: "JWKS RS256", method: jwt.SigningMethodRS256, sign: k.rsa, other: k.rsaOther, kid: "rsa-1",
			source: jwks,
			foreign: []foreignToken{
				{"alg none", jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "signing algorithm none is not accepted"},
				{"HS/RS confusion: HS256 signed with the PEM public key", jwt.SigningMethodHS256, k.rsaPEM, "signing algorithm HS256 is not accepted"},
				{"ES256 token with the RSA key's kid", jwt.SigningMethodES256, k.ec, `signing algorithm ES256 does not match the RS256 key "rsa-1"`},
				{"RS384 with the right key", jwt.SigningMethodRS384, k.rsa, "signing algorithm RS384 is not accepted"},
			},
		},
		{
			name: "JWKS ES256", method: jwt.SigningMethodES256, sign: k.ec, other: k.ecOther, kid: "ec-1",
			source: jwks,
			foreign: []foreignToken{
				{"alg none", jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "signing algorithm none is not accepted"},
				{"HS/ES confusion: HS256 signed with the PEM public key", jwt.SigningMethodHS256, k.ecPEM, "signing algorithm HS256 is not accepted"},
				{"RS256 token with the EC key's kid", jwt.SigningMethodRS256, k.rsa, `signing algorithm RS256 does not match the ES256 key "ec-1"`},
			},
		},
	}
}

// claimCase is one row of the claim-rule matrix, run for every key kind.
type claimCase struct {
	name   string
	edit   func(c jwt.MapClaims) // changes baseClaims
	opts   identity.VerifyOptions
	badSig bool // sign with the kind's other key
	want   identity.Claims
	cause  string // expected cause substring; "" means success
}

func claimSet(kv ...any) func(jwt.MapClaims) {
	return func(c jwt.MapClaims) {
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(c, kv[i].(string))
			} else {
				c[kv[i].(string)] = kv[i+1]
			}
		}
	}
}

const (
	audPrefix = identity.ParticipantAudiencePrefix
	targetAud = "https://ledger.example/api"
)

func claimCases() []claimCase {
	good := identity.Claims{
		UserID:    "alice",
		Issuer:    "https://issuer.example",
		Scopes:    []string{"daml_ledger_api"},
		ExpiresAt: authNow.Add(time.Hour),
	}
	with := func(f func(*identity.Claims)) identity.Claims {
		c := good
		f(&c)
		return c
	}
	return []claimCase{
		{name: "good scope-based token", want: good},
		{name: "scope string with several scopes", edit: claimSet("scope", "openid  daml_ledger_api profile"),
			want: with(func(c *identity.Claims) { c.Scopes = []string{"openid", "daml_ledger_api", "profile"} })},
		{name: "scp array", edit: claimSet("scope", nil, "scp", []string{"profile", "daml_ledger_api"}),
			want: with(func(c *identity.Claims) { c.Scopes = []string{"profile", "daml_ledger_api"} })},
		{name: "empty scope string falls back to scp", edit: claimSet("scope", "", "scp", []string{"daml_ledger_api"}), want: good},
		{name: "scope string wins over scp", edit: claimSet("scp", []string{"other"}), want: good},
		{name: "no exp is accepted", edit: claimSet("exp", nil),
			want: with(func(c *identity.Claims) { c.ExpiresAt = time.Time{} })},
		{name: "no iss", edit: claimSet("iss", nil), want: with(func(c *identity.Claims) { c.Issuer = "" })},
		{name: "expired beyond leeway", edit: claimSet("exp", authNow.Add(-10*time.Second).Unix()), cause: "token expired at 2023-11-14T22:13:10Z"},
		{name: "expired within leeway", edit: claimSet("exp", authNow.Add(-3*time.Second).Unix()),
			want: with(func(c *identity.Claims) { c.ExpiresAt = authNow.Add(-3 * time.Second) })},
		{name: "expired, leeway disabled", edit: claimSet("exp", authNow.Add(-3*time.Second).Unix()),
			opts: identity.VerifyOptions{Leeway: -1}, cause: "token expired"},
		{name: "expired within a custom leeway", edit: claimSet("exp", authNow.Add(-20*time.Second).Unix()),
			opts: identity.VerifyOptions{Leeway: 30 * time.Second},
			want: with(func(c *identity.Claims) { c.ExpiresAt = authNow.Add(-20 * time.Second) })},
		{name: "nbf in the future", edit: claimSet("nbf", authNow.Add(time.Minute).Unix()), cause: "token not valid before"},
		{name: "nbf within leeway", edit: claimSet("nbf", authNow.Add(3*time.Second).Unix()), want: good},
		{name: "wrong scope", edit: claimSet("scope", "openid profile"), cause: "missing scope daml_ledger_api"},
		{name: "no scope and no audience", edit: claimSet("scope", nil), cause: "missing scope daml_ledger_api"},
		{name: "scope prefix is not the scope", edit: claimSet("scope", "daml_ledger_api_x"), cause: "missing scope daml_ledger_api"},
		{name: "custom target scope missing", opts: identity.VerifyOptions{TargetScope: "ledger_custom"}, cause: "missing scope ledger_custom"},
		{name: "custom target scope", edit: claimSet("scope", "ledger_custom"), opts: identity.VerifyOptions{TargetScope: "ledger_custom"},
			want: with(func(c *identity.Claims) { c.Scopes = []string{"ledger_custom"} })},
		{name: "missing sub", edit: claimSet("sub", nil), cause: "token has no sub"},
		{name: "empty sub", edit: claimSet("sub", ""), cause: "token has no sub"},
		{name: "malformed claim type", edit: claimSet("scope", 42), cause: "malformed token"},
		{name: "malformed exp", edit: claimSet("exp", "tomorrow"), cause: "malformed token"},
		{name: "bad signature", badSig: true, cause: "signature invalid"},

		// Scope-based tokens restricted to a participant.
		{name: "scope-based with the participant id", edit: claimSet("aud", "participant1"),
			opts: identity.VerifyOptions{ParticipantID: "participant1"},
			want: with(func(c *identity.Claims) { c.ParticipantID, c.Audiences = "participant1", []string{"participant1"} })},
		{name: "scope-based with aud array of one", edit: claimSet("aud", []string{"participant1"}),
			opts: identity.VerifyOptions{ParticipantID: "participant1"},
			want: with(func(c *identity.Claims) { c.ParticipantID, c.Audiences = "participant1", []string{"participant1"} })},
		{name: "scope-based participant mismatch", edit: claimSet("aud", "participant2"),
			opts: identity.VerifyOptions{ParticipantID: "participant1"}, cause: `token is for participant "participant2", not "participant1"`},
		{name: "scope-based participant, node id unset", edit: claimSet("aud", "participant2"),
			want: with(func(c *identity.Claims) { c.ParticipantID, c.Audiences = "participant2", []string{"participant2"} })},
		{name: "scope-based with two audiences", edit: claimSet("aud", []string{"participant1", "x"}),
			cause: "scope-based token must have at most one audience"},

		// Audience-based tokens.
		{name: "audience-based", edit: claimSet("scope", nil, "aud", []string{audPrefix + "participant1", "https://other"}),
			opts: identity.VerifyOptions{ParticipantID: "participant1"},
			want: with(func(c *identity.Claims) {
				c.Scopes, c.ParticipantID, c.Audiences = nil, "participant1", []string{audPrefix + "participant1", "https://other"}
			})},
		{name: "audience-based as a string", edit: claimSet("scope", "openid", "aud", audPrefix+"participant1"),
			want: with(func(c *identity.Claims) {
				c.Scopes, c.ParticipantID, c.Audiences = []string{"openid"}, "participant1", []string{audPrefix + "participant1"}
			})},
		{name: "audience-based participant mismatch", edit: claimSet("scope", nil, "aud", audPrefix+"participant2"),
			opts: identity.VerifyOptions{ParticipantID: "participant1"}, cause: `token is for participant "participant2", not "participant1"`},
		{name: "audience-based empty participant", edit: claimSet("scope", nil, "aud", audPrefix),
			cause: "names an empty participant id"},
		{name: "audience-based two participants", edit: claimSet("scope", nil, "aud", []string{audPrefix + "p1", audPrefix + "p2"}),
			cause: "must name exactly one participant"},
		{name: "audience without the participant prefix", edit: claimSet("scope", nil, "aud", "https://daml.com/jwt/aud/other/p1"),
			cause: "missing scope daml_ledger_api"},

		// Target audience.
		{name: "target audience", edit: claimSet("scope", nil, "aud", []string{"https://x", targetAud}),
			opts: identity.VerifyOptions{TargetAudience: targetAud},
			want: with(func(c *identity.Claims) { c.Scopes, c.Audiences = nil, []string{"https://x", targetAud} })},
		{name: "target audience with participant", edit: claimSet("aud", []string{targetAud, audPrefix + "participant1"}),
			opts: identity.VerifyOptions{TargetAudience: targetAud, ParticipantID: "participant1"},
			want: with(func(c *identity.Claims) {
				c.ParticipantID, c.Audiences = "participant1", []string{targetAud, audPrefix + "participant1"}
			})},
		{name: "target audience, participant mismatch", edit: claimSet("aud", []string{targetAud, audPrefix + "participant2"}),
			opts: identity.VerifyOptions{TargetAudience: targetAud, ParticipantID: "participant1"}, cause: "not \"participant1\""},
		{name: "wrong audience", edit: claimSet("aud", "https://other"),
			opts: identity.VerifyOptions{TargetAudience: targetAud}, cause: "Audience doesn't match the target value"},
		{name: "no audience with target audience", opts: identity.VerifyOptions{TargetAudience: targetAud},
			cause: "Audience doesn't match the target value"},
	}
}

func TestVerifyMatrix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := claimCases()
	for _, kind := range authKinds(t) {
		t.Run(kind.name, func(t *testing.T) {
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					claims := maps.Clone(baseClaims())
					if tc.edit != nil {
						tc.edit(claims)
					}
					key := kind.sign
					if tc.badSig {
						key = kind.other
					}
					token := signToken(t, kind.method, key, kind.kid, claims)
					opts := tc.opts
					opts.Clock = authClock
					got, err := identity.NewJWTVerifier(kind.source, opts).Verify(ctx, token)
					if tc.cause != "" {
						checkUnauthenticated(t, err, tc.cause)
						if diff := cmp.Diff(identity.Claims{}, got); diff != "" {
							t.Errorf("claims returned with an error (-want +got):\n%s", diff)
						}
						return
					}
					if err != nil {
						t.Fatalf("Verify: %v", err)
					}
					if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("claims (-want +got):\n%s", diff)
					}
				})
			}
			for _, ft := range kind.foreign {
				t.Run(ft.name, func(t *testing.T) {
					token := signToken(t, ft.method, ft.key, kind.kid, baseClaims())
					v := identity.NewJWTVerifier(kind.source, identity.VerifyOptions{Clock: authClock})
					_, err := v.Verify(ctx, token)
					checkUnauthenticated(t, err, ft.cause)
				})
			}
		})
	}
}

func TestVerifyMalformedTokens(t *testing.T) {
	k := authKeys()
	good := signToken(t, jwt.SigningMethodHS256, k.hmac, "", baseClaims())
	v := identity.NewJWTVerifier(identity.HMACSecret(k.hmac), identity.VerifyOptions{Clock: authClock})
	for _, tc := range []struct{ name, token, cause string }{
		{"empty", "", "token is empty"},
		{"one segment", "not-a-jwt", "malformed token"},
		{"three garbage segments", "a.b.c", "malformed token"},
		{"good token with a trailing segment", good + ".x", "malformed token"},
		{"tampered payload", tamperPayload(t, good), "signature invalid"},
		{"signature truncated", good[:len(good)-4], "signature invalid"},
		{"signature removed", good[:strings.LastIndexByte(good, '.')+1], "signature invalid"},
		{"unknown alg", jwtWithHeader(`{"alg":"XX999","typ":"JWT"}`), "unsupported or missing signing algorithm"},
		{"no alg", jwtWithHeader(`{"typ":"JWT"}`), "unsupported or missing signing algorithm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), tc.token)
			checkUnauthenticated(t, err, tc.cause)
		})
	}
}

// tamperPayload replaces the payload of a token with one naming another
// user, keeping the signature.
func tamperPayload(t *testing.T, token string) string {
	t.Helper()
	c := baseClaims()
	c["sub"] = "mallory"
	forged := signToken(t, jwt.SigningMethodHS256, []byte("x"), "", c)
	a, b := splitJWT(token), splitJWT(forged)
	return a[0] + "." + b[1] + "." + a[2]
}

func splitJWT(s string) [3]string {
	var out [3]string
	for i := 0; i < 2; i++ {
		j := 0
		for j < len(s) && s[j] != '.' {
			j++
		}
		out[i], s = s[:j], s[min(j+1, len(s)):]
	}
	out[2] = s
	return out
}

func jwtWithHeader(header string) string {
	return b64u([]byte(header)) + "." + b64u([]byte(`{"sub":"alice","scope":"daml_ledger_api"}`)) + ".c2ln"
}

func TestVerifyNumericKid(t *testing.T) {
	k := authKeys()
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, baseClaims())
	tok.Header["kid"] = 7
	s, err := tok.SignedString(k.hmac)
	if err != nil {
		t.Fatal(err)
	}
	v := identity.NewJWTVerifier(identity.HMACSecret(k.hmac), identity.VerifyOptions{Clock: authClock})
	_, err = v.Verify(context.Background(), s)
	checkUnauthenticated(t, err, "kid header is not a string")
}

func TestVerifyEmptySecretAndNilSource(t *testing.T) {
	ctx := context.Background()
	tok := signToken(t, jwt.SigningMethodHS256, []byte("s"), "", baseClaims())
	_, err := identity.NewJWTVerifier(identity.HMACSecret(nil), identity.VerifyOptions{Clock: authClock}).Verify(ctx, tok)
	checkUnauthenticated(t, err, "secret is empty")
	_, err = identity.NewJWTVerifier(nil, identity.VerifyOptions{Clock: authClock}).Verify(ctx, tok)
	checkUnauthenticated(t, err, "no token verification key")
}

// customSource is a KeySource outside the package that fails with a plain
// error or returns an unsupported key.
type customSource struct {
	key any
	err error
}

func (s customSource) Key(context.Context, string, string) (any, error) { return s.key, s.err }

func TestVerifyCustomKeySource(t *testing.T) {
	k := authKeys()
	ctx := context.Background()
	tok := signToken(t, jwt.SigningMethodHS256, k.hmac, "", baseClaims())
	opts := identity.VerifyOptions{Clock: authClock}

	if _, err := identity.NewJWTVerifier(customSource{key: k.hmac}, opts).Verify(ctx, tok); err != nil {
		t.Fatalf("custom source: %v", err)
	}
	_, err := identity.NewJWTVerifier(customSource{err: context.Canceled}, opts).Verify(ctx, tok)
	checkUnauthenticated(t, err, "context canceled")
	_, err = identity.NewJWTVerifier(customSource{key: "a string"}, opts).Verify(ctx, tok)
	checkUnauthenticated(t, err, "unsupported key of type string")
	// A custom source returning an RSA key for an HS256 token: confusion.
	_, err = identity.NewJWTVerifier(customSource{key: &k.rsa.PublicKey}, opts).Verify(ctx, tok)
	checkUnauthenticated(t, err, "signing algorithm HS256 does not match the RS256 key")
	// A P-384 key is no ES256 key.
	tok384 := signToken(t, jwt.SigningMethodES256, k.ec, "", baseClaims())
	_, err = identity.NewJWTVerifier(customSource{key: &k.ecP384.PublicKey}, opts).Verify(ctx, tok384)
	checkUnauthenticated(t, err, "unsupported key")
}

func TestVerifyDefaultClockAndLeeway(t *testing.T) {
	k := authKeys()
	v := identity.NewJWTVerifier(identity.HMACSecret(k.hmac), identity.VerifyOptions{})
	c := baseClaims()
	c["exp"] = time.Now().Add(-2 * time.Second).Unix() // inside the default 5 s
	if _, err := v.Verify(context.Background(), signToken(t, jwt.SigningMethodHS256, k.hmac, "", c)); err != nil {
		t.Fatalf("token expired 2 s ago, default leeway: %v", err)
	}
	c["exp"] = time.Now().Add(-time.Minute).Unix()
	_, err := v.Verify(context.Background(), signToken(t, jwt.SigningMethodHS256, k.hmac, "", c))
	checkUnauthenticated(t, err, "token expired")
}

func TestVerifyZeroVerifier(t *testing.T) {
	var v identity.JWTVerifier
	_, err := v.Verify(context.Background(), "a.b.c")
	checkUnauthenticated(t, err, "not initialised")
}
