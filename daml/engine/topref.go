package engine

import (
	"sync/atomic"
	"weak"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// topRef is a jet's reference to a top-level value, which the jet
// evaluates at its every use (topRef.eval), as a reference to it in Daml
// does. It remembers the definition the last engine to use it found
// there (Engine.valueDef), so that the call-stack jets, which evaluate
// a top-level value at every call, do not look it up by name each time.
//
// A jet is made for the definitions of one Cache, which engines with
// different packages may share: the memo holds for the engine that made
// it only (the key is the engine's weak pointer, which never equals that
// of another engine, even one allocated where a collected one was), and
// only a definition the engine keeps (one whose package it has) is
// remembered, so that an engine lacking the package looks it up again,
// as Engine.valueDef does.
type topRef struct {
	id   lf.TypeConID
	memo atomic.Pointer[topRefMemo]
}

// topRefMemo is a topRef's memo: the definition engine e found.
type topRefMemo struct {
	e weak.Pointer[Engine]
	d *topDef
}

// def returns the definition of r in m's engine.
func (r *topRef) def(m *Machine) *topDef {
	if x := r.memo.Load(); x != nil && x.e == m.e.self {
		return x.d
	}
	d, kept := m.e.valueDefKept(r.id)
	if kept {
		r.memo.Store(&topRefMemo{e: m.e.self, d: d})
	}
	return d
}

// eval computes the top-level value r, as a reference to it in Daml
// does.
func (r *topRef) eval(m *Machine) { evalDef(m, r.def(m)) }

// evalDef computes the top-level value of d.
func evalDef(m *Machine, d *topDef) {
	if v := d.cached.Load(); v != nil {
		m.ret(*v)
		return
	}
	m.ctrl = &nTop{def: d}
}
