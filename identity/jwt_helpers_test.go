package identity_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ledgernode/ledgernode/apierr"
)

// authNow is the fixed time of the verification tests.
var authNow = time.Unix(1_700_000_000, 0).UTC()

func authClock() time.Time { return authNow }

// authTestKeys are the keys of the auth tests, generated once.
type authTestKeys struct {
	hmac, hmacOther        []byte
	rsa, rsaOther, rsa2    *rsa.PrivateKey
	ec, ecOther, ec2       *ecdsa.PrivateKey
	ecP384                 *ecdsa.PrivateKey
	rsaPEM, rsaPKCS1PEM    []byte // PKIX and PKCS #1 public key PEM
	rsaCertPEM             []byte // self-signed certificate PEM
	ecPEM, ecCertPEM       []byte
	ecP384PEM              []byte
	rsaPEMNoise, ecPEMPlus []byte
}

var authKeys = sync.OnceValue(func() authTestKeys {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	genRSA := func() *rsa.PrivateKey {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		must(err)
		return k
	}
	genEC := func(c elliptic.Curve) *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		must(err)
		return k
	}
	k := authTestKeys{
		hmac:      []byte("ledgernode-test-secret-0123456789"),
		hmacOther: []byte("another-secret"),
		rsa:       genRSA(), rsaOther: genRSA(), rsa2: genRSA(),
		ec: genEC(elliptic.P256()), ecOther: genEC(elliptic.P256()), ec2: genEC(elliptic.P256()),
		ecP384: genEC(elliptic.P384()),
	}
	pkixPEM := func(pub any) []byte {
		der, err := x509.MarshalPKIXPublicKey(pub)
		must(err)
		return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	}
	k.rsaPEM = pkixPEM(&k.rsa.PublicKey)
	k.rsaPKCS1PEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&k.rsa.PublicKey)})
	k.rsaCertPEM = selfSignedCert(&k.rsa.PublicKey, k.rsa)
	k.ecPEM = pkixPEM(&k.ec.PublicKey)
	k.ecCertPEM = selfSignedCert(&k.ec.PublicKey, k.ec)
	k.ecP384PEM = pkixPEM(&k.ecP384.PublicKey)
	k.rsaPEMNoise = append([]byte("a comment line\n"), k.rsaPEM...)
	k.ecPEMPlus = append(pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: []byte{6, 8, 42, 134, 72, 206, 61, 3, 1, 7}}), k.ecPEM...)
	return k
})

func selfSignedCert(pub, priv any) []byte {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "ledgernode test issuer"},
		NotBefore:    authNow.Add(-time.Hour),
		NotAfter:     authNow.Add(24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv)
	if err != nil {
		panic(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// signToken signs claims with method and key, adding a kid header when kid
// is not empty.
func signToken(t testing.TB, method jwt.SigningMethod, key any, kid string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("sign %s token: %v", method.Alg(), err)
	}
	return s
}

// baseClaims is a good scope-based token payload at authNow.
func baseClaims() jwt.MapClaims {
	return jwt.MapClaims{
		"sub":   "alice",
		"iss":   "https://issuer.example",
		"scope": "daml_ledger_api",
		"exp":   authNow.Add(time.Hour).Unix(),
	}
}

// checkUnauthenticated fails unless err is an UNAUTHENTICATED *apierr.Error
// (category 6, HTTP 401) whose cause contains want.
func checkUnauthenticated(t testing.TB, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want UNAUTHENTICATED %q", want)
	}
	if !errors.Is(err, apierr.Unauthenticated) {
		t.Fatalf("error %v is not UNAUTHENTICATED", err)
	}
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *apierr.Error", err)
	}
	if e.Category() != apierr.AuthInterceptorInvalidAuthenticationCredentials || e.HTTPStatus() != http.StatusUnauthorized {
		t.Errorf("category %v, HTTP %d; want 6, 401", e.Category(), e.HTTPStatus())
	}
	if !strings.Contains(e.Cause, want) {
		t.Errorf("cause %q does not contain %q", e.Cause, want)
	}
}

// JWK encodings.

func b64u(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func rsaJWK(kid string, pub *rsa.PublicKey) map[string]any {
	return map[string]any{
		"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
		"n": b64u(pub.N.Bytes()), "e": b64u(big.NewInt(int64(pub.E)).Bytes()),
	}
}

func ecJWK(kid string, pub *ecdsa.PublicKey) map[string]any {
	pt, err := pub.Bytes()
	if err != nil {
		panic(err)
	}
	size := (len(pt) - 1) / 2
	crv := map[int]string{32: "P-256", 48: "P-384", 66: "P-521"}[size]
	return map[string]any{
		"kty": "EC", "kid": kid, "crv": crv,
		"x": b64u(pt[1 : 1+size]), "y": b64u(pt[1+size:]),
	}
}

// jwksServer serves a JWK set on loopback and counts requests.
type jwksServer struct {
	*httptest.Server
	hits atomic.Int64

	mu      sync.Mutex
	body    []byte
	status  int
	delay   time.Duration
	hang    bool
	release chan struct{}
}

func newJWKSServer(t testing.TB, keys ...map[string]any) *jwksServer {
	t.Helper()
	s := &jwksServer{status: http.StatusOK, release: make(chan struct{})}
	s.setKeys(keys...)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		body, status, delay, hang := s.body, s.status, s.delay, s.hang
		s.mu.Unlock()
		if hang {
			select {
			case <-r.Context().Done():
			case <-s.release:
			}
			return
		}
		if delay > 0 {
			time.Sleep(delay)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.release) }) // runs first: frees hanging handlers
	return s
}

func (s *jwksServer) setKeys(keys ...map[string]any) {
	if keys == nil {
		keys = []map[string]any{}
	}
	b, err := json.Marshal(map[string]any{"keys": keys})
	if err != nil {
		panic(err)
	}
	s.setBody(http.StatusOK, b)
}

func (s *jwksServer) setBody(status int, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.body = status, body
}

func (s *jwksServer) set(f func(s *jwksServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}
