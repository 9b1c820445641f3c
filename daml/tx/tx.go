// Package tx is the Daml transaction model the engine produces: Create,
// Fetch, Exercise and Rollback nodes with node ids, roots and children
// (daml-engine.md §5.1, §5.2).
//
// Values (create arguments, choice arguments and results) are the
// engine's runtime values (engine.Value), held as any so that this
// package does not depend on the engine.
package tx

import (
	"github.com/ledgernode/ledgernode/daml/lf"
)

// NodeID identifies a node of a transaction: its index in Nodes.
type NodeID int

// Node is one of *Create, *Fetch, *Exercise and *Rollback.
type Node interface {
	isNode()
}

// Create is the creation of a contract.
type Create struct {
	// ContractID is the new contract's id.
	ContractID string
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template.
	TemplateID lf.TypeConID
	// Arg is the contract argument (an engine.Value).
	Arg any
	// Signatories and Stakeholders (signatories ∪ observers) are sorted
	// and unique.
	Signatories, Stakeholders []string
	// Seed is the node seed (§6.2), or nil when the ids were not derived.
	Seed []byte
}

// Fetch is the fetch of a contract.
type Fetch struct {
	// ContractID is the fetched contract.
	ContractID string
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template the fetch used.
	TemplateID lf.TypeConID
	// InterfaceID is the interface of a fetch_interface, or nil.
	InterfaceID *lf.TypeConID
	// ActingParties are the authorizers among the stakeholders.
	ActingParties []string
	// Signatories and Stakeholders of the contract.
	Signatories, Stakeholders []string
}

// Exercise is the exercise of a choice.
type Exercise struct {
	// TargetID is the exercised contract.
	TargetID string
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template the choice was compiled against.
	TemplateID lf.TypeConID
	// InterfaceID is the interface of an interface choice, or nil.
	InterfaceID *lf.TypeConID
	// Choice is the choice name.
	Choice string
	// Consuming reports a consuming choice.
	Consuming bool
	// ActingParties are the controllers.
	ActingParties []string
	// Signatories and Stakeholders of the contract; ChoiceObservers.
	Signatories, Stakeholders, ChoiceObservers []string
	// ChosenValue is the choice argument (an engine.Value).
	ChosenValue any
	// Result is the choice result (an engine.Value), or nil for an
	// exercise cut short by an exception inside a rollback.
	Result any
	// Children are the nodes of the choice body, in execution order.
	Children []NodeID
	// Seed is the node seed (§6.2), or nil when the ids were not derived.
	Seed []byte
}

// Rollback holds the nodes of a try block that an exception rolled back.
type Rollback struct {
	// Children are the rolled-back nodes.
	Children []NodeID
}

func (*Create) isNode()   {}
func (*Fetch) isNode()    {}
func (*Exercise) isNode() {}
func (*Rollback) isNode() {}

// Transaction is a transaction: its nodes, indexed by NodeID, and its
// roots in command order.
type Transaction struct {
	// Nodes are the nodes; a NodeID is an index into Nodes.
	Nodes []Node
	// Roots are the root nodes in order.
	Roots []NodeID
}

// Children returns the children of a node (nil for Create and Fetch).
func Children(n Node) []NodeID {
	switch n := n.(type) {
	case *Exercise:
		return n.Children
	case *Rollback:
		return n.Children
	}
	return nil
}

// Normalize returns the transaction with its rollbacks normalized (empty
// rollbacks dropped; ROLL[ROLL[xs], ys] → ROLL[xs], ROLL[ys];
// ROLL[xs, ROLL[ys]] → ROLL[xs, ys]) and its nodes renumbered in pre-order
// from 0 (§2.7, §5.2). The input is not modified.
func (t *Transaction) Normalize() *Transaction {
	out := &Transaction{}
	var (
		visit func(id NodeID) []NodeID
		emit  func(n Node) NodeID
	)
	emit = func(n Node) NodeID {
		out.Nodes = append(out.Nodes, n)
		return NodeID(len(out.Nodes) - 1)
	}
	var normRoll func(children []NodeID) [][]NodeID
	normRoll = func(children []NodeID) [][]NodeID {
		// Returns the sequence of rollback nodes that ROLL[children]
		// normalizes to (each as its children list).
		kids := children
		var res [][]NodeID
		// Split leading rollbacks.
		for len(kids) > 0 {
			if r, ok := t.Nodes[kids[0]].(*Rollback); ok {
				res = append(res, normRoll(r.Children)...)
				kids = kids[1:]
				continue
			}
			break
		}
		if len(kids) == 0 {
			return res
		}
		// Flatten a trailing rollback.
		for {
			last := kids[len(kids)-1]
			r, ok := t.Nodes[last].(*Rollback)
			if !ok {
				break
			}
			kids = append(kids[:len(kids)-1:len(kids)-1], r.Children...)
			if len(kids) == 0 {
				break
			}
		}
		if len(kids) == 0 {
			return res
		}
		return append(res, kids)
	}
	visitList := func(ids []NodeID) []NodeID {
		var out []NodeID
		for _, id := range ids {
			out = append(out, visit(id)...)
		}
		return out
	}
	visit = func(id NodeID) []NodeID {
		switch n := t.Nodes[id].(type) {
		case *Rollback:
			var ids []NodeID
			for _, kids := range normRoll(n.Children) {
				nid := emit(nil)
				out.Nodes[nid] = &Rollback{Children: visitList(kids)}
				ids = append(ids, nid)
			}
			return ids
		case *Exercise:
			cp := *n
			nid := emit(&cp)
			cp.Children = visitList(n.Children)
			return []NodeID{nid}
		case *Create:
			cp := *n
			return []NodeID{emit(&cp)}
		case *Fetch:
			cp := *n
			return []NodeID{emit(&cp)}
		}
		return nil
	}
	out.Roots = visitList(t.Roots)
	return out
}
