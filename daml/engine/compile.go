package engine

import (
	"slices"
	"sort"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
)

// scope maps variable names to environment slots while one lambda (or a
// top-level body) is compiled. Free variables of a lambda are captured
// from the parent scope on first use.
type scope struct {
	parent *scope
	names  []string
	slots  []int
	caps   []capture
	next   int
	max    int
}

type capture struct {
	name string
	from node // an atomic node of the parent scope
}

func (s *scope) bind(name string) int {
	slot := s.next
	s.next++
	if s.next > s.max {
		s.max = s.next
	}
	s.names = append(s.names, name)
	s.slots = append(s.slots, slot)
	return slot
}

// unbind drops the n innermost bindings (their slots are reused).
func (s *scope) unbind(n int) {
	s.names = s.names[:len(s.names)-n]
	s.slots = s.slots[:len(s.slots)-n]
	s.next -= n
}

func (s *scope) lookup(name string) node {
	for i := len(s.names) - 1; i >= 0; i-- {
		if s.names[i] == name {
			return &nLoc{i: s.slots[i]}
		}
	}
	for i, c := range s.caps {
		if c.name == name {
			return &nCap{i: i}
		}
	}
	if s.parent == nil {
		return nil
	}
	from := s.parent.lookup(name)
	if from == nil {
		return nil
	}
	s.caps = append(s.caps, capture{name: name, from: from})
	return &nCap{i: len(s.caps) - 1}
}

type compiler struct {
	e   *Engine
	err *Error
}

func (c *compiler) fail(err *Error) node {
	if c.err == nil {
		c.err = err
	}
	return &nConst{v: Unit{}}
}

// Internal variable names cannot clash with LF identifiers.
const (
	tokenVar = "\x00token"
	tmpVar   = "\x00tmp"
)

func (c *compiler) exprs(s *scope, xs []lf.Expr) []node {
	out := make([]node, len(xs))
	for i, x := range xs {
		out[i] = c.expr(s, x)
	}
	return out
}

func op(args []node, f func(m *Machine, vals []Value)) node { return newOp(args, f, false) }

// directOp is op for an f that returns, fails or throws at once (calls
// no function, pushes no frame) and keeps no reference to vals (nOp.direct).
func directOp(args []node, f func(m *Machine, vals []Value)) node {
	return newOp(args, f, true)
}

func (c *compiler) expr(s *scope, x lf.Expr) node {
	if c.err != nil {
		return &nConst{v: Unit{}}
	}
	switch x := x.(type) {
	case *lf.EVar:
		n := s.lookup(x.Name)
		if n == nil {
			return c.fail(errorf(ErrPackage, "unbound variable %q", x.Name))
		}
		return n
	case *lf.EVal:
		return &nTop{def: c.e.valueDef(x.Ref)}
	case *lf.EBuiltinFun:
		v, err := builtinValue(x.Fun)
		if err != nil {
			return c.fail(err)
		}
		return &nConst{v: v}
	case *lf.EBuiltinCon:
		switch x.Con {
		case lf.ConTrue:
			return &nConst{v: Bool(true)}
		case lf.ConFalse:
			return &nConst{v: Bool(false)}
		}
		return &nConst{v: Unit{}}
	case *lf.EInt64:
		return &nConst{v: Int64(x.Value)}
	case *lf.ENumeric:
		n, err := numeric.Parse(x.Text)
		if err != nil || n.Scale() != x.Scale {
			var ok bool
			if n, ok = numeric.ParseText(x.Scale, x.Text); !ok {
				return c.fail(errorf(ErrPackage, "bad numeric literal %q", x.Text))
			}
		}
		return &nConst{v: Numeric{n}}
	case *lf.EText:
		return &nConst{v: Text(x.Value)}
	case *lf.ETimestamp:
		return &nConst{v: Timestamp(x.Micros)}
	case *lf.EDate:
		return &nConst{v: Date(x.Days)}
	case *lf.EFailureCategory:
		return &nConst{v: Int64(x.Category.CantonCategory())}
	case *lf.ERoundingMode:
		return &nConst{v: Int64(x.Mode)}
	case *lf.EAbs, *lf.ETyAbs:
		return c.lambda(s, x)
	case *lf.ETyApp:
		return c.expr(s, x.Expr)
	case *lf.EApp:
		return c.app(s, x)
	case *lf.ELet:
		return c.let(s, x.Bindings, x.Body)
	case *lf.ECase:
		return c.caseExpr(s, x)
	case *lf.ERecCon:
		return c.recCon(s, x)
	case *lf.ERecProj:
		rt, err := c.e.recordType(x.Type.ID)
		if err != nil {
			return c.fail(err)
		}
		i := slices.Index(rt.Fields, x.Field)
		if i < 0 {
			return c.fail(errorf(ErrPackage, "no field %s in %s", x.Field, rt.ID))
		}
		return directOp([]node{c.expr(s, x.Record)}, func(m *Machine, v []Value) {
			r, ok := v[0].(*Record)
			if !ok {
				m.fail(crash("rec_proj on %T", v[0]))
				return
			}
			m.ret(r.Fields[i])
		})
	case *lf.ERecUpd:
		rt, err := c.e.recordType(x.Type.ID)
		if err != nil {
			return c.fail(err)
		}
		i := slices.Index(rt.Fields, x.Field)
		if i < 0 {
			return c.fail(errorf(ErrPackage, "no field %s in %s", x.Field, rt.ID))
		}
		return directOp([]node{c.expr(s, x.Record), c.expr(s, x.Update)}, func(m *Machine, v []Value) {
			r, ok := v[0].(*Record)
			if !ok {
				m.fail(crash("rec_upd on %T", v[0]))
				return
			}
			var u *Record
			if len(r.Fields) == len(r.Type.Fields) {
				u = newRecord(r.Type) // the record and its fields in one allocation
				copy(u.Fields, r.Fields)
			} else {
				u = &Record{Type: r.Type, Fields: slices.Clone(r.Fields)}
			}
			u.Fields[i] = v[1]
			m.ret(u)
		})
	case *lf.EVariantCon:
		rank, err := c.rank(x.Type.ID, x.Con, lf.VariantVariety)
		if err != nil {
			return c.fail(err)
		}
		id, con := x.Type.ID, x.Con
		arg := c.expr(s, x.Arg)
		if k, ok := arg.(*nConst); ok {
			// A constant (values are immutable): built once.
			return &nConst{v: &Variant{ID: id, Con: con, Rank: rank, Value: k.v}}
		}
		return directOp([]node{arg}, func(m *Machine, v []Value) {
			m.ret(&Variant{ID: id, Con: con, Rank: rank, Value: v[0]})
		})
	case *lf.EEnumCon:
		rank, err := c.rank(x.ID, x.Con, lf.EnumVariety)
		if err != nil {
			return c.fail(err)
		}
		return &nConst{v: &Enum{ID: x.ID, Con: x.Con, Rank: rank}}
	case *lf.EStructCon:
		return c.structCon(s, x)
	case *lf.EStructProj:
		f := x.Field
		var hint structHint
		return directOp([]node{c.expr(s, x.Struct)}, func(m *Machine, v []Value) {
			st, ok := v[0].(*Struct)
			if !ok {
				m.fail(crash("struct_proj on %T", v[0]))
				return
			}
			i, found := hint.index(st.Names, f)
			if !found {
				m.fail(crash("struct_proj: no field %s", f))
				return
			}
			m.ret(st.Values[i])
		})
	case *lf.EStructUpd:
		f := x.Field
		var hint structHint
		return directOp([]node{c.expr(s, x.Struct), c.expr(s, x.Update)}, func(m *Machine, v []Value) {
			st, ok := v[0].(*Struct)
			if !ok {
				m.fail(crash("struct_upd on %T", v[0]))
				return
			}
			i, found := hint.index(st.Names, f)
			if !found {
				m.fail(crash("struct_upd: no field %s", f))
				return
			}
			u := newStruct(st.Names)
			copy(u.Values, st.Values)
			u.Values[i] = v[1]
			m.ret(u)
		})
	case *lf.ENil:
		return &nConst{v: (*List)(nil)}
	case *lf.ECons:
		args := c.exprs(s, append(slices.Clone(x.Front), x.Tail))
		one := len(x.Front) == 1 // [p] may be a kept list: known here
		return directOp(args, func(m *Machine, v []Value) {
			l, ok := v[len(v)-1].(*List)
			if !ok {
				m.fail(crash("cons onto %T", v[len(v)-1]))
				return
			}
			if one && l == nil {
				if p, ok := v[0].(Party); ok {
					m.ret(partyList(v[0], p)) // [p], kept: no allocation
					return
				}
			}
			m.ret(listOnto(v[:len(v)-1], l)) // the new cells in one allocation
		})
	case *lf.EOptionalNone:
		return &nConst{v: None}
	case *lf.EOptionalSome:
		return directOp([]node{c.expr(s, x.Value)}, func(m *Machine, v []Value) { m.ret(Some(v[0])) })
	case *lf.EToAny:
		return c.toAny(s, x.Type, x.Expr)
	case *lf.EToAnyException:
		return c.toAny(s, x.Type, x.Expr)
	case *lf.EFromAny:
		return c.fromAny(s, x.Type, x.Expr)
	case *lf.EFromAnyException:
		return c.fromAny(s, x.Type, x.Expr)
	case *lf.ETypeRep:
		return &nConst{v: TypeRep{Type: x.Type}}
	case *lf.EThrow:
		t := x.ExceptionType
		return op([]node{c.expr(s, x.Exception)}, func(m *Machine, v []Value) {
			m.throw(&Any{Type: t, Value: v[0]})
		})
	case *lf.EUpdate:
		return c.update(s, x.Update)
	case *lf.EExperimental:
		if x.Name == "ANSWER" {
			return &nConst{v: &PAP{fn: &builtin{name: "ANSWER", arity: 1, fn: func(m *Machine, _ []Value) { m.ret(Int64(42)) }}, arity: 1}}
		}
		name := x.Name
		return op(nil, func(m *Machine, _ []Value) {
			m.fail(&Error{Kind: ErrUserError, Message: "experimental " + name + " not supported."})
		})
	}
	return c.interfaceExpr(s, x)
}

// lambda compiles nested abstractions (type abstractions in between are
// skipped) into one closure of the combined arity. A type abstraction
// that is not under a lambda is erased: it compiles to its body.
func (c *compiler) lambda(s *scope, x lf.Expr) node {
	var params []string
	body := x
	for {
		switch b := body.(type) {
		case *lf.EAbs:
			for _, p := range b.Params {
				params = append(params, p.Name)
			}
			body = b.Body
			continue
		case *lf.ETyAbs:
			body = b.Body
			continue
		}
		break
	}
	if len(params) == 0 {
		return c.expr(s, body)
	}
	inner := &scope{parent: s}
	for _, p := range params {
		inner.bind(p)
	}
	code := &lambda{arity: len(params)}
	code.body = c.expr(inner, body)
	code.slots = inner.max
	code.ret = atomicBody(code.body, code.arity)
	if len(inner.caps) == 0 {
		return &nConst{v: &PAP{fn: &closure{code: code}, arity: code.arity}}
	}
	caps := make([]operand, len(inner.caps))
	for i, cp := range inner.caps {
		caps[i] = operandOf(cp.from)
	}
	return &nClosure{code: code, caps: caps}
}

// app merges nested applications (and type applications) into one call.
func (c *compiler) app(s *scope, x *lf.EApp) node {
	var argLists [][]lf.Expr
	var fun lf.Expr = x
	for {
		switch f := fun.(type) {
		case *lf.EApp:
			argLists = append(argLists, f.Args)
			fun = f.Fun
			continue
		case *lf.ETyApp:
			fun = f.Expr
			continue
		}
		break
	}
	nodes := []node{c.expr(s, fun)}
	for i := len(argLists) - 1; i >= 0; i-- {
		for _, a := range argLists[i] {
			nodes = append(nodes, c.expr(s, a))
		}
	}
	if bf, ok := fun.(*lf.EBuiltinFun); ok {
		if b, ok := builtins[bf.Fun]; ok && b.arity == len(nodes)-1 && len(nodes)-1 <= len(scratch{}) && allAtomic(nodes[1:]) {
			return &nPrimCall{fn: b.fn, args: operandsOf(nodes[1:]), direct: !controlBuiltins[bf.Fun]}
		}
	}
	app := newApp(nodes)
	if v, ok := fun.(*lf.EVal); ok && len(nodes) == 2 {
		if d := c.e.dictFunction(v.Ref); d != nil {
			return &nDictApp{memo: &d.dict, app: app}
		}
	}
	return app
}

// dictFunction returns the definition of ref if it is a dictionary
// function (isDictFunction), else nil.
func (e *Engine) dictFunction(ref lf.TypeConID) *topDef {
	m, err := e.module(ref)
	if err != nil || !isDictFunction(ref.Name, m.Value(ref.Name)) {
		return nil
	}
	return e.valueDef(ref)
}

func (c *compiler) let(s *scope, bs []lf.Binding, body lf.Expr) node {
	if len(bs) == 0 {
		return c.expr(s, body)
	}
	bound := c.expr(s, bs[0].Bound)
	slot := s.bind(bs[0].Var.Name)
	rest := c.let(s, bs[1:], body)
	s.unbind(1)
	return newLet(bound, slot, rest)
}

func (c *compiler) rank(id lf.TypeConID, con string, want lf.Variety) (int, *Error) {
	dt, err := c.e.dataType(id)
	if err != nil {
		return 0, err
	}
	i := -1
	if want == lf.VariantVariety {
		i = slices.IndexFunc(dt.Fields, func(f lf.Field) bool { return f.Name == con })
	} else {
		i = slices.Index(dt.Constructors, con)
	}
	if i < 0 || dt.Variety != want {
		return 0, errorf(ErrPackage, "no %s constructor %s in %s", want, con, id)
	}
	return i, nil
}

func (c *compiler) caseExpr(s *scope, x *lf.ECase) node {
	n := &nCase{scrut: c.expr(s, x.Scrut), alts: make([]caseAlt, len(x.Alts))}
	for i, a := range x.Alts {
		al := &n.alts[i]
		bound := 0
		switch p := a.Pattern.(type) {
		case *lf.PDefault:
			al.kind = patDefault
		case *lf.PVariant:
			rank, err := c.rank(p.ID, p.Con, lf.VariantVariety)
			if err != nil {
				return c.fail(err)
			}
			al.kind, al.rank = patVariant, rank
			al.slot = s.bind(p.Binder)
			bound = 1
		case *lf.PEnum:
			rank, err := c.rank(p.ID, p.Con, lf.EnumVariety)
			if err != nil {
				return c.fail(err)
			}
			al.kind, al.rank = patEnum, rank
		case *lf.PBuiltinCon:
			switch p.Con {
			case lf.ConTrue:
				al.kind = patTrue
			case lf.ConFalse:
				al.kind = patFalse
			default:
				al.kind = patUnit
			}
		case *lf.PNil:
			al.kind = patNil
		case *lf.PCons:
			al.kind = patCons
			al.slot = s.bind(p.Head)
			al.slot2 = s.bind(p.Tail)
			bound = 2
		case *lf.POptionalNone:
			al.kind = patNone
		case *lf.POptionalSome:
			al.kind = patSome
			al.slot = s.bind(p.Binder)
			bound = 1
		default:
			return c.fail(errorf(ErrPackage, "unknown pattern %T", a.Pattern))
		}
		al.body = c.expr(s, a.Body)
		s.unbind(bound)
	}
	return n
}

// maxInlineFields is the most fields newRecord allocates with their
// record.
const maxInlineFields = 8

func (c *compiler) recCon(s *scope, x *lf.ERecCon) node {
	rt, err := c.e.recordType(x.Type.ID)
	if err != nil {
		return c.fail(err)
	}
	if len(x.Fields) != len(rt.Fields) {
		return c.fail(errorf(ErrPackage, "record %s built with %d fields, has %d", rt.ID, len(x.Fields), len(rt.Fields)))
	}
	pos := make([]int, len(x.Fields))
	inOrder := true
	for i, f := range x.Fields {
		pos[i] = slices.Index(rt.Fields, f.Name)
		if pos[i] < 0 {
			return c.fail(errorf(ErrPackage, "no field %s in %s", f.Name, rt.ID))
		}
		inOrder = inOrder && pos[i] == i
	}
	if len(x.Fields) == 0 {
		return &nConst{v: &Record{Type: rt}}
	}
	args := make([]node, len(x.Fields))
	for i, f := range x.Fields {
		args[i] = c.expr(s, f.Expr)
	}
	if len(args) <= maxInlineFields {
		// The record and its fields in one allocation (newRecord), the
		// values copied: a direct op, which needs no slice of its own
		// for them.
		return directOp(args, func(m *Machine, v []Value) {
			r := newRecord(rt)
			for i, p := range pos {
				r.Fields[p] = v[i]
			}
			m.ret(r)
		})
	}
	return op(args, func(m *Machine, v []Value) {
		if inOrder {
			m.ret(&Record{Type: rt, Fields: v})
			return
		}
		fs := make([]Value, len(v))
		for i, p := range pos {
			fs[p] = v[i]
		}
		m.ret(&Record{Type: rt, Fields: fs})
	})
}

func (c *compiler) structCon(s *scope, x *lf.EStructCon) node {
	idx := make([]int, len(x.Fields))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x.Fields[idx[a]].Name < x.Fields[idx[b]].Name })
	names := make([]string, len(idx))
	for i, j := range idx {
		names[i] = x.Fields[j].Name
	}
	args := make([]node, len(x.Fields))
	for i, f := range x.Fields {
		args[i] = c.expr(s, f.Expr)
	}
	return directOp(args, func(m *Machine, v []Value) {
		st := newStruct(names)
		for i, j := range idx {
			st.Values[i] = v[j]
		}
		m.ret(st)
	})
}

func (c *compiler) toAny(s *scope, t lf.Type, x lf.Expr) node {
	return directOp([]node{c.expr(s, x)}, func(m *Machine, v []Value) { m.ret(&Any{Type: t, Value: v[0]}) })
}

func (c *compiler) fromAny(s *scope, t lf.Type, x lf.Expr) node {
	return directOp([]node{c.expr(s, x)}, func(m *Machine, v []Value) {
		a, ok := v[0].(*Any)
		if !ok {
			m.fail(crash("from_any on %T", v[0]))
			return
		}
		if typeEqual(a.Type, t) {
			m.ret(Some(a.Value))
			return
		}
		m.ret(None)
	})
}

// structHint is the position of a field in the structs a projection or
// update sees, learnt from the first: LF structs are not row-polymorphic,
// so at one site the struct type (and the position of the field among
// its sorted names) is always the same. The hint is checked before use,
// so a stale or racing one only costs the binary search it saves.
type structHint struct{ i atomic.Int32 }

// index returns the position of f in names (sorted), as
// slices.BinarySearch does.
func (h *structHint) index(names []string, f string) (int, bool) {
	if i := int(h.i.Load()); i < len(names) && names[i] == f {
		return i, true
	}
	i, found := slices.BinarySearch(names, f)
	if found {
		h.i.Store(int32(i))
	}
	return i, found
}

// newStruct returns a struct of the given names with its values all nil:
// for a few names, the struct and its values are one allocation.
func newStruct(names []string) *Struct {
	st, values := withValues[Struct](len(names))
	*st = Struct{Names: names, Values: values}
	return st
}
