package tx

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/value"
)

// Informees returns the informees of a node (§5.3, Canton's
// Node.informeesOfNode): a Create's stakeholders; a Fetch's signatories ∪
// acting parties; a consuming Exercise's stakeholders ∪ acting parties ∪
// choice observers ∪ choice authorizers; a non-consuming Exercise's
// signatories (not the plain observers) ∪ acting parties ∪ choice
// observers ∪ choice authorizers; a QueryByKey's maintainers; none for a
// Rollback. The result is sorted.
func Informees(n Node) []string {
	switch n := n.(type) {
	case *Create:
		return slices.Clone(n.Stakeholders)
	case *Fetch:
		return union(n.Signatories, n.ActingParties)
	case *Exercise:
		if n.Consuming {
			return union(n.Stakeholders, n.ActingParties, n.ChoiceObservers, n.ChoiceAuthorizers)
		}
		return union(n.Signatories, n.ActingParties, n.ChoiceObservers, n.ChoiceAuthorizers)
	case *QueryByKey:
		return slices.Clone(n.Key.Maintainers)
	}
	return nil
}

// Witnesses returns the witnesses of every node reachable from the roots
// (Canton's disclosure, BlindingTransaction): a node's informees ∪ the
// witnesses of its parent action, so whoever sees an exercise sees its
// whole subtree; a Rollback node's witnesses are its parent's (none at
// the root). Nodes under a Rollback get witnesses too. Sets are sorted.
func (t *Transaction) Witnesses() map[NodeID][]string {
	out := map[NodeID][]string{}
	type item struct {
		id     NodeID
		parent []string
	}
	var stack []item
	for i := len(t.Roots) - 1; i >= 0; i-- {
		stack = append(stack, item{t.Roots[i], nil})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := t.Node(it.id)
		w := it.parent
		if _, ok := n.(*Rollback); !ok {
			w = union(it.parent, Informees(n))
		}
		out[it.id] = w
		kids := Children(n)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], w})
		}
	}
	return out
}

// Divulgence returns, per contract, the parties that see it through a
// Fetch or an Exercise without being its stakeholders (Canton's
// divulgence relation, §5.3): for a Fetch, the witnesses of its parent
// action that are not stakeholders; for an Exercise, the parent's
// witnesses ∪ its choice observers that are not stakeholders. Canton 3.5
// records it but does not let divulgees use the contract.
func (t *Transaction) Divulgence() map[value.ContractID][]string {
	out := map[value.ContractID][]string{}
	w := t.Witnesses()
	parent := t.parentActions()
	for id, n := range t.All() {
		var pw []string
		if p, ok := parent[id]; ok {
			pw = w[p]
		}
		var cid value.ContractID
		var div []string
		switch n := n.(type) {
		case *Fetch:
			cid, div = n.ContractID, diff(pw, n.Stakeholders)
		case *Exercise:
			cid, div = n.TargetID, diff(union(pw, n.ChoiceObservers), n.Stakeholders)
		default:
			continue
		}
		if len(div) > 0 {
			out[cid] = union(out[cid], div)
		}
	}
	return out
}

// parentActions maps every node under an Exercise to its nearest
// enclosing Exercise (Rollbacks are skipped).
func (t *Transaction) parentActions() map[NodeID]NodeID {
	out := map[NodeID]NodeID{}
	var visit func(ids []NodeID, p NodeID, has bool)
	visit = func(ids []NodeID, p NodeID, has bool) {
		for _, id := range ids {
			if has {
				out[id] = p
			}
			switch n := t.Node(id).(type) {
			case *Exercise:
				visit(n.Children, id, true)
			case *Rollback:
				visit(n.Children, p, has)
			}
		}
	}
	visit(t.Roots, 0, false)
	return out
}

// Effects are a transaction's effects on the contract store, read from
// its nodes outside Rollbacks (§5.5, §5.7). The ledger re-checks Inputs
// at commit: each must still be active.
type Effects struct {
	// Inputs are the ledger contracts the transaction uses (fetched,
	// exercised or found by a key query, inside Rollbacks too), in
	// pre-order of first use. Each must be active when the transaction
	// commits.
	Inputs []value.ContractID
	// Created are the contracts the transaction creates that stay active
	// (not consumed, not rolled back), in pre-order.
	Created []value.ContractID
	// Archived are the input contracts a consuming exercise outside any
	// Rollback consumes, in pre-order.
	Archived []value.ContractID
	// Transient are the contracts the transaction creates and consumes
	// (§5.5), in pre-order of their creation.
	Transient []value.ContractID
	// ConsumedBy maps every contract consumed outside Rollbacks to its
	// consuming Exercise node.
	ConsumedBy map[value.ContractID]NodeID
}

// Effects returns the transaction's effects on the contract store.
func (t *Transaction) Effects() Effects {
	e := Effects{ConsumedBy: map[value.ContractID]NodeID{}}
	var created cidSet // any Create node, rolled back or not
	for _, n := range t.All() {
		if c, ok := n.(*Create); ok {
			created.add(c.ContractID)
		}
	}
	var inputs cidSet
	input := func(c value.ContractID) {
		if !created.has(c) {
			inputs.add(c)
		}
	}
	var creates []value.ContractID
	t.Walk(func(id NodeID, n Node, rb bool) bool {
		switch n := n.(type) {
		case *Create:
			if !rb {
				creates = append(creates, n.ContractID)
			}
		case *Fetch:
			input(n.ContractID)
		case *QueryByKey:
			for _, c := range n.Result {
				input(c)
			}
		case *Exercise:
			input(n.TargetID)
			if n.Consuming && !rb {
				e.ConsumedBy[n.TargetID] = id
				if !created.has(n.TargetID) {
					e.Archived = append(e.Archived, n.TargetID)
				}
			}
		}
		return true
	})
	e.Inputs = inputs.list
	for _, c := range creates {
		if _, ok := e.ConsumedBy[c]; ok {
			e.Transient = append(e.Transient, c)
		} else {
			e.Created = append(e.Created, c)
		}
	}
	return e
}

// Shape is the event shape of a Ledger API transaction (§5.6).
type Shape uint8

const (
	// LedgerEffects is TRANSACTION_SHAPE_LEDGER_EFFECTS: the tree of
	// Create and Exercise events the parties witnessed.
	LedgerEffects Shape = iota + 1
	// AcsDelta is TRANSACTION_SHAPE_ACS_DELTA: the creates that survive
	// the transaction and the archives of pre-existing contracts, for
	// their stakeholders.
	AcsDelta
)

// EventKind is the kind of a Ledger API event.
type EventKind uint8

const (
	// Created is a CreatedEvent (of a Create node).
	Created EventKind = iota + 1
	// Exercised is an ExercisedEvent (LedgerEffects only).
	Exercised
	// Archived is an ArchivedEvent: a consuming Exercise in AcsDelta.
	Archived
)

// Event is one event of a transaction as the Ledger API shows it to a
// set of parties.
type Event struct {
	// Kind is the event kind.
	Kind EventKind
	// NodeID is the node's id (the event's nodeId).
	NodeID NodeID
	// LastDescendant is the id of the last node of the node's subtree
	// (lastDescendantNodeId).
	LastDescendant NodeID
	// Node is the *Create or *Exercise node.
	Node Node
	// Witnesses are the requesting parties that see the event
	// (witnessParties), sorted; with no requesting parties (a wildcard
	// read), every party that sees it.
	Witnesses []string
	// AcsDelta reports an event that is also a change of the active
	// contract set: a Create of a contract that is not transient, a
	// consuming Exercise of a contract that existed before the
	// transaction (daml-engine.md §12 leaves this flag's exact rule
	// open).
	AcsDelta bool
}

// Events returns the events of a transaction that parties may see, in
// node order (§5.6): only Create and Exercise nodes outside Rollbacks are
// events. LedgerEffects shows each to the parties among its witnesses;
// AcsDelta shows non-transient creates and the archives of pre-existing
// contracts (as Archived) to the parties among the stakeholders. A nil
// parties is a wildcard: every party that may see it. The transaction
// should be normalized (node ids are Canton's only then).
func (t *Transaction) Events(parties []string, shape Shape) []Event {
	ps := sortedSet(parties)
	pick := func(set []string) []string {
		if parties == nil {
			return slices.Clone(set)
		}
		return intersect(set, ps)
	}
	eff := t.Effects()
	transient := map[value.ContractID]bool{}
	for _, c := range eff.Transient {
		transient[c] = true
	}
	archives := map[value.ContractID]bool{}
	for _, c := range eff.Archived {
		archives[c] = true
	}
	var w map[NodeID][]string
	if shape == LedgerEffects {
		w = t.Witnesses()
	}
	var out []Event
	t.Walk(func(id NodeID, n Node, rb bool) bool {
		if rb {
			return true
		}
		var ev Event
		switch n := n.(type) {
		case *Create:
			ev = Event{Kind: Created, AcsDelta: !transient[n.ContractID]}
			if shape == AcsDelta {
				if !ev.AcsDelta {
					return true
				}
				ev.Witnesses = pick(n.Stakeholders)
			}
		case *Exercise:
			ev = Event{Kind: Exercised, AcsDelta: n.Consuming && archives[n.TargetID]}
			if shape == AcsDelta {
				if !ev.AcsDelta {
					return true
				}
				ev.Kind, ev.Witnesses = Archived, pick(n.Stakeholders)
			}
		default:
			return true
		}
		if shape == LedgerEffects {
			ev.Witnesses = pick(w[id])
		}
		if len(ev.Witnesses) == 0 {
			return true
		}
		ev.NodeID, ev.LastDescendant, ev.Node = id, t.LastDescendant(id), n
		out = append(out, ev)
		return true
	})
	return out
}

// cidSet is a set of contract ids that keeps them in insertion order
// (list); once it is not small, a map indexes the list.
type cidSet struct {
	list  []value.ContractID
	index map[value.ContractID]struct{}
}

const cidSetListMax = 16

func (s *cidSet) has(c value.ContractID) bool {
	if s.index != nil {
		_, ok := s.index[c]
		return ok
	}
	return slices.Contains(s.list, c)
}

// add adds c (at the end of list) unless it is there.
func (s *cidSet) add(c value.ContractID) {
	if s.has(c) {
		return
	}
	s.list = append(s.list, c)
	if s.index == nil && len(s.list) > cidSetListMax {
		s.index = make(map[value.ContractID]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.index[x] = struct{}{}
		}
	} else if s.index != nil {
		s.index[c] = struct{}{}
	}
}
