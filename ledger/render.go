package ledger

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The typed renderer: the stored form of an update (log.go) as typed
// events, for the events the shared visibility pass selects
// (visibleEvents, visibleReassignment, visibleTopology, the eventFilter's
// witnesses, blobs and views). Values are decoded from the stored
// Daml JSON with the types of the node's packages; the types, parsed ids
// and times are looked up once per template (and per time string) for
// the whole read.

// typedRenderer renders log entries as typed updates for one read (one
// goroutine).
type typedRenderer struct {
	lookup func(pkgID string) *lf.Package
	// templates caches what the renderer needs of a stored template id.
	templates map[string]*templateTypes
	// lastTime and lastParsed cache the last time parsed (the events of
	// a transaction share theirs); lastTime is a copy, as the entry's
	// string may be lent.
	lastTime   []byte
	lastParsed time.Time
	// stored keeps values as their stored JSON (rawjson.Value).
	stored bool
	// The events and transactions of a read are carved out of chunks,
	// one allocation for many instead of one each; a chunk holds few
	// enough that an event kept long after its read keeps little else
	// alive, and the first ones fewer (a read of one update).
	createdSlab slab[update.CreatedEvent]
	txSlab      slab[update.Transaction]
	eventSlab   slab[update.Event]
	// valueSlab holds the stored values (a pointer in an interface is
	// not boxed: one allocation for many values instead of one each).
	valueSlab slab[rawjson.Value]
	// lend says each update rendered is lent to the read's caller, who
	// is done with it before the next: the slabs hand out their last
	// chunk's elements again for each update (an update of up to
	// slabChunk events allocates none once the chunks have grown; a
	// larger one still takes new chunks).
	lend bool
}

// slabChunk is how many elements a chunk of the renderer's slabs holds
// at most (events: four times as many).
const slabChunk = 32

// slab hands out the elements of chunks that double from 2 to slabChunk.
type slab[T any] struct {
	chunk []T // the last chunk
	free  []T // its elements not handed out
	last  int // the size of the last chunk
}

// grow replaces the free elements with a new chunk of at least n.
func (s *slab[T]) grow(n, most int) {
	s.last = max(n, min(2*s.last, most), 2)
	s.chunk = make([]T, s.last)
	s.free = s.chunk
}

// reuse hands out the last chunk's elements again, zeroed: for a caller
// done with every element handed out (a lent read's last update).
func (s *slab[T]) reuse() {
	clear(s.chunk[:len(s.chunk)-len(s.free)])
	s.free = s.chunk
}

// new returns a new zero element.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.grow(1, slabChunk)
	}
	e := &s.free[0]
	s.free = s.free[1:]
	return e
}

// eventsFor returns an empty slice with room for the events of n nodes,
// out of the events' slab when n is small; keepEvents takes the events
// used from the slab.
func (r *typedRenderer) eventsFor(n int) []update.Event {
	if n > slabChunk {
		return make([]update.Event, 0, n)
	}
	if len(r.eventSlab.free) < n {
		r.eventSlab.grow(n, 4*slabChunk)
	}
	return r.eventSlab.free[:0:n]
}

// keepEvents takes events (eventsFor(n)) out of the slab, their
// capacity capped at their length: a caller appending to a
// transaction's events does not write over the next one's.
func (r *typedRenderer) keepEvents(events []update.Event, n int) []update.Event {
	if n <= slabChunk {
		r.eventSlab.free = r.eventSlab.free[len(events):]
	}
	return events[:len(events):len(events)]
}

// templateTypes is what rendering needs of one stored template id: the
// parsed id, the argument and key types, and the choices met so far.
type templateTypes struct {
	id      lf.TypeConID
	arg     lf.Type
	tmpl    *lf.Template
	choices map[string]*lf.Choice
}

func (n *Node) typedRenderer() *typedRenderer {
	return &typedRenderer{lookup: n.cachedPackage, templates: map[string]*templateTypes{}}
}

// typedRendererFor is the renderer of a read with ctx: one keeping
// stored values when ctx asks for them.
func (n *Node) typedRendererFor(ctx context.Context) *typedRenderer {
	r := n.typedRenderer()
	r.stored = rawjson.StoredValues(ctx)
	return r
}

// storedValue is a stored value as a typed event holds it in a read of
// stored values: nil for none (no bytes, or null where the typed read
// has no value), else a *rawjson.Value out of the renderer's slab.
func (r *typedRenderer) storedValue(raw []byte) value.Value {
	if len(raw) == 0 {
		return nil
	}
	v := r.valueSlab.new()
	v.JSON = raw
	return v
}

// decodeErr reports a stored event that could not be decoded.
func decodeErr(err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apierr.InternalError.Wrap(err, "decoding a stored event")
}

func (r *typedRenderer) template(tid string) (*templateTypes, error) {
	if t, ok := r.templates[tid]; ok {
		return t, nil
	}
	id, err := splitTypeCon(tid)
	if err != nil {
		return nil, fmt.Errorf("template id %q: %w", tid, err)
	}
	t := &templateTypes{id: id, arg: value.TypeOf(id.PackageID, id.Module, id.Name)}
	if p := r.lookup(id.PackageID); p != nil {
		t.tmpl = p.Template(id.Module, id.Name)
	}
	r.templates[tid] = t
	return t, nil
}

func (r *typedRenderer) time(s string) (time.Time, error) {
	if s != "" && string(r.lastTime) == s {
		return r.lastParsed, nil
	}
	t, err := parseTime(s)
	if err != nil {
		return t, err
	}
	r.lastTime, r.lastParsed = append(r.lastTime[:0], s...), t
	return t, nil
}

// iface returns an interface definition, nil when unknown.
func (r *typedRenderer) iface(id lf.TypeConID) *lf.Interface {
	if p := r.lookup(id.PackageID); p != nil {
		return p.Interface(id.Module, id.Name)
	}
	return nil
}

// choice returns the definition of an exercised choice (of the interface
// when iface is set).
func (r *typedRenderer) choice(t *templateTypes, iface *lf.TypeConID, name string) *lf.Choice {
	if iface != nil {
		if i := r.iface(*iface); i != nil {
			return i.Choice(name)
		}
		return nil
	}
	if c, ok := t.choices[name]; ok {
		return c
	}
	var c *lf.Choice
	if p := r.lookup(t.id.PackageID); p != nil {
		c = p.Choice(t.id.Module, t.id.Name, name)
	}
	if t.choices == nil {
		t.choices = map[string]*lf.Choice{}
	}
	t.choices[name] = c
	return c
}

// transaction renders a transaction entry in a shape; nil when no event
// is visible.
func (r *typedRenderer) transaction(e *logEntry, effects bool, ef *eventFilter) (*update.Transaction, error) {
	events := r.eventsFor(len(e.Nodes))
	err := visibleEvents(e, effects, ef, nil, func(k eventKind, n *txNode, w []string, m filterMatch, acs bool) error {
		var ev update.Event
		var err error
		switch k {
		case evCreated:
			ev, err = r.created(e.Offset, e.SynchronizerID, n, w, ef, m, acs)
		case evExercised:
			ev, err = r.exercised(e.Offset, n, w, m, acs)
		case evArchived:
			ev, err = r.archived(e.Offset, n, w, m)
		}
		if err != nil {
			return fmt.Errorf("event %d: %w", n.ID, err)
		}
		events = append(events, ev)
		return nil
	})
	if err != nil || len(events) == 0 {
		return nil, err
	}
	t := r.txSlab.new()
	*t = update.Transaction{UpdateID: e.UpdateID, Offset: e.Offset, CommandID: e.CommandID, WorkflowID: e.WorkflowID,
		SynchronizerID: e.SynchronizerID, Events: r.keepEvents(events, len(e.Nodes))}
	if t.EffectiveAt, err = r.time(e.EffectiveAt); err != nil {
		return nil, err
	}
	if t.RecordTime, err = parseTime(e.RecordTime); err != nil {
		return nil, err
	}
	return t, nil
}

// created renders a create node for witnesses w (offset and sync are
// those of the update, or of the contract's create for the ACS).
func (r *typedRenderer) created(offset int64, sync string, n *txNode, w []string, ef *eventFilter, m filterMatch, acs bool) (*update.CreatedEvent, error) {
	t, err := r.template(n.TemplateID)
	if err != nil {
		return nil, err
	}
	out := r.createdSlab.new()
	*out = update.CreatedEvent{Offset: offset, NodeID: n.ID, ContractID: value.ContractID(n.ContractID), TemplateID: t.id,
		PackageName: n.PackageName, Signatories: n.Signatories, Observers: n.Observers, WitnessParties: w, ACSDelta: acs}
	if out.CreatedAt, err = r.time(n.CreatedAt); err != nil {
		return nil, err
	}
	if out.Argument, out.Key, err = r.createValues(t, n); err != nil {
		return nil, err
	}
	if ef == nil {
		return out, nil
	}
	if m.blob && ef.pk != nil {
		if b := ef.pk.contractBlob(n); b != "" {
			if out.Blob, err = base64.StdEncoding.DecodeString(b); err != nil {
				return nil, fmt.Errorf("blob: %w", err)
			}
		}
	}
	if len(m.ifaces) > 0 {
		for _, v := range ef.views(n, m, sync) {
			iv := update.InterfaceView{InterfaceID: v.iface, ImplementationPackageID: v.impl}
			if v.err != nil {
				iv = update.InterfaceView{InterfaceID: v.iface, Err: statusOf(v.err)}
			} else if r.stored {
				iv.Value = r.storedValue(v.value)
			} else {
				i := r.iface(v.iface)
				if i == nil {
					return nil, fmt.Errorf("interface %s is unknown", v.iface)
				}
				if iv.Value, err = value.FromJSON(v.value, i.View, r.lookup); err != nil {
					return nil, fmt.Errorf("view: %w", err)
				}
			}
			out.InterfaceViews = append(out.InterfaceViews, iv)
		}
	}
	return out, nil
}

// createValues returns a create's argument and key (nil when it has
// none), decoded or stored.
func (r *typedRenderer) createValues(t *templateTypes, n *txNode) (arg, key value.Value, err error) {
	noKey := len(n.Key) == 0 || string(n.Key) == "null"
	if r.stored {
		if !noKey {
			key = r.storedValue(n.Key)
		}
		return r.storedValue(n.Argument), key, nil
	}
	if arg, err = value.FromJSON(n.Argument, t.arg, r.lookup); err != nil {
		return nil, nil, fmt.Errorf("argument: %w", err)
	}
	if noKey {
		return arg, nil, nil
	}
	if t.tmpl == nil || t.tmpl.Key == nil {
		return nil, nil, fmt.Errorf("%s has no key", n.TemplateID)
	}
	if key, err = value.FromJSON(n.Key, t.tmpl.Key.Type, r.lookup); err != nil {
		return nil, nil, fmt.Errorf("key: %w", err)
	}
	return arg, key, nil
}

func (r *typedRenderer) archived(offset int64, n *txNode, w []string, m filterMatch) (*update.ArchivedEvent, error) {
	t, err := r.template(n.TemplateID)
	if err != nil {
		return nil, err
	}
	return &update.ArchivedEvent{Offset: offset, NodeID: n.ID, ContractID: value.ContractID(n.ContractID), TemplateID: t.id,
		PackageName: n.PackageName, WitnessParties: w, ImplementedInterfaces: m.implementedIDs()}, nil
}

func (r *typedRenderer) exercised(offset int64, n *txNode, w []string, m filterMatch, acs bool) (*update.ExercisedEvent, error) {
	t, err := r.template(n.TemplateID)
	if err != nil {
		return nil, err
	}
	out := &update.ExercisedEvent{Offset: offset, NodeID: n.ID, ContractID: value.ContractID(n.ContractID), TemplateID: t.id,
		PackageName: n.PackageName, Choice: n.Choice, ActingParties: n.Acting, Consuming: n.Consuming,
		WitnessParties: w, LastDescendantNodeID: n.lastDescendant(), ACSDelta: acs}
	if n.Consuming {
		out.ImplementedInterfaces = m.implementedIDs()
	}
	if n.InterfaceID != "" {
		iid, err := splitTypeCon(n.InterfaceID)
		if err != nil {
			return nil, fmt.Errorf("interface id: %w", err)
		}
		out.InterfaceID = &iid
	}
	if r.stored {
		out.Argument, out.Result = r.storedValue(n.Argument), r.storedValue(n.Result)
		return out, nil
	}
	ch := r.choice(t, out.InterfaceID, n.Choice)
	if ch == nil {
		return nil, fmt.Errorf("choice %s of %s is unknown", n.Choice, n.TemplateID)
	}
	if out.Argument, err = value.FromJSON(n.Argument, ch.ArgType, r.lookup); err != nil {
		return nil, fmt.Errorf("choice argument: %w", err)
	}
	// "null" is an Optional result's None, or no stored result.
	if len(n.Result) > 0 {
		v, err := value.FromJSON(n.Result, ch.ReturnType, r.lookup)
		switch {
		case err == nil:
			out.Result = v
		case string(n.Result) != "null":
			return nil, fmt.Errorf("exercise result: %w", err)
		}
	}
	return out, nil
}

// reassignment renders a reassignment entry; nil when the filter shows
// nothing of it.
func (r *typedRenderer) reassignment(e *logEntry, ef *eventFilter) (*update.Reassignment, error) {
	w, m := visibleReassignment(e, ef)
	if len(w) == 0 {
		return nil, nil
	}
	ra := e.Reassign
	out := &update.Reassignment{UpdateID: e.UpdateID, Offset: e.Offset, CommandID: e.CommandID, WorkflowID: e.WorkflowID,
		SynchronizerID: e.SynchronizerID}
	var err error
	if out.RecordTime, err = parseTime(e.RecordTime); err != nil {
		return nil, err
	}
	c := &ra.Contract
	if ra.Unassign {
		t, err := r.template(c.TemplateID)
		if err != nil {
			return nil, err
		}
		out.Events = []update.ReassignmentEvent{&update.UnassignedEvent{Offset: e.Offset, ReassignmentID: ra.ReassignmentID,
			ContractID: value.ContractID(c.ContractID), TemplateID: t.id, PackageName: c.PackageName, Source: ra.Source,
			Target: ra.Target, Submitter: ra.Submitter, ReassignmentCounter: ra.Counter, WitnessParties: w}}
		return out, nil
	}
	ev, err := r.created(e.Offset, e.SynchronizerID, c, w, ef, m, true)
	if err != nil {
		return nil, err
	}
	out.Events = []update.ReassignmentEvent{&update.AssignedEvent{Source: ra.Source, Target: ra.Target, Submitter: ra.Submitter,
		ReassignmentID: ra.ReassignmentID, ReassignmentCounter: ra.Counter, Created: ev}}
	return out, nil
}

// topology renders a topology entry for the parties want (none: all);
// nil when none of its events is about them.
func (r *typedRenderer) topology(e *logEntry, want []string) (*update.TopologyTransaction, error) {
	events := visibleTopology(e, want)
	if len(events) == 0 {
		return nil, nil
	}
	out := &update.TopologyTransaction{UpdateID: e.UpdateID, Offset: e.Offset, SynchronizerID: e.SynchronizerID}
	var err error
	if out.RecordTime, err = parseTime(e.RecordTime); err != nil {
		return nil, err
	}
	for _, t := range events {
		var v *wrapped[participantAuthorization]
		var change update.AuthorizationChange
		switch k := t.Event; {
		case k.ParticipantAuthorizationAdded != nil:
			v, change = k.ParticipantAuthorizationAdded, update.AuthorizationAdded
		case k.ParticipantAuthorizationChanged != nil:
			v, change = k.ParticipantAuthorizationChanged, update.AuthorizationChanged
		default:
			v, change = k.ParticipantAuthorizationRevoked, update.AuthorizationRevoked
		}
		out.Events = append(out.Events, update.PartyAuthorization{Change: change, PartyID: v.Value.PartyID,
			ParticipantID: v.Value.ParticipantID, Permission: v.Value.ParticipantPermission})
	}
	return out, nil
}

// update renders an entry for an update format (rd holds its filters);
// nil when nothing of it is visible.
func (r *typedRenderer) update(e *logEntry, rd *renderer) (update.Update, error) {
	if r.lend {
		r.createdSlab.reuse()
		r.txSlab.reuse()
		r.eventSlab.reuse()
		r.valueSlab.reuse()
	}
	switch e.Kind {
	case kindTransaction:
		if rd.tx != nil {
			if t, err := r.transaction(e, rd.format.Tx.effects(), rd.tx); t != nil || err != nil {
				return t, err
			}
		}
	case kindReassignment:
		if rd.ra != nil {
			if ra, err := r.reassignment(e, rd.ra); ra != nil || err != nil {
				return ra, err
			}
		}
	case kindTopology:
		if rd.format.TopoAuth {
			if t, err := r.topology(e, rd.format.TopoParties); t != nil || err != nil {
				return t, err
			}
		}
	}
	return nil, nil
}
