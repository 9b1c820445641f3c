package engine

import (
	"context"
	"maps"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// PackageSource gives the engine the packages it runs. Package returns
// nil when the package is unknown. It must be safe for concurrent use.
type PackageSource interface {
	Package(id string) *lf.Package
}

// PackageMap is a PackageSource over a map from package id to package.
type PackageMap map[string]*lf.Package

// Package returns p[id].
func (p PackageMap) Package(id string) *lf.Package { return p[id] }

// DefaultMaxSteps is the step budget of an evaluation when
// Options.MaxSteps is zero.
const DefaultMaxSteps = 200_000_000

// Options configure an Engine.
type Options struct {
	// MaxSteps bounds the machine steps of one evaluation (a submission);
	// past it the evaluation fails with ErrStepLimit. Zero means
	// DefaultMaxSteps, a negative value means no limit.
	MaxSteps int64
	// Trace receives the messages of the TRACE builtin; nil drops them.
	Trace func(msg string)
	// TraceContext, if set, receives them instead, with the context of
	// the evaluation that traced (whose values can tell evaluations on
	// one engine apart: the Daml Script runner's scripts).
	TraceContext func(ctx context.Context, msg string)
	// Override, if set, is asked once per top-level value when the value
	// is first compiled; when it returns ok, the value is replaced by v
	// (the Daml Script runner replaces
	// Daml.Script.Internal.LowLevel:dangerousCast by Identity()).
	Override func(ref lf.TypeConID) (v Value, ok bool)
	// OffLedger makes CONTRACT_ID_TO_TEXT return Some (Daml Script and
	// other off-ledger machines); on ledger it returns None.
	OffLedger bool
	// NoListJets makes the engine interpret the list functions of
	// daml-prim and daml-stdlib that have a native implementation with the
	// same results (ListJet): for differential tests.
	NoListJets bool
	// Cache, if set, holds the engine's compiled definitions and the
	// values of its top-level definitions, shared with the other engines
	// given the same Cache (nil: the engine has a cache of its own). An
	// engine with an Override does not use it: its compiled code is its
	// own.
	Cache *Cache
}

func (o *Options) maxSteps() int64 {
	switch {
	case o.MaxSteps == 0:
		return DefaultMaxSteps
	case o.MaxSteps < 0:
		return 0
	}
	return o.MaxSteps
}

// Engine compiles and evaluates Daml-LF. It caches compiled definitions
// and the values of top-level definitions (in its Options.Cache, like
// Speedy's compiled packages); it is safe for concurrent use.
type Engine struct {
	src  PackageSource
	opts Options
	c    *compiled
	// sharedCache reports that c is an Options.Cache's, shared with
	// other engines (and kept by them): ArgMemo keeps values for it.
	sharedCache bool
	// defs and records are the definitions and record types the engine
	// has looked up, each after finding its package in src: they come
	// from c, which other engines may have filled.
	defsMu  sync.RWMutex
	defs    map[defKey]*topDef
	records byName[*RecordType]
	// values are the top-level values the engine has looked up (as defs
	// has them), for valueDef's lookups at run time.
	values byName[*topDef]
	// creates are what creates of a template look up (createDefs).
	creates byName[*createDefs]
	// machines are idle machines of finished evaluations, kept with
	// their frame free lists and continuation stack (newMachine): the
	// Daml Script runner evaluates once per question.
	machines sync.Pool
	// frames are the machines of finished submissions (submitRun), with
	// their frame free lists and environment blocks, for the next
	// submissions (Submit).
	frames sync.Pool
	// fmapMemo is the fmap method of the Functor dictionary the script
	// jets last asked (fmapDict).
	fmapMemo atomic.Pointer[dictMemo]
	// parties hold Party values converted from ledger values
	// (fromLedgerValue), each as a keptParty in the slot its length and
	// first byte pick (party): a Party in an interface is an allocation
	// of its own, and submissions name the same few parties again and
	// again.
	parties [8]atomic.Value
	// self is a weak pointer to the engine, made once (New): the key of
	// its validations in the contracts' memos (argmemo.go), looked up at
	// every fetch of a ledger contract.
	self weak.Pointer[Engine]
}

// Cache holds compiled definitions and the values of top-level
// definitions for the engines that share it (Options.Cache), so that a
// definition is compiled and a top-level value evaluated once for all of
// them. A Cache is safe for concurrent use; it keeps what it holds for
// its lifetime.
//
// Engines sharing a Cache must agree on what a package id names: a
// definition compiled from package P by one engine serves every engine
// whose PackageSource gives P. That holds when package ids are the hashes
// of the packages, as Daml-LF package ids are (and not for hand-made
// packages given made-up ids in tests). It does not share package
// visibility: an engine uses a definition of the cache only after
// finding the definition's package in its own PackageSource, and answers
// "unknown package" otherwise, whatever other engines have compiled.
//
// A top-level value is evaluated once per Cache: a TRACE in its
// evaluation reaches the Options.Trace of the engine that evaluated it
// first. Engines on and off ledger (Options.OffLedger) share a Cache but
// not its contents.
type Cache struct {
	onLedger, offLedger compiled
}

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{} }

// compiled is the cache of the engines of one kind (on or off ledger).
type compiled struct {
	defsMu  sync.RWMutex
	defs    map[defKey]*topDef
	records sync.Map // lf.TypeConID → *RecordType
}

// New returns an engine reading packages from src.
func New(src PackageSource, opts Options) *Engine {
	e := &Engine{src: src, opts: opts}
	e.self = weak.Make(e)
	switch {
	case opts.Cache == nil || opts.Override != nil || opts.NoListJets:
		e.c = &compiled{}
	case opts.OffLedger:
		e.c, e.sharedCache = &opts.Cache.offLedger, true
	default:
		e.c, e.sharedCache = &opts.Cache.onLedger, true
	}
	return e
}

type defKind uint8

const (
	defValue defKind = iota
	defExceptionMessage
	defTemplatePart // a = part ("precond", "signatories", "observers")
	defMethod       // iface, a = method
	defView         // iface
	defClosed       // an expression given to Eval (not cached by key)
	defChoicePart   // a = choice, b = part
)

type defKey struct {
	kind  defKind
	id    lf.TypeConID
	iface lf.TypeConID
	a     string
	b     string
}

// topDef is a compiled top-level definition with its cached value. A
// compile failure is not kept: another engine (whose PackageSource has a
// package this one's lacks) or a later call compiles it again.
type topDef struct {
	key    defKey
	expr   func(e *Engine) (lf.Expr, *Error)
	mu     sync.Mutex
	done   atomic.Bool
	body   node
	slots  int
	cached atomic.Pointer[Value]
	// dict is the last dictionary a dictionary function built (nDictApp).
	dict atomic.Pointer[dictMemo]
}

func (d *topDef) compiled(e *Engine) (node, int, *Error) {
	if d.done.Load() {
		return d.body, d.slots, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done.Load() {
		return d.body, d.slots, nil
	}
	if d.key.kind == defValue {
		if v, ok := e.native(d.key.id); ok {
			d.body, d.slots = &nConst{v: v}, 0
			d.done.Store(true)
			return d.body, d.slots, nil
		}
	}
	x, err := d.expr(e)
	if err != nil {
		return nil, 0, err
	}
	c := &compiler{e: e}
	s := &scope{}
	body := c.expr(s, x)
	if c.err != nil {
		return nil, 0, c.err
	}
	d.body, d.slots = body, s.max
	d.done.Store(true)
	return d.body, d.slots, nil
}

// native returns the value that replaces the top-level value ref, if
// any: Options.Override's, else its list jet (ListJet) unless
// Options.NoListJets.
func (e *Engine) native(ref lf.TypeConID) (Value, bool) {
	if e.opts.Override != nil {
		if v, ok := e.opts.Override(ref); ok {
			return v, true
		}
	}
	if e.opts.NoListJets {
		return nil, false
	}
	return ListJet(e.src.Package, ref)
}

// def returns the definition of k, made with expr on first use in the
// engine's cache. A definition the engine has not used yet is taken from
// the cache only once the engine's PackageSource has its package (and
// the interface's): until then the engine answers with a definition that
// fails with "unknown package", kept by no one.
func (e *Engine) def(k defKey, expr func(e *Engine) (lf.Expr, *Error)) *topDef {
	if d := e.cachedDef(k); d != nil {
		return d
	}
	if err := e.visible(k); err != nil {
		return &topDef{key: k, expr: func(*Engine) (lf.Expr, *Error) { return nil, err }}
	}
	d := e.c.def(k, expr)
	e.defsMu.Lock()
	defer e.defsMu.Unlock()
	if e.defs == nil {
		e.defs = map[defKey]*topDef{}
	}
	e.defs[k] = d
	return d
}

// visible returns an ErrPackage error unless the engine's PackageSource
// has the packages of k.
func (e *Engine) visible(k defKey) *Error {
	for _, id := range [2]string{k.id.PackageID, k.iface.PackageID} {
		if id != "" && e.src.Package(id) == nil {
			return errorf(ErrPackage, "unknown package %s", id)
		}
	}
	return nil
}

func (c *compiled) def(k defKey, expr func(e *Engine) (lf.Expr, *Error)) *topDef {
	c.defsMu.RLock()
	d := c.defs[k]
	c.defsMu.RUnlock()
	if d != nil {
		return d
	}
	c.defsMu.Lock()
	defer c.defsMu.Unlock()
	if d := c.defs[k]; d != nil {
		return d
	}
	if c.defs == nil {
		c.defs = map[defKey]*topDef{}
	}
	d = &topDef{key: k, expr: expr}
	c.defs[k] = d
	return d
}

// cachedDef returns the definition of k if def has made it, else nil. The
// hot callers look here first, so that a cache hit builds no closure.
func (e *Engine) cachedDef(k defKey) *topDef {
	e.defsMu.RLock()
	d := e.defs[k]
	e.defsMu.RUnlock()
	return d
}

func (e *Engine) valueDef(ref lf.TypeConID) *topDef {
	d, _ := e.valueDefKept(ref)
	return d
}

// valueDefKept is valueDef, reporting whether the engine keeps the
// definition (a definition whose package the engine lacks is not, and is
// looked up again).
func (e *Engine) valueDefKept(ref lf.TypeConID) (*topDef, bool) {
	if d := e.values.load(ref); d != nil {
		return d, true
	}
	d := e.newValueDef(ref)
	if e.cachedDef(defKey{kind: defValue, id: ref}) == d {
		e.values.loadOrStore(ref, d)
		return d, true
	}
	return d, false
}

// newValueDef is valueDef's cache miss (apart, so that a hit, which the
// call-stack jets make at every call, does not allocate the closure that
// captures ref).
//
//go:noinline
func (e *Engine) newValueDef(ref lf.TypeConID) *topDef {
	return e.def(defKey{kind: defValue, id: ref}, func(e *Engine) (lf.Expr, *Error) {
		m, err := e.module(ref)
		if err != nil {
			return nil, err
		}
		v := m.Value(ref.Name)
		if v == nil || v.Body() == nil {
			return nil, errorf(ErrPackage, "unknown value %s", ref)
		}
		return v.Body(), nil
	})
}

func (e *Engine) module(id lf.TypeConID) (*lf.Module, *Error) {
	p := e.src.Package(id.PackageID)
	if p == nil {
		return nil, errorf(ErrPackage, "unknown package %s", id.PackageID)
	}
	m := p.Module(id.Module)
	if m == nil {
		return nil, errorf(ErrPackage, "unknown module %s:%s", id.PackageID, id.Module)
	}
	return m, nil
}

func (e *Engine) dataType(id lf.TypeConID) (*lf.DataType, *Error) {
	m, err := e.module(id)
	if err != nil {
		return nil, err
	}
	dt := m.DataType(id.Name)
	if dt == nil {
		return nil, errorf(ErrPackage, "unknown data type %s", id)
	}
	return dt, nil
}

func (e *Engine) template(id lf.TypeConID) (*lf.Template, *Error) {
	m, err := e.module(id)
	if err != nil {
		return nil, err
	}
	t := m.Template(id.Name)
	if t == nil {
		return nil, errorf(ErrPackage, "unknown template %s", id)
	}
	return t, nil
}

// templateChoice returns choice of template t (ErrPackage for an unknown
// template or choice).
func (e *Engine) templateChoice(t lf.TypeConID, choice string) (*lf.Choice, *Error) {
	tpl, err := e.template(t)
	if err != nil {
		return nil, err
	}
	ch := tpl.Choice(choice)
	if ch == nil {
		return nil, errorf(ErrPackage, "template %s has no choice %s", t, choice)
	}
	return ch, nil
}

// recordType returns the shared RecordType of a record data type (the
// engine's cache's, once the engine's PackageSource has the type).
func (e *Engine) recordType(id lf.TypeConID) (*RecordType, *Error) {
	if rt := e.records.load(id); rt != nil {
		return rt, nil
	}
	dt, err := e.dataType(id)
	if err != nil {
		return nil, err
	}
	if dt.Variety != lf.RecordVariety {
		return nil, errorf(ErrPackage, "%s is not a record type", id)
	}
	rt, ok := e.c.records.Load(id)
	if !ok {
		names := make([]string, len(dt.Fields))
		for i, f := range dt.Fields {
			names[i] = f.Name
		}
		rt, _ = e.c.records.LoadOrStore(id, &RecordType{ID: id, Fields: names})
	}
	return e.records.loadOrStore(id, rt.(*RecordType)), nil
}

// byName is a map from type ids (of record types, of top-level values)
// to V, for an engine's lookups that happen at run time. It is keyed by
// the id's name alone, which is short and cheap to hash (a type id's
// package id is 64 hex digits, a defKey holds two ids); the few ids of
// one name in other modules or packages (an upgraded package's) are
// chained, and every lookup compares the whole id. Lookups read a map
// that never changes once published (read), without a lock: every
// submission looks up its records and creates, from many goroutines at
// once, and a read lock's count is written by each of them. New entries
// go to a copy (dirty) under mu, published once lookups have missed read
// as many times as dirty has names (as sync.Map does), so that the copies
// cost no more than the misses. The zero value is empty and ready for
// use.
type byName[V comparable] struct {
	read atomic.Pointer[map[string]*byNameEntry[V]]
	mu   sync.Mutex
	// dirty, when not nil, holds read's entries and those stored since
	// read was published; misses counts the lookups that missed read
	// since then.
	dirty  map[string]*byNameEntry[V]
	misses int
}

// byNameEntry is an entry of a byName, with the next one of the same
// name. Entries are never changed once in a map (read and dirty share
// them).
type byNameEntry[V comparable] struct {
	id   lf.TypeConID
	v    V
	next *byNameEntry[V]
}

// find returns the value of id in m's chains, and whether there is one.
func find[V comparable](m map[string]*byNameEntry[V], id lf.TypeConID) (V, bool) {
	for x := m[id.Name]; x != nil; x = x.next {
		if x.id == id {
			return x.v, true
		}
	}
	var zero V
	return zero, false
}

// load returns the value of id, the zero V when there is none.
func (r *byName[V]) load(id lf.TypeConID) V {
	if m := r.read.Load(); m != nil {
		if v, ok := find(*m, id); ok {
			return v
		}
	}
	return r.loadDirty(id)
}

// loadDirty is load of an id not in read when load looked.
func (r *byName[V]) loadDirty(id lf.TypeConID) V {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dirty == nil {
		// read has every entry (and may be newer than load's).
		var zero V
		if m := r.read.Load(); m != nil {
			v, _ := find(*m, id)
			return v
		}
		return zero
	}
	v, _ := find(r.dirty, id)
	if r.misses++; r.misses >= len(r.dirty) {
		d := r.dirty
		r.read.Store(&d)
		r.dirty, r.misses = nil, 0
	}
	return v
}

// loadOrStore keeps v as the value of id unless there is one, and returns
// the one kept.
func (r *byName[V]) loadOrStore(id lf.TypeConID, v V) V {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dirty == nil {
		r.dirty = make(map[string]*byNameEntry[V])
		if m := r.read.Load(); m != nil {
			maps.Copy(r.dirty, *m)
		}
	}
	first := r.dirty[id.Name]
	for x := first; x != nil; x = x.next {
		if x.id == id {
			return x.v
		}
	}
	r.dirty[id.Name] = &byNameEntry[V]{id: id, v: v, next: first}
	return v
}

// EvalValue evaluates the top-level value ref (at most once per engine
// cache: later calls return the cached value).
func (e *Engine) EvalValue(ctx context.Context, ref lf.TypeConID) (Value, error) {
	m := e.newMachine(ctx)
	m.ctrl = &nTop{def: e.valueDef(ref)}
	return e.runOnce(m)
}

// Eval evaluates a closed expression (its free variables are an error).
func (e *Engine) Eval(ctx context.Context, x lf.Expr) (Value, error) {
	d := &topDef{key: defKey{kind: defClosed}, expr: func(*Engine) (lf.Expr, *Error) { return x, nil }}
	body, slots, err := d.compiled(e)
	if err != nil {
		return nil, err
	}
	m := e.newMachine(ctx)
	m.env, m.ctrl = make([]Value, slots), body
	return e.runOnce(m)
}

// Apply applies a function value to arguments and evaluates the result.
func (e *Engine) Apply(ctx context.Context, fn Value, args ...Value) (Value, error) {
	m := e.newMachine(ctx)
	m.ctrl = &nApplyValue{fn: fn, args: args}
	return e.runOnce(m)
}

// nApplyValue applies a function value to argument values.
type nApplyValue struct {
	fn   Value
	args []Value
}

func (n *nApplyValue) eval(m *Machine) { m.apply(n.fn, n.args) }

// Identity returns the identity function value (arity 1).
func Identity() Value { return identityPAP }

var identityPAP = &PAP{fn: &builtin{name: "identity", arity: 1, fn: func(m *Machine, a []Value) { m.ret(a[0]) }}, arity: 1}

// result runs the machine and returns its value. A Go panic inside a
// builtin (a value of an unexpected shape, which well-typed code never
// produces) becomes an ErrInternal error.
func (m *Machine) result() (v Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, crash("internal error: %v", r)
		}
	}()
	v, err = m.run()
	if err != nil {
		return nil, err
	}
	return v, nil
}

// NewRecord builds a record of the record type id with the fields in
// declaration order.
func (e *Engine) NewRecord(id lf.TypeConID, fields ...Value) (*Record, error) {
	rt, err := e.recordType(id)
	if err != nil {
		return nil, err
	}
	if len(fields) != len(rt.Fields) {
		return nil, errorf(ErrPackage, "record %s has %d fields, got %d", id, len(rt.Fields), len(fields))
	}
	return &Record{Type: rt, Fields: fields}, nil
}
