package lf

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// refNode describes, for the package-reference walker, which fields of a
// Daml-LF message are embedded messages that may (transitively) contain a
// SelfOrImportedPackageId. Fields not listed are skipped.
type refNode struct {
	// low holds the children of fields 0..63, high those of larger
	// field numbers (1001, 1002, 9999).
	low  [64]*refNode
	high map[protowire.Number]*refNode
	// pkgRef marks SelfOrImportedPackageId itself.
	pkgRef bool
	// exprLocation marks an expression's Location, whose module counts as
	// a reference only when the location has a range (as in Canton's
	// decoder, which ignores other locations).
	exprLocation bool
	// id is the node's index in refNodes.
	id uint8
}

func (n *refNode) child(num protowire.Number) *refNode {
	if num < 64 {
		return n.low[num]
	}
	return n.high[num]
}

// refNodes lists the schema's nodes by id.
var refNodes []*refNode

// refSchema is the root of the walk: the Package message.
var refSchema = buildRefSchema()

func buildRefSchema() *refNode {
	n := func() *refNode {
		node := &refNode{high: map[protowire.Number]*refNode{}, id: uint8(len(refNodes))}
		refNodes = append(refNodes, node)
		return node
	}
	set := func(m *refNode, kv ...any) {
		for i := 0; i < len(kv); i += 2 {
			num := protowire.Number(kv[i].(int))
			if num < 64 {
				m.low[num] = kv[i+1].(*refNode)
			} else {
				m.high[num] = kv[i+1].(*refNode)
			}
		}
	}
	var (
		pkg, module, pkgRef, moduleID, tcID, exprLoc                          = n(), n(), n(), n(), n(), n()
		typ, tVar, tCon, tBuiltin, tForall, tStruct, tSyn, tApp, fieldWithTyp = n(), n(), n(), n(), n(), n(), n(), n(), n()
		varWithType, expr, fieldWithExpr, binding, tyExpr, tciExprs, ifaceOp  = n(), n(), n(), n(), n(), n(), n()
		recCon, recProj, recUpd, variantCon, enumCon, structCon, structProj   = n(), n(), n(), n(), n(), n(), n()
		structUpd, app, tyApp, abs, tyAbs, caseN, caseAlt, caseAltCon, block  = n(), n(), n(), n(), n(), n(), n(), n(), n()
		typeOnly, cons, throw, update, tryCatch, experimental                 = n(), n(), n(), n(), n(), n()
		defTypeSyn, defDataType, fields, defValue, nameWithType, defTemplate  = n(), n(), n(), n(), n(), n()
		defKey, implements, ifaceBody, ifaceInstMethod, choice, defException  = n(), n(), n(), n(), n(), n()
		defInterface, ifaceMethod                                             = n(), n()
	)
	pkgRef.pkgRef = true
	exprLoc.exprLocation = true

	set(pkg, 1, module, 5, typ, 7, expr)
	set(module, 3, defTypeSyn, 4, defDataType, 5, defValue, 6, defTemplate, 7, defException, 8, defInterface)
	set(defTypeSyn, 4, typ)
	set(defDataType, 5, fields, 6, fields)
	set(fields, 1, fieldWithTyp)
	set(defValue, 2, nameWithType, 3, expr)
	set(nameWithType, 2, typ)
	set(defTemplate, 3, expr, 4, expr, 6, choice, 7, expr, 9, defKey, 10, implements)
	set(defKey, 1, typ, 3, expr, 4, expr)
	set(implements, 1, tcID, 2, ifaceBody)
	set(ifaceBody, 1, ifaceInstMethod, 2, expr)
	set(ifaceInstMethod, 2, expr)
	set(choice, 4, expr, 5, expr, 6, varWithType, 8, typ, 9, expr, 1001, expr)
	set(defException, 3, expr)
	set(defInterface, 3, ifaceMethod, 5, choice, 6, typ, 7, tcID)
	set(ifaceMethod, 3, typ)

	set(moduleID, 1, pkgRef)
	set(tcID, 1, moduleID) // TypeConId, TypeSynId, ValueId
	set(exprLoc, 1, moduleID)

	set(typ, 1, tVar, 2, tCon, 3, tBuiltin, 4, tForall, 5, tStruct, 7, tSyn, 9, tApp)
	set(tVar, 2, typ)
	set(tCon, 1, tcID, 2, typ)
	set(tBuiltin, 2, typ)
	set(tForall, 2, typ)
	set(tStruct, 1, fieldWithTyp)
	set(tSyn, 1, tcID, 2, typ)
	set(tApp, 1, typ, 2, typ)
	set(fieldWithTyp, 2, typ)
	set(varWithType, 2, typ)
	set(typeOnly, 1, typ)

	set(expr, 1, exprLoc, 3, tcID, 7, recCon, 8, recProj, 9, recUpd, 10, variantCon, 11, enumCon,
		12, structCon, 13, structProj, 14, structUpd, 15, app, 16, tyApp, 17, abs, 18, tyAbs,
		19, caseN, 20, block, 21, typeOnly, 22, cons, 23, update, 25, typeOnly, 26, tyExpr,
		27, tyExpr, 28, tyExpr, 29, typ, 30, tyExpr, 31, tyExpr, 32, throw,
		33, ifaceOp, 34, ifaceOp, 35, ifaceOp, 36, tciExprs, 37, tciExprs, 38, tciExprs,
		39, ifaceOp, 40, tciExprs, 41, ifaceOp, 42, ifaceOp, 43, ifaceOp,
		1001, ifaceOp, 1002, ifaceOp, 9999, experimental)
	set(fieldWithExpr, 2, expr)
	set(binding, 1, varWithType, 2, expr)
	set(tyExpr, 1, typ, 2, expr)                               // {type=1, expr=2}
	set(tciExprs, 1, tcID, 2, expr, 3, expr, 4, expr, 5, expr) // {tycon=1, exprs...}
	set(ifaceOp, 1, tcID, 2, tcID, 3, expr, 4, expr)           // {tycon=1, tycon=2, exprs...}
	set(recCon, 1, tCon, 2, fieldWithExpr)                     // tycon is a Type.Con
	set(recProj, 1, tCon, 3, expr)
	set(recUpd, 1, tCon, 3, expr, 4, expr)
	set(variantCon, 1, tCon, 3, expr)
	set(enumCon, 1, tcID)
	set(structCon, 1, fieldWithExpr)
	set(structProj, 2, expr)
	set(structUpd, 2, expr, 3, expr)
	set(app, 1, expr, 2, expr)
	set(tyApp, 1, expr, 2, typ)
	set(abs, 1, varWithType, 2, expr)
	set(tyAbs, 2, expr)
	set(caseN, 1, expr, 2, caseAlt)
	set(caseAlt, 1, expr, 3, caseAltCon, 9, caseAltCon) // variant and enum patterns
	set(caseAltCon, 1, tcID)
	set(block, 1, binding, 2, expr)
	set(cons, 1, typ, 2, expr, 3, expr)
	set(throw, 1, typ, 2, typ, 3, expr)
	set(experimental, 2, typ)
	set(update, 1, tyExpr, 2, block, 3, tciExprs, 4, tciExprs, 5, tciExprs, 7, tyExpr,
		8, tciExprs, 9, tciExprs, 10, tciExprs, 11, tryCatch, 12, tciExprs, 13, tciExprs,
		14, tciExprs, 15, expr, 16, tciExprs)
	set(tryCatch, 1, typ, 2, expr, 4, expr)
	return pkg
}

// collectRefs walks the whole Package message b and records in d.refs every
// package it references (self excluded), resolving and checking each
// SelfOrImportedPackageId as the decoder does. The walk is iterative, so
// deeply nested expressions cost heap, not stack.
func (d *decoder) collectRefs(b []byte) error {
	if uint64(len(b)) > math.MaxUint32 {
		return errorf("package too large")
	}
	// Stack items are offsets into b (no pointers for the GC to scan).
	type item struct {
		start, end uint32
		node       uint8
	}
	stack := make([]item, 1, 256)
	stack[0] = item{0, uint32(len(b)), refSchema.id}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		node := refNodes[it.node]
		msg := b[it.start:it.end]
		if node.pkgRef {
			id, err := d.pkgRef(msg)
			if err != nil {
				return err
			}
			if id != d.id {
				d.refs[id] = true
			}
			continue
		}
		if node.exprLocation && !hasField(msg, 2) {
			continue
		}
		pos := it.start
		for buf := msg; len(buf) > 0; {
			num, typ, n := protowire.ConsumeTag(buf)
			if n < 0 {
				return errorf("malformed protobuf: %v", protowire.ParseError(n))
			}
			buf = buf[n:]
			pos += uint32(n)
			if typ == protowire.BytesType {
				v, m := protowire.ConsumeBytes(buf)
				if m < 0 {
					return errorf("malformed protobuf: %v", protowire.ParseError(m))
				}
				if child := node.child(num); child != nil {
					start := pos + uint32(m-len(v))
					stack = append(stack, item{start, start + uint32(len(v)), child.id})
				}
				buf = buf[m:]
				pos += uint32(m)
				continue
			}
			m := protowire.ConsumeFieldValue(num, typ, buf)
			if m < 0 {
				return errorf("malformed protobuf: %v", protowire.ParseError(m))
			}
			buf = buf[m:]
			pos += uint32(m)
		}
	}
	return nil
}

// hasField reports whether message b has a field numbered num.
func hasField(b []byte, num protowire.Number) bool {
	for len(b) > 0 {
		n, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return false
		}
		b = b[l:]
		if n == num {
			return true
		}
		l = protowire.ConsumeFieldValue(n, typ, b)
		if l < 0 {
			return false
		}
		b = b[l:]
	}
	return false
}
