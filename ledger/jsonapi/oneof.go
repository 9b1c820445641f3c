package jsonapi

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/ledgernode/ledgernode/ledger/internal/shape"
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

// noVariant is UnmarshalJSON's check of a decoded one-of: set is the
// number of variants b named; t the one-of's type.
func noVariant(b []byte, set int, t reflect.Type) error {
	if set > 0 || bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	return &json.UnmarshalTypeError{Value: "object", Type: t}
}

// Variants implements OneOf.
func (DeduplicationPeriod) Variants() []string {
	return []string{"DeduplicationDuration", "DeduplicationOffset", "Empty"}
}

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (d *DeduplicationPeriod) UnmarshalJSON(b []byte) error {
	type plain DeduplicationPeriod
	if err := json.Unmarshal(b, (*plain)(d)); err != nil {
		return err
	}
	return noVariant(b, shape.CountSet(d.DeduplicationDuration != nil, d.DeduplicationOffset != nil, d.Empty != nil), reflect.TypeFor[DeduplicationPeriod]())
}

// Variants implements OneOf.
func (IdentifierFilter) Variants() []string {
	return []string{"Empty", "InterfaceFilter", "TemplateFilter", "WildcardFilter"}
}

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (f *IdentifierFilter) UnmarshalJSON(b []byte) error {
	type plain IdentifierFilter
	if err := json.Unmarshal(b, (*plain)(f)); err != nil {
		return err
	}
	return noVariant(b, shape.CountSet(f.WildcardFilter != nil, f.TemplateFilter != nil, f.InterfaceFilter != nil, f.Empty != nil), reflect.TypeFor[IdentifierFilter]())
}

// Variants implements OneOf.
func (SerialKind) Variants() []string { return []string{"Empty", "NoPrior", "Prior"} }

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (s *SerialKind) UnmarshalJSON(b []byte) error {
	type plain SerialKind
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	return noVariant(b, shape.CountSet(s.Prior != nil, s.NoPrior != nil, s.Empty != nil), reflect.TypeFor[SerialKind]())
}

// Variants implements OneOf.
func (MinLedgerTimeKind) Variants() []string {
	return []string{"Empty", "MinLedgerTimeAbs", "MinLedgerTimeRel"}
}

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (k *MinLedgerTimeKind) UnmarshalJSON(b []byte) error {
	type plain MinLedgerTimeKind
	if err := json.Unmarshal(b, (*plain)(k)); err != nil {
		return err
	}
	return noVariant(b, shape.CountSet(k.MinLedgerTimeAbs != nil, k.MinLedgerTimeRel != nil, k.Empty != nil), reflect.TypeFor[MinLedgerTimeKind]())
}

// Variants implements OneOf.
func (VettingOperation) Variants() []string { return []string{"Empty", "Unvet", "Vet"} }

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (o *VettingOperation) UnmarshalJSON(b []byte) error {
	type plain VettingOperation
	if err := json.Unmarshal(b, (*plain)(o)); err != nil {
		return err
	}
	return noVariant(b, shape.CountSet(o.Vet != nil, o.Unvet != nil, o.Empty != nil), reflect.TypeFor[VettingOperation]())
}

// Variants implements OneOf.
func (ReassignmentCommandKind) Variants() []string {
	return []string{"AssignCommand", "Empty", "UnassignCommand"}
}

// UnmarshalJSON decodes the one-of, refusing one without a variant (OneOf).
func (k *ReassignmentCommandKind) UnmarshalJSON(b []byte) error {
	type plain ReassignmentCommandKind
	if err := json.Unmarshal(b, (*plain)(k)); err != nil {
		return err
	}
	return noVariant(b, shape.CountSet(k.AssignCommand != nil, k.UnassignCommand != nil, k.Empty != nil), reflect.TypeFor[ReassignmentCommandKind]())
}
