package jsonapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// OneOf is a one-of of the wire whose decoding refuses an object that
// names none of its variants ({} or {"Typo": …}), as Canton's codecs of
// these ADTs (circe's deriveConfiguredCodec) do: otherwise the request
// would go on as if the one-of were absent, e.g. a deduplication period
// of {"DeduplicationOfset": …} would deduplicate over the maximum period,
// a serial of {"Prrior": …} would not be checked and an identifier filter
// of {"TemplateFiltr": …} would read every template. An absent field or
// null stays the relaxed default (no variant).
//
// The error is a *json.UnmarshalTypeError of Value "object" and of the
// OneOf's type, which encoding/json completes with the field's path and
// the HTTP layer words as "expected one of <Variants> at '<path>'".
type OneOf interface {
	// Variants names the variants, sorted (as commandVariants are).
	Variants() []string
}

// A one-of's variants are its fields, each a pointer, named by their json
// tags: its Variants and its check are derived from them, so that a
// variant added to the type is one the decoding knows.

// variantsOf returns the json names of one-of type t's fields, sorted.
func variantsOf(t reflect.Type) []string {
	out := make([]string, 0, t.NumField())
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// decodeOneOf decodes b into v, a pointer to a one-of of type t
// converted to a type without its UnmarshalJSON, and refuses an object
// that sets none of its variants (OneOf); null sets none and is kept.
func decodeOneOf(b []byte, v any, t reflect.Type) error {
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		if !rv.Field(i).IsNil() {
			return nil
		}
	}
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	return &json.UnmarshalTypeError{Value: "object", Type: t}
}

// Variants implements OneOf.
func (DeduplicationPeriod) Variants() []string {
	return variantsOf(reflect.TypeFor[DeduplicationPeriod]())
}

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (d *DeduplicationPeriod) UnmarshalJSON(b []byte) error {
	type plain DeduplicationPeriod
	return decodeOneOf(b, (*plain)(d), reflect.TypeFor[DeduplicationPeriod]())
}

// Variants implements OneOf.
func (IdentifierFilter) Variants() []string { return variantsOf(reflect.TypeFor[IdentifierFilter]()) }

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (f *IdentifierFilter) UnmarshalJSON(b []byte) error {
	type plain IdentifierFilter
	return decodeOneOf(b, (*plain)(f), reflect.TypeFor[IdentifierFilter]())
}

// Variants implements OneOf.
func (SerialKind) Variants() []string { return variantsOf(reflect.TypeFor[SerialKind]()) }

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (s *SerialKind) UnmarshalJSON(b []byte) error {
	type plain SerialKind
	return decodeOneOf(b, (*plain)(s), reflect.TypeFor[SerialKind]())
}

// Variants implements OneOf.
func (MinLedgerTimeKind) Variants() []string { return variantsOf(reflect.TypeFor[MinLedgerTimeKind]()) }

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (k *MinLedgerTimeKind) UnmarshalJSON(b []byte) error {
	type plain MinLedgerTimeKind
	return decodeOneOf(b, (*plain)(k), reflect.TypeFor[MinLedgerTimeKind]())
}

// Variants implements OneOf.
func (VettingOperation) Variants() []string { return variantsOf(reflect.TypeFor[VettingOperation]()) }

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (o *VettingOperation) UnmarshalJSON(b []byte) error {
	type plain VettingOperation
	return decodeOneOf(b, (*plain)(o), reflect.TypeFor[VettingOperation]())
}

// Variants implements OneOf.
func (ReassignmentCommandKind) Variants() []string {
	return variantsOf(reflect.TypeFor[ReassignmentCommandKind]())
}

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (k *ReassignmentCommandKind) UnmarshalJSON(b []byte) error {
	type plain ReassignmentCommandKind
	return decodeOneOf(b, (*plain)(k), reflect.TypeFor[ReassignmentCommandKind]())
}
