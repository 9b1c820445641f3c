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

// FieldError is the *Error of a configuration field: its Kind is
// KindMissingField or KindInvalidField and its Field names the field.
type FieldError = Error

// missingField is the KindMissingField *Error of field.
func missingField(field string) *Error {
	return &Error{Kind: KindMissingField, Field: field, Message: field + ": is required"}
}

// invalidField is the KindInvalidField *Error of field, with reason (and
// the underlying error err, when there is one).
func invalidField(field, reason string, err error) *Error {
	return &Error{Kind: KindInvalidField, Field: field, Message: field + ": " + reason, Err: err}
}

// Validate checks a configuration: a non-empty LedgerString id, a
// non-empty issuer and a well-formed absolute http(s) JWKS URL. An error
// is a KindMissingField or KindInvalidField *Error naming the field.
func (c IdentityProviderConfig) Validate() error {
	if c.IdentityProviderID == "" {
		return missingField("identity_provider_id")
	}
	if err := ValidateLedgerString(c.IdentityProviderID); err != nil {
		return invalidField("identity_provider_id", err.Error(), err)
	}
	if c.Issuer == "" {
		return missingField("issuer")
	}
	if c.JWKSURL == "" {
		return missingField("jwks_url")
	}
	return ValidateJWKSURL(c.JWKSURL)
}

// ValidateJWKSURL checks that s is an absolute http or https URL with a
// host, in valid UTF-8 (else a KindInvalidField *Error of jwks_url).
func ValidateJWKSURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || !utf8.ValidString(s) || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalidField("jwks_url", fmt.Sprintf("Malformed URL: %q", apierr.Quote(s)), nil)
	}
	return nil
}
