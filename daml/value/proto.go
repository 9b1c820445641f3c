package value

import (
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// MaxProtoDepth bounds message nesting when decoding, like protobuf-java's
// default recursion limit (100), which is what Canton parses with.
const MaxProtoDepth = pbwire.MaxDepth

// ErrProtoTooDeep is the error of DecodeProto for a message nested more
// than MaxProtoDepth levels deep.
var ErrProtoTooDeep = pbwire.ErrTooDeep

type pbEnc = pbwire.Encoder

// EncodeIdentifierProto writes id's fields (package_id=1, module_name=2,
// entity_name=3) into e, the body of a value.proto Identifier message;
// the caller opens the enclosing message.
func EncodeIdentifierProto(e *pbwire.Encoder, id lf.TypeConID) {
	e.String(fIdentifierPackageID, id.PackageID)
	e.String(fIdentifierModule, id.Module)
	e.String(fIdentifierEntity, id.Name)
}

func encodeOptIdentifier(e *pbEnc, num protowire.Number, id *lf.TypeConID) {
	if id != nil {
		e.Message(num, func(e *pbEnc) { EncodeIdentifierProto(e, *id) })
	}
}

// encodeValueField writes v as message field num (nothing when v is nil).
func encodeValueField(e *pbEnc, num protowire.Number, v Value) {
	if v != nil {
		e.Message(num, func(e *pbEnc) { encodeValue(e, v) })
	}
}

// encodeValue writes the fields of a Value message. Oneof members are
// written even when they hold their default.
func encodeValue(e *pbEnc, v Value) {
	switch v := v.(type) {
	case Unit:
		e.Message(fValueUnit, func(*pbEnc) {})
	case Bool:
		if v {
			e.VarintAlways(fValueBool, 1)
		} else {
			e.VarintAlways(fValueBool, 0)
		}
	case Int64:
		e.VarintAlways(fValueInt64, protowire.EncodeZigZag(int64(v)))
	case Date:
		e.VarintAlways(fValueDate, uint64(int64(v)))
	case Timestamp:
		e.Fixed64Always(fValueTimestamp, uint64(v))
	case Numeric:
		e.StringAlways(fValueNumeric, string(v))
	case Party:
		e.StringAlways(fValueParty, string(v))
	case Text:
		e.StringAlways(fValueText, string(v))
	case ContractID:
		e.StringAlways(fValueContractID, string(v))
	case Optional:
		e.Message(fValueOptional, func(e *pbEnc) { encodeValueField(e, fOptionalValue, v.Value) })
	case List:
		e.Message(fValueList, func(e *pbEnc) {
			for _, x := range v {
				e.Message(fListElements, func(e *pbEnc) { encodeValue(e, x) })
			}
		})
	case TextMap:
		e.Message(fValueTextMap, func(e *pbEnc) {
			for _, x := range v {
				e.Message(fTextMapEntries, func(e *pbEnc) {
					e.String(fTextMapEntryKey, x.Key)
					encodeValueField(e, fTextMapEntryValue, x.Value)
				})
			}
		})
	case GenMap:
		e.Message(fValueGenMap, func(e *pbEnc) {
			for _, x := range v {
				e.Message(fGenMapEntries, func(e *pbEnc) {
					encodeValueField(e, fGenMapEntryKey, x.Key)
					encodeValueField(e, fGenMapEntryValue, x.Value)
				})
			}
		})
	case Record:
		e.Message(fValueRecord, func(e *pbEnc) {
			encodeOptIdentifier(e, fRecordID, v.RecordID)
			for _, f := range v.Fields {
				e.Message(fRecordFields, func(e *pbEnc) {
					e.String(fRecordFieldLabel, f.Label)
					encodeValueField(e, fRecordFieldValue, f.Value)
				})
			}
		})
	case Variant:
		e.Message(fValueVariant, func(e *pbEnc) {
			encodeOptIdentifier(e, fVariantID, v.VariantID)
			e.String(fVariantConstructor, v.Constructor)
			encodeValueField(e, fVariantValue, v.Value)
		})
	case Enum:
		e.Message(fValueEnum, func(e *pbEnc) {
			encodeOptIdentifier(e, fEnumID, v.EnumID)
			e.String(fEnumConstructor, v.Constructor)
		})
	default:
		if e.Err == nil {
			e.Err = fmt.Errorf("unsupported value type %T", v)
		}
	}
}

// EncodeProto serializes v as a Ledger API value.proto Value message, in
// field-number order, writing oneof members even when they hold their
// default. Record, variant and enum type ids are written when set, record
// labels when not empty; Rank and Optional.Nested are not carried.
// Strings must be valid UTF-8.
func EncodeProto(v Value) ([]byte, error) {
	var e pbEnc
	encodeValue(&e, v)
	return e.B, e.Err
}

// DecodeProto parses a value.proto Value message. Like protobuf-java,
// unknown fields and fields of an unexpected wire type are skipped,
// repeated singular messages merge, and nesting beyond MaxProtoDepth
// levels is an error (ErrProtoTooDeep). Strings must be valid UTF-8.
func DecodeProto(b []byte) (Value, error) { return decodeValue(b, 1) }

// DecodeProtoAt is DecodeProto for a message found at nesting level depth
// of an enclosing message (1 for a top-level message): the MaxProtoDepth
// limit counts the enclosing levels.
func DecodeProtoAt(b []byte, depth int) (Value, error) { return decodeValue(b, depth) }

// DecodeIdentifierProto parses a value.proto Identifier message found at
// nesting level depth (1 for a top-level message), with DecodeProto's
// leniency; a level beyond MaxProtoDepth is ErrProtoTooDeep.
func DecodeIdentifierProto(b []byte, depth int) (lf.TypeConID, error) {
	var id lf.TypeConID
	if depth > MaxProtoDepth {
		return id, ErrProtoTooDeep
	}
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if !f.IsBytes() {
			return nil
		}
		var err error
		switch f.Num {
		case fIdentifierPackageID:
			id.PackageID, err = f.NamedText("package_id")
		case fIdentifierModule:
			id.Module, err = f.NamedText("module_name")
		case fIdentifierEntity:
			id.Name, err = f.NamedText("entity_name")
		}
		return err
	})
	return id, err
}

func decodeOptIdentifier(acc pbwire.Acc, depth int) (*lf.TypeConID, error) {
	if !acc.Set {
		return nil, nil
	}
	id, err := DecodeIdentifierProto(acc.B, depth)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

// decodeRequiredValue decodes a Value message field that must be present.
func decodeRequiredValue(acc pbwire.Acc, depth int, what string) (Value, error) {
	if !acc.Set {
		return nil, fmt.Errorf("%s is missing", what)
	}
	return decodeValue(acc.B, depth)
}

var errNoSum = errors.New("value has no sum set")

func decodeValue(b []byte, depth int) (Value, error) {
	if depth > MaxProtoDepth {
		return nil, ErrProtoTooDeep
	}
	var (
		num protowire.Number
		acc pbwire.Acc
		u   uint64
		s   string
	)
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		ok := false
		switch f.Num {
		case fValueBool, fValueInt64, fValueDate:
			ok = f.IsVarint()
		case fValueTimestamp:
			ok = f.IsFixed64()
		case fValueUnit, fValueNumeric, fValueParty, fValueText, fValueContractID, fValueOptional,
			fValueList, fValueTextMap, fValueGenMap, fValueRecord, fValueVariant, fValueEnum:
			ok = f.IsBytes()
		}
		if !ok {
			return nil
		}
		if f.Num != num {
			acc = pbwire.Acc{}
		}
		num = f.Num
		switch f.Num {
		case fValueBool, fValueInt64, fValueDate, fValueTimestamp:
			u = f.Uint
		case fValueNumeric, fValueParty, fValueText, fValueContractID:
			var err error
			s, err = f.NamedText("value string")
			return err
		default:
			acc.Add(f.Bytes)
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
	case fValueUnit:
		return Unit{}, nil
	case fValueBool:
		return Bool(u != 0), nil
	case fValueInt64:
		return Int64(protowire.DecodeZigZag(u)), nil
	case fValueDate:
		return Date(int32(u)), nil
	case fValueTimestamp:
		return Timestamp(int64(u)), nil
	case fValueNumeric:
		return Numeric(s), nil
	case fValueParty:
		return Party(s), nil
	case fValueText:
		return Text(s), nil
	case fValueContractID:
		return ContractID(s), nil
	case fValueOptional:
		var inner pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num == fOptionalValue && f.IsBytes() {
				inner.Add(f.Bytes)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !inner.Set {
			return Optional{}, nil
		}
		v, err := decodeValue(inner.B, d+1)
		return Optional{Value: v}, err
	case fValueList:
		var out List
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num == fListElements && f.IsBytes() {
				v, err := decodeValue(f.Bytes, d+1)
				out = append(out, v)
				return err
			}
			return nil
		})
		if out == nil {
			out = List{}
		}
		return out, err
	case fValueTextMap:
		out := TextMap{}
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num != fTextMapEntries || !f.IsBytes() {
				return nil
			}
			var ent TextMapEntry
			var val pbwire.Acc
			err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
				var err error
				switch {
				case g.Num == fTextMapEntryKey && g.IsBytes():
					ent.Key, err = g.NamedText("text map key")
				case g.Num == fTextMapEntryValue && g.IsBytes():
					val.Add(g.Bytes)
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
	case fValueGenMap:
		out := GenMap{}
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num != fGenMapEntries || !f.IsBytes() {
				return nil
			}
			var k, v pbwire.Acc
			err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
				switch {
				case g.Num == fGenMapEntryKey && g.IsBytes():
					k.Add(g.Bytes)
				case g.Num == fGenMapEntryValue && g.IsBytes():
					v.Add(g.Bytes)
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
	case fValueRecord:
		var rec Record
		var rid pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			switch {
			case f.Num == fRecordID && f.IsBytes():
				rid.Add(f.Bytes)
			case f.Num == fRecordFields && f.IsBytes():
				var fld RecordField
				var val pbwire.Acc
				err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
					var err error
					switch {
					case g.Num == fRecordFieldLabel && g.IsBytes():
						fld.Label, err = g.NamedText("record field label")
					case g.Num == fRecordFieldValue && g.IsBytes():
						val.Add(g.Bytes)
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
	case fValueVariant:
		var vr Variant
		var vid, val pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			var err error
			switch {
			case f.Num == fVariantID && f.IsBytes():
				vid.Add(f.Bytes)
			case f.Num == fVariantConstructor && f.IsBytes():
				vr.Constructor, err = f.NamedText("variant constructor")
			case f.Num == fVariantValue && f.IsBytes():
				val.Add(f.Bytes)
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
	case fValueEnum:
		var en Enum
		var eid pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			var err error
			switch {
			case f.Num == fEnumID && f.IsBytes():
				eid.Add(f.Bytes)
			case f.Num == fEnumConstructor && f.IsBytes():
				en.Constructor, err = f.NamedText("enum constructor")
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
