package identity

import (
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// MintHS256 returns a scope-based ledger-API token for userID signed with
// secret (HS256): sub=userID, scope "daml_ledger_api", iat=now and, when
// ttl > 0, exp=now+ttl (no exp otherwise). clock gives now (time.Now when
// nil); times are whole seconds. The secret and userID must be non-empty
// (else a KindConfig *Error).
// It is meant for development servers and tests.
func MintHS256(secret []byte, userID string, ttl time.Duration, clock func() time.Time) (string, error) {
	return MintHS256Scope(secret, userID, DefaultTargetScope, ttl, clock)
}

// MintHS256Scope is MintHS256 with the scope claim scope instead of
// "daml_ledger_api" (space-separated scopes; "" leaves the claim out,
// which the verifier reads as an empty scope).
func MintHS256Scope(secret []byte, userID, scope string, ttl time.Duration, clock func() time.Time) (string, error) {
	if len(secret) == 0 {
		return "", newError(KindConfig, "MintHS256: empty secret")
	}
	if userID == "" {
		return "", newError(KindConfig, "MintHS256: empty user id")
	}
	if clock == nil {
		clock = time.Now
	}
	now := clock()
	claims := tokenClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:  userID,
			IssuedAt: jwt.NewNumericDate(now),
		},
		Scope: scope,
	}
	if ttl > 0 {
		claims.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
}
