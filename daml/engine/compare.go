package engine

import (
	"cmp"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Compare is the generic total order of Speedy
// (speedy/svalue/Ordering.scala and svalue/Equality.scala), used by EQUAL,
// LESS …, and map keys: -1, 0 or 1. Both values must have the same static
// type. Comparing functions fails with ErrNonComparableValues, a local and
// a global contract id with the same discriminator with
// ErrContractIDComparability. Lists are walked iteratively.
func Compare(a, b Value) (int, error) {
	c, err := compare(a, b)
	if err != nil {
		return 0, err
	}
	return c, nil
}

// Equal is generic equality (EQUAL): Compare(a, b) == 0.
func Equal(a, b Value) (bool, error) {
	c, err := compare(a, b)
	if err != nil {
		return false, err
	}
	return c == 0, nil
}

func compare(a, b Value) (int, *Error) {
	switch x := a.(type) {
	case Unit:
		return 0, nil
	case Bool:
		y := b.(Bool)
		if x == y {
			return 0, nil
		}
		if !x {
			return -1, nil
		}
		return 1, nil
	case Int64:
		return cmp.Compare(x, b.(Int64)), nil
	case Numeric:
		return x.Cmp(b.(Numeric).Numeric), nil
	case Text:
		return strings.Compare(string(x), string(b.(Text))), nil
	case Timestamp:
		return cmp.Compare(x, b.(Timestamp)), nil
	case Date:
		return cmp.Compare(x, b.(Date)), nil
	case Party:
		return strings.Compare(string(x), string(b.(Party))), nil
	case ContractID:
		return compareCid(x, b.(ContractID))
	case *Enum:
		return cmp.Compare(x.Rank, b.(*Enum).Rank), nil
	case *Variant:
		y := b.(*Variant)
		if c := cmp.Compare(x.Rank, y.Rank); c != 0 {
			return c, nil
		}
		return compare(x.Value, y.Value)
	case *Record:
		return compareSeq(x.Fields, b.(*Record).Fields)
	case *Struct:
		return compareSeq(x.Values, b.(*Struct).Values)
	case *List:
		y := b.(*List)
		for x != nil && y != nil {
			if c, err := compare(x.Head, y.Head); c != 0 || err != nil {
				return c, err
			}
			x, y = x.Tail, y.Tail
		}
		switch {
		case x == nil && y == nil:
			return 0, nil
		case x == nil:
			return -1, nil
		}
		return 1, nil
	case Optional:
		y := b.(Optional)
		switch {
		case x.Value == nil && y.Value == nil:
			return 0, nil
		case x.Value == nil:
			return -1, nil
		case y.Value == nil:
			return 1, nil
		}
		return compare(x.Value, y.Value)
	case *Map:
		y := b.(*Map)
		for i := 0; i < len(x.Keys) && i < len(y.Keys); i++ {
			if c, err := compare(x.Keys[i], y.Keys[i]); c != 0 || err != nil {
				return c, err
			}
			if c, err := compare(x.Values[i], y.Values[i]); c != 0 || err != nil {
				return c, err
			}
		}
		return cmp.Compare(len(x.Keys), len(y.Keys)), nil
	case *Any:
		y := b.(*Any)
		if c := compareType(x.Type, y.Type); c != 0 {
			return c, nil
		}
		return compare(x.Value, y.Value)
	case TypeRep:
		return compareType(x.Type, b.(TypeRep).Type), nil
	case *PAP:
		return 0, errorf(ErrNonComparableValues, "functions are not comparable")
	case Token:
		return 0, nil
	}
	return 0, crash("compare: unexpected value %T", a)
}

func compareSeq(xs, ys []Value) (int, *Error) {
	for i := 0; i < len(xs) && i < len(ys); i++ {
		if c, err := compare(xs[i], ys[i]); c != 0 || err != nil {
			return c, err
		}
	}
	return cmp.Compare(len(xs), len(ys)), nil
}

// compareCid orders V1 contract ids (hex "00" + 64-hex discriminator +
// suffix) byte-wise, V1 before V2, with the comparability guard: the same
// discriminator with exactly one empty suffix is an error.
func compareCid(x, y ContractID) (int, *Error) {
	if x == y {
		return 0, nil
	}
	const discLen = 66
	v1x, v1y := strings.HasPrefix(string(x), "00"), strings.HasPrefix(string(y), "00")
	if v1x != v1y {
		if v1x {
			return -1, nil
		}
		return 1, nil
	}
	if v1x && len(x) >= discLen && len(y) >= discLen && x[:discLen] == y[:discLen] {
		if len(x) == discLen || len(y) == discLen {
			g := x
			if len(x) == discLen {
				g = y
			}
			return 0, errorf(ErrContractIDComparability, "The global contract ID %s conflicts with a local contract ID", g)
		}
	}
	return strings.Compare(string(x), string(y)), nil
}

// typeKind orders the kinds of types: builtin < type constructor < nat <
// struct < application (TypeOrdering.scala).
func typeKind(t lf.Type) int {
	switch t.(type) {
	case *lf.TBuiltin:
		return 0
	case *lf.TCon:
		return 1
	case *lf.TNat:
		return 2
	case *lf.TStruct:
		return 3
	case *lf.TApp:
		return 4
	}
	return 5
}

func compareType(a, b lf.Type) int {
	if c := cmp.Compare(typeKind(a), typeKind(b)); c != 0 {
		return c
	}
	switch x := a.(type) {
	case *lf.TBuiltin:
		return cmp.Compare(x.Builtin, b.(*lf.TBuiltin).Builtin)
	case *lf.TCon:
		return compareID(x.ID, b.(*lf.TCon).ID)
	case *lf.TNat:
		return cmp.Compare(x.N, b.(*lf.TNat).N)
	case *lf.TStruct:
		y := b.(*lf.TStruct)
		for i := 0; i < len(x.Fields) && i < len(y.Fields); i++ {
			if c := strings.Compare(x.Fields[i].Name, y.Fields[i].Name); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(len(x.Fields), len(y.Fields)); c != 0 {
			return c
		}
		for i := range x.Fields {
			if c := compareType(x.Fields[i].Type, y.Fields[i].Type); c != 0 {
				return c
			}
		}
		return 0
	case *lf.TApp:
		y := b.(*lf.TApp)
		if c := compareType(x.Fun, y.Fun); c != 0 {
			return c
		}
		return compareType(x.Arg, y.Arg)
	}
	return strings.Compare(a.String(), b.String())
}

func compareID(x, y lf.TypeConID) int {
	if c := strings.Compare(x.PackageID, y.PackageID); c != 0 {
		return c
	}
	xs, ys := strings.Split(x.Module, "."), strings.Split(y.Module, ".")
	for i := 0; i < len(xs) && i < len(ys); i++ {
		if c := strings.Compare(xs[i], ys[i]); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(len(xs), len(ys)); c != 0 {
		return c
	}
	return strings.Compare(x.Name, y.Name)
}

func typeEqual(a, b lf.Type) bool { return compareType(a, b) == 0 }
