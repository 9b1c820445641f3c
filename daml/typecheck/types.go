package typecheck

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Kinds and types built by the checker. Types are immutable and shared.
var (
	kStar       = &lf.Kind{Sort: lf.KindStar}
	kNat        = &lf.Kind{Sort: lf.KindNat}
	kStarToStar = &lf.Kind{Sort: lf.KindArrow, Param: kStar, Result: kStar}

	tUnit           = builtin(lf.BuiltinUnit)
	tBool           = builtin(lf.BuiltinBool)
	tInt64          = builtin(lf.BuiltinInt64)
	tText           = builtin(lf.BuiltinText)
	tTimestamp      = builtin(lf.BuiltinTimestamp)
	tDate           = builtin(lf.BuiltinDate)
	tParty          = builtin(lf.BuiltinParty)
	tAny            = builtin(lf.BuiltinAny)
	tTypeRep        = builtin(lf.BuiltinTypeRep)
	tAnyException   = builtin(lf.BuiltinAnyException)
	tFailureCat     = builtin(lf.BuiltinFailureCategory)
	tRoundingMode   = builtin(lf.BuiltinRoundingMode)
	tBigNumeric     = builtin(lf.BuiltinBigNumeric)
	tArrow          = builtin(lf.BuiltinArrow)
	tListCon        = builtin(lf.BuiltinList)
	tOptionalCon    = builtin(lf.BuiltinOptional)
	tUpdateCon      = builtin(lf.BuiltinUpdate)
	tContractIDCon  = builtin(lf.BuiltinContractID)
	tNumericCon     = builtin(lf.BuiltinNumeric)
	tTextMapCon     = builtin(lf.BuiltinTextMap)
	tGenMapCon      = builtin(lf.BuiltinGenMap)
	tParties        = tList(tParty)
	builtinTypes    = map[lf.BuiltinType]*lf.TBuiltin{}
	natTypes        [38]*lf.TNat
	tuple2          = &lf.TCon{ID: lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple2"}}
	freshVarPrefix  = "$freshVar"
	maxNatLiteral   = len(natTypes) - 1
	builtinStarKind = map[lf.BuiltinType]*lf.Kind{}
)

func builtin(b lf.BuiltinType) *lf.TBuiltin {
	if t := builtinTypes[b]; t != nil {
		return t
	}
	t := &lf.TBuiltin{Builtin: b}
	builtinTypes[b] = t
	return t
}

func init() {
	for i := range natTypes {
		natTypes[i] = &lf.TNat{N: i}
	}
	k2 := &lf.Kind{Sort: lf.KindArrow, Param: kStar, Result: kStarToStar}
	for b, k := range map[lf.BuiltinType]*lf.Kind{
		lf.BuiltinInt64: kStar, lf.BuiltinText: kStar, lf.BuiltinTimestamp: kStar, lf.BuiltinParty: kStar,
		lf.BuiltinBool: kStar, lf.BuiltinDate: kStar, lf.BuiltinUnit: kStar, lf.BuiltinAny: kStar,
		lf.BuiltinTypeRep: kStar, lf.BuiltinAnyException: kStar, lf.BuiltinRoundingMode: kStar,
		lf.BuiltinBigNumeric: kStar, lf.BuiltinFailureCategory: kStar,
		lf.BuiltinNumeric: {Sort: lf.KindArrow, Param: kNat, Result: kStar},
		lf.BuiltinList:    kStarToStar, lf.BuiltinUpdate: kStarToStar, lf.BuiltinContractID: kStarToStar,
		lf.BuiltinOptional: kStarToStar, lf.BuiltinTextMap: kStarToStar,
		lf.BuiltinArrow: k2, lf.BuiltinGenMap: k2,
	} {
		builtinStarKind[b] = k
		if int(b) < len(builtinKinds) {
			builtinKinds[b] = k
		}
	}
}

// builtinKinds holds the kinds of builtinStarKind's small values: an
// array is indexed without a map's hashing, at every builtin type node.
var builtinKinds [lf.BuiltinTextMap + 1]*lf.Kind

// builtinKind is the kind of the builtin type b, nil when unknown.
func builtinKind(b lf.BuiltinType) *lf.Kind {
	if b >= 0 && int(b) < len(builtinKinds) {
		return builtinKinds[b]
	}
	return builtinStarKind[b]
}

func app(f, a lf.Type) lf.Type       { return &lf.TApp{Fun: f, Arg: a} }
func fn(a, r lf.Type) lf.Type        { return app(app(tArrow, a), r) }
func tList(t lf.Type) lf.Type        { return app(tListCon, t) }
func tOptional(t lf.Type) lf.Type    { return app(tOptionalCon, t) }
func tUpdate(t lf.Type) lf.Type      { return app(tUpdateCon, t) }
func tContractID(t lf.Type) lf.Type  { return app(tContractIDCon, t) }
func tTextMap(t lf.Type) lf.Type     { return app(tTextMapCon, t) }
func tGenMap(k, v lf.Type) lf.Type   { return app(app(tGenMapCon, k), v) }
func tCon(id lf.TypeConID) lf.Type   { return &lf.TCon{ID: id} }
func tNumeric(scale lf.Type) lf.Type { return app(tNumericCon, scale) }
func forall(v string, k *lf.Kind, body lf.Type) lf.Type {
	return &lf.TForall{Param: lf.TypeParam{Name: v, Kind: k}, Body: body}
}

// natType returns the type-level natural n.
func natType(n int) lf.Type {
	if n >= 0 && n <= maxNatLiteral {
		return natTypes[n]
	}
	return &lf.TNat{N: n}
}

// conAppType is typeConAppToType for the data type dt of app.ID, its
// constructor node made once per data type.
func (c *checker) conAppType(dt *lf.DataType, app lf.TypeConApp) lf.Type {
	tc, ok := c.tcons[dt]
	if !ok || tc.ID != app.ID {
		// Keyed by the data type, checked by the id: a Lookup that
		// returned two packages for one id would share a data type
		// under two ids.
		tc = &lf.TCon{ID: app.ID}
		c.tcons[dt] = tc
	}
	var t lf.Type = tc
	for _, a := range app.Args {
		t = &lf.TApp{Fun: t, Arg: a}
	}
	return t
}

func typeConAppToType(app lf.TypeConApp) lf.Type {
	var t lf.Type = tCon(app.ID)
	for _, a := range app.Args {
		t = &lf.TApp{Fun: t, Arg: a}
	}
	return t
}

// kindOfParams is k1 -> ... -> kn -> *.
func kindOfParams(ps []lf.TypeParam) *lf.Kind {
	k := kStar
	for i := len(ps) - 1; i >= 0; i-- {
		k = &lf.Kind{Sort: lf.KindArrow, Param: ps[i].Kind, Result: k}
	}
	return k
}

// sortedFields returns the struct's fields sorted by name (Canton's Struct
// keeps them sorted; the decoder keeps archive order).
func sortedFields(t *lf.TStruct) []lf.Field {
	if slices.IsSortedFunc(t.Fields, cmpField) {
		return t.Fields
	}
	fs := slices.Clone(t.Fields)
	slices.SortStableFunc(fs, cmpField)
	return fs
}

func cmpField(a, b lf.Field) int { return strings.Compare(a.Name, b.Name) }

func structField(t *lf.TStruct, name string) (lf.Type, bool) {
	for _, f := range t.Fields {
		if f.Name == name {
			return f.Type, true
		}
	}
	return nil, false
}

// --- Kinds ---

// checkKind rejects an arrow kind whose result is nat, at any depth
// (Typing.scala Env.checkKind).
func (c *checker) checkKind(k *lf.Kind) {
	c.enter()
	c.checkKind1(k)
	c.leave()
}

func (c *checker) checkKind1(k *lf.Kind) {
	if k == nil {
		c.throw(ENatKindRightOfArrow, Error{}, "invalid kind ?")
	}
	if k.Sort != lf.KindArrow {
		return
	}
	if k.Result != nil && k.Result.Sort == lf.KindNat {
		c.throw(ENatKindRightOfArrow, Error{FoundKind: k}, "invalid kind %s", prettyKind(k))
	}
	c.checkKind(k.Param)
	c.checkKind(k.Result)
}

// checkType checks that t has kind k (Env.checkType).
func (c *checker) checkType(t lf.Type, k *lf.Kind) {
	found := c.kindOfCached(t)
	if found != k && !found.Equal(k) {
		c.fail(c.kindMismatch(found, k))
	}
}

// kindOfCached is kindOf, memoized for the types whose kind does not
// depend on the type variables in scope: those whose computation looked
// no variable up. Interned types are shared, so an annotation repeated
// throughout a package is kind-checked once. Errors are not memoized.
func (c *checker) kindOfCached(t lf.Type) *lf.Kind {
	switch t.(type) {
	case *lf.TBuiltin, *lf.TNat, *lf.TVar: // a variable's kind is never memoized
		return c.kindOf(t)
	}
	if k, ok := c.kinds[t]; ok {
		return k
	}
	before := c.tvarLookups
	k := c.kindOf(t)
	if c.tvarLookups == before {
		c.kinds[t] = k
	}
	return k
}

// kindOf is Env.kindOfType.
func (c *checker) kindOf(t lf.Type) *lf.Kind {
	c.enter()
	r := c.kindOf1(t)
	c.leave()
	return r
}

func (c *checker) kindOf1(t lf.Type) *lf.Kind {
	switch t := t.(type) {
	case *lf.TSyn:
		// Canton expands the application and kind-checks the expansion.
		// The synonym's definition was checked to have kind * with its
		// parameters of their declared kinds, and the arguments are
		// checked to have those kinds, so the expansion has kind *: only
		// the lookup, the arity and the arguments are checked here (the
		// expansion of a synonym used at many types is not rebuilt at each
		// use). A fault in the synonym's own definition is reported where
		// the definition is checked.
		syn := c.lookupTypeSyn(t.ID, Reference{Sort: RefTypeSyn, ID: t.ID})
		if len(syn.Params) != len(t.Args) {
			c.synArity(t.ID, t.Args)
		}
		for i, a := range t.Args {
			c.checkType(a, syn.Params[i].Kind)
		}
		return kStar
	case *lf.TVar:
		c.tvarLookups++
		k, ok := c.tvars[t.Name]
		if !ok {
			c.throw(EUnknownTypeVar, Error{Name: t.Name}, "unknown type variable: %s", t.Name)
		}
		return k
	case *lf.TNat:
		return kNat
	case *lf.TCon:
		// A data type's kind is memoized like a closed type's: the head
		// of applications with variables is looked up and its kind built
		// once.
		if k, ok := c.kinds[t]; ok {
			return k
		}
		dt := c.lookupDataType(t.ID, Reference{Sort: RefDataType, ID: t.ID})
		k := kindOfParams(dt.Params)
		c.kinds[t] = k
		return k
	case *lf.TApp:
		fk := c.kindOf(t.Fun)
		if fk.Sort != lf.KindArrow {
			c.throw(EExpectedHigherKind, Error{FoundKind: kStar}, "expected higher kinded type, but found: *")
		}
		c.checkType(t.Arg, fk.Param)
		return fk.Result
	case *lf.TBuiltin:
		if k := builtinKind(t.Builtin); k != nil {
			return k
		}
		// Scenario and unknown builtins: the decoder rejects them.
		return kStar
	case *lf.TForall:
		c.checkKind(t.Param.Kind)
		s := c.bindT(t.Param.Name, t.Param.Kind)
		c.checkType(t.Body, kStar)
		c.unbindT(s)
		return kStar
	case *lf.TStruct:
		c.checkRecordType(t.Fields)
		return kStar
	}
	c.throw(EKindMismatch, Error{}, "kind mismatch: missing type")
	return nil
}

// checkRecordType checks that the field names are unique and every field
// type has kind *.
func (c *checker) checkRecordType(fs []lf.Field) {
	c.checkUniq(len(fs), func(i int) string { return fs[i].Name }, func(n string) {
		c.throw(EDuplicateField, Error{Name: n}, "duplicate field: %s", n)
	})
	for _, f := range fs {
		c.checkType(f.Type, kStar)
	}
}

func (c *checker) checkUniq(n int, name func(int) string, dup func(string)) {
	if n < 2 {
		return
	}
	if n <= 32 {
		// Without a map for the usual handful of names (struct types,
		// checked at each occurrence, have tens of fields at most).
		for i := 1; i < n; i++ {
			s := name(i)
			for j := range i {
				if name(j) == s {
					dup(s)
				}
			}
		}
		return
	}
	seen := make(map[string]bool, n)
	for i := range n {
		s := name(i)
		if seen[s] {
			dup(s)
		}
		seen[s] = true
	}
}

// --- Synonyms ---

// synArity raises ETypeSynAppWrongArity for a synonym applied to the
// wrong number of arguments.
func (c *checker) synArity(id lf.TypeConID, args []lf.Type) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = prettyType(a)
	}
	c.throw(ETypeSynAppWrongArity, Error{Found: &lf.TSyn{ID: id, Args: args}},
		"wrong arity in type synonym application: %s %s", qualified(id), strings.Join(parts, " "))
}

// expandHead expands the synonym application t once, without checking
// its arguments' kinds (they were checked where the type was written; an
// arity mismatch or a missing synonym still raises its error). The
// expansion of a given application is computed once.
func (c *checker) expandHead(t *lf.TSyn) lf.Type {
	if x, ok := c.expansions[t]; ok {
		return x
	}
	syn := c.lookupTypeSyn(t.ID, Reference{Sort: RefTypeSyn, ID: t.ID})
	if len(syn.Params) != len(t.Args) {
		c.synArity(t.ID, t.Args)
	}
	x := syn.Type
	if len(t.Args) > 0 {
		m := make(tsubst, 0, len(t.Args))
		for i, a := range t.Args {
			m = m.set(syn.Params[i].Name, a)
		}
		x = c.subst(m, syn.Type)
	}
	c.expansions[t] = x
	return x
}

// whnf expands synonyms at the head of t until it is not a synonym
// application (a synonym has kind *, so it is never applied: expanding
// the head is all Canton's full expansion can change about t's shape).
func (c *checker) whnf(t lf.Type) lf.Type {
	for {
		s, ok := t.(*lf.TSyn)
		if !ok {
			return t
		}
		c.enter()
		c.leave()
		t = c.expandHead(s)
	}
}

// --- Equality ---

// equal is Typing.scala's alphaEquiv: t1 and t2 are alpha-equivalent, or
// else alpha-equivalent after expanding every synonym of both sides. It
// expands lazily, only the synonyms where the two sides differ: a
// synonym applied to alpha-equivalent arguments on both sides is equal
// without expansion, and otherwise its expansion is compared; the result
// is the same as comparing the full expansions.
func (c *checker) equal(t1, t2 lf.Type) bool { return c.alpha(t1, t2, true) }

// alpha compares t1 and t2 (AlphaEquiv.alphaEquiv, with lazy synonym
// expansion) under the binders c.alphaL and c.alphaR entered on each
// side, innermost last; same reports that they are the same names, in
// which case physically equal types are equivalent. Each pair of types
// not physically equal is a step. The usual pairs of nodes of one form
// are compared here, without the general case's interface comparison
// and synonym tests.
func (c *checker) alpha(t1, t2 lf.Type, same bool) bool {
	switch a := t1.(type) {
	case *lf.TApp:
		if b, ok := t2.(*lf.TApp); ok {
			if same && a == b {
				return true
			}
			c.enter()
			eq := c.alpha(a.Fun, b.Fun, same) && c.alpha(a.Arg, b.Arg, same)
			c.leave()
			return eq
		}
	case *lf.TBuiltin:
		if b, ok := t2.(*lf.TBuiltin); ok {
			if same && a == b {
				return true
			}
			c.enter()
			c.leave()
			return a.Builtin == b.Builtin
		}
	case *lf.TVar:
		if b, ok := t2.(*lf.TVar); ok {
			if same && a == b {
				return true
			}
			c.enter()
			c.leave()
			return c.sameVar(a.Name, b.Name)
		}
	case *lf.TCon:
		if b, ok := t2.(*lf.TCon); ok {
			if same && a == b {
				return true
			}
			c.enter()
			c.leave()
			return a.ID == b.ID
		}
	}
	if same && t1 == t2 {
		return true
	}
	c.enter()
	eq := c.alpha1(t1, t2, same)
	c.leave()
	return eq
}

// sameVar compares the type variables a (of the left side) and b.
func (c *checker) sameVar(a, b string) bool {
	da, db := binderDepth(c.alphaL, a), binderDepth(c.alphaR, b)
	if da < 0 && db < 0 {
		return a == b
	}
	return da == db
}

// alpha1 compares t1 and t2 below alpha's fast paths, form by form.
// alphaSub1 mirrors its synonym and struct cases for a right side under a
// substitution: a change to one must be made to the other (one function
// with an optional substitution would test for it at every step of the
// checker's most frequent comparison).
func (c *checker) alpha1(t1, t2 lf.Type, same bool) bool {
	s1, ok1 := t1.(*lf.TSyn)
	s2, ok2 := t2.(*lf.TSyn)
	if ok1 && ok2 && s1.ID == s2.ID && len(s1.Args) == len(s2.Args) {
		eq := true
		for i := range s1.Args {
			if !c.alpha(s1.Args[i], s2.Args[i], same) {
				eq = false
				break
			}
		}
		if eq {
			return true
		}
	}
	// Expanding changes no binder: same still holds (an expansion
	// shares the parts of the synonym's definition it does not change,
	// which may be the other side's).
	if ok1 {
		return c.alpha(c.expandHead(s1), t2, same)
	}
	if ok2 {
		return c.alpha(t1, c.expandHead(s2), same)
	}
	switch a := t1.(type) {
	case *lf.TNat:
		b, ok := t2.(*lf.TNat)
		return ok && a.N == b.N
	case *lf.TForall:
		b, ok := t2.(*lf.TForall)
		if !ok || !a.Param.Kind.Equal(b.Param.Kind) {
			return false
		}
		c.alphaL, c.alphaR = append(c.alphaL, a.Param.Name), append(c.alphaR, b.Param.Name)
		eq := c.alpha(a.Body, b.Body, same && a.Param.Name == b.Param.Name)
		c.alphaL, c.alphaR = c.alphaL[:len(c.alphaL)-1], c.alphaR[:len(c.alphaR)-1]
		return eq
	case *lf.TStruct:
		b, ok := t2.(*lf.TStruct)
		if !ok || len(a.Fields) != len(b.Fields) {
			return false
		}
		fa, fb := sortedFields(a), sortedFields(b)
		for i := range fa {
			if fa[i].Name != fb[i].Name {
				return false
			}
		}
		for i := range fa {
			if !c.alpha(fa[i].Type, fb[i].Type, same) {
				return false
			}
		}
		return true
	}
	// Other pairs of forms (the ones alpha compares, when they differ)
	// are not equivalent.
	return false
}

// binderDepth is the depth of the innermost binder named v, -1 when v is
// free.
func binderDepth(bs []string, v string) int {
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i] == v {
			return i
		}
	}
	return -1
}

// --- Substitution ---

// subst substitutes the type variables of m in t simultaneously, avoiding
// capture (TypeSubst.substitute): a forall binding a variable free in a
// replacement is renamed to a fresh "$freshVar<i>". Parts of t that do
// not change are shared.
func (c *checker) subst(m tsubst, t lf.Type) lf.Type {
	if len(m) == 0 {
		return t
	}
	s := substituter{c: c, m: m}
	return s.apply(t)
}

// tsubst maps type variables to types: the parameters of one definition
// or the binders of one type application, so a handful of entries, which
// a linear search finds faster than a map's hashing (substitutions are
// built for most type applications and constructor expressions) and
// which a slice holds in one allocation. Each name has at most one entry.
type tsubst []tbinding

type tbinding struct {
	name string
	t    lf.Type
}

// get returns the type of name and whether it has one.
func (m tsubst) get(name string) (lf.Type, bool) {
	for i := range m {
		if m[i].name == name {
			return m[i].t, true
		}
	}
	return nil, false
}

// set maps name to t, replacing name's entry if any (as a map assignment).
func (m tsubst) set(name string, t lf.Type) tsubst {
	for i := range m {
		if m[i].name == name {
			m[i].t = t
			return m
		}
	}
	return append(m, tbinding{name, t})
}

type substituter struct {
	c  *checker
	m  tsubst
	fv map[string]bool // variable names of the replacements, computed on demand
}

func (s *substituter) freeVars() map[string]bool {
	if s.fv == nil {
		s.fv = map[string]bool{}
		for _, b := range s.m {
			s.c.varNames(b.t, s.fv)
		}
	}
	return s.fv
}

func (s *substituter) apply(t lf.Type) lf.Type {
	s.c.enter()
	x := s.apply1(t)
	s.c.leave()
	return x
}

func (s *substituter) apply1(t lf.Type) lf.Type {
	switch t := t.(type) {
	case *lf.TVar:
		if r, ok := s.m.get(t.Name); ok {
			return r
		}
		return t
	case *lf.TApp:
		f, a := s.apply(t.Fun), s.apply(t.Arg)
		if f == t.Fun && a == t.Arg {
			return t
		}
		return &lf.TApp{Fun: f, Arg: a}
	case *lf.TSyn:
		var args []lf.Type
		for i, a := range t.Args {
			x := s.apply(a)
			if x != a && args == nil {
				args = slices.Clone(t.Args)
			}
			if args != nil {
				args[i] = x
			}
		}
		if args == nil {
			return t
		}
		return &lf.TSyn{ID: t.ID, Args: args}
	case *lf.TStruct:
		var fs []lf.Field
		for i, f := range t.Fields {
			x := s.apply(f.Type)
			if x != f.Type && fs == nil {
				fs = slices.Clone(t.Fields)
			}
			if fs != nil {
				fs[i].Type = x
			}
		}
		if fs == nil {
			return t
		}
		return &lf.TStruct{Fields: fs}
	case *lf.TForall:
		inner, v := s.under(t.Param.Name)
		if v != t.Param.Name {
			return &lf.TForall{Param: lf.TypeParam{Name: v, Kind: t.Param.Kind}, Body: inner.apply(t.Body)}
		}
		if len(inner.m) == 0 {
			return t
		}
		b := inner.apply(t.Body)
		if b == t.Body {
			return t
		}
		return &lf.TForall{Param: t.Param, Body: b}
	}
	return t
}

// under returns the substituter for the body of a forall binding v, and
// the binder's name in the result: v, or a fresh name when v is a
// variable of a replacement (which the binder would capture).
func (s *substituter) under(v string) (*substituter, string) {
	fv := s.freeVars()
	if fv[v] {
		fresh := ""
		for i := 0; ; i++ {
			fresh = freshVarPrefix + strconv.Itoa(i)
			if !fv[fresh] {
				break
			}
		}
		m := slices.Clone(s.m).set(v, &lf.TVar{Name: fresh})
		fv2 := make(map[string]bool, len(fv)+1)
		for k := range fv {
			fv2[k] = true
		}
		fv2[fresh] = true
		return &substituter{c: s.c, m: m, fv: fv2}, fresh
	}
	if _, shadowed := s.m.get(v); shadowed {
		m := make(tsubst, 0, len(s.m)-1)
		for _, b := range s.m {
			if b.name != v {
				m = append(m, b)
			}
		}
		return &substituter{c: s.c, m: m, fv: fv}, v
	}
	return s, v
}

// alphaSub is alpha(t1, s.apply(t2), false) without building
// s.apply(t2): t2's nodes are compared as the substitution would
// rebuild them, its variables of s by their replacements, and a synonym
// application to expand is built (s.apply) first. s is nil for none.
func (c *checker) alphaSub(t1, t2 lf.Type, same bool, s *substituter) bool {
	if s == nil || len(s.m) == 0 {
		return c.alpha(t1, t2, same)
	}
	if v, ok := t2.(*lf.TVar); ok {
		if r, ok := s.m.get(v.Name); ok {
			return c.alpha(t1, r, false)
		}
		return c.alpha(t1, t2, false)
	}
	c.enter()
	eq := c.alphaSub1(t1, t2, s)
	c.leave()
	return eq
}

// alphaSub1 is alpha1 with s applied to t2 as it is compared, without
// building the substituted type; its synonym and struct cases mirror
// alpha1's, and a change to one must be made to the other.
func (c *checker) alphaSub1(t1, t2 lf.Type, s *substituter) bool {
	s1, ok1 := t1.(*lf.TSyn)
	s2, ok2 := t2.(*lf.TSyn)
	if ok1 && ok2 && s1.ID == s2.ID && len(s1.Args) == len(s2.Args) {
		eq := true
		for i := range s1.Args {
			if !c.alphaSub(s1.Args[i], s2.Args[i], false, s) {
				eq = false
				break
			}
		}
		if eq {
			return true
		}
	}
	if ok1 {
		return c.alphaSub(c.expandHead(s1), t2, false, s)
	}
	if ok2 {
		return c.alpha(t1, c.expandHead(s.apply(s2).(*lf.TSyn)), false)
	}
	switch a := t1.(type) {
	case *lf.TApp:
		b, ok := t2.(*lf.TApp)
		return ok && c.alphaSub(a.Fun, b.Fun, false, s) && c.alphaSub(a.Arg, b.Arg, false, s)
	case *lf.TBuiltin:
		b, ok := t2.(*lf.TBuiltin)
		return ok && a.Builtin == b.Builtin
	case *lf.TCon:
		b, ok := t2.(*lf.TCon)
		return ok && a.ID == b.ID
	case *lf.TNat:
		b, ok := t2.(*lf.TNat)
		return ok && a.N == b.N
	case *lf.TForall:
		b, ok := t2.(*lf.TForall)
		if !ok || !a.Param.Kind.Equal(b.Param.Kind) {
			return false
		}
		inner, v := s.under(b.Param.Name)
		c.alphaL, c.alphaR = append(c.alphaL, a.Param.Name), append(c.alphaR, v)
		eq := c.alphaSub(a.Body, b.Body, false, inner)
		c.alphaL, c.alphaR = c.alphaL[:len(c.alphaL)-1], c.alphaR[:len(c.alphaR)-1]
		return eq
	case *lf.TStruct:
		b, ok := t2.(*lf.TStruct)
		if !ok || len(a.Fields) != len(b.Fields) {
			return false
		}
		// The substitution keeps the fields' names and order.
		fa, fb := sortedFields(a), sortedFields(b)
		for i := range fa {
			if fa[i].Name != fb[i].Name {
				return false
			}
		}
		for i := range fa {
			if !c.alphaSub(fa[i].Type, fb[i].Type, false, s) {
				return false
			}
		}
		return true
	}
	// A variable (t2 is not one) or another pair of forms.
	return false
}

// resolve is whnf(s.apply(t)) down to its head node: that node, and the
// substitution still to apply below it (nil for none).
func (c *checker) resolve(t lf.Type, s *substituter) (lf.Type, *substituter) {
	if s != nil && len(s.m) == 0 {
		s = nil
	}
	if s != nil {
		switch x := t.(type) {
		case *lf.TVar:
			if r, ok := s.m.get(x.Name); ok {
				return c.whnf(r), nil
			}
			return t, s
		case *lf.TSyn:
			return c.whnf(s.apply(x)), nil
		}
		return t, s
	}
	return c.whnf(t), nil
}

// varNames adds the names of every type variable of t (bound or free) to
// acc (TypeSubst.freeVars).
func (c *checker) varNames(t lf.Type, acc map[string]bool) {
	c.enter()
	c.varNames1(t, acc)
	c.leave()
}

func (c *checker) varNames1(t lf.Type, acc map[string]bool) {
	switch t := t.(type) {
	case *lf.TVar:
		acc[t.Name] = true
	case *lf.TApp:
		c.varNames(t.Fun, acc)
		c.varNames(t.Arg, acc)
	case *lf.TSyn:
		for _, a := range t.Args {
			c.varNames(a, acc)
		}
	case *lf.TStruct:
		for _, f := range t.Fields {
			c.varNames(f.Type, acc)
		}
	case *lf.TForall:
		c.varNames(t.Body, acc)
	}
}

// --- Shape coercions (Typing.scala toFunction, toForall, toUpdate,
// toStruct): syntactic first, then after expansion. Canton expands the
// whole type; only its head can change its shape, so the head is
// expanded here. ---

func arrowParts(t lf.Type) (arg, res lf.Type, ok bool) {
	a, ok := t.(*lf.TApp)
	if !ok {
		return nil, nil, false
	}
	f, ok := a.Fun.(*lf.TApp)
	if !ok {
		return nil, nil, false
	}
	if h, ok := f.Fun.(*lf.TBuiltin); ok && h.Builtin == lf.BuiltinArrow {
		return f.Arg, a.Arg, true
	}
	return nil, nil, false
}

// builtinApp returns the argument of b applied to one argument.
func builtinApp(t lf.Type, b lf.BuiltinType) (lf.Type, bool) {
	a, ok := t.(*lf.TApp)
	if !ok {
		return nil, false
	}
	if h, ok := a.Fun.(*lf.TBuiltin); ok && h.Builtin == b {
		return a.Arg, true
	}
	return nil, false
}

func (c *checker) toFunction(t lf.Type) (lf.Type, lf.Type) {
	if a, r, ok := arrowParts(t); ok {
		return a, r
	}
	if a, r, ok := arrowParts(c.whnf(t)); ok {
		return a, r
	}
	c.throw(EExpectedFunctionType, Error{Found: t}, "expected function type, but found: %s", prettyType(t))
	return nil, nil
}

func (c *checker) toForall(t lf.Type) *lf.TForall {
	if f, ok := t.(*lf.TForall); ok {
		return f
	}
	if f, ok := c.whnf(t).(*lf.TForall); ok {
		return f
	}
	c.throw(EExpectedUniversalType, Error{Found: t}, "expected universal type, but found: %s", prettyType(t))
	return nil
}

func (c *checker) toUpdate(t lf.Type) lf.Type {
	if _, ok := builtinApp(t, lf.BuiltinUpdate); ok {
		return t
	}
	e := c.whnf(t)
	if _, ok := builtinApp(e, lf.BuiltinUpdate); ok {
		return e
	}
	c.throw(EExpectedUpdateType, Error{Found: t}, "expected update type, but found: %s", prettyType(t))
	return nil
}

func (c *checker) toStruct(t lf.Type) *lf.TStruct {
	if s, ok := t.(*lf.TStruct); ok {
		return s
	}
	if s, ok := c.whnf(t).(*lf.TStruct); ok {
		return s
	}
	c.throw(EExpectedStructType, Error{Found: t}, "expected struct type, but found: %s", prettyType(t))
	return nil
}
