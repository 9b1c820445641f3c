package identity

import (
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/apierr"
)

// MaxIdentityProviders is how many identity-provider configurations a
// participant holds at most (besides the default provider).
const MaxIdentityProviders = 16

// IdentityProviderConfig is an identity provider whose tokens the
// participant accepts: tokens whose iss is Issuer are verified with the
// keys at JWKSURL and, when Audience is set, must carry it.
type IdentityProviderConfig struct {
	IdentityProviderID string `json:"identityProviderId"`
	IsDeactivated      bool   `json:"isDeactivated"`
	Issuer             string `json:"issuer"`
	JWKSURL            string `json:"jwksUrl"`
	Audience           string `json:"audience"`
}

// FieldError is a validation failure of one named field.
type FieldError struct {
	Field   string
	Missing bool
	Reason  string
}

// Error returns "field: reason".
func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

// Validate checks a configuration: a non-empty LedgerString id, a
// non-empty issuer and a well-formed absolute http(s) JWKS URL.
func (c IdentityProviderConfig) Validate() error {
	if c.IdentityProviderID == "" {
		return &FieldError{Field: "identity_provider_id", Missing: true, Reason: "is required"}
	}
	if err := ValidateLedgerString(c.IdentityProviderID); err != nil {
		return &FieldError{Field: "identity_provider_id", Reason: err.Error()}
	}
	if c.Issuer == "" {
		return &FieldError{Field: "issuer", Missing: true, Reason: "is required"}
	}
	if c.JWKSURL == "" {
		return &FieldError{Field: "jwks_url", Missing: true, Reason: "is required"}
	}
	return ValidateJWKSURL(c.JWKSURL)
}

// ValidateJWKSURL checks that s is an absolute http or https URL with a
// host, in valid UTF-8.
func ValidateJWKSURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || !utf8.ValidString(s) || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &FieldError{Field: "jwks_url", Reason: fmt.Sprintf("Malformed URL: %q", apierr.Quote(s))}
	}
	return nil
}
