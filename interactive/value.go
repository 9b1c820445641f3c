package interactive

import (
	"fmt"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// The Daml values of prepared transactions are daml/value's; this file
// holds the identifiers of templates and interfaces and the glue to
// daml/value's protobuf codec.

// Identifier is {package_id=1, module_name=2, entity_name=3}; module and
// entity are dotted names.
type Identifier struct {
	// PackageID is the package id (hex).
	PackageID string
	// ModuleName is the dotted module name.
	ModuleName string
	// EntityName is the dotted entity name.
	EntityName string
}

// typeConID converts id to a Daml-LF type constructor id (lf.TypeConID).
func (id Identifier) typeConID() lf.TypeConID {
	return lf.TypeConID{PackageID: id.PackageID, Module: id.ModuleName, Name: id.EntityName}
}

// identifierOf converts a Daml-LF type constructor id to an Identifier.
func identifierOf(id lf.TypeConID) Identifier {
	return Identifier{PackageID: id.PackageID, ModuleName: id.Module, EntityName: id.Name}
}

func encodeIdentifier(e *pbEnc, id Identifier) { value.EncodeIdentifierProto(e, id.typeConID()) }

func encodeOptIdentifier(e *pbEnc, num protowire.Number, id *Identifier) {
	if id != nil {
		e.Message(num, func(e *pbEnc) { encodeIdentifier(e, *id) })
	}
}

// encodeValueField writes v as message field num (nothing when v is nil).
func encodeValueField(e *pbEnc, num protowire.Number, v value.Value) {
	if v == nil {
		return
	}
	b, err := value.EncodeProto(v)
	if e.Err == nil {
		e.Err = err
	}
	e.BytesAlways(num, b)
}

func decodeIdentifier(b []byte, depth int) (Identifier, error) {
	id, err := value.DecodeIdentifierProto(b, depth)
	return identifierOf(id), err
}

func decodeOptIdentifier(acc pbwire.Acc, depth int) (*Identifier, error) {
	if !acc.Set {
		return nil, nil
	}
	id, err := decodeIdentifier(acc.B, depth)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

// decodeValue decodes a Value message at nesting level depth.
func decodeValue(b []byte, depth int) (value.Value, error) {
	return value.DecodeProtoAt(b, depth)
}

// decodeRequiredValue decodes a Value message field that must be present.
func decodeRequiredValue(acc pbwire.Acc, depth int, what string) (value.Value, error) {
	if !acc.Set {
		return nil, fmt.Errorf("%s is missing", what)
	}
	return decodeValue(acc.B, depth)
}
