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

func encodeIdentifier(e *pbEnc, id lf.TypeConID) {
	e.String(1, id.PackageID)
	e.String(2, id.Module)
	e.String(3, id.Name)
}

func encodeOptIdentifier(e *pbEnc, num protowire.Number, id *lf.TypeConID) {
	if id != nil {
		e.Message(num, func(e *pbEnc) { encodeIdentifier(e, *id) })
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
		e.Message(1, func(*pbEnc) {})
	case Bool:
		if v {
			e.VarintAlways(2, 1)
		} else {
			e.VarintAlways(2, 0)
		}
	case Int64:
		e.VarintAlways(3, protowire.EncodeZigZag(int64(v)))
	case Date:
		e.VarintAlways(4, uint64(int64(v)))
	case Timestamp:
		e.Fixed64Always(5, uint64(v))
	case Numeric:
		e.StringAlways(6, string(v))
	case Party:
		e.StringAlways(7, string(v))
	case Text:
		e.StringAlways(8, string(v))
	case ContractID:
		e.StringAlways(9, string(v))
	case Optional:
		e.Message(10, func(e *pbEnc) { encodeValueField(e, 1, v.Value) })
	case List:
		e.Message(11, func(e *pbEnc) {
			for _, x := range v {
				e.Message(1, func(e *pbEnc) { encodeValue(e, x) })
			}
		})
	case TextMap:
		e.Message(12, func(e *pbEnc) {
			for _, x := range v {
				e.Message(1, func(e *pbEnc) {
					e.String(1, x.Key)
					encodeValueField(e, 2, x.Value)
				})
			}
		})
	case GenMap:
		e.Message(13, func(e *pbEnc) {
			for _, x := range v {
				e.Message(1, func(e *pbEnc) {
					encodeValueField(e, 1, x.Key)
					encodeValueField(e, 2, x.Value)
				})
			}
		})
	case Record:
		e.Message(14, func(e *pbEnc) {
			encodeOptIdentifier(e, 1, v.RecordID)
			for _, f := range v.Fields {
				e.Message(2, func(e *pbEnc) {
					e.String(1, f.Label)
					encodeValueField(e, 2, f.Value)
				})
			}
		})
	case Variant:
		e.Message(15, func(e *pbEnc) {
			encodeOptIdentifier(e, 1, v.VariantID)
			e.String(2, v.Constructor)
			encodeValueField(e, 3, v.Value)
		})
	case Enum:
		e.Message(16, func(e *pbEnc) {
			encodeOptIdentifier(e, 1, v.EnumID)
			e.String(2, v.Constructor)
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

func decodeIdentifier(b []byte, depth int) (lf.TypeConID, error) {
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
		case 1:
			id.PackageID, err = f.NamedText("package_id")
		case 2:
			id.Module, err = f.NamedText("module_name")
		case 3:
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
	id, err := decodeIdentifier(acc.B, depth)
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
		case 2, 3, 4:
			ok = f.IsVarint()
		case 5:
			ok = f.IsFixed64()
		case 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16:
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
		case 2, 3, 4, 5:
			u = f.Uint
		case 6, 7, 8, 9:
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
		var inner pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num == 1 && f.IsBytes() {
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
	case 11:
		var out List
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num == 1 && f.IsBytes() {
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
	case 12:
		out := TextMap{}
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num != 1 || !f.IsBytes() {
				return nil
			}
			var ent TextMapEntry
			var val pbwire.Acc
			err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
				var err error
				switch {
				case g.Num == 1 && g.IsBytes():
					ent.Key, err = g.NamedText("text map key")
				case g.Num == 2 && g.IsBytes():
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
	case 13:
		out := GenMap{}
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num != 1 || !f.IsBytes() {
				return nil
			}
			var k, v pbwire.Acc
			err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
				switch {
				case g.Num == 1 && g.IsBytes():
					k.Add(g.Bytes)
				case g.Num == 2 && g.IsBytes():
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
	case 14:
		var rec Record
		var rid pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			switch {
			case f.Num == 1 && f.IsBytes():
				rid.Add(f.Bytes)
			case f.Num == 2 && f.IsBytes():
				var fld RecordField
				var val pbwire.Acc
				err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
					var err error
					switch {
					case g.Num == 1 && g.IsBytes():
						fld.Label, err = g.NamedText("record field label")
					case g.Num == 2 && g.IsBytes():
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
	case 15:
		var vr Variant
		var vid, val pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			var err error
			switch {
			case f.Num == 1 && f.IsBytes():
				vid.Add(f.Bytes)
			case f.Num == 2 && f.IsBytes():
				vr.Constructor, err = f.NamedText("variant constructor")
			case f.Num == 3 && f.IsBytes():
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
	case 16:
		var en Enum
		var eid pbwire.Acc
		err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			var err error
			switch {
			case f.Num == 1 && f.IsBytes():
				eid.Add(f.Bytes)
			case f.Num == 2 && f.IsBytes():
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
