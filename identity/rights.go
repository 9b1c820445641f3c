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

// MarshalJSON writes the JSON API one-of shape of the right,
// {"kind":{"<Kind>":{"value":{…}}}}, byte for byte as json.Marshal of that
// shape (a map per level) writes it.
func (r Right) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, 48+len(r.Kind)+len(r.Party))), nil
}

// AppendJSON appends the right's JSON (MarshalJSON's bytes) to dst. Users'
// stored records hold their rights in this form, written once per user
// change: the kind and party are written as they are when every byte is
// one json.Marshal copies unchanged (printable ASCII but '"', '\', '<',
// '>' and '&': every valid kind and party id), without the three maps
// and the reflection of the general encoding, which any other right takes.
func (r Right) AppendJSON(dst []byte) []byte {
	if !plainJSON(string(r.Kind)) || !plainJSON(r.Party) {
		b, err := r.marshalMaps()
		if err != nil {
			// Maps of strings and a struct of a string always encode.
			panic("identity: encoding a right: " + err.Error())
		}
		return append(dst, b...)
	}
	dst = append(dst, `{"kind":{"`...)
	dst = append(dst, r.Kind...)
	if !r.Kind.HasParty() {
		return append(dst, `":{"value":{}}}}`...)
	}
	dst = append(dst, `":{"value":{"party":"`...)
	dst = append(dst, r.Party...)
	return append(dst, `"}}}}`...)
}

// plainJSON reports whether json.Marshal writes s inside its quotes as it
// is: every byte printable ASCII and none of '"', '\', '<', '>', '&'
// (which it escapes, the last three as HTML).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b < 0x20 || b >= 0x7f, b == '"', b == '\\', b == '<', b == '>', b == '&':
			return false
		}
	}
	return true
}

// marshalMaps is the general encoding of the one-of shape, json.Marshal of
// a map per level; AppendJSON's bytes are this encoding's.
func (r Right) marshalMaps() ([]byte, error) {
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
	if x, ok := parsePlainRight(b); ok {
		*r = x
		return nil
	}
	return r.unmarshalGeneral(b)
}

// unmarshalGeneral is UnmarshalJSON's reading of any input.
func (r *Right) unmarshalGeneral(b []byte) error {
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

// parsePlainRight reads the bytes AppendJSON writes for a right whose kind
// is valid and whose kind and party are plain (plainJSON):
// {"kind":{"<Kind>":{"value":{}}}} or
// {"kind":{"<Kind>":{"value":{"party":"<party>"}}}}, without whitespace.
// Such bytes mean what UnmarshalJSON's general reading makes of them (a
// party is kept whatever the kind, as there); ok is false for any other
// input, which that reading takes.
func parsePlainRight(b []byte) (r Right, ok bool) {
	const head, value = `{"kind":{"`, `":{"value":`
	if !bytes.HasPrefix(b, []byte(head)) {
		return Right{}, false
	}
	b = b[len(head):]
	i := bytes.IndexByte(b, '"')
	if i < 0 {
		return Right{}, false
	}
	kind, known := rightKinds[string(b[:i])]
	if !known || !bytes.HasPrefix(b[i:], []byte(value)) {
		return Right{}, false
	}
	b = b[i+len(value):]
	const empty, party, tail = `{}}}}`, `{"party":"`, `"}}}}`
	if string(b) == empty {
		return Right{Kind: kind}, true
	}
	if len(b) < len(party)+len(tail) || !bytes.HasPrefix(b, []byte(party)) || !bytes.HasSuffix(b, []byte(tail)) {
		return Right{}, false
	}
	p := string(b[len(party) : len(b)-len(tail)])
	if !plainJSON(p) {
		return Right{}, false
	}
	return Right{Kind: kind, Party: p}, true
}

// rightKinds maps the valid kinds' names to their constants.
var rightKinds = map[string]RightKind{}

func init() {
	for _, k := range []RightKind{RightParticipantAdmin, RightIdentityProviderAdmin, RightCanActAs, RightCanReadAs,
		RightCanReadAsAnyParty, RightCanExecuteAs, RightCanExecuteAsAnyParty} {
		rightKinds[string(k)] = k
	}
}
