package engine

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// Updates are function values waiting for the Token (as Speedy compiles
// them: speedy/compiler/PhaseOne.scala, compileEUpdate): the arguments of
// create, fetch, exercise … are evaluated when the update value is built;
// the effect happens when it is applied to the token.

// updatePAP returns the update value of the builtin f of the given arity
// applied to args (copied: the caller's slice is not kept). The PAP, its
// builtin and up to two arguments are one allocation.
func updatePAP(name string, arity int, f func(m *Machine, args []Value), args ...Value) *PAP {
	u := &struct {
		p   PAP
		b   builtin
		buf [2]Value
	}{b: builtin{name: name, arity: arity, fn: f}}
	var held []Value
	switch {
	case len(args) > len(u.buf):
		held = make([]Value, len(args))
		copy(held, args)
	case len(args) > 0:
		held = u.buf[:len(args):len(args)]
		copy(held, args)
	}
	u.p = PAP{fn: &u.b, args: held, arity: arity}
	return &u.p
}

func (c *compiler) update(s *scope, u lf.Update) node {
	switch u := u.(type) {
	case *lf.UPure:
		return directOp([]node{c.expr(s, u.Expr)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("pure", 2, func(m *Machine, a []Value) { m.ret(a[0]) }, v[0]))
		})
	case *lf.UEmbedExpr:
		return directOp([]node{c.expr(s, u.Expr)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("embed_expr", 2, func(m *Machine, a []Value) { m.apply(a[0], a[1:]) }, v[0]))
		})
	case *lf.UBlock:
		return c.block(s, u)
	case *lf.UTryCatch:
		inner := &scope{parent: s}
		tokSlot := inner.bind(tokenVar)
		tok := &nLoc{i: tokSlot}
		n := &nTry{tok: tok}
		n.body = newApp([]node{c.expr(inner, u.Try), tok})
		n.slot = inner.bind(u.Var)
		n.handler = c.expr(inner, u.Catch)
		return c.closeLambda(inner, n, 1)
	case *lf.UGetTime:
		return &nConst{v: updatePAP("get_time", 1, func(m *Machine, _ []Value) { m.ledgerTime() })}
	case *lf.ULedgerTimeLT:
		return directOp([]node{c.expr(s, u.Expr)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("ledger_time_lt", 2, func(m *Machine, a []Value) { m.ledgerTimeLT(a[0]) }, v[0]))
		})
	case *lf.UCreate:
		t := u.Template
		return directOp([]node{c.expr(s, u.Expr)}, func(m *Machine, v []Value) {
			m.ret(createPAP(t, v[0], nil))
		})
	case *lf.UCreateInterface:
		return directOp([]node{c.expr(s, u.Expr)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("create_interface", 2, func(m *Machine, a []Value) {
				iv, ok := a[0].(*Any)
				tc, ok2 := iv.Type.(*lf.TCon)
				if !ok || !ok2 {
					m.fail(crash("create_interface on %T", a[0]))
					return
				}
				m.create(tc.ID, iv.Value, nil)
			}, v[0]))
		})
	case *lf.UExercise:
		t, ch := u.Template, u.Choice
		return directOp([]node{c.expr(s, u.ContractID), c.expr(s, u.Arg)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("exercise", 3, func(m *Machine, a []Value) { m.exercise(t, ch, a[0], a[1]) }, v[0], v[1]))
		})
	case *lf.UExerciseInterface:
		if u.Guard != nil {
			break
		}
		i, ch := u.Interface, u.Choice
		return directOp([]node{c.expr(s, u.ContractID), c.expr(s, u.Arg)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("exercise_interface", 3, func(m *Machine, a []Value) { m.exerciseInterface(i, ch, a[0], a[1]) }, v[0], v[1]))
		})
	case *lf.UFetchInterface:
		i := u.Interface
		return directOp([]node{c.expr(s, u.ContractID)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("fetch_interface", 2, func(m *Machine, a []Value) { m.fetchInterface(i, a[0]) }, v[0]))
		})
	case *lf.UFetch:
		t := u.Template
		return directOp([]node{c.expr(s, u.ContractID)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("fetch", 2, func(m *Machine, a []Value) { m.fetch(t, a[0]) }, v[0]))
		})
	}
	if n, ok := c.compileKeyUpdate(s, u); ok {
		return n
	}
	name := updateName(u)
	return &nConst{v: updatePAP(name, 1, func(m *Machine, _ []Value) {
		m.fail(errorf(ErrUnsupported, "update %s is not supported", name))
	})}
}

func updateName(u lf.Update) string {
	switch u.(type) {
	case *lf.UExerciseInterface:
		return "exercise_interface with a guard"
	case *lf.UExerciseByKey:
		return "exercise_by_key"
	case *lf.UFetchByKey:
		return "fetch_by_key"
	case *lf.ULookupByKey:
		return "lookup_by_key"
	case *lf.UQueryNByKey:
		return "query_n_by_key"
	}
	return "unknown"
}

// block compiles `block { x1 ← e1; …; xn ← en } in body` as
// let tmp = e1 in λtoken. let x1 = tmp token; x2 = e2 token; … in body token.
func (c *compiler) block(s *scope, b *lf.UBlock) node {
	first := c.expr(s, b.Bindings[0].Bound)
	tmpSlot := s.bind(tmpVar)
	inner := &scope{parent: s}
	tok := &nLoc{i: inner.bind(tokenVar)}
	type step struct {
		bound node
		slot  int
	}
	steps := make([]step, len(b.Bindings))
	for i, bd := range b.Bindings {
		var f node
		if i == 0 {
			f = inner.lookup(tmpVar)
		} else {
			f = c.expr(inner, bd.Bound)
		}
		steps[i] = step{bound: newApp([]node{f, tok}), slot: inner.bind(bd.Var.Name)}
	}
	var body node = newApp([]node{c.expr(inner, b.Body), tok})
	for i := len(steps) - 1; i >= 0; i-- {
		body = newLet(steps[i].bound, steps[i].slot, body)
	}
	inner.unbind(len(steps))
	clo := c.closeLambda(inner, body, 1)
	s.unbind(1)
	return newLet(first, tmpSlot, clo)
}

// closeLambda turns a compiled body in scope inner into a closure node.
func (c *compiler) closeLambda(inner *scope, body node, arity int) node {
	code := &lambda{body: body, arity: arity, slots: inner.max}
	if len(inner.caps) == 0 {
		return &nConst{v: &PAP{fn: &closure{code: code}, arity: arity}}
	}
	caps := make([]operand, len(inner.caps))
	for i, cp := range inner.caps {
		caps[i] = operandOf(cp.from)
	}
	return &nClosure{code: code, caps: caps}
}
