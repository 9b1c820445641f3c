package ledger

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Rendering: the stored form of an update (log.go) as a reader sees it in
// the JSON API's shapes, with the events the reader's filter keeps.

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

// eventKind is the kind of a visible event of a transaction.
type eventKind uint8

const (
	evCreated eventKind = iota
	evExercised
	evArchived
)

// visibleEvents is the one place that decides what a reader sees of a
// transaction entry in a shape: it calls fn, in node order, for each
// event the filter shows, with its witnesses, what their filters ask for
// (blob, interface views) and its acsDelta. The JSON renderer
// (renderTransactionIn) and the typed one (typedRenderer.transaction) emit
// what it selects.
func visibleEvents(e *logEntry, effects bool, ef *eventFilter, fn func(k eventKind, n *txNode, w []string, m filterMatch, acs bool) error) error {
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
				if err := fn(evCreated, n, w, m, !n.Transient && intersects(w, sh)); err != nil {
					return err
				}
			}
		case effects:
			w, m := ef.witnesses(n.witnesses(), n.TemplateID, n.PackageName)
			if len(w) > 0 {
				if err := fn(evExercised, n, w, m, n.archives(e) && intersects(w, n.Stakeholders)); err != nil {
					return err
				}
			}
		case n.archives(e):
			w, m := ef.witnesses(n.Stakeholders, n.TemplateID, n.PackageName)
			if len(w) > 0 {
				if err := fn(evArchived, n, w, m, true); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// renderTransactionIn renders a transaction entry in the ledger-effects
// shape (effects) or the ACS-delta one; nil when no event is visible.
func renderTransactionIn(e *logEntry, effects bool, ef *eventFilter) *JsTransaction {
	var events []JsEvent
	_ = visibleEvents(e, effects, ef, func(k eventKind, n *txNode, w []string, m filterMatch, acs bool) error {
		switch k {
		case evCreated:
			events = append(events, JsEvent{CreatedEvent: createdEvent(e, n, w, ef, m, acs)})
		case evExercised:
			ev := exercisedEvent(e, n, w)
			ev.ACSDelta = acs
			if n.Consuming {
				ev.ImplementedInterfaces = m.implemented()
			}
			events = append(events, JsEvent{ExercisedEvent: ev})
		case evArchived:
			events = append(events, JsEvent{ArchivedEvent: &JsArchivedEvent{Offset: e.Offset, NodeID: n.ID,
				ContractID: n.ContractID, TemplateID: n.TemplateID, WitnessParties: w, PackageName: n.PackageName,
				ImplementedInterfaces: m.implemented()}})
		}
		return nil
	})
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
	tx := renderTransactionIn(e, true, ef)
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

// visibleReassignment returns the witnesses of a reassignment entry's
// contract that the filter shows it to, and what their filters ask for
// (shared by the JSON and typed renderers).
func visibleReassignment(e *logEntry, ef *eventFilter) ([]string, filterMatch) {
	c := &e.Reassign.Contract
	return ef.witnesses(c.stakeholders(), c.TemplateID, c.PackageName)
}

// renderReassignment renders a reassignment entry; with a nil filter the
// reassignment has no events (submit-and-wait without an event format).
func renderReassignment(e *logEntry, ef *eventFilter, always bool) *JsReassignment {
	r := e.Reassign
	out := &JsReassignment{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, Offset: e.Offset,
		Events: []JsReassignmentEvent{}, RecordTime: e.RecordTime, SynchronizerID: e.SynchronizerID}
	if ef != nil {
		c := &r.Contract
		if w, m := visibleReassignment(e, ef); len(w) > 0 {
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

// visibleTopology returns the events of a topology entry about the
// parties want (none: all), shared by the JSON and typed renderers.
func visibleTopology(e *logEntry, want []string) []TopologyEvent {
	var events []TopologyEvent
	for _, t := range e.Topology {
		for _, v := range []*Wrapped[ParticipantAuthorization]{t.Event.ParticipantAuthorizationAdded,
			t.Event.ParticipantAuthorizationChanged, t.Event.ParticipantAuthorizationRevoked} {
			if v != nil && (len(want) == 0 || slices.Contains(want, v.Value.PartyID)) {
				events = append(events, t)
			}
		}
	}
	return events
}

// renderTopology renders a topology entry for the requested parties (none:
// all) when the format asks for participant authorization events.
func renderTopology(e *logEntry, f *updateSpec) *TopologyTransaction {
	if !f.TopoAuth {
		return nil
	}
	events := visibleTopology(e, f.TopoParties)
	if len(events) == 0 {
		return nil
	}
	return &TopologyTransaction{UpdateID: e.UpdateID, Offset: e.Offset, SynchronizerID: e.SynchronizerID,
		RecordTime: e.RecordTime, Events: events}
}

// renderer turns log entries into updates for one format.
type renderer struct {
	format updateSpec
	tx     *eventFilter
	ra     *eventFilter
}

func newRenderer(f updateSpec, pk readPackages) *renderer {
	r := &renderer{format: f, ra: newSpecFilter(f.Ra, pk)}
	if f.Tx != nil {
		r.tx = newSpecFilter(&f.Tx.Events, pk)
	}
	return r
}

// update renders an entry, or returns false when nothing of it is visible.
func (r *renderer) update(e *logEntry) (Update, bool) {
	switch e.Kind {
	case kindTransaction:
		if r.tx != nil {
			if t := renderTransactionIn(e, r.format.Tx.effects(), r.tx); t != nil {
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
		if t := renderTopology(e, &r.format); t != nil {
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
func (f *updateSpec) readingParties() (parties []string, anyParty bool) {
	add := func(ef *eventSpec) {
		if ef == nil {
			return
		}
		if ef.HasAny {
			anyParty = true
		}
		for p := range ef.ByParty {
			parties = append(parties, p)
		}
	}
	if f.Tx != nil {
		add(&f.Tx.Events)
	}
	add(f.Ra)
	if f.TopoAuth {
		if len(f.TopoParties) == 0 {
			anyParty = true
		}
		parties = append(parties, f.TopoParties...)
	}
	return union(parties), anyParty
}
