// Package typecheck is the Daml-LF 2 package validator: the checks of
// Canton's Validation.checkPackage (daml-lf/validation in
// github.com/digital-asset/canton, release 3.5), which Canton runs on
// every package of an uploaded or validated DAR and reports as
// DAR_VALIDATION_ERROR. It checks, in Canton's order: name collisions,
// module and type-synonym cycles, dependency LF versions, then module by
// module the kinds and types of every definition and expression
// (Typing.scala) and serializability (Serializability.scala).
//
// The checker is pure: it reads decoded packages (daml/lf) and returns
// the first error as an *Error whose Kind is the name of Canton's
// ValidationError case. It is safe on any package the decoder accepts:
// it bounds its recursion depth and its total work (linear in the
// package's size), and refuses a package beyond them with ETooComplex
// rather than running out of stack or time.
package typecheck

import (
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/parallel"
)

// Lookup returns the package with the given id, or nil when it is unknown.
// It is the universe the checked package's references are resolved in:
// for a DAR, exactly the DAR's packages (Canton's Engine.validateDar).
type Lookup func(id string) *lf.Package

// Bounds on the checker's work. maxDepth bounds the nesting of the
// checker's recursion (expressions, and types, including the types it
// builds by substitution); the decoder bounds expressions to 10000 levels
// through interned expressions, so decodable packages stay below it except
// for types built to be deep. The number of steps (expression, type and
// kind nodes visited) is bounded by workPerByte steps per byte of the
// package's payload plus baseWork: interned expressions and types form a
// DAG, which a hostile archive can make exponentially large as a tree,
// while real packages take less than one step per payload byte (0.5 at
// most for the real DARs of the test data), so the bound leaves them a
// margin of more than a hundred. A package built in memory (no payload)
// gets noPayloadWork steps.
const (
	maxDepth      = 100_000
	workPerByte   = 64
	baseWork      = 1_000_000
	noPayloadWork = 20_000_000
)

// Check validates pkg as Canton's Validation.checkPackage does, resolving
// its references to other packages through lookup (the package itself is
// always found; lookup may be nil for a package without dependencies).
// It returns nil or the first error as an *Error (use errors.As).
//
// The checks run in Canton's order, so that a package with one fault
// reports the error Canton reports: collisions, import and synonym cycles,
// dependency versions, then for each module (in archive order, where
// Canton's order is a hash map's) its definitions' types (data types,
// synonyms and values, then templates, exceptions and interfaces) and
// then their serializability.
func Check(pkg *lf.Package, lookup Lookup) (err error) {
	c := newChecker(pkg, lookup)
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	c.checkPackage()
	return nil
}

// CheckDAR validates every package of the DAR that is not a stable package
// and for which skip (when not nil) returns false, in the DAR's order,
// resolving references among the DAR's packages only (Canton's
// Engine.validateDar checks the packages its engine has not loaded yet;
// stable packages are always loaded). It returns the first error.
//
// The packages are checked concurrently, on up to GOMAXPROCS goroutines
// (a package's check reads the others but does not depend on their
// checks); the error returned is the first in the DAR's order, as when
// they are checked one after the other. skip is called in the caller's
// goroutine, once per package, before any check starts.
func CheckDAR(dar *lf.DAR, skip func(id string) bool) error {
	var pkgs []*lf.Package
	for _, p := range dar.Packages {
		if p.IsStable() || (skip != nil && skip(p.ID)) {
			continue
		}
		pkgs = append(pkgs, p)
	}
	return parallel.FirstError(len(pkgs), func(i int) int64 { return int64(len(pkgs[i].Payload)) },
		func(i int) error { return Check(pkgs[i], dar.Package) })
}

func newChecker(pkg *lf.Package, lookup Lookup) *checker {
	budget := noPayloadWork
	if len(pkg.Payload) > 0 {
		budget = baseWork + workPerByte*len(pkg.Payload)
	}
	return &checker{pkg: pkg, bodies: pkg.NewBodyReader(), lookup: lookup, tvars: map[string]*lf.Kind{}, evars: map[string]lf.Type{},
		kinds: map[lf.Type]*lf.Kind{}, tyApps: map[tyAppKey]lf.Type{}, tcons: map[*lf.DataType]*lf.TCon{}, positions: map[*lf.DataType]namePositions{}, expansions: map[*lf.TSyn]lf.Type{}, maxWork: budget,
		referenced: map[string]bool{}}
}

// checker is the state of one package check.
type checker struct {
	pkg *lf.Package
	// bodies reads the package's value bodies: the check walks them all,
	// and the package keeps only those its users decode (lf.BodyReader).
	bodies *lf.BodyReader
	lookup Lookup
	ctx    Context

	// tvars and evars are the kinds of the type variables and the types
	// of the expression variables in scope; binders shadow by replacing
	// an entry, which is restored when the binder's scope ends.
	tvars map[string]*lf.Kind
	evars map[string]lf.Type
	// alphaL and alphaR are the binders entered by alpha on each side.
	alphaL, alphaR []string
	// typeStack holds the types of the fields of the structs being
	// checked (structMismatch); fieldOrder is structMatch's scratch.
	typeStack  []lf.Type
	fieldOrder []int
	// ranks is checkExhaustive's scratch.
	ranks []bool
	// eStack and tStack are the entries replaced by the binders in
	// scope (pushE, pushT).
	eStack []savedE
	tStack []savedT

	depth, work, maxWork int

	// referenced are the other packages the package refers to, and
	// patternPackages (when set) records the packages of case patterns
	// (both filled by checkRecursion's walk).
	referenced      map[string]bool
	patternPackages func(lf.TypeConID)

	// kinds memoizes kindOf for the types whose kind does not depend on
	// the type variables in scope; tvarLookups counts the type variable
	// lookups, to tell them. tyApps memoizes typeOfTyApp's instances,
	// expansions expandHead.
	kinds  map[lf.Type]*lf.Kind
	tyApps map[tyAppKey]lf.Type
	// tcons are the type constructor nodes of conAppType.
	tcons map[*lf.DataType]*lf.TCon
	// positions are the name positions of large data types (fieldIndex).
	positions   map[*lf.DataType]namePositions
	expansions  map[*lf.TSyn]lf.Type
	tvarLookups int

	// lastModule is the module moduleOf found last, of package
	// lastModulePkg: most references follow one to the same module (a
	// package and its modules are immutable), and the lookup through
	// two maps by long strings was 5 % of a check (1.4 % fewer
	// instructions with this).
	lastModule    *lf.Module
	lastModulePkg string
}

func (c *checker) enter() {
	c.depth++
	c.work++
	if c.depth > maxDepth || c.work > c.maxWork {
		c.tooComplex()
	}
}

func (c *checker) leave() { c.depth-- }

func (c *checker) tooComplex() {
	c.depth = 0 // the error's rendering must not trip over the bound again
	c.throw(ETooComplex, Error{}, "the package is too complex to check (more than %d steps or %d levels of nesting)", c.maxWork, maxDepth)
}

// throw raises an error of the kind with the fields of e.
func (c *checker) throw(kind ErrorKind, e Error, format string, args ...any) {
	panic(c.errorf(kind, e, format, args...))
}

// fail raises err.
func (c *checker) fail(err *Error) { panic(err) }

// saved is a binder's previous entry in an environment, restored when
// the binder's scope ends.
type saved[V any] struct {
	name string
	old  V
	had  bool
}

type (
	savedT = saved[*lf.Kind]
	savedE = saved[lf.Type]
)

// bind sets name in env and returns what it replaced.
func bind[V any](env map[string]V, name string, v V) saved[V] {
	old, had := env[name]
	env[name] = v
	return saved[V]{name, old, had}
}

// unbind restores what bind replaced.
func unbind[V any](env map[string]V, s saved[V]) {
	if s.had {
		env[s.name] = s.old
	} else {
		delete(env, s.name)
	}
}

func (c *checker) bindT(name string, k *lf.Kind) savedT { return bind(c.tvars, name, k) }
func (c *checker) unbindT(s savedT)                     { unbind(c.tvars, s) }
func (c *checker) bindE(name string, t lf.Type) savedE  { return bind(c.evars, name, t) }
func (c *checker) unbindE(s savedE)                     { unbind(c.evars, s) }

// pushE binds name for a scope that popE(base) ends, base being the
// length of c.eStack when the scope began: the entries a scope replaces
// live on one stack rather than in a slice allocated per binder.
func (c *checker) pushE(name string, t lf.Type) { c.eStack = append(c.eStack, c.bindE(name, t)) }

func (c *checker) popE(base int) {
	for i := len(c.eStack) - 1; i >= base; i-- {
		c.unbindE(c.eStack[i])
	}
	c.eStack = c.eStack[:base]
}

// pushT and popT are pushE and popE for type variables.
func (c *checker) pushT(name string, k *lf.Kind) { c.tStack = append(c.tStack, c.bindT(name, k)) }

func (c *checker) popT(base int) {
	for i := len(c.tStack) - 1; i >= base; i-- {
		c.unbindT(c.tStack[i])
	}
	c.tStack = c.tStack[:base]
}

// reset empties the environment and sets the context for a definition.
func (c *checker) reset(ctx Context) {
	c.ctx = ctx
	clear(c.tvars)
	clear(c.evars)
	// A failure throws out of Check with binders still entered: a
	// checker reused after one starts from empty stacks.
	c.eStack, c.tStack = c.eStack[:0], c.tStack[:0]
	c.alphaL, c.alphaR = c.alphaL[:0], c.alphaR[:0]
}

// --- Lookups (Canton's PackageInterface): each failure is
// EUnknownDefinition naming what was not found and what was looked for. ---

func (c *checker) packageOf(id string, ctx Reference) *lf.Package {
	if id == c.pkg.ID {
		return c.pkg
	}
	if c.lookup != nil {
		if p := c.lookup(id); p != nil {
			return p
		}
	}
	c.fail(c.lookupErr(Reference{Sort: RefPackage, ID: lf.TypeConID{PackageID: id}}, ctx))
	return nil
}

func (c *checker) moduleOf(id lf.TypeConID, ctx Reference) *lf.Module {
	if c.lastModule != nil && id.Module == c.lastModule.Name && id.PackageID == c.lastModulePkg {
		return c.lastModule
	}
	m := c.packageOf(id.PackageID, ctx).Module(id.Module)
	if m == nil {
		c.fail(c.lookupErr(Reference{Sort: RefModule, ID: lf.TypeConID{PackageID: id.PackageID, Module: id.Module}}, ctx))
	}
	c.lastModule, c.lastModulePkg = m, id.PackageID
	return m
}

// isDefinition reports whether name is a definition (data type, synonym
// or value) of m.
func isDefinition(m *lf.Module, name string) bool {
	return m.DataType(name) != nil || m.Synonym(name) != nil || m.Value(name) != nil
}

func (c *checker) lookupDataType(id lf.TypeConID, ctx Reference) *lf.DataType {
	m := c.moduleOf(id, ctx)
	if dt := m.DataType(id.Name); dt != nil {
		return dt
	}
	c.notDefinition(m, id, RefDataType, ctx)
	return nil
}

func (c *checker) notDefinition(m *lf.Module, id lf.TypeConID, sort RefSort, ctx Reference) {
	if isDefinition(m, id.Name) {
		c.fail(c.lookupErr(Reference{Sort: sort, ID: id}, ctx))
	}
	c.fail(c.lookupErr(Reference{Sort: RefDefinition, ID: id}, ctx))
}

func (c *checker) lookupTypeSyn(id lf.TypeConID, ctx Reference) *lf.TypeSynonym {
	m := c.moduleOf(id, ctx)
	if s := m.Synonym(id.Name); s != nil {
		return s
	}
	c.notDefinition(m, id, RefTypeSyn, ctx)
	return nil
}

func (c *checker) lookupValue(id lf.TypeConID, ctx Reference) *lf.DefValue {
	m := c.moduleOf(id, ctx)
	if v := m.Value(id.Name); v != nil {
		return v
	}
	c.notDefinition(m, id, RefValue, ctx)
	return nil
}

func (c *checker) lookupTemplate(id lf.TypeConID, ctx Reference) *lf.Template {
	if t := c.moduleOf(id, ctx).Template(id.Name); t != nil {
		return t
	}
	c.fail(c.lookupErr(Reference{Sort: RefTemplate, ID: id}, ctx))
	return nil
}

func (c *checker) lookupInterface(id lf.TypeConID, ctx Reference) *lf.Interface {
	if i := c.moduleOf(id, ctx).Interface(id.Name); i != nil {
		return i
	}
	c.fail(c.lookupErr(Reference{Sort: RefInterface, ID: id}, ctx))
	return nil
}

func (c *checker) lookupException(id lf.TypeConID, ctx Reference) {
	if !c.moduleOf(id, ctx).HasException(id.Name) {
		c.fail(c.lookupErr(Reference{Sort: RefException, ID: id}, ctx))
	}
}

func implements(t *lf.Template, iface lf.TypeConID) bool {
	for _, i := range t.Implements {
		if i == iface {
			return true
		}
	}
	return t.Instance(iface) != nil
}

// hasInterfaceInstance reports whether the template exists and implements
// the interface (lookupInterfaceInstance succeeds).
func (c *checker) hasInterfaceInstance(iface, tmpl lf.TypeConID) bool {
	p := c.pkg
	if tmpl.PackageID != c.pkg.ID {
		if c.lookup == nil {
			return false
		}
		if p = c.lookup(tmpl.PackageID); p == nil {
			return false
		}
	}
	t := p.Template(tmpl.Module, tmpl.Name)
	return t != nil && implements(t, iface)
}

func (c *checker) lookupInterfaceInstance(iface, tmpl lf.TypeConID, ctx Reference) {
	t := c.lookupTemplate(tmpl, ctx)
	if !implements(t, iface) {
		c.fail(c.lookupErr(Reference{Sort: RefInterfaceInstance, ID: tmpl, Interface: iface}, ctx))
	}
}

func (c *checker) lookupTemplateChoice(tmpl lf.TypeConID, ch string) *lf.Choice {
	ctx := Reference{Sort: RefTemplateChoice, ID: tmpl, Name: ch}
	if x := c.lookupTemplate(tmpl, ctx).Choice(ch); x != nil {
		return x
	}
	c.fail(c.lookupErr(ctx, ctx))
	return nil
}

func (c *checker) lookupInterfaceChoice(iface lf.TypeConID, ch string) *lf.Choice {
	ctx := Reference{Sort: RefInterfaceChoice, ID: iface, Name: ch}
	if x := c.lookupInterface(iface, ctx).Choice(ch); x != nil {
		return x
	}
	c.fail(c.lookupErr(ctx, ctx))
	return nil
}

func (c *checker) lookupTemplateKey(tmpl lf.TypeConID) *lf.TemplateKey {
	ctx := Reference{Sort: RefTemplateKey, ID: tmpl}
	if k := c.lookupTemplate(tmpl, ctx).Key; k != nil {
		return k
	}
	c.fail(c.lookupErr(ctx, ctx))
	return nil
}

func (c *checker) lookupMethod(iface lf.TypeConID, name string) *lf.InterfaceMethod {
	ctx := Reference{Sort: RefMethod, ID: iface, Name: name}
	i := c.lookupInterface(iface, ctx)
	for k := range i.Methods {
		if i.Methods[k].Name == name {
			return &i.Methods[k]
		}
	}
	c.fail(c.lookupErr(ctx, ctx))
	return nil
}
