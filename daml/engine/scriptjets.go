package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Daml Script's Script is a free monad over its questions
// (Daml.Script.Internal.Free, Daml.Script.Internal.LowLevel in the
// daml-script library): every bind on a script that stopped at a
// question rebuilds the question with a continuation composed with the
// bind's (Free x >>= f = Free (fmap (>>= f) x)), through the Functor and
// Action dictionaries, one Daml call after another: about half of the
// interpretation of a typical script (the Splice Amulet suite's). The
// script jets are native implementations of those few definitions, with
// the same results: the same variants and records (of the types of the
// values they are given), continuations that compute what the Daml ones
// compute. A jet replaces a definition only when the package is a
// daml-script library, and the definition's type and body are the ones
// the jet implements (the bodies of daml-script 3.2 and 3.3 are the same).
type scriptJet struct {
	// typ is the definition's type as lf.Type's String prints it, without
	// package ids (scriptJetTypeText).
	typ string
	// body is the SHA-256 of the body as lf.FormatExpr prints it.
	body string
	v    Value
	// pkgs are the names of the packages whose definition the jet
	// replaces; nil is the daml-script libraries (scriptJetPackages).
	pkgs []string
	// make, when set, gives the jet for the definition def of package p
	// (instead of v), or false when the package does not fit.
	make func(p *lf.Package, def *lf.DefValue) (Value, bool)
}

const (
	freeModule     = "Daml.Script.Internal.Free"
	lowLevelModule = "Daml.Script.Internal.LowLevel"
)

// scriptJetPackages are the names of the daml-script libraries.
var scriptJetPackages = []string{"daml-script", "daml3-script"}

var scriptJets map[[2]string]scriptJet

func init() {
	initScriptJetPAPs()
	scriptJets = map[[2]string]scriptJet{
		// (>>=) of instance Functor f => Action (Free f):
		//   Pure a >>= f = f a
		//   Free x >>= f = Free ((\ds -> ds >>= f) <$> x)
		{freeModule, "$$c$u003e$u003e$u003d"}: {
			typ:  "forall (f : * -> *). GHC.Base:Functor f -> forall (a : *). forall (b : *). Daml.Script.Internal.Free:Free f a -> (a -> Daml.Script.Internal.Free:Free f b) -> Daml.Script.Internal.Free:Free f b",
			body: "d7c5ce59d8771fbbad85ee89dea4056693f76e3603e6796bde41b2d2b4412c4f",
			v:    freeBindPAP,
		},
		// fmap of instance Functor f => Functor (Free f):
		//   fmap f (Pure a) = Pure (f a)
		//   fmap f (Free x) = Free (fmap f <$> x)
		{freeModule, "$$cfmap"}: {
			typ:  "forall (f : * -> *). GHC.Base:Functor f -> forall (a : *). forall (b : *). (a -> b) -> Daml.Script.Internal.Free:Free f a -> Daml.Script.Internal.Free:Free f b",
			body: "7c105298c32fffa5275d99001c5db9251f2a83571c8ec3afe0e7f9438583d9e3",
			v:    freeFmapPAP,
		},
		// fmap of instance Functor (Question req res):
		//   fmap f q = q {continue = \b -> f (continue q b)}
		{lowLevelModule, "$$cfmap"}: {
			typ:  "forall (req : *). forall (res : *). forall (a : *). forall (b : *). (a -> b) -> Daml.Script.Internal.LowLevel:Question req res a -> Daml.Script.Internal.LowLevel:Question req res b",
			body: "5c2aa44418e1389bf9e68c15d5d3588cb666d860c5deda75e7b450f0fecb5080",
			v:    questionFmapPAP,
		},
		// fmap of instance Functor ScriptF:
		//   fmap f (ScriptF q) = ScriptF (fmap f q)
		{lowLevelModule, "$$cfmap1"}: {
			typ:  "forall (a : *). forall (b : *). (a -> b) -> Daml.Script.Internal.LowLevel:ScriptF a -> Daml.Script.Internal.LowLevel:ScriptF b",
			body: "340141dfc80a2c2323317c87142727eafa683fb2045689730ca6ea2d4272cce6",
			v:    scriptFFmapPAP,
		},
	}
	addStackJets(scriptJets)
	addScriptMonadJets(scriptJets)
	addExposedCallStackJet(scriptJets)
	addQuestionJets(scriptJets)
	addLiftJet(scriptJets)
	addQueryJet(scriptJets)
}

// packageIDPrefix matches the package id of a type constructor as
// lf.Type's String prints it.
var packageIDPrefix = regexp.MustCompile(`[0-9a-f]{64}:`)

// scriptJetTypeText returns t as lf.Type's String prints it, without
// package ids (they differ between SDKs).
func scriptJetTypeText(t lf.Type) string { return packageIDPrefix.ReplaceAllString(t.String(), "") }

// scriptJetBodyHash returns the SHA-256 of x as lf.FormatExpr prints it
// (identifiers without their package).
func scriptJetBodyHash(x lf.Expr) string {
	h := sha256.Sum256([]byte(lf.FormatExpr(x, 1<<10)))
	return hex.EncodeToString(h[:])
}

// ScriptJet returns a native implementation of the top-level value ref of
// package p when ref is one of the definitions that have one
// (scriptJets: daml-script's free monad, its Script monad
// (scriptmonad.go) and the call stacks of its questions (exposedjet.go),
// the call stacks of daml-prim and daml-stdlib (stackjets.go)), in a
// package of the expected name, of the expected type and body; else ok is
// false. It is for Options.Override:
// the Daml Script runner uses it, as it uses StdlibJet.
func ScriptJet(p *lf.Package, ref lf.TypeConID) (v Value, ok bool) {
	if p == nil {
		return nil, false
	}
	j, ok := scriptJets[[2]string{ref.Module, ref.Name}]
	if !ok {
		return nil, false
	}
	pkgs := j.pkgs
	if pkgs == nil {
		pkgs = scriptJetPackages
	}
	if !slices.Contains(pkgs, p.Name) {
		return nil, false
	}
	def := p.Value(ref.Module, ref.Name)
	if !jetFits(def, j) {
		return nil, false
	}
	if j.make != nil {
		return j.make(p, def)
	}
	return j.v, true
}

// jetFits reports whether def has the type and body j implements.
func jetFits(def *lf.DefValue, j scriptJet) bool {
	// The type first: Body decodes a body not decoded yet.
	if def == nil || def.Type == nil || scriptJetTypeText(def.Type) != j.typ {
		return false
	}
	b := def.Body()
	return b != nil && scriptJetBodyHash(b) == j.body
}

func jetPAP(name string, arity int, fn bf) *PAP {
	return &PAP{fn: &builtin{name: name, arity: arity, fn: fn}, arity: arity}
}

var (
	freeBindPAP, freeBindKPAP, freeFmapPAP, questionFmapPAP, scriptFFmapPAP, composePAP *PAP
)

func initScriptJetPAPs() {
	freeBindPAP = jetPAP(freeModule+":>>=", 3, func(m *Machine, a []Value) { freeBind(m, a[0], a[1], a[2]) })
	// freeBindKPAP applied to dFunctor and f is \ds -> ds >>= f.
	freeBindKPAP = jetPAP(freeModule+":>>=k", 3, func(m *Machine, a []Value) { freeBind(m, a[0], a[2], a[1]) })
	freeFmapPAP = jetPAP(freeModule+":fmap", 3, freeFmap)
	questionFmapPAP = jetPAP(lowLevelModule+":fmap", 2, func(m *Machine, a []Value) {
		if q, ok := questionFmap(m, a[0], a[1]); ok {
			m.ret(q)
		}
	})
	scriptFFmapPAP = jetPAP(lowLevelModule+":fmap1", 2, func(m *Machine, a []Value) {
		sf, ok := a[1].(*Record)
		if !ok || len(sf.Fields) != 1 {
			m.fail(crash("ScriptF fmap on %T", a[1]))
			return
		}
		q, ok := questionFmap(m, a[0], sf.Fields[0])
		if !ok {
			return
		}
		r := newRecord(sf.Type)
		r.Fields[0] = q
		m.ret(r)
	})
	// composePAP applied to f and g is \b -> f (g b).
	composePAP = jetPAP(lowLevelModule+":compose", 3, func(m *Machine, a []Value) {
		m.push(&kApplyFn{f: a[0]})
		m.apply(a[1], a[2:3])
	})
}

// freeBind runs ds >>= f in the free monad of the functor dFunctor.
func freeBind(m *Machine, dFunctor, ds, f Value) {
	v, ok := ds.(*Variant)
	if !ok {
		m.fail(crash("Free >>= on %T", ds))
		return
	}
	if v.Rank == 0 { // Pure a
		m.apply(f, []Value{v.Value})
		return
	}
	if r, ok := bindScriptF(m, dFunctor, v, f); ok {
		m.ret(r)
		return
	}
	k := pap2(freeBindKPAP.fn, dFunctor, f)
	fmapDict(m, dFunctor, v, k)
}

// bindScriptF returns Free x >>= f (v is Free x) when dFunctor is the
// dictionary whose fmap the engine keeps (Engine.fmapMemo) and that fmap
// is ScriptF's jet, and x a ScriptF of a Question: what fmapDict and the
// jet would build — Free (ScriptF q {continue = \b -> continue q b >>= f})
// — built at once, in one allocation; else false, having done nothing.
func bindScriptF(m *Machine, dFunctor Value, v *Variant, f Value) (Value, bool) {
	memo := m.e.fmapMemo.Load()
	if memo == nil || memo.arg != dFunctor || memo.res != Value(scriptFFmapPAP) {
		return nil, false
	}
	sf, q, err := scriptFQuestion(v)
	if err != nil {
		return nil, false
	}
	x := &struct {
		v   Variant
		sf  Record
		sfs [1]Value
		q   Record
		qs  [5]Value
		c   PAP
		cs  [2]Value
		k   PAP
		ks  [2]Value
	}{}
	x.ks = [2]Value{dFunctor, f}
	x.k = PAP{fn: freeBindKPAP.fn, args: x.ks[:2:2], arity: 3}
	x.cs = [2]Value{&x.k, q.Fields[4]}
	x.c = PAP{fn: composePAP.fn, args: x.cs[:2:2], arity: 3}
	copy(x.qs[:], q.Fields)
	x.qs[4] = &x.c
	x.q = Record{Type: q.Type, Fields: x.qs[:]}
	x.sfs[0] = &x.q
	x.sf = Record{Type: sf.Type, Fields: x.sfs[:]}
	x.v = Variant{ID: v.ID, Con: v.Con, Rank: v.Rank, Value: &x.sf}
	return &x.v, true
}

// scriptFQuestion returns the ScriptF record sf and its question q of v,
// a Free (ScriptF q) whose question has its continuation last
// ("continue"), as the jets that rebuild it with another continuation
// need; else a crash naming what v holds.
func scriptFQuestion(v *Variant) (sf, q *Record, err *Error) {
	sf, ok := v.Value.(*Record)
	if !ok || len(sf.Fields) != 1 {
		return nil, nil, crash("ScriptF fmap on %T", v.Value)
	}
	q, ok = sf.Fields[0].(*Record)
	if !ok || len(q.Fields) != 5 || q.Type.Fields[4] != "continue" {
		return nil, nil, crash("Question fmap on %T", sf.Fields[0])
	}
	return sf, q, nil
}

// freeFmap runs fmap f ds (a = dFunctor, f, ds) in the free monad of the
// functor dFunctor.
func freeFmap(m *Machine, a []Value) {
	dFunctor, f := a[0], a[1]
	v, ok := a[2].(*Variant)
	if !ok {
		m.fail(crash("Free fmap on %T", a[2]))
		return
	}
	if v.Rank == 0 { // Pure a
		k := wrapVariant(v)
		m.push(k)
		m.apply(f, []Value{v.Value})
		return
	}
	g := pap2(freeFmapPAP.fn, dFunctor, f)
	fmapDict(m, dFunctor, v, g)
}

// fmapDict returns the variant like v (Free) of fmap g v.Value, fmap being
// dFunctor's (a Functor dictionary: fmap is its method m_fmap, a function
// of () as every method is). The engine keeps the fmap of the dictionary
// it last asked (Engine.fmapMemo), as it keeps a dictionary function's
// last dictionary (nDictApp): the method is closed and its argument (),
// so it gives the same function every time; a failure is not kept.
func fmapDict(m *Machine, dFunctor Value, v *Variant, g Value) {
	d, ok := dFunctor.(*Struct)
	if !ok {
		m.fail(crash("Functor dictionary is a %T", dFunctor))
		return
	}
	k := wrapVariant(v)
	m.push(k)
	if memo := m.e.fmapMemo.Load(); memo != nil && memo.arg == Value(d) {
		// The arguments in the frame: apply keeps no argument slice.
		k.args = [2]Value{g, v.Value}
		m.apply(memo.res, k.args[:])
		return
	}
	i, found := slices.BinarySearch(d.Names, "m_fmap")
	if !found {
		m.fail(crash("Functor dictionary without fmap"))
		return
	}
	m.push(&kFmapMemo{dict: d, args: [2]Value{g, v.Value}})
	m.apply(d.Values[i], []Value{Unit{}})
}

// kFmapMemo keeps the fmap method of dict computed (Engine.fmapMemo) and
// applies it to args.
type kFmapMemo struct {
	dict *Struct
	args [2]Value
}

func (k *kFmapMemo) resume(m *Machine, v Value) {
	m.e.fmapMemo.Store(&dictMemo{arg: k.dict, res: v})
	m.apply(v, k.args[:])
}

// questionFmap returns fmap f q of a Question record q: q with its
// continuation (the last field) composed with f.
func questionFmap(m *Machine, f, q Value) (Value, bool) {
	r, ok := q.(*Record)
	if !ok || len(r.Fields) != 5 || r.Type.Fields[4] != "continue" {
		m.fail(crash("Question fmap on %T", q))
		return nil, false
	}
	out := newRecord(r.Type)
	copy(out.Fields, r.Fields)
	out.Fields[4] = pap2(composePAP.fn, f, r.Fields[4])
	return out, true
}

// pap2 returns the partial application of fn (of arity 3) to a and b,
// in one allocation (withValues).
func pap2(fn callable, a, b Value) *PAP {
	p, args := withValues[PAP](2)
	args[0], args[1] = a, b
	*p = PAP{fn: fn, args: args, arity: 3}
	return p
}

// kWrapVariant returns the value computed in a variant of the
// constructor of the one it was made from (wrapVariant): the variant is
// the frame's, which is resumed once.
type kWrapVariant struct {
	v Variant
	// args holds the arguments of a call made before the frame is
	// resumed (fmapDict).
	args [2]Value
}

// wrapVariant returns a frame wrapping the value computed in a variant
// like v.
func wrapVariant(like *Variant) *kWrapVariant {
	return &kWrapVariant{v: Variant{ID: like.ID, Con: like.Con, Rank: like.Rank}}
}

func (k *kWrapVariant) resume(m *Machine, v Value) {
	k.v.Value = v
	k.args = [2]Value{}
	m.ret(&k.v)
}

// kApplyFn applies f to the value computed (held in arg: apply keeps no
// argument slice, and the frame is resumed once).
type kApplyFn struct {
	f   Value
	arg [1]Value
}

func (k *kApplyFn) resume(m *Machine, v Value) {
	k.arg[0] = v
	m.apply(k.f, k.arg[:])
}
