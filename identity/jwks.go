package identity

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Defaults of JWKSOptions.
const (
	DefaultJWKSTimeout            = 10 * time.Second
	DefaultJWKSMinRefreshInterval = time.Second
	DefaultJWKSCacheTTL           = 5 * time.Minute
)

// maxJWKSBytes bounds the size of a JWK set response.
const maxJWKSBytes = 1 << 20

// JWKSOptions tune a JWKS. The zero value is usable.
type JWKSOptions struct {
	// HTTPClient fetches the set (http.DefaultClient when nil).
	HTTPClient *http.Client
	// Timeout bounds one fetch (DefaultJWKSTimeout when zero or negative).
	Timeout time.Duration
	// MinRefreshInterval is the least time between two fetches: a token
	// with an unknown kid triggers at most one refetch per interval
	// (DefaultJWKSMinRefreshInterval when zero; no limit when negative).
	MinRefreshInterval time.Duration
	// CacheTTL is how long a fetched set is used before it is fetched again
	// (DefaultJWKSCacheTTL when zero or negative).
	CacheTTL time.Duration
}

// JWKS is a KeySource backed by a JSON Web Key Set served over HTTP(S). It
// verifies RS256 (RSA keys) and ES256 (EC P-256 keys) tokens; keys of other
// kinds and keys with "use":"enc" are ignored.
//
// Keys are cached by kid for CacheTTL. A kid missing from the cache causes
// a refetch (key rotation), at most one per MinRefreshInterval (a failed
// fetch is not retried sooner either: its error is returned meanwhile), and
// concurrent refetches are collapsed into one request. A token without kid
// is verified with the set's key when the set has exactly one usable key.
// A caller never waits longer than its context allows, and a fetch never
// runs longer than Timeout. Every failure is UNAUTHENTICATED and its cause
// names the URL. A JWKS is safe for concurrent use.
type JWKS struct {
	url        string
	client     *http.Client
	timeout    time.Duration
	minRefresh time.Duration
	ttl        time.Duration
	now        func() time.Time

	group singleflight.Group

	mu        sync.Mutex
	set       *jwkSet   // last fetched set (nil before the first success)
	fetchedAt time.Time // time of the last successful fetch
	attemptAt time.Time // time of the last fetch attempt
	lastErr   error     // result of the last attempt
}

var _ KeySource = (*JWKS)(nil)

// NewJWKS returns a KeySource that fetches its keys from url (GET, JSON
// {"keys":[…]}). Nothing is fetched until the first token needs a key.
func NewJWKS(url string, opts JWKSOptions) *JWKS {
	j := &JWKS{
		url:        url,
		client:     opts.HTTPClient,
		timeout:    opts.Timeout,
		minRefresh: opts.MinRefreshInterval,
		ttl:        opts.CacheTTL,
		now:        time.Now,
	}
	if j.client == nil {
		j.client = http.DefaultClient
	}
	if j.timeout <= 0 {
		j.timeout = DefaultJWKSTimeout
	}
	switch {
	case j.minRefresh == 0:
		j.minRefresh = DefaultJWKSMinRefreshInterval
	case j.minRefresh < 0:
		j.minRefresh = 0
	}
	if j.ttl <= 0 {
		j.ttl = DefaultJWKSCacheTTL
	}
	return j
}

// algorithms limits the verifier to the algorithms a JWK set can serve.
func (j *JWKS) algorithms() []string { return []string{AlgRS256, AlgES256} }

// URL returns the address the set is fetched from.
func (j *JWKS) URL() string { return j.url }

// Key returns the public key for a token's alg (RS256 or ES256) and kid,
// fetching the set when it is not cached, stale, or lacks kid.
func (j *JWKS) Key(ctx context.Context, alg, kid string) (any, error) {
	if alg != AlgRS256 && alg != AlgES256 {
		return nil, unauthenticated("JWKS %s: signing algorithm %s is not accepted (accepted: RS256, ES256)", j.url, alg)
	}
	j.mu.Lock()
	set := j.set
	fresh := set != nil && j.now().Sub(j.fetchedAt) < j.ttl
	j.mu.Unlock()
	if fresh {
		if k, ok := set.find(kid); ok {
			return k.keyFor(j.url, alg)
		}
	}
	set, err := j.refresh(ctx)
	if err != nil {
		return nil, err
	}
	k, ok := set.find(kid)
	if !ok {
		if kid == "" {
			return nil, unauthenticated("JWKS %s: token has no kid and the set has %d usable keys", j.url, len(set.keys))
		}
		return nil, unauthenticated("JWKS %s: no usable key with kid %q", j.url, kid)
	}
	return k.keyFor(j.url, alg)
}

// refresh returns a freshly fetched set, or the current one when the last
// attempt is more recent than the minimum refresh interval. Concurrent
// callers share one fetch; each returns when its own ctx is done.
func (j *JWKS) refresh(ctx context.Context) (*jwkSet, error) {
	ch := j.group.DoChan("", func() (any, error) {
		j.mu.Lock()
		now := j.now()
		if !j.attemptAt.IsZero() && now.Sub(j.attemptAt) < j.minRefresh {
			set, err := j.set, j.lastErr
			j.mu.Unlock()
			if err != nil {
				return nil, err
			}
			return set, nil
		}
		j.attemptAt = now
		j.mu.Unlock()

		// The fetch outlives a caller that gives up, so that the callers
		// sharing it still get its result; Timeout bounds it.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), j.timeout)
		defer cancel()
		set, err := j.fetch(fctx)

		j.mu.Lock()
		defer j.mu.Unlock()
		j.lastErr = err
		if err != nil {
			return nil, err
		}
		j.set, j.fetchedAt = set, j.now()
		return set, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*jwkSet), nil
	case <-ctx.Done():
		return nil, unauthenticatedWrap(ctx.Err(), "JWKS %s: gave up waiting for the key set: %v", j.url, ctx.Err())
	}
}

// fetch GETs and parses the set.
func (j *JWKS) fetch(ctx context.Context) (*jwkSet, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.url, nil)
	if err != nil {
		return nil, unauthenticatedWrap(err, "JWKS %s: bad request: %v", j.url, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := j.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, unauthenticatedWrap(err, "JWKS %s: fetch timed out after %s", j.url, j.timeout)
		}
		return nil, unauthenticatedWrap(err, "JWKS %s: fetch failed: %v", j.url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return nil, unauthenticated("JWKS %s: fetch failed: HTTP status %s", j.url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, unauthenticatedWrap(err, "JWKS %s: fetch timed out after %s", j.url, j.timeout)
		}
		return nil, unauthenticatedWrap(err, "JWKS %s: reading the response failed: %v", j.url, err)
	}
	if len(body) > maxJWKSBytes {
		return nil, unauthenticated("JWKS %s: response is larger than %d bytes", j.url, maxJWKSBytes)
	}
	set, err := parseJWKSet(body)
	if err != nil {
		return nil, unauthenticatedWrap(err, "JWKS %s: malformed key set: %v", j.url, err)
	}
	return set, nil
}

// jwk is one usable key of a set.
type jwk struct {
	kid string
	alg string // the key's "alg" member ("" when absent)
	key any    // *rsa.PublicKey or P-256 *ecdsa.PublicKey
}

// keyFor returns the key when it may verify a token of alg.
func (k jwk) keyFor(url, alg string) (any, error) {
	if want := algorithmForKey(k.key); want != alg {
		return nil, unauthenticated("JWKS %s: signing algorithm %s does not match the %s key %q", url, alg, want, k.kid)
	}
	if k.alg != "" && k.alg != alg {
		return nil, unauthenticated("JWKS %s: key %q is for %s, the token uses %s", url, k.kid, k.alg, alg)
	}
	return k.key, nil
}

type jwkSet struct {
	keys  []jwk
	byKID map[string]jwk
}

// find returns the key with kid, or for kid "" the set's only key.
func (s *jwkSet) find(kid string) (jwk, bool) {
	if kid == "" {
		if len(s.keys) == 1 {
			return s.keys[0], true
		}
		return jwk{}, false
	}
	k, ok := s.byKID[kid]
	return k, ok
}

// rawJWK holds the members of a JWK that ledgernode reads.
type rawJWK struct {
	Kty string `json:"kty"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
	N   string `json:"n"`
	E   string `json:"e"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

// parseJWKSet parses {"keys":[…]}, keeping the RSA and EC P-256 signature
// keys. Unusable or undecodable entries are skipped; a set without a usable
// key is an error.
func parseJWKSet(body []byte) (*jwkSet, error) {
	var doc struct {
		Keys *[]json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if doc.Keys == nil {
		return nil, errors.New(`no "keys" array`)
	}
	set := &jwkSet{byKID: map[string]jwk{}}
	var skipped []string
	for i, raw := range *doc.Keys {
		var r rawJWK
		if err := json.Unmarshal(raw, &r); err != nil {
			skipped = append(skipped, fmt.Sprintf("key %d: %v", i, err))
			continue
		}
		if r.Use != "" && r.Use != "sig" {
			continue
		}
		key, err := r.publicKey()
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("key %d (kid %q): %v", i, r.Kid, err))
			continue
		}
		if key == nil {
			continue // a kind ledgernode does not verify with
		}
		k := jwk{kid: r.Kid, alg: r.Alg, key: key}
		if r.Kid != "" {
			if _, dup := set.byKID[r.Kid]; dup {
				continue
			}
			set.byKID[r.Kid] = k
		}
		set.keys = append(set.keys, k)
	}
	if len(set.keys) == 0 {
		msg := "no usable RSA or EC P-256 signature key"
		if len(skipped) > 0 {
			msg += " (" + strings.Join(skipped, "; ") + ")"
		}
		return nil, errors.New(msg)
	}
	return set, nil
}

// publicKey decodes an RSA or EC P-256 key; it returns nil, nil for keys of
// other kinds or curves.
func (r rawJWK) publicKey() (any, error) {
	switch r.Kty {
	case "RSA":
		n, err := b64uint(r.N, "n")
		if err != nil {
			return nil, err
		}
		e, err := b64uint(r.E, "e")
		if err != nil {
			return nil, err
		}
		if !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31-1 || e.Bit(0) == 0 {
			return nil, errors.New("invalid RSA exponent")
		}
		if n.BitLen() < MinRSAKeyBits {
			return nil, fmt.Errorf("RSA key has %d bits, want at least %d", n.BitLen(), MinRSAKeyBits)
		}
		return &rsa.PublicKey{N: n, E: int(e.Int64())}, nil
	case "EC":
		if r.Crv != "P-256" {
			return nil, nil
		}
		x, err := b64fixed(r.X, "x", 32)
		if err != nil {
			return nil, err
		}
		y, err := b64fixed(r.Y, "y", 32)
		if err != nil {
			return nil, err
		}
		pt := append(append([]byte{4}, x...), y...)
		k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pt)
		if err != nil {
			return nil, fmt.Errorf("invalid P-256 point: %w", err)
		}
		return k, nil
	}
	return nil, nil
}

func b64(s, name string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, fmt.Errorf("member %q is not base64url: %w", name, err)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("member %q is missing", name)
	}
	return b, nil
}

func b64uint(s, name string) (*big.Int, error) {
	b, err := b64(s, name)
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetBytes(b), nil
}

func b64fixed(s, name string, size int) ([]byte, error) {
	b, err := b64(s, name)
	if err != nil {
		return nil, err
	}
	if len(b) != size {
		return nil, fmt.Errorf("member %q has %d bytes, want %d", name, len(b), size)
	}
	return b, nil
}
