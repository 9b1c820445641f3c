package ledger

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/ledgernode/ledgernode/daml/lf"
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
	Topology []TopologyEvent `json:"t,omitempty"`
	// Submission data, for deduplication and completions.
	UserID       string   `json:"user,omitempty"`
	ActAs        []string `json:"actAs,omitempty"`
	SubmissionID string   `json:"sub,omitempty"`
}

// txNode is a create or an exercise node.
type txNode struct {
	ID          int32           `json:"id"`
	Exercise    bool            `json:"x,omitempty"`
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
	// Witnesses are the parties that see the node in the ledger-effects
	// shape (its informees and its parent action's witnesses,
	// daml-engine.md §5.3); nil on entries written before the engine
	// ran, whose witnesses are the stakeholders and actors.
	Witnesses []string `json:"w,omitempty"`
	// LastDescendant is the id of the last node of the node's subtree.
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
}

// witnesses returns the parties that see the node as a ledger effect.
func (n *txNode) witnesses() []string {
	if n.Engine {
		return n.Witnesses
	}
	return union(n.stakeholders(), n.Acting)
}

// lastDescendant returns the node's lastDescendantNodeId.
func (n *txNode) lastDescendant() int32 {
	if n.Engine {
		return n.LastDescendant
	}
	return n.ID
}

// stakeholders of the node's contract.
func (n *txNode) stakeholders() []string {
	if n.Exercise {
		return n.Stakeholders
	}
	return union(n.Signatories, n.Observers)
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

// parties returns every party that sees the entry (for the per-party index).
func (e *logEntry) parties() []string {
	var out []string
	for i := range e.Nodes {
		out = union(out, e.Nodes[i].stakeholders(), e.Nodes[i].witnesses())
	}
	if e.Reassign != nil {
		out = union(out, e.Reassign.Contract.stakeholders())
	}
	for _, t := range e.Topology {
		for _, v := range []*Wrapped[ParticipantAuthorization]{t.Event.ParticipantAuthorizationAdded,
			t.Event.ParticipantAuthorizationChanged, t.Event.ParticipantAuthorizationRevoked} {
			if v != nil {
				out = union(out, []string{v.Value.PartyID})
			}
		}
	}
	return out
}

// appendEntry writes an entry at its offset with its indexes.
func appendEntry(tx *store.Tx, e *logEntry) {
	tx.Set(store.UpdateKey(e.Offset), mustJSON(e))
	tx.Set(store.UpdateIDKey(e.UpdateID), store.OffsetBytes(e.Offset))
	for _, p := range e.parties() {
		tx.Set(store.PartyUpdateKey(p, e.Offset), nil)
	}
}

// union returns the sorted union of party lists, without duplicates.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// eventFilter is an EventFormat prepared for matching.
type eventFilter struct {
	byParty  map[string][]CumulativeFilter
	anyParty *Filters
	// pkgName resolves a package id to its name (for package-id template
	// filters, which match every version of the package).
	pkgName func(id string) string
}

func newEventFilter(f *EventFormat, pkgName func(string) string) *eventFilter {
	if f == nil {
		return nil
	}
	ef := &eventFilter{byParty: map[string][]CumulativeFilter{}, anyParty: f.FiltersForAnyParty, pkgName: pkgName}
	for p, fs := range f.FiltersByParty {
		ef.byParty[p] = fs.Cumulative
	}
	return ef
}

// matches reports whether a party's filters select a template, and whether
// they ask for the created-event blob.
func (ef *eventFilter) matches(fs []CumulativeFilter, templateID, pkgName string) (ok, blob bool) {
	if len(fs) == 0 {
		return true, false
	}
	for _, c := range fs {
		f := c.IdentifierFilter
		switch {
		case f.WildcardFilter != nil:
			ok, blob = true, blob || f.WildcardFilter.Value.IncludeCreatedEventBlob
		case f.TemplateFilter != nil:
			if ef.templateMatches(f.TemplateFilter.Value.TemplateID, templateID, pkgName) {
				ok, blob = true, blob || f.TemplateFilter.Value.IncludeCreatedEventBlob
			}
		case f.Empty != nil:
			ok = true
		}
	}
	return ok, blob
}

// templateMatches compares a filter's template id ("pkg:M:E" or
// "#name:M:E") with an event's: the qualified names must be equal and the
// package must be the same package name.
func (ef *eventFilter) templateMatches(filter, templateID, pkgName string) bool {
	f, err := lf.SplitIdentifier(filter)
	if err != nil {
		return false
	}
	t, err := lf.SplitIdentifier(templateID)
	if err != nil || f.QualifiedName() != t.QualifiedName() {
		return false
	}
	if f.ByName() {
		return f.PackageName == pkgName
	}
	return f.PackageID == t.PackageID || (ef.pkgName != nil && ef.pkgName(f.PackageID) == pkgName)
}

// witnesses returns the parties among candidates whose filters select the
// template, and whether any of them asked for the blob.
func (ef *eventFilter) witnesses(candidates []string, templateID, pkgName string) ([]string, bool) {
	var out []string
	blob := false
	for _, p := range candidates {
		fs, listed := ef.byParty[p]
		ok, b := false, false
		if listed {
			ok, b = ef.matches(fs, templateID, pkgName)
		}
		if !ok && ef.anyParty != nil {
			ok, b = ef.matches(ef.anyParty.Cumulative, templateID, pkgName)
		}
		if ok {
			out = append(out, p)
			blob = blob || b
		}
	}
	return out, blob
}

// createdEvent renders a create node for witnesses.
func createdEvent(e *logEntry, n *txNode, witnesses []string, blob, acsDelta bool) *CreatedEvent {
	key := n.Key
	if key == nil {
		key = json.RawMessage("null")
	}
	ev := &CreatedEvent{Offset: e.Offset, NodeID: n.ID, ContractID: n.ContractID, TemplateID: n.TemplateID,
		ContractKey: key, CreateArgument: n.Argument, InterfaceViews: []any{},
		WitnessParties: witnesses, Signatories: nonNil(n.Signatories), Observers: nonNil(n.Observers),
		CreatedAt: n.CreatedAt, PackageName: n.PackageName, RepresentativePackageID: packageOf(n.TemplateID), ACSDelta: acsDelta}
	if blob {
		ev.CreatedEventBlob = base64.StdEncoding.EncodeToString(mustJSON(n))
	}
	return ev
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// packageOf returns the package id of a stored template id.
func packageOf(templateID string) string {
	id, _ := lf.SplitIdentifier(templateID)
	return id.PackageID
}

func exercisedEvent(e *logEntry, n *txNode, witnesses []string) *ExercisedEvent {
	ev := &ExercisedEvent{Offset: e.Offset, NodeID: n.ID, ContractID: n.ContractID, TemplateID: n.TemplateID,
		Choice: n.Choice, ChoiceArgument: n.Argument, ActingParties: nonNil(n.Acting), Consuming: n.Consuming,
		WitnessParties: witnesses, LastDescendantNodeID: n.lastDescendant(), ExerciseResult: json.RawMessage("null"),
		PackageName: n.PackageName, ImplementedInterfaces: []string{}, ACSDelta: n.archives(e)}
	if n.Result != nil {
		ev.ExerciseResult = n.Result
	}
	if n.InterfaceID != "" {
		iid := n.InterfaceID
		ev.InterfaceID = &iid
	}
	return ev
}

// archives reports whether an exercise node archives a contract that
// existed before its transaction (an ACS change).
func (n *txNode) archives(e *logEntry) bool {
	if n.Engine {
		return n.Archives
	}
	return n.Consuming && !transientContract(e, n.ContractID)
}

// renderTransaction renders a transaction entry in a shape; nil when no
// event is visible.
func renderTransaction(e *logEntry, f *TransactionFormat, ef *eventFilter) *Transaction {
	effects := f.TransactionShape == ShapeLedgerEffects
	var events []Event
	for i := range e.Nodes {
		n := &e.Nodes[i]
		switch {
		case !n.Exercise:
			if !effects && n.Transient {
				continue
			}
			seen := n.stakeholders()
			if effects {
				seen = n.witnesses()
			}
			w, blob := ef.witnesses(seen, n.TemplateID, n.PackageName)
			if len(w) > 0 {
				events = append(events, Event{CreatedEvent: createdEvent(e, n, w, blob, !n.Transient)})
			}
		case effects:
			w, _ := ef.witnesses(n.witnesses(), n.TemplateID, n.PackageName)
			if len(w) > 0 {
				events = append(events, Event{ExercisedEvent: exercisedEvent(e, n, w)})
			}
		case n.archives(e):
			w, _ := ef.witnesses(n.Stakeholders, n.TemplateID, n.PackageName)
			if len(w) > 0 {
				events = append(events, Event{ArchivedEvent: &ArchivedEvent{Offset: e.Offset, NodeID: n.ID,
					ContractID: n.ContractID, TemplateID: n.TemplateID, WitnessParties: w, PackageName: n.PackageName,
					ImplementedInterfaces: []string{}}})
			}
		}
	}
	if len(events) == 0 {
		return nil
	}
	return &Transaction{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
		Events: events, Offset: e.Offset, SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}
}

func transientContract(e *logEntry, cid string) bool {
	for i := range e.Nodes {
		if !e.Nodes[i].Exercise && e.Nodes[i].ContractID == cid {
			return e.Nodes[i].Transient
		}
	}
	return false
}

// renderTree renders a transaction entry as a tree (ledger effects).
func renderTree(e *logEntry, ef *eventFilter) *TransactionTree {
	tx := renderTransaction(e, &TransactionFormat{TransactionShape: ShapeLedgerEffects}, ef)
	if tx == nil {
		return nil
	}
	t := &TransactionTree{UpdateID: tx.UpdateID, CommandID: tx.CommandID, WorkflowID: tx.WorkflowID, EffectiveAt: tx.EffectiveAt,
		Offset: tx.Offset, EventsByID: map[string]TreeEvent{}, SynchronizerID: tx.SynchronizerID, RecordTime: tx.RecordTime}
	for _, ev := range tx.Events {
		switch {
		case ev.CreatedEvent != nil:
			t.EventsByID[strconv.Itoa(int(ev.CreatedEvent.NodeID))] = TreeEvent{CreatedTreeEvent: &Wrapped[CreatedEvent]{Value: *ev.CreatedEvent}}
		case ev.ExercisedEvent != nil:
			t.EventsByID[strconv.Itoa(int(ev.ExercisedEvent.NodeID))] = TreeEvent{ExercisedTreeEvent: &Wrapped[ExercisedEvent]{Value: *ev.ExercisedEvent}}
		}
	}
	return t
}

// renderReassignment renders a reassignment entry; with a nil filter the
// reassignment has no events (submit-and-wait without an event format).
func renderReassignment(e *logEntry, ef *eventFilter, always bool) *Reassignment {
	r := e.Reassign
	out := &Reassignment{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, Offset: e.Offset,
		Events: []ReassignmentEvent{}, RecordTime: e.RecordTime, SynchronizerID: e.SynchronizerID}
	if ef != nil {
		c := &r.Contract
		w, blob := ef.witnesses(c.stakeholders(), c.TemplateID, c.PackageName)
		if len(w) > 0 {
			if r.Unassign {
				out.Events = append(out.Events, ReassignmentEvent{JsUnassignedEvent: &Wrapped[UnassignedEvent]{Value: UnassignedEvent{
					ReassignmentID: r.ReassignmentID, ContractID: c.ContractID, TemplateID: c.TemplateID, Source: r.Source,
					Target: r.Target, Submitter: r.Submitter, ReassignmentCounter: r.Counter, WitnessParties: w,
					PackageName: c.PackageName, Offset: e.Offset, NodeID: 0}}})
			} else {
				out.Events = append(out.Events, ReassignmentEvent{JsAssignmentEvent: &AssignmentEvent{Source: r.Source,
					Target: r.Target, ReassignmentID: r.ReassignmentID, Submitter: r.Submitter, ReassignmentCounter: r.Counter,
					CreatedEvent: *createdEvent(e, c, w, blob, true)}})
			}
		}
	}
	if len(out.Events) == 0 && !always {
		return nil
	}
	return out
}

// renderTopology renders a topology entry for the requested parties (none:
// all).
func renderTopology(e *logEntry, f *TopologyFormat) *TopologyTransaction {
	if f == nil || f.IncludeParticipantAuthorizationEvents == nil {
		return nil
	}
	want := f.IncludeParticipantAuthorizationEvents.Parties
	var events []TopologyEvent
	for _, t := range e.Topology {
		for _, v := range []*Wrapped[ParticipantAuthorization]{t.Event.ParticipantAuthorizationAdded,
			t.Event.ParticipantAuthorizationChanged, t.Event.ParticipantAuthorizationRevoked} {
			if v != nil && (len(want) == 0 || slices.Contains(want, v.Value.PartyID)) {
				events = append(events, t)
			}
		}
	}
	if len(events) == 0 {
		return nil
	}
	return &TopologyTransaction{UpdateID: e.UpdateID, Offset: e.Offset, SynchronizerID: e.SynchronizerID,
		RecordTime: e.RecordTime, Events: events}
}

// renderer turns log entries into updates for one format.
type renderer struct {
	format UpdateFormat
	tx     *eventFilter
	ra     *eventFilter
}

func newRenderer(f UpdateFormat, pkgName func(string) string) *renderer {
	r := &renderer{format: f, ra: newEventFilter(f.IncludeReassignments, pkgName)}
	if f.IncludeTransactions != nil {
		r.tx = newEventFilter(&f.IncludeTransactions.EventFormat, pkgName)
	}
	return r
}

// update renders an entry, or returns false when nothing of it is visible.
func (r *renderer) update(e *logEntry) (Update, bool) {
	switch e.Kind {
	case kindTransaction:
		if r.tx != nil {
			if t := renderTransaction(e, r.format.IncludeTransactions, r.tx); t != nil {
				return Update{Transaction: &Wrapped[Transaction]{Value: *t}}, true
			}
		}
	case kindReassignment:
		if r.ra != nil {
			if ra := renderReassignment(e, r.ra, false); ra != nil {
				return Update{Reassignment: &Wrapped[Reassignment]{Value: *ra}}, true
			}
		}
	case kindTopology:
		if t := renderTopology(e, r.format.IncludeTopologyEvents); t != nil {
			return Update{TopologyTransaction: &Wrapped[TopologyTransaction]{Value: *t}}, true
		}
	}
	return Update{}, false
}

// tree renders an entry for the trees stream.
func (r *renderer) tree(e *logEntry) (TreeUpdate, bool) {
	switch e.Kind {
	case kindTransaction:
		if r.tx != nil {
			if t := renderTree(e, r.tx); t != nil {
				return TreeUpdate{TransactionTree: &Wrapped[TransactionTree]{Value: *t}}, true
			}
		}
	case kindReassignment:
		if r.ra != nil {
			if ra := renderReassignment(e, r.ra, false); ra != nil {
				return TreeUpdate{Reassignment: &Wrapped[Reassignment]{Value: *ra}}, true
			}
		}
	}
	return TreeUpdate{}, false
}

// readingParties are the parties a format reads as (nil with any-party
// filters: every party).
func (f UpdateFormat) readingParties() (parties []string, anyParty bool) {
	add := func(ef *EventFormat) {
		if ef == nil {
			return
		}
		if ef.FiltersForAnyParty != nil {
			anyParty = true
		}
		for p := range ef.FiltersByParty {
			parties = append(parties, p)
		}
	}
	if f.IncludeTransactions != nil {
		add(&f.IncludeTransactions.EventFormat)
	}
	add(f.IncludeReassignments)
	if t := f.IncludeTopologyEvents; t != nil && t.IncludeParticipantAuthorizationEvents != nil {
		if len(t.IncludeParticipantAuthorizationEvents.Parties) == 0 {
			anyParty = true
		}
		parties = append(parties, t.IncludeParticipantAuthorizationEvents.Parties...)
	}
	return union(parties), anyParty
}
