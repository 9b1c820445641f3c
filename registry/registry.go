// Package registry holds the token-standard registry metadata domain
// (splice-api-token-metadata-v1): instruments, the registry's info, their
// validation rules and the instruments file format. It is pure: package
// ledger persists instruments and the HTTP adapter serves them.
package registry

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// MetadataAPI is the name of the API this package describes.
const MetadataAPI = "splice-api-token-metadata-v1"

// DefaultDecimals is the number of decimals of an instrument whose JSON
// leaves them out (Daml's Decimal has 10).
const DefaultDecimals = 10

// AccountInputField names an input a wallet shows for transfers and
// allocations.
type AccountInputField string

// The account input fields.
const (
	AccountInputProvider  AccountInputField = "provider"
	AccountInputAccountID AccountInputField = "accountId"
)

// PauseInfo tells more about a paused instrument.
type PauseInfo struct {
	// Reason is a human-readable reason.
	Reason string `json:"reason,omitempty"`
	// Until is an RFC 3339 time until which the pause is expected to last.
	Until string `json:"until,omitempty"`
}

// Instrument is one token instrument the registry administers.
type Instrument struct {
	// ID is the instrument's unique id.
	ID string `json:"id"`
	// Name is the recommended display name.
	Name string `json:"name"`
	// Symbol is the recommended symbol.
	Symbol string `json:"symbol"`
	// Decimals is the number of decimal places, 0 to 10. JSON input that
	// leaves it out gets DefaultDecimals; a Go caller sets it explicitly.
	Decimals int `json:"decimals"`
	// SupportedAPIs maps an API name to the minor version supported.
	SupportedAPIs map[string]int32 `json:"supportedApis"`
	// TotalSupply is the decimal-encoded current total supply.
	TotalSupply string `json:"totalSupply,omitempty"`
	// TotalSupplyAsOf is the RFC 3339 time TotalSupply was computed.
	TotalSupplyAsOf string `json:"totalSupplyAsOf,omitempty"`
	// Paused marks an instrument that cannot be transferred or allocated.
	Paused bool `json:"paused,omitempty"`
	// PauseInfo tells more about the pause; only with Paused.
	PauseInfo *PauseInfo `json:"pauseInfo,omitempty"`
	// ShowAccountInputFields is deprecated in favour of
	// AccountInputFieldsToShow, which overrides it when set.
	ShowAccountInputFields *bool `json:"showAccountInputFields,omitempty"`
	// AccountInputFieldsToShow lists the inputs a wallet shows.
	AccountInputFieldsToShow []AccountInputField `json:"accountInputFieldsToShow,omitempty"`
}

// UnmarshalJSON reads an instrument, defaulting decimals to 10 when absent.
func (i *Instrument) UnmarshalJSON(b []byte) error {
	type plain Instrument
	aux := struct {
		*plain
		Decimals *int `json:"decimals"`
	}{plain: (*plain)(i)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	i.Decimals = DefaultDecimals
	if aux.Decimals != nil {
		i.Decimals = *aux.Decimals
	}
	return nil
}

// Info is the registry's own description.
type Info struct {
	// AdminID is the Daml party of the registry (the instrument admin).
	AdminID string `json:"adminId"`
	// SupportedAPIs lists registry-wide APIs with their minor versions.
	SupportedAPIs map[string]int32 `json:"supportedApis"`
}

// FieldError is a validation failure naming the instrument and the field.
type FieldError struct {
	// Instrument is the instrument's id ("" when the id itself is missing),
	// or its position in a file as "#N".
	Instrument string
	// Field is the JSON name of the offending field.
	Field string
	// Reason says what is wrong.
	Reason string
}

// Error returns "instrument X: field F: reason".
func (e *FieldError) Error() string {
	return fmt.Sprintf("instrument %s: field %s: %s", e.Instrument, e.Field, e.Reason)
}

var decimalPattern = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// Validate checks an instrument: id, name and symbol non-empty; decimals
// 0–10; supportedApis keys non-empty and minor versions ≥ 0; totalSupply a
// non-negative decimal with at most 38 significant digits and at most
// `decimals` fractional digits; totalSupplyAsOf and pauseInfo.until RFC
// 3339; pauseInfo only when paused; accountInputFieldsToShow without
// duplicates or unknown values.
func (i Instrument) Validate() error {
	fail := func(field, format string, args ...any) error {
		return &FieldError{Instrument: i.ID, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if strings.TrimSpace(i.ID) == "" {
		return fail("id", "is required")
	}
	if strings.TrimSpace(i.Name) == "" {
		return fail("name", "is required")
	}
	if strings.TrimSpace(i.Symbol) == "" {
		return fail("symbol", "is required")
	}
	if i.Decimals < 0 || i.Decimals > 10 {
		return fail("decimals", "must be between 0 and 10, not %d", i.Decimals)
	}
	if err := validateAPIs(i.SupportedAPIs); err != "" {
		return fail("supportedApis", "%s", err)
	}
	if s := i.TotalSupply; s != "" {
		if !decimalPattern.MatchString(s) {
			return fail("totalSupply", "%q is not a non-negative decimal number", s)
		}
		whole, frac, _ := strings.Cut(s, ".")
		if len(frac) > i.Decimals {
			return fail("totalSupply", "%q has %d fractional digits, more than the instrument's %d decimals", s, len(frac), i.Decimals)
		}
		if sig := len(strings.TrimLeft(whole+frac, "0")); sig > 38 {
			return fail("totalSupply", "%q has %d significant digits, more than 38", s, sig)
		}
	}
	if s := i.TotalSupplyAsOf; s != "" {
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return fail("totalSupplyAsOf", "%q is not an RFC 3339 date-time", s)
		}
	}
	if i.PauseInfo != nil {
		if !i.Paused {
			return fail("pauseInfo", "is only allowed when paused is true")
		}
		if s := i.PauseInfo.Until; s != "" {
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				return fail("pauseInfo.until", "%q is not an RFC 3339 date-time", s)
			}
		}
	}
	for k, f := range i.AccountInputFieldsToShow {
		if f != AccountInputProvider && f != AccountInputAccountID {
			return fail("accountInputFieldsToShow", "unknown value %q (want %q or %q)", f, AccountInputProvider, AccountInputAccountID)
		}
		if slices.Contains(i.AccountInputFieldsToShow[:k], f) {
			return fail("accountInputFieldsToShow", "duplicate value %q", f)
		}
	}
	return nil
}

func validateAPIs(apis map[string]int32) string {
	for name, minor := range apis {
		if strings.TrimSpace(name) == "" {
			return "an API name is empty"
		}
		if minor < 0 {
			return fmt.Sprintf("the minor version of %s is negative", name)
		}
	}
	return ""
}

// Validate checks the registry info: adminId a non-empty party-like string
// and supportedApis as for instruments.
func (i Info) Validate() error {
	if strings.TrimSpace(i.AdminID) == "" {
		return &FieldError{Field: "adminId", Reason: "is required"}
	}
	if err := validateAPIs(i.SupportedAPIs); err != "" {
		return &FieldError{Field: "supportedApis", Reason: err}
	}
	return nil
}

// File is the instruments file ledgerd loads at start-up:
// {"adminId": …, "supportedApis": {…}, "instruments": […]}.
type File struct {
	Info
	Instruments []Instrument `json:"instruments"`
}

// ParseFile decodes and validates an instruments file: the info, every
// instrument, and unique ids. Errors name the offending instrument and
// field.
func ParseFile(data []byte) (File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("instruments file: %w", err)
	}
	if f.SupportedAPIs == nil {
		f.SupportedAPIs = map[string]int32{}
	}
	if err := f.Info.Validate(); err != nil {
		return File{}, fmt.Errorf("instruments file: %w", err)
	}
	seen := map[string]int{}
	for k, in := range f.Instruments {
		if err := in.Validate(); err != nil {
			if fe, ok := err.(*FieldError); ok && fe.Instrument == "" {
				fe.Instrument = fmt.Sprintf("#%d", k)
			}
			return File{}, fmt.Errorf("instruments file: %w", err)
		}
		if j, dup := seen[in.ID]; dup {
			return File{}, fmt.Errorf("instruments file: %w", &FieldError{Instrument: in.ID, Field: "id",
				Reason: fmt.Sprintf("duplicate of instrument #%d", j)})
		}
		seen[in.ID] = k
	}
	return f, nil
}
