package engine

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// daml-script's getExposedCallStack gives the call stack a question
// carries:
//
//	getExposedCallStack = dropInternalFrames (getCallStack callStack)
//
// (with ?callStack the caller's, pushed the frame of the call of
// callStack). getCallStack converts every frame's location, and
// dropInternalFrames then drops the innermost ones, those in daml-script
// itself: about half of them, converted for nothing, for every question.
// The jet computes the stack as the Daml definition does (the implicit
// parameter, the specialised pushCallStack and callStack as the engine
// has them), and, when getCallStack is its jet, converts only the frames
// dropInternalFrames keeps, having checked that the conversion of the
// others would not fail (as getCallStack would have converted them, from
// the outermost in); else it applies getCallStack and drops the frames as
// dropInternalFrames does.
const (
	exposedCallStackType = "GHC.Classes:IP (DA.Internal.PromotedText:PromotedText <_callStack : Unit>) GHC.Stack.Types:CallStack -> List (DA.Types:Tuple2 Text DA.Stack.Types:SrcLoc)"
	exposedCallStackBody = "f817ffeca2b172368e1f78c1d02821d1d87b39f7eda38894df82a675327f10ff"
)

func addExposedCallStackJet(jets map[[2]string]scriptJet) {
	jets[[2]string{lowLevelModule, "getExposedCallStack"}] = scriptJet{
		typ:  exposedCallStackType,
		body: exposedCallStackBody,
		make: makeGetExposedCallStack,
	}
}

// exposedCallStack is the getExposedCallStack jet of a daml-script
// package.
type exposedCallStack struct {
	// prefixes are isInternalSrcLoc's (internalPrefixes).
	prefixes srcLocPrefixes
	// The top-level values the definition uses.
	callStack, getCallStack, push topRef
	// ip is the implicit parameter's function it gives callStack.
	ip *builtin
}

func makeGetExposedCallStack(p *lf.Package, def *lf.DefValue) (Value, bool) {
	if !jetFits(p.Value(lowLevelModule, "dropInternalFrames"), scriptJet{typ: dropInternalFramesType, body: dropInternalFramesBody}) {
		return nil, false
	}
	prefixes, ok := internalPrefixes(p)
	if !ok {
		return nil, false
	}
	x := &exposedCallStack{prefixes: prefixes}
	lf.Inspect(def.Body(), func(n any) bool {
		if v, ok := n.(*lf.EVal); ok {
			switch {
			case v.Ref.Module == stackModule && v.Ref.Name == "callStack":
				x.callStack.id = v.Ref
			case v.Ref.Module == stackModule && v.Ref.Name == "getCallStack":
				x.getCallStack.id = v.Ref
			case v.Ref.Module == lowLevelModule && v.Ref.Name == "$$$$sc_getExposedCallStack_1":
				x.push.id = v.Ref
			}
		}
		return true
	})
	if x.callStack.id.PackageID == "" || x.getCallStack.id.PackageID == "" || x.push.id.PackageID == "" {
		return nil, false
	}
	x.ip = &builtin{name: lowLevelModule + ":getExposedCallStack.ip", arity: 2, fn: x.runIP}
	return jetPAP(lowLevelModule+":getExposedCallStack", 1, x.run), true
}

// run (dIP) is dropInternalFrames (getCallStack (callStack {m_ip = \_ ->
// push (dIP.m_ip ())})).
func (x *exposedCallStack) run(m *Machine, a []Value) {
	// The struct, its function and the two frames, in one allocation
	// (every question a script asks runs this).
	y := &struct {
		dict  Struct
		vs    [1]Value
		ip    PAP
		ipArg [1]Value
		stack kExposedStack
		apply kApplyTo
		args  [1]Value
	}{}
	y.ipArg[0] = a[0]
	y.ip = PAP{fn: x.ip, args: y.ipArg[:1:1], arity: 2}
	y.vs[0] = &y.ip
	y.dict = Struct{Names: ipNames, Values: y.vs[:1:1]}
	y.stack.x = x
	y.args[0] = &y.dict
	y.apply.args = y.args[:1:1]
	m.push(&y.stack)
	m.push(&y.apply)
	x.callStack.eval(m)
}

// runIP (dIP, ()) is push (dIP.m_ip ()): the top-level push is computed
// first, as Daml computes a function before its argument.
func (x *exposedCallStack) runIP(m *Machine, a []Value) {
	k := &kExposedIP{dIP: a[0], arg: a[1]}
	m.push(k)
	x.push.eval(m)
}

// kExposedIP applies the push function computed to dIP.m_ip (). It
// holds the argument list of that call and the frame that takes its
// result, so that the whole push is one allocation (every HasCallStack
// call makes one).
type kExposedIP struct {
	dIP, arg Value
	args     [1]Value
	then     kArgThen
}

func (k *kExposedIP) resume(m *Machine, push Value) {
	d, ok := k.dIP.(*Struct)
	if !ok {
		m.fail(crash("getExposedCallStack of %T", k.dIP))
		return
	}
	i, found := slices.BinarySearch(d.Names, "m_ip")
	if !found {
		m.fail(crash("getExposedCallStack of a struct without m_ip"))
		return
	}
	k.then.fn = push
	m.push(&k.then)
	k.args[0] = k.arg
	m.apply(d.Values[i], k.args[:])
}

// kArgThen applies fn to the value computed (in arg, its argument list).
type kArgThen struct {
	fn  Value
	arg [1]Value
}

func (k *kArgThen) resume(m *Machine, v Value) {
	k.arg[0] = v
	m.apply(k.fn, k.arg[:])
}

// kExposedStack gives the exposed frames of the call stack computed.
type kExposedStack struct{ x *exposedCallStack }

func (k *kExposedStack) resume(m *Machine, stk Value) {
	d := k.x.getCallStack.def(m)
	if v := d.cached.Load(); v != nil {
		k.x.frames(m, *v, stk)
		return
	}
	m.push(&kExposedGet{x: k.x, stk: stk})
	m.ctrl = &nTop{def: d}
}

// kExposedGet gives the exposed frames of stk with the getCallStack
// function computed.
type kExposedGet struct {
	x   *exposedCallStack
	stk Value
}

func (k *kExposedGet) resume(m *Machine, fn Value) { k.x.frames(m, fn, k.stk) }

// frames gives dropInternalFrames (get stk), fused when get is a
// getCallStack jet.
func (x *exposedCallStack) frames(m *Machine, get, stk Value) {
	if p, ok := get.(*PAP); ok && len(p.args) == 0 {
		if g, ok := p.fn.(*getCallStackJet); ok {
			x.fused(m, g, stk)
			return
		}
	}
	m.push(&kDropInternal{x: x})
	m.apply(get, []Value{stk})
}

// kDropInternal drops the internal frames of the list computed.
type kDropInternal struct{ x *exposedCallStack }

func (k *kDropInternal) resume(m *Machine, v Value) {
	if l, ok := k.x.prefixes.drop(m, v); ok {
		m.ret(l)
	}
}

// fused gives dropInternalFrames (getCallStack stk), g being the
// getCallStack jet: the failures of getCallStack first (it converts every
// frame, from the outermost in), then only the frames kept are converted.
func (x *exposedCallStack) fused(m *Machine, g *getCallStackJet, stk Value) {
	var buf [frameBuf]*Record
	frames, ok := callStackFrames(m, stk, buf[:0])
	if !ok {
		return
	}
	rt, err := g.tuple2.get(m)
	if err != nil {
		m.fail(err)
		return
	}
	for _, t := range slices.Backward(frames) {
		if !g.conv.check(m, t.Fields[1]) {
			return
		}
	}
	locType, err := g.conv.to.get(m)
	if err != nil {
		m.fail(err)
		return
	}
	// The converted locations' package and module are the original's
	// fields at the same places (conv copies all but the last four).
	if i, j := slices.Index(locType.Fields, "srcLocPackage"), slices.Index(locType.Fields, "srcLocModule"); i < 0 || i >= 3 || j < 0 || j >= 3 {
		m.fail(crash("getExposedCallStack: a location type %v", locType.Fields))
		return
	}
	n := 0
	for ; n < len(frames); n++ {
		internal, ok := x.prefixes.internal(m, frames[n].Fields[1].(*Record), locType)
		if !ok {
			return
		}
		if !internal {
			break
		}
	}
	if l, ok := g.list(m, rt, frames[n:]); ok {
		m.ret(l)
	}
}
