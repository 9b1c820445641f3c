package engine

type patKind uint8

const (
	patDefault patKind = iota
	patVariant
	patEnum
	patTrue
	patFalse
	patUnit
	patNil
	patCons
	patNone
	patSome
)

// caseAlt is a compiled case alternative. slot and slot2 receive the bound
// values (variant payload / Some payload / cons head; cons tail).
type caseAlt struct {
	kind        patKind
	rank        int
	slot, slot2 int
	body        node
}

type nCase struct {
	scrut node
	alts  []caseAlt
}

func (n *nCase) eval(m *Machine) {
	if v, ok := atomicVal(m, n.scrut); ok {
		n.match(m, v)
		return
	}
	if handled, ok := evalDirect(m, n.scrut); handled {
		if ok {
			n.match(m, m.val)
		}
		return
	}
	k := m.matchFree.get()
	k.n, k.env, k.caps = n, m.env, m.caps
	m.push(k)
	m.ctrl = n.scrut
}

type kMatch struct {
	n    *nCase
	env  []Value
	caps []Value
}

// resume matches v; the frame then goes back to the machine
// (Machine.matchFree) for the next case.
func (k *kMatch) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	k.n.match(m, v)
	m.matchFree.put(k)
}

func (n *nCase) match(m *Machine, v Value) {
	for i := range n.alts {
		a := &n.alts[i]
		switch a.kind {
		case patDefault:
			m.ctrl = a.body
			return
		case patVariant:
			if x, ok := v.(*Variant); ok && x.Rank == a.rank {
				m.env[a.slot] = x.Value
				m.ctrl = a.body
				return
			}
		case patEnum:
			if x, ok := v.(*Enum); ok && x.Rank == a.rank {
				m.ctrl = a.body
				return
			}
		case patTrue, patFalse:
			if x, ok := v.(Bool); ok && bool(x) == (a.kind == patTrue) {
				m.ctrl = a.body
				return
			}
		case patUnit:
			if _, ok := v.(Unit); ok {
				m.ctrl = a.body
				return
			}
		case patNil:
			if x, ok := v.(*List); ok && x == nil {
				m.ctrl = a.body
				return
			}
		case patCons:
			if x, ok := v.(*List); ok && x != nil {
				m.env[a.slot] = x.Head
				m.env[a.slot2] = x.Tail
				m.ctrl = a.body
				return
			}
		case patNone:
			if x, ok := v.(Optional); ok && x.Value == nil {
				m.ctrl = a.body
				return
			}
		case patSome:
			if x, ok := v.(Optional); ok && x.Value != nil {
				m.env[a.slot] = x.Value
				m.ctrl = a.body
				return
			}
		}
	}
	m.fail(crash("No match for %T in case expression", v))
}
