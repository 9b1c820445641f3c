package identity_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/identity"
)

func jwksVerifier(url string, opts identity.JWKSOptions) *identity.JWTVerifier {
	return identity.NewJWTVerifier(identity.NewJWKS(url, opts), identity.VerifyOptions{Clock: authClock})
}

func rsaToken(t testing.TB, kid string) string {
	return signToken(t, jwt.SigningMethodRS256, authKeys().rsa, kid, baseClaims())
}

func TestJWKSKeyRotation(t *testing.T) {
	k := authKeys()
	ctx := context.Background()
	srv := newJWKSServer(t, rsaJWK("k1", &k.rsa.PublicKey))
	v := jwksVerifier(srv.URL, identity.JWKSOptions{MinRefreshInterval: 100 * time.Millisecond})
	tok1 := rsaToken(t, "k1")
	tok2 := signToken(t, jwt.SigningMethodES256, k.ec2, "k2", baseClaims())

	if _, err := v.Verify(ctx, tok1); err != nil {
		t.Fatalf("k1: %v", err)
	}
	if _, err := v.Verify(ctx, tok1); err != nil {
		t.Fatalf("k1 again: %v", err)
	}
	if got := srv.hits.Load(); got != 1 {
		t.Fatalf("fetches after two k1 tokens = %d, want 1 (cached)", got)
	}

	// The issuer rotates: k2 replaces k1.
	srv.setKeys(ecJWK("k2", &k.ec2.PublicKey))
	// Within the refresh interval the unknown kid cannot trigger a fetch.
	_, err := v.Verify(ctx, tok2)
	checkUnauthenticated(t, err, `no usable key with kid "k2"`)
	if got := srv.hits.Load(); got != 1 {
		t.Fatalf("fetches within the refresh interval = %d, want 1", got)
	}
	time.Sleep(150 * time.Millisecond)
	got, err := v.Verify(ctx, tok2)
	if err != nil {
		t.Fatalf("k2 after rotation: %v", err)
	}
	if got.UserID != "alice" {
		t.Errorf("UserID = %q", got.UserID)
	}
	if got := srv.hits.Load(); got != 2 {
		t.Fatalf("fetches after rotation = %d, want 2", got)
	}
	// k1 has left the set, so its tokens are refused now.
	_, err = v.Verify(ctx, tok1)
	checkUnauthenticated(t, err, `no usable key with kid "k1"`)
}

func TestJWKSConcurrentFetchesCollapse(t *testing.T) {
	k := authKeys()
	srv := newJWKSServer(t, rsaJWK("k1", &k.rsa.PublicKey))
	srv.set(func(s *jwksServer) { s.delay = 50 * time.Millisecond })
	const interval = 400 * time.Millisecond
	v := jwksVerifier(srv.URL, identity.JWKSOptions{MinRefreshInterval: interval})

	verifyAll := func(token string) []error {
		const n = 24
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				_, errs[i] = v.Verify(context.Background(), token)
			})
		}
		close(start)
		wg.Wait()
		return errs
	}

	// A cold cache: every verification needs the set; one fetch serves all.
	for i, err := range verifyAll(rsaToken(t, "k1")) {
		if err != nil {
			t.Fatalf("verification %d: %v", i, err)
		}
	}
	if got := srv.hits.Load(); got != 1 {
		t.Fatalf("fetches for concurrent verifications = %d, want 1", got)
	}

	// An unknown kid after the interval: exactly one refetch.
	time.Sleep(interval + 50*time.Millisecond)
	for _, err := range verifyAll(rsaToken(t, "unknown")) {
		checkUnauthenticated(t, err, `no usable key with kid "unknown"`)
	}
	if got := srv.hits.Load(); got != 2 {
		t.Fatalf("fetches for concurrent unknown kids = %d, want 2", got)
	}
	// And none more inside the interval.
	for _, err := range verifyAll(rsaToken(t, "unknown")) {
		checkUnauthenticated(t, err, `no usable key with kid "unknown"`)
	}
	if got := srv.hits.Load(); got != 2 {
		t.Fatalf("fetches within the refresh interval = %d, want 2", got)
	}
}

func TestJWKSHangingServer(t *testing.T) {
	t.Parallel()
	srv := newJWKSServer(t, rsaJWK("k1", &authKeys().rsa.PublicKey))
	srv.set(func(s *jwksServer) { s.hang = true })

	t.Run("fetch timeout", func(t *testing.T) {
		v := jwksVerifier(srv.URL, identity.JWKSOptions{Timeout: 150 * time.Millisecond})
		start := time.Now()
		_, err := v.Verify(context.Background(), rsaToken(t, "k1"))
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("Verify took %s with a 150ms timeout", d)
		}
		checkUnauthenticated(t, err, "JWKS "+srv.URL+": fetch timed out after 150ms")
	})
	t.Run("caller context", func(t *testing.T) {
		v := jwksVerifier(srv.URL, identity.JWKSOptions{Timeout: time.Minute})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := v.Verify(ctx, rsaToken(t, "k1"))
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("Verify took %s with a 100ms context", d)
		}
		checkUnauthenticated(t, err, "JWKS "+srv.URL+": gave up waiting")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
		}
	})
}

func TestJWKSFetchFailures(t *testing.T) {
	k := authKeys()
	rsaKey := rsaJWK("k1", &k.rsa.PublicKey)
	encKey := rsaJWK("k1", &k.rsa.PublicKey)
	encKey["use"] = "enc"
	smallRSA := rsaJWK("k1", &k.rsa.PublicKey)
	smallRSA["n"] = b64u(k.rsa.N.Bytes()[:64])
	badEC := ecJWK("k1", &k.ec.PublicKey)
	badEC["y"] = badEC["x"]
	for _, tc := range []struct {
		name   string
		status int
		body   string
		cause  string
	}{
		{"HTTP 500", 500, `{"keys":[]}`, "fetch failed: HTTP status 500"},
		{"HTTP 404", 404, "not found", "fetch failed: HTTP status 404"},
		{"invalid JSON", 200, `{"keys":[`, "malformed key set: invalid JSON"},
		{"not an object", 200, `[1,2]`, "malformed key set: invalid JSON"},
		{"no keys member", 200, `{"kids":[]}`, `malformed key set: no "keys" array`},
		{"keys not an array", 200, `{"keys":{}}`, "malformed key set: invalid JSON"},
		{"empty set", 200, `{"keys":[]}`, "no usable RSA or EC P-256 signature key"},
		{"only an encryption key", 200, mustJSON(map[string]any{"keys": []any{encKey}}), "no usable RSA or EC P-256 signature key"},
		{"only unsupported kinds", 200, `{"keys":[{"kty":"oct","k":"c2VjcmV0"},{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}`, "no usable RSA or EC P-256 signature key"},
		{"short RSA modulus", 200, mustJSON(map[string]any{"keys": []any{smallRSA}}), "RSA key has 512 bits"},
		{"EC point off the curve", 200, mustJSON(map[string]any{"keys": []any{badEC}}), "invalid P-256 point"},
		{"bad base64", 200, `{"keys":[{"kty":"RSA","kid":"k1","n":"!!!","e":"AQAB"}]}`, `member "n" is not base64url`},
		{"wrong member type", 200, `{"keys":[{"kty":"RSA","kid":7}]}`, "key 0: json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newJWKSServer(t, rsaKey)
			srv.setBody(tc.status, []byte(tc.body))
			_, err := jwksVerifier(srv.URL+"/keys", identity.JWKSOptions{}).Verify(context.Background(), rsaToken(t, "k1"))
			checkUnauthenticated(t, err, "JWKS "+srv.URL+"/keys: ")
			checkUnauthenticated(t, err, tc.cause)
		})
	}

	t.Run("unreachable", func(t *testing.T) {
		t.Parallel()
		srv := newJWKSServer(t)
		url := srv.URL
		srv.Close()
		_, err := jwksVerifier(url, identity.JWKSOptions{Timeout: 2 * time.Second}).Verify(context.Background(), rsaToken(t, "k1"))
		checkUnauthenticated(t, err, "JWKS "+url+": fetch failed")
	})

	t.Run("a failure is not retried within the interval", func(t *testing.T) {
		srv := newJWKSServer(t, rsaKey)
		srv.setBody(500, nil)
		v := jwksVerifier(srv.URL, identity.JWKSOptions{MinRefreshInterval: 100 * time.Millisecond})
		for range 3 {
			_, err := v.Verify(context.Background(), rsaToken(t, "k1"))
			checkUnauthenticated(t, err, "HTTP status 500")
		}
		if got := srv.hits.Load(); got != 1 {
			t.Fatalf("fetches = %d, want 1", got)
		}
		srv.setKeys(rsaKey)
		time.Sleep(150 * time.Millisecond)
		if _, err := v.Verify(context.Background(), rsaToken(t, "k1")); err != nil {
			t.Fatalf("after recovery: %v", err)
		}
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestJWKSKeySelection(t *testing.T) {
	t.Parallel()
	k := authKeys()
	ctx := context.Background()
	rsaKey := rsaJWK("rsa", &k.rsa.PublicKey)
	encKey := rsaJWK("enc", &k.rsa2.PublicKey)
	encKey["use"] = "enc"
	p384 := ecJWK("p384", &k.ecP384.PublicKey)
	oct := map[string]any{"kty": "oct", "kid": "oct", "k": "c2VjcmV0"}
	wrongAlg := rsaJWK("wrongalg", &k.rsa2.PublicKey)
	wrongAlg["alg"] = "RS512"
	noKid := ecJWK("", &k.ec.PublicKey)

	for _, tc := range []struct {
		name  string
		keys  []map[string]any
		token string
		cause string
	}{
		{"kid-less token, one usable key among unusable ones", []map[string]any{oct, rsaKey, encKey, p384}, rsaToken(t, ""), ""},
		{"kid-less token, key without kid", []map[string]any{noKid, oct}, signToken(t, jwt.SigningMethodES256, k.ec, "", baseClaims()), ""},
		{"kid-less token, two usable keys", []map[string]any{rsaKey, ecJWK("ec", &k.ec.PublicKey)}, rsaToken(t, ""), "token has no kid and the set has 2 usable keys"},
		{"kid of an encryption key", []map[string]any{rsaKey, encKey}, signToken(t, jwt.SigningMethodRS256, k.rsa2, "enc", baseClaims()), `no usable key with kid "enc"`},
		{"kid of a P-384 key", []map[string]any{rsaKey, p384}, signToken(t, jwt.SigningMethodES384, k.ecP384, "p384", baseClaims()), "signing algorithm ES384 is not accepted"},
		{"kid of an oct key", []map[string]any{rsaKey, oct}, signToken(t, jwt.SigningMethodHS256, []byte("secret"), "oct", baseClaims()), "signing algorithm HS256 is not accepted"},
		{"key alg member differs", []map[string]any{rsaKey, wrongAlg}, signToken(t, jwt.SigningMethodRS256, k.rsa2, "wrongalg", baseClaims()), `key "wrongalg" is for RS512, the token uses RS256`},
		{"duplicate kid keeps the first", []map[string]any{rsaKey, rsaJWK("rsa", &k.rsa2.PublicKey)}, signToken(t, jwt.SigningMethodRS256, k.rsa2, "rsa", baseClaims()), "signature invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newJWKSServer(t, tc.keys...)
			got, err := jwksVerifier(srv.URL, identity.JWKSOptions{}).Verify(ctx, tc.token)
			if tc.cause != "" {
				checkUnauthenticated(t, err, tc.cause)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("alice", got.UserID); diff != "" {
				t.Errorf("UserID (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJWKSCacheTTL(t *testing.T) {
	k := authKeys()
	srv := newJWKSServer(t, rsaJWK("k1", &k.rsa.PublicKey))
	v := jwksVerifier(srv.URL, identity.JWKSOptions{CacheTTL: 100 * time.Millisecond, MinRefreshInterval: -1})
	tok := rsaToken(t, "k1")
	for range 2 {
		if _, err := v.Verify(context.Background(), tok); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.hits.Load(); got != 1 {
		t.Fatalf("fetches before the TTL = %d, want 1", got)
	}
	time.Sleep(150 * time.Millisecond)
	// The key was revoked meanwhile: the stale cache must not be used.
	srv.setKeys(rsaJWK("k2", &k.rsa2.PublicKey))
	_, err := v.Verify(context.Background(), tok)
	checkUnauthenticated(t, err, `no usable key with kid "k1"`)
	if got := srv.hits.Load(); got != 2 {
		t.Fatalf("fetches after the TTL = %d, want 2", got)
	}
}

func TestJWKSUsesHTTPClientAndURL(t *testing.T) {
	t.Parallel()
	k := authKeys()
	srv := newJWKSServer(t, rsaJWK("k1", &k.rsa.PublicKey))
	var seen []string
	var mu sync.Mutex
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Accept"))
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})}
	j := identity.NewJWKS(srv.URL+"/.well-known/jwks.json", identity.JWKSOptions{HTTPClient: client})
	if got, want := j.URL(), srv.URL+"/.well-known/jwks.json"; got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
	if _, err := identity.NewJWTVerifier(j, identity.VerifyOptions{Clock: authClock}).Verify(context.Background(), rsaToken(t, "k1")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"GET /.well-known/jwks.json application/json"}, seen); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
