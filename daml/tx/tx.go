// Package tx is ledgernode's one Daml transaction model: Create, Fetch,
// Exercise, QueryByKey and Rollback nodes with Canton's node ids, roots and
// children order (Canton's Node.scala and Transaction.scala). The engine
// builds transactions with a Builder (the "partial transaction" of Speedy:
// node seeds, contract ids, contract state, authorization, try/rollback);
// the ledger commits them and interactive submission hashes them.
//
// The package also holds the ledger model's rules on a transaction:
// authorization (Authorize, as Speedy's DefaultAuthorizationChecker),
// informees and witnesses (Informees, Witnesses: Node.informeesOfNode,
// BlindingTransaction.calculateBlindingInfo), what the Ledger API shows to
// a set of parties (Events), the contract-id derivation (crypto.Hash) and
// the suffix applied at commit.
//
// The Scala names this package cites are in
// github.com/digital-asset/canton, under community/daml-lf/: in
// transaction/src/main/scala/com/digitalasset/daml/lf/,
// transaction/Node.scala, transaction/Transaction.scala, crypto/Hash.scala,
// value/Value.scala and interpretation/Error.scala; in
// interpreter/src/main/scala/com/digitalasset/daml/lf/,
// speedy/PartialTransaction.scala, speedy/NormalizeRollbacks.scala,
// speedy/AuthorizationChecker.scala, speedy/SBuiltinFun.scala,
// speedy/Speedy.scala, speedy/SValue.scala and
// ledger/BlindingTransaction.scala. Canton's own classes
// (ContractIdSuffixer, UnicumGenerator) are in
// community/common/src/main/scala/com/digitalasset/canton/protocol/.
//
// Parties are strings; every party set in a node is sorted and holds no
// duplicates. Values are daml/value values in normalized form (the engine
// normalizes them as Speedy's SValue.toNormalizedValue does: trailing None
// record fields dropped; unlike Speedy's, records, variants and enums keep
// their type ids, field labels and constructor ranks, which the Ledger API
// renders). Errors are typed (*AuthorizationError, *ContractNotActiveError,
// …) with Speedy's messages; the package knows no Canton error codes.
//
// Where Canton's behaviour was not traced or is not reproduced, this
// package chooses:
//   - party sets in messages are printed sorted, and Scala's Set as
//     "Set(a, b)" whatever its size (Speedy prints the set's own order);
//   - the nodes of an EffectfulRollbackError are listed in the order they
//     were built (Speedy's order is a hash set's);
//   - Event.AcsDelta on LEDGER_EFFECTS events is true for a create that is
//     not transient and a consuming exercise of a contract that existed
//     before the transaction (Canton's rule for the flag was not traced);
//   - the Builder's contract-state mode defaults to ModeNoKey (PV 34:
//     rollbacks of creates and archives are allowed); Canton's default
//     synchronizer (PV 35) is ModeNUCK;
//   - UnicumOf gives committed ids a unique suffix that is not Canton's
//     salted commitment (ContractIdSuffixer, UnicumGenerator).
package tx

import (
	"fmt"
	"iter"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// NodeID identifies a node of a transaction: its index in
// Transaction.Nodes. In a normalized transaction (every transaction
// Builder.Finish returns) node ids are Canton's: pre-order from 0, counting
// every node kind, Rollback and Fetch included, as Speedy's
// NormalizeRollbacks numbers them.
type NodeID int

// Node is one of *Create, *Fetch, *Exercise, *QueryByKey and *Rollback.
type Node interface {
	isNode()
}

// Serialization versions of nodes and transactions (Speedy's
// assignSerializationVersion): "2.1" for a node without a contract key, "2"
// for a node with one (LF 2.3 keys).
const (
	// VersionNoKey is the version of a node without a key.
	VersionNoKey = "2.1"
	// VersionKeys is the version of a node with a key.
	VersionKeys = "2"
)

// KeyWithMaintainers is a contract key with its maintainers (LF 2.3).
type KeyWithMaintainers struct {
	// Key is the key value.
	Key value.Value
	// Maintainers are the key's maintainers, sorted and unique.
	Maintainers []string
}

// Create is the creation of a contract.
type Create struct {
	// ContractID is the new contract's id: local (unsuffixed, "00" + 64
	// hex) until the transaction is suffixed at commit (WithSuffixes).
	ContractID value.ContractID
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template, with the package id the create used.
	TemplateID lf.TypeConID
	// Arg is the contract argument, normalized.
	Arg value.Value
	// Signatories are the signatories.
	Signatories []string
	// Stakeholders are signatories ∪ observers; the observers are
	// Stakeholders − Signatories (Observers).
	Stakeholders []string
	// Key is the contract key, nil when the template has none.
	Key *KeyWithMaintainers
	// Version is VersionNoKey or VersionKeys.
	Version string
}

// Observers returns the stakeholders that are not signatories.
func (c *Create) Observers() []string { return diff(c.Stakeholders, c.Signatories) }

// Fetch is the fetch of a contract (fetch, fetch_interface, fetch by key).
type Fetch struct {
	// ContractID is the fetched contract.
	ContractID value.ContractID
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template the fetch used.
	TemplateID lf.TypeConID
	// InterfaceID is the interface of a fetch_interface, or nil.
	InterfaceID *lf.TypeConID
	// ActingParties are the authorizers among the stakeholders.
	ActingParties []string
	// Signatories are the contract's signatories.
	Signatories []string
	// Stakeholders are the contract's stakeholders.
	Stakeholders []string
	// Key is the contract key, nil when none.
	Key *KeyWithMaintainers
	// ByKey reports a fetch by key (always false on a VersionNoKey node).
	ByKey bool
	// Version is VersionNoKey or VersionKeys.
	Version string
}

// Exercise is the exercise of a choice.
type Exercise struct {
	// TargetID is the exercised contract.
	TargetID value.ContractID
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template the choice ran under.
	TemplateID lf.TypeConID
	// InterfaceID is the interface of an interface choice, or nil.
	InterfaceID *lf.TypeConID
	// Choice is the choice name.
	Choice string
	// Consuming reports a consuming choice.
	Consuming bool
	// ActingParties are the controllers.
	ActingParties []string
	// ChosenValue is the choice argument, normalized.
	ChosenValue value.Value
	// Signatories are the contract's signatories.
	Signatories []string
	// Stakeholders are the contract's stakeholders.
	Stakeholders []string
	// ChoiceObservers are the choice observers.
	ChoiceObservers []string
	// ChoiceAuthorizers are the explicit choice authorizers (LF dev); nil
	// when the choice has none.
	ChoiceAuthorizers []string
	// Children are the nodes of the choice body, in execution order.
	Children []NodeID
	// Result is the choice result, normalized; nil for an exercise cut
	// short by an exception (inside a Rollback).
	Result value.Value
	// Key is the contract key, nil when none.
	Key *KeyWithMaintainers
	// ByKey reports an exercise by key (always false on a VersionNoKey
	// node).
	ByKey bool
	// Version is VersionNoKey or VersionKeys.
	Version string
}

// QueryByKey is a key query of LF 2.3 (query_n_by_key; Canton's
// LookupByKey is an alias).
type QueryByKey struct {
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template.
	TemplateID lf.TypeConID
	// Key is the queried key with its maintainers.
	Key KeyWithMaintainers
	// Result are the contracts found, in order.
	Result []value.ContractID
	// Exhaustive reports that Result lists every active contract with
	// the key.
	Exhaustive bool
	// Version is VersionKeys.
	Version string
}

// Rollback holds the nodes of a try block whose exception was caught.
// Its nodes are recorded but have no effect on the ledger.
type Rollback struct {
	// Children are the rolled-back nodes.
	Children []NodeID
}

func (*Create) isNode()     {}
func (*Fetch) isNode()      {}
func (*Exercise) isNode()   {}
func (*QueryByKey) isNode() {}
func (*Rollback) isNode()   {}

// Hash is a 32-byte seed, discriminator or unicum.
type Hash [32]byte

// NodeSeed is the seed of a Create or Exercise node (Hash.deriveNodeSeed).
type NodeSeed struct {
	// Node is the node.
	Node NodeID
	// Seed is the node's seed.
	Seed Hash
}

// Transaction is a transaction: its nodes, indexed by NodeID, its roots
// in command order, and the seeds of its Create and Exercise nodes.
type Transaction struct {
	// Nodes are the nodes; a NodeID is an index into Nodes. A node that
	// no root reaches is not part of the transaction (a normalized
	// transaction has none).
	Nodes []Node
	// Roots are the root nodes in order.
	Roots []NodeID
	// NodeSeeds are the seeds of the Create and Exercise nodes, in
	// pre-order (nil for a transaction built without seeds).
	NodeSeeds []NodeSeed
}

// Children returns the children of a node (nil for a leaf).
func Children(n Node) []NodeID {
	switch n := n.(type) {
	case *Exercise:
		return n.Children
	case *Rollback:
		return n.Children
	}
	return nil
}

// Node returns node id, or nil when id is out of range.
func (t *Transaction) Node(id NodeID) Node {
	if id < 0 || int(id) >= len(t.Nodes) {
		return nil
	}
	return t.Nodes[id]
}

// Seed returns the seed of a Create or Exercise node.
func (t *Transaction) Seed(id NodeID) (Hash, bool) {
	for _, s := range t.NodeSeeds {
		if s.Node == id {
			return s.Seed, true
		}
	}
	return Hash{}, false
}

// Version returns the transaction's serialization version: the highest
// of its nodes' (VersionKeys when a node has a key, else VersionNoKey).
func (t *Transaction) Version() string {
	for _, n := range t.All() {
		switch n := n.(type) {
		case *Create:
			if n.Version == VersionKeys {
				return VersionKeys
			}
		case *Fetch:
			if n.Version == VersionKeys {
				return VersionKeys
			}
		case *Exercise:
			if n.Version == VersionKeys {
				return VersionKeys
			}
		case *QueryByKey:
			return VersionKeys
		}
	}
	return VersionNoKey
}

// All yields the nodes reachable from the roots in pre-order (parent
// before children, left to right).
func (t *Transaction) All() iter.Seq2[NodeID, Node] {
	return func(yield func(NodeID, Node) bool) {
		t.Walk(func(id NodeID, n Node, _ bool) bool { return yield(id, n) })
	}
}

// Walk calls fn on the nodes reachable from the roots in pre-order;
// rolledBack reports a node inside a Rollback (the Rollback node itself
// is not). Walk stops when fn returns false. It does not recurse in Go
// per tree level beyond an explicit stack, so deep transactions are fine.
func (t *Transaction) Walk(fn func(id NodeID, n Node, rolledBack bool) bool) {
	// Roots without children (a create command's) are visited without
	// the stack, which the first root with children takes over.
	for i, r := range t.Roots {
		n := t.Node(r)
		if len(Children(n)) > 0 {
			t.walkFrom(t.Roots[i:], fn)
			return
		}
		if !fn(r, n, false) {
			return
		}
	}
}

// walkFrom is Walk from the root list roots on.
func (t *Transaction) walkFrom(roots []NodeID, fn func(id NodeID, n Node, rolledBack bool) bool) {
	type item struct {
		id NodeID
		rb bool
	}
	var buf [16]item // the stack of most transactions, not on the heap
	stack := buf[:0]
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{roots[i], false})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := t.Node(it.id)
		if !fn(it.id, n, it.rb) {
			return
		}
		_, isRoll := n.(*Rollback)
		kids := Children(n)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.rb || isRoll})
		}
	}
}

// LastDescendant returns the id of the last node of id's subtree in
// pre-order (id itself for a leaf): the Ledger API's
// lastDescendantNodeId in a normalized transaction.
func (t *Transaction) LastDescendant(id NodeID) NodeID {
	for {
		kids := Children(t.Node(id))
		if len(kids) == 0 {
			return id
		}
		id = kids[len(kids)-1]
	}
}

// Normalize returns the transaction with its rollbacks normalized and its
// nodes renumbered in pre-order from 0 (Speedy's NormalizeRollbacks): empty
// rollbacks are dropped, ROLL[ROLL[xs], ys] becomes ROLL[xs], ROLL[ys], and
// ROLL[xs, ROLL[ys]] becomes ROLL[xs, ys]. Nodes are copied; the input is
// not modified. Node seeds follow their nodes.
func (t *Transaction) Normalize() *Transaction {
	out, _ := t.normalize()
	return out
}

// normalize is Normalize, also returning the new id of every old node
// that survives.
func (t *Transaction) normalize() (*Transaction, map[NodeID]NodeID) {
	out := &Transaction{}
	renum := map[NodeID]NodeID{}
	seeds := map[NodeID]Hash{}
	for _, s := range t.NodeSeeds {
		seeds[s.Node] = s.Seed
	}
	// A norm is an action node (old id) or a normalized rollback (a list
	// of norms whose first and last elements are actions).
	type norm struct {
		act  NodeID
		roll []*norm
	}
	var normList func(ids []NodeID) []*norm
	var normNode func(id NodeID) []*norm
	// makeRoll applies the three rules to the norms of a rollback's
	// children.
	var makeRoll func(ns []*norm) []*norm
	makeRoll = func(ns []*norm) []*norm {
		switch {
		case len(ns) == 0:
			return nil
		case ns[0].roll != nil:
			// ROLL[ROLL[xs], ys…] → ROLL[xs], ROLL[ys…] (also ROLL[ROLL[xs]]).
			return append([]*norm{ns[0]}, makeRoll(ns[1:])...)
		case ns[len(ns)-1].roll != nil:
			// ROLL[xs…, ROLL[ys]] → ROLL[xs…, ys].
			last := ns[len(ns)-1]
			kids := append(append([]*norm{}, ns[:len(ns)-1]...), last.roll...)
			return []*norm{{roll: kids}}
		}
		return []*norm{{roll: ns}}
	}
	normNode = func(id NodeID) []*norm {
		if r, ok := t.Node(id).(*Rollback); ok {
			return makeRoll(normList(r.Children))
		}
		return []*norm{{act: id}}
	}
	normList = func(ids []NodeID) []*norm {
		var ns []*norm
		for _, id := range ids {
			ns = append(ns, normNode(id)...)
		}
		return ns
	}
	var push func(n *norm) NodeID
	pushAll := func(ns []*norm) []NodeID {
		ids := make([]NodeID, 0, len(ns))
		for _, n := range ns {
			ids = append(ids, push(n))
		}
		return ids
	}
	push = func(n *norm) NodeID {
		me := NodeID(len(out.Nodes))
		out.Nodes = append(out.Nodes, nil)
		if n.roll != nil {
			out.Nodes[me] = &Rollback{Children: pushAll(n.roll)}
			return me
		}
		renum[n.act] = me
		if s, ok := seeds[n.act]; ok {
			out.NodeSeeds = append(out.NodeSeeds, NodeSeed{Node: me, Seed: s})
		}
		switch x := t.Node(n.act).(type) {
		case *Exercise:
			cp := *x
			cp.Children = pushAll(normList(x.Children))
			out.Nodes[me] = &cp
		case *Create:
			cp := *x
			out.Nodes[me] = &cp
		case *Fetch:
			cp := *x
			out.Nodes[me] = &cp
		case *QueryByKey:
			cp := *x
			out.Nodes[me] = &cp
		}
		return me
	}
	out.Roots = pushAll(normList(t.Roots))
	return out, renum
}

// WellFormed checks the structure of a transaction that comes from
// outside (a prepared transaction, a stored one): every root and child id
// is in range and names a node, no node is reached twice (so there is no
// cycle and no shared subtree), and seeds name Create or Exercise nodes.
// Walk, Authorize, Witnesses, Effects and Events assume a well-formed
// transaction.
func (t *Transaction) WellFormed() error {
	seen := make([]bool, len(t.Nodes))
	stack := slices.Clone(t.Roots)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id < 0 || int(id) >= len(t.Nodes) || t.Nodes[id] == nil {
			return fmt.Errorf("node id %d does not name a node", id)
		}
		if seen[id] {
			return fmt.Errorf("node %d is reached twice", id)
		}
		seen[id] = true
		stack = append(stack, Children(t.Nodes[id])...)
	}
	for _, s := range t.NodeSeeds {
		switch t.Node(s.Node).(type) {
		case *Create, *Exercise:
			if !seen[s.Node] {
				return fmt.Errorf("seed of node %d, which no root reaches", s.Node)
			}
		default:
			return fmt.Errorf("seed of node %d, which is not a create or an exercise", s.Node)
		}
	}
	return nil
}
