package engine

import (
	"strings"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// An instance with a constraint (instance Functor f => Action (Free f))
// is compiled by damlc to a dictionary function, a top-level value named
// $f… from the constraint's dictionary to the instance's: a type-class
// dictionary is a struct (of a type synonym) of the class's methods. Its
// body builds that struct, closures over the argument, and code that
// recurses through the instance builds it again at every step: Daml
// Script's Free monad (>>= of Free f calls >>= of Free f through
// $fActionFree dFunctor) builds one per bind.
//
// The engine keeps the last dictionary a dictionary function built, with
// the argument it was built from, and gives it again for the same
// argument (the same struct, by identity): the function is closed and
// its argument immutable, so the result is the same value. Only a result
// is kept: a failure is evaluated again at the next call. A TRACE in an
// instance's dictionary (not in its methods, which run when called) is
// then output once per argument, as a top-level value's is once.

// dictMemo is a dictionary function's last argument and result.
type dictMemo struct {
	arg, res Value
}

// isDictFunction reports whether the top-level value def (named name) is
// a dictionary function of one constraint: named $f… (damlc's name for
// instance dictionaries, "$$f" in Daml-LF's escaping), of type
// forall … . C1 … -> C2 … where C1 and C2 are type synonyms (class
// dictionaries).
func isDictFunction(name string, def *lf.DefValue) bool {
	if !strings.HasPrefix(name, "$$f") || def == nil {
		return false
	}
	t := def.Type
	for {
		f, ok := t.(*lf.TForall)
		if !ok {
			break
		}
		t = f.Body
	}
	head, args := lf.SplitApp(t)
	if b, ok := head.(*lf.TBuiltin); !ok || b.Builtin != lf.BuiltinArrow || len(args) != 2 {
		return false
	}
	_, from := args[0].(*lf.TSyn)
	_, to := args[1].(*lf.TSyn)
	return from && to
}

// dictKey returns v if it is a value whose identity a dictMemo can key
// on (a dictionary is a struct), else nil.
func dictKey(v Value) Value {
	if s, ok := v.(*Struct); ok {
		return s
	}
	return nil
}

// nDictApp applies a dictionary function (def, isDictFunction) to one
// argument: the kept dictionary when the argument is the one it was
// built from, else app, the ordinary application, whose result is kept.
type nDictApp struct {
	memo *atomic.Pointer[dictMemo]
	app  *nApp // ops[0] is the function, ops[1] the argument
}

func (n *nDictApp) eval(m *Machine) {
	arg, ok := n.app.ops[1].atomic(m)
	if ok {
		if key := dictKey(arg); key != nil {
			if d := n.memo.Load(); d != nil && d.arg == key {
				m.val = d.res
				return
			}
			m.push(&kDictMemo{memo: n.memo, arg: key})
		}
	}
	n.app.eval(m)
}

// kDictMemo keeps the dictionary built from arg.
type kDictMemo struct {
	memo *atomic.Pointer[dictMemo]
	arg  Value
}

func (k *kDictMemo) resume(m *Machine, v Value) {
	k.memo.Store(&dictMemo{arg: k.arg, res: v})
	m.val = v
}
