package engine

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// The list jets are native implementations of the list functions of
// daml-prim and daml-stdlib that Daml code calls most (GHC.Base.map,
// DA.Internal.Prelude's all, any, filter, length, ++ and concatMap): each
// is a fold (the FOLDR or FOLDL builtin) over a small Daml lambda, and
// interpreting it enters that lambda, with an environment of its own,
// for every element of the list. A jet calls the function argument
// directly, in the order the fold calls it, and builds the same list:
//
//   - map f xs = foldr (\x xs -> f x :: xs) [] xs: f is applied to the
//     elements from the last to the first (FOLDR), so an error or a trace
//     in f surfaces for the last element first, as interpreted;
//   - filter p xs = foldr (\x xs -> if p x then x :: xs else xs) [] xs:
//     likewise;
//   - concatMap f xs = foldr (\x acc -> f x ++ acc) [] xs: likewise;
//   - all f xs = foldl (\b x -> if b then f x else False) True xs: f is
//     applied from the first element to the last, until it gives False
//     (FOLDL goes on over the rest without calling f);
//   - any f xs likewise, until f gives True;
//   - length xs = foldl (\l _ -> l + 1) 0 xs and xs ++ ys = foldr (::) ys
//     xs call no function.
//
// Every jet runs with one continuation frame and an argument slice of the
// list, as the FOLDR builtin does (kFoldR), so a long list needs no more
// stack than interpreted. A jet replaces a definition only when its
// package has the expected name, the definition the expected type and
// body (lf.FormatExpr's SHA-256, as the script jets), and each top-level
// value the body uses (foldr, foldl, ++) is the one expected: a changed
// library runs interpreted.
type listJet struct {
	// pkg is the name of the definition's package.
	pkg string
	// typ and body are as scriptJet's.
	typ, body string
	arity     int
	fn        bf
	// unreached marks a definition that a jet's Daml code refers to only
	// on a path the jet's arguments never take (sortBy never gives
	// foldBalanced1 an empty list; mergeBy's pattern-match failure cannot
	// happen): it is not checked.
	unreached bool
}

const (
	damlPrim    = "daml-prim"
	damlStdlib  = "daml-stdlib"
	baseModule  = "GHC.Base"
	preludeMod  = "DA.Internal.Prelude"
	listModule  = "DA.List"
	appendName  = "$u002b$u002b"
	listFunType = "forall (a : *). (a -> Bool) -> List a -> Bool"
)

var listJets map[[2]string]listJet

func init() {
	listJets = map[[2]string]listJet{
		// foldr and foldl are the builtins; they have no jet of their own
		// (arity 0 marks them), the others' bodies use them.
		{baseModule, "foldr"}: {pkg: damlPrim,
			typ:  "forall (a : *). forall (b : *). (a -> b -> b) -> b -> List a -> b",
			body: "c90b2c009348d109e37926775d799ab8ea56fc71073cf2d1f1b19f29519a3801"},
		{preludeMod, "foldl"}: {pkg: damlStdlib,
			typ:  "forall (b : *). forall (a : *). (b -> a -> b) -> b -> List a -> b",
			body: "66cb275c340988b5685532b7575c3583d7ed770c8274ec91b2a01a1e634449f0"},
		{baseModule, "map"}: {pkg: damlPrim,
			typ:   "forall (a : *). forall (b : *). (a -> b) -> List a -> List b",
			body:  "c68512aa3b7747caf4354fd30e7df3874e69e339d14e9208fabc5f5766d15d61",
			arity: 2, fn: listMap},
		{preludeMod, "filter"}: {pkg: damlStdlib,
			typ:   "forall (a : *). (a -> Bool) -> List a -> List a",
			body:  "daac2a9d85dc1aad292226c3fdee1104865d0b1f1da5d2697437c7607e74851b",
			arity: 2, fn: listFilter},
		{preludeMod, "concatMap"}: {pkg: damlStdlib,
			typ:   "forall (a : *). forall (b : *). (a -> List b) -> List a -> List b",
			body:  "002558a0533b8656e6c9ff99c983f7fb97dd158892186b7e83efa3f28f3399a0",
			arity: 2, fn: listConcatMap},
		{preludeMod, "all"}: {pkg: damlStdlib,
			typ:   listFunType,
			body:  "0cb68f60c4d7e42759220d4a2c512e9dbc085a414c7fc2069211b3d6ecbdcc5f",
			arity: 2, fn: func(m *Machine, a []Value) { listAllAny(m, a, true) }},
		{preludeMod, "any"}: {pkg: damlStdlib,
			typ:   listFunType,
			body:  "24c15e4005c1818aa941ab3d8247c4f77a80643c9cefcce4999d48c127a01e0b",
			arity: 2, fn: func(m *Machine, a []Value) { listAllAny(m, a, false) }},
		{preludeMod, "length"}: {pkg: damlStdlib,
			typ:   "forall (a : *). List a -> Int64",
			body:  "59d55b325cebdd59b28aad03b78f509ef95ce673616eb2fc2f0317ffa6737cd8",
			arity: 1, fn: listLength},
		// sortBy cmp xs = foldBalanced1 (mergeBy cmp) (map (\x -> [x]) xs)
		// for a non-empty xs: a bottom-up merge sort (listSortBy).
		{listModule, "sortBy"}: {pkg: damlStdlib,
			typ:   "forall (a : *). (a -> a -> GHC.Types:Ordering) -> List a -> List a",
			body:  "30b37cd072b36cfd63fe3271953c982fb254c4ed949ff43d8d1deb8be1298137",
			arity: 2, fn: listSortBy},
		{listModule, "foldBalanced1"}: {pkg: damlStdlib,
			typ:  "forall (a : *). (a -> a -> a) -> List a -> a",
			body: "b94e8ae8c1e4e35ed7e87f5723979c7818b13ea2ce8bd085c54422244bac1fb9"},
		{listModule, "mergeBy"}: {pkg: damlStdlib,
			typ:  "forall (a : *). (a -> a -> GHC.Types:Ordering) -> List a -> List a -> List a",
			body: "ffb3b02bb76c9b9448deddac684350e43399fdc7c882948945a316c7c0786a41"},
		{listModule, "combinePairs"}: {pkg: damlStdlib,
			typ:  "forall (a : *). (a -> a -> a) -> List a -> List a",
			body: "1c7b489d2c8b1f358da2a897ef5af8284514e2142017b6bc76c290ec54c362fe"},
		{"GHC.Err", "error"}:                   {unreached: true},
		{"Control.Exception.Base", "patError"}: {unreached: true},
		{"GHC.Prim", "void$u0023"}:             {unreached: true},
		{preludeMod, appendName}: {pkg: damlStdlib,
			typ:   "forall (a : *). List a -> List a -> List a",
			body:  "d802376a70701c51b919659f50e46cdaa9d65147f2449f129179b34b0b648a1f",
			arity: 2, fn: listAppend},
	}
}

// ListJet returns the native implementation of the top-level value ref
// when it is one of the list functions that have one (listJets) and it,
// and every top-level value its body uses, fits the jet (package name,
// type and body); pkg gives the packages by id. Else ok is false. The
// engine asks it for every top-level value it compiles, unless
// Options.NoListJets.
func ListJet(pkg func(id string) *lf.Package, ref lf.TypeConID) (v Value, ok bool) {
	j, ok := listJets[[2]string{ref.Module, ref.Name}]
	if !ok || j.arity == 0 || !listJetFits(pkg, ref, j, 0) {
		return nil, false
	}
	return jetPAP(ref.Module+":"+ref.Name, j.arity, j.fn), true
}

// listJetFits reports whether the definition ref fits j, and each
// top-level value its body uses has a list jet entry it fits in turn
// (depth bounds the check: sortBy's uses are three deep).
func listJetFits(pkg func(id string) *lf.Package, ref lf.TypeConID, j listJet, depth int) bool {
	if j.unreached {
		return true
	}
	p := pkg(ref.PackageID)
	if p == nil || p.Name != j.pkg || depth > 3 {
		return false
	}
	def := p.Value(ref.Module, ref.Name)
	if !jetFits(def, scriptJet{typ: j.typ, body: j.body}) {
		return false
	}
	ok := true
	lf.Inspect(def.Body(), func(n any) bool {
		v, isVal := n.(*lf.EVal)
		if !isVal || !ok {
			return ok
		}
		if v.Ref == ref { // a recursive definition (mergeBy)
			return true
		}
		dep, known := listJets[[2]string{v.Ref.Module, v.Ref.Name}]
		ok = known && listJetFits(pkg, v.Ref, dep, depth+1)
		return ok
	})
	return ok
}

// asList returns v as a list, failing the machine when it is not one.
func asList(m *Machine, name string, v Value) (*List, bool) {
	xs, ok := v.(*List)
	if !ok {
		m.fail(crash("%s of %T", name, v))
	}
	return xs, ok
}

// listMap applies f to the elements of xs from the last to the first
// (as FOLDR), a[0] f and a[1] xs.
func listMap(m *Machine, a []Value) {
	xs, ok := asList(m, "map", a[1])
	if !ok {
		return
	}
	if xs == nil {
		m.ret(xs)
		return
	}
	vs := xs.Slice()
	k := &kMap{f: a[0], xs: vs, cells: newCells(len(vs), nil)}
	k.next(m)
}

// kMap is map's frame: xs are the elements still to map; cells, one
// per element allocated at once, hold the mapped ones from cells[len(xs)]
// on (they are not shared before the list is complete); args is as
// kFoldL's.
type kMap struct {
	f     Value
	xs    []Value
	cells []List
	args  [1]Value
}

func (k *kMap) next(m *Machine) {
	k.args[0] = popLast(&k.xs)
	m.push(k)
	m.apply(k.f, k.args[:])
	k.args[0] = nil
}

func (k *kMap) resume(m *Machine, v Value) {
	k.cells[len(k.xs)].Head = v
	if len(k.xs) == 0 {
		m.ret(&k.cells[0])
		return
	}
	k.next(m)
}

// listFilter keeps the elements of xs p gives True for, applying p from
// the last to the first (as FOLDR), a[0] p and a[1] xs.
func listFilter(m *Machine, a []Value) {
	xs, ok := asList(m, "filter", a[1])
	if !ok {
		return
	}
	if xs == nil {
		m.ret(xs)
		return
	}
	k := &kFilter{p: a[0], xs: xs.Slice()}
	k.next(m)
}

// kFilter is filter's frame: x is the element p is applied to, xs the
// ones still to test, acc the ones kept.
type kFilter struct {
	p    Value
	x    Value
	xs   []Value
	acc  *List
	args [1]Value
}

func (k *kFilter) next(m *Machine) {
	k.x = popLast(&k.xs)
	m.push(k)
	k.args[0] = k.x
	m.apply(k.p, k.args[:])
	k.args[0] = nil
}

func (k *kFilter) resume(m *Machine, v Value) {
	b, ok := v.(Bool)
	if !ok {
		m.fail(crash("filter: the predicate gave %T", v))
		return
	}
	if b {
		k.acc = &List{Head: k.x, Tail: k.acc}
	}
	k.x = nil
	if len(k.xs) == 0 {
		m.ret(k.acc)
		return
	}
	k.next(m)
}

// listConcatMap gives f x1 ++ … ++ f xn, applying f from the last
// element to the first (as FOLDR), a[0] f and a[1] xs.
func listConcatMap(m *Machine, a []Value) {
	xs, ok := asList(m, "concatMap", a[1])
	if !ok {
		return
	}
	if xs == nil {
		m.ret(xs)
		return
	}
	k := &kConcatMap{f: a[0], xs: xs.Slice()}
	k.next(m)
}

// kConcatMap is concatMap's frame, as kMap.
type kConcatMap struct {
	f    Value
	xs   []Value
	acc  *List
	args [1]Value
}

func (k *kConcatMap) next(m *Machine) {
	k.args[0] = popLast(&k.xs)
	m.push(k)
	m.apply(k.f, k.args[:])
	k.args[0] = nil
}

func (k *kConcatMap) resume(m *Machine, v Value) {
	ys, ok := asList(m, "concatMap", v)
	if !ok {
		return
	}
	k.acc = appendList(ys, k.acc)
	if len(k.xs) == 0 {
		m.ret(k.acc)
		return
	}
	k.next(m)
}

// listAllAny applies f to the elements of xs from the first (as FOLDL)
// until it gives stop's negation (False for all, True for any), a[0] f
// and a[1] xs; all is true for all, false for any.
func listAllAny(m *Machine, a []Value, all bool) {
	xs, ok := asList(m, "all/any", a[1])
	if !ok {
		return
	}
	if xs == nil {
		m.ret(Bool(all))
		return
	}
	k := &kAllAny{f: a[0], xs: xs, all: all}
	k.next(m)
}

// kAllAny is all's and any's frame: xs are the elements still to test.
type kAllAny struct {
	f    Value
	xs   *List
	all  bool
	args [1]Value
}

func (k *kAllAny) next(m *Machine) {
	k.args[0] = k.xs.Head
	k.xs = k.xs.Tail
	m.push(k)
	m.apply(k.f, k.args[:])
	k.args[0] = nil
}

func (k *kAllAny) resume(m *Machine, v Value) {
	b, ok := v.(Bool)
	if !ok {
		m.fail(crash("all/any: the predicate gave %T", v))
		return
	}
	if bool(b) != k.all || k.xs == nil {
		m.ret(v)
		return
	}
	k.next(m)
}

// listLength gives the length of a[0].
func listLength(m *Machine, a []Value) {
	xs, ok := asList(m, "length", a[0])
	if !ok {
		return
	}
	m.ret(Int64(xs.Len()))
}

// listAppend gives a[0] ++ a[1]: new cells for a[0]'s elements, then
// a[1]'s, as foldr (::) ys xs.
func listAppend(m *Machine, a []Value) {
	xs, ok := asList(m, "++", a[0])
	if !ok {
		return
	}
	ys, ok := asList(m, "++", a[1])
	if !ok {
		return
	}
	m.ret(appendList(xs, ys))
}

// appendList returns xs ++ ys, sharing ys: the cells for xs's elements
// are allocated at once.
func appendList(xs, ys *List) *List {
	if xs == nil {
		return ys
	}
	cells := newCells(xs.Len(), ys)
	for i := range cells {
		cells[i].Head = xs.Head
		xs = xs.Tail
	}
	return &cells[0]
}

// popLast removes the last element of *xs, a slice of the jet's own, and
// returns it, clearing its slot so that the frame does not keep it.
func popLast(xs *[]Value) Value {
	s := *xs
	x := s[len(s)-1]
	s[len(s)-1] = nil
	*xs = s[:len(s)-1]
	return x
}

// listSortBy sorts a[1] with the comparison a[0] as DA.List.sortBy does:
// foldBalanced1 (mergeBy cmp) over the one-element lists of the
// elements, that is, level after level, the runs merged pairwise, an odd
// last run carried to the next level. combinePairs f (x : x2 : xs) =
// f x x2 :: combinePairs f xs, its arguments evaluated right to left as
// every application's (nApp), merges the last pair of a level first and
// the first pair last; mergeBy compares the heads of its two runs (cmp x
// y, x the first run's), taking y when cmp gives GT and x otherwise,
// until one run is empty. Daml being strict, each merge ends before the
// next begins, so cmp is called in the order below, and an error or a
// trace in it surfaces as interpreted.
func listSortBy(m *Machine, a []Value) {
	xs, ok := asList(m, "sortBy", a[1])
	if !ok {
		return
	}
	vs := xs.Slice()
	if len(vs) < 2 {
		m.ret(xs)
		return
	}
	runs := make([][]Value, len(vs))
	for i := range vs {
		runs[i] = vs[i : i+1 : i+1]
	}
	k := &kSort{cmp: a[0]}
	k.level(runs)
	k.step(m)
}

// kSort is sortBy's frame: runs are the runs of the current level, the
// pair runs[2p], runs[2p+1] being merged (merging) from x and y into out,
// next[p]; next are the runs of the next level.
type kSort struct {
	cmp     Value
	runs    [][]Value
	p       int
	next    [][]Value
	merging bool
	x, y    []Value
	out     []Value
	args    [2]Value
}

// level starts the level of runs: its last pair is merged first.
func (k *kSort) level(runs [][]Value) {
	k.runs, k.next, k.p = runs, make([][]Value, (len(runs)+1)/2), len(runs)/2-1
	if len(runs)%2 == 1 {
		k.next[len(k.next)-1] = runs[len(runs)-1]
	}
}

// step goes on with the sort until it needs a comparison (applying cmp
// with the frame pushed) or has the sorted list.
func (k *kSort) step(m *Machine) {
	for {
		if k.merging {
			if len(k.x) > 0 && len(k.y) > 0 {
				m.push(k)
				k.args = [2]Value{k.x[0], k.y[0]}
				m.apply(k.cmp, k.args[:])
				k.args = [2]Value{}
				return
			}
			k.next[k.p] = append(append(k.out, k.x...), k.y...)
			k.merging, k.x, k.y, k.out = false, nil, nil, nil
			k.p--
			continue
		}
		if k.p >= 0 {
			k.x, k.y = k.runs[2*k.p], k.runs[2*k.p+1]
			k.out = make([]Value, 0, len(k.x)+len(k.y))
			k.merging = true
			continue
		}
		if len(k.next) == 1 {
			m.ret(ListOf(k.next[0]...))
			return
		}
		k.level(k.next)
	}
}

func (k *kSort) resume(m *Machine, v Value) {
	o, ok := v.(*Enum)
	if !ok {
		m.fail(crash("sortBy: the comparison gave %T", v))
		return
	}
	if o.Con == "GT" {
		k.out = append(k.out, k.y[0])
		k.y = k.y[1:]
	} else {
		k.out = append(k.out, k.x[0])
		k.x = k.x[1:]
	}
	k.step(m)
}
