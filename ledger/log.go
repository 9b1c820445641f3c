package ledger

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Entry kinds of the update log.
const (
	kindTransaction  = "tx"
	kindReassignment = "ra"
	kindTopology     = "tp"
)

// logEntry is the stored form of one update: everything any reader needs,
// encoded once by the writer. Readers render it for their format (the
// witness parties of an event depend on who asks).
type logEntry struct {
	Kind           string `json:"k"`
	Offset         int64  `json:"o"`
	UpdateID       string `json:"u"`
	CommandID      string `json:"c,omitempty"`
	WorkflowID     string `json:"w,omitempty"`
	EffectiveAt    string `json:"e,omitempty"`
	RecordTime     string `json:"r"`
	SynchronizerID string `json:"s"`
	// Nodes are a transaction's actions, in node-id order.
	Nodes []txNode `json:"n,omitempty"`
	// Reassign is a reassignment's event.
	Reassign *reassignNode `json:"a,omitempty"`
	// Topology are a topology transaction's events.
	Topology []topologyEvent `json:"t,omitempty"`
	// Submission data, for deduplication and completions.
	UserID       string   `json:"user,omitempty"`
	ActAs        []string `json:"actAs,omitempty"`
	SubmissionID string   `json:"sub,omitempty"`

	// nodesAhead marks an entry whose nodes the submission path encoded
	// ahead, outside the committer (for the contract records): it stores
	// its nodes even when there are none (storesNodes), and its JSON form
	// has them last, as the submission path always stored them. readers,
	// when set, are parties() computed ahead.
	nodesAhead bool
	readers    []string
	// plain says the entry's strings are written in JSON as they are
	// (the binary form's entPlain, set by the encoder and read back).
	plain bool
	// rawsStored says the nodes' raw members are their stored forms
	// (encodeNodes wrote each as it is), wireTimes that EffectiveAt and
	// RecordTime are formatTime's of times wireInstant accepts: set by
	// the submission path, which the encoder then spares checking them.
	rawsStored, wireTimes bool
	// ownIDs says UpdateID is txUpdateID's and the created nodes'
	// ContractIDs SuffixContractID's, lowercase hex (set by the
	// submission path, which the encoder then spares checking them).
	ownIDs bool
	// nodesPlain says the nodes' strings, their ContractIDs and CreatedAt
	// aside, are jsontext.HTMLPlain, as committable's encoding
	// (encodeNodesWith) found them (set by the submission path, which the
	// encoder then spares checking them).
	nodesPlain bool
	// syncPlain says SynchronizerID is jsontext.HTMLPlain (set by the
	// submission path, which the encoders then spare checking it).
	syncPlain bool
	// raw, when set, is the stored form the entry was decoded from, lent,
	// with its names not interned (scanRawNames).
	raw []byte
	// recordTime is RecordTime as a time, set by the committer of a
	// submission (not stored as such).
	recordTime time.Time
	// deferred, when set, renders the entry's stored form at its first
	// read (deferred.go): its exercise nodes' Argument and Result are nil
	// meanwhile.
	deferred *deferredEvents
}

// txNode is a create or an exercise node.
type txNode struct {
	ID       int32 `json:"id"`
	Exercise bool  `json:"x,omitempty"`
	// plainIDs says TemplateID and PackageName are jsontext.HTMLPlain,
	// as eventNodesInto found them once for the create's template
	// (renderedTemplate), so that committable's encoding writes them
	// without a look (not stored).
	plainIDs    bool
	ContractID  string          `json:"cid"`
	TemplateID  string          `json:"tid"`
	PackageName string          `json:"pn"`
	Argument    json.RawMessage `json:"arg"`
	// Create: signatories and observers; the stakeholders are both.
	Signatories []string `json:"sig,omitempty"`
	Observers   []string `json:"obs,omitempty"`
	CreatedAt   string   `json:"at,omitempty"`
	// Exercise: the contract's stakeholders, the choice and its actors.
	Stakeholders []string `json:"stk,omitempty"`
	Choice       string   `json:"ch,omitempty"`
	Consuming    bool     `json:"cons,omitempty"`
	Acting       []string `json:"act,omitempty"`
	// Transient marks a create whose contract the same transaction archives.
	Transient bool `json:"tr,omitempty"`
	// Witnesses are the parties that see the node in the ledger-effects shape
	// (its informees and its parent action's witnesses, as Canton's
	// Node.informeesOfNode and BlindingTransaction.calculateBlindingInfo
	// compute them); nil for a create seen by its stakeholders only, and on
	// entries written before the engine ran, whose witnesses are the
	// stakeholders and actors.
	Witnesses []string `json:"w,omitempty"`
	// LastDescendant is the id of the last node of an exercise's subtree.
	LastDescendant int32 `json:"ld,omitempty"`
	// Create: the contract key and its maintainers (LF 2.3), or nil.
	Key         json.RawMessage `json:"key,omitempty"`
	Maintainers []string        `json:"km,omitempty"`
	// Exercise: the choice's result, choice observers, the interface of
	// an interface choice, and whether it archives a contract that
	// existed before the transaction (an ArchivedEvent in ACS deltas).
	Result          json.RawMessage `json:"res,omitempty"`
	ChoiceObservers []string        `json:"cobs,omitempty"`
	InterfaceID     string          `json:"iid,omitempty"`
	Archives        bool            `json:"arc,omitempty"`
	// Engine marks a node the Daml engine produced (its Witnesses,
	// LastDescendant, Result and Archives are set).
	Engine bool `json:"eng,omitempty"`

	// keyHash is a created contract's key digest, computed from the
	// engine's key value before the commit (not stored).
	keyHash []byte
}

// witnesses returns the parties that see the node as a ledger effect. A
// create's witnesses are stored only when they are more than its
// stakeholders (a create under an exercise others witness).
func (n *txNode) witnesses() []string {
	switch {
	case n.Engine && n.Witnesses != nil:
		return n.Witnesses
	case n.Engine && !n.Exercise:
		return n.stakeholders()
	}
	return union(n.stakeholders(), n.Acting)
}

// lastDescendant returns the node's lastDescendantNodeId (a create is a
// leaf).
func (n *txNode) lastDescendant() int32 {
	if n.Engine && n.Exercise {
		return n.LastDescendant
	}
	return n.ID
}

// stakeholders of the node's contract. A create's are the union of its
// signatories and observers: without observers, its signatories
// themselves (capacity capped) when they are sorted and distinct, as the
// union would be, instead of a copy (most creates, on every read that
// decides who sees them). Callers only read the list.
func (n *txNode) stakeholders() []string {
	if n.Exercise {
		return n.Stakeholders
	}
	if s := n.Signatories; len(n.Observers) == 0 && len(s) > 0 && strictlySorted(s) {
		return s[:len(s):len(s)]
	}
	return union(n.Signatories, n.Observers)
}

// stakeholdersInto is stakeholders, built in buf's array when it must be
// built (a caller's scratch, or an array on its stack: only what the
// caller keeps outlives it).
func (n *txNode) stakeholdersInto(buf []string) []string {
	if n.Exercise || len(n.Observers) == 0 {
		return n.stakeholders()
	}
	s := append(append(buf[:0], n.Signatories...), n.Observers...)
	slices.Sort(s)
	return slices.Compact(s)
}

// strictlySorted reports whether s is sorted without duplicates.
func strictlySorted(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return false
		}
	}
	return true
}

// reassignNode is the event of a reassignment update.
type reassignNode struct {
	Unassign       bool   `json:"un,omitempty"`
	ReassignmentID string `json:"rid"`
	Source         string `json:"src"`
	Target         string `json:"dst"`
	Submitter      string `json:"by"`
	Counter        int64  `json:"cnt"`
	// Contract is the reassigned contract's create node.
	Contract txNode `json:"contract"`
}

// parties returns every party that sees the entry (for the per-party
// index), sorted, without duplicates: the stakeholders and witnesses of
// its nodes, its reassigned contract's stakeholders, its topology
// events' parties.
func (e *logEntry) parties() []string {
	size := 0
	for i := range e.Nodes {
		n := &e.Nodes[i]
		size += len(n.Signatories) + len(n.Observers) + len(n.Stakeholders) + len(n.Witnesses) + len(n.Acting)
	}
	var out []string
	if size > 0 {
		out = make([]string, 0, size)
	}
	for i := range e.Nodes {
		out = e.Nodes[i].appendParties(out)
	}
	if e.Reassign != nil {
		out = e.Reassign.Contract.appendStakeholders(out)
	}
	for _, t := range e.Topology {
		for _, v := range t.Event.authorizations() {
			if v != nil {
				out = append(out, v.Value.PartyID)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// involves reports whether p is among the parties of the entry's nodes
// (signatories, observers, stakeholders, witnesses, acting parties), of
// its reassigned contract or of its topology events: everyone parties()
// lists, the entry's index, and everyone a reader sees it through
// (visibility.go), without building the list.
func (e *logEntry) involves(p string) bool {
	in := func(n *txNode) bool {
		return slices.Contains(n.Signatories, p) || slices.Contains(n.Observers, p) || slices.Contains(n.Stakeholders, p) ||
			slices.Contains(n.Witnesses, p) || slices.Contains(n.Acting, p)
	}
	for i := range e.Nodes {
		if in(&e.Nodes[i]) {
			return true
		}
	}
	if e.Reassign != nil && in(&e.Reassign.Contract) {
		return true
	}
	for _, t := range e.Topology {
		for _, v := range t.Event.authorizations() {
			if v != nil && v.Value.PartyID == p {
				return true
			}
		}
	}
	return false
}

// appendStakeholders appends the stakeholders of the node's contract
// (unsorted, possibly repeated).
func (n *txNode) appendStakeholders(out []string) []string {
	if n.Exercise {
		return append(out, n.Stakeholders...)
	}
	out = append(out, n.Signatories...)
	return append(out, n.Observers...)
}

// appendParties appends the node's stakeholders and witnesses (the
// union of stakeholders() and witnesses(), unsorted, possibly repeated).
func (n *txNode) appendParties(out []string) []string {
	out = n.appendStakeholders(out)
	switch {
	case n.Engine && n.Witnesses != nil:
		return append(out, n.Witnesses...)
	case n.Engine && !n.Exercise:
		return out
	}
	return append(out, n.Acting...)
}

// appendEntry writes an entry at its offset with its indexes.
func appendEntry(tx *store.Tx, e *logEntry) {
	if e.deferred != nil {
		appendDeferredEntry(tx, e) // deferred.go
		return
	}
	// Nothing keeps the stored form but the store: its buffer serves
	// the next entries once committed.
	writeEntry(tx, e, e.encodeWith(store.ValueBuffer))
}

// appendEntryIndexes writes the indexes of an entry: by update id, by
// party.
func appendEntryIndexes(tx *store.Tx, e *logEntry) { writeEntry(tx, e, nil) }

// writeEntry writes the indexes of an entry and, when val is not nil, its
// stored form val (a buffer of store.ValueBuffer, SetPooled's) under its
// update key first, the key built in the indexes' buffer.
func writeEntry(tx *store.Tx, e *logEntry, val []byte) {
	parties := e.readers
	if parties == nil {
		parties = e.parties()
	}
	// The keys and the update id's value (its offset) share one
	// buffer, each slice capped at its end: one allocation, not four.
	size := len(store.PrefixUpdate) + 8 + len(store.PrefixUpdateID) + len(e.UpdateID) + 8
	for _, p := range parties {
		size += len(store.PrefixPartyUpdate) + len(p) + 9
	}
	buf := store.ValueBuffer(size)
	if val != nil {
		buf = store.AppendUpdateKey(buf, e.Offset)
		tx.SetPooled(buf[:len(buf):len(buf)], val)
	}
	keyEnd := len(buf)
	buf = store.AppendUpdateIDKey(buf, e.UpdateID)
	idEnd := len(buf)
	buf = store.AppendOffset(buf, e.Offset)
	tx.SetOwned(buf[keyEnd:idEnd:idEnd], buf[idEnd:len(buf):len(buf)])
	for _, p := range parties {
		start := len(buf)
		buf = store.AppendPartyUpdateKey(buf, p, e.Offset)
		tx.SetOwned(buf[start:len(buf):len(buf)], nil)
	}
	tx.Pool(buf) // the store's alone: reused once committed
}

// union returns the sorted union of party lists, without duplicates.
func union(lists ...[]string) []string {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n) // one allocation, not one per growth
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
