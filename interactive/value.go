package interactive

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Value is a Daml value as the Ledger API's value.proto carries it (oneof
// sum). The implementations are Unit, Bool, Int64, Numeric, Timestamp,
// Date, Party, Text, ContractID, Optional, List, TextMap, GenMap, Record,
// Variant and Enum.
type Value interface{ isValue() }

// Unit is the unit value (sum field 1, google.protobuf.Empty).
type Unit struct{}

// Bool is a boolean (sum field 2).
type Bool bool

// Int64 is a 64-bit integer (sum field 3, sint64).
type Int64 int64

// Numeric is a decimal in Daml-LF's canonical text form, e.g.
// "1.5000000000" (sum field 6). Hashing needs the canonical form
// -?(0|[1-9][0-9]*)\.[0-9]* with at most 37 decimals and 38 digits.
type Numeric string

// Timestamp is microseconds since the Unix epoch (sum field 5, sfixed64).
type Timestamp int64

// Date is days since the Unix epoch (sum field 4, int32).
type Date int32

// Party is a party id (sum field 7).
type Party string

// Text is a string (sum field 8).
type Text string

// ContractID is a contract id in hex (sum field 9).
type ContractID string

// Optional is an optional value (sum field 10); a nil Value is None.
type Optional struct {
	// Value is the content, nil for None.
	Value Value
}

// List is a list (sum field 11).
type List []Value

// TextMap is a text map (sum field 12). Canton hashes it with its entries
// sorted by key; keys must be unique.
type TextMap []TextMapEntry

// TextMapEntry is one TextMap entry.
type TextMapEntry struct {
	// Key is the entry key.
	Key string
	// Value is the entry value.
	Value Value
}

// GenMap is a generic map (sum field 13), hashed in order.
type GenMap []GenMapEntry

// GenMapEntry is one GenMap entry.
type GenMapEntry struct {
	// Key is the entry key.
	Key Value
	// Value is the entry value.
	Value Value
}

// Record is a record (sum field 14).
type Record struct {
	// RecordID is the record's type (nil: absent).
	RecordID *Identifier
	// Fields are the fields in order.
	Fields []RecordField
}

// RecordField is a record field; an empty Label is an absent label.
type RecordField struct {
	// Label is the field name ("" = none).
	Label string
	// Value is the field value.
	Value Value
}

// Variant is a variant (sum field 15).
type Variant struct {
	// VariantID is the variant's type (nil: absent).
	VariantID *Identifier
	// Constructor is the constructor name.
	Constructor string
	// Value is the argument.
	Value Value
}

// Enum is an enum value (sum field 16).
type Enum struct {
	// EnumID is the enum's type (nil: absent).
	EnumID *Identifier
	// Constructor is the constructor name.
	Constructor string
}

func (Unit) isValue()       {}
func (Bool) isValue()       {}
func (Int64) isValue()      {}
func (Numeric) isValue()    {}
func (Timestamp) isValue()  {}
func (Date) isValue()       {}
func (Party) isValue()      {}
func (Text) isValue()       {}
func (ContractID) isValue() {}
func (Optional) isValue()   {}
func (List) isValue()       {}
func (TextMap) isValue()    {}
func (GenMap) isValue()     {}
func (Record) isValue()     {}
func (Variant) isValue()    {}
func (Enum) isValue()       {}

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
func encodeValueField(e *pbEnc, num protowire.Number, v Value) {
	if v != nil {
		e.msg(num, func(e *pbEnc) { encodeValue(e, v) })
	}
}

// encodeValue writes the fields of a Value message. Oneof members are
// written even when they hold their default.
func encodeValue(e *pbEnc, v Value) {
	switch v := v.(type) {
	case Unit:
		e.msg(1, func(*pbEnc) {})
	case Bool:
		if v {
			e.varintAlways(2, 1)
		} else {
			e.varintAlways(2, 0)
		}
	case Int64:
		e.varintAlways(3, protowire.EncodeZigZag(int64(v)))
	case Date:
		e.varintAlways(4, uint64(int64(v)))
	case Timestamp:
		e.b = protowire.AppendTag(e.b, 5, protowire.Fixed64Type)
		e.b = protowire.AppendFixed64(e.b, uint64(v))
	case Numeric:
		e.strAlways(6, string(v))
	case Party:
		e.strAlways(7, string(v))
	case Text:
		e.strAlways(8, string(v))
	case ContractID:
		e.strAlways(9, string(v))
	case Optional:
		e.msg(10, func(e *pbEnc) { encodeValueField(e, 1, v.Value) })
	case List:
		e.msg(11, func(e *pbEnc) {
			for _, x := range v {
				e.msg(1, func(e *pbEnc) { encodeValue(e, x) })
			}
		})
	case TextMap:
		e.msg(12, func(e *pbEnc) {
			for _, x := range v {
				e.msg(1, func(e *pbEnc) {
					e.str(1, x.Key)
					encodeValueField(e, 2, x.Value)
				})
			}
		})
	case GenMap:
		e.msg(13, func(e *pbEnc) {
			for _, x := range v {
				e.msg(1, func(e *pbEnc) {
					encodeValueField(e, 1, x.Key)
					encodeValueField(e, 2, x.Value)
				})
			}
		})
	case Record:
		e.msg(14, func(e *pbEnc) {
			encodeOptIdentifier(e, 1, v.RecordID)
			for _, f := range v.Fields {
				e.msg(2, func(e *pbEnc) {
					e.str(1, f.Label)
					encodeValueField(e, 2, f.Value)
				})
			}
		})
	case Variant:
		e.msg(15, func(e *pbEnc) {
			encodeOptIdentifier(e, 1, v.VariantID)
			e.str(2, v.Constructor)
			encodeValueField(e, 3, v.Value)
		})
	case Enum:
		e.msg(16, func(e *pbEnc) {
			encodeOptIdentifier(e, 1, v.EnumID)
			e.str(2, v.Constructor)
		})
	default:
		if e.err == nil {
			e.err = fmt.Errorf("unsupported value type %T", v)
		}
	}
}

// EncodeValue serializes a Value as a value.proto Value message.
func EncodeValue(v Value) ([]byte, error) {
	var e pbEnc
	encodeValue(&e, v)
	return e.b, e.err
}

// DecodeValue parses a value.proto Value message.
func DecodeValue(b []byte) (Value, error) { return decodeValue(b, 1) }

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

// decodeRequiredValue decodes a Value message field that must be present.
func decodeRequiredValue(acc msgAcc, depth int, what string) (Value, error) {
	if !acc.set {
		return nil, fmt.Errorf("%s is missing", what)
	}
	return decodeValue(acc.b, depth)
}

var errNoSum = errors.New("value has no sum set")

func decodeValue(b []byte, depth int) (Value, error) {
	if depth > maxProtoDepth {
		return nil, errTooDeep
	}
	var (
		num protowire.Number
		acc msgAcc
		u   uint64
		s   string
	)
	err := pbFields(b, func(f pbField) error {
		ok := false
		switch f.num {
		case 2, 3, 4:
			ok = f.isVarint()
		case 5:
			ok = f.isFixed64()
		case 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16:
			ok = f.isBytes()
		}
		if !ok {
			return nil
		}
		if f.num != num {
			acc = msgAcc{}
		}
		num = f.num
		switch f.num {
		case 2, 3, 4, 5:
			u = f.u
		case 6, 7, 8, 9:
			var err error
			s, err = f.str("value string")
			return err
		default:
			acc.add(f.b)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	d := depth + 1
	switch num {
	case 0:
		return nil, errNoSum
	case 1:
		return Unit{}, nil
	case 2:
		return Bool(u != 0), nil
	case 3:
		return Int64(protowire.DecodeZigZag(u)), nil
	case 4:
		return Date(int32(u)), nil
	case 5:
		return Timestamp(int64(u)), nil
	case 6:
		return Numeric(s), nil
	case 7:
		return Party(s), nil
	case 8:
		return Text(s), nil
	case 9:
		return ContractID(s), nil
	case 10:
		var inner msgAcc
		err := pbFields(acc.b, func(f pbField) error {
			if f.num == 1 && f.isBytes() {
				inner.add(f.b)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !inner.set {
			return Optional{}, nil
		}
		v, err := decodeValue(inner.b, d+1)
		return Optional{Value: v}, err
	case 11:
		var out List
		err := pbFields(acc.b, func(f pbField) error {
			if f.num == 1 && f.isBytes() {
				v, err := decodeValue(f.b, d+1)
				out = append(out, v)
				return err
			}
			return nil
		})
		if out == nil {
			out = List{}
		}
		return out, err
	case 12:
		out := TextMap{}
		err := pbFields(acc.b, func(f pbField) error {
			if f.num != 1 || !f.isBytes() {
				return nil
			}
			var ent TextMapEntry
			var val msgAcc
			err := pbFields(f.b, func(g pbField) error {
				var err error
				switch {
				case g.num == 1 && g.isBytes():
					ent.Key, err = g.str("text map key")
				case g.num == 2 && g.isBytes():
					val.add(g.b)
				}
				return err
			})
			if err != nil {
				return err
			}
			ent.Value, err = decodeRequiredValue(val, d+2, "text map entry value")
			out = append(out, ent)
			return err
		})
		return out, err
	case 13:
		out := GenMap{}
		err := pbFields(acc.b, func(f pbField) error {
			if f.num != 1 || !f.isBytes() {
				return nil
			}
			var k, v msgAcc
			err := pbFields(f.b, func(g pbField) error {
				switch {
				case g.num == 1 && g.isBytes():
					k.add(g.b)
				case g.num == 2 && g.isBytes():
					v.add(g.b)
				}
				return nil
			})
			if err != nil {
				return err
			}
			var ent GenMapEntry
			if ent.Key, err = decodeRequiredValue(k, d+2, "gen map entry key"); err != nil {
				return err
			}
			ent.Value, err = decodeRequiredValue(v, d+2, "gen map entry value")
			out = append(out, ent)
			return err
		})
		return out, err
	case 14:
		var rec Record
		var rid msgAcc
		err := pbFields(acc.b, func(f pbField) error {
			switch {
			case f.num == 1 && f.isBytes():
				rid.add(f.b)
			case f.num == 2 && f.isBytes():
				var fld RecordField
				var val msgAcc
				err := pbFields(f.b, func(g pbField) error {
					var err error
					switch {
					case g.num == 1 && g.isBytes():
						fld.Label, err = g.str("record field label")
					case g.num == 2 && g.isBytes():
						val.add(g.b)
					}
					return err
				})
				if err != nil {
					return err
				}
				fld.Value, err = decodeRequiredValue(val, d+2, "record field value")
				rec.Fields = append(rec.Fields, fld)
				return err
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		rec.RecordID, err = decodeOptIdentifier(rid, d+1)
		return rec, err
	case 15:
		var vr Variant
		var vid, val msgAcc
		err := pbFields(acc.b, func(f pbField) error {
			var err error
			switch {
			case f.num == 1 && f.isBytes():
				vid.add(f.b)
			case f.num == 2 && f.isBytes():
				vr.Constructor, err = f.str("variant constructor")
			case f.num == 3 && f.isBytes():
				val.add(f.b)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if vr.VariantID, err = decodeOptIdentifier(vid, d+1); err != nil {
			return nil, err
		}
		vr.Value, err = decodeRequiredValue(val, d+1, "variant value")
		return vr, err
	case 16:
		var en Enum
		var eid msgAcc
		err := pbFields(acc.b, func(f pbField) error {
			var err error
			switch {
			case f.num == 1 && f.isBytes():
				eid.add(f.b)
			case f.num == 2 && f.isBytes():
				en.Constructor, err = f.str("enum constructor")
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		en.EnumID, err = decodeOptIdentifier(eid, d+1)
		return en, err
	}
	return nil, fmt.Errorf("unexpected value field %d", num)
}
