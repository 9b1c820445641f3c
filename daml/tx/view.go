package tx

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/value"
)

// Informees returns the informees of a node (Canton's
// Node.informeesOfNode): a Create's stakeholders; a Fetch's signatories ∪
// acting parties; a consuming Exercise's stakeholders ∪ acting parties ∪
// choice observers ∪ choice authorizers; a non-consuming Exercise's
// signatories (not the plain observers) ∪ acting parties ∪ choice observers
// ∪ choice authorizers; a QueryByKey's maintainers; none for a Rollback.
// The result is sorted.
func Informees(n Node) []string {
	// A Create's and a QueryByKey's informees are one set of the node's:
	// a copy of it as it is.
	switch n := n.(type) {
	case *Create:
		return slices.Clone(n.Stakeholders)
	case *QueryByKey:
		return slices.Clone(n.Key.Maintainers)
	}
	return withInformees(nil, n)
}

// Witnesses returns the witnesses of every node reachable from the roots
// (Canton's disclosure, BlindingTransaction): a node's informees ∪ the
// witnesses of its parent action, so whoever sees an exercise sees its
// whole subtree; a Rollback node's witnesses are its parent's (none at
// the root). Nodes under a Rollback get witnesses too. Sets are sorted;
// a root Create's is its Stakeholders slice, which must not be changed.
func (t *Transaction) Witnesses() map[NodeID][]string {
	out := map[NodeID][]string{}
	t.walkWitnesses(true, func(id NodeID, _ Node, _ bool, w []string) { out[id] = w })
	return out
}

// walkWitnesses calls fn on the nodes reachable from the roots in
// pre-order, as Walk does, with, when withW is set, the node's witnesses
// (Witnesses): a new slice for every node but a Rollback, whose
// witnesses are its parent's slice, and a root Create, whose are its
// Stakeholders (withInformees).
func (t *Transaction) walkWitnesses(withW bool, fn func(id NodeID, n Node, rolledBack bool, w []string)) {
	// Roots without children (a create command's) are visited without
	// the stack, which the first root with children takes over.
	for i, r := range t.Roots {
		n := t.Node(r)
		if len(Children(n)) > 0 {
			t.walkWitnessesFrom(t.Roots[i:], withW, fn)
			return
		}
		var w []string // a root Rollback's: none
		if _, isRoll := n.(*Rollback); withW && !isRoll {
			w = withInformees(nil, n)
		}
		fn(r, n, false, w)
	}
}

// walkWitnessesFrom is walkWitnesses from the root list roots on.
func (t *Transaction) walkWitnessesFrom(roots []NodeID, withW bool, fn func(id NodeID, n Node, rolledBack bool, w []string)) {
	type item struct {
		id     NodeID
		rb     bool
		parent []string
	}
	var buf [16]item // the stack of most transactions, not on the heap
	stack := buf[:0]
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{id: roots[i]})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := t.Node(it.id)
		_, isRoll := n.(*Rollback)
		w := it.parent
		if withW && !isRoll {
			w = withInformees(it.parent, n)
		}
		fn(it.id, n, it.rb, w)
		kids := Children(n)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{id: kids[i], rb: it.rb || isRoll, parent: w})
		}
	}
}

// withInformees returns parent ∪ Informees(n) in a new slice (nil when
// empty) of sorted sets, but for a Create with no parent witnesses (a
// root create's): its Stakeholders themselves when they are a sorted set
// (the Builder's always are), which nothing changes. It holds the
// informee rules (Informees).
func withInformees(parent []string, n Node) []string {
	switch n := n.(type) {
	case *Create:
		if len(parent) == 0 && len(n.Stakeholders) > 0 && isSortedSet(n.Stakeholders) {
			return n.Stakeholders
		}
		return union(parent, n.Stakeholders)
	case *Fetch:
		return union(parent, n.Signatories, n.ActingParties)
	case *Exercise:
		if n.Consuming {
			return union(parent, n.Stakeholders, n.ActingParties, n.ChoiceObservers, n.ChoiceAuthorizers)
		}
		return union(parent, n.Signatories, n.ActingParties, n.ChoiceObservers, n.ChoiceAuthorizers)
	case *QueryByKey:
		return union(parent, n.Key.Maintainers)
	}
	return union(parent)
}

// Divulgence returns, per contract, the parties that see it through a Fetch
// or an Exercise without being its stakeholders (Canton's
// BlindingInfo.divulgence, which BlindingTransaction.calculateBlindingInfo
// computes): for a Fetch, the witnesses of its parent action that are not
// stakeholders; for an Exercise, the parent's witnesses ∪ its choice
// observers that are not stakeholders. Canton 3.5 records it but does not
// let divulgees use the contract.
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

// Effects are a transaction's effects on the contract store, read from its
// nodes outside Rollbacks. The ledger re-checks Inputs at commit: each must
// still be active.
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
	// (transient), in pre-order of their creation.
	Transient []value.ContractID
	// ConsumedBy maps every contract consumed outside Rollbacks to its
	// consuming Exercise node.
	ConsumedBy map[value.ContractID]NodeID
}

// Effects returns the transaction's effects on the contract store.
func (t *Transaction) Effects() Effects { return t.effectsIn(nil) }

// effectsIn is Effects with its lists in buf's array when they fit
// (FinishInto's Finished holds one), else in one array of their own.
func (t *Transaction) effectsIn(buf []value.ContractID) Effects {
	var e Effects
	t.effectsInto(&e, buf)
	return e
}

// effectsInto sets *e to effectsIn(buf): a caller's Effects written in
// place (FinishInto), not copied there. It clears every field first, so
// that nothing of a reused Effects stays.
func (t *Transaction) effectsInto(e *Effects, buf []value.ContractID) {
	*e = Effects{ConsumedBy: map[value.ContractID]NodeID{}}
	if cs, ok := t.rootCreates(buf); ok {
		e.Created = cs
		return
	}
	// The sets and lists are built over arrays on the stack; the lists
	// returned share one array.
	var createdBuf, inputsBuf, createsBuf, archivedBuf [8]value.ContractID
	created := cidSet{list: createdBuf[:0]} // any Create node, rolled back or not
	t.Walk(func(_ NodeID, n Node, _ bool) bool {
		if c, ok := n.(*Create); ok {
			created = created.with(c.ContractID)
		}
		return true
	})
	inputs := cidSet{list: inputsBuf[:0]}
	creates, archived := createsBuf[:0], archivedBuf[:0]
	t.Walk(func(id NodeID, n Node, rb bool) bool {
		switch n := n.(type) {
		case *Create:
			if !rb {
				creates = append(creates, n.ContractID)
			}
		case *Fetch:
			if !created.has(n.ContractID) {
				inputs = inputs.with(n.ContractID)
			}
		case *QueryByKey:
			for _, c := range n.Result {
				if !created.has(c) {
					inputs = inputs.with(c)
				}
			}
		case *Exercise:
			if !created.has(n.TargetID) {
				inputs = inputs.with(n.TargetID)
			}
			if n.Consuming && !rb {
				e.ConsumedBy[n.TargetID] = id
				if !created.has(n.TargetID) {
					archived = append(archived, n.TargetID)
				}
			}
		}
		return true
	})
	all := buf[:0]
	if n := len(inputs.list) + len(archived) + len(creates); n > cap(buf) {
		all = make([]value.ContractID, 0, n)
	}
	take := func(cs []value.ContractID) []value.ContractID {
		if len(cs) == 0 {
			return nil
		}
		start := len(all)
		all = append(all, cs...)
		return all[start:len(all):len(all)]
	}
	e.Inputs, e.Archived = take(inputs.list), take(archived)
	// Created then Transient, each in the order of creates.
	start := len(all)
	for _, c := range creates {
		if _, ok := e.ConsumedBy[c]; !ok {
			all = append(all, c)
		}
	}
	if len(all) > start {
		e.Created = all[start:len(all):len(all)]
	}
	start = len(all)
	for _, c := range creates {
		if _, ok := e.ConsumedBy[c]; ok {
			all = append(all, c)
		}
	}
	if len(all) > start {
		e.Transient = all[start:len(all):len(all)]
	}
}

// onlyRootCreates reports whether t has roots and they are all Create
// nodes: then they are its only nodes reachable from the roots (a Create
// has no children), and there is no Exercise or Rollback among them.
func (t *Transaction) onlyRootCreates() bool {
	if len(t.Roots) == 0 {
		return false
	}
	for _, r := range t.Roots {
		if _, ok := t.Node(r).(*Create); !ok {
			return false
		}
	}
	return true
}

// rootCreates returns the contracts of a transaction whose roots are all
// Create nodes (create commands'), in buf's array when they fit, and
// true; what effectsIn's walks give such a transaction as Created
// (nothing is used, consumed or rolled back), without them. It returns
// false for any other transaction, or one without roots.
func (t *Transaction) rootCreates(buf []value.ContractID) ([]value.ContractID, bool) {
	if !t.onlyRootCreates() {
		return nil, false
	}
	all := buf[:0]
	if len(t.Roots) > cap(buf) {
		all = make([]value.ContractID, 0, len(t.Roots))
	}
	for _, r := range t.Roots {
		all = append(all, t.Nodes[r].(*Create).ContractID)
	}
	return all[:len(all):len(all)], true
}

// Shape is the event shape of a Ledger API transaction (the Ledger API's
// TransactionShape).
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
	// read), every party that sees it. They must not be changed: they may
	// be the node's Stakeholders slice.
	Witnesses []string
	// AcsDelta reports an event that is also a change of the active
	// contract set: a Create of a contract that is not transient, a
	// consuming Exercise of a contract that existed before the transaction
	// (Canton's exact rule for this flag was not traced).
	AcsDelta bool
}

// Events returns the events of a transaction that parties may see, in node
// order: only Create and Exercise nodes outside Rollbacks are events, as
// Canton's indexer takes them
// (TransactionTraversalUtils.executionOrderTraversalForIngestion, in
// community/ledger/ledger-api-core/src/main/scala/com/digitalasset/canton/platform/indexer/).
// LedgerEffects shows each to the parties among its witnesses; AcsDelta
// shows non-transient creates and the archives of pre-existing contracts
// (as Archived) to the parties among the stakeholders. A nil parties is a
// wildcard: every party that may see it. The transaction should be
// normalized (node ids are Canton's only then).
func (t *Transaction) Events(parties []string, shape Shape) []Event {
	return t.AppendEvents(nil, parties, shape)
}

// AppendEvents appends Events(parties, shape) to dst (a caller's buffer:
// no allocation while the events fit).
func (t *Transaction) AppendEvents(dst []Event, parties []string, shape Shape) []Event {
	ps := sortedSet(parties)
	// A create is transient when a consuming exercise outside Rollbacks
	// consumes it; a consuming exercise outside Rollbacks archives a
	// contract that existed before when no Create node made it (the
	// Transient and Archived of Effects).
	var created, consumed cidSet
	// Without an Exercise (root creates only) nothing is consumed, and
	// created is not asked: the sets stay empty, and their arrays are not
	// even zeroed.
	if !t.onlyRootCreates() {
		var createdBuf, consumedBuf [8]value.ContractID
		created.list, consumed.list = createdBuf[:0], consumedBuf[:0]
		t.Walk(func(_ NodeID, n Node, rb bool) bool {
			switch n := n.(type) {
			case *Create:
				created = created.with(n.ContractID)
			case *Exercise:
				if n.Consuming && !rb {
					consumed = consumed.with(n.TargetID)
				}
			}
			return true
		})
	}
	out := dst
	t.walkWitnesses(shape == LedgerEffects, func(id NodeID, n Node, rb bool, w []string) {
		if rb {
			return
		}
		var kind EventKind
		var acs bool
		var set []string // the parties that may see the event
		switch n := n.(type) {
		case *Create:
			kind, acs = Created, !consumed.has(n.ContractID)
			if shape == AcsDelta && !acs {
				return
			}
			set = n.Stakeholders
		case *Exercise:
			kind, acs = Exercised, n.Consuming && !created.has(n.TargetID)
			if shape == AcsDelta {
				if !acs {
					return
				}
				kind = Archived
			}
			set = n.Stakeholders
		default:
			return
		}
		var ws []string
		switch {
		case shape != LedgerEffects && parties == nil:
			ws = slices.Clone(set)
		case shape != LedgerEffects:
			ws = intersect(set, ps)
		case parties == nil:
			ws = w // walkWitnesses's slice (a root Create's Stakeholders)
		default:
			ws = intersect(w, ps)
		}
		if len(ws) == 0 {
			return
		}
		if len(out) == cap(out) {
			out = slices.Grow(out, len(t.Nodes)) // room for every node at once
		}
		out = append(out, Event{}) // set in place, not built and copied
		ev := &out[len(out)-1]
		ev.Kind, ev.AcsDelta, ev.Witnesses = kind, acs, ws
		ev.NodeID, ev.LastDescendant, ev.Node = id, t.LastDescendant(id), n
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
func (s *cidSet) add(c value.ContractID) { *s = s.with(c) }

// with returns s with c added (at the end of list) unless it is there.
// Unlike add it keeps a set whose list is a caller's stack array off the
// heap (while it fits).
func (s cidSet) with(c value.ContractID) cidSet {
	if s.has(c) {
		return s
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
	return s
}
