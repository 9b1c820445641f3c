package lf

// Inspect calls f for every distinct node reachable from root: Expr
// nodes, Update nodes and Pattern nodes, parents before children. A node
// shared by several parents (interned expressions) is visited once. If f
// returns false, the node's children are not visited (unless reached
// through another parent). Inspect uses an explicit stack, so deep
// expressions do not grow the Go stack.
func Inspect(root Expr, f func(node any) bool) {
	if root == nil {
		return
	}
	seen := map[any]bool{}
	stack := []any{root}
	push := func(xs ...Expr) {
		// Pushed in reverse so that children are visited left to right.
		for i := len(xs) - 1; i >= 0; i-- {
			if xs[i] != nil {
				stack = append(stack, xs[i])
			}
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if !f(n) {
			continue
		}
		switch n := n.(type) {
		case *ERecCon:
			for i := len(n.Fields) - 1; i >= 0; i-- {
				push(n.Fields[i].Expr)
			}
		case *ERecProj:
			push(n.Record)
		case *ERecUpd:
			push(n.Record, n.Update)
		case *EVariantCon:
			push(n.Arg)
		case *EStructCon:
			for i := len(n.Fields) - 1; i >= 0; i-- {
				push(n.Fields[i].Expr)
			}
		case *EStructProj:
			push(n.Struct)
		case *EStructUpd:
			push(n.Struct, n.Update)
		case *EApp:
			push(n.Args...)
			push(n.Fun)
		case *ETyApp:
			push(n.Expr)
		case *EAbs:
			push(n.Body)
		case *ETyAbs:
			push(n.Body)
		case *ECase:
			for i := len(n.Alts) - 1; i >= 0; i-- {
				push(n.Alts[i].Body)
				stack = append(stack, n.Alts[i].Pattern)
			}
			push(n.Scrut)
		case *ELet:
			push(n.Body)
			for i := len(n.Bindings) - 1; i >= 0; i-- {
				push(n.Bindings[i].Bound)
			}
		case *ECons:
			push(n.Tail)
			push(n.Front...)
		case *EUpdate:
			stack = append(stack, n.Update)
		case *EOptionalSome:
			push(n.Value)
		case *EToAny:
			push(n.Expr)
		case *EFromAny:
			push(n.Expr)
		case *EToAnyException:
			push(n.Expr)
		case *EFromAnyException:
			push(n.Expr)
		case *EThrow:
			push(n.Exception)
		case *EToInterface:
			push(n.Expr)
		case *EFromInterface:
			push(n.Expr)
		case *EUnsafeFromInterface:
			push(n.ContractID, n.Expr)
		case *ECallInterface:
			push(n.Expr)
		case *ESignatoryInterface:
			push(n.Expr)
		case *EObserverInterface:
			push(n.Expr)
		case *EViewInterface:
			push(n.Expr)
		case *EInterfaceTemplateTypeRep:
			push(n.Expr)
		case *EToRequiredInterface:
			push(n.Expr)
		case *EFromRequiredInterface:
			push(n.Expr)
		case *EUnsafeFromRequiredInterface:
			push(n.ContractID, n.Expr)
		case *UPure:
			push(n.Expr)
		case *UBlock:
			push(n.Body)
			for i := len(n.Bindings) - 1; i >= 0; i-- {
				push(n.Bindings[i].Bound)
			}
		case *UCreate:
			push(n.Expr)
		case *UCreateInterface:
			push(n.Expr)
		case *UExercise:
			push(n.ContractID, n.Arg)
		case *UExerciseInterface:
			push(n.ContractID, n.Arg, n.Guard)
		case *UExerciseByKey:
			push(n.Key, n.Arg)
		case *UFetch:
			push(n.ContractID)
		case *UFetchInterface:
			push(n.ContractID)
		case *ULedgerTimeLT:
			push(n.Expr)
		case *UEmbedExpr:
			push(n.Expr)
		case *UTryCatch:
			push(n.Try, n.Catch)
		}
	}
}

// Exprs returns the package's top-level expressions, each once: value
// bodies, template preconditions, signatories, observers, keys, choice
// expressions, interface instance methods and views, interface choices and
// exception messages, in module order. It decodes every value body the
// package has not decoded yet, and the package keeps them (Body): a walk
// that need not keep them reads them through a BodyReader.
func (p *Package) Exprs() []Expr {
	var out []Expr
	add := func(es ...Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	choices := func(cs []*Choice) {
		for _, c := range cs {
			add(c.Controllers, c.Observers, c.Authorizers, c.Update)
		}
	}
	for _, m := range p.Modules {
		for _, v := range m.Values {
			add(v.Body())
		}
		for _, t := range m.Templates {
			add(t.Precond, t.Signatories, t.Observers)
			if t.Key != nil {
				add(t.Key.Body, t.Key.Maintainers)
			}
			choices(t.Choices)
			for _, in := range t.Instances {
				for _, mb := range in.Methods {
					add(mb.Expr)
				}
				add(in.View)
			}
		}
		for _, i := range m.Interfaces {
			choices(i.Choices)
		}
		for _, e := range m.ExceptionDefs {
			add(e.Message)
		}
	}
	return out
}
