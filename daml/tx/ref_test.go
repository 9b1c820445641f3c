package tx

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// The reference implementations below are the straightforward versions
// of WithSuffixes, Effects, Witnesses, Events, SuffixContractID and
// UnicumOf that the package had before they were tuned for fewer
// allocations; equiv_test.go pins the tuned ones to the same answers.

func refSuffixContractID(cid value.ContractID, unicum Hash) (value.ContractID, error) {
	c, err := lf.ParseContractID(string(cid))
	if err != nil {
		return "", err
	}
	if c.Version != lf.ContractIDV1 || !c.IsLocal() {
		return "", fmt.Errorf("contract id %s is not a local V1 id", cid)
	}
	c.Suffix = append(slices.Clone(suffixV1Prefix), unicum[:]...)
	return value.ContractID(c.String()), nil
}

func refUnicumOf(updateID string, node NodeID) Hash {
	h := sha256.New()
	h.Write(newHMACData(nil).str(updateID).int32(int32(node)))
	var out Hash
	copy(out[:], h.Sum(nil))
	return out
}

func refWithSuffixes(t *Transaction, unicum func(node NodeID, c *Create) Hash) (*Transaction, map[value.ContractID]value.ContractID, error) {
	m := map[value.ContractID]value.ContractID{}
	for id, n := range t.All() {
		if c, ok := n.(*Create); ok {
			g, err := refSuffixContractID(c.ContractID, unicum(id, c))
			if err != nil {
				return nil, nil, err
			}
			m[c.ContractID] = g
		}
	}
	sub := func(cid value.ContractID) value.ContractID {
		if g, ok := m[cid]; ok {
			return g
		}
		return cid
	}
	key := func(k *KeyWithMaintainers) *KeyWithMaintainers {
		if k == nil {
			return nil
		}
		return &KeyWithMaintainers{Key: refMapContractIDs(k.Key, sub), Maintainers: k.Maintainers}
	}
	out := &Transaction{Nodes: make([]Node, len(t.Nodes)), Roots: t.Roots, NodeSeeds: t.NodeSeeds}
	for i, n := range t.Nodes {
		switch x := n.(type) {
		case *Create:
			cp := *x
			cp.ContractID, cp.Arg, cp.Key = sub(x.ContractID), refMapContractIDs(x.Arg, sub), key(x.Key)
			out.Nodes[i] = &cp
		case *Fetch:
			cp := *x
			cp.ContractID, cp.Key = sub(x.ContractID), key(x.Key)
			out.Nodes[i] = &cp
		case *Exercise:
			cp := *x
			cp.TargetID, cp.ChosenValue, cp.Key = sub(x.TargetID), refMapContractIDs(x.ChosenValue, sub), key(x.Key)
			if x.Result != nil {
				cp.Result = refMapContractIDs(x.Result, sub)
			}
			out.Nodes[i] = &cp
		case *QueryByKey:
			cp := *x
			cp.Key = *key(&x.Key)
			cp.Result = make([]value.ContractID, len(x.Result))
			for j, c := range x.Result {
				cp.Result[j] = sub(c)
			}
			out.Nodes[i] = &cp
		default:
			out.Nodes[i] = n
		}
	}
	return out, m, nil
}

func refMapContractIDs(v value.Value, f func(value.ContractID) value.ContractID) value.Value {
	switch x := v.(type) {
	case value.ContractID:
		return f(x)
	case value.Optional:
		if x.Value != nil {
			x.Value = refMapContractIDs(x.Value, f)
		}
		return x
	case value.List:
		out := make(value.List, len(x))
		for i, e := range x {
			out[i] = refMapContractIDs(e, f)
		}
		return out
	case value.TextMap:
		out := make(value.TextMap, len(x))
		for i, e := range x {
			out[i] = value.TextMapEntry{Key: e.Key, Value: refMapContractIDs(e.Value, f)}
		}
		return out
	case value.GenMap:
		out := make(value.GenMap, len(x))
		for i, e := range x {
			out[i] = value.GenMapEntry{Key: refMapContractIDs(e.Key, f), Value: refMapContractIDs(e.Value, f)}
		}
		return out
	case value.Record:
		fs := make([]value.RecordField, len(x.Fields))
		for i, e := range x.Fields {
			fs[i] = value.RecordField{Label: e.Label, Value: refMapContractIDs(e.Value, f)}
		}
		x.Fields = fs
		return x
	case value.Variant:
		x.Value = refMapContractIDs(x.Value, f)
		return x
	}
	return v
}

func refInformees(n Node) []string {
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

func refWitnesses(t *Transaction) map[NodeID][]string {
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
			w = union(it.parent, refInformees(n))
		}
		out[it.id] = w
		kids := Children(n)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], w})
		}
	}
	return out
}

func refEffects(t *Transaction) Effects {
	e := Effects{ConsumedBy: map[value.ContractID]NodeID{}}
	var created cidSet
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

func refEvents(t *Transaction, parties []string, shape Shape) []Event {
	ps := sortedSet(parties)
	pick := func(set []string) []string {
		if parties == nil {
			return slices.Clone(set)
		}
		return intersect(set, ps)
	}
	eff := refEffects(t)
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
		w = refWitnesses(t)
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

// refState is the Builder's contract state as the package kept it before
// the append-only logs: maps of the created and consumed contracts, cloned
// at every try and restored by a rollback.
type refState struct {
	local      map[value.ContractID]bool
	created    map[value.ContractID]NodeID
	consumedBy map[value.ContractID]NodeID
	saved      []refSaved
	effects    []Node
}

type refSaved struct{ created, consumedBy map[value.ContractID]NodeID }

func newRefState() *refState {
	return &refState{local: map[value.ContractID]bool{}, created: map[value.ContractID]NodeID{}, consumedBy: map[value.ContractID]NodeID{}}
}

func (s *refState) status(cid value.ContractID, inputs []value.ContractID) (ContractStatus, NodeID) {
	if nid, ok := s.consumedBy[cid]; ok {
		return StatusConsumed, nid
	}
	if s.local[cid] {
		if _, ok := s.created[cid]; !ok {
			return StatusRolledBack, 0
		}
		return StatusActive, 0
	}
	if slices.Contains(inputs, cid) {
		return StatusActive, 0
	}
	return StatusUnknown, 0
}

func (s *refState) create(c *Create, nid NodeID) {
	s.local[c.ContractID] = true
	s.created[c.ContractID] = nid
	s.effects = append(s.effects, c)
}

func (s *refState) consume(ex *Exercise, nid NodeID) {
	s.consumedBy[ex.TargetID] = nid
	s.effects = append(s.effects, ex)
}

func (s *refState) beginTry() {
	s.saved = append(s.saved, refSaved{created: maps.Clone(s.created), consumedBy: maps.Clone(s.consumedBy)})
}

func (s *refState) endTry() { s.saved = s.saved[:len(s.saved)-1] }

// rollbackTry returns the nodes of the EffectfulRollbackError in NUCK
// mode (nil when the rollback succeeds).
func (s *refState) rollbackTry(nuck bool) []Node {
	sv := s.saved[len(s.saved)-1]
	if nuck && (len(s.created) != len(sv.created) || len(s.consumedBy) != len(sv.consumedBy)) {
		var bad []Node
		for _, n := range s.effects {
			switch n := n.(type) {
			case *Create:
				if _, before := sv.created[n.ContractID]; !before {
					bad = append(bad, n)
				}
			case *Exercise:
				if _, before := sv.consumedBy[n.TargetID]; !before {
					bad = append(bad, n)
				}
			}
		}
		return bad
	}
	s.created, s.consumedBy = sv.created, sv.consumedBy
	s.saved = s.saved[:len(s.saved)-1]
	return nil
}
