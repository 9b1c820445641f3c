package identity

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
)

// MinRSAKeyBits is the smallest RSA modulus, in bits, accepted for RS256.
const MinRSAKeyBits = 2048

// KeySource gives a JWTVerifier the key that verifies a token.
//
// Key is called with the token's alg and kid headers (kid is "" when
// absent) and returns a []byte HMAC secret (HS256), an *rsa.PublicKey
// (RS256) or a P-256 *ecdsa.PublicKey (ES256). The verifier refuses a
// token whose alg does not match the kind of the returned key. A failure
// should be an UNAUTHENTICATED *apierr.Error (this package's sources return
// the APIError of a KindUnauthenticated *Error); any other error is wrapped
// in one. Implementations must be safe for concurrent use.
type KeySource interface {
	Key(ctx context.Context, alg, kid string) (any, error)
}

// algorithmLister is implemented by the package's fixed-key sources: the
// verifier accepts only these algorithms (jwt.WithValidMethods).
type algorithmLister interface {
	algorithms() []string
}

// algorithmForKey returns the one algorithm a key verifies ("" for an
// unsupported key).
func algorithmForKey(key any) string {
	switch k := key.(type) {
	case []byte:
		if len(k) > 0 {
			return AlgHS256
		}
	case *rsa.PublicKey:
		if k != nil && k.N != nil {
			return AlgRS256
		}
	case *ecdsa.PublicKey:
		if k != nil && k.Curve == elliptic.P256() {
			return AlgES256
		}
	}
	return ""
}

type staticKey struct {
	key any
	alg string
}

func (s staticKey) Key(_ context.Context, alg, _ string) (any, error) {
	if alg != s.alg {
		return nil, unauthenticated("signing algorithm %s does not match the %s key", alg, s.alg)
	}
	return s.key, nil
}

func (s staticKey) algorithms() []string { return []string{s.alg} }

type emptySecret struct{}

func (emptySecret) Key(context.Context, string, string) (any, error) {
	return nil, unauthenticated("the HS256 secret is empty")
}

func (emptySecret) algorithms() []string { return []string{AlgHS256} }

// HMACSecret returns a KeySource for HS256 tokens signed with secret (it is
// copied). Tokens with any other alg are refused. An empty secret refuses
// every token.
func HMACSecret(secret []byte) KeySource {
	if len(secret) == 0 {
		return emptySecret{}
	}
	return staticKey{key: append([]byte(nil), secret...), alg: AlgHS256}
}

// PublicKey returns a KeySource for one public key: an *rsa.PublicKey of at
// least MinRSAKeyBits bits verifies RS256 tokens, a P-256 *ecdsa.PublicKey
// verifies ES256 tokens. Other keys (other curves, Ed25519, …) are
// rejected. The token's kid is ignored.
func PublicKey(key crypto.PublicKey) (KeySource, error) {
	switch k := key.(type) {
	case *rsa.PublicKey:
		if k == nil || k.N == nil {
			return nil, newError(KindConfig, "nil RSA public key")
		}
		if k.N.BitLen() < MinRSAKeyBits {
			return nil, newError(KindConfig, "RSA public key has %d bits, want at least %d", k.N.BitLen(), MinRSAKeyBits)
		}
		return staticKey{key: k, alg: AlgRS256}, nil
	case *ecdsa.PublicKey:
		if k == nil || k.Curve == nil {
			return nil, newError(KindConfig, "nil ECDSA public key")
		}
		if k.Curve != elliptic.P256() {
			return nil, newError(KindConfig, "ECDSA public key is on curve %s, want P-256 (ES256)", k.Curve.Params().Name)
		}
		return staticKey{key: k, alg: AlgES256}, nil
	}
	return nil, newError(KindConfig, "unsupported public key type %T: want an RSA or ECDSA P-256 key", key)
}

// ParsePublicKeyPEM returns the public key of the first "PUBLIC KEY"
// (PKIX), "RSA PUBLIC KEY" (PKCS #1) or "CERTIFICATE" block of pemBytes;
// other blocks are skipped. The key may be of any kind x509 parses:
// PublicKey decides whether it can verify tokens.
func ParsePublicKeyPEM(pemBytes []byte) (crypto.PublicKey, error) {
	rest := pemBytes
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return nil, newError(KindConfig, "no PEM block of type PUBLIC KEY, RSA PUBLIC KEY or CERTIFICATE found")
		}
		switch block.Type {
		case "PUBLIC KEY":
			k, err := x509.ParsePKIXPublicKey(block.Bytes)
			if err != nil {
				return nil, wrapError(KindConfig, err, "parse PUBLIC KEY block: %v", err)
			}
			return k, nil
		case "RSA PUBLIC KEY":
			k, err := x509.ParsePKCS1PublicKey(block.Bytes)
			if err != nil {
				return nil, wrapError(KindConfig, err, "parse RSA PUBLIC KEY block: %v", err)
			}
			return k, nil
		case "CERTIFICATE":
			cert, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				return nil, wrapError(KindConfig, err, "parse CERTIFICATE block: %v", err)
			}
			return cert.PublicKey, nil
		}
	}
}
