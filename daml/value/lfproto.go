package value

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of Daml-LF's transaction value.proto
// (com.digitalasset.daml.lf.value.Value), the encoding of values inside
// transactions and contract instances. It differs from the Ledger API's
// value.proto (fields.go): records carry neither a type id nor labels,
// variants and enums no type id, contract ids are bytes, and the
// generic map is field 12 ("map") while the text map moved to 16.
const (
	fLFUnit       = 1
	fLFBool       = 2
	fLFInt64      = 3
	fLFDate       = 4
	fLFTimestamp  = 5
	fLFNumeric    = 6
	fLFParty      = 7
	fLFText       = 8
	fLFContractID = 9
	fLFOptional   = 10
	fLFList       = 11
	fLFGenMap     = 12
	fLFRecord     = 13
	fLFVariant    = 14
	fLFEnum       = 15
	fLFTextMap    = 16

	fLFRecordFields     = 1 // Record.fields (repeated Field)
	fLFRecordFieldValue = 1 // Record.Field.value
	fLFVariantCons      = 1
	fLFVariantValue     = 2
	fLFEnumValue        = 1
	fLFListElements     = 1
	fLFOptionalValue    = 1
	fLFMapEntries       = 1 // TextMap.entries, Map.entries
	fLFEntryKey         = 1
	fLFEntryValue       = 2
)

// MaxLFNesting is the deepest value nesting EncodeLFProto and
// DecodeLFProto accept, Daml-LF's MAXIMUM_NESTING: the top-level value is
// at level 0 and every Optional, List, TextMap, GenMap, Record and
// Variant puts its parts one level deeper; a part at a level beyond 100
// is an error.
const MaxLFNesting = 100

// Timestamp and date bounds of Daml-LF (0001-01-01 to 9999-12-31).
var (
	// MinTimestamp is 0001-01-01T00:00:00Z in microseconds.
	MinTimestamp = Timestamp(minTimestampSec * 1_000_000)
	// MaxTimestamp is 9999-12-31T23:59:59.999999Z in microseconds.
	MaxTimestamp = Timestamp(maxTimestampSec*1_000_000 + 999_999)
	minDate      = Date(DaysFromCivil(1, 1, 1))
	maxDate      = Date(DaysFromCivil(9999, 12, 31))
)

// LFErrorKind classifies an *LFProtoError.
type LFErrorKind uint8

const (
	// LFMalformed: the bytes are not a well-formed message of the schema
	// (a bad tag or length, a field of the wrong wire type, an unknown
	// field, a value with no sum, invalid UTF-8).
	LFMalformed LFErrorKind = iota + 1
	// LFInvalid: well-formed, but a value breaks Daml-LF's rules (a bad
	// party, contract id, Numeric, name, date or timestamp, a NUL
	// character in a text, an unsorted or duplicated TextMap key).
	LFInvalid
	// LFTooDeep: the value nests deeper than MaxLFNesting.
	LFTooDeep
)

// String returns the kind's name.
func (k LFErrorKind) String() string {
	switch k {
	case LFMalformed:
		return "malformed"
	case LFInvalid:
		return "invalid"
	case LFTooDeep:
		return "too deep"
	}
	return fmt.Sprintf("LFErrorKind(%d)", uint8(k))
}

// LFProtoError is the error of EncodeLFProto and DecodeLFProto: what is
// wrong (Message, Kind) at Path, which starts at "$" (the top value) and
// names the parts on the way: ".fields[i]" (record field i), "[i]" (list
// element i), ".some" (optional content), ".entries[i].key" and
// ".entries[i].value" (map entries), ".variant(Con)" (variant argument).
type LFProtoError struct {
	// Path locates the faulty part.
	Path string
	// Kind classifies the fault.
	Kind LFErrorKind
	// Message says what is wrong.
	Message string
}

// Error returns "<Message> at '<Path>'".
func (e *LFProtoError) Error() string { return e.Message + " at '" + e.Path + "'" }

// lfErr builds an error at the current part; prefix adds the enclosing
// parts as the error travels up.
func lfErr(kind LFErrorKind, format string, args ...any) *LFProtoError {
	return &LFProtoError{Path: "$", Kind: kind, Message: fmt.Sprintf(format, args...)}
}

func prefix(err error, seg string) error {
	if e, ok := err.(*LFProtoError); ok {
		e.Path = "$" + seg + strings.TrimPrefix(e.Path, "$")
	}
	return err
}

// EncodeLFProto serializes v as a Daml-LF transaction value.proto Value
// message, as Canton's ValueCoder.encodeValue does: type ids, record
// labels, variant and enum ranks and Optional.Nested are dropped; a
// contract id is written as its bytes (the hex decoded); oneof members
// are written even when they hold their default. It fails (*LFProtoError)
// on a value nested beyond MaxLFNesting, a text or TextMap key holding a
// NUL character or invalid UTF-8, a TextMap whose keys are not strictly
// increasing in code-point order (the order of FromJSON and of Canton's
// SortedLookupList; a repeated key Canton could not decode), a contract
// id that is not lowercase hex of a V1 or V2 id, or a nil value.
func EncodeLFProto(v Value) ([]byte, error) {
	var e pbEnc
	if err := encodeLF(&e, v, 0); err != nil {
		return nil, err
	}
	if e.Err != nil {
		return nil, lfErr(LFInvalid, "%v", e.Err)
	}
	return e.B, nil
}

func checkLFText(s string) error {
	if !utf8.ValidString(s) {
		return lfErr(LFInvalid, "text is not valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return lfErr(LFInvalid, "text contains null character")
	}
	return nil
}

// encodeLFChild writes the value message of field num of the current
// message, one nesting level down.
func encodeLFChild(e *pbEnc, num protowire.Number, v Value, nesting int, seg string) error {
	var err error
	e.Message(num, func(e *pbEnc) { err = encodeLF(e, v, nesting) })
	if err != nil {
		return prefix(err, seg)
	}
	return nil
}

func encodeLF(e *pbEnc, v Value, nesting int) error {
	if nesting > MaxLFNesting {
		return lfErr(LFTooDeep, "value exceeds maximum nesting level of %d", MaxLFNesting)
	}
	next := nesting + 1
	var err error
	switch v := v.(type) {
	case Unit:
		e.Message(fLFUnit, func(*pbEnc) {})
	case Bool:
		if v {
			e.VarintAlways(fLFBool, 1)
		} else {
			e.VarintAlways(fLFBool, 0)
		}
	case Int64:
		e.VarintAlways(fLFInt64, protowire.EncodeZigZag(int64(v)))
	case Date:
		e.VarintAlways(fLFDate, uint64(int64(v)))
	case Timestamp:
		e.Fixed64Always(fLFTimestamp, uint64(v))
	case Numeric:
		e.StringAlways(fLFNumeric, string(v))
	case Party:
		e.StringAlways(fLFParty, string(v))
	case Text:
		if err := checkLFText(string(v)); err != nil {
			return err
		}
		e.StringAlways(fLFText, string(v))
	case ContractID:
		if _, err := lf.ParseContractID(string(v)); err != nil {
			return lfErr(LFInvalid, "%v", err)
		}
		b, _ := hex.DecodeString(string(v))
		e.BytesAlways(fLFContractID, b)
	case Optional:
		e.Message(fLFOptional, func(e *pbEnc) {
			if v.Value != nil {
				err = encodeLFChild(e, fLFOptionalValue, v.Value, next, ".some")
			}
		})
	case List:
		e.Message(fLFList, func(e *pbEnc) {
			for i, x := range v {
				if err = encodeLFChild(e, fLFListElements, x, next, "["+strconv.Itoa(i)+"]"); err != nil {
					return
				}
			}
		})
	case TextMap:
		e.Message(fLFTextMap, func(e *pbEnc) {
			for i, x := range v {
				seg := ".entries[" + strconv.Itoa(i) + "]"
				if err = checkLFText(x.Key); err != nil {
					err = prefix(err, seg+".key")
					return
				}
				if i > 0 && v[i-1].Key >= x.Key {
					err = prefix(lfErr(LFInvalid, "text map keys are not strictly increasing"), seg+".key")
					return
				}
				e.Message(fLFMapEntries, func(e *pbEnc) {
					e.StringAlways(fLFEntryKey, x.Key)
					err = encodeLFChild(e, fLFEntryValue, x.Value, next, seg+".value")
				})
				if err != nil {
					return
				}
			}
		})
	case GenMap:
		e.Message(fLFGenMap, func(e *pbEnc) {
			for i, x := range v {
				seg := ".entries[" + strconv.Itoa(i) + "]"
				e.Message(fLFMapEntries, func(e *pbEnc) {
					if err = encodeLFChild(e, fLFEntryKey, x.Key, next, seg+".key"); err != nil {
						return
					}
					err = encodeLFChild(e, fLFEntryValue, x.Value, next, seg+".value")
				})
				if err != nil {
					return
				}
			}
		})
	case Record:
		e.Message(fLFRecord, func(e *pbEnc) {
			for i, f := range v.Fields {
				e.Message(fLFRecordFields, func(e *pbEnc) {
					err = encodeLFChild(e, fLFRecordFieldValue, f.Value, next, ".fields["+strconv.Itoa(i)+"]")
				})
				if err != nil {
					return
				}
			}
		})
	case Variant:
		e.Message(fLFVariant, func(e *pbEnc) {
			e.String(fLFVariantCons, v.Constructor)
			err = encodeLFChild(e, fLFVariantValue, v.Value, next, ".variant("+v.Constructor+")")
		})
	case Enum:
		e.Message(fLFEnum, func(e *pbEnc) { e.String(fLFEnumValue, v.Constructor) })
	default:
		return lfErr(LFInvalid, "unsupported value type %T", v)
	}
	return err
}

// DecodeLFProto parses a Daml-LF transaction value.proto Value message
// as Canton's ValueCoder.decodeValue does. Unknown fields are rejected
// (Canton's ensuresNoUnknownFields), as are fields of an unexpected wire
// type; a repeated singular message field merges and a later oneof member
// replaces an earlier one, as protobuf-java parses. Records come back
// without type id and with unlabelled fields, variants and enums without
// type id and with Rank 0: the proto does not carry them (TypeValue
// restores them against the LF type).
// Checks: parties (lf.CheckParty), contract ids (V1 or V2, local ones
// included as Canton's decoder does), Numeric syntax (at most 38 digits,
// scale at most 37), variant and enum constructors (lf.CheckName),
// dates and timestamps in Daml-LF's range, texts without NUL characters,
// TextMap keys unique (the entries come back sorted by key in code-point
// order, as Canton's SortedLookupList.fromImmArray sorts them), nesting at
// most MaxLFNesting. Errors are *LFProtoError.
func DecodeLFProto(b []byte) (Value, error) { return decodeLF(b, 0) }

// lfSum is the oneof of a Value message as read so far.
type lfSum struct {
	num    protowire.Number
	field  pbwire.Field
	merged pbwire.Acc
}

func isLFMessageField(n protowire.Number) bool {
	return n == fLFUnit || n >= fLFOptional && n <= fLFTextMap
}

func wireErr(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*LFProtoError); ok {
		return err
	}
	return lfErr(LFMalformed, "%v", err)
}

// walkLF walks the fields of a message, rejecting groups and, through
// fn, unknown fields.
func walkLF(b []byte, fn func(pbwire.Field) error) error {
	return wireErr(pbwire.Walk(b, fn))
}

func unknownField(f pbwire.Field, msg string) error {
	return lfErr(LFMalformed, "unknown field %d (wire type %d) in %s", f.Num, f.Type, msg)
}

func wantType(f pbwire.Field, t protowire.Type, msg string) error {
	if f.Type != t {
		return lfErr(LFMalformed, "field %d of %s has wire type %d, want %d", f.Num, msg, f.Type, t)
	}
	return nil
}

// onlyMessageField returns the merged occurrences of field num, the one
// (message-typed) field of the message b of type msg; any other field,
// or num with another wire type, is an error.
func onlyMessageField(b []byte, num protowire.Number, msg string) ([]byte, error) {
	var acc pbwire.Acc
	err := walkLF(b, func(f pbwire.Field) error {
		if f.Num != num {
			return unknownField(f, msg)
		}
		if err := wantType(f, protowire.BytesType, msg); err != nil {
			return err
		}
		acc.Add(f.Bytes)
		return nil
	})
	return acc.B, err
}

func decodeLF(b []byte, nesting int) (Value, error) {
	if nesting > MaxLFNesting {
		return nil, lfErr(LFTooDeep, "value exceeds maximum nesting level of %d", MaxLFNesting)
	}
	var s lfSum
	err := walkLF(b, func(f pbwire.Field) error {
		if f.Num < fLFUnit || f.Num > fLFTextMap {
			return unknownField(f, "Value")
		}
		want := protowire.BytesType
		switch f.Num {
		case fLFBool, fLFInt64, fLFDate:
			want = protowire.VarintType
		case fLFTimestamp:
			want = protowire.Fixed64Type
		}
		if err := wantType(f, want, "Value"); err != nil {
			return err
		}
		if isLFMessageField(f.Num) {
			if s.num != f.Num {
				s.merged = pbwire.Acc{}
			}
			s.merged.Add(f.Bytes)
		}
		s.num, s.field = f.Num, f
		return nil
	})
	if err != nil {
		return nil, err
	}
	return decodeLFSum(s, nesting)
}

func decodeLFSum(s lfSum, nesting int) (Value, error) {
	next := nesting + 1
	f, m := s.field, s.merged.B
	switch s.num {
	case 0:
		return nil, lfErr(LFMalformed, "Value not set")
	case fLFUnit:
		if err := walkLF(m, func(f pbwire.Field) error { return unknownField(f, "Empty") }); err != nil {
			return nil, err
		}
		return Unit{}, nil
	case fLFBool:
		return Bool(f.Uint != 0), nil
	case fLFInt64:
		return Int64(protowire.DecodeZigZag(f.Uint)), nil
	case fLFDate:
		d := Date(int32(f.Uint))
		if d < minDate || d > maxDate {
			return nil, lfErr(LFInvalid, "error decoding date: %d days out of range", int32(d))
		}
		return d, nil
	case fLFTimestamp:
		t := Timestamp(int64(f.Uint))
		if t < MinTimestamp || t > MaxTimestamp {
			return nil, lfErr(LFInvalid, "error decoding timestamp: %d out of range", int64(t))
		}
		return t, nil
	case fLFNumeric:
		str, err := f.NamedText("numeric")
		if err != nil {
			return nil, lfErr(LFMalformed, "%v", err)
		}
		if !validLFNumeric(str) {
			return nil, lfErr(LFInvalid, "error decoding numeric: %s", quoteShort(str))
		}
		return Numeric(str), nil
	case fLFParty:
		str, err := f.NamedText("party")
		if err != nil {
			return nil, lfErr(LFMalformed, "%v", err)
		}
		if err := lf.CheckParty(str); err != nil {
			return nil, lfErr(LFInvalid, "error decoding party: %v", err)
		}
		return Party(str), nil
	case fLFText:
		str, err := f.NamedText("text")
		if err != nil {
			return nil, lfErr(LFMalformed, "%v", err)
		}
		if err := checkLFText(str); err != nil {
			return nil, err
		}
		return Text(str), nil
	case fLFContractID:
		cid, err := DecodeLFContractID(f.Bytes)
		if err != nil {
			return nil, lfErr(LFInvalid, "error decoding contractId: %v", err)
		}
		return cid, nil
	case fLFOptional:
		inner, err := onlyMessageField(m, fLFOptionalValue, "Optional")
		if err != nil {
			return nil, err
		}
		if len(inner) == 0 {
			return Optional{}, nil
		}
		v, err := decodeLF(inner, next)
		if err != nil {
			return nil, prefix(err, ".some")
		}
		return Optional{Value: v}, nil
	case fLFList:
		var out List
		err := walkLF(m, func(f pbwire.Field) error {
			if f.Num != fLFListElements {
				return unknownField(f, "List")
			}
			if err := wantType(f, protowire.BytesType, "List"); err != nil {
				return err
			}
			v, err := decodeLF(f.Bytes, next)
			if err != nil {
				return prefix(err, "["+strconv.Itoa(len(out))+"]")
			}
			out = append(out, v)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = List{}
		}
		return out, nil
	case fLFTextMap, fLFGenMap:
		return decodeLFMap(s.num, m, next)
	case fLFRecord:
		rec := Record{Fields: []RecordField{}}
		err := walkLF(m, func(f pbwire.Field) error {
			if f.Num != fLFRecordFields {
				return unknownField(f, "Record")
			}
			if err := wantType(f, protowire.BytesType, "Record"); err != nil {
				return err
			}
			seg := ".fields[" + strconv.Itoa(len(rec.Fields)) + "]"
			val, err := onlyMessageField(f.Bytes, fLFRecordFieldValue, "Record.Field")
			if err != nil {
				return prefix(err, seg)
			}
			v, err := decodeLF(val, next)
			if err != nil {
				return prefix(err, seg)
			}
			rec.Fields = append(rec.Fields, RecordField{Value: v})
			return nil
		})
		if err != nil {
			return nil, err
		}
		return rec, nil
	case fLFVariant:
		var cons string
		var val pbwire.Acc
		err := walkLF(m, func(f pbwire.Field) error {
			switch f.Num {
			case fLFVariantCons:
				if err := wantType(f, protowire.BytesType, "Variant"); err != nil {
					return err
				}
				str, err := f.NamedText("variant constructor")
				if err != nil {
					return lfErr(LFMalformed, "%v", err)
				}
				cons = str
			case fLFVariantValue:
				if err := wantType(f, protowire.BytesType, "Variant"); err != nil {
					return err
				}
				val.Add(f.Bytes)
			default:
				return unknownField(f, "Variant")
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if err := lf.CheckName(cons); err != nil {
			return nil, lfErr(LFInvalid, "error decoding variant constructor: %v", err)
		}
		v, err := decodeLF(val.B, next)
		if err != nil {
			return nil, prefix(err, ".variant("+cons+")")
		}
		return Variant{Constructor: cons, Value: v}, nil
	case fLFEnum:
		var cons string
		err := walkLF(m, func(f pbwire.Field) error {
			if f.Num != fLFEnumValue {
				return unknownField(f, "Enum")
			}
			if err := wantType(f, protowire.BytesType, "Enum"); err != nil {
				return err
			}
			str, err := f.NamedText("enum constructor")
			if err != nil {
				return lfErr(LFMalformed, "%v", err)
			}
			cons = str
			return nil
		})
		if err != nil {
			return nil, err
		}
		if err := lf.CheckName(cons); err != nil {
			return nil, lfErr(LFInvalid, "error decoding variant constructor: %v", err)
		}
		return Enum{Constructor: cons}, nil
	}
	return nil, lfErr(LFMalformed, "unknown Value field %d", s.num)
}

// decodeLFMap decodes a TextMap (num fLFTextMap) or a Map message.
func decodeLFMap(num protowire.Number, m []byte, next int) (Value, error) {
	msg := "TextMap"
	if num == fLFGenMap {
		msg = "Map"
	}
	tm, gm := TextMap{}, GenMap{}
	i := 0
	err := walkLF(m, func(f pbwire.Field) error {
		if f.Num != fLFMapEntries {
			return unknownField(f, msg)
		}
		if err := wantType(f, protowire.BytesType, msg); err != nil {
			return err
		}
		seg := ".entries[" + strconv.Itoa(i) + "]"
		i++
		var key string
		var kacc, vacc pbwire.Acc
		err := walkLF(f.Bytes, func(f pbwire.Field) error {
			if f.Num != fLFEntryKey && f.Num != fLFEntryValue {
				return unknownField(f, msg+".Entry")
			}
			if err := wantType(f, protowire.BytesType, msg+".Entry"); err != nil {
				return err
			}
			switch {
			case f.Num == fLFEntryValue:
				vacc.Add(f.Bytes)
			case num == fLFTextMap:
				str, err := f.NamedText("text map key")
				if err != nil {
					return lfErr(LFMalformed, "%v", err)
				}
				key = str
			default:
				kacc.Add(f.Bytes)
			}
			return nil
		})
		if err != nil {
			return prefix(err, seg)
		}
		if num == fLFGenMap {
			k, err := decodeLF(kacc.B, next)
			if err != nil {
				return prefix(err, seg+".key")
			}
			v, err := decodeLF(vacc.B, next)
			if err != nil {
				return prefix(err, seg+".value")
			}
			gm = append(gm, GenMapEntry{Key: k, Value: v})
			return nil
		}
		if err := checkLFText(key); err != nil {
			return prefix(err, seg+".key")
		}
		v, err := decodeLF(vacc.B, next)
		if err != nil {
			return prefix(err, seg+".value")
		}
		tm = append(tm, TextMapEntry{Key: key, Value: v})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if num == fLFGenMap {
		return gm, nil
	}
	return sortLFTextMap(tm)
}

// sortLFTextMap sorts tm by key in code-point order (Go's string order on
// valid UTF-8), as Canton's SortedLookupList.fromImmArray does, and
// rejects a repeated key at the later entry's position in the message.
func sortLFTextMap(tm TextMap) (TextMap, error) {
	if slices.IsSortedFunc(tm, cmpTextMapEntry) {
		for i := 1; i < len(tm); i++ {
			if tm[i-1].Key == tm[i].Key {
				return nil, dupLFKey(tm[i].Key, i)
			}
		}
		return tm, nil
	}
	pos := make([]int, len(tm))
	for i := range pos {
		pos[i] = i
	}
	slices.SortStableFunc(pos, func(a, b int) int { return strings.Compare(tm[a].Key, tm[b].Key) })
	out := make(TextMap, len(tm))
	for i, p := range pos {
		if i > 0 && tm[pos[i-1]].Key == tm[p].Key {
			return nil, dupLFKey(tm[p].Key, p) // stable: pos[i-1] < p
		}
		out[i] = tm[p]
	}
	return out, nil
}

func cmpTextMapEntry(a, b TextMapEntry) int { return strings.Compare(a.Key, b.Key) }

func dupLFKey(key string, i int) error {
	return prefix(lfErr(LFInvalid, "key %s duplicated", quoteShort(key)), ".entries["+strconv.Itoa(i)+"].key")
}

// DecodeLFContractID returns the text form (lowercase hex) of a contract
// id in its binary form, checked with lf.ParseContractID (a V1 or V2 id,
// local or suffixed).
func DecodeLFContractID(b []byte) (ContractID, error) {
	s := hex.EncodeToString(b)
	if _, err := lf.ParseContractID(s); err != nil {
		return "", err
	}
	return ContractID(s), nil
}

// validLFNumeric checks Daml-LF's Numeric text: an optional "-", at least
// one integer digit, ".", then the decimals; at most 37 decimals and 38
// digits in all (leading zeros of the integer part not counted).
func validLFNumeric(s string) bool {
	s = strings.TrimPrefix(s, "-")
	dot := strings.IndexByte(s, '.')
	if dot < 1 {
		return false
	}
	intPart, frac := s[:dot], s[dot+1:]
	for _, part := range []string{intPart, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return false
			}
		}
	}
	intPart = strings.TrimLeft(intPart, "0")
	return len(frac) <= 37 && len(intPart)+len(frac) <= 38
}

// TypeValue returns v, an untyped value (from DecodeLFProto: records
// without type id or labels, variants and enums without type id or
// rank), typed against the LF type t: type ids, labels, ranks and
// Optional.Nested set, TextMap and GenMap entries sorted, as FromJSON
// builds them. It prints v as JSON guided by t (AppendJSONAs) and reads
// it back with FromJSON, so a v that does not match t fails with FromJSON's
// *Error. Data types are resolved through lookup.
func TypeValue(v Value, t lf.Type, lookup func(pkgID string) *lf.Package) (Value, error) {
	return FromJSON(AppendJSONAs(nil, v, t, lookup), t, lookup)
}
