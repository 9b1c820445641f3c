package interactive

import (
	"fmt"

	"github.com/ledgernode/ledgernode/daml/value"
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

func encodeIdentifier(e *pbEnc, id Identifier) {
	e.str(1, id.PackageID)
	e.str(2, id.ModuleName)
	e.str(3, id.EntityName)
}

func encodeOptIdentifier(e *pbEnc, num protowire.Number, id *Identifier) {
	if id != nil {
		e.msg(num, func(e *pbEnc) { encodeIdentifier(e, *id) })
	}
}

// encodeValueField writes v as message field num (nothing when v is nil).
func encodeValueField(e *pbEnc, num protowire.Number, v value.Value) {
	if v == nil {
		return
	}
	b, err := value.EncodeProto(v)
	if e.err == nil {
		e.err = err
	}
	e.bytesAlways(num, b)
}

func decodeIdentifier(b []byte, depth int) (Identifier, error) {
	var id Identifier
	if depth > maxProtoDepth {
		return id, errTooDeep
	}
	err := pbFields(b, func(f pbField) error {
		if !f.isBytes() {
			return nil
		}
		var err error
		switch f.num {
		case 1:
			id.PackageID, err = f.str("package_id")
		case 2:
			id.ModuleName, err = f.str("module_name")
		case 3:
			id.EntityName, err = f.str("entity_name")
		}
		return err
	})
	return id, err
}

func decodeOptIdentifier(acc msgAcc, depth int) (*Identifier, error) {
	if !acc.set {
		return nil, nil
	}
	id, err := decodeIdentifier(acc.b, depth)
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
func decodeRequiredValue(acc msgAcc, depth int, what string) (value.Value, error) {
	if !acc.set {
		return nil, fmt.Errorf("%s is missing", what)
	}
	return decodeValue(acc.b, depth)
}
