// Package pbvalue converts between the gRPC Ledger API's
// com.daml.ledger.api.v2.Value messages (the generated ledgerv2.Value) and
// daml/value values.
//
// FromProto reads a value as a client sends it: structurally, with the
// same rules as daml/value's wire codec (value.DecodeProto) — a Value with
// no sum, a record field, variant or map entry without its value are
// errors, and messages nested deeper than value.MaxProtoDepth are refused
// as protobuf-java refuses them in Canton. Labels and type ids are kept
// when given; checking the value against its LF type is the Node's.
//
// ToProto writes a value as Canton's Ledger API server does
// (LfEngineToApi.lfValueToApiValue): with verbose, record ids, field
// labels, variant and enum ids; without, none of them. ToProtoAs first
// types the value against its LF type (value.TypeValue), so that a value
// without type ids or labels is printed verbosely all the same.
package pbvalue

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
)

// ErrNoSum is the error of a Value message with no member of its sum set.
var ErrNoSum = errors.New("value has no sum set")

// FromProto converts v, a top-level message, to a daml/value Value.
func FromProto(v *ledgerv2.Value) (value.Value, error) { return FromProtoAt(v, 1) }

// FromProtoAt is FromProto for a Value found at nesting level depth of
// its request (1 for a top-level message): the value.MaxProtoDepth limit
// counts the enclosing levels, as protobuf-java's recursion limit does.
func FromProtoAt(v *ledgerv2.Value, depth int) (value.Value, error) {
	if depth > value.MaxProtoDepth {
		return nil, value.ErrProtoTooDeep
	}
	d := depth + 1 // the level of the sum's message
	switch s := v.GetSum().(type) {
	case nil:
		return nil, ErrNoSum
	case *ledgerv2.Value_Unit:
		return value.Unit{}, nil
	case *ledgerv2.Value_Bool:
		return value.Bool(s.Bool), nil
	case *ledgerv2.Value_Int64:
		return value.Int64(s.Int64), nil
	case *ledgerv2.Value_Date:
		return value.Date(s.Date), nil
	case *ledgerv2.Value_Timestamp:
		return value.Timestamp(s.Timestamp), nil
	case *ledgerv2.Value_Numeric:
		return value.Numeric(s.Numeric), nil
	case *ledgerv2.Value_Party:
		return value.Party(s.Party), nil
	case *ledgerv2.Value_Text:
		return value.Text(s.Text), nil
	case *ledgerv2.Value_ContractId:
		return value.ContractID(s.ContractId), nil
	case *ledgerv2.Value_Optional:
		inner := s.Optional.GetValue()
		if inner == nil {
			return value.Optional{}, nil
		}
		x, err := FromProtoAt(inner, d+1)
		if err != nil {
			return nil, err
		}
		return value.Optional{Value: x}, nil
	case *ledgerv2.Value_List:
		out := make(value.List, 0, len(s.List.GetElements()))
		for _, e := range s.List.GetElements() {
			x, err := FromProtoAt(e, d+1)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	case *ledgerv2.Value_TextMap:
		out := make(value.TextMap, 0, len(s.TextMap.GetEntries()))
		for _, e := range s.TextMap.GetEntries() {
			x, err := required(e.GetValue(), d+2, "text map entry value")
			if err != nil {
				return nil, err
			}
			out = append(out, value.TextMapEntry{Key: e.GetKey(), Value: x})
		}
		return out, nil
	case *ledgerv2.Value_GenMap:
		out := make(value.GenMap, 0, len(s.GenMap.GetEntries()))
		for _, e := range s.GenMap.GetEntries() {
			k, err := required(e.GetKey(), d+2, "gen map entry key")
			if err != nil {
				return nil, err
			}
			x, err := required(e.GetValue(), d+2, "gen map entry value")
			if err != nil {
				return nil, err
			}
			out = append(out, value.GenMapEntry{Key: k, Value: x})
		}
		return out, nil
	case *ledgerv2.Value_Record:
		return RecordFromProtoAt(s.Record, d)
	case *ledgerv2.Value_Variant:
		id, err := identifier(s.Variant.GetVariantId(), d+1)
		if err != nil {
			return nil, err
		}
		x, err := required(s.Variant.GetValue(), d+1, "variant value")
		if err != nil {
			return nil, err
		}
		return value.Variant{VariantID: id, Constructor: s.Variant.GetConstructor(), Value: x}, nil
	case *ledgerv2.Value_Enum:
		id, err := identifier(s.Enum.GetEnumId(), d+1)
		if err != nil {
			return nil, err
		}
		return value.Enum{EnumID: id, Constructor: s.Enum.GetConstructor()}, nil
	default:
		return nil, fmt.Errorf("unexpected value sum %T", s)
	}
}

// RecordFromProtoAt converts a Record message found at nesting level
// depth (a create argument, for instance) to a value.Record.
func RecordFromProtoAt(r *ledgerv2.Record, depth int) (value.Record, error) {
	var out value.Record
	if n := len(r.GetFields()); n > 0 {
		out.Fields = make([]value.RecordField, 0, n)
	}
	for _, f := range r.GetFields() {
		x, err := required(f.GetValue(), depth+2, "record field value")
		if err != nil {
			return value.Record{}, err
		}
		out.Fields = append(out.Fields, value.RecordField{Label: f.GetLabel(), Value: x})
	}
	id, err := identifier(r.GetRecordId(), depth+1)
	if err != nil {
		return value.Record{}, err
	}
	out.RecordID = id
	return out, nil
}

// required converts a Value message field that must be present.
func required(v *ledgerv2.Value, depth int, what string) (value.Value, error) {
	if v == nil {
		return nil, fmt.Errorf("%s is missing", what)
	}
	return FromProtoAt(v, depth)
}

// identifier converts an optional Identifier message at level depth.
func identifier(id *ledgerv2.Identifier, depth int) (*lf.TypeConID, error) {
	if id == nil {
		return nil, nil
	}
	if depth > value.MaxProtoDepth {
		return nil, value.ErrProtoTooDeep
	}
	return &lf.TypeConID{PackageID: id.GetPackageId(), Module: id.GetModuleName(), Name: id.GetEntityName()}, nil
}

// IdentifierToProto returns id as an Identifier message.
func IdentifierToProto(id lf.TypeConID) *ledgerv2.Identifier {
	return &ledgerv2.Identifier{PackageId: id.PackageID, ModuleName: id.Module, EntityName: id.Name}
}

// ToProto converts v to a Value message: with verbose, with the record
// ids, labels and variant and enum ids v carries; without, with none.
func ToProto(v value.Value, verbose bool) *ledgerv2.Value {
	// The scalars take one allocation for the Value and its variant.
	switch v := v.(type) {
	case value.Unit:
		return &ledgerv2.Value{Sum: &ledgerv2.Value_Unit{Unit: &emptypb.Empty{}}}
	case value.Bool:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_Bool
		})
		b.s.Bool, b.v.Sum = bool(v), &b.s
		return &b.v
	case value.Int64:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_Int64
		})
		b.s.Int64, b.v.Sum = int64(v), &b.s
		return &b.v
	case value.Date:
		return &ledgerv2.Value{Sum: &ledgerv2.Value_Date{Date: int32(v)}}
	case value.Timestamp:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_Timestamp
		})
		b.s.Timestamp, b.v.Sum = int64(v), &b.s
		return &b.v
	case value.Numeric:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_Numeric
		})
		b.s.Numeric, b.v.Sum = string(v), &b.s
		return &b.v
	case value.Party:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_Party
		})
		b.s.Party, b.v.Sum = string(v), &b.s
		return &b.v
	case value.Text:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_Text
		})
		b.s.Text, b.v.Sum = string(v), &b.s
		return &b.v
	case value.ContractID:
		b := new(struct {
			v ledgerv2.Value
			s ledgerv2.Value_ContractId
		})
		b.s.ContractId, b.v.Sum = string(v), &b.s
		return &b.v
	case value.Optional:
		o := &ledgerv2.Optional{}
		if v.Value != nil {
			o.Value = ToProto(v.Value, verbose)
		}
		return &ledgerv2.Value{Sum: &ledgerv2.Value_Optional{Optional: o}}
	case value.List:
		l := &ledgerv2.List{Elements: make([]*ledgerv2.Value, len(v))}
		for i, x := range v {
			l.Elements[i] = ToProto(x, verbose)
		}
		return &ledgerv2.Value{Sum: &ledgerv2.Value_List{List: l}}
	case value.TextMap:
		m := &ledgerv2.TextMap{Entries: make([]*ledgerv2.TextMap_Entry, len(v))}
		for i, e := range v {
			m.Entries[i] = &ledgerv2.TextMap_Entry{Key: e.Key, Value: ToProto(e.Value, verbose)}
		}
		return &ledgerv2.Value{Sum: &ledgerv2.Value_TextMap{TextMap: m}}
	case value.GenMap:
		m := &ledgerv2.GenMap{Entries: make([]*ledgerv2.GenMap_Entry, len(v))}
		for i, e := range v {
			m.Entries[i] = &ledgerv2.GenMap_Entry{Key: ToProto(e.Key, verbose), Value: ToProto(e.Value, verbose)}
		}
		return &ledgerv2.Value{Sum: &ledgerv2.Value_GenMap{GenMap: m}}
	case value.Record:
		return &ledgerv2.Value{Sum: &ledgerv2.Value_Record{Record: RecordToProto(v, verbose)}}
	case value.Variant:
		x := &ledgerv2.Variant{Constructor: v.Constructor, Value: ToProto(v.Value, verbose)}
		if verbose && v.VariantID != nil {
			x.VariantId = IdentifierToProto(*v.VariantID)
		}
		return &ledgerv2.Value{Sum: &ledgerv2.Value_Variant{Variant: x}}
	case value.Enum:
		x := &ledgerv2.Enum{Constructor: v.Constructor}
		if verbose && v.EnumID != nil {
			x.EnumId = IdentifierToProto(*v.EnumID)
		}
		return &ledgerv2.Value{Sum: &ledgerv2.Value_Enum{Enum: x}}
	case nil:
		return nil
	default:
		panic(fmt.Sprintf("pbvalue: unknown value type %T", v))
	}
}

// RecordToProto converts r to a Record message (see ToProto).
func RecordToProto(r value.Record, verbose bool) *ledgerv2.Record {
	out := &ledgerv2.Record{Fields: make([]*ledgerv2.RecordField, len(r.Fields))}
	if verbose && r.RecordID != nil {
		out.RecordId = IdentifierToProto(*r.RecordID)
	}
	fields := make([]ledgerv2.RecordField, len(r.Fields)) // one allocation for the fields
	for i, f := range r.Fields {
		pf := &fields[i]
		pf.Value = ToProto(f.Value, verbose)
		if verbose {
			pf.Label = f.Label
		}
		out.Fields[i] = pf
	}
	return out
}

// ToProtoAs is ToProto for a value of LF type t: with verbose, v is first
// typed against t (value.TypeValue, data types through lookup), so that
// every record, variant and enum gets its type id and every field its
// label even when v carries none. A v that does not match t is an error.
func ToProtoAs(v value.Value, t lf.Type, lookup func(pkgID string) *lf.Package, verbose bool) (*ledgerv2.Value, error) {
	if verbose {
		typed, err := value.TypeValue(v, t, lookup)
		if err != nil {
			return nil, err
		}
		v = typed
	}
	return ToProto(v, verbose), nil
}

// FromProtoAs converts v, a top-level message, and types it against the
// LF type t (value.TypeValue): the result has Canton's canonical form —
// type ids, labels and ranks set, numerics at their scale, maps sorted —
// or the error is value.TypeValue's *value.Error, with its JSON-style path
// and the kind the Node maps to a Canton code. As in Canton's
// ValueTranslator, labelled record fields are matched by name (in any
// order), unlabelled ones by position, and a missing optional field is
// None.
func FromProtoAs(v *ledgerv2.Value, t lf.Type, lookup func(pkgID string) *lf.Package) (value.Value, error) {
	x, err := FromProto(v)
	if err != nil {
		return nil, err
	}
	return value.TypeValue(x, t, lookup)
}
