package engine

import (
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// A jet is a native implementation of a daml-stdlib definition whose
// Daml-LF body is slow to interpret, with the same results: DA.Text's
// isPrefixOf explodes both texts into lists of one-character texts and
// compares them element by element through the Eq Text dictionary, and
// daml-script asks it twice for every frame of the call stack of every
// question it builds (Daml.Script.Internal.LowLevel.isInternalSrcLoc),
// about half of the interpretation of a typical script.
type jet struct {
	// typ is the definition's type as lf.Type's String prints it: a jet
	// replaces only a definition of that type.
	typ   string
	arity int
	fn    bf
}

// stdlibPackage is the name of the package the jets replace definitions of.
const stdlibPackage = "daml-stdlib"

var stdlibJets = map[[2]string]jet{
	// isPrefixOf a b = L.isPrefixOf (explode a) (explode b): a text is a
	// prefix of another's code points exactly when its UTF-8 bytes are
	// a prefix of the other's (UTF-8 is self-synchronizing).
	{"DA.Text", "isPrefixOf"}: {typ: textTextBool, arity: 2, fn: func(m *Machine, a []Value) {
		m.ret(Bool(strings.HasPrefix(string(a[1].(Text)), string(a[0].(Text)))))
	}},
	// isSuffixOf a b = L.isSuffixOf (explode a) (explode b), likewise.
	{"DA.Text", "isSuffixOf"}: {typ: textTextBool, arity: 2, fn: func(m *Machine, a []Value) {
		m.ret(Bool(strings.HasSuffix(string(a[1].(Text)), string(a[0].(Text)))))
	}},
	// isInfixOf a b = L.isInfixOf (explode a) (explode b), likewise.
	{"DA.Text", "isInfixOf"}: {typ: textTextBool, arity: 2, fn: func(m *Machine, a []Value) {
		m.ret(Bool(strings.Contains(string(a[1].(Text)), string(a[0].(Text)))))
	}},
}

const textTextBool = "Text -> Text -> Bool"

// StdlibJet returns a native implementation of the top-level value ref
// of package p when p is daml-stdlib and ref one of the few definitions
// that have one (stdlibJets), of the expected type; else ok is false. It
// is for Options.Override: the Daml Script runner uses it, trusting the
// package's name as it does to replace daml-script's dangerousCast.
func StdlibJet(p *lf.Package, ref lf.TypeConID) (v Value, ok bool) {
	if p == nil || p.Name != stdlibPackage {
		return nil, false
	}
	j, ok := stdlibJets[[2]string{ref.Module, ref.Name}]
	if !ok {
		return nil, false
	}
	def := p.Value(ref.Module, ref.Name)
	if def == nil || def.Type == nil || def.Type.String() != j.typ {
		return nil, false
	}
	return &PAP{fn: &builtin{name: ref.Module + ":" + ref.Name, arity: j.arity, fn: j.fn}, arity: j.arity}, true
}
