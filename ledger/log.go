package ledger

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

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

	// nodesJSON and readers, when set, are Nodes encoded and parties()
	// computed ahead, outside the committer (not stored as such).
	nodesJSON json.RawMessage
	readers   []string
	// recordTime is RecordTime as a time, set by the committer of a
	// submission (not stored as such).
	recordTime time.Time
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
	// daml-engine.md §5.3); nil for a create seen by its stakeholders
	// only, and on entries written before the engine ran, whose
	// witnesses are the stakeholders and actors.
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
		for _, v := range []*Wrapped[ParticipantAuthorization]{t.Event.ParticipantAuthorizationAdded,
			t.Event.ParticipantAuthorizationChanged, t.Event.ParticipantAuthorizationRevoked} {
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
	tx.SetOwned(store.UpdateKey(e.Offset), e.encode())
	tx.SetOwned(store.UpdateIDKey(e.UpdateID), store.OffsetBytes(e.Offset))
	parties := e.readers
	if parties == nil {
		parties = e.parties()
	}
	// The index keys share one buffer, each slice capped at its end.
	size := 0
	for _, p := range parties {
		size += len(store.PrefixPartyUpdate) + len(p) + 9
	}
	buf := make([]byte, 0, size)
	for _, p := range parties {
		start := len(buf)
		buf = store.AppendPartyUpdateKey(buf, p, e.Offset)
		tx.SetOwned(buf[start:len(buf):len(buf)], nil)
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
	// impls memoizes the view implementations of this read (a filter is
	// used by one goroutine), as Canton picks them once per stream.
	impls map[implKey]implChoice
	// pk resolves package ids to names and packages (package-id template
	// filters match every version of the package; interface filters
	// match the templates that implement the interface) and computes
	// interface views.
	pk readPackages
}

// readPackages is what an event filter needs of the node.
type readPackages interface {
	// pkgNameOf returns the name of a package, "" when unknown.
	pkgNameOf(id string) string
	// cachedPackage returns a decoded package, nil when unknown.
	cachedPackage(id string) *lf.Package
	// contractBlob returns a created contract's createdEventBlob
	// (base64), "" when it has none.
	contractBlob(c *txNode) string
	// viewImplementation picks the package whose implementation of an
	// interface computes the views of a template's contracts of a
	// package name on a synchronizer.
	viewImplementation(iface, template lf.TypeConID, pkgName, sync string) (string, error)
	// interfaceView computes the view of a created contract with the
	// implementation of package impl.
	interfaceView(iface lf.TypeConID, c *txNode, impl string) (json.RawMessage, error)
}

func newEventFilter(f *EventFormat, pk readPackages) *eventFilter {
	if f == nil {
		return nil
	}
	ef := &eventFilter{byParty: map[string][]CumulativeFilter{}, anyParty: f.FiltersForAnyParty, pk: pk}
	for p, fs := range f.FiltersByParty {
		ef.byParty[p] = fs.Cumulative
	}
	return ef
}

// filterMatch is what a party's filters select of an event: whether it is
// shown, with its created-event blob, and the interfaces matched by
// interface filters (with whether their views are asked for).
type filterMatch struct {
	ok, blob bool
	ifaces   []ifaceMatch
}

type ifaceMatch struct {
	id   lf.TypeConID
	view bool
}

// add merges another match.
func (m *filterMatch) add(o filterMatch) {
	m.ok, m.blob = m.ok || o.ok, m.blob || o.blob
	for _, i := range o.ifaces {
		m.addIface(i)
	}
}

func (m *filterMatch) addIface(i ifaceMatch) {
	for k := range m.ifaces {
		if m.ifaces[k].id == i.id {
			m.ifaces[k].view = m.ifaces[k].view || i.view
			return
		}
	}
	m.ifaces = append(m.ifaces, i)
}

// implemented lists the interfaces matched with views asked for
// (implementedInterfaces of exercised and archived events).
func (m filterMatch) implemented() []string {
	out := []string{}
	for _, i := range m.ifaces {
		if i.view {
			out = append(out, i.id.String())
		}
	}
	slices.Sort(out)
	return out
}

// matches reports what a party's filters select of an event of a
// template.
func (ef *eventFilter) matches(fs []CumulativeFilter, templateID, pkgName string) filterMatch {
	if len(fs) == 0 {
		return filterMatch{ok: true}
	}
	var m filterMatch
	for _, c := range fs {
		f := c.IdentifierFilter
		switch {
		case f.WildcardFilter != nil:
			m.ok, m.blob = true, m.blob || f.WildcardFilter.Value.IncludeCreatedEventBlob
		case f.TemplateFilter != nil:
			if ef.templateMatches(f.TemplateFilter.Value.TemplateID, templateID, pkgName) {
				m.ok, m.blob = true, m.blob || f.TemplateFilter.Value.IncludeCreatedEventBlob
			}
		case f.InterfaceFilter != nil:
			v := f.InterfaceFilter.Value
			if id, ok := ef.implements(templateID, v.InterfaceID); ok {
				m.ok, m.blob = true, m.blob || v.IncludeCreatedEventBlob
				m.addIface(ifaceMatch{id: id, view: v.IncludeInterfaceView})
			}
		case f.Empty != nil:
			m.ok = true
		}
	}
	return m
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
	return f.PackageID == t.PackageID || (ef.pk != nil && ef.pk.pkgNameOf(f.PackageID) == pkgName)
}

// implements reports whether the template of an event implements the
// interface a filter names ("pkg:M:I" or "#name:M:I"), and which
// interface (by package id) it is.
func (ef *eventFilter) implements(templateID, filter string) (lf.TypeConID, bool) {
	if ef.pk == nil {
		return lf.TypeConID{}, false
	}
	f, err := lf.SplitIdentifier(filter)
	if err != nil {
		return lf.TypeConID{}, false
	}
	t, err := splitTypeCon(templateID)
	if err != nil {
		return lf.TypeConID{}, false
	}
	pkg := ef.pk.cachedPackage(t.PackageID)
	if pkg == nil {
		return lf.TypeConID{}, false
	}
	tmpl := pkg.Template(t.Module, t.Name)
	if tmpl == nil {
		return lf.TypeConID{}, false
	}
	for _, i := range tmpl.Implements {
		if i.Module != f.Module || i.Name != f.Entity {
			continue
		}
		if f.ByName() && ef.pk.pkgNameOf(i.PackageID) == f.PackageName || !f.ByName() && i.PackageID == f.PackageID {
			return i, true
		}
	}
	return lf.TypeConID{}, false
}

// witnesses returns the parties among candidates whose filters select the
// template, and what their filters ask for.
func (ef *eventFilter) witnesses(candidates []string, templateID, pkgName string) ([]string, filterMatch) {
	var out []string
	var all filterMatch
	for _, p := range candidates {
		fs, listed := ef.byParty[p]
		var m filterMatch
		if listed {
			m = ef.matches(fs, templateID, pkgName)
		}
		if !m.ok && ef.anyParty != nil {
			m = ef.matches(ef.anyParty.Cumulative, templateID, pkgName)
		}
		if m.ok {
			out = append(out, p)
			all.add(m)
		}
	}
	return out, all
}

// JsInterfaceView is the view of a created contract matched by an
// interface filter: ViewValue is set when the filter asked for the view
// and it could be computed; ViewStatus says why not otherwise.
type JsInterfaceView struct {
	InterfaceID string          `json:"interfaceId"`
	ViewStatus  JsStatus        `json:"viewStatus"`
	ViewValue   json.RawMessage `json:"viewValue,omitempty"`
	// ImplementationPackageID is the package whose implementation
	// computed the view (the contract's argument is upgraded or
	// downgraded to it); empty when the view failed.
	ImplementationPackageID string `json:"implementationPackageId"`
}

// JsStatus is a google.rpc.Status: code 0 for success.
type JsStatus struct {
	Code    int32  `json:"code"`
	Message string `json:"message"`
	Details []any  `json:"details"`
}

// interfaceViews renders the views an event's filters ask for.
func (ef *eventFilter) interfaceViews(n *txNode, m filterMatch, sync string) []any {
	out := []any{}
	for _, i := range m.ifaces {
		if !i.view {
			continue
		}
		v := JsInterfaceView{InterfaceID: i.id.String(), ViewStatus: JsStatus{Details: []any{}}}
		impl, err := ef.implementation(i.id, n, sync)
		var val json.RawMessage
		if err == nil {
			val, err = ef.pk.interfaceView(i.id, n, impl)
		}
		if err != nil {
			v.ViewStatus = statusOf(err)
		} else {
			v.ViewValue, v.ImplementationPackageID = val, impl
		}
		out = append(out, v)
	}
	return out
}

type implKey struct {
	iface, template lf.TypeConID
	pkgName, sync   string
}

type implChoice struct {
	id  string
	err error
}

// implementation returns the view implementation for a created node,
// memoized for the read.
func (ef *eventFilter) implementation(iface lf.TypeConID, n *txNode, sync string) (string, error) {
	tc, err := splitTypeCon(n.TemplateID)
	if err != nil {
		return "", err
	}
	// Any version of the template: the implementation depends on the
	// package name and the qualified name only.
	k := implKey{iface: iface, template: lf.TypeConID{Module: tc.Module, Name: tc.Name}, pkgName: n.PackageName, sync: sync}
	if c, ok := ef.impls[k]; ok {
		return c.id, c.err
	}
	id, err := ef.pk.viewImplementation(iface, tc, n.PackageName, sync)
	if ef.impls == nil {
		ef.impls = map[implKey]implChoice{}
	}
	ef.impls[k] = implChoice{id, err}
	return id, err
}

// createdEvent renders a create node for witnesses, with what their
// filters ask for (the blob, interface views).
func createdEvent(e *logEntry, n *txNode, witnesses []string, ef *eventFilter, m filterMatch, acsDelta bool) *JsCreatedEvent {
	key := n.Key
	if key == nil {
		key = json.RawMessage("null")
	}
	ev := &JsCreatedEvent{Offset: e.Offset, NodeID: n.ID, ContractID: n.ContractID, TemplateID: n.TemplateID,
		ContractKey: key, CreateArgument: n.Argument, InterfaceViews: []any{},
		WitnessParties: witnesses, Signatories: nonNil(n.Signatories), Observers: nonNil(n.Observers),
		CreatedAt: n.CreatedAt, PackageName: n.PackageName, RepresentativePackageID: packageOf(n.TemplateID), ACSDelta: acsDelta}
	if m.blob && ef != nil && ef.pk != nil {
		ev.CreatedEventBlob = ef.pk.contractBlob(n)
	}
	if ef != nil && len(m.ifaces) > 0 {
		ev.InterfaceViews = ef.interfaceViews(n, m, e.SynchronizerID)
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

func exercisedEvent(e *logEntry, n *txNode, witnesses []string) *JsExercisedEvent {
	ev := &JsExercisedEvent{Offset: e.Offset, NodeID: n.ID, ContractID: n.ContractID, TemplateID: n.TemplateID,
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
func renderTransaction(e *logEntry, f *TransactionFormat, ef *eventFilter) *JsTransaction {
	effects := f.TransactionShape == ShapeLedgerEffects
	var events []JsEvent
	for i := range e.Nodes {
		n := &e.Nodes[i]
		switch {
		case !n.Exercise:
			if !effects && n.Transient {
				continue
			}
			// A create is seen by its stakeholders, and in ledger
			// effects by the witnesses stored when they are more.
			sh := n.stakeholders()
			seen := sh
			if effects && n.Witnesses != nil {
				seen = n.Witnesses
			}
			w, m := ef.witnesses(seen, n.TemplateID, n.PackageName)
			if len(w) > 0 {
				// acsDelta: an ACS change for one of the requesting
				// witnesses, i.e. one of them is a stakeholder (Canton's
				// acsDeltaForWitnesses).
				acs := !n.Transient && intersects(w, sh)
				events = append(events, JsEvent{CreatedEvent: createdEvent(e, n, w, ef, m, acs)})
			}
		case effects:
			w, m := ef.witnesses(n.witnesses(), n.TemplateID, n.PackageName)
			if len(w) > 0 {
				ev := exercisedEvent(e, n, w)
				ev.ACSDelta = ev.ACSDelta && intersects(w, n.Stakeholders)
				if n.Consuming {
					ev.ImplementedInterfaces = m.implemented()
				}
				events = append(events, JsEvent{ExercisedEvent: ev})
			}
		case n.archives(e):
			w, m := ef.witnesses(n.Stakeholders, n.TemplateID, n.PackageName)
			if len(w) > 0 {
				events = append(events, JsEvent{ArchivedEvent: &JsArchivedEvent{Offset: e.Offset, NodeID: n.ID,
					ContractID: n.ContractID, TemplateID: n.TemplateID, WitnessParties: w, PackageName: n.PackageName,
					ImplementedInterfaces: m.implemented()}})
			}
		}
	}
	if len(events) == 0 {
		return nil
	}
	return &JsTransaction{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
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
func renderTree(e *logEntry, ef *eventFilter) *JsTransactionTree {
	tx := renderTransaction(e, &TransactionFormat{TransactionShape: ShapeLedgerEffects}, ef)
	if tx == nil {
		return nil
	}
	t := &JsTransactionTree{UpdateID: tx.UpdateID, CommandID: tx.CommandID, WorkflowID: tx.WorkflowID, EffectiveAt: tx.EffectiveAt,
		Offset: tx.Offset, EventsByID: map[string]JsTreeEvent{}, SynchronizerID: tx.SynchronizerID, RecordTime: tx.RecordTime}
	for _, ev := range tx.Events {
		switch {
		case ev.CreatedEvent != nil:
			t.EventsByID[strconv.Itoa(int(ev.CreatedEvent.NodeID))] = JsTreeEvent{CreatedTreeEvent: &Wrapped[JsCreatedEvent]{Value: *ev.CreatedEvent}}
		case ev.ExercisedEvent != nil:
			t.EventsByID[strconv.Itoa(int(ev.ExercisedEvent.NodeID))] = JsTreeEvent{ExercisedTreeEvent: &Wrapped[JsExercisedEvent]{Value: *ev.ExercisedEvent}}
		}
	}
	return t
}

// renderReassignment renders a reassignment entry; with a nil filter the
// reassignment has no events (submit-and-wait without an event format).
func renderReassignment(e *logEntry, ef *eventFilter, always bool) *JsReassignment {
	r := e.Reassign
	out := &JsReassignment{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, Offset: e.Offset,
		Events: []JsReassignmentEvent{}, RecordTime: e.RecordTime, SynchronizerID: e.SynchronizerID}
	if ef != nil {
		c := &r.Contract
		w, m := ef.witnesses(c.stakeholders(), c.TemplateID, c.PackageName)
		if len(w) > 0 {
			if r.Unassign {
				out.Events = append(out.Events, JsReassignmentEvent{JsUnassignedEvent: &Wrapped[JsUnassignedEvent]{Value: JsUnassignedEvent{
					ReassignmentID: r.ReassignmentID, ContractID: c.ContractID, TemplateID: c.TemplateID, Source: r.Source,
					Target: r.Target, Submitter: r.Submitter, ReassignmentCounter: r.Counter, WitnessParties: w,
					PackageName: c.PackageName, Offset: e.Offset, NodeID: 0}}})
			} else {
				out.Events = append(out.Events, JsReassignmentEvent{JsAssignmentEvent: &JsAssignmentEvent{Source: r.Source,
					Target: r.Target, ReassignmentID: r.ReassignmentID, Submitter: r.Submitter, ReassignmentCounter: r.Counter,
					CreatedEvent: *createdEvent(e, c, w, ef, m, true)}})
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

func newRenderer(f UpdateFormat, pk readPackages) *renderer {
	r := &renderer{format: f, ra: newEventFilter(f.IncludeReassignments, pk)}
	if f.IncludeTransactions != nil {
		r.tx = newEventFilter(&f.IncludeTransactions.EventFormat, pk)
	}
	return r
}

// update renders an entry, or returns false when nothing of it is visible.
func (r *renderer) update(e *logEntry) (Update, bool) {
	switch e.Kind {
	case kindTransaction:
		if r.tx != nil {
			if t := renderTransaction(e, r.format.IncludeTransactions, r.tx); t != nil {
				return Update{Transaction: &Wrapped[JsTransaction]{Value: *t}}, true
			}
		}
	case kindReassignment:
		if r.ra != nil {
			if ra := renderReassignment(e, r.ra, false); ra != nil {
				return Update{Reassignment: &Wrapped[JsReassignment]{Value: *ra}}, true
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
				return TreeUpdate{TransactionTree: &Wrapped[JsTransactionTree]{Value: *t}}, true
			}
		}
	case kindReassignment:
		if r.ra != nil {
			if ra := renderReassignment(e, r.ra, false); ra != nil {
				return TreeUpdate{Reassignment: &Wrapped[JsReassignment]{Value: *ra}}, true
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
