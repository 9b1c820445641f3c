package engine

import (
	"context"
	"sync"
	"sync/atomic"

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
	// Override, if set, is asked once per top-level value when the value
	// is first compiled; when it returns ok, the value is replaced by v
	// (the Daml Script runner replaces
	// Daml.Script.Internal.LowLevel:dangerousCast by Identity()).
	Override func(ref lf.TypeConID) (v Value, ok bool)
	// OffLedger makes CONTRACT_ID_TO_TEXT return Some (Daml Script and
	// other off-ledger machines); on ledger it returns None.
	OffLedger bool
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
// and the values of top-level definitions (engine-wide, like Speedy's
// compiled packages); it is safe for concurrent use.
type Engine struct {
	src     PackageSource
	opts    Options
	defsMu  sync.RWMutex
	defs    map[defKey]*topDef
	records sync.Map // lf.TypeConID → *RecordType
}

// New returns an engine reading packages from src.
func New(src PackageSource, opts Options) *Engine {
	return &Engine{src: src, opts: opts}
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

// topDef is a compiled top-level definition with its cached value.
type topDef struct {
	key    defKey
	expr   func(e *Engine) (lf.Expr, *Error)
	once   sync.Once
	body   node
	slots  int
	err    *Error
	cached atomic.Pointer[Value]
}

func (d *topDef) compiled(e *Engine) (node, int, *Error) {
	d.once.Do(func() {
		if d.key.kind == defValue && e.opts.Override != nil {
			if v, ok := e.opts.Override(d.key.id); ok {
				d.body, d.slots = &nConst{v: v}, 0
				return
			}
		}
		x, err := d.expr(e)
		if err != nil {
			d.err = err
			return
		}
		c := &compiler{e: e}
		s := &scope{}
		d.body = c.expr(s, x)
		d.slots, d.err = s.max, c.err
	})
	return d.body, d.slots, d.err
}

func (e *Engine) def(k defKey, expr func(e *Engine) (lf.Expr, *Error)) *topDef {
	if d := e.cachedDef(k); d != nil {
		return d
	}
	e.defsMu.Lock()
	defer e.defsMu.Unlock()
	if d := e.defs[k]; d != nil {
		return d
	}
	if e.defs == nil {
		e.defs = map[defKey]*topDef{}
	}
	d := &topDef{key: k, expr: expr}
	e.defs[k] = d
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
	return e.def(defKey{kind: defValue, id: ref}, func(e *Engine) (lf.Expr, *Error) {
		m, err := e.module(ref)
		if err != nil {
			return nil, err
		}
		v := m.Value(ref.Name)
		if v == nil || v.Expr == nil {
			return nil, errorf(ErrPackage, "unknown value %s", ref)
		}
		return v.Expr, nil
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

// recordType returns the shared RecordType of a record data type.
func (e *Engine) recordType(id lf.TypeConID) (*RecordType, *Error) {
	if rt, ok := e.records.Load(id); ok {
		return rt.(*RecordType), nil
	}
	dt, err := e.dataType(id)
	if err != nil {
		return nil, err
	}
	if dt.Variety != lf.RecordVariety {
		return nil, errorf(ErrPackage, "%s is not a record type", id)
	}
	names := make([]string, len(dt.Fields))
	for i, f := range dt.Fields {
		names[i] = f.Name
	}
	rt, _ := e.records.LoadOrStore(id, &RecordType{ID: id, Fields: names})
	return rt.(*RecordType), nil
}

// EvalValue evaluates the top-level value ref (at most once per engine:
// later calls return the cached value).
func (e *Engine) EvalValue(ctx context.Context, ref lf.TypeConID) (Value, error) {
	m := e.newMachine(ctx)
	m.ctrl = &nTop{def: e.valueDef(ref)}
	return m.result()
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
	return m.result()
}

// Apply applies a function value to arguments and evaluates the result.
func (e *Engine) Apply(ctx context.Context, fn Value, args ...Value) (Value, error) {
	m := e.newMachine(ctx)
	m.ctrl = &nApplyValue{fn: fn, args: args}
	return m.result()
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
