package console

import (
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// treeNode is a node of a transaction as the update page draws it.
type treeNode struct {
	ID int32
	// Kind is create, exercise, fetch, lookup or rollback.
	Kind       string
	ContractID string
	TemplateID string
	Template   string
	Interface  string
	Choice     string
	Consuming  bool
	// Archives: a consuming exercise of a contract that existed before
	// the transaction; Transient: a create the transaction also archives.
	Archives    bool
	Transient   bool
	RolledBack  bool
	Acting      []string
	Signatories []string
	Observers   []string
	Witnesses   []string
	Arg         *Val
	Result      *Val
	Children    []*treeNode
}

// buildTree draws a transaction's events (a party's ledger-effects view)
// as a tree. With full, the transaction's re-interpretation, the tree is
// the full transaction's: the events at their node ids, and the fetches,
// key lookups and rollbacks under the exercises the party sees; without
// it, the events nested by their last descendants.
func buildTree(evs []jsonapi.JsEvent, full *tx.Transaction, lookup func(string) *lf.Package) []*treeNode {
	byID := map[int32]*treeNode{}
	var order []*treeNode
	consumed := map[string]bool{}
	for _, e := range evs {
		var n *treeNode
		switch {
		case e.CreatedEvent != nil:
			c := e.CreatedEvent
			arg := renderJSON(c.CreateArgument, templateType(c.TemplateID), lookup)
			n = &treeNode{ID: c.NodeID, Kind: "create", ContractID: c.ContractID, TemplateID: c.TemplateID, Template: shortID(c.TemplateID),
				Signatories: c.Signatories, Observers: c.Observers, Witnesses: c.WitnessParties, Arg: &arg, Transient: !c.ACSDelta}
		case e.ExercisedEvent != nil:
			x := e.ExercisedEvent
			n = &treeNode{ID: x.NodeID, Kind: "exercise", ContractID: x.ContractID, TemplateID: x.TemplateID, Template: shortID(x.TemplateID),
				Choice: x.Choice, Consuming: x.Consuming, Archives: x.ACSDelta && x.Consuming, Acting: x.ActingParties, Witnesses: x.WitnessParties}
			if x.InterfaceID != nil {
				n.Interface = *x.InterfaceID
			}
			argT, resT := choiceTypes(x.TemplateID, n.Interface, x.Choice, lookup)
			arg, res := renderJSON(x.ChoiceArgument, argT, lookup), renderJSON(x.ExerciseResult, resT, lookup)
			n.Arg = &arg
			if len(x.ExerciseResult) > 0 && string(x.ExerciseResult) != "null" || resT != nil {
				n.Result = &res
			}
			if x.Consuming {
				consumed[x.ContractID] = true
			}
		default:
			continue
		}
		byID[n.ID] = n
		order = append(order, n)
	}
	for _, n := range order {
		if n.Kind == "create" && consumed[n.ContractID] {
			n.Transient = true
		}
	}
	if full != nil {
		return fullTree(full, byID, lookup)
	}
	// Nest by last descendant.
	var roots []*treeNode
	type frame struct {
		n    *treeNode
		last int32
	}
	var stack []frame
	lastOf := map[int32]int32{}
	for _, e := range evs {
		if x := e.ExercisedEvent; x != nil {
			lastOf[x.NodeID] = x.LastDescendantNodeID
		}
	}
	for _, n := range order {
		for len(stack) > 0 && n.ID > stack[len(stack)-1].last {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, n)
		} else {
			p := stack[len(stack)-1].n
			p.Children = append(p.Children, n)
		}
		if n.Kind == "exercise" {
			stack = append(stack, frame{n, lastOf[n.ID]})
		}
	}
	return roots
}

// fullTree walks the re-interpreted transaction: a create or exercise is
// drawn when the party sees its event (its invisible ancestors are left
// out, its children rise); a fetch, lookup or rollback when its parent is
// drawn, or when it is a root whose informees include the viewer (any
// viewer: the events hold every node).
func fullTree(t *tx.Transaction, events map[int32]*treeNode, lookup func(string) *lf.Package) []*treeNode {
	var visit func(id tx.NodeID, parentShown, rolledBack bool) []*treeNode
	visit = func(id tx.NodeID, parentShown, rolledBack bool) []*treeNode {
		nd := t.Node(id)
		var n *treeNode
		var children []tx.NodeID
		switch x := nd.(type) {
		case *tx.Create:
			n = events[int32(id)]
			if n == nil && rolledBack && parentShown {
				n = &treeNode{ID: int32(id), Kind: "create", ContractID: string(x.ContractID), TemplateID: x.TemplateID.String(),
					Template: shortID(x.TemplateID.String()), Signatories: x.Signatories, Observers: x.Observers()}
				arg := renderValue(x.Arg, templateType(x.TemplateID.String()), lookup)
				n.Arg = &arg
			}
		case *tx.Exercise:
			n = events[int32(id)]
			if n == nil && rolledBack && parentShown {
				n = &treeNode{ID: int32(id), Kind: "exercise", ContractID: string(x.TargetID), TemplateID: x.TemplateID.String(),
					Template: shortID(x.TemplateID.String()), Choice: x.Choice, Consuming: x.Consuming, Acting: x.ActingParties}
				var iface string
				if x.InterfaceID != nil {
					iface = x.InterfaceID.String()
				}
				argT, resT := choiceTypes(n.TemplateID, iface, x.Choice, lookup)
				arg := renderValue(x.ChosenValue, argT, lookup)
				n.Arg = &arg
				if x.Result != nil {
					res := renderValue(x.Result, resT, lookup)
					n.Result = &res
				}
			}
			children = x.Children
		case *tx.Fetch:
			if parentShown {
				n = &treeNode{ID: int32(id), Kind: "fetch", ContractID: string(x.ContractID), TemplateID: x.TemplateID.String(),
					Template: shortID(x.TemplateID.String()), Acting: x.ActingParties, Signatories: x.Signatories}
				if x.InterfaceID != nil {
					n.Interface = x.InterfaceID.String()
				}
			}
		case *tx.QueryByKey:
			if parentShown {
				n = &treeNode{ID: int32(id), Kind: "lookup", TemplateID: x.TemplateID.String(), Template: shortID(x.TemplateID.String())}
				if len(x.Result) > 0 {
					n.ContractID = string(x.Result[0])
				}
			}
		case *tx.Rollback:
			if parentShown {
				n = &treeNode{ID: int32(id), Kind: "rollback"}
			}
			children = x.Children
			rolledBack = true
		}
		if n != nil && rolledBack {
			n.RolledBack = true
		}
		var kids []*treeNode
		for _, c := range children {
			kids = append(kids, visit(c, n != nil, rolledBack)...)
		}
		if n == nil {
			return kids
		}
		n.Children = kids
		return []*treeNode{n}
	}
	var roots []*treeNode
	for _, r := range t.Roots {
		roots = append(roots, visit(r, false, false)...)
	}
	return roots
}

// choiceTypes returns a choice's argument and result types.
func choiceTypes(templateID, interfaceID, choice string, lookup func(string) *lf.Package) (lf.Type, lf.Type) {
	ref := templateID
	if interfaceID != "" {
		ref = interfaceID
	}
	id, err := lf.SplitIdentifier(ref)
	if err != nil {
		return nil, nil
	}
	p := lookup(id.PackageID)
	if p == nil {
		return nil, nil
	}
	var ch *lf.Choice
	if interfaceID != "" {
		if i := p.Interface(id.Module, id.Entity); i != nil {
			ch = i.Choice(choice)
		}
	} else {
		ch = p.Choice(id.Module, id.Entity, choice)
	}
	if ch == nil {
		return nil, nil
	}
	return ch.ArgType, ch.ReturnType
}
