package ledger

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// Visibility: which parts of a stored update (log.go) a reader sees, with
// the events the reader's filter keeps; render.go renders them.

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
// (blob, interface views) and its acsDelta. The typed renderer
// (typedRenderer.transaction) emits what it selects. With scratch, a
// create's stakeholders are built in it when they must be (the wire
// page's, whose fn is done with w when it returns); without, each is
// allocated, as the typed events keep their witnesses.
func visibleEvents(e *logEntry, effects bool, ef *eventFilter, scratch *[]string, fn func(k eventKind, n *txNode, w []string, m filterMatch, acs bool) error) error {
	for i := range e.Nodes {
		n := &e.Nodes[i]
		switch {
		case !n.Exercise:
			if !effects && n.Transient {
				continue
			}
			// A create is seen by its stakeholders, and in ledger
			// effects by the witnesses stored when they are more.
			var sh []string
			if scratch != nil {
				*scratch = n.stakeholdersInto(*scratch)
				sh = (*scratch)[:len(*scratch):len(*scratch)]
			} else {
				sh = n.stakeholders()
			}
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

func transientContract(e *logEntry, cid string) bool {
	for i := range e.Nodes {
		if !e.Nodes[i].Exercise && e.Nodes[i].ContractID == cid {
			return e.Nodes[i].Transient
		}
	}
	return false
}

// visibleReassignment returns the witnesses of a reassignment entry's
// contract that the filter shows it to, and what their filters ask for.
func visibleReassignment(e *logEntry, ef *eventFilter) ([]string, filterMatch) {
	c := &e.Reassign.Contract
	return ef.witnesses(c.stakeholders(), c.TemplateID, c.PackageName)
}

// visibleTopology returns the events of a topology entry about the
// parties want (none: all).
func visibleTopology(e *logEntry, want []string) []topologyEvent {
	var events []topologyEvent
	for _, t := range e.Topology {
		for _, v := range t.Event.authorizations() {
			if v != nil && (len(want) == 0 || slices.Contains(want, v.Value.PartyID)) {
				events = append(events, t)
			}
		}
	}
	return events
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
