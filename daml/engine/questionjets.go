package engine

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Every question a Daml script asks is built by daml-script's lift
// (Daml.Script.Internal.LowLevel), through makeScriptF, the question's
// IsQuestion instance and, for every instance of the library, the class's
// default makeQuestion:
//
//	makeQuestion req = Question (command @req @res) (version @req @res) req getExposedCallStack identity
//	makeScriptF = ScriptF . castQuestion . makeQuestion
//	lift = liftScript . Free.lift . makeScriptF
//
// each HasCallStack function passing on its caller's call stack with a
// frame pushed ({m_ip = \_ -> push frame (dIP.m_ip ())}, push being a
// specialised pushCallStack of the frame's literal). Interpreted, that is
// compositions, closures and dictionary calls for every question. The
// question jets are native versions of the default makeQuestion
// ($dmmakeQuestion) and of lift, with the same results: they call what
// the Daml definitions call that may differ between questions (the
// instance's methods, the frame pushes, getExposedCallStack, castQuestion)
// as the Daml ones do, in the same order, and build the rest natively. A
// jet replaces a definition only when its type and body are the ones
// implemented, and so are those of the definitions it stands in for.

const (
	defaultMakeQuestionType = "forall (req : *). forall (res : *). Daml.Script.Internal.LowLevel:IsQuestion req res -> GHC.Classes:IP (DA.Internal.PromotedText:PromotedText <_callStack : Unit>) GHC.Stack.Types:CallStack -> req -> Daml.Script.Internal.LowLevel:Question req res res"
	defaultMakeQuestionBody = "db42a2030e01bc17584aaf92edae14f9347d3332efc6693177b4d810362cde43"
)

func addQuestionJets(jets map[[2]string]scriptJet) {
	jets[[2]string{lowLevelModule, "$$dmmakeQuestion"}] = scriptJet{
		typ:  defaultMakeQuestionType,
		body: defaultMakeQuestionBody,
		make: makeDefaultMakeQuestion,
	}
}

// ipNames are the field names of an implicit call-stack parameter, a
// struct {m_ip : () -> CallStack}; shared, never changed.
var ipNames = []string{"m_ip"}

// ipPush is an implicit call-stack parameter that a HasCallStack function
// gives the function it calls: {m_ip = \_ -> push (dIP.m_ip ())}, dIP
// being its own, push a top-level value (pushCallStack of the frame of
// the call).
type ipPush struct {
	push topRef
	fn   *builtin
}

func newIPPush(name string, push lf.TypeConID) *ipPush {
	x := &ipPush{}
	x.push.id = push
	x.fn = &builtin{name: name, arity: 2, fn: x.run}
	return x
}

// dict returns {m_ip = \_ -> push (dIP.m_ip ())}, in one allocation.
func (x *ipPush) dict(dIP Value) *Struct {
	y := &struct {
		s    Struct
		vs   [1]Value
		p    PAP
		args [1]Value
	}{}
	y.args[0] = dIP
	y.p = PAP{fn: x.fn, args: y.args[:1:1], arity: 2}
	y.vs[0] = &y.p
	y.s = Struct{Names: ipNames, Values: y.vs[:1:1]}
	return &y.s
}

// run (dIP, ()) is push (dIP.m_ip ()): the top-level push is computed
// first, as Daml computes a function before its argument.
func (x *ipPush) run(m *Machine, a []Value) {
	m.push(&kExposedIP{dIP: a[0], arg: a[1]})
	x.push.eval(m)
}

// structField returns the field name of the struct v, failing the
// machine when v is not a struct with it.
func structField(m *Machine, v Value, name string) (Value, bool) {
	s, ok := v.(*Struct)
	if !ok {
		m.fail(crash("%s of %T", name, v))
		return nil, false
	}
	i, found := slices.BinarySearch(s.Names, name)
	if !found {
		m.fail(crash("a struct without %s", name))
		return nil, false
	}
	return s.Values[i], true
}

// defaultMakeQuestion is the $dmmakeQuestion jet of a daml-script
// package:
//
//	$dmmakeQuestion dIsQuestion dIP = let dIP1 = {m_ip = \_ -> push (dIP.m_ip ())} in
//	  \req -> Question {commandName = dIsQuestion.m_command (), commandVersion = dIsQuestion.m_version (),
//	    payload = req, locations = getExposedCallStack dIP1, continue = identity}
//
// (nothing is computed before req but the struct of a lambda), the
// record's fields computed last first, as Daml computes them.
type defaultMakeQuestion struct {
	ip                   *ipPush
	getExposed, identity topRef
	question             *jetRecordType
}

func makeDefaultMakeQuestion(p *lf.Package, def *lf.DefValue) (Value, bool) {
	// Question {commandName, commandVersion, payload, locations, continue}
	dt := p.DataType(lowLevelModule, "Question")
	if dt == nil || dt.Variety != lf.RecordVariety || len(dt.Fields) != 5 {
		return nil, false
	}
	for i, n := range []string{"commandName", "commandVersion", "payload", "locations", "continue"} {
		if dt.Fields[i].Name != n {
			return nil, false
		}
	}
	x := &defaultMakeQuestion{question: &jetRecordType{id: lf.TypeConID{PackageID: p.ID, Module: lowLevelModule, Name: "Question"}}}
	var push lf.TypeConID
	lf.Inspect(def.Body(), func(n any) bool {
		if v, ok := n.(*lf.EVal); ok {
			switch {
			case v.Ref.Module == lowLevelModule && v.Ref.Name == "$$$$sc_$$dmmakeQuestion_1":
				push = v.Ref
			case v.Ref.Module == lowLevelModule && v.Ref.Name == "getExposedCallStack":
				x.getExposed.id = v.Ref
			case v.Ref.Module == "DA.Internal.Prelude" && v.Ref.Name == "identity":
				x.identity.id = v.Ref
			}
		}
		return true
	})
	if push.PackageID == "" || x.getExposed.id.PackageID == "" || x.identity.id.PackageID == "" {
		return nil, false
	}
	x.ip = newIPPush(lowLevelModule+":$dmmakeQuestion.ip", push)
	return jetPAP(lowLevelModule+":$dmmakeQuestion", 3, x.run), true
}

// run (dIsQuestion, dIP, req) computes continue (identity), then
// locations, then commandVersion, then commandName (kMakeQuestion).
func (x *defaultMakeQuestion) run(m *Machine, a []Value) {
	k := &kMakeQuestion{x: x, dIsQ: a[0], dIP: a[1]}
	k.fields[2] = a[2]
	m.push(k)
	x.identity.eval(m)
}

// kMakeQuestion computes the fields of a default makeQuestion's Question
// one after the other (stage: the field computed), then builds it.
type kMakeQuestion struct {
	x         *defaultMakeQuestion
	dIsQ, dIP Value
	stage     int
	fields    [5]Value
	arg       [1]Value
}

func (k *kMakeQuestion) resume(m *Machine, v Value) {
	switch k.stage {
	case 0: // continue = identity
		k.fields[4] = v
		k.stage = 1
		m.push(k)
		k.x.getExposed.eval(m)
	case 1: // getExposedCallStack computed: apply it to dIP1
		k.stage = 2
		m.push(k)
		k.arg[0] = k.x.ip.dict(k.dIP)
		m.apply(v, k.arg[:])
	case 2: // locations
		k.fields[3] = v
		k.method(m, "m_version", 3)
	case 3: // commandVersion
		k.fields[1] = v
		k.method(m, "m_command", 4)
	case 4: // commandName
		k.fields[0] = v
		rt, err := k.x.question.get(m)
		if err != nil {
			m.fail(err)
			return
		}
		r := newRecord(rt)
		copy(r.Fields, k.fields[:])
		m.ret(r)
	}
}

// method applies the method name of the IsQuestion dictionary to (),
// resuming at stage next.
func (k *kMakeQuestion) method(m *Machine, name string, next int) {
	f, ok := structField(m, k.dIsQ, name)
	if !ok {
		return
	}
	k.stage = next
	m.push(k)
	k.arg[0] = Unit{}
	m.apply(f, k.arg[:])
}

// lift of daml-script:
//
//	lift dIP dIsQuestion = liftScript . Free.lift $fFunctorScriptF . makeScriptF dIP' dIsQuestion
//	makeScriptF dIP' dIsQuestion = ScriptF . castQuestion . dIsQuestion.m_makeQuestion () dIP''
//	Free.lift dFunctor fa = Free (fmap Pure fa)
//
// with dIP' = {m_ip = \_ -> pushLift (dIP.m_ip ())} and dIP” = {m_ip =
// \_ -> pushMakeScriptF (dIP'.m_ip ())}. Applied to dIP and dIsQuestion,
// it computes the instance's makeQuestion applied to dIP” (as makeScriptF
// does, the compositions being values), then castQuestion; applied to
// req, it applies them and builds the rest: Free (ScriptF q {continue =
// \b -> Pure (continue q b)}) (fmap of ScriptF and Question, whose
// definitions are those of the jets' dependencies) in liftScript's Script.
// GHC.Base's (.) and DA.Internal.Prelude's (<$>) are taken to be
// composition and Functor's fmap, as the free monad's jets take (<$>).
const (
	liftType         = "forall (req : *). forall (res : *). GHC.Classes:IP (DA.Internal.PromotedText:PromotedText <_callStack : Unit>) GHC.Stack.Types:CallStack -> Daml.Script.Internal.LowLevel:IsQuestion req res -> req -> Daml.Script.Internal.LowLevel:Script res"
	liftBody         = "cb1105ffc6ed7e248c009e0330af09dba4f9cec3a2fb62265d87f2d2d2e00c4e"
	makeScriptFType  = "forall (req : *). forall (res : *). GHC.Classes:IP (DA.Internal.PromotedText:PromotedText <_callStack : Unit>) GHC.Stack.Types:CallStack -> Daml.Script.Internal.LowLevel:IsQuestion req res -> req -> Daml.Script.Internal.LowLevel:ScriptF res"
	makeScriptFBody  = "12f8b6d9e069516684a415da1c33a4408bb6fbb7522d0398503fb4c8ea1aecd4"
	castQuestionType = "forall (req : *). forall (res : *). forall (a : *). Daml.Script.Internal.LowLevel:Question req res a -> Daml.Script.Internal.LowLevel:Question Daml.Script.Internal.LowLevel:LedgerValue Daml.Script.Internal.LowLevel:LedgerValue a"
	castQuestionBody = "52aeded8a484a282b8273b7f323c907be24ca2fc965948226577687425c51fe6"
	freeLiftType     = "forall (f : * -> *). forall (a : *). GHC.Base:Functor f -> f a -> Daml.Script.Internal.Free:Free f a"
	freeLiftBody     = "3c40196d0d05ece97f198b22a99607daf1dbb3f54c631466e093b4cc324092ea"
)

func addLiftJet(jets map[[2]string]scriptJet) {
	jets[[2]string{lowLevelModule, "lift"}] = scriptJet{typ: liftType, body: liftBody, make: makeLift}
}

// liftJet is the lift jet of a daml-script package.
type liftJet struct {
	sm *scriptMonad
	// ipLift and ipMakeScriptF push the frames of lift's call of
	// makeScriptF and of makeScriptF's of makeQuestion.
	ipLift, ipMakeScriptF *ipPush
	castQuestion          topRef
	// scriptF is the ScriptF record type, pure the Pure variant Free.lift
	// wraps answers in.
	scriptF   *jetRecordType
	pure      Variant
	req, cont *builtin
}

// refIn returns the reference to module:name in x, if any.
func refIn(x lf.Expr, module, name string) (ref lf.TypeConID, ok bool) {
	lf.Inspect(x, func(n any) bool {
		if v, isVal := n.(*lf.EVal); isVal && v.Ref.Module == module && v.Ref.Name == name {
			ref, ok = v.Ref, true
		}
		return true
	})
	return ref, ok
}

func makeLift(p *lf.Package, def *lf.DefValue) (Value, bool) {
	msf := p.Value(lowLevelModule, "makeScriptF")
	if !jetFits(msf, scriptJet{typ: makeScriptFType, body: makeScriptFBody}) ||
		!jetFits(p.Value(lowLevelModule, "castQuestion"), scriptJet{typ: castQuestionType, body: castQuestionBody}) ||
		!jetFits(p.Value(freeModule, "lift"), scriptJet{typ: freeLiftType, body: freeLiftBody}) ||
		!jetFits(p.Value(lowLevelModule, "liftScript"), scriptJets[[2]string{lowLevelModule, "liftScript"}]) {
		return nil, false
	}
	sm, ok := newScriptMonad(p)
	if !ok {
		return nil, false
	}
	// ScriptF {unpack : Question LedgerValue LedgerValue a}
	sdt := p.DataType(lowLevelModule, "ScriptF")
	if sdt == nil || sdt.Variety != lf.RecordVariety || len(sdt.Fields) != 1 {
		return nil, false
	}
	pushLift, ok1 := refIn(def.Body(), lowLevelModule, "$$$$sc_lift_1")
	pushMSF, ok2 := refIn(msf.Body(), lowLevelModule, "$$$$sc_makeScriptF_1")
	cast, ok3 := refIn(msf.Body(), lowLevelModule, "castQuestion")
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	x := &liftJet{
		sm:            sm,
		ipLift:        newIPPush(lowLevelModule+":lift.ip", pushLift),
		ipMakeScriptF: newIPPush(lowLevelModule+":makeScriptF.ip", pushMSF),
		scriptF:       &jetRecordType{id: lf.TypeConID{PackageID: p.ID, Module: lowLevelModule, Name: "ScriptF"}},
		pure:          Variant{ID: sm.free, Con: "Pure", Rank: 0},
	}
	x.castQuestion.id = cast
	x.req = &builtin{name: lowLevelModule + ":lift.req", arity: 3, fn: x.runReq}
	x.cont = &builtin{name: lowLevelModule + ":lift.continue", arity: 2, fn: x.runCont}
	return jetPAP(lowLevelModule+":lift", 2, x.run), true
}

// run (dIP, dIsQuestion) applies the instance's makeQuestion to dIP”
// (kLift).
func (x *liftJet) run(m *Machine, a []Value) {
	mq, ok := structField(m, a[1], "m_makeQuestion")
	if !ok {
		return
	}
	k := &kLift{x: x}
	m.push(k)
	k.args = [2]Value{Unit{}, x.ipMakeScriptF.dict(x.ipLift.dict(a[0]))}
	m.apply(mq, k.args[:])
}

// kLift computes castQuestion after makeQuestion, then gives the function
// of req (runReq) of both.
type kLift struct {
	x    *liftJet
	mq   Value
	args [2]Value
}

func (k *kLift) resume(m *Machine, v Value) {
	if k.mq == nil {
		k.mq, k.args = v, [2]Value{}
		m.push(k)
		k.x.castQuestion.eval(m)
		return
	}
	m.ret(pap2(k.x.req, k.mq, v))
}

// runReq (makeQuestion, castQuestion, req) is liftScript (Free (ScriptF
// q' {continue = \b -> Pure (continue q' b)})) of q' = castQuestion
// (makeQuestion req).
func (x *liftJet) runReq(m *Machine, a []Value) {
	k := &kLiftReq{x: x, cast: a[1]}
	m.push(k)
	k.arg[0] = a[2]
	m.apply(a[0], k.arg[:])
}

// kLiftReq applies castQuestion to the question computed, then builds
// the script of the question cast.
type kLiftReq struct {
	x    *liftJet
	cast Value
	arg  [1]Value
}

func (k *kLiftReq) resume(m *Machine, v Value) {
	if k.cast != nil {
		f := k.cast
		k.cast = nil
		m.push(k)
		k.arg[0] = v
		m.apply(f, k.arg[:])
		return
	}
	k.arg[0] = nil
	k.x.script(m, v)
}

// script returns liftScript (Free (ScriptF q {continue = \b -> Pure
// (continue q b)})) of the question q.
func (x *liftJet) script(m *Machine, v Value) {
	q, ok := v.(*Record)
	if !ok || len(q.Fields) != 5 || q.Type.Fields[4] != "continue" {
		m.fail(crash("lift of a %T", v))
		return
	}
	rt, err := x.scriptF.get(m)
	if err != nil {
		m.fail(err)
		return
	}
	y := &struct {
		v   Variant
		sf  Record
		sfs [1]Value
		q   Record
		qs  [5]Value
	}{}
	copy(y.qs[:], q.Fields)
	y.qs[4] = pap1(x.cont, q.Fields[4], 2)
	y.q = Record{Type: q.Type, Fields: y.qs[:]}
	y.sfs[0] = &y.q
	y.sf = Record{Type: rt, Fields: y.sfs[:]}
	y.v = Variant{ID: x.sm.free, Con: "Free", Rank: 1, Value: &y.sf}
	if r, ok := x.sm.newScript(m, x.sm.liftRun, &y.v, nil, Unit{}); ok {
		m.ret(r)
	}
}

// runCont (continue, b) is Pure (continue b).
func (x *liftJet) runCont(m *Machine, a []Value) {
	k := wrapVariant(&x.pure)
	m.push(k)
	k.args[0] = a[1]
	m.apply(a[0], k.args[:1])
}
