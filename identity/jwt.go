package identity

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ledgernode/ledgernode/apierr"
)

// DefaultTargetScope is the scope a scope-based ledger-API token must carry
// when VerifyOptions.TargetScope is empty.
const DefaultTargetScope = "daml_ledger_api"

// ParticipantAudiencePrefix starts the aud entry of an audience-based token;
// the rest of the entry is the participant id the token is for.
const ParticipantAudiencePrefix = "https://daml.com/jwt/aud/participant/"

// DefaultLeeway is the clock skew allowed on exp and nbf when
// VerifyOptions.Leeway is zero.
const DefaultLeeway = 5 * time.Second

// The signing algorithms ledgernode verifies, one per key kind.
const (
	AlgHS256 = "HS256" // HMAC-SHA256 with a shared secret
	AlgRS256 = "RS256" // RSASSA-PKCS1-v1_5 SHA-256 with an RSA key
	AlgES256 = "ES256" // ECDSA P-256 SHA-256
)

// VerifyOptions tune a JWTVerifier. The zero value is usable: no audience
// or participant restriction, target scope daml_ledger_api, 5 s leeway and
// the system clock.
type VerifyOptions struct {
	// ParticipantID is this participant's id. When set, a token restricted
	// to a participant (audience-based, or scope-based with a single aud)
	// must name this one.
	ParticipantID string
	// TargetAudience, when set, switches to audience-based parsing: aud
	// must contain this value, and the scope is not checked.
	TargetAudience string
	// TargetScope is the scope a scope-based token must carry
	// (DefaultTargetScope when empty).
	TargetScope string
	// Leeway is the clock skew allowed on exp and nbf: DefaultLeeway when
	// zero, none when negative.
	Leeway time.Duration
	// Clock returns the current time (time.Now when nil).
	Clock func() time.Time
}

// JWTVerifier verifies Canton ledger-API access tokens (compact JWS) signed
// with HS256, RS256 or ES256, and applies Canton 3.5's claim rules. It is
// safe for concurrent use. Build one with NewJWTVerifier or ParseAuthSpec.
type JWTVerifier struct {
	keys    KeySource
	opts    VerifyOptions
	methods []string
	parser  *jwt.Parser
}

var _ Verifier = (*JWTVerifier)(nil)

// NewJWTVerifier returns a verifier that checks signatures with the keys of
// keys and claims with opts (see VerifyOptions for the defaults). The
// token's alg must match the kind of the key keys returns: HS256 for an
// HMAC secret, RS256 for an RSA key, ES256 for a P-256 key; "none" and
// every other algorithm are refused. With a nil keys every token is refused.
func NewJWTVerifier(keys KeySource, opts VerifyOptions) *JWTVerifier {
	if opts.TargetScope == "" {
		opts.TargetScope = DefaultTargetScope
	}
	switch {
	case opts.Leeway == 0:
		opts.Leeway = DefaultLeeway
	case opts.Leeway < 0:
		opts.Leeway = 0
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	methods := []string{AlgHS256, AlgRS256, AlgES256}
	if l, ok := keys.(algorithmLister); ok {
		methods = l.algorithms()
	}
	return &JWTVerifier{
		keys:    keys,
		opts:    opts,
		methods: methods,
		parser: jwt.NewParser(
			jwt.WithValidMethods(methods),
			jwt.WithLeeway(opts.Leeway),
			jwt.WithTimeFunc(opts.Clock),
		),
	}
}

// tokenClaims is the JSON payload of a ledger-API token.
type tokenClaims struct {
	jwt.RegisteredClaims
	Scope string           `json:"scope,omitempty"`
	Scp   jwt.ClaimStrings `json:"scp,omitempty"`
}

// Verify checks the token's signature, exp and nbf (with the leeway) and
// Canton's claim rules, and returns its claims. ctx bounds the key lookup
// (a JWKS fetch). Every failure is an *apierr.Error with code
// UNAUTHENTICATED whose cause says why, wrapping a KindUnauthenticated
// *Error; its Claims are then zero.
func (v *JWTVerifier) Verify(ctx context.Context, token string) (Claims, error) {
	if v == nil || v.parser == nil {
		return Claims{}, unauthenticated("the token verifier is not initialised (use NewJWTVerifier)")
	}
	if token == "" {
		return Claims{}, unauthenticated("token is empty")
	}
	if v.keys == nil {
		return Claims{}, unauthenticated("no token verification key is configured")
	}
	var tc tokenClaims
	tok, err := v.parser.ParseWithClaims(token, &tc, func(t *jwt.Token) (any, error) {
		return v.key(ctx, t)
	})
	if err != nil {
		return Claims{}, v.parseError(tok, &tc, err)
	}
	return v.claims(&tc)
}

// key asks the key source for the token's key and checks that its kind
// matches the token's algorithm (no algorithm confusion).
func (v *JWTVerifier) key(ctx context.Context, t *jwt.Token) (any, error) {
	alg := t.Method.Alg()
	var kid string
	if raw, ok := t.Header["kid"]; ok && raw != nil {
		s, ok := raw.(string)
		if !ok {
			return nil, unauthenticated("malformed token: kid header is not a string")
		}
		kid = s
	}
	key, err := v.keys.Key(ctx, alg, kid)
	if err != nil {
		return nil, asUnauthenticated(err)
	}
	if want := algorithmForKey(key); want != alg {
		if want == "" {
			return nil, unauthenticated("the key source returned an unsupported key of type %T", key)
		}
		return nil, unauthenticated("signing algorithm %s does not match the %s key", alg, want)
	}
	return key, nil
}

// parseError turns a jwt parse failure into an UNAUTHENTICATED error with a
// precise cause.
func (v *JWTVerifier) parseError(tok *jwt.Token, tc *tokenClaims, err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) && errors.Is(ae, apierr.Unauthenticated) {
		return ae
	}
	now := v.opts.Clock()
	switch {
	case errors.Is(err, jwt.ErrTokenMalformed):
		return unauthenticatedWrap(err, "malformed token: %v", err)
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return unauthenticatedWrap(err, "unsupported or missing signing algorithm: %v", err)
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		if tok != nil && tok.Method != nil && !slices.Contains(v.methods, tok.Method.Alg()) {
			return unauthenticatedWrap(err, "signing algorithm %s is not accepted (accepted: %s)",
				tok.Method.Alg(), strings.Join(v.methods, ", "))
		}
		return unauthenticatedWrap(err, "signature invalid")
	case errors.Is(err, jwt.ErrTokenExpired):
		return unauthenticatedWrap(err, "token expired at %s (now %s, leeway %s)",
			formatNumericDate(tc.ExpiresAt), now.UTC().Format(time.RFC3339), v.opts.Leeway)
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return unauthenticatedWrap(err, "token not valid before %s (now %s, leeway %s)",
			formatNumericDate(tc.NotBefore), now.UTC().Format(time.RFC3339), v.opts.Leeway)
	}
	return unauthenticatedWrap(err, "invalid token: %v", err)
}

func formatNumericDate(d *jwt.NumericDate) string {
	if d == nil {
		return "?"
	}
	return d.UTC().Format(time.RFC3339)
}

// claims applies Canton's claim rules to a verified payload.
func (v *JWTVerifier) claims(tc *tokenClaims) (Claims, error) {
	if tc.Subject == "" {
		return Claims{}, unauthenticated("token has no sub (user id)")
	}
	c := Claims{
		UserID:    tc.Subject,
		Issuer:    tc.Issuer,
		Audiences: slices.Clone([]string(tc.Audience)),
	}
	if s := strings.Fields(tc.Scope); len(s) > 0 {
		c.Scopes = s
	} else if len(tc.Scp) > 0 {
		c.Scopes = slices.Clone([]string(tc.Scp))
	}
	if tc.ExpiresAt != nil {
		c.ExpiresAt = tc.ExpiresAt.Time
	}

	var err error
	switch {
	case v.opts.TargetAudience != "":
		if !slices.Contains(c.Audiences, v.opts.TargetAudience) {
			return Claims{}, unauthenticated("Audience doesn't match the target value")
		}
		if c.ParticipantID, err = participantFromAudiences(c.Audiences, false); err != nil {
			return Claims{}, err
		}
	case slices.Contains(c.Scopes, v.opts.TargetScope):
		switch len(c.Audiences) {
		case 0:
		case 1:
			c.ParticipantID = c.Audiences[0]
		default:
			return Claims{}, unauthenticated(
				"scope-based token must have at most one audience (the participant id), got %d", len(c.Audiences))
		}
	default:
		if !slices.ContainsFunc(c.Audiences, isParticipantAudience) {
			return Claims{}, unauthenticated("missing scope %s", v.opts.TargetScope)
		}
		if c.ParticipantID, err = participantFromAudiences(c.Audiences, true); err != nil {
			return Claims{}, err
		}
	}
	if v.opts.ParticipantID != "" && c.ParticipantID != "" && c.ParticipantID != v.opts.ParticipantID {
		return Claims{}, unauthenticated("token is for participant %q, not %q",
			c.ParticipantID, v.opts.ParticipantID)
	}
	return c, nil
}

func isParticipantAudience(a string) bool { return strings.HasPrefix(a, ParticipantAudiencePrefix) }

// participantFromAudiences returns the participant id named by the single
// aud entry starting with ParticipantAudiencePrefix ("" when there is none
// and required is false).
func participantFromAudiences(aud []string, required bool) (string, error) {
	var found []string
	for _, a := range aud {
		if p, ok := strings.CutPrefix(a, ParticipantAudiencePrefix); ok {
			found = append(found, p)
		}
	}
	switch {
	case len(found) == 0 && !required:
		return "", nil
	case len(found) != 1:
		return "", unauthenticated(
			"audience-based token must name exactly one participant (%s…), got %d", ParticipantAudiencePrefix, len(found))
	case found[0] == "":
		return "", unauthenticated("audience-based token names an empty participant id")
	}
	return found[0], nil
}

// asUnauthenticated returns err as an UNAUTHENTICATED *apierr.Error.
func asUnauthenticated(err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) && errors.Is(ae, apierr.Unauthenticated) {
		return ae
	}
	return unauthenticatedWrap(err, "%v", err)
}
