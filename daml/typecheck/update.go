package typecheck

import "github.com/ledgernode/ledgernode/daml/lf"

// typeOfUpdate is Env.typeOfUpdate.
func (c *checker) typeOfUpdate(u lf.Update) lf.Type {
	switch u := u.(type) {
	case *lf.UPure:
		c.checkType(u.Type, kStar)
		c.checkExpr(u.Expr, u.Type)
		return tUpdate(u.Type)
	case *lf.UBlock:
		base := len(c.eStack)
		for _, b := range u.Bindings {
			c.checkType(b.Var.Type, kStar)
			c.checkExpr(b.Bound, tUpdate(b.Var.Type))
			c.pushE(b.Var.Name, b.Var.Type)
		}
		t := c.toUpdate(c.typeOf(u.Body))
		c.popE(base)
		return t
	case *lf.UCreate:
		c.lookupTemplate(u.Template, Reference{Sort: RefTemplate, ID: u.Template})
		c.checkExpr(u.Expr, tCon(u.Template))
		return tUpdate(tContractID(tCon(u.Template)))
	case *lf.UCreateInterface:
		c.lookupInterface(u.Interface, Reference{Sort: RefInterface, ID: u.Interface})
		c.checkExpr(u.Expr, tCon(u.Interface))
		return tUpdate(tContractID(tCon(u.Interface)))
	case *lf.UExercise:
		ch := c.lookupTemplateChoice(u.Template, u.Choice)
		c.checkExpr(u.ContractID, tContractID(tCon(u.Template)))
		c.checkExpr(u.Arg, ch.ArgType)
		return tUpdate(ch.ReturnType)
	case *lf.UExerciseInterface:
		c.checkExpr(u.ContractID, tContractID(tCon(u.Interface)))
		ch := c.lookupInterfaceChoice(u.Interface, u.Choice)
		c.checkExpr(u.Arg, ch.ArgType)
		if u.Guard != nil {
			c.checkExpr(u.Guard, fn(tCon(u.Interface), tBool))
		}
		return tUpdate(ch.ReturnType)
	case *lf.UExerciseByKey:
		k := c.lookupTemplateKey(u.Template)
		c.checkExpr(u.Key, k.Type)
		ch := c.lookupTemplateChoice(u.Template, u.Choice)
		c.checkExpr(u.Arg, ch.ArgType)
		return tUpdate(ch.ReturnType)
	case *lf.UFetch:
		c.lookupTemplate(u.Template, Reference{Sort: RefTemplate, ID: u.Template})
		c.checkExpr(u.ContractID, tContractID(tCon(u.Template)))
		return tUpdate(tCon(u.Template))
	case *lf.UFetchInterface:
		c.lookupInterface(u.Interface, Reference{Sort: RefInterface, ID: u.Interface})
		c.checkExpr(u.ContractID, tContractID(tCon(u.Interface)))
		return tUpdate(tCon(u.Interface))
	case *lf.UGetTime:
		return tUpdate(tTimestamp)
	case *lf.ULedgerTimeLT:
		c.checkExpr(u.Expr, tTimestamp)
		return tUpdate(tBool)
	case *lf.UEmbedExpr:
		c.checkExpr(u.Expr, tUpdate(u.Type))
		return tUpdate(u.Type)
	case *lf.UFetchByKey:
		k := c.lookupTemplateKey(u.Template)
		t := tCon(u.Template)
		return fn(k.Type, tUpdate(app(app(tuple2, tContractID(t)), t)))
	case *lf.ULookupByKey:
		k := c.lookupTemplateKey(u.Template)
		return fn(k.Type, tUpdate(tOptional(tContractID(tCon(u.Template)))))
	case *lf.UQueryNByKey:
		k := c.lookupTemplateKey(u.Template)
		t := tCon(u.Template)
		return fn(tInt64, fn(k.Type, tUpdate(tOptional(tList(app(app(tuple2, tContractID(t)), t))))))
	case *lf.UTryCatch:
		c.checkType(u.ReturnType, kStar)
		ut := tUpdate(u.ReturnType)
		c.checkExpr(u.Try, ut)
		s := c.bindE(u.Var, tAnyException)
		c.checkExpr(u.Catch, tOptional(ut))
		c.unbindE(s)
		return ut
	}
	c.throw(ETypeMismatch, Error{}, "unsupported update %T", u)
	return nil
}
