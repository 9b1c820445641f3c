package lf

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxExprDepth bounds the nesting of expressions (Expr, Update and their
// case messages) within one expression message. Canton parses archives
// with a protobuf recursion limit of 1000 messages, and every expression
// level is at least one message, so no archive Canton accepts nests
// deeper; the bound keeps the recursive decoder off a hostile stack.
const maxExprDepth = 1000

// maxExprTreeDepth bounds the depth of an expression counted through
// interned expressions (a chain of interned entries, each shallow, can
// otherwise nest without limit), so that code walking decoded expressions
// recursively stays within a modest Go stack. The real packages nest a few
// hundred levels at most.
const maxExprTreeDepth = 10 * maxExprDepth

// fields holds the singular fields 1..7 of a small message, the last
// occurrence of each.
type fields struct {
	f   [8]field
	has uint8
}

// readFields reads the message b, whose fields must all be among allowed
// (a bit mask of field numbers 1..7, a constant: 1<<n | ...), into fs.
func readFields(b []byte, msg string, allowed uint8, fs *fields) error {
	r := newReader(b)
	for {
		f, ok := r.next()
		if !ok {
			return r.err
		}
		if f.num >= 8 || allowed&(1<<f.num) == 0 {
			return errorf("Message %s has unknown field %d", msg, f.num)
		}
		fs.f[f.num] = f
		fs.has |= 1 << f.num
	}
}

func (fs *fields) present(n protowire.Number) bool { return fs.has&(1<<n) != 0 }

// msgBytes returns field n as an embedded message (nil when absent).
func (fs *fields) msgBytes(n protowire.Number, msg string) ([]byte, error) {
	if !fs.present(n) {
		return nil, nil
	}
	return fs.f[n].message(msg)
}

// idx returns field n as a table index (0 when absent, the proto3
// default).
func (fs *fields) idx(n protowire.Number, msg string) (int, error) {
	if !fs.present(n) {
		return 0, nil
	}
	return fs.f[n].index(msg)
}

// exprState is the part of the package decoder used by expressions.
type exprState struct {
	// exprs are the decoded interned expressions (LF ≥ 2.2) and
	// heights their depths counted through interned references.
	exprs   []Expr
	heights []int
	// A lazy decoder (a package's, after it was decoded: bodySource),
	// whose kept is not nil, decodes interned expression i from its
	// bytes (rawExprs[i]) when first referenced and keeps it in kept;
	// exprs is then unused. Its entries were all decoded once, in order,
	// by the package's decoding (heights comes from there), so that
	// they are valid.
	rawExprs []span
	kept     map[int]Expr
	// height is the largest depth reached while decoding the current
	// interned expression.
	height int
	// nameOK memoizes validName of interned strings: 0 unknown, 1 valid,
	// 2 invalid.
	nameOK []uint8
	// a allocates the decoded nodes.
	a nodeSlabs
}

// vname returns interned string i, which must be a Daml-LF Name; the
// check is memoized.
func (d *decoder) vname(i int) (string, error) {
	if i >= len(d.strs) {
		return "", errorf("invalid internedString table index %d", i)
	}
	if d.nameOK == nil {
		d.nameOK = make([]uint8, len(d.strs))
	}
	switch d.nameOK[i] {
	case 1:
		return d.strs[i], nil
	case 2:
		return "", errorf("invalid name %q", d.strs[i])
	}
	if validName(d.strs[i]) {
		d.nameOK[i] = 1
		return d.strs[i], nil
	}
	d.nameOK[i] = 2
	return "", errorf("invalid name %q", d.strs[i])
}

func (d *decoder) nameField(fs *fields, n protowire.Number, msg string) (string, error) {
	i, err := fs.idx(n, msg)
	if err != nil {
		return "", err
	}
	return d.vname(i)
}

func (d *decoder) exprField(fs *fields, n protowire.Number, msg string, depth int) (Expr, error) {
	b, err := fs.msgBytes(n, msg)
	if err != nil {
		return nil, err
	}
	return d.expr(b, depth)
}

func (d *decoder) typeField(fs *fields, n protowire.Number, msg string) (Type, error) {
	b, err := fs.msgBytes(n, msg)
	if err != nil {
		return nil, err
	}
	return d.typeRef(b)
}

func (d *decoder) tyConField(fs *fields, n protowire.Number, msg string) (TypeConID, error) {
	b, err := fs.msgBytes(n, msg)
	if err != nil {
		return TypeConID{}, err
	}
	return d.typeConID(b)
}

// internExprs decodes the interned_exprs table in order; entry i may refer
// only to entries before it.
func (d *decoder) internExprs(raw [][]byte) error {
	d.exprs = make([]Expr, 0, len(raw))
	d.heights = make([]int, 0, len(raw))
	for i, b := range raw {
		c, ok, err := lastCase(b, "Expr", exprCase)
		if err != nil {
			return errorf("interned expression %d: %v", i, err)
		}
		if ok && c.num == fExprInterned {
			return errorf("Immediate InternedExpr in interning table (entry %d)", i)
		}
		d.height = 0
		e, err := d.expr(b, 0)
		if err != nil {
			return errorf("interned expression %d: %v", i, err)
		}
		d.exprs = append(d.exprs, e)
		d.heights = append(d.heights, d.height)
	}
	return nil
}

// internedExpr returns interned expression i of a lazy decoder, decoding
// it on its first reference (the expressions it refers to come before it
// in the table, so that the recursion ends).
func (d *decoder) internedExpr(i int) (Expr, error) {
	if e, ok := d.kept[i]; ok {
		return e, nil
	}
	height := d.height // the referring expression's, which this decoding must not change
	e, err := d.expr(d.bytes(d.rawExprs[i]), 0)
	d.height = height
	if err != nil {
		return nil, errorf("interned expression %d: %v", i, err)
	}
	d.kept[i] = e
	return e, nil
}

func exprCase(n protowire.Number) bool {
	return (n >= fExprVar && n <= fExprInterned && n != 24) || n == fExprChoiceController ||
		n == fExprChoiceObserver || n == fExprExperimental || n == fExprLocation
}

var exprCaseNames = map[protowire.Number]string{
	fExprVar: "var", fExprVal: "val", fExprBuiltin: "builtin", fExprBuiltinCon: "builtin_con",
	fExprBuiltinLit: "builtin_lit", fExprRecCon: "rec_con", fExprRecProj: "rec_proj",
	fExprRecUpd: "rec_upd", fExprVariantCon: "variant_con", fExprEnumCon: "enum_con",
	fExprStructCon: "struct_con", fExprStructProj: "struct_proj", fExprStructUpd: "struct_upd",
	fExprApp: "app", fExprTyApp: "ty_app", fExprAbs: "abs", fExprTyAbs: "ty_abs", fExprCase: "case",
	fExprLet: "let", fExprNil: "nil", fExprCons: "cons", fExprUpdate: "update",
	fExprOptionalNone: "optional_none", fExprOptionalSome: "optional_some", fExprToAny: "to_any",
	fExprFromAny: "from_any", fExprTypeRep: "type_rep", fExprToAnyException: "to_any_exception",
	fExprFromAnyException: "from_any_exception", fExprThrow: "throw",
	fExprToInterface: "to_interface", fExprFromInterface: "from_interface",
	fExprCallInterface: "call_interface", fExprSignatoryInterface: "signatory_interface",
	fExprObserverInterface: "observer_interface", fExprViewInterface: "view_interface",
	fExprUnsafeFromInterface: "unsafe_from_interface", fExprInterfaceTemplateTypeRep: "interface_template_type_rep",
	fExprToRequiredInterface: "to_required_interface", fExprFromRequiredInterface: "from_required_interface",
	fExprUnsafeFromRequiredInterface: "unsafe_from_required_interface", fExprInterned: "interned_expr",
	fExprChoiceController: "choice_controller", fExprChoiceObserver: "choice_observer",
	fExprExperimental: "experimental",
}

// eApp1, eTyApp1 and eAbs1 are an application, a type application and
// a lambda allocated together with room for one argument, type or
// parameter, the only count Daml-LF 2.2 allows: their slices point into
// it, one allocation per node instead of two (a quarter of a package's
// expression nodes are applications). A second element is appended as
// to any slice (into a new array: the room holds one).
type (
	eApp1 struct {
		EApp
		arg [1]Expr
	}
	eTyApp1 struct {
		ETyApp
		typ [1]Type
	}
	eAbs1 struct {
		EAbs
		param [1]VarWithType
	}
)

// expr decodes an Expr message. A nil or empty b is Expr.SUM_NOT_SET.
func (d *decoder) expr(b []byte, depth int) (Expr, error) {
	if depth > maxExprDepth {
		return nil, errorf("expression nested too deeply (more than %d levels)", maxExprDepth)
	}
	d.height = max(d.height, depth)
	var c field
	found := false
	r := newReader(b)
	for {
		f, ok := r.next()
		if !ok {
			break
		}
		if f.num == fExprLocation {
			if f.typ != protowire.BytesType {
				return nil, f.wrongType("Expr.location")
			}
			if err := d.exprLocation(f.b); err != nil {
				return nil, err
			}
			continue
		}
		if !exprCase(f.num) {
			return nil, errorf("Message Expr has unknown field %d", f.num)
		}
		c, found = f, true
	}
	if err := r.err; err != nil {
		return nil, err
	}
	if !found {
		return nil, errorf("Expr.SUM_NOT_SET")
	}
	cf := c
	depth++
	switch c.num {
	case fExprVar:
		i, err := cf.index("Expr.var_interned_str")
		if err != nil {
			return nil, err
		}
		name, err := d.vname(i)
		if err != nil {
			return nil, err
		}
		return d.a.evar.put(EVar{Name: name}), nil
	case fExprBuiltin:
		v, err := cf.int32Of("Expr.builtin")
		if err != nil {
			return nil, err
		}
		fn := BuiltinFunction(v)
		info, ok := builtinFunctions[fn]
		if !ok {
			// Development builtins come and go between SDK releases: a
			// 2.dev package (accepted only on request) keeps an unknown
			// one, which an evaluator refuses if it is ever called.
			if d.lf.IsDev() && v >= 1000 {
				return &EBuiltinFun{Fun: fn}, nil
			}
			return nil, errorf("BuiltinFunction.UNRECOGNIZED (%d)", v)
		}
		if !d.atLeast(info.min) {
			return nil, errorf("builtin %s is not supported by Daml-LF %s", info.name, d.lf)
		}
		return &EBuiltinFun{Fun: fn}, nil
	case fExprBuiltinCon:
		v, err := cf.int32Of("Expr.builtin_con")
		if err != nil {
			return nil, err
		}
		if v < 0 || v > 2 {
			return nil, errorf("BuiltinCon.UNRECOGNIZED (%d)", v)
		}
		return builtinCons[v], nil
	case fExprInterned:
		if !d.flat() {
			return nil, errorf("interned expressions are not supported by Daml-LF %s", d.lf)
		}
		i, err := cf.index("Expr.interned_expr")
		if err != nil {
			return nil, err
		}
		if i >= len(d.heights) {
			return nil, errorf("invalid internedExprs table index %d (Interned expression indexes not monotonic)", i)
		}
		h := depth - 1 + d.heights[i]
		if h > maxExprTreeDepth {
			return nil, errorf("expression nested too deeply through interned expressions (more than %d levels)", maxExprTreeDepth)
		}
		d.height = max(d.height, h)
		if d.kept != nil {
			return d.internedExpr(i)
		}
		return d.exprs[i], nil
	}
	// The case's name is built only for the error: concatenating it for
	// every expression was an allocation per node.
	if cf.typ != protowire.BytesType {
		return nil, cf.wrongType("Expr." + exprCaseNames[c.num])
	}
	m := cf.b
	var err error
	var fs fields
	switch c.num {
	case fExprVal:
		id, err := d.typeConID(m)
		if err != nil {
			return nil, err
		}
		return d.a.eval.put(EVal{Ref: id}), nil
	case fExprBuiltinLit:
		return d.builtinLit(m)
	case fExprRecCon:
		return d.exprRecCon(m, depth)
	case fExprRecProj:
		const msg = "Expr.RecProj"
		if err := readFields(m, msg, 1<<fRecConTycon|1<<fRecProjRecord|1<<fRecProjField, &fs); err != nil {
			return nil, err
		}
		e := d.a.recProj.put(ERecProj{})
		if e.Type, err = d.typeConAppField(&fs, fRecConTycon, msg+".tycon"); err != nil {
			return nil, err
		}
		if e.Field, err = d.nameField(&fs, fRecProjField, msg+".field"); err != nil {
			return nil, err
		}
		if e.Record, err = d.exprField(&fs, fRecProjRecord, msg+".record", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprRecUpd:
		const msg = "Expr.RecUpd"
		if err := readFields(m, msg, 1<<fRecConTycon|1<<fRecUpdField|1<<fRecUpdRecord|1<<fRecUpdUpdate, &fs); err != nil {
			return nil, err
		}
		e := &ERecUpd{}
		if e.Type, err = d.typeConAppField(&fs, fRecConTycon, msg+".tycon"); err != nil {
			return nil, err
		}
		if e.Field, err = d.nameField(&fs, fRecUpdField, msg+".field"); err != nil {
			return nil, err
		}
		if e.Record, err = d.exprField(&fs, fRecUpdRecord, msg+".record", depth); err != nil {
			return nil, err
		}
		if e.Update, err = d.exprField(&fs, fRecUpdUpdate, msg+".update", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprVariantCon:
		const msg = "Expr.VariantCon"
		if err := readFields(m, msg, 1<<fRecConTycon|1<<fVariantConCon|1<<fVariantConArg, &fs); err != nil {
			return nil, err
		}
		e := &EVariantCon{}
		if e.Type, err = d.typeConAppField(&fs, fRecConTycon, msg+".tycon"); err != nil {
			return nil, err
		}
		if e.Con, err = d.nameField(&fs, fVariantConCon, msg+".variant_con"); err != nil {
			return nil, err
		}
		if e.Arg, err = d.exprField(&fs, fVariantConArg, msg+".variant_arg", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprEnumCon:
		const msg = "Expr.EnumCon"
		if err := readFields(m, msg, 1<<fEnumConTycon|1<<fEnumConCon, &fs); err != nil {
			return nil, err
		}
		e := &EEnumCon{}
		if e.ID, err = d.tyConField(&fs, fEnumConTycon, msg+".tycon"); err != nil {
			return nil, err
		}
		if e.Con, err = d.nameField(&fs, fEnumConCon, msg+".enum_con"); err != nil {
			return nil, err
		}
		return e, nil
	case fExprStructCon:
		return d.exprStructCon(m, depth)
	case fExprStructProj:
		const msg = "Expr.StructProj"
		if err := readFields(m, msg, 1<<fStructProjField|1<<fStructProjStruct, &fs); err != nil {
			return nil, err
		}
		e := d.a.structProj.put(EStructProj{})
		if e.Field, err = d.nameField(&fs, fStructProjField, msg+".field"); err != nil {
			return nil, err
		}
		if e.Struct, err = d.exprField(&fs, fStructProjStruct, msg+".struct", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprStructUpd:
		const msg = "Expr.StructUpd"
		if err := readFields(m, msg, 1<<fStructUpdField|1<<fStructUpdStruct|1<<fStructUpdUpdate, &fs); err != nil {
			return nil, err
		}
		e := &EStructUpd{}
		if e.Field, err = d.nameField(&fs, fStructUpdField, msg+".field"); err != nil {
			return nil, err
		}
		if e.Struct, err = d.exprField(&fs, fStructUpdStruct, msg+".struct", depth); err != nil {
			return nil, err
		}
		if e.Update, err = d.exprField(&fs, fStructUpdUpdate, msg+".update", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprApp:
		var fun []byte
		var args [][]byte
		var argBuf [4][]byte
		args = argBuf[:0]
		r := newReader(m)
		for f, ok := r.next(); ok; f, ok = r.next() {
			var x []byte
			switch f.num {
			case fAppFun:
				fun, err = f.message("Expr.App.fun")
			case fAppArgs:
				x, err = f.message("Expr.App.args")
				args = append(args, x)
			default:
				return nil, errorf("Message Expr.App has unknown field %d", f.num)
			}
			if err != nil {
				return nil, err
			}
		}
		if err := r.err; err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, errorf("Unexpected empty Expr.App.args")
		}
		var e *EApp
		if len(args) == 1 {
			node := d.a.app1.put(eApp1{})
			node.Args = node.arg[:]
			e = &node.EApp
		} else {
			e = d.a.app.put(EApp{Args: d.a.exprs.make(len(args))})
		}
		if e.Fun, err = d.expr(fun, depth); err != nil {
			return nil, err
		}
		for i, a := range args {
			if e.Args[i], err = d.expr(a, depth); err != nil {
				return nil, err
			}
		}
		return e, nil
	case fExprTyApp:
		return d.exprTyApp(m, depth)
	case fExprAbs:
		return d.exprAbs(m, depth)
	case fExprTyAbs:
		return d.exprTyAbs(m, depth)
	case fExprCase:
		return d.exprCase(m, depth)
	case fExprLet:
		bs, body, err := d.block(m, "Expr.Block", depth)
		if err != nil {
			return nil, err
		}
		return d.a.let.put(ELet{Bindings: bs, Body: body}), nil
	case fExprNil:
		if err := readFields(m, "Expr.Nil", 1<<fNilType, &fs); err != nil {
			return nil, err
		}
		t, err := d.typeField(&fs, fNilType, "Expr.Nil.type")
		if err != nil {
			return nil, err
		}
		return &ENil{Type: t}, nil
	case fExprCons:
		e := &ECons{}
		var typ, tail []byte
		var frontBuf [4][]byte
		front := frontBuf[:0]
		if err := eachMessage(m, "Expr.Cons", func(num protowire.Number, x []byte) error {
			switch num {
			case fConsType:
				typ = x
			case fConsFront:
				front = append(front, x)
			case fConsTail:
				tail = x
			default:
				return errorf("Message Expr.Cons has unknown field %d", num)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if len(front) == 0 {
			return nil, errorf("Unexpected empty Expr.Cons.front")
		}
		if e.Type, err = d.typeRef(typ); err != nil {
			return nil, err
		}
		e.Front = make([]Expr, len(front))
		for i, x := range front {
			if e.Front[i], err = d.expr(x, depth); err != nil {
				return nil, err
			}
		}
		if e.Tail, err = d.expr(tail, depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprUpdate:
		u, err := d.update(m, depth)
		if err != nil {
			return nil, err
		}
		return &EUpdate{Update: u}, nil
	case fExprOptionalNone:
		if err := readFields(m, "Expr.OptionalNone", 1<<fNilType, &fs); err != nil {
			return nil, err
		}
		t, err := d.typeField(&fs, fNilType, "Expr.OptionalNone.type")
		if err != nil {
			return nil, err
		}
		return &EOptionalNone{Type: t}, nil
	case fExprOptionalSome, fExprToAny, fExprFromAny, fExprToAnyException, fExprFromAnyException:
		msg := "Expr." + exprCaseNames[c.num]
		if err := readFields(m, msg, 1<<fTypeExprType|1<<fTypeExprExpr, &fs); err != nil {
			return nil, err
		}
		t, err := d.typeField(&fs, fTypeExprType, msg+".type")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fTypeExprExpr, msg+".expr", depth)
		if err != nil {
			return nil, err
		}
		switch c.num {
		case fExprOptionalSome:
			return &EOptionalSome{Type: t, Value: x}, nil
		case fExprToAny:
			return &EToAny{Type: t, Expr: x}, nil
		case fExprFromAny:
			return &EFromAny{Type: t, Expr: x}, nil
		case fExprToAnyException:
			return &EToAnyException{Type: t, Expr: x}, nil
		default:
			return &EFromAnyException{Type: t, Expr: x}, nil
		}
	case fExprTypeRep:
		t, err := d.typeRef(m)
		if err != nil {
			return nil, err
		}
		return &ETypeRep{Type: t}, nil
	case fExprThrow:
		const msg = "Expr.Throw"
		if err := readFields(m, msg, 1<<fThrowReturnType|1<<fThrowExceptionType|1<<fThrowExceptionExpr, &fs); err != nil {
			return nil, err
		}
		e := &EThrow{}
		if e.ReturnType, err = d.typeField(&fs, fThrowReturnType, msg+".return_type"); err != nil {
			return nil, err
		}
		if e.ExceptionType, err = d.typeField(&fs, fThrowExceptionType, msg+".exception_type"); err != nil {
			return nil, err
		}
		if e.Exception, err = d.exprField(&fs, fThrowExceptionExpr, msg+".exception_expr", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprToInterface, fExprFromInterface:
		msg := "Expr." + exprCaseNames[c.num]
		if err := readFields(m, msg, 1<<fIfaceConvInterface|1<<fIfaceConvTemplate|1<<fIfaceConvExpr, &fs); err != nil {
			return nil, err
		}
		iface, err := d.tyConField(&fs, fIfaceConvInterface, msg+".interface_type")
		if err != nil {
			return nil, err
		}
		tpl, err := d.tyConField(&fs, fIfaceConvTemplate, msg+".template_type")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fIfaceConvExpr, msg+".expr", depth)
		if err != nil {
			return nil, err
		}
		if c.num == fExprToInterface {
			return &EToInterface{Interface: iface, Template: tpl, Expr: x}, nil
		}
		return &EFromInterface{Interface: iface, Template: tpl, Expr: x}, nil
	case fExprUnsafeFromInterface:
		const msg = "Expr.UnsafeFromInterface"
		// Canton's range for this feature is "until 2.1"; damlc still
		// emits it in 2.dev packages, which are accepted only on request.
		if d.flat() && !d.lf.IsDev() {
			return nil, errorf("unsafe_from_interface is not supported by Daml-LF %s", d.lf)
		}
		if err := readFields(m, msg, 1<<fIfaceConvInterface|1<<fIfaceConvTemplate|1<<fUnsafeFromIfaceCid|1<<fUnsafeFromIfaceExpr, &fs); err != nil {
			return nil, err
		}
		e := &EUnsafeFromInterface{}
		if e.Interface, err = d.tyConField(&fs, fIfaceConvInterface, msg+".interface_type"); err != nil {
			return nil, err
		}
		if e.Template, err = d.tyConField(&fs, fIfaceConvTemplate, msg+".template_type"); err != nil {
			return nil, err
		}
		if e.ContractID, err = d.exprField(&fs, fUnsafeFromIfaceCid, msg+".contract_id_expr", depth); err != nil {
			return nil, err
		}
		if e.Expr, err = d.exprField(&fs, fUnsafeFromIfaceExpr, msg+".interface_expr", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprCallInterface:
		const msg = "Expr.CallInterface"
		if err := readFields(m, msg, 1<<fCallIfaceInterface|1<<fCallIfaceMethod|1<<fCallIfaceExpr, &fs); err != nil {
			return nil, err
		}
		e := &ECallInterface{}
		if e.Interface, err = d.tyConField(&fs, fCallIfaceInterface, msg+".interface_type"); err != nil {
			return nil, err
		}
		if e.Method, err = d.nameField(&fs, fCallIfaceMethod, msg+".method"); err != nil {
			return nil, err
		}
		if e.Expr, err = d.exprField(&fs, fCallIfaceExpr, msg+".interface_expr", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprSignatoryInterface, fExprObserverInterface, fExprViewInterface, fExprInterfaceTemplateTypeRep:
		msg := "Expr." + exprCaseNames[c.num]
		if err := readFields(m, msg, 1<<fIfaceExprInterface|1<<fIfaceExprExpr, &fs); err != nil {
			return nil, err
		}
		iface, err := d.tyConField(&fs, fIfaceExprInterface, msg+".interface")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fIfaceExprExpr, msg+".expr", depth)
		if err != nil {
			return nil, err
		}
		switch c.num {
		case fExprSignatoryInterface:
			return &ESignatoryInterface{Interface: iface, Expr: x}, nil
		case fExprObserverInterface:
			return &EObserverInterface{Interface: iface, Expr: x}, nil
		case fExprViewInterface:
			return &EViewInterface{Interface: iface, Expr: x}, nil
		default:
			return &EInterfaceTemplateTypeRep{Interface: iface, Expr: x}, nil
		}
	case fExprToRequiredInterface, fExprFromRequiredInterface:
		msg := "Expr." + exprCaseNames[c.num]
		if err := readFields(m, msg, 1<<fRequiredRequired|1<<fRequiredRequiring|1<<fRequiredExpr, &fs); err != nil {
			return nil, err
		}
		req, err := d.tyConField(&fs, fRequiredRequired, msg+".required_interface")
		if err != nil {
			return nil, err
		}
		ring, err := d.tyConField(&fs, fRequiredRequiring, msg+".requiring_interface")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fRequiredExpr, msg+".expr", depth)
		if err != nil {
			return nil, err
		}
		if c.num == fExprToRequiredInterface {
			return &EToRequiredInterface{Required: req, Requiring: ring, Expr: x}, nil
		}
		return &EFromRequiredInterface{Required: req, Requiring: ring, Expr: x}, nil
	case fExprUnsafeFromRequiredInterface:
		const msg = "Expr.UnsafeFromRequiredInterface"
		if err := readFields(m, msg, 1<<fRequiredRequired|1<<fRequiredRequiring|1<<fUnsafeRequiredCid|1<<fUnsafeRequiredExpr, &fs); err != nil {
			return nil, err
		}
		e := &EUnsafeFromRequiredInterface{}
		if e.Required, err = d.tyConField(&fs, fRequiredRequired, msg+".required_interface"); err != nil {
			return nil, err
		}
		if e.Requiring, err = d.tyConField(&fs, fRequiredRequiring, msg+".requiring_interface"); err != nil {
			return nil, err
		}
		if e.ContractID, err = d.exprField(&fs, fUnsafeRequiredCid, msg+".contract_id_expr", depth); err != nil {
			return nil, err
		}
		if e.Expr, err = d.exprField(&fs, fUnsafeRequiredExpr, msg+".interface_expr", depth); err != nil {
			return nil, err
		}
		return e, nil
	case fExprChoiceController, fExprChoiceObserver:
		return nil, errorf("%s is not supported by Daml-LF %s", exprCaseNames[c.num], d.lf)
	default: // fExprExperimental
		if !d.lf.IsDev() {
			return nil, errorf("experimental is not supported by Daml-LF %s", d.lf)
		}
		e := &EExperimental{}
		var typ []byte
		r := newReader(m)
		for f, ok := r.next(); ok; f, ok = r.next() {
			switch f.num {
			case fExperimentalName:
				if e.Name, err = f.str("Expr.Experimental.name"); err != nil {
					return nil, err
				}
			case fExperimentalType:
				if typ, err = f.message("Expr.Experimental.type"); err != nil {
					return nil, err
				}
			default:
				return nil, errorf("Message Expr.Experimental has unknown field %d", f.num)
			}
		}
		if err := r.err; err != nil {
			return nil, err
		}
		if e.Type, err = d.typeRef(typ); err != nil {
			return nil, err
		}
		return e, nil
	}
}

// exprRecCon decodes an Expr.RecCon.
func (d *decoder) exprRecCon(m []byte, depth int) (Expr, error) {
	var buf [8]FieldExpr // no allocation but the slab's for the usual few fields
	fields := buf[:0]
	var err error
	var tycon []byte
	r := newReader(m)
	for f, ok := r.next(); ok; f, ok = r.next() {
		switch f.num {
		case fRecConTycon:
			if tycon, err = f.message("Expr.RecCon.tycon"); err != nil {
				return nil, err
			}
		case fRecConFields:
			x, err := f.message("Expr.RecCon.fields")
			if err != nil {
				return nil, err
			}
			fe, err := d.fieldWithExpr(x, depth)
			if err != nil {
				return nil, err
			}
			fields = append(fields, fe)
		default:
			return nil, errorf("Message Expr.RecCon has unknown field %d", f.num)
		}
	}
	if err := r.err; err != nil {
		return nil, err
	}
	e := d.a.recCon.put(ERecCon{Fields: d.a.fieldExprs.clone(fields)})
	if e.Type, err = d.typeConApp(tycon); err != nil {
		return nil, err
	}
	return e, nil
}

// exprStructCon decodes an Expr.StructCon.
func (d *decoder) exprStructCon(m []byte, depth int) (Expr, error) {
	var buf [8]FieldExpr
	fields := buf[:0]
	r := newReader(m)
	for f, ok := r.next(); ok; f, ok = r.next() {
		if f.num != fStructConFields {
			return nil, errorf("Message Expr.StructCon has unknown field %d", f.num)
		}
		x, err := f.message("Expr.StructCon.fields")
		if err != nil {
			return nil, err
		}
		fe, err := d.fieldWithExpr(x, depth)
		if err != nil {
			return nil, err
		}
		fields = append(fields, fe)
	}
	if err := r.err; err != nil {
		return nil, err
	}
	return d.a.structCon.put(EStructCon{Fields: d.a.fieldExprs.clone(fields)}), nil
}

// exprCase decodes an Expr.Case.
func (d *decoder) exprCase(m []byte, depth int) (Expr, error) {
	var buf [4]CaseAlt
	alts := buf[:0]
	var scrut []byte
	if err := eachMessage(m, "Expr.Case", func(num protowire.Number, x []byte) error {
		switch num {
		case fCaseScrut:
			scrut = x
		case fCaseAlts:
			alt, err := d.caseAlt(x, depth)
			if err != nil {
				return err
			}
			alts = append(alts, alt)
		default:
			return errorf("Message Expr.Case has unknown field %d", num)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	e := d.a.ecase.put(ECase{Alts: d.a.alts.clone(alts)})
	var err error
	if e.Scrut, err = d.expr(scrut, depth); err != nil {
		return nil, err
	}
	return e, nil
}

// exprTyApp decodes an Expr.TyApp. Its types are gathered in a buffer,
// then kept in the node's room for one (the only count from LF 2.2) or
// in the slab.
func (d *decoder) exprTyApp(m []byte, depth int) (Expr, error) {
	var buf [4]Type
	types, body, err := listAndBody(d, m, "Expr.TyApp", "types", fTyAppTypes, fTyAppExpr, buf[:0], d.typeRef)
	if err != nil {
		return nil, err
	}
	node := d.a.tyApp1.put(eTyApp1{})
	e := &node.ETyApp
	if len(types) == 1 {
		node.typ[0] = types[0]
		e.Types = node.typ[:]
	} else {
		e.Types = d.a.types.clone(types)
	}
	if e.Expr, err = d.expr(body, depth); err != nil {
		return nil, err
	}
	return e, nil
}

// exprAbs decodes an Expr.Abs, its parameters as exprTyApp its types.
func (d *decoder) exprAbs(m []byte, depth int) (Expr, error) {
	var buf [4]VarWithType
	params, body, err := listAndBody(d, m, "Expr.Abs", "param", fAbsParams, fAbsBody, buf[:0], d.varWithType)
	if err != nil {
		return nil, err
	}
	node := d.a.abs1.put(eAbs1{})
	e := &node.EAbs
	if len(params) == 1 {
		node.param[0] = params[0]
		e.Params = node.param[:]
	} else {
		e.Params = d.a.vars.clone(params)
	}
	if e.Body, err = d.expr(body, depth); err != nil {
		return nil, err
	}
	return e, nil
}

// exprTyAbs decodes an Expr.TyAbs.
func (d *decoder) exprTyAbs(m []byte, depth int) (Expr, error) {
	var buf [4]TypeParam
	params, body, err := listAndBody(d, m, "Expr.TyAbs", "param", fAbsParams, fAbsBody, buf[:0], func(x []byte) (TypeParam, error) {
		return d.typeVarWithKind(x, 0)
	})
	if err != nil {
		return nil, err
	}
	e := d.a.tyAbs.put(ETyAbs{Params: d.a.typeParams.clone(params)})
	if e.Body, err = d.expr(body, depth); err != nil {
		return nil, err
	}
	return e, nil
}

// listAndBody reads the message m (Expr.TyApp, Expr.Abs, Expr.TyAbs) of
// a list, field listNum, each element decoded by elem and gathered in
// buf, and a body, field bodyNum. The list must not be empty, and has
// exactly one element in the LF versions of flat applications and
// abstractions. name and list name the message and the list in errors.
func listAndBody[T any](d *decoder, m []byte, name, list string, listNum, bodyNum protowire.Number, buf []T, elem func([]byte) (T, error)) ([]T, []byte, error) {
	var body []byte
	if err := eachMessage(m, name, func(num protowire.Number, x []byte) error {
		switch num {
		case listNum:
			v, err := elem(x)
			if err != nil {
				return err
			}
			buf = append(buf, v)
		case bodyNum:
			body = x
		default:
			return errorf("Message %s has unknown field %d", name, num)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if len(buf) == 0 {
		return nil, nil, errorf("Unexpected empty %s.%s", name, list)
	}
	if d.flat() && len(buf) != 1 {
		return nil, nil, errorf("%s.%s must have exactly one element in Daml-LF %s", name, list, d.lf)
	}
	return buf, body, nil
}

// exprLocation checks an expression's Location. Locations are dropped,
// but, as in Canton's decoder, the module of a location with a range is
// resolved and counts as a package reference.
func (d *decoder) exprLocation(b []byte) error {
	var fs fields
	if err := readFields(b, "Location", 1<<fLocationModule|1<<fLocationRange, &fs); err != nil {
		return err
	}
	if !fs.present(fLocationRange) || !fs.present(fLocationModule) {
		return nil
	}
	if _, err := fs.msgBytes(fLocationRange, "Location.range"); err != nil {
		return err
	}
	m, err := fs.msgBytes(fLocationModule, "Location.module")
	if err != nil {
		return err
	}
	_, _, err = d.moduleID(m)
	return err
}

// builtinCons are the shared nodes of the three builtin constructors.
var builtinCons = [3]*EBuiltinCon{{Con: ConUnit}, {Con: ConFalse}, {Con: ConTrue}}

// Timestamp and date ranges: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999Z.
const (
	minTimestamp = -62135596800000000
	maxTimestamp = 253402300799999999
	minDate      = -719162
	maxDate      = 2932896
)

func (d *decoder) builtinLit(b []byte) (Expr, error) {
	f, ok, err := lastCase(b, "BuiltinLit", func(n protowire.Number) bool {
		return (n >= fLitInt64 && n <= fLitFailureCategory) || n == fLitRoundingMode
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("BuiltinLit.SUM_NOT_SET")
	}
	switch f.num {
	case fLitInt64:
		v, err := f.sint64Of("BuiltinLit.int64")
		if err != nil {
			return nil, err
		}
		return &EInt64{Value: v}, nil
	case fLitTimestamp:
		v, err := f.sfixed64Of("BuiltinLit.timestamp")
		if err != nil {
			return nil, err
		}
		if v < minTimestamp || v > maxTimestamp {
			return nil, errorf("timestamp literal %d out of range", v)
		}
		return &ETimestamp{Micros: v}, nil
	case fLitNumeric:
		i, err := f.index("BuiltinLit.numeric_interned_str")
		if err != nil {
			return nil, err
		}
		s, err := d.str(i)
		if err != nil {
			return nil, err
		}
		scale, ok := numericLitScale(s)
		if !ok {
			return nil, errorf("invalid numeric literal %q", s)
		}
		return &ENumeric{Text: s, Scale: scale}, nil
	case fLitText:
		i, err := f.index("BuiltinLit.text_interned_str")
		if err != nil {
			return nil, err
		}
		s, err := d.str(i)
		if err != nil {
			return nil, err
		}
		return &EText{Value: s}, nil
	case fLitDate:
		v, err := f.int32Of("BuiltinLit.date")
		if err != nil {
			return nil, err
		}
		if v < minDate || v > maxDate {
			return nil, errorf("date literal %d out of range", v)
		}
		return &EDate{Days: v}, nil
	case fLitFailureCategory:
		v, err := f.int32Of("BuiltinLit.failure_category")
		if err != nil {
			return nil, err
		}
		if v != 0 && v != 1 {
			return nil, errorf("FailureCategory.UNRECOGNIZED (%d)", v)
		}
		return &EFailureCategory{Category: FailureCategory(v)}, nil
	default:
		if !d.lf.IsDev() {
			return nil, errorf("rounding_mode literals are not supported by Daml-LF %s", d.lf)
		}
		v, err := f.int32Of("BuiltinLit.rounding_mode")
		if err != nil {
			return nil, err
		}
		if v < 0 || v > int32(RoundingUnnecessary) {
			return nil, errorf("RoundingMode.UNRECOGNIZED (%d)", v)
		}
		return &ERoundingMode{Mode: RoundingMode(v)}, nil
	}
}

// numericLitScale checks a numeric literal, -?digits.digits* with at most
// 38 significant digits and a scale of at most 37 (the number of
// decimals; "1." has scale 0), and returns its scale.
func numericLitScale(s string) (int, bool) {
	t := strings.TrimPrefix(s, "-")
	dot := strings.IndexByte(t, '.')
	if dot <= 0 {
		return 0, false
	}
	digits := 0
	lead := true
	for i := 0; i < len(t); i++ {
		if i == dot {
			continue
		}
		ch := t[i]
		if ch < '0' || ch > '9' {
			return 0, false
		}
		if lead && ch == '0' && i < dot {
			continue
		}
		lead = false
		digits++
	}
	scale := len(t) - dot - 1
	if scale > 37 || digits > 38 {
		return 0, false
	}
	return scale, true
}

// typeConApp decodes a Type.Con used by record and variant expressions:
// the tycon and its type arguments.
func (d *decoder) typeConApp(b []byte) (TypeConApp, error) {
	var app TypeConApp
	var tycon []byte
	hasTycon := false
	var buf [4]Type
	args := buf[:0]
	if err := eachMessage(b, "Type.Con", func(num protowire.Number, x []byte) error {
		switch num {
		case fTypeConTycon:
			tycon, hasTycon = x, true
		case fTypeArgs:
			t, err := d.typeRef(x)
			if err != nil {
				return err
			}
			args = append(args, t)
		default:
			return errorf("Message Type.Con has unknown field %d", num)
		}
		return nil
	}); err != nil {
		return app, err
	}
	app.Args = d.a.types.clone(args)
	if !hasTycon {
		return app, errorf("PackageId.SUM_NOT_SET")
	}
	var err error
	app.ID, err = d.typeConID(tycon)
	return app, err
}

func (d *decoder) typeConAppField(fs *fields, n protowire.Number, msg string) (TypeConApp, error) {
	b, err := fs.msgBytes(n, msg)
	if err != nil {
		return TypeConApp{}, err
	}
	return d.typeConApp(b)
}

func (d *decoder) fieldWithExpr(b []byte, depth int) (FieldExpr, error) {
	var fs fields
	if err := readFields(b, "FieldWithExpr", 1<<fFieldWithExprName|1<<fFieldWithExprExpr, &fs); err != nil {
		return FieldExpr{}, err
	}
	name, err := d.nameField(&fs, fFieldWithExprName, "FieldWithExpr.field")
	if err != nil {
		return FieldExpr{}, err
	}
	e, err := d.exprField(&fs, fFieldWithExprExpr, "FieldWithExpr.expr", depth)
	if err != nil {
		return FieldExpr{}, err
	}
	return FieldExpr{Name: name, Expr: e}, nil
}

func (d *decoder) varWithType(b []byte) (VarWithType, error) {
	var fs fields
	if err := readFields(b, "VarWithType", 1<<fVarWithTypeName|1<<fVarWithTypeType, &fs); err != nil {
		return VarWithType{}, err
	}
	name, err := d.nameField(&fs, fVarWithTypeName, "VarWithType.var")
	if err != nil {
		return VarWithType{}, err
	}
	t, err := d.typeField(&fs, fVarWithTypeType, "VarWithType.type")
	if err != nil {
		return VarWithType{}, err
	}
	return VarWithType{Name: name, Type: t}, nil
}

// block decodes a Block (let and update blocks): bindings and body.
func (d *decoder) block(b []byte, msg string, depth int) ([]Binding, Expr, error) {
	var buf [4]Binding
	bs := buf[:0]
	var body []byte
	if err := eachMessage(b, msg, func(num protowire.Number, x []byte) error {
		switch num {
		case fBlockBindings:
			var fs fields
			if err := readFields(x, "Binding", 1<<fBindingBinder|1<<fBindingBound, &fs); err != nil {
				return err
			}
			vb, err := fs.msgBytes(fBindingBinder, "Binding.binder")
			if err != nil {
				return err
			}
			v, err := d.varWithType(vb)
			if err != nil {
				return err
			}
			e, err := d.exprField(&fs, fBindingBound, "Binding.bound", depth)
			if err != nil {
				return err
			}
			bs = append(bs, Binding{Var: v, Bound: e})
		case fBlockBody:
			body = x
		default:
			return errorf("Message %s has unknown field %d", msg, num)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if len(bs) == 0 {
		return nil, nil, errorf("Unexpected empty %s.bindings", msg)
	}
	e, err := d.expr(body, depth)
	if err != nil {
		return nil, nil, err
	}
	return d.a.bindings.clone(bs), e, nil
}

var (
	pDefault      = &PDefault{}
	pNil          = &PNil{}
	pOptionalNone = &POptionalNone{}
	pBuiltinCons  = [3]*PBuiltinCon{{Con: ConUnit}, {Con: ConFalse}, {Con: ConTrue}}
)

func (d *decoder) caseAlt(b []byte, depth int) (CaseAlt, error) {
	var alt CaseAlt
	var body []byte
	var pat field
	hasPat := false
	r := newReader(b)
	for f, ok := r.next(); ok; f, ok = r.next() {
		switch {
		case f.num == fAltBody:
			x, err := f.message("CaseAlt.body")
			if err != nil {
				return alt, err
			}
			body = x
		case f.num >= fAltDefault && f.num <= fAltEnum:
			pat, hasPat = f, true
		default:
			return alt, errorf("Message CaseAlt has unknown field %d", f.num)
		}
	}
	if err := r.err; err != nil {
		return alt, err
	}
	if !hasPat {
		return alt, errorf("CaseAlt.SUM_NOT_SET")
	}
	pf := pat
	var err error
	if pat.num == fAltBuiltinCon {
		v, err := pf.int32Of("CaseAlt.builtin_con")
		if err != nil {
			return alt, err
		}
		if v < 0 || v > 2 {
			return alt, errorf("BuiltinCon.UNRECOGNIZED (%d)", v)
		}
		alt.Pattern = pBuiltinCons[v]
	} else {
		var fs fields
		m, err := pf.message("CaseAlt")
		if err != nil {
			return alt, err
		}
		switch pat.num {
		case fAltDefault, fAltNil, fAltOptionalNone:
			if err := readFields(m, "Unit", 0, &fs); err != nil {
				return alt, err
			}
			alt.Pattern = map[protowire.Number]Pattern{fAltDefault: pDefault, fAltNil: pNil, fAltOptionalNone: pOptionalNone}[pat.num]
		case fAltVariant:
			const msg = "CaseAlt.Variant"
			if err := readFields(m, msg, 1<<fAltVariantCon|1<<fAltVariantVariant|1<<fAltVariantBinder, &fs); err != nil {
				return alt, err
			}
			p := &PVariant{}
			if p.ID, err = d.tyConField(&fs, fAltVariantCon, msg+".con"); err != nil {
				return alt, err
			}
			if p.Con, err = d.nameField(&fs, fAltVariantVariant, msg+".variant"); err != nil {
				return alt, err
			}
			if p.Binder, err = d.nameField(&fs, fAltVariantBinder, msg+".binder"); err != nil {
				return alt, err
			}
			alt.Pattern = p
		case fAltCons:
			const msg = "CaseAlt.Cons"
			if err := readFields(m, msg, 1<<fAltConsHead|1<<fAltConsTail, &fs); err != nil {
				return alt, err
			}
			p := &PCons{}
			if p.Head, err = d.nameField(&fs, fAltConsHead, msg+".var_head"); err != nil {
				return alt, err
			}
			if p.Tail, err = d.nameField(&fs, fAltConsTail, msg+".var_tail"); err != nil {
				return alt, err
			}
			alt.Pattern = p
		case fAltOptionalSome:
			const msg = "CaseAlt.OptionalSome"
			if err := readFields(m, msg, 1<<fAltOptionalSomeBody, &fs); err != nil {
				return alt, err
			}
			p := &POptionalSome{}
			if p.Binder, err = d.nameField(&fs, fAltOptionalSomeBody, msg+".var_body"); err != nil {
				return alt, err
			}
			alt.Pattern = p
		default: // fAltEnum
			const msg = "CaseAlt.Enum"
			if err := readFields(m, msg, 1<<fAltEnumCon|1<<fAltEnumConstructor, &fs); err != nil {
				return alt, err
			}
			p := &PEnum{}
			if p.ID, err = d.tyConField(&fs, fAltEnumCon, msg+".con"); err != nil {
				return alt, err
			}
			if p.Con, err = d.nameField(&fs, fAltEnumConstructor, msg+".constructor"); err != nil {
				return alt, err
			}
			alt.Pattern = p
		}
	}
	alt.Body, err = d.expr(body, depth)
	return alt, err
}

func updateCase(n protowire.Number) bool { return n >= fUpdatePure && n <= fUpdateQueryNByKey }

var updateCaseNames = map[protowire.Number]string{
	fUpdatePure: "pure", fUpdateBlock: "block", fUpdateCreate: "create", fUpdateExercise: "exercise",
	fUpdateFetch: "fetch", fUpdateGetTime: "get_time", fUpdateEmbedExpr: "embed_expr",
	fUpdateLookupByKey: "lookup_by_key", fUpdateFetchByKey: "fetch_by_key",
	fUpdateExerciseByKey: "exercise_by_key", fUpdateTryCatch: "try_catch",
	fUpdateCreateInterface: "create_interface", fUpdateExerciseInterface: "exercise_interface",
	fUpdateFetchInterface: "fetch_interface", fUpdateLedgerTimeLT: "ledger_time_lt",
	fUpdateQueryNByKey: "query_n_by_key",
}

func (d *decoder) update(b []byte, depth int) (Update, error) {
	if depth > maxExprDepth {
		return nil, errorf("expression nested too deeply (more than %d levels)", maxExprDepth)
	}
	d.height = max(d.height, depth)
	c, ok, err := lastCase(b, "Update", updateCase)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("Update.SUM_NOT_SET")
	}
	depth++
	msg := "Update." + updateCaseNames[c.num]
	m, err := c.message(msg)
	if err != nil {
		return nil, err
	}
	var fs fields
	switch c.num {
	case fUpdatePure, fUpdateEmbedExpr:
		if err := readFields(m, msg, 1<<fTypeExprType|1<<fTypeExprExpr, &fs); err != nil {
			return nil, err
		}
		t, err := d.typeField(&fs, fTypeExprType, msg+".type")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fTypeExprExpr, msg+".expr", depth)
		if err != nil {
			return nil, err
		}
		if c.num == fUpdatePure {
			return &UPure{Type: t, Expr: x}, nil
		}
		return &UEmbedExpr{Type: t, Expr: x}, nil
	case fUpdateBlock:
		bs, body, err := d.block(m, "Update.Block", depth)
		if err != nil {
			return nil, err
		}
		return &UBlock{Bindings: bs, Body: body}, nil
	case fUpdateCreate, fUpdateCreateInterface:
		if err := readFields(m, msg, 1<<fCreateTemplate|1<<fCreateExpr, &fs); err != nil {
			return nil, err
		}
		id, err := d.tyConField(&fs, fCreateTemplate, msg+".template")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fCreateExpr, msg+".expr", depth)
		if err != nil {
			return nil, err
		}
		if c.num == fUpdateCreate {
			return &UCreate{Template: id, Expr: x}, nil
		}
		return &UCreateInterface{Interface: id, Expr: x}, nil
	case fUpdateExercise:
		if err := readFields(m, msg, 1<<fExerciseTemplate|1<<fExerciseChoice|1<<fExerciseCid|1<<fExerciseArg, &fs); err != nil {
			return nil, err
		}
		u := &UExercise{}
		if u.Template, err = d.tyConField(&fs, fExerciseTemplate, msg+".template"); err != nil {
			return nil, err
		}
		if u.Choice, err = d.nameField(&fs, fExerciseChoice, msg+".choice"); err != nil {
			return nil, err
		}
		if u.ContractID, err = d.exprField(&fs, fExerciseCid, msg+".cid", depth); err != nil {
			return nil, err
		}
		if u.Arg, err = d.exprField(&fs, fExerciseArg, msg+".arg", depth); err != nil {
			return nil, err
		}
		return u, nil
	case fUpdateExerciseInterface:
		if err := readFields(m, msg, 1<<fExerciseIfaceInterface|1<<fExerciseIfaceChoice|1<<fExerciseIfaceCid|1<<fExerciseIfaceArg|1<<fExerciseIfaceGuard, &fs); err != nil {
			return nil, err
		}
		u := &UExerciseInterface{}
		if u.Interface, err = d.tyConField(&fs, fExerciseIfaceInterface, msg+".interface"); err != nil {
			return nil, err
		}
		if u.Choice, err = d.nameField(&fs, fExerciseIfaceChoice, msg+".choice"); err != nil {
			return nil, err
		}
		if u.ContractID, err = d.exprField(&fs, fExerciseIfaceCid, msg+".cid", depth); err != nil {
			return nil, err
		}
		if u.Arg, err = d.exprField(&fs, fExerciseIfaceArg, msg+".arg", depth); err != nil {
			return nil, err
		}
		if fs.present(fExerciseIfaceGuard) {
			if !d.lf.IsDev() {
				return nil, errorf("exercise_interface guards are not supported by Daml-LF %s", d.lf)
			}
			if u.Guard, err = d.exprField(&fs, fExerciseIfaceGuard, msg+".guard", depth); err != nil {
				return nil, err
			}
		}
		return u, nil
	case fUpdateExerciseByKey:
		if !d.atLeast(LF23) {
			return nil, errorf("exercise_by_key is not supported by Daml-LF %s", d.lf)
		}
		if err := readFields(m, msg, 1<<fExerciseByKeyTemplate|1<<fExerciseByKeyChoice|1<<fExerciseByKeyKey|1<<fExerciseByKeyArg, &fs); err != nil {
			return nil, err
		}
		u := &UExerciseByKey{}
		if u.Template, err = d.tyConField(&fs, fExerciseByKeyTemplate, msg+".template"); err != nil {
			return nil, err
		}
		if u.Choice, err = d.nameField(&fs, fExerciseByKeyChoice, msg+".choice"); err != nil {
			return nil, err
		}
		if u.Key, err = d.exprField(&fs, fExerciseByKeyKey, msg+".key", depth); err != nil {
			return nil, err
		}
		if u.Arg, err = d.exprField(&fs, fExerciseByKeyArg, msg+".arg", depth); err != nil {
			return nil, err
		}
		return u, nil
	case fUpdateFetch, fUpdateFetchInterface:
		if err := readFields(m, msg, 1<<fFetchTemplate|1<<fFetchCid, &fs); err != nil {
			return nil, err
		}
		id, err := d.tyConField(&fs, fFetchTemplate, msg+".template")
		if err != nil {
			return nil, err
		}
		x, err := d.exprField(&fs, fFetchCid, msg+".cid", depth)
		if err != nil {
			return nil, err
		}
		if c.num == fUpdateFetch {
			return &UFetch{Template: id, ContractID: x}, nil
		}
		return &UFetchInterface{Interface: id, ContractID: x}, nil
	case fUpdateGetTime:
		if err := readFields(m, "Unit", 0, &fs); err != nil {
			return nil, err
		}
		return uGetTime, nil
	case fUpdateLedgerTimeLT:
		x, err := d.expr(m, depth)
		if err != nil {
			return nil, err
		}
		return &ULedgerTimeLT{Expr: x}, nil
	case fUpdateLookupByKey, fUpdateFetchByKey, fUpdateQueryNByKey:
		min := LF23
		if c.num == fUpdateLookupByKey {
			min = LF2Dev
		}
		if !d.atLeast(min) {
			return nil, errorf("%s is not supported by Daml-LF %s", updateCaseNames[c.num], d.lf)
		}
		if err := readFields(m, msg, 1<<fRetrieveByKeyTemplate, &fs); err != nil {
			return nil, err
		}
		id, err := d.tyConField(&fs, fRetrieveByKeyTemplate, msg+".template")
		if err != nil {
			return nil, err
		}
		switch c.num {
		case fUpdateLookupByKey:
			return &ULookupByKey{Template: id}, nil
		case fUpdateFetchByKey:
			return &UFetchByKey{Template: id}, nil
		default:
			return &UQueryNByKey{Template: id}, nil
		}
	default: // fUpdateTryCatch
		if err := readFields(m, msg, 1<<fTryCatchReturnType|1<<fTryCatchTryExpr|1<<fTryCatchVar|1<<fTryCatchCatchExpr, &fs); err != nil {
			return nil, err
		}
		u := &UTryCatch{}
		if u.ReturnType, err = d.typeField(&fs, fTryCatchReturnType, msg+".return_type"); err != nil {
			return nil, err
		}
		if u.Try, err = d.exprField(&fs, fTryCatchTryExpr, msg+".try_expr", depth); err != nil {
			return nil, err
		}
		if u.Var, err = d.nameField(&fs, fTryCatchVar, msg+".var"); err != nil {
			return nil, err
		}
		if u.Catch, err = d.exprField(&fs, fTryCatchCatchExpr, msg+".catch_expr", depth); err != nil {
			return nil, err
		}
		return u, nil
	}
}

var uGetTime = &UGetTime{}
