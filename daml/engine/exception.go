package engine

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// ArithmeticErrorID is the stable type of the exceptions the arithmetic
// builtins throw.
var ArithmeticErrorID = lf.TypeConID{
	PackageID: "ee33fb70918e7aaa3d3fc44d64a399fb2bf5bcefc54201b1690ecd448551ba88",
	Module:    "DA.Exception.ArithmeticError",
	Name:      "ArithmeticError",
}

var arithmeticErrorType = &RecordType{ID: ArithmeticErrorID, Fields: []string{"message"}}

// arithmeticError throws ArithmeticError with the message
// "ArithmeticError while evaluating (<name> <args>).".
func (m *Machine) arithmeticError(name string, args []Value) {
	msg := "ArithmeticError while evaluating (" + name
	for _, a := range args {
		msg += " " + argText(a)
	}
	msg += ")."
	m.throw(&Any{Type: &lf.TCon{ID: ArithmeticErrorID}, Value: &Record{Type: arithmeticErrorType, Fields: []Value{Text(msg)}}})
}

func argText(v Value) string {
	switch x := v.(type) {
	case Int64:
		return int64Text(int64(x))
	case Numeric:
		return x.String()
	case Timestamp:
		return timestampText(int64(x))
	case Date:
		return dateText(int32(x))
	case Text:
		return string(x)
	}
	return "?"
}

// throw raises a Daml exception: the continuation stack unwinds to the
// nearest try handler. A prevent-catch marker, or the bottom of the
// stack, makes it unhandled: its message is computed and the evaluation
// fails with FailureStatus UNHANDLED_EXCEPTION/<Module>:<Name>.
func (m *Machine) throw(exc *Any) {
	m.throws++
	for len(m.konts) > 0 {
		k := m.konts[len(m.konts)-1]
		m.konts[len(m.konts)-1] = nil
		m.konts = m.konts[:len(m.konts)-1]
		switch h := k.(type) {
		case *kTry:
			h.catch(m, exc)
			return
		case kPreventCatch:
			m.unhandled(exc)
			return
		case *kUnhandledMsg:
			m.fail(h.failure("<Failed to calculate message as " + exceptionName(exc) + " was thrown during conversion>"))
			return
		case unwinder:
			h.unwind(m)
		}
	}
	m.unhandled(exc)
}

// unwinder is a frame that must act when an exception passes it (an open
// exercise closes without a result).
type unwinder interface {
	unwind(m *Machine)
}

// kPreventCatch marks evaluations whose exceptions no try may catch.
type kPreventCatch struct{}

func (kPreventCatch) resume(m *Machine, v Value) { m.ret(v) }

func exceptionName(exc *Any) string {
	if tc, ok := exc.Type.(*lf.TCon); ok {
		return tc.ID.Module + ":" + tc.ID.Name
	}
	return exc.Type.String()
}

func (m *Machine) unhandled(exc *Any) {
	m.push(&kUnhandledMsg{exc: exc})
	m.exceptionMessage(exc)
}

type kUnhandledMsg struct{ exc *Any }

func (k *kUnhandledMsg) failure(msg string) *Error {
	return &Error{
		Kind:      ErrFailureStatus,
		ErrorID:   "UNHANDLED_EXCEPTION/" + exceptionName(k.exc),
		Category:  9,
		Message:   msg,
		Exception: k.exc,
	}
}

func (k *kUnhandledMsg) resume(m *Machine, v Value) {
	t, _ := v.(Text)
	m.fail(k.failure(string(t)))
}

// exceptionMessage computes the message of an exception value: the
// message field of ArithmeticError, otherwise the exception definition's
// message function applied to the record.
func (m *Machine) exceptionMessage(exc *Any) {
	tc, ok := exc.Type.(*lf.TCon)
	if !ok {
		m.fail(crash("exception of type %s", exc.Type))
		return
	}
	if tc.ID == ArithmeticErrorID {
		r, ok := exc.Value.(*Record)
		if !ok || len(r.Fields) == 0 {
			m.fail(crash("malformed ArithmeticError"))
			return
		}
		m.ret(r.Fields[0])
		return
	}
	id := tc.ID
	d := m.e.def(defKey{kind: defExceptionMessage, id: id}, func(e *Engine) (lf.Expr, *Error) {
		mod, err := e.module(id)
		if err != nil {
			return nil, err
		}
		x := mod.Exception(id.Name)
		if x == nil || x.Message == nil {
			return nil, errorf(ErrPackage, "unknown exception %s", id)
		}
		return x.Message, nil
	})
	m.callDef(d, exc.Value)
}

// callDef applies the value of a compiled definition to arguments.
func (m *Machine) callDef(d *topDef, args ...Value) {
	if v := d.cached.Load(); v != nil {
		m.apply(*v, args)
		return
	}
	m.push(&kApplyTo{args: args})
	m.ctrl = &nTop{def: d}
}

type kApplyTo struct{ args []Value }

func (k *kApplyTo) resume(m *Machine, v Value) { m.apply(v, k.args) }

// nTry runs body (the try part applied to the token) under a handler.
type nTry struct {
	body    node
	slot    int
	handler node
	tok     node
}

func (n *nTry) eval(m *Machine) {
	k := &kTry{n: n, env: m.env, caps: m.caps}
	if m.tx != nil {
		m.tx.b.BeginTry()
	}
	m.push(k)
	m.ctrl = n.body
}

type kTry struct {
	n    *nTry
	env  []Value
	caps []Value
}

func (k *kTry) resume(m *Machine, v Value) {
	if m.tx != nil {
		if err := m.tx.b.EndTry(); err != nil {
			m.fail(txError(err))
			return
		}
	}
	m.ret(v)
}

func (k *kTry) catch(m *Machine, exc *Any) {
	m.env, m.caps = k.env, k.caps
	if m.tx != nil {
		if err := m.tx.b.RollbackTry(); err != nil {
			m.fail(txError(err))
			return
		}
	}
	m.env[k.n.slot] = exc
	tok, _ := atomicVal(m, k.n.tok)
	m.push(&kCatch{exc: exc, tok: tok})
	m.ctrl = k.n.handler
}

type kCatch struct {
	exc *Any
	tok Value
}

func (k *kCatch) resume(m *Machine, v Value) {
	o, ok := v.(Optional)
	if !ok {
		m.fail(crash("try handler returned %T", v))
		return
	}
	if o.Value == nil {
		m.throw(k.exc)
		return
	}
	m.apply(o.Value, []Value{k.tok})
}
