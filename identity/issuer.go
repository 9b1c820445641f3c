package identity

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// UnverifiedIssuer returns the iss claim of a compact JWT without checking
// its signature ("" when the token has none). It only chooses which
// identity provider verifies the token; nothing else may trust it. A
// token it cannot read is a KindUnauthenticated *Error.
func UnverifiedIssuer(token string) (string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", newError(KindUnauthenticated, "malformed token: %d segments", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", wrapError(KindUnauthenticated, err, "malformed token payload: %v", err)
	}
	var claims struct {
		Issuer any `json:"iss"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return "", wrapError(KindUnauthenticated, err, "malformed token payload: %v", err)
	}
	switch iss := claims.Issuer.(type) {
	case nil:
		return "", nil
	case string:
		return iss, nil
	default:
		return "", newError(KindUnauthenticated, "malformed token: iss is not a string")
	}
}
