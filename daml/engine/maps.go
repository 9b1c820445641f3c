package engine

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// find returns the position of k in mp's sorted keys, or where it would
// be inserted. It fails when k is not comparable (it holds a function),
// even when mp is empty or another key tells k apart first.
func (mp *Map) find(k Value) (int, bool, *Error) {
	if _, err := compare(k, k); err != nil {
		return 0, false, err
	}
	lo, hi := 0, len(mp.Keys)
	for lo < hi {
		mid := (lo + hi) / 2
		c, err := compare(mp.Keys[mid], k)
		if err != nil {
			return 0, false, err
		}
		switch {
		case c == 0:
			return mid, true, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return lo, false, nil
}

func mapInsert(m *Machine, k, v Value, mp *Map) {
	i, found, err := mp.find(k)
	if err != nil {
		m.fail(err)
		return
	}
	out := &Map{Text: mp.Text}
	if found {
		out.Keys = mp.Keys
		out.Values = slices.Clone(mp.Values)
		out.Values[i] = v
	} else {
		out.Keys = slices.Insert(slices.Clone(mp.Keys), i, k)
		out.Values = slices.Insert(slices.Clone(mp.Values), i, v)
	}
	m.ret(out)
}

func mapLookup(m *Machine, k Value, mp *Map) {
	i, found, err := mp.find(k)
	if err != nil {
		m.fail(err)
		return
	}
	if found {
		m.ret(Some(mp.Values[i]))
		return
	}
	m.ret(None)
}

func mapDelete(m *Machine, k Value, mp *Map) {
	i, found, err := mp.find(k)
	if err != nil {
		m.fail(err)
		return
	}
	if !found {
		m.ret(mp)
		return
	}
	m.ret(&Map{Text: mp.Text, Keys: slices.Delete(slices.Clone(mp.Keys), i, i+1), Values: slices.Delete(slices.Clone(mp.Values), i, i+1)})
}

var keyValueNames = []string{"key", "value"}

func registerMaps(reg func(lf.BuiltinFunction, bf)) {
	reg(lf.BuiltinTextMapInsert, func(m *Machine, a []Value) { mapInsert(m, a[0], a[1], a[2].(*Map)) })
	reg(lf.BuiltinGenMapInsert, func(m *Machine, a []Value) { mapInsert(m, a[0], a[1], a[2].(*Map)) })
	reg(lf.BuiltinTextMapLookup, func(m *Machine, a []Value) { mapLookup(m, a[0], a[1].(*Map)) })
	reg(lf.BuiltinGenMapLookup, func(m *Machine, a []Value) { mapLookup(m, a[0], a[1].(*Map)) })
	reg(lf.BuiltinTextMapDelete, func(m *Machine, a []Value) { mapDelete(m, a[0], a[1].(*Map)) })
	reg(lf.BuiltinGenMapDelete, func(m *Machine, a []Value) { mapDelete(m, a[0], a[1].(*Map)) })
	size := func(m *Machine, a []Value) { m.ret(Int64(len(a[0].(*Map).Keys))) }
	reg(lf.BuiltinTextMapSize, size)
	reg(lf.BuiltinGenMapSize, size)
	reg(lf.BuiltinGenMapKeys, func(m *Machine, a []Value) { m.ret(ListOf(a[0].(*Map).Keys...)) })
	reg(lf.BuiltinGenMapValues, func(m *Machine, a []Value) { m.ret(ListOf(a[0].(*Map).Values...)) })
	reg(lf.BuiltinTextMapToList, func(m *Machine, a []Value) {
		mp := a[0].(*Map)
		out := make([]Value, len(mp.Keys))
		for i := range mp.Keys {
			out[i] = &Struct{Names: keyValueNames, Values: []Value{mp.Keys[i], mp.Values[i]}}
		}
		m.ret(ListOf(out...))
	})
}
