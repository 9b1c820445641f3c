package typecheck

import (
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// --- Collisions (Collision.scala, NamedEntity.scala) ---

// entity is a named entity of the package for the collision check.
type entity struct {
	// full is the fully resolved name, upper-cased.
	full string
	// pretty is how the error names it.
	pretty string
	// module and name identify variant constructors (name = "V.C") and
	// records (name = "R"), for the one allowed collision.
	module, name string
	isVarCon     bool
	isRecord     bool
}

// checkCollisions rejects two entities whose fully resolved names are
// equal ignoring case, except a variant constructor V.C next to a record
// named V.C of the same module (the record damlc makes for a constructor
// with record fields).
func (c *checker) checkCollisions() {
	var ents []entity
	up := strings.ToUpper
	for _, m := range c.pkg.Modules {
		mod := up(m.Name)
		ents = append(ents, entity{full: mod, pretty: "module " + m.Name})
		def := func(kind, name string) entity {
			return entity{full: mod + "." + up(name), pretty: kind + " " + m.Name + ":" + name, module: m.Name, name: name}
		}
		for _, dt := range m.DataTypes {
			switch dt.Variety {
			case lf.RecordVariety:
				r := def("record", dt.Name)
				r.isRecord = true
				ents = append(ents, r)
				for _, f := range dt.Fields {
					ents = append(ents, entity{full: r.full + "." + up(f.Name), pretty: "record field " + m.Name + ":" + dt.Name + ":" + f.Name})
				}
			case lf.VariantVariety:
				v := def("variant", dt.Name)
				ents = append(ents, v)
				for _, f := range dt.Fields {
					ents = append(ents, entity{full: v.full + "." + up(f.Name), pretty: "variant constructor " + m.Name + ":" + dt.Name + ":" + f.Name,
						module: m.Name, name: dt.Name + "." + f.Name, isVarCon: true})
				}
			case lf.EnumVariety:
				e := def("enum", dt.Name)
				ents = append(ents, e)
				for _, k := range dt.Constructors {
					ents = append(ents, entity{full: e.full + "." + up(k), pretty: "variant constructor " + m.Name + ":" + dt.Name + ":" + k})
				}
			case lf.InterfaceVariety:
				ents = append(ents, def("interface", dt.Name))
			}
		}
		for _, s := range m.Synonyms {
			ents = append(ents, def("type synonym", s.Name))
		}
		for _, t := range m.Templates {
			for _, ch := range t.Choices {
				ents = append(ents, entity{full: mod + "." + up(t.Name) + "." + up(ch.Name), pretty: "template choice " + m.Name + ":" + t.Name + ":" + ch.Name})
			}
		}
		for _, i := range m.Interfaces {
			for _, ch := range i.Choices {
				ents = append(ents, entity{full: mod + "." + up(i.Name) + "." + up(ch.Name), pretty: "interface choice " + m.Name + ":" + i.Name + ":" + ch.Name})
			}
		}
	}
	groups := map[string][]int{}
	var order []string
	for i, e := range ents {
		if _, ok := groups[e.full]; !ok {
			order = append(order, e.full)
		}
		groups[e.full] = append(groups[e.full], i)
	}
	for _, name := range order {
		g := groups[name]
		for x := 0; x < len(g); x++ {
			for y := x + 1; y < len(g); y++ {
				a, b := ents[g[x]], ents[g[y]]
				if allowedCollision(a, b) || allowedCollision(b, a) {
					continue
				}
				c.ctx = Context{}
				c.throw(ECollision, Error{Names: []string{a.pretty, b.pretty}}, "collision between %s and %s", a.pretty, b.pretty)
			}
		}
	}
}

func allowedCollision(varCon, rec entity) bool {
	return varCon.isVarCon && rec.isRecord && varCon.module == rec.module && varCon.name == rec.name
}

// --- Recursion (Recursion.scala) ---

// checkRecursion rejects a cycle among the package's modules (a module
// referring to another's definitions) and then, module by module, a
// cycle among its type synonyms.
func (c *checker) checkRecursion() {
	graph := map[string][]string{}
	var mods []string
	c.patternPackages = func(id lf.TypeConID) { c.referenced[id.PackageID] = true }
	defer func() { c.patternPackages = nil }()
	for _, m := range c.pkg.Modules {
		mods = append(mods, m.Name)
		refs := map[string]bool{}
		add := func(id lf.TypeConID) {
			if id.PackageID == c.pkg.ID {
				if id.Module != m.Name {
					refs[id.Module] = true
				}
			} else {
				c.referenced[id.PackageID] = true
			}
		}
		c.moduleIdentifiers(m, add)
		// Exception messages and case patterns are not module references
		// (Canton's collectIdentifiers skips them), but their packages
		// are dependencies.
		addPkg := func(id lf.TypeConID) { c.referenced[id.PackageID] = true }
		for _, e := range m.ExceptionDefs {
			c.exprIdentifiers(e.Message, addPkg, func(t lf.Type) {
				c.typeIdentifiers(t, func(id lf.TypeConID, _ bool) { addPkg(id) })
			})
		}
		for _, n := range c.pkg.Modules { // archive order, deterministic
			if refs[n.Name] {
				graph[m.Name] = append(graph[m.Name], n.Name)
			}
		}
	}
	c.ctx = Context{}
	if cycle := findCycle(mods, graph); cycle != nil {
		c.throw(EImportCycle, Error{Names: cycle}, "cycle in module dependency %s", strings.Join(cycle, " -> "))
	}
	for _, m := range c.pkg.Modules {
		sg := map[string][]string{}
		var syns []string
		for _, s := range m.Synonyms {
			id := c.id(m, s.Name).String()
			syns = append(syns, id)
			seen := map[string]bool{}
			c.typeIdentifiers(s.Type, func(x lf.TypeConID, isSyn bool) {
				if isSyn {
					k := x.String()
					if !seen[k] {
						seen[k] = true
						sg[id] = append(sg[id], k)
					}
				}
			})
		}
		if cycle := findCycle(syns, sg); cycle != nil {
			c.throw(ETypeSynCycle, Error{Names: cycle}, "cycle in type synonym definitions %s", strings.Join(cycle, " -> "))
		}
	}
}

// findCycle returns a cycle of the graph restricted to vertices (edges to
// other vertices are ignored), nil when there is none.
func findCycle(vertices []string, graph map[string][]string) []string {
	isVertex := map[string]bool{}
	for _, v := range vertices {
		isVertex[v] = true
	}
	const (
		white = iota
		gray
		black
	)
	color := map[string]int{}
	// Iterative DFS with an explicit path.
	for _, root := range vertices {
		if color[root] != white {
			continue
		}
		type frame struct {
			v string
			i int
		}
		stack := []frame{{root, 0}}
		color[root] = gray
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			succ := graph[top.v]
			if top.i >= len(succ) {
				color[top.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			n := succ[top.i]
			top.i++
			if !isVertex[n] {
				continue
			}
			switch color[n] {
			case gray:
				var cycle []string
				start := 0
				for k, f := range stack {
					if f.v == n {
						start = k
					}
				}
				for _, f := range stack[start:] {
					cycle = append(cycle, f.v)
				}
				return cycle
			case white:
				color[n] = gray
				stack = append(stack, frame{n, 0})
			}
		}
	}
	return nil
}

// moduleIdentifiers calls add for every data type, synonym, template,
// interface and value id the module's definitions, templates and
// interfaces mention (Canton's Util.collectIdentifiers: not those of
// case patterns nor of exception messages).
func (c *checker) moduleIdentifiers(m *lf.Module, add func(lf.TypeConID)) {
	// Interned types are shared: each is walked once.
	seenTypes := map[lf.Type]bool{}
	addType := func(id lf.TypeConID, _ bool) { add(id) }
	ty := func(t lf.Type) {
		switch x := t.(type) {
		case nil, *lf.TBuiltin, *lf.TVar, *lf.TNat:
			// No identifier, nor a set lookup for the commonest types.
		case *lf.TCon:
			add(x.ID)
		default:
			if !seenTypes[t] {
				seenTypes[t] = true
				c.typeIdentifiers(t, addType)
			}
		}
	}
	ex := func(e lf.Expr) { c.exprIdentifiers(e, add, ty) }
	for _, dt := range m.DataTypes {
		for _, f := range dt.Fields {
			ty(f.Type)
		}
	}
	for _, s := range m.Synonyms {
		ty(s.Type)
	}
	for _, v := range m.Values {
		ty(v.Type)
		ex(c.bodies.Body(v))
	}
	choice := func(ch *lf.Choice) {
		ty(ch.ArgType)
		ty(ch.ReturnType)
		ex(ch.Controllers)
		ex(ch.Observers)
		ex(ch.Authorizers)
		ex(ch.Update)
	}
	for _, t := range m.Templates {
		ex(t.Precond)
		ex(t.Signatories)
		ex(t.Observers)
		for _, ch := range t.Choices {
			choice(ch)
		}
		if t.Key != nil {
			ty(t.Key.Type)
			ex(t.Key.Body)
			ex(t.Key.Maintainers)
		}
		for _, in := range t.Instances {
			add(in.Interface)
			for _, mb := range in.Methods {
				ex(mb.Expr)
			}
			ex(in.View)
		}
	}
	for _, i := range m.Interfaces {
		for _, r := range i.Requires {
			add(r)
		}
		for _, meth := range i.Methods {
			ty(meth.Type)
		}
		for _, ch := range i.Choices {
			choice(ch)
		}
		ty(i.View)
	}
}

// typeIdentifiers calls f for every data type (isSyn false) and synonym
// (isSyn true) that t mentions.
func (c *checker) typeIdentifiers(t lf.Type, f func(id lf.TypeConID, isSyn bool)) {
	c.enter()
	c.typeIdentifiers1(t, f)
	c.leave()
}

func (c *checker) typeIdentifiers1(t lf.Type, f func(id lf.TypeConID, isSyn bool)) {
	switch t := t.(type) {
	case *lf.TCon:
		f(t.ID, false)
	case *lf.TSyn:
		f(t.ID, true)
		for _, a := range t.Args {
			c.typeIdentifiers(a, f)
		}
	case *lf.TApp:
		c.typeIdentifiers(t.Fun, f)
		c.typeIdentifiers(t.Arg, f)
	case *lf.TForall:
		c.typeIdentifiers(t.Body, f)
	case *lf.TStruct:
		for _, x := range t.Fields {
			c.typeIdentifiers(x.Type, f)
		}
	}
}

// exprIdentifiers calls add for the ids the expression mentions, and ty
// for its types. It walks the expression as a tree (a shared node is
// walked at each occurrence, as the type checker does; the work bound
// applies).
func (c *checker) exprIdentifiers(e lf.Expr, add func(lf.TypeConID), ty func(lf.Type)) {
	w := idWalk{c, add, ty}
	w.expr(e)
}

// idWalk is exprIdentifiers' walk.
type idWalk struct {
	c   *checker
	add func(lf.TypeConID)
	ty  func(lf.Type)
}

func (w *idWalk) expr(e lf.Expr) {
	if e == nil {
		return
	}
	w.c.enter()
	w.expr1(e)
	w.c.leave()
}

func (w *idWalk) tca(a lf.TypeConApp) {
	w.add(a.ID)
	for _, t := range a.Args {
		w.ty(t)
	}
}

func (w *idWalk) expr1(e lf.Expr) {
	switch n := e.(type) {
	case *lf.EVal:
		w.add(n.Ref)
	case *lf.ERecCon:
		w.tca(n.Type)
		for _, f := range n.Fields {
			w.expr(f.Expr)
		}
	case *lf.ERecProj:
		w.tca(n.Type)
		w.expr(n.Record)
	case *lf.ERecUpd:
		w.tca(n.Type)
		w.expr(n.Record)
		w.expr(n.Update)
	case *lf.EVariantCon:
		w.tca(n.Type)
		w.expr(n.Arg)
	case *lf.EEnumCon:
		w.add(n.ID)
	case *lf.EStructCon:
		for _, f := range n.Fields {
			w.expr(f.Expr)
		}
	case *lf.EStructProj:
		w.expr(n.Struct)
	case *lf.EStructUpd:
		w.expr(n.Struct)
		w.expr(n.Update)
	case *lf.EApp:
		w.expr(n.Fun)
		for _, x := range n.Args {
			w.expr(x)
		}
	case *lf.ETyApp:
		w.expr(n.Expr)
		for _, t := range n.Types {
			w.ty(t)
		}
	case *lf.EAbs:
		for _, p := range n.Params {
			w.ty(p.Type)
		}
		w.expr(n.Body)
	case *lf.ETyAbs:
		w.expr(n.Body)
	case *lf.ECase:
		w.expr(n.Scrut)
		for _, a := range n.Alts {
			if w.c.patternPackages != nil {
				switch p := a.Pattern.(type) {
				case *lf.PVariant:
					w.c.patternPackages(p.ID)
				case *lf.PEnum:
					w.c.patternPackages(p.ID)
				}
			}
			w.expr(a.Body)
		}
	case *lf.ELet:
		for _, b := range n.Bindings {
			w.ty(b.Var.Type)
			w.expr(b.Bound)
		}
		w.expr(n.Body)
	case *lf.ENil:
		w.ty(n.Type)
	case *lf.ECons:
		w.ty(n.Type)
		for _, x := range n.Front {
			w.expr(x)
		}
		w.expr(n.Tail)
	case *lf.EOptionalNone:
		w.ty(n.Type)
	case *lf.EOptionalSome:
		w.ty(n.Type)
		w.expr(n.Value)
	case *lf.EToAny:
		w.ty(n.Type)
		w.expr(n.Expr)
	case *lf.EFromAny:
		w.ty(n.Type)
		w.expr(n.Expr)
	case *lf.ETypeRep:
		w.ty(n.Type)
	case *lf.EToAnyException:
		w.ty(n.Type)
		w.expr(n.Expr)
	case *lf.EFromAnyException:
		w.ty(n.Type)
		w.expr(n.Expr)
	case *lf.EThrow:
		w.ty(n.ReturnType)
		w.ty(n.ExceptionType)
		w.expr(n.Exception)
	case *lf.EToInterface:
		w.add(n.Interface)
		w.add(n.Template)
		w.expr(n.Expr)
	case *lf.EFromInterface:
		w.add(n.Interface)
		w.add(n.Template)
		w.expr(n.Expr)
	case *lf.EUnsafeFromInterface:
		w.add(n.Interface)
		w.add(n.Template)
		w.expr(n.ContractID)
		w.expr(n.Expr)
	case *lf.ECallInterface:
		w.add(n.Interface)
		w.expr(n.Expr)
	case *lf.ESignatoryInterface:
		w.add(n.Interface)
		w.expr(n.Expr)
	case *lf.EObserverInterface:
		w.add(n.Interface)
		w.expr(n.Expr)
	case *lf.EViewInterface:
		w.add(n.Interface)
		w.expr(n.Expr)
	case *lf.EInterfaceTemplateTypeRep:
		w.add(n.Interface)
		w.expr(n.Expr)
	case *lf.EToRequiredInterface:
		w.add(n.Required)
		w.add(n.Requiring)
		w.expr(n.Expr)
	case *lf.EFromRequiredInterface:
		w.add(n.Required)
		w.add(n.Requiring)
		w.expr(n.Expr)
	case *lf.EUnsafeFromRequiredInterface:
		w.add(n.Required)
		w.add(n.Requiring)
		w.expr(n.ContractID)
		w.expr(n.Expr)
	case *lf.EExperimental:
		w.ty(n.Type)
	case *lf.EUpdate:
		switch u := n.Update.(type) {
		case *lf.UPure:
			w.ty(u.Type)
			w.expr(u.Expr)
		case *lf.UBlock:
			for _, b := range u.Bindings {
				w.ty(b.Var.Type)
				w.expr(b.Bound)
			}
			w.expr(u.Body)
		case *lf.UCreate:
			w.add(u.Template)
			w.expr(u.Expr)
		case *lf.UCreateInterface:
			w.add(u.Interface)
			w.expr(u.Expr)
		case *lf.UExercise:
			w.add(u.Template)
			w.expr(u.ContractID)
			w.expr(u.Arg)
		case *lf.UExerciseInterface:
			w.add(u.Interface)
			w.expr(u.ContractID)
			w.expr(u.Arg)
			w.expr(u.Guard)
		case *lf.UExerciseByKey:
			w.add(u.Template)
			w.expr(u.Key)
			w.expr(u.Arg)
		case *lf.UFetch:
			w.add(u.Template)
			w.expr(u.ContractID)
		case *lf.UFetchInterface:
			w.add(u.Interface)
			w.expr(u.ContractID)
		case *lf.ULedgerTimeLT:
			w.expr(u.Expr)
		case *lf.UEmbedExpr:
			w.ty(u.Type)
			w.expr(u.Expr)
		case *lf.UFetchByKey:
			w.add(u.Template)
		case *lf.ULookupByKey:
			w.add(u.Template)
		case *lf.UQueryNByKey:
			w.add(u.Template)
		case *lf.UTryCatch:
			w.ty(u.ReturnType)
			w.expr(u.Try)
			w.expr(u.Catch)
		}
	}
}

// --- Dependency versions (DependencyVersion.scala) ---

// checkDependencyVersions: every direct dependency must be known and use
// an LF version no newer than the package's. Canton's direct dependencies
// are the packages the decoder saw referenced; the model's DirectDeps also
// holds the declared imports no definition uses, which are skipped here
// (references seen by checkRecursion's walk).
func (c *checker) checkDependencyVersions() {
	c.ctx = Context{}
	for _, dep := range c.pkg.DirectDeps {
		if dep == c.pkg.ID || !c.referenced[dep] {
			continue
		}
		ref := Reference{Sort: RefPackage, ID: lf.TypeConID{PackageID: dep}}
		p := c.packageOf(dep, ref)
		if c.pkg.LanguageVersion.Compare(p.LanguageVersion) < 0 {
			c.throw(EModuleVersionDependencies, Error{Name: dep},
				"package %s using version %s depends on package %s using newer version %s",
				c.pkg.ID, c.pkg.LanguageVersion, dep, p.LanguageVersion)
		}
	}
}
