package engine

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/daml/engine/prim"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// Every question a Daml script asks carries the call stack of the call
// that asked it (Daml.Script.Internal.LowLevel.getExposedCallStack): each
// HasCallStack call pushes a frame (GHC.Stack.Types.pushCallStack), and
// DA.Stack.getCallStack turns the stack into a list of frames, converting
// each location (DA.Stack.convSrcLoc) field by field; DA.Stack.callStack
// gives the stack of its caller. The stack jets are native versions of
// those four, with the same results: a quarter of the interpretation of
// the Splice Amulet suite once the free monad's jets are in.

const (
	primPackage  = "daml-prim"
	stackTypes   = "GHC.Stack.Types"
	stackModule  = "DA.Stack"
	callStackTyp = "CallStack"
)

func addStackJets(jets map[[2]string]scriptJet) {
	jets[[2]string{stackTypes, "pushCallStack"}] = scriptJet{
		pkgs: []string{primPackage},
		typ:  "DA.Types:Tuple2 Text GHC.Stack.Types:SrcLoc -> GHC.Stack.Types:CallStack -> GHC.Stack.Types:CallStack",
		body: "124120938ed19c97f34b519e0755a0fcfefc5c841cf05b7339ba61d4d0d19a00",
		make: makePushCallStack,
	}
	jets[[2]string{stackModule, "convSrcLoc"}] = scriptJet{
		pkgs: []string{stdlibPackage},
		typ:  convSrcLocType,
		body: convSrcLocBody,
		make: makeConvSrcLoc,
	}
	jets[[2]string{lowLevelModule, "dropInternalFrames"}] = scriptJet{
		typ:  dropInternalFramesType,
		body: dropInternalFramesBody,
		make: makeDropInternalFrames,
	}
	jets[[2]string{stackModule, "callStack"}] = scriptJet{
		pkgs: []string{stdlibPackage},
		typ:  callStackType,
		body: callStackBody,
		make: makeCallStack,
	}
	jets[[2]string{stackModule, "getCallStack"}] = scriptJet{
		pkgs: []string{stdlibPackage},
		typ:  "GHC.Stack.Types:CallStack -> List (DA.Types:Tuple2 Text DA.Stack.Types:SrcLoc)",
		body: "c9b5b9764e92328ba65e65487a0e14fa798aae6e5be0b84b53b733ddcc7c986d",
		make: makeGetCallStack,
	}
}

const (
	convSrcLocType = "GHC.Stack.Types:SrcLoc -> DA.Stack.Types:SrcLoc"
	convSrcLocBody = "e7786b071c93e6c8cdb55c6d7ff9d793eb2abe9c8f22f3c64f26e563bca28756"
)

// typeCons returns the type constructors of t, left to right.
func typeCons(t lf.Type) []lf.TypeConID {
	switch t := t.(type) {
	case *lf.TCon:
		return []lf.TypeConID{t.ID}
	case *lf.TApp:
		return append(typeCons(t.Fun), typeCons(t.Arg)...)
	}
	return nil
}

// callStackRanks reports whether the CallStack data type of package p
// (daml-prim) has the constructors EmptyCallStack, PushCallStack and
// FreezeCallStack, in that order (ranks 0, 1, 2).
func callStackRanks(p *lf.Package) bool {
	dt := p.DataType(stackTypes, callStackTyp)
	if dt == nil || dt.Variety != lf.VariantVariety || len(dt.Fields) != 3 {
		return false
	}
	for i, n := range []string{"EmptyCallStack", "PushCallStack", "FreezeCallStack"} {
		if dt.Fields[i].Name != n {
			return false
		}
	}
	return true
}

// makePushCallStack: pushCallStack (fn, loc) stk is stk when stk is
// frozen, else PushCallStack (fn, loc, stk).
func makePushCallStack(p *lf.Package, def *lf.DefValue) (Value, bool) {
	cs := typeCons(def.Type) // Tuple2, SrcLoc, CallStack, CallStack
	dt := p.DataType(stackTypes, callStackTyp)
	if len(cs) != 4 || !callStackRanks(p) {
		return nil, false
	}
	// The Tuple3 of PushCallStack's argument.
	tc := typeCons(dt.Fields[1].Type)
	if len(tc) != 3 || tc[0].Module != "DA.Types" || tc[0].Name != "Tuple3" {
		return nil, false
	}
	tuple3 := &jetRecordType{id: tc[0]}
	return jetPAP(stackTypes+":pushCallStack", 2, func(m *Machine, a []Value) {
		ds, ok1 := a[0].(*Record)
		stk, ok2 := a[1].(*Variant)
		if !ok1 || !ok2 || len(ds.Fields) != 2 {
			m.fail(crash("pushCallStack on %T, %T", a[0], a[1]))
			return
		}
		if stk.Rank == 2 { // FreezeCallStack
			m.ret(stk)
			return
		}
		rt, err := tuple3.get(m)
		if err != nil {
			m.fail(err)
			return
		}
		x := &struct {
			v Variant
			t Record
			f [3]Value
		}{}
		x.f = [3]Value{ds.Fields[0], ds.Fields[1], stk}
		x.t = Record{Type: rt, Fields: x.f[:]}
		x.v = Variant{ID: stk.ID, Con: "PushCallStack", Rank: 1, Value: &x.t}
		m.ret(&x.v)
	}), true
}

// srcLocConv converts GHC.Stack.Types:SrcLoc records to
// DA.Stack.Types:SrcLoc ones.
type srcLocConv struct{ to *jetRecordType }

// conv returns the DA.Stack.Types:SrcLoc of loc: its fields, the lines and
// columns (the last four) less one, computed last first as Daml computes
// a record's fields; false when it failed or threw (SUB_INT64 of the
// least Int64).
func (c srcLocConv) conv(m *Machine, loc Value) (Value, bool) { return c.convert(m, loc, true) }

// check fails or throws as conv does, building nothing.
func (c srcLocConv) check(m *Machine, loc Value) bool {
	_, ok := c.convert(m, loc, false)
	return ok
}

// convert is conv, building the record when build is set.
func (c srcLocConv) convert(m *Machine, loc Value, build bool) (Value, bool) {
	r, ok := loc.(*Record)
	if !ok || len(r.Fields) != 7 {
		m.fail(crash("convSrcLoc on %T", loc))
		return nil, false
	}
	rt, err := c.to.get(m)
	if err != nil {
		m.fail(err)
		return nil, false
	}
	if len(rt.Fields) != 7 {
		m.fail(crash("convSrcLoc to %s of %d fields", rt.ID, len(rt.Fields)))
		return nil, false
	}
	var out *Record
	if build {
		out = newRecord(rt)
	}
	for i := 6; i >= 0; i-- {
		v := r.Fields[i]
		if i >= 3 {
			x, ok := v.(Int64)
			if !ok {
				m.fail(crash("convSrcLoc: field %d is %T", i, v))
				return nil, false
			}
			d, err := prim.SubInt64(int64(x), 1)
			if err != nil {
				m.arithmeticError("SUB_INT64", []Value{x, Int64(1)})
				return nil, false
			}
			v = Int64(d)
		}
		if build {
			out.Fields[i] = v
		}
	}
	if !build {
		return nil, true
	}
	return out, true
}

// newSrcLocConv returns the converter of convSrcLoc, whose type (checked
// by jetFits) is GHC.Stack.Types:SrcLoc -> DA.Stack.Types:SrcLoc.
func newSrcLocConv(def *lf.DefValue) (srcLocConv, bool) {
	cs := typeCons(def.Type)
	if len(cs) != 2 {
		return srcLocConv{}, false
	}
	return srcLocConv{to: &jetRecordType{id: cs[1]}}, true
}

func makeConvSrcLoc(_ *lf.Package, def *lf.DefValue) (Value, bool) {
	c, ok := newSrcLocConv(def)
	if !ok {
		return nil, false
	}
	return jetPAP(stackModule+":convSrcLoc", 1, func(m *Machine, a []Value) {
		if v, ok := c.conv(m, a[0]); ok {
			m.ret(v)
		}
	}), true
}

// makeGetCallStack: getCallStack stk is the list of stk's frames, each
// (function, convSrcLoc location), innermost first, through frozen
// stacks. It calls DA.Stack's convSrcLoc, which must be the one its jet
// implements.
func makeGetCallStack(p *lf.Package, def *lf.DefValue) (Value, bool) {
	cdef := p.Value(stackModule, "convSrcLoc")
	if !jetFits(cdef, scriptJet{typ: convSrcLocType, body: convSrcLocBody}) {
		return nil, false
	}
	c, ok := newSrcLocConv(cdef)
	cs := typeCons(def.Type) // CallStack, Tuple2, SrcLoc
	if !ok || len(cs) != 3 || cs[2] != c.to.id {
		return nil, false
	}
	return &PAP{fn: &getCallStackJet{conv: c, tuple2: &jetRecordType{id: cs[1]}}, arity: 1}, true
}

// callStackFrames gives the PushCallStack frames of a DA.Stack CallStack
// value, outermost last, as getCallStack walks them (through frozen
// stacks), appended to frames (the callers' buffer on their stack, which
// a script's call stacks, a few frames deep, fit); on a value of another
// shape it fails the machine and returns false.
func callStackFrames(m *Machine, stk Value, frames []*Record) ([]*Record, bool) {
	for v := stk; ; {
		s, ok := v.(*Variant)
		if !ok {
			m.fail(crash("getCallStack on %T", v))
			return nil, false
		}
		if s.Rank == 0 { // EmptyCallStack
			return frames, true
		}
		if s.Rank == 2 { // FreezeCallStack
			v = s.Value
			continue
		}
		t, ok := s.Value.(*Record)
		if !ok || len(t.Fields) != 3 {
			m.fail(crash("getCallStack: PushCallStack of %T", s.Value))
			return nil, false
		}
		frames = append(frames, t)
		v = t.Fields[2]
	}
}

// frameBuf is the size of the buffers of callStackFrames.
const frameBuf = 16

// getCallStackJet is the function of a getCallStack jet (of arity 1),
// with what it converts frames with: getExposedCallStack's jet, finding
// it as getCallStack's function, converts only the frames it keeps
// (exposedjet.go).
type getCallStackJet struct {
	conv   srcLocConv
	tuple2 *jetRecordType
}

func (g *getCallStackJet) enter(m *Machine, a []Value) {
	var buf [frameBuf]*Record
	frames, ok := callStackFrames(m, a[0], buf[:0])
	if !ok {
		return
	}
	rt, err := g.tuple2.get(m)
	if err != nil {
		m.fail(err)
		return
	}
	if l, ok := g.list(m, rt, frames); ok {
		m.ret(l)
	}
}

// list returns the list of the frames (outermost last), each (function,
// converted location) in a record of type rt (Tuple2), innermost first;
// false when a conversion failed or threw. It is built from the
// outermost frame in, as Daml computes the tail of a cons before its
// head.
func (g *getCallStackJet) list(m *Machine, rt *RecordType, frames []*Record) (*List, bool) {
	var l *List
	for _, t := range slices.Backward(frames) {
		loc, ok := g.conv.conv(m, t.Fields[1])
		if !ok {
			return nil, false
		}
		x := &struct {
			c List
			r Record
			f [2]Value
		}{}
		x.f = [2]Value{t.Fields[0], loc}
		x.r = Record{Type: rt, Fields: x.f[:]}
		x.c = List{Head: &x.r, Tail: l}
		l = &x.c
	}
	return l, true
}

// jetRecordType is the type of the records a jet builds, looked up
// (Engine.recordType) at its first use rather than at every one. A jet is
// made for the definitions of one Cache (Options.Override is asked when a
// definition is compiled), whose engines share their RecordTypes.
type jetRecordType struct {
	id lf.TypeConID
	rt atomic.Pointer[RecordType]
}

func (j *jetRecordType) get(m *Machine) (*RecordType, *Error) {
	if rt := j.rt.Load(); rt != nil {
		return rt, nil
	}
	rt, err := m.e.recordType(j.id)
	if err != nil {
		return nil, err
	}
	j.rt.Store(rt)
	return rt, nil
}

// dropInternalFrames of daml-script (dropWhile (isInternalSrcLoc . snd))
// drops the innermost frames of a call stack whose location is in
// daml-script: isInternalSrcLoc loc = isPrefixOf pkgPrefix (srcLocPackage
// loc) && isPrefixOf "Daml.Script" (srcLocModule loc), the prefixes being
// text literals of two specialised definitions ("daml-script-" or
// "daml3-script-" for the package, by library).
const (
	dropInternalFramesType = "List (DA.Types:Tuple2 Text DA.Stack.Types:SrcLoc) -> List (DA.Types:Tuple2 Text DA.Stack.Types:SrcLoc)"
	dropInternalFramesBody = "2cbdbfad4a9f991a1023f2aaa51fbd8281f01796632532532e406ae0e728434b"
	isInternalSrcLocType   = "DA.Stack.Types:SrcLoc -> Bool"
	isInternalSrcLocBody   = "92bb356f40e95e1cf0d53745485791c11d85381dad5777a98fd706ca5b3757df"
)

// isPrefixOfLiteral returns lit when x is DA.Text.isPrefixOf applied to
// the text literal lit.
func isPrefixOfLiteral(x lf.Expr) (string, bool) {
	app, ok := x.(*lf.EApp)
	if !ok || len(app.Args) != 1 {
		return "", false
	}
	fn, ok := app.Fun.(*lf.EVal)
	lit, ok2 := app.Args[0].(*lf.EText)
	if !ok || !ok2 || fn.Ref.Module != "DA.Text" || fn.Ref.Name != "isPrefixOf" {
		return "", false
	}
	return lit.Value, true
}

// internalPrefixes returns the package and module prefixes of
// isInternalSrcLoc of the daml-script package p, or false when it is not
// the definition the jets implement.
func internalPrefixes(p *lf.Package) (srcLocPrefixes, bool) {
	var prefixes srcLocPrefixes
	if !jetFits(p.Value(lowLevelModule, "isInternalSrcLoc"), scriptJet{typ: isInternalSrcLocType, body: isInternalSrcLocBody}) {
		return prefixes, false
	}
	for i, name := range []string{"$$$$sc_isInternalSrcLoc_1", "$$$$sc_isInternalSrcLoc_2"} {
		def := p.Value(lowLevelModule, name)
		if def == nil || def.Type == nil || def.Type.String() != "Text -> Bool" {
			return prefixes, false
		}
		lit, ok := isPrefixOfLiteral(def.Body())
		if !ok {
			return prefixes, false
		}
		prefixes[i] = lit
	}
	return prefixes, true
}

func makeDropInternalFrames(p *lf.Package, _ *lf.DefValue) (Value, bool) {
	prefixes, ok := internalPrefixes(p)
	if !ok {
		return nil, false
	}
	return jetPAP(lowLevelModule+":dropInternalFrames", 1, func(m *Machine, a []Value) {
		if l, ok := prefixes.drop(m, a[0]); ok {
			m.ret(l)
		}
	}), true
}

// srcLocPrefixes are the package and module prefixes of the locations
// isInternalSrcLoc finds internal (internalPrefixes).
type srcLocPrefixes [2]string

// drop returns dropInternalFrames v: the frames of the list v from the
// first one outside daml-script on; false when it failed the machine.
func (x srcLocPrefixes) drop(m *Machine, v Value) (*List, bool) {
	l, ok := v.(*List)
	if !ok {
		m.fail(crash("dropInternalFrames on %T", v))
		return nil, false
	}
	for ; l != nil; l = l.Tail {
		t, ok := l.Head.(*Record)
		if !ok || len(t.Fields) != 2 {
			m.fail(crash("dropInternalFrames: a frame is a %T", l.Head))
			return nil, false
		}
		loc, ok := t.Fields[1].(*Record)
		if !ok {
			m.fail(crash("dropInternalFrames: a location is a %T", t.Fields[1]))
			return nil, false
		}
		internal, ok := x.internal(m, loc, loc.Type)
		if !ok {
			return nil, false
		}
		if !internal {
			break
		}
	}
	return l, true
}

// internal reports whether loc (of a record type whose field names are
// those of names, positionally) is in daml-script, as isInternalSrcLoc
// decides; false when it fails, as dropInternalFrames does.
func (x srcLocPrefixes) internal(m *Machine, loc *Record, names *RecordType) (internal, ok bool) {
	var pkg, mod Text
	var ok1, ok2 bool
	if i := slices.Index(names.Fields, "srcLocPackage"); i >= 0 && i < len(loc.Fields) {
		pkg, ok1 = loc.Fields[i].(Text)
	}
	if i := slices.Index(names.Fields, "srcLocModule"); i >= 0 && i < len(loc.Fields) {
		mod, ok2 = loc.Fields[i].(Text)
	}
	if !ok1 || !ok2 {
		m.fail(crash("dropInternalFrames: a location without package or module"))
		return false, false
	}
	return strings.HasPrefix(string(pkg), x[0]) && strings.HasPrefix(string(mod), x[1]), true
}

// DA.Stack's callStack gives the call stack of its caller (the implicit
// parameter ?callStack, less the frame of the call of callStack itself):
//
//	callStack = case ?callStack of
//	  EmptyCallStack -> EmptyCallStack
//	  _ -> let ds = ?callStack in popCallStack ?callStack
//
// It asks the implicit parameter's function three times; each time the
// function pushes the frames of the calls between the caller and the
// HasCallStack function that asked (pushCallStack), and every question a
// script asks computes a call stack (getExposedCallStack). The jet asks
// once: the function is a Daml function of (), whose result is the same
// each time (Daml has no side effects but traces, and the compiler's
// call-stack functions trace nothing). It evaluates the definitions the
// Daml one uses (the empty stack and daml-prim's popCallStack) as the
// Daml one does.
const (
	callStackType  = "GHC.Classes:IP (DA.Internal.PromotedText:PromotedText <_callStack : Unit>) GHC.Stack.Types:CallStack -> GHC.Stack.Types:CallStack"
	callStackBody  = "457b4d74d2281e8c186f5e97d6ea4f8d20f4dcc5cae0c0d1d2666780cee38a9b"
	emptyStackBody = "e4a584e7a19e58ac201855903e35ad5f375f346d4d9ff9f3428a4abcca1e3d22"
)

func makeCallStack(p *lf.Package, def *lf.DefValue) (Value, bool) {
	empty := lf.TypeConID{PackageID: p.ID, Module: stackModule, Name: "$$$$sc_callStack_1"}
	if !jetFits(p.Value(empty.Module, empty.Name), scriptJet{typ: "GHC.Stack.Types:CallStack", body: emptyStackBody}) {
		return nil, false
	}
	var pop lf.TypeConID
	lf.Inspect(def.Body(), func(n any) bool {
		if v, ok := n.(*lf.EVal); ok && v.Ref.Module == stackTypes && v.Ref.Name == "popCallStack" {
			pop = v.Ref
		}
		return true
	})
	if pop.PackageID == "" {
		return nil, false
	}
	refs := &callStackRefs{}
	refs.empty.id, refs.pop.id = empty, pop
	return jetPAP(stackModule+":callStack", 1, func(m *Machine, a []Value) {
		d, ok := a[0].(*Struct)
		if !ok {
			m.fail(crash("callStack of %T", a[0]))
			return
		}
		i, found := slices.BinarySearch(d.Names, "m_ip")
		if !found {
			m.fail(crash("callStack of a struct without m_ip"))
			return
		}
		k := &kCallStack{refs: refs}
		m.push(k)
		k.arg[0] = Unit{}
		m.apply(d.Values[i], k.arg[:])
	}), true
}

// callStackRefs are the top-level values a callStack jet uses: the empty
// stack and popCallStack.
type callStackRefs struct{ empty, pop topRef }

// kCallStack gives the empty stack, or popCallStack of the stack
// computed.
type kCallStack struct {
	refs *callStackRefs
	arg  [1]Value
}

func (k *kCallStack) resume(m *Machine, v Value) {
	stk, ok := v.(*Variant)
	if !ok {
		m.fail(crash("callStack: a %T", v))
		return
	}
	if stk.Con == "EmptyCallStack" {
		k.refs.empty.eval(m)
		return
	}
	k.arg[0] = stk
	m.push(&kApplyTo{args: k.arg[:]})
	k.refs.pop.eval(m)
}
