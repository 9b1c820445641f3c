package identity

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"net/url"
	"os"
	"strings"
)

// authSpecForms lists the accepted forms of an auth spec for error messages.
const authSpecForms = "want hs256:SECRET, rs256:PEMFILE, es256:PEMFILE or jwks:URL"

// ParseAuthSpec builds a verifier from the runnable server's -auth flag
// value:
//
//	hs256:SECRET   HS256 tokens signed with the shared secret SECRET
//	rs256:PEMFILE  RS256 tokens; PEMFILE holds an RSA public key or certificate
//	es256:PEMFILE  ES256 tokens; PEMFILE holds a P-256 public key or certificate
//	jwks:URL       RS256/ES256 tokens whose keys are served at the http(s) URL
//
// The PEM file may hold a "PUBLIC KEY", "RSA PUBLIC KEY" or "CERTIFICATE"
// block, and its key kind must match the prefix. Anything else — including
// "none", which the caller must handle itself — is a KindConfig *Error
// (not an *apierr.Error: it is the operator's flag, not a request) naming
// the accepted forms. Errors never include the secret.
func ParseAuthSpec(spec string, opts VerifyOptions) (*JWTVerifier, error) {
	kind, arg, ok := strings.Cut(spec, ":")
	if !ok {
		if strings.EqualFold(spec, "none") {
			return nil, newError(KindConfig, "auth spec none must be handled by the caller (no verifier); otherwise %s", authSpecForms)
		}
		return nil, newError(KindConfig, "invalid auth spec (no ':'): %s", authSpecForms)
	}
	switch strings.ToLower(kind) {
	case "hs256":
		if arg == "" {
			return nil, newError(KindConfig, "invalid auth spec hs256: the secret is empty")
		}
		return NewJWTVerifier(HMACSecret([]byte(arg)), opts), nil
	case "rs256", "es256":
		if arg == "" {
			return nil, newError(KindConfig, "invalid auth spec %s: the PEM file name is empty", kind)
		}
		pemBytes, err := os.ReadFile(arg)
		if err != nil {
			return nil, wrapError(KindConfig, err, "auth spec %s: %v", kind, err)
		}
		key, err := ParsePublicKeyPEM(pemBytes)
		if err != nil {
			return nil, wrapError(KindConfig, err, "auth spec %s: %s: %v", kind, arg, err)
		}
		wantRSA := strings.EqualFold(kind, "rs256")
		switch key.(type) {
		case *rsa.PublicKey:
			if !wantRSA {
				return nil, newError(KindConfig, "auth spec %s: %s holds an RSA key, use rs256", kind, arg)
			}
		case *ecdsa.PublicKey:
			if wantRSA {
				return nil, newError(KindConfig, "auth spec %s: %s holds an ECDSA key, use es256", kind, arg)
			}
		default:
			return nil, newError(KindConfig, "auth spec %s: %s holds an unsupported %T key", kind, arg, key)
		}
		src, err := PublicKey(key)
		if err != nil {
			return nil, wrapError(KindConfig, err, "auth spec %s: %s: %v", kind, arg, err)
		}
		return NewJWTVerifier(src, opts), nil
	case "jwks":
		u, err := url.Parse(arg)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, newError(KindConfig, "invalid auth spec jwks: %q is not an http(s) URL", arg)
		}
		return NewJWTVerifier(NewJWKS(arg, JWKSOptions{}), opts), nil
	}
	// Only the prefix is echoed, in case the argument is a secret.
	return nil, newError(KindConfig, "invalid auth spec: unknown kind %q: %s", kind, authSpecForms)
}
