package engine

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// daml-script's Script is a state monad over the free monad of ScriptF
// (Daml.Script.Internal.LowLevel):
//
//	data Script a = Script { runScript : () -> Free ScriptF (a, ()), dummy : () }
//	Script m >>= k = Script (\s -> m s >>= \(a, s') -> runScript (k a) s')
//	pure a         = Script (\s -> Pure (a, s))
//	fmap f (Script m) = Script (\s -> fmap (\(a, s') -> (f a, s')) (m s))
//	Script mf <*> Script mx = Script (\s -> mf s >>= \(f, s') -> mx s' >>= \(x, s'') -> pure (f x, s''))
//	liftScript m   = Script (\s -> m >>= \a -> pure (a, s))
//
// every step of a script (each do statement, ApplicativeDo's <*> and
// fmap, each question's liftScript) goes through these, which go through
// Free's Action and Functor dictionaries (method calls that build partial
// applications each time) and Daml closures. The Script monad jets are native versions of those
// five definitions, with the same results: Script records whose runScript
// functions compute what the Daml ones compute, binding and mapping in
// the free monad of ScriptF natively (sfBind, sfFmap: what Free's >>= and
// fmap jets compute for ScriptF's Functor dictionary). A jet replaces a
// definition only when its type and body are the ones implemented, and so
// are those of the definitions it stands in for (scriptMonadDeps):
// Free's dictionaries and methods specialised to ScriptF.

// scriptMonadDeps are the definitions of daml-script the Script monad
// jets compute without calling them, by module and name, with the
// SHA-256 of their bodies (scriptJetBodyHash).
var scriptMonadDeps = map[[2]string]string{
	{lowLevelModule, "$$sel$u003arunScript$u003aScript"}: "2b705fedfbd9704090880943776db2a78757c49ab611dfb5c21b5d50f88884d3",
	{lowLevelModule, "$$$$sc_$$c$u003c$u002a$u003e_1"}:   "9f27a926a128092e2019b6bfa140228312c942f94e49b5d9104b35d28a3c86d6",
	{lowLevelModule, "$$$$sc_$$c$u003c$u002a$u003e_2"}:   "b3fbf4e4f9ae01d2f5a03f1b428e8fb359e07e8ee0150ecf7358139d5692faeb",
	{lowLevelModule, "$$$$sc_$$c$u003c$$2_1"}:            "d111788f13bf1709c4c4b25ed900dd105df4bde52f9972144adbc5a0a1558dce",
	{lowLevelModule, "$$fFunctorScriptF"}:                "f6ef9efe1f6d85e29637d11ea3d5d9656d4660f01c6308bf66741d38e950e932",
	{lowLevelModule, "$$cfmap1"}:                         "340141dfc80a2c2323317c87142727eafa683fb2045689730ca6ea2d4272cce6",
	{lowLevelModule, "$$cfmap"}:                          "5c2aa44418e1389bf9e68c15d5d3588cb666d860c5deda75e7b450f0fecb5080",
	{freeModule, "$$fActionFree"}:                        "5dcd6762e43a86f692a5170b44347abece0fe949d9272adaebbe8dde897d5b2f",
	{freeModule, "$$fApplicativeFree"}:                   "4fd84d9f48fb6716d4c8a134673cbd681daa106868c55daf4dbd04a1ea2c9094",
	{freeModule, "$$fFunctorFree"}:                       "bad639a2aee2d1abf863319421919a7e16ffc0ff5f0dd09a8d8ff98e5fd1e8df",
	{freeModule, "$$cpure"}:                              "abfdcc229f3ac895d6ea042f18e404dfd84064470a47d783901d8781b256cb3e",
	{freeModule, "$$WPure"}:                              "e6fd7137b6c4d8a11989dbfe17462dcd7df8b6393a5856acf3d8965badcdec85",
	{freeModule, "$$c$u003e$u003e$u003d"}:                "d7c5ce59d8771fbbad85ee89dea4056693f76e3603e6796bde41b2d2b4412c4f",
	{freeModule, "$$cfmap"}:                              "7c105298c32fffa5275d99001c5db9251f2a83571c8ec3afe0e7f9438583d9e3",
}

func addScriptMonadJets(jets map[[2]string]scriptJet) {
	jets[[2]string{lowLevelModule, "$$c$u003e$u003e$u003d"}] = scriptJet{
		typ:  "forall (a : *). forall (b : *). Daml.Script.Internal.LowLevel:Script a -> (a -> Daml.Script.Internal.LowLevel:Script b) -> Daml.Script.Internal.LowLevel:Script b",
		body: "f8432906376821e10eb0ec772fd4f92a4915d9bb69c37a30f91f8be479edd388",
		make: func(p *lf.Package, _ *lf.DefValue) (Value, bool) {
			sm, ok := newScriptMonad(p)
			if !ok {
				return nil, false
			}
			return jetPAP(lowLevelModule+":Script>>=", 2, sm.bind), true
		},
	}
	jets[[2]string{lowLevelModule, "$$cpure"}] = scriptJet{
		typ:  "forall (a : *). a -> Daml.Script.Internal.LowLevel:Script a",
		body: "bdf4bbc763ab0d957a99cb07ef65e885b0048ccd5214167a9d01cc1b087d8f81",
		make: func(p *lf.Package, _ *lf.DefValue) (Value, bool) {
			sm, ok := newScriptMonad(p)
			if !ok {
				return nil, false
			}
			return jetPAP(lowLevelModule+":Scriptpure", 1, sm.pure), true
		},
	}
	jets[[2]string{lowLevelModule, "$$cfmap2"}] = scriptJet{
		typ:  "forall (a : *). forall (b : *). (a -> b) -> Daml.Script.Internal.LowLevel:Script a -> Daml.Script.Internal.LowLevel:Script b",
		body: "1098d9049a670581b0638cd0a3afcec37aa430dbafdfd330c7c63a17d7b4ea1c",
		make: func(p *lf.Package, _ *lf.DefValue) (Value, bool) {
			sm, ok := newScriptMonad(p)
			if !ok {
				return nil, false
			}
			return jetPAP(lowLevelModule+":Scriptfmap", 2, sm.fmap), true
		},
	}
	// liftScript m = Script (\s -> m >>= \a -> pure (a, s))
	jets[[2]string{lowLevelModule, "liftScript"}] = scriptJet{
		typ:  "forall (a : *). Daml.Script.Internal.Free:Free Daml.Script.Internal.LowLevel:ScriptF a -> Daml.Script.Internal.LowLevel:Script a",
		body: "5dc88359c75b8245d642163e84752858f434e3efc4e8c981de4aa825fa57a55c",
		make: func(p *lf.Package, _ *lf.DefValue) (Value, bool) {
			sm, ok := newScriptMonad(p)
			if !ok {
				return nil, false
			}
			return jetPAP(lowLevelModule+":liftScript", 1, sm.liftScript), true
		},
	}
	jets[[2]string{lowLevelModule, "$$c$u003c$u002a$u003e"}] = scriptJet{
		typ:  "forall (a : *). forall (b : *). Daml.Script.Internal.LowLevel:Script (a -> b) -> Daml.Script.Internal.LowLevel:Script a -> Daml.Script.Internal.LowLevel:Script b",
		body: "fd3ce796fe4d12c1f629c3be51d1e2d8b5d974ed698b82175da8a5a0f5819795",
		make: func(p *lf.Package, _ *lf.DefValue) (Value, bool) {
			sm, ok := newScriptMonad(p)
			if !ok {
				return nil, false
			}
			return jetPAP(lowLevelModule+":Script<*>", 2, sm.ap), true
		},
	}
}

// scriptMonad holds the types the Script monad jets build values of, and
// their native functions.
type scriptMonad struct {
	// script and tuple2 are the Script and Tuple2 record types.
	script, tuple2 *jetRecordType
	// free is the Free variant type (Pure is its constructor of rank 0).
	free lf.TypeConID

	// The functions the jets' values hold, each partially applied to
	// what it closes over.
	bindRun, bindK, pureRun, fmapRun, apRun, apK1, apK2, liftRun, pureWith, sfBindThen, sfFmapThen *builtin
}

// newScriptMonad returns the Script monad of the daml-script package p,
// or false when a definition the jets stand in for is not the one they
// implement, or the types are not the expected ones.
func newScriptMonad(p *lf.Package) (*scriptMonad, bool) {
	for k, body := range scriptMonadDeps {
		def := p.Value(k[0], k[1])
		if def == nil || def.Body() == nil || scriptJetBodyHash(def.Body()) != body {
			return nil, false
		}
	}
	// Script { runScript : () -> Free ScriptF (Tuple2 a ()), dummy : () }
	sdt := p.DataType(lowLevelModule, "Script")
	if sdt == nil || sdt.Variety != lf.RecordVariety || len(sdt.Fields) != 2 || sdt.Fields[0].Name != "runScript" || sdt.Fields[1].Name != "dummy" {
		return nil, false
	}
	cs := typeCons(sdt.Fields[0].Type) // Free, ScriptF, Tuple2
	if len(cs) != 3 || cs[0].Module != freeModule || cs[0].Name != "Free" || cs[2].Module != "DA.Types" || cs[2].Name != "Tuple2" {
		return nil, false
	}
	fdt := p.DataType(freeModule, "Free")
	if fdt == nil || fdt.Variety != lf.VariantVariety || len(fdt.Fields) != 2 || fdt.Fields[0].Name != "Pure" || fdt.Fields[1].Name != "Free" {
		return nil, false
	}
	sm := &scriptMonad{
		script: &jetRecordType{id: lf.TypeConID{PackageID: p.ID, Module: lowLevelModule, Name: "Script"}},
		tuple2: &jetRecordType{id: cs[2]},
		free:   cs[0],
	}
	b := func(name string, arity int, fn bf) *builtin {
		return &builtin{name: lowLevelModule + ":" + name, arity: arity, fn: fn}
	}
	sm.bindRun = b("Script>>=.run", 3, sm.runBind)
	sm.bindK = b("Script>>=.k", 2, sm.runBindK)
	sm.pureRun = b("Scriptpure.run", 2, sm.runPure)
	sm.fmapRun = b("Scriptfmap.run", 3, sm.runFmap)
	sm.apRun = b("Script<*>.run", 3, sm.runAp)
	sm.apK1 = b("Script<*>.k1", 2, sm.runApK1)
	sm.apK2 = b("Script<*>.k2", 2, sm.runApK2)
	sm.liftRun = b("liftScript.run", 2, sm.runLift)
	sm.pureWith = b("liftScript.k", 2, sm.runPureWith)
	sm.sfBindThen = b("Free>>=.then", 3, sm.runSFBindThen)
	sm.sfFmapThen = b("Freefmap.then", 3, sm.runSFFmapThen)
	return sm, true
}

// newScript returns Script {runScript = fn applied to a and b (a PAP of
// arity 3), dummy}, or, when b is nil, fn applied to a (of arity 2); in
// one allocation.
func (sm *scriptMonad) newScript(m *Machine, fn *builtin, a, b, dummy Value) (*Record, bool) {
	rt, err := sm.script.get(m)
	if err != nil {
		m.fail(err)
		return nil, false
	}
	x := &struct {
		r    Record
		fs   [2]Value
		p    PAP
		args [2]Value
	}{}
	x.args = [2]Value{a, b}
	if b == nil {
		x.p = PAP{fn: fn, args: x.args[:1:1], arity: 2}
	} else {
		x.p = PAP{fn: fn, args: x.args[:2:2], arity: 3}
	}
	x.fs = [2]Value{&x.p, dummy}
	x.r = Record{Type: rt, Fields: x.fs[:]}
	return &x.r, true
}

// runScriptOf returns the runScript function of a Script record.
func runScriptOf(m *Machine, v Value) (Value, bool) {
	r, ok := v.(*Record)
	if !ok || len(r.Fields) != 2 {
		m.fail(crash("runScript of %T", v))
		return nil, false
	}
	return r.Fields[0], true
}

// tuple2Of returns the fields of a Tuple2 record.
func tuple2Of(m *Machine, v Value) (Value, Value, bool) {
	r, ok := v.(*Record)
	if !ok || len(r.Fields) != 2 {
		m.fail(crash("Script state of %T", v))
		return nil, nil, false
	}
	return r.Fields[0], r.Fields[1], true
}

// bind (m, k) is Script m >>= k.
func (sm *scriptMonad) bind(m *Machine, a []Value) {
	if r, ok := sm.newScript(m, sm.bindRun, a[0], a[1], Unit{}); ok {
		m.ret(r)
	}
}

// runBind (m, k, s) is runScript m s >>= bindK k.
func (sm *scriptMonad) runBind(m *Machine, a []Value) {
	run, ok := runScriptOf(m, a[0])
	if !ok {
		return
	}
	k := &kSFBind{sm: sm, f: pap1(sm.bindK, a[1], 2)}
	m.push(k)
	k.arg[0] = a[2]
	m.apply(run, k.arg[:])
}

// runBindK (k, (a, s')) is runScript (k a) s'.
func (sm *scriptMonad) runBindK(m *Machine, a []Value) {
	x, s, ok := tuple2Of(m, a[1])
	if !ok {
		return
	}
	k := &kRunScript{s: s}
	m.push(k)
	k.arg[0] = x
	m.apply(a[0], k.arg[:])
}

// pure (a) is Script (\s -> Pure (a, s)).
func (sm *scriptMonad) pure(m *Machine, a []Value) {
	if r, ok := sm.newScript(m, sm.pureRun, a[0], nil, Unit{}); ok {
		m.ret(r)
	}
}

// runPure (a, s) is Pure (a, s).
func (sm *scriptMonad) runPure(m *Machine, a []Value) {
	if v, ok := sm.pureTuple(m, a[0], a[1]); ok {
		m.ret(v)
	}
}

// pureTuple returns Pure (a, s).
func (sm *scriptMonad) pureTuple(m *Machine, a, s Value) (Value, bool) {
	rt, err := sm.tuple2.get(m)
	if err != nil {
		m.fail(err)
		return nil, false
	}
	x := &struct {
		v  Variant
		t  Record
		fs [2]Value
	}{}
	x.fs = [2]Value{a, s}
	x.t = Record{Type: rt, Fields: x.fs[:]}
	x.v = Variant{ID: sm.free, Con: "Pure", Rank: 0, Value: &x.t}
	return &x.v, true
}

// fmap (f, Script m d) is Script (\s -> fmap (first f) (m s)) d: the
// record's fields are read at once, as Daml's strict lets read them.
func (sm *scriptMonad) fmap(m *Machine, a []Value) {
	r, ok := a[1].(*Record)
	if !ok || len(r.Fields) != 2 {
		m.fail(crash("Script fmap on %T", a[1]))
		return
	}
	if s, ok := sm.newScript(m, sm.fmapRun, a[0], r.Fields[0], r.Fields[1]); ok {
		m.ret(s)
	}
}

// runFmap (f, run, s) is fmap (first f) (run s) in Free ScriptF.
func (sm *scriptMonad) runFmap(m *Machine, a []Value) {
	k := &kSFFmap{sm: sm, f: a[0]}
	m.push(k)
	k.arg[0] = a[2]
	m.apply(a[1], k.arg[:])
}

// ap (Script mf, Script mx) is Script (\s -> mf s >>= \(f, s') -> mx s'
// >>= \(x, s”) -> pure (f x, s”)); both runScript fields are read at
// once.
func (sm *scriptMonad) ap(m *Machine, a []Value) {
	mf, ok := runScriptOf(m, a[0])
	if !ok {
		return
	}
	mx, ok := runScriptOf(m, a[1])
	if !ok {
		return
	}
	if r, ok := sm.newScript(m, sm.apRun, mf, mx, Unit{}); ok {
		m.ret(r)
	}
}

// runAp (mf, mx, s) is mf s >>= apK1 mx.
func (sm *scriptMonad) runAp(m *Machine, a []Value) {
	k := &kSFBind{sm: sm, f: pap1(sm.apK1, a[1], 2)}
	m.push(k)
	k.arg[0] = a[2]
	m.apply(a[0], k.arg[:])
}

// runApK1 (mx, (f, s')) is mx s' >>= apK2 f.
func (sm *scriptMonad) runApK1(m *Machine, a []Value) {
	f, s, ok := tuple2Of(m, a[1])
	if !ok {
		return
	}
	k := &kSFBind{sm: sm, f: pap1(sm.apK2, f, 2)}
	m.push(k)
	k.arg[0] = s
	m.apply(a[0], k.arg[:])
}

// runApK2 (f, (x, s”)) is Pure (f x, s”).
func (sm *scriptMonad) runApK2(m *Machine, a []Value) {
	x, s, ok := tuple2Of(m, a[1])
	if !ok {
		return
	}
	k := &kPureFirst{sm: sm, s: s}
	m.push(k)
	k.arg[0] = x
	m.apply(a[0], k.arg[:])
}

// liftScript (m) is Script (\s -> m >>= \a -> pure (a, s)).
func (sm *scriptMonad) liftScript(m *Machine, a []Value) {
	if r, ok := sm.newScript(m, sm.liftRun, a[0], nil, Unit{}); ok {
		m.ret(r)
	}
}

// runLift (m, s) is m >>= pureWith s.
func (sm *scriptMonad) runLift(m *Machine, a []Value) {
	sm.sfBind(m, a[0], pap1(sm.pureWith, a[1], 2))
}

// runPureWith (s, a) is Pure (a, s).
func (sm *scriptMonad) runPureWith(m *Machine, a []Value) {
	if v, ok := sm.pureTuple(m, a[1], a[0]); ok {
		m.ret(v)
	}
}

// pap1 returns fn (of the arity) partially applied to a, in one
// allocation (withValues).
func pap1(fn callable, a Value, arity int) *PAP {
	p, args := withValues[PAP](1)
	args[0] = a
	*p = PAP{fn: fn, args: args, arity: arity}
	return p
}

// sfBind runs ds >>= f in the free monad of ScriptF: f a for Pure a, and
// for Free (ScriptF q) Free (ScriptF q {continue = \b -> continue q b >>=
// f}), as Free's >>= (freeBind) with ScriptF's fmap (questionFmap) gives
// it, built in one allocation.
func (sm *scriptMonad) sfBind(m *Machine, ds, f Value) {
	v, ok := ds.(*Variant)
	if !ok {
		m.fail(crash("Free >>= on %T", ds))
		return
	}
	if v.Rank == 0 { // Pure a
		m.apply(f, []Value{v.Value})
		return
	}
	if r, ok := sm.rewrap(m, v, sm.sfBindThen, f); ok {
		m.ret(r)
	}
}

// rewrap returns Free (ScriptF q {continue = then f (continue q)}) of v,
// Free (ScriptF q).
func (sm *scriptMonad) rewrap(m *Machine, v *Variant, then *builtin, f Value) (Value, bool) {
	sf, q, err := scriptFQuestion(v)
	if err != nil {
		m.fail(err)
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
	}{}
	x.cs = [2]Value{f, q.Fields[4]}
	x.c = PAP{fn: then, args: x.cs[:2:2], arity: 3}
	var c Value = &x.c
	// The frames that would take this value at once and rewrap it
	// (a bind or fmap of an enclosing Script bind, fmap or <*>) are
	// composed into its continuation here: the value they would build is
	// this one's with the continuation they would compose, and nothing
	// runs between (the machine's stack is its own: a run starts on an
	// empty one, Engine.runOnce).
	// The composed continuations are built in one allocation: count the
	// frames first.
	n := 0
	for i := len(m.konts) - 1; i >= 0; i-- {
		switch m.konts[i].(type) {
		case *kSFBind, *kSFFmap:
			n++
			continue
		}
		break
	}
	if n > 0 {
		cells := make([]papCell, n)
		for i := range cells {
			var next *builtin
			var g Value
			switch k := m.konts[len(m.konts)-1].(type) {
			case *kSFBind:
				next, g = k.sm.sfBindThen, k.f
			case *kSFFmap:
				next, g = k.sm.sfFmapThen, k.f
			}
			m.konts[len(m.konts)-1] = nil
			m.konts = m.konts[:len(m.konts)-1]
			cl := &cells[i]
			cl.args = [2]Value{g, c}
			cl.p = PAP{fn: next, args: cl.args[:2:2], arity: 3}
			c = &cl.p
		}
	}
	copy(x.qs[:], q.Fields)
	x.qs[4] = c
	x.q = Record{Type: q.Type, Fields: x.qs[:]}
	x.sfs[0] = &x.q
	x.sf = Record{Type: sf.Type, Fields: x.sfs[:]}
	x.v = Variant{ID: v.ID, Con: v.Con, Rank: v.Rank, Value: &x.sf}
	return &x.v, true
}

// papCell is a PAP of two arguments with its arguments, so that several
// can be built in one allocation (rewrap).
type papCell struct {
	p    PAP
	args [2]Value
}

// runSFBindThen (f, cont, b) is cont b >>= f.
func (sm *scriptMonad) runSFBindThen(m *Machine, a []Value) {
	k := &kSFBind{sm: sm, f: a[0]}
	m.push(k)
	k.arg[0] = a[2]
	m.apply(a[1], k.arg[:])
}

// sfFmap runs fmap (first f) ds in the free monad of ScriptF: Pure (f a,
// s) for Pure (a, s), and for Free (ScriptF q) Free (ScriptF q {continue
// = \b -> fmap (first f) (continue q b)}).
func (sm *scriptMonad) sfFmap(m *Machine, f, ds Value) {
	v, ok := ds.(*Variant)
	if !ok {
		m.fail(crash("Free fmap on %T", ds))
		return
	}
	if v.Rank == 0 { // Pure (a, s)
		x, s, ok := tuple2Of(m, v.Value)
		if !ok {
			return
		}
		k := &kPureFirst{sm: sm, s: s}
		m.push(k)
		k.arg[0] = x
		m.apply(f, k.arg[:])
		return
	}
	if r, ok := sm.rewrap(m, v, sm.sfFmapThen, f); ok {
		m.ret(r)
	}
}

// runSFFmapThen (f, cont, b) is fmap (first f) (cont b).
func (sm *scriptMonad) runSFFmapThen(m *Machine, a []Value) {
	k := &kSFFmap{sm: sm, f: a[0]}
	m.push(k)
	k.arg[0] = a[2]
	m.apply(a[1], k.arg[:])
}

// kSFBind binds the Free value computed to f (sfBind); arg holds the
// argument of the call made before it is resumed (apply keeps no
// argument slice).
type kSFBind struct {
	sm  *scriptMonad
	f   Value
	arg [1]Value
}

func (k *kSFBind) resume(m *Machine, v Value) {
	k.arg[0] = nil
	k.sm.sfBind(m, v, k.f)
}

// kSFFmap maps first f over the Free value computed (sfFmap).
type kSFFmap struct {
	sm  *scriptMonad
	f   Value
	arg [1]Value
}

func (k *kSFFmap) resume(m *Machine, v Value) {
	k.arg[0] = nil
	k.sm.sfFmap(m, k.f, v)
}

// kRunScript applies the runScript function of the Script computed to s.
type kRunScript struct {
	s   Value
	arg [1]Value
}

func (k *kRunScript) resume(m *Machine, v Value) {
	run, ok := runScriptOf(m, v)
	if !ok {
		return
	}
	k.arg[0] = k.s
	m.apply(run, k.arg[:])
}

// kPureFirst returns Pure (v, s) of the value v computed.
type kPureFirst struct {
	sm  *scriptMonad
	s   Value
	arg [1]Value
}

func (k *kPureFirst) resume(m *Machine, v Value) {
	k.arg[0] = nil
	if r, ok := k.sm.pureTuple(m, v, k.s); ok {
		m.ret(r)
	}
}
