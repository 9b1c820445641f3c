package identity

import (
	"bytes"
	"encoding/json"
)

// RightKind names a user right as the JSON API spells its one-of variant.
type RightKind string

// The user rights of the Ledger API.
const (
	RightParticipantAdmin      RightKind = "ParticipantAdmin"
	RightIdentityProviderAdmin RightKind = "IdentityProviderAdmin"
	RightCanActAs              RightKind = "CanActAs"
	RightCanReadAs             RightKind = "CanReadAs"
	RightCanReadAsAnyParty     RightKind = "CanReadAsAnyParty"
	RightCanExecuteAs          RightKind = "CanExecuteAs"
	RightCanExecuteAsAnyParty  RightKind = "CanExecuteAsAnyParty"
)

// HasParty reports whether rights of this kind name a party.
func (k RightKind) HasParty() bool {
	return k == RightCanActAs || k == RightCanReadAs || k == RightCanExecuteAs
}

// Valid reports whether k is one of the seven rights.
func (k RightKind) Valid() bool {
	switch k {
	case RightParticipantAdmin, RightIdentityProviderAdmin, RightCanActAs, RightCanReadAs,
		RightCanReadAsAnyParty, RightCanExecuteAs, RightCanExecuteAsAnyParty:
		return true
	}
	return false
}

// Right is one user right. Party is set exactly for CanActAs, CanReadAs and
// CanExecuteAs. On the wire a Right is {"kind": {"<Kind>": {"value": {…}}}}.
type Right struct {
	Kind  RightKind
	Party string
}

// Validate checks that the kind is known and that Party is set exactly when
// the kind names a party (and is then a valid party id). Errors are
// KindInvalid *Error values.
func (r Right) Validate() error {
	if !r.Kind.Valid() {
		return newError(KindInvalid, "unknown right kind %q", r.Kind)
	}
	if r.Kind.HasParty() {
		if r.Party == "" {
			return newError(KindInvalid, "right %s needs a party", r.Kind)
		}
		return ValidatePartyString(r.Party)
	}
	if r.Party != "" {
		return newError(KindInvalid, "right %s takes no party", r.Kind)
	}
	return nil
}

type rightValue struct {
	Party *string `json:"party,omitempty"`
}

// MarshalJSON writes the JSON API one-of shape of the right.
func (r Right) MarshalJSON() ([]byte, error) {
	var v any = struct{}{}
	if r.Kind.HasParty() {
		v = struct {
			Party string `json:"party"`
		}{r.Party}
	}
	return json.Marshal(map[string]any{"kind": map[string]any{string(r.Kind): map[string]any{"value": v}}})
}

// UnmarshalJSON reads the JSON API one-of shape of a right. The Empty
// variant and unknown variants are errors.
func (r *Right) UnmarshalJSON(b []byte) error {
	var outer struct {
		Kind map[string]json.RawMessage `json:"kind"`
	}
	if err := json.Unmarshal(b, &outer); err != nil {
		return err
	}
	if len(outer.Kind) != 1 {
		return newError(KindInvalid, "right kind must have exactly one variant")
	}
	for name, raw := range outer.Kind {
		k := RightKind(name)
		if !k.Valid() {
			return newError(KindInvalid, "unknown right kind %q", name)
		}
		var wrap struct {
			Value json.RawMessage `json:"value"`
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			if err := json.Unmarshal(raw, &wrap); err != nil {
				return wrapError(KindInvalid, err, "right %s: %v", name, err)
			}
		}
		var v rightValue
		if len(wrap.Value) > 0 && !bytes.Equal(bytes.TrimSpace(wrap.Value), []byte("null")) {
			if err := json.Unmarshal(wrap.Value, &v); err != nil {
				return wrapError(KindInvalid, err, "right %s: %v", name, err)
			}
		}
		*r = Right{Kind: k}
		if v.Party != nil {
			r.Party = *v.Party
		}
	}
	return nil
}
