package engine

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// node is a compiled expression. eval either sets m.val (and leaves
// m.ctrl nil) or sets m.ctrl to the next node to run (with m.env and
// m.caps), possibly after pushing continuations.
type node interface {
	eval(m *Machine)
}

// kont is a continuation frame; resume receives the value computed for it.
type kont interface {
	resume(m *Machine, v Value)
}

// callable is the function inside a PAP: a closure or a builtin.
type callable interface {
	enter(m *Machine, args []Value)
}

// lambda is the code of a closure: the body runs with the arguments in
// slots 0..arity-1 of an environment of size slots. The slots from arity
// on are the body's let, case and try binders; the machine writes them,
// never the parameters' slots.
type lambda struct {
	body  node
	arity int
	slots int
	// ret is the body's operand when the body is atomic: a parameter, a
	// captured value, a constant or a top-level value (atomicBody). A
	// call then has its value at once (closure.value), without an
	// environment or a step: dictionary methods (\_ -> $cmethod) and
	// const-like functions are called that way hundreds of thousands of
	// times in a script suite.
	ret *operand
}

// atomicBody returns the operand of body if the machine can read its
// value without an environment of its own (closure.value), else nil.
func atomicBody(body node, arity int) *operand {
	o := operandOf(body)
	switch o.kind {
	case opLoc:
		if int(o.i) >= arity {
			return nil
		}
	case opCap, opConst, opTop:
	default:
		return nil
	}
	return &o
}

// value returns what a call of c on its arguments returns when its body
// is atomic (lambda.ret) and ready (a top-level value is until it is
// first evaluated), args being its arguments. It reports false, the
// call to be entered, otherwise.
func (c *closure) value(args []Value) (Value, bool) {
	o := c.code.ret
	if o == nil {
		return nil, false
	}
	switch o.kind {
	case opLoc:
		return args[o.i], true
	case opCap:
		return c.caps[o.i], true
	case opConst:
		return o.v, true
	case opTop:
		if v := o.def.cached.Load(); v != nil {
			return *v, true
		}
	}
	return nil, false
}

// closure is a lambda with its captured values.
type closure struct {
	code *lambda
	caps []Value
}

// enter runs the closure on args (len(args) == arity), copied into a
// fresh environment of size slots. The copy is needed even for a body
// without binders of its own: args is often the value buffer of a
// continuation frame (kSeq), and an environment aliasing it would keep
// that frame — and through its saved environment every caller's frame —
// alive: a loop of n recursive calls would retain all n frames until the
// evaluation ends (TestLoopRetainsNoFrames).
func (c *closure) enter(m *Machine, args []Value) {
	if v, ok := c.value(args); ok {
		m.ret(v)
		return
	}
	env := m.newEnv(c.code.slots)
	copyVals(env, args)
	m.env, m.caps, m.ctrl = env, c.caps, c.code.body
}

// checkEvery is the number of steps between two looks at ctx.
const checkEvery = 1 << 12

// Machine is one evaluation: the control register, the current
// environment and the continuation stack. It is not safe for concurrent
// use; the Engine it belongs to is.
type Machine struct {
	e    *Engine
	ctx  context.Context
	ctrl node
	val  Value
	env  []Value
	caps []Value

	konts    []kont
	steps    int64
	maxSteps int64
	err      *Error

	// tx is the transaction being built by updates, or nil for pure
	// evaluation.
	tx *ledgerTx

	// throws counts the exceptions thrown, so that a direct call can tell
	// whether control left it.
	throws int
	// scratch holds the arguments of a direct builtin call.
	scratch scratch
	// opScratch holds the arguments of a direct op (nOp.direct).
	opScratch scratch
	// machineFrames are the frames and environments the machine reuses,
	// which a finished machine hands on to the next (runOnce, Submit).
	machineFrames
	// prepend is the buffer of the last long text AppendText built, with
	// room in front of it (textbuf.go).
	prepend prependBuf
}

// envBlock is the number of values newEnv allocates at once.
const envBlock = 64

// newEnv returns a zeroed environment of n slots: a piece of a block
// shared with the environments made before and after it, so that one
// allocation serves many calls. Only the machine and its frames refer to
// an environment (closures copy the values they capture, and no value
// holds a slice of one), and a block lives as long as one of its
// environments does: the garbage collector frees it like any other.
func (m *Machine) newEnv(n int) []Value {
	if n > envBlock/8 {
		return make([]Value, n)
	}
	if len(m.envs) < n {
		m.envs = make([]Value, envBlock)
	}
	env := m.envs[:n:n]
	m.envs = m.envs[n:]
	return env
}

type scratch [4]Value

// copyVals copies src into dst (len(dst) >= len(src)): the few values of
// a call or a sequence, for which a loop of stores is cheaper than
// copy's runtime call (typedslicecopy).
func copyVals(dst, src []Value) {
	dst = dst[:len(src)]
	//lint:ignore S1001 a loop on purpose, see above
	for i := range src {
		dst[i] = src[i]
	}
}

// controlBuiltins are the builtins that transfer control (call functions)
// instead of returning a value directly.
var controlBuiltins = map[lf.BuiltinFunction]bool{
	lf.BuiltinFoldL: true, lf.BuiltinFoldR: true, lf.BuiltinEqualList: true, lf.BuiltinAnyExceptionMessage: true,
}

func allAtomic(ns []node) bool {
	for _, n := range ns {
		switch n.(type) {
		case *nLoc, *nCap, *nConst:
		default:
			return false
		}
	}
	return true
}

// nPrimCall is a saturated call of a builtin on atomic arguments: the
// arguments go through the machine's scratch array (builtins never keep
// their argument slice).
type nPrimCall struct {
	fn     func(m *Machine, a []Value)
	args   []operand
	direct bool // the builtin returns a value (or throws/fails) without calling functions
}

func (n *nPrimCall) eval(m *Machine) {
	a := m.scratch[:len(n.args)]
	for i := range n.args {
		a[i], _ = n.args[i].atomic(m)
	}
	n.fn(m, a)
	clear(a)
}

// evalDirect runs n inline if it is a direct builtin call or a direct op
// whose arguments are atomic (nOp.evalsDirect); ok reports that m.val
// holds its value (false also when it failed or threw, and the machine
// has moved on).
func evalDirect(m *Machine, n node) (handled, ok bool) {
	t := m.throws
	switch p := n.(type) {
	case *nPrimCall:
		if !p.direct {
			return false, false
		}
		p.eval(m)
	case *nOp:
		if !p.evalsDirect(m) {
			return false, false
		}
		p.runDirect(m)
	default:
		return false, false
	}
	return true, m.err == nil && m.throws == t
}

// newMachine returns a machine for one evaluation: an idle one of the
// engine's (runOnce), or a new one.
func (e *Engine) newMachine(ctx context.Context) *Machine {
	if m, ok := e.machines.Get().(*Machine); ok {
		m.ctx, m.maxSteps = ctx, e.opts.maxSteps()
		return m
	}
	return &Machine{e: e, ctx: ctx, maxSteps: e.opts.maxSteps(), konts: make([]kont, 0, 16)}
}

// maxIdleKonts bounds the continuation stack an idle machine keeps: a
// deep recursion's is dropped with its machine.
const maxIdleKonts = 1 << 10

// runOnce runs m (from newMachine) to its result, then keeps it for the
// engine's next evaluation, reset: its continuation stack cleared, its
// frame free lists (which hold cleared frames) kept.
func (e *Engine) runOnce(m *Machine) (Value, error) {
	v, err := m.result()
	if k := m.konts; cap(k) <= maxIdleKonts {
		clear(k[:cap(k)])
		*m = Machine{e: e, konts: k[:0], machineFrames: m.machineFrames}
		e.machines.Put(m)
	}
	return v, err
}

func (m *Machine) push(k kont) { m.konts = append(m.konts, k) }

// fail records a fatal error; the loop stops at its next iteration.
func (m *Machine) fail(err *Error) {
	if m.err == nil {
		m.err = err
	}
	m.ctrl = nil
}

// ret sets the value of the current computation.
func (m *Machine) ret(v Value) { m.val, m.ctrl = v, nil }

// run runs the machine until the continuation stack is back at its
// height at entry and a value is computed, or a fatal error occurs.
func (m *Machine) run() (Value, error) {
	base := len(m.konts)
	for {
		if m.err != nil {
			m.konts = m.konts[:base]
			return nil, m.err
		}
		m.steps++
		if m.steps&(checkEvery-1) == 0 {
			if err := m.ctx.Err(); err != nil {
				m.konts = m.konts[:base]
				return nil, &Error{Kind: ErrCanceled, Message: err.Error(), Cause: err}
			}
			if m.maxSteps > 0 && m.steps > m.maxSteps {
				m.konts = m.konts[:base]
				return nil, errorf(ErrStepLimit, "evaluation exceeded the budget of %d steps", m.maxSteps)
			}
		}
		if n := m.ctrl; n != nil {
			m.ctrl = nil
			n.eval(m)
			continue
		}
		if len(m.konts) == base {
			return m.val, nil
		}
		k := m.konts[len(m.konts)-1]
		m.konts[len(m.konts)-1] = nil
		m.konts = m.konts[:len(m.konts)-1]
		k.resume(m, m.val)
	}
}

// apply applies a function value to arguments: a partial application
// gives a new PAP, an exact one enters the function, an over-application
// enters it with the first arguments and pushes a frame that applies the
// result to the rest.
func (m *Machine) apply(fn Value, args []Value) {
	p, ok := fn.(*PAP)
	if !ok {
		m.fail(crash("apply: not a function: %T", fn))
		return
	}
	n := len(p.args) + len(args)
	if n < p.arity {
		m.ret(partial(p, args, n))
		return
	}
	// A closure without arguments yet whose body is atomic returns its
	// value at once (closure.value): an over-application of one goes on
	// with the rest of the arguments here, without a frame — the shape
	// of a class method's call, (dict.m) () x y. (An exact call of one
	// returns in closure.enter.)
	for n > p.arity && len(p.args) == 0 {
		c, ok := p.fn.(*closure)
		if !ok {
			break
		}
		v, ok := c.value(args[:p.arity])
		if !ok {
			break
		}
		args = args[p.arity:]
		if p, ok = v.(*PAP); !ok {
			m.fail(crash("apply: not a function: %T", v))
			return
		}
		n = len(p.args) + len(args)
		if n < p.arity {
			m.ret(partial(p, args, n))
			return
		}
	}
	if n == p.arity && len(p.args) > 0 {
		if c, ok := p.fn.(*closure); ok && c.code.ret == nil {
			// The PAP's arguments and these straight into the
			// environment (closure.enter without the copy in between).
			env := m.newEnv(max(c.code.slots, n))
			copyVals(env, p.args)
			copyVals(env[len(p.args):], args)
			m.env, m.caps, m.ctrl = env, c.caps, c.code.body
			return
		}
	}
	all := args
	var held *valBuf // holds all, given back once entered
	if len(p.args) > 0 {
		if n <= seqBuf {
			// The function enters all (a closure copies it into its
			// environment, a builtin keeps no argument slice) and the
			// over-application's rest is copied: a reused buffer can
			// hold it.
			held = m.bufFree.get()
			all = held[:0:n]
		} else {
			all = make([]Value, 0, n)
		}
		all = all[:n]
		copyVals(all, p.args)
		copyVals(all[len(p.args):], args)
	}
	if n > p.arity {
		// A copy: args may be a reused frame's values (releasesVals).
		m.push(m.overApp(all[p.arity:]))
		all = all[:p.arity:p.arity]
	}
	p.fn.enter(m, all)
	if held != nil {
		m.bufFree.put(held)
	}
}

// valBuf holds the values of a call or a sequence that are done with
// once it returns (Machine.bufFree): a buffer of its own rather than a
// sequence frame's, which is three times its size to clear.
type valBuf [seqBuf]Value

// partial returns the partial application of p to args, n arguments in
// all: the PAP and (when few) its arguments in one allocation.
func partial(p *PAP, args []Value, n int) *PAP {
	q, all := withValues[PAP](n)
	copyVals(all, p.args)
	copyVals(all[len(p.args):], args)
	*q = PAP{fn: p.fn, args: all, arity: p.arity}
	return q
}

// kOverApp applies the result of an over-application's call to the rest
// of its arguments, a copy held in buf when they are few. Once resumed,
// the frame goes back to the machine (Machine.overFree): apply copies
// what it keeps of rest.
type kOverApp struct {
	rest []Value
	buf  [overBuf]Value
}

const overBuf = 3

func (k *kOverApp) resume(m *Machine, v Value) {
	m.apply(v, k.rest)
	m.overFree.put(k)
}

// overApp returns a frame applying to a copy of rest: a frame a resumed
// over-application gave back, or a new one.
func (m *Machine) overApp(rest []Value) *kOverApp {
	k := m.overFree.get()
	if len(rest) <= overBuf {
		k.rest = k.buf[:len(rest):len(rest)]
		copyVals(k.rest, rest)
	} else {
		k.rest = slices.Clone(rest)
	}
	return k
}

// --- nodes ---

type nLoc struct{ i int }

func (n *nLoc) eval(m *Machine) { m.val = m.env[n.i] }

type nCap struct{ i int }

func (n *nCap) eval(m *Machine) { m.val = m.caps[n.i] }

type nConst struct{ v Value }

func (n *nConst) eval(m *Machine) { m.val = n.v }

// atomicVal returns the value of an atomic node (a variable, a constant
// or a top-level value already evaluated) without running the machine.
func atomicVal(m *Machine, n node) (Value, bool) {
	switch a := n.(type) {
	case *nLoc:
		return m.env[a.i], true
	case *nCap:
		return m.caps[a.i], true
	case *nConst:
		return a.v, true
	case *nTop:
		// What nTop.eval would return at once.
		if v := a.def.cached.Load(); v != nil {
			return *v, true
		}
	}
	return nil, false
}

// operand is a node of a sequence (an application's function and
// arguments, an op's arguments) with what atomicVal needs of it copied
// into the sequence's own array: reading an atomic operand then neither
// dereferences the node nor switches on its dynamic type, the cost of
// atomicVal on the machine's hottest paths (enterClosure, startSeq).
type operand struct {
	kind operandKind
	i    int32   // the slot of an opLoc or opCap
	v    Value   // the value of an opConst
	def  *topDef // the definition of an opTop
	n    node    // the node itself
}

type operandKind uint8

const (
	opNode  operandKind = iota // not atomic: needs the machine
	opLoc                      // an *nLoc
	opCap                      // an *nCap
	opConst                    // an *nConst
	opTop                      // an *nTop: atomic once its value is cached
	opPrim                     // a direct *nPrimCall: runs inline
	opOp                       // an *nOp that runs inline when its arguments are atomic (nOp.inline)
)

// operandOf returns n as an operand.
func operandOf(n node) operand {
	switch a := n.(type) {
	case *nLoc:
		return operand{kind: opLoc, i: int32(a.i), n: n}
	case *nCap:
		return operand{kind: opCap, i: int32(a.i), n: n}
	case *nConst:
		return operand{kind: opConst, v: a.v, n: n}
	case *nTop:
		return operand{kind: opTop, def: a.def, n: n}
	case *nPrimCall:
		if a.direct {
			return operand{kind: opPrim, n: n}
		}
	case *nOp:
		if a.inline {
			return operand{kind: opOp, n: n}
		}
	}
	return operand{kind: opNode, n: n}
}

// settled reports whether every operand is a variable or a constant:
// atomic whatever the machine's state (an opTop is atomic only once its
// value is cached).
func settled(ops []operand) bool {
	for i := range ops {
		if k := ops[i].kind; k != opLoc && k != opCap && k != opConst {
			return false
		}
	}
	return true
}

// operandsOf returns the operands of nodes.
func operandsOf(nodes []node) []operand {
	ops := make([]operand, len(nodes))
	for i, n := range nodes {
		ops[i] = operandOf(n)
	}
	return ops
}

// atomic is atomicVal(m, o.n).
func (o *operand) atomic(m *Machine) (Value, bool) {
	switch o.kind {
	case opLoc:
		return m.env[o.i], true
	case opCap:
		return m.caps[o.i], true
	case opConst:
		return o.v, true
	case opTop:
		if v := o.def.cached.Load(); v != nil {
			return *v, true
		}
	}
	return nil, false
}

// nClosure builds a closure capturing the values of caps.
type nClosure struct {
	code *lambda
	caps []operand
}

func (n *nClosure) eval(m *Machine) {
	// The PAP, its closure and (when few) the captured values in one
	// allocation.
	x, caps := withValues[papClosure](len(n.caps))
	p := &x.p
	x.c = closure{code: n.code, caps: caps}
	for i := range n.caps {
		caps[i], _ = n.caps[i].atomic(m)
	}
	*p = PAP{fn: &x.c, arity: n.code.arity}
	m.val = p
}

// papClosure is a closure and the PAP of it, allocated together.
type papClosure struct {
	p PAP
	c closure
}

// finisher consumes the values of a sequence of sub-expressions.
type finisher interface {
	finish(m *Machine, vals []Value)
}

type kSeq struct {
	nodes []operand
	vals  []Value
	i     int
	f     finisher
	env   []Value
	caps  []Value
	// buf holds vals when there are few and the finisher keeps no
	// reference to them (releasesVals). Once the sequence finished, the
	// frame goes back to the machine (Machine.seqFree) for the next one.
	buf [seqBuf]Value
}

// releasesVals reports whether f keeps no reference to the vals it
// finishes once finish returns: an application (apply copies what it
// keeps: a closure's environment, a partial application's arguments,
// an over-application's rest; builtins never keep their argument slice,
// see nPrimCall) and a direct op.
func releasesVals(f finisher) bool {
	switch f := f.(type) {
	case *nApp:
		return true
	case *nOp:
		return f.direct
	}
	return false
}

// maxFree bounds the frames a machine keeps for reuse, per free list
// (seqFree, overFree, matchFree, letFree, createFree).
const maxFree = 64

// freeList holds a machine's frames of one kind given back for reuse,
// cleared.
type freeList[T any] []*T

// get returns a frame given back, or a new one.
func (l *freeList[T]) get() *T {
	if n := len(*l); n > 0 {
		k := (*l)[n-1]
		(*l)[n-1] = nil
		*l = (*l)[:n-1]
		return k
	}
	return new(T)
}

// put gives back k, a frame no continuation refers to any more: cleared,
// so that it keeps nothing alive, and kept unless maxFree are already.
func (l *freeList[T]) put(k *T) {
	if len(*l) < maxFree {
		var zero T
		*k = zero
		*l = append(*l, k)
	}
}

// seqFrame returns a frame for a sequence of at most seqBuf values whose
// finisher releases them: a frame a finished sequence gave back, or a new
// one.
func (m *Machine) seqFrame() *kSeq { return m.seqFree.get() }

// releaseSeq gives back a reusable frame whose sequence finished.
func (m *Machine) releaseSeq(k *kSeq) { m.seqFree.put(k) }

const seqBuf = 4

// startSeq evaluates nodes right to left into a fresh vals, then calls
// f.finish. Atomic nodes are read and direct calls on atomic arguments
// run inline (inlineVal); one frame, reused for every other node, waits
// for the others, and holds the values when there are few (one
// allocation for both).
func startSeq(m *Machine, nodes []operand, f finisher) {
	// The values inlined before a frame is needed: on the stack while
	// they fit seqBuf, else in big, which becomes vals.
	var tmp [seqBuf]Value
	var big []Value
	if len(nodes) > seqBuf {
		big = make([]Value, len(nodes))
	}
	i := len(nodes) - 1
	for ; i >= 0; i-- {
		v, r := inlineVal(m, &nodes[i])
		if r == inlineGone {
			return
		}
		if r == notInline {
			break
		}
		if big != nil {
			big[i] = v
		} else {
			tmp[i] = v
		}
	}
	reuse := big == nil && releasesVals(f)
	if i < 0 {
		switch {
		case big != nil:
			f.finish(m, big)
		case reuse:
			// The values in a buffer given back after finish, rather
			// than a slice of their own.
			b := m.bufFree.get()
			vals := b[:len(nodes):len(nodes)]
			copyVals(vals, tmp[:len(nodes)])
			f.finish(m, vals)
			m.bufFree.put(b)
		default:
			vals := make([]Value, len(nodes))
			copyVals(vals, tmp[:len(nodes)])
			f.finish(m, vals)
		}
		return
	}
	// The frame is given back once the sequence finished: the values of
	// a finisher that keeps them (a record's fields …) are a slice of
	// their own, so that what it builds does not hold on to the frame
	// (and through it to the environment it saved).
	k := m.seqFrame()
	k.nodes, k.i, k.f, k.env, k.caps, k.vals = nodes, i, f, m.env, m.caps, big
	switch {
	case big != nil:
	case reuse:
		k.vals = k.buf[:len(nodes):len(nodes)]
		copyVals(k.vals, tmp[:len(nodes)])
	default:
		k.vals = make([]Value, len(nodes))
		copyVals(k.vals, tmp[:len(nodes)])
	}
	m.push(k)
	m.ctrl = nodes[i].n
}

type inlineResult uint8

const (
	notInline  inlineResult = iota // the node needs the machine
	inlined                        // the value is at hand
	inlineGone                     // the call failed or threw: the machine has moved on
)

// inlineVal returns the value of a node of a sequence when it can be had
// without running the machine: an atomic node's (atomicVal), or that of
// a direct builtin call or direct op on atomic arguments, run here
// (evalDirect).
func inlineVal(m *Machine, o *operand) (Value, inlineResult) {
	switch o.kind {
	case opLoc:
		return m.env[o.i], inlined
	case opCap:
		return m.caps[o.i], inlined
	case opConst:
		return o.v, inlined
	case opTop:
		if v := o.def.cached.Load(); v != nil {
			return *v, inlined
		}
	case opPrim, opOp:
		// evalDirect, its node's kind known at compile time.
		t := m.throws
		if o.kind == opPrim {
			o.n.(*nPrimCall).eval(m)
		} else {
			p := o.n.(*nOp)
			if !p.settled && !atomicNow(m, p.args) {
				return nil, notInline
			}
			p.runDirect(m)
		}
		if m.err != nil || m.throws != t {
			return nil, inlineGone
		}
		return m.val, inlined
	}
	return nil, notInline
}

// inlineable reports whether inlineVal would not need the machine for n.
func inlineable(m *Machine, o *operand) bool {
	if _, ok := o.atomic(m); ok {
		return true
	}
	switch o.kind {
	case opPrim:
		return true
	case opOp:
		return o.n.(*nOp).evalsDirect(m)
	}
	return false
}

// atomicNow reports whether every node is atomic now (atomicVal): unlike
// allAtomic it also accepts a top-level value already evaluated.
func atomicNow(m *Machine, nodes []operand) bool {
	for i := range nodes {
		if _, ok := nodes[i].atomic(m); !ok {
			return false
		}
	}
	return true
}

func (k *kSeq) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	k.vals[k.i] = v
	for k.i--; k.i >= 0; k.i-- {
		v, r := inlineVal(m, &k.nodes[k.i])
		if r == inlineGone {
			return
		}
		if r == inlined {
			k.vals[k.i] = v
			continue
		}
		m.push(k)
		m.ctrl = k.nodes[k.i].n
		return
	}
	k.f.finish(m, k.vals)
	m.releaseSeq(k)
}

// nApp is an application: the arguments right to left, then the function
// (which is ops[0]).
type nApp struct {
	ops []operand
	// settled reports that the arguments (ops[1:]) are all settled.
	settled bool
	// direct reports that the arguments are settled or top-level values
	// and fit a valBuf, and the function is not an opNode: when
	// enterClosure does not apply, applyDirect may.
	direct bool
	// known is the closure of the function, once seen, when the function
	// is a top-level value (an opTop) that enterClosure enters: a
	// top-level value is evaluated once per engine cache (its definition
	// is this node's), so the closure is the same at every call, and
	// reading it here saves loading the value, its PAP and the closure
	// through their pointers at every call — top-level functions are
	// the most called, and their values the coldest in the cache.
	known atomic.Pointer[closure]
}

// newApp returns the application of nodes[0] to nodes[1:].
func newApp(nodes []node) *nApp {
	ops := operandsOf(nodes)
	return &nApp{ops: ops, settled: settled(ops[1:]), direct: readable(ops[1:]) && len(ops)-1 <= seqBuf && ops[0].kind != opNode}
}

// readable reports whether every operand is a variable, a constant or a
// top-level value: reading any has no effect, and all are atomic once
// the top-level values are evaluated (atomicNow).
func readable(ops []operand) bool {
	for i := range ops {
		if k := ops[i].kind; k != opLoc && k != opCap && k != opConst && k != opTop {
			return false
		}
	}
	return true
}

func (n *nApp) eval(m *Machine) {
	if n.enterClosure(m) || n.direct && n.applyDirect(m) {
		return
	}
	startSeq(m, n.ops, n)
}

// applyDirect runs an application whose arguments are atomic now (of
// n.direct, they are variables, constants and top-level values already
// evaluated) and whose function's value is at hand without the machine
// (inlineVal: a top-level value, a dictionary's method projected, …):
// what startSeq and finish would do, without their sequence — the
// function's value, then apply on the arguments read into a buffer,
// given back once apply returned (apply keeps no argument slice).
// Reading such arguments has no effect, so reading them after the
// function, not before, makes no difference. It reports false, having
// done nothing, when an argument or the function needs the machine.
func (n *nApp) applyDirect(m *Machine) bool {
	if !n.settled && !atomicNow(m, n.ops[1:]) {
		return false
	}
	fv, r := inlineVal(m, &n.ops[0])
	switch r {
	case notInline:
		return false
	case inlineGone:
		return true
	}
	b := m.bufFree.get()
	args := b[:len(n.ops)-1]
	for j := range args {
		args[j], _ = n.ops[j+1].atomic(m)
	}
	m.apply(fv, args)
	m.bufFree.put(b)
	return true
}

// enterClosure runs an application whose function is atomic and a
// closure (without arguments yet) applied to exactly its arity, and
// whose arguments are inlineable: what startSeq, finish and apply would
// do, with the arguments evaluated right to left straight into the
// closure's environment. It reports false, having done nothing, for any
// other application.
func (n *nApp) enterClosure(m *Machine) bool {
	c := n.known.Load()
	if c == nil {
		fv, ok := n.ops[0].atomic(m)
		if !ok {
			return false
		}
		p, ok := fv.(*PAP)
		if !ok || len(p.args) != 0 || p.arity != len(n.ops)-1 {
			return false
		}
		if c, ok = p.fn.(*closure); !ok {
			return false
		}
		if n.ops[0].kind == opTop {
			n.known.Store(c)
		}
	}
	args := n.ops[1:]
	arity := len(args)
	if n.settled {
		if o := c.code.ret; o != nil {
			// An atomic body (closure.value): its value without an
			// environment; the arguments, variables and constants, need
			// no evaluating.
			if o.kind == opLoc {
				m.val, _ = args[o.i].atomic(m)
				return true
			}
			if v, ok := c.value(nil); ok {
				m.val = v
				return true
			}
		}
		// Variables and constants: read straight into the environment.
		env := m.newEnv(max(c.code.slots, arity))
		for j := range args {
			env[j], _ = args[j].atomic(m)
		}
		m.env, m.caps, m.ctrl = env, c.caps, c.code.body
		return true
	}
	for i := range args {
		if !inlineable(m, &args[i]) {
			return false
		}
	}
	env := m.newEnv(max(c.code.slots, arity))
	for j := len(args) - 1; j >= 0; j-- {
		v, r := inlineVal(m, &args[j])
		if r == inlineGone {
			return true
		}
		env[j] = v
	}
	m.env, m.caps, m.ctrl = env, c.caps, c.code.body
	return true
}

func (n *nApp) finish(m *Machine, vals []Value) { m.apply(vals[0], vals[1:]) }

// nOp evaluates its arguments right to left, then runs op.
type nOp struct {
	args []operand
	op   func(m *Machine, vals []Value)
	// direct marks an op (directOp) that returns, fails or throws at once
	// (it calls no function and pushes no frame) and keeps no reference
	// to vals: with atomic arguments it runs inline, on m.opScratch.
	direct bool
	// inline marks a direct op whose arguments fit m.opScratch; settled
	// one whose arguments are all settled (no atomicNow needed).
	inline, settled bool
}

// newOp returns the op f on args (direct: see nOp.direct).
func newOp(args []node, f func(m *Machine, vals []Value), direct bool) *nOp {
	ops := operandsOf(args)
	return &nOp{args: ops, op: f, direct: direct, inline: direct && len(ops) <= len(scratch{}), settled: settled(ops)}
}

func (n *nOp) eval(m *Machine) {
	if n.evalsDirect(m) {
		n.runDirect(m)
		return
	}
	startSeq(m, n.args, n)
}

// evalsDirect reports whether n runs inline now: a direct op whose
// arguments are all atomic and fit m.opScratch.
func (n *nOp) evalsDirect(m *Machine) bool {
	return n.inline && (n.settled || atomicNow(m, n.args))
}

// runDirect runs a direct op on its atomic arguments (evalsDirect).
func (n *nOp) runDirect(m *Machine) {
	a := m.opScratch[:len(n.args)]
	for i := range n.args {
		a[i], _ = n.args[i].atomic(m)
	}
	n.op(m, a)
	clear(a)
}

func (n *nOp) finish(m *Machine, vals []Value) { n.op(m, vals) }

// nLet evaluates bound, stores it in slot, then continues with body.
type nLet struct {
	bound node
	slot  int
	body  node
	op    operand // bound's
}

// newLet returns let slot = bound in body.
func newLet(bound node, slot int, body node) *nLet {
	return &nLet{bound: bound, slot: slot, body: body, op: operandOf(bound)}
}

func (n *nLet) eval(m *Machine) {
	switch v, r := inlineVal(m, &n.op); r {
	case inlined:
		m.env[n.slot] = v
		m.ctrl = n.body
		return
	case inlineGone:
		return
	}
	k := m.letFree.get()
	k.n, k.env, k.caps = n, m.env, m.caps
	m.push(k)
	m.ctrl = n.bound
}

type kLet struct {
	n    *nLet
	env  []Value
	caps []Value
}

// resume binds v; the frame then goes back to the machine
// (Machine.letFree) for the next let.
func (k *kLet) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	m.env[k.n.slot] = v
	m.ctrl = k.n.body
	m.letFree.put(k)
}

// nTop is a reference to a top-level value, evaluated at most once per
// engine cache (failures are not cached).
type nTop struct{ def *topDef }

func (n *nTop) eval(m *Machine) {
	d := n.def
	if v := d.cached.Load(); v != nil {
		m.val = *v
		return
	}
	body, slots, err := d.compiled(m.e)
	if err != nil {
		m.fail(err)
		return
	}
	m.push(&kCacheVal{def: d, env: m.env, caps: m.caps})
	m.env, m.caps, m.ctrl = m.newEnv(slots), nil, body
}

type kCacheVal struct {
	def  *topDef
	env  []Value
	caps []Value
}

func (k *kCacheVal) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	k.def.cached.Store(&v)
	m.val = v
}
