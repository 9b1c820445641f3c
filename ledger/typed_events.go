package ledger

import (
	"encoding/base64"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// The typed read model: transactions and events as Go values, what the
// Ledger API's gRPC services return with verbose values (Canton's
// com.daml.ledger.api.v2.transaction.proto and event.proto). The JSON
// reads (JsTransaction, JsEvent, …) render the stored Daml JSON as it is;
// the typed reads decode it with the types of the node's packages, so
// records carry their type id and field labels. Only typed reads pay for
// that decoding.

// Transaction is a transaction as a reader sees it: the events its format
// selects, in node-id order.
type Transaction struct {
	// UpdateID identifies the transaction; Offset places it in the log.
	UpdateID string
	Offset   int64
	// CommandID and WorkflowID are the submission's (CommandID only for
	// a reader among the submitting parties' users, as in Canton).
	CommandID, WorkflowID string
	// EffectiveAt is the ledger effective time, RecordTime the time the
	// node committed the transaction.
	EffectiveAt, RecordTime time.Time
	// SynchronizerID is the synchronizer the transaction committed on.
	SynchronizerID string
	// Events are *CreatedEvent, *ArchivedEvent (ACS-delta shape) and
	// *ExercisedEvent (ledger-effects shape) values.
	Events []Event
}

// Event is one event of a transaction: a *CreatedEvent, an
// *ArchivedEvent or an *ExercisedEvent (a type switch tells which; no
// other type implements it).
type Event interface {
	// Node returns the event's node id in its transaction.
	Node() int32
	isEvent()
}

// CreatedEvent is the creation of a contract.
type CreatedEvent struct {
	// Offset is the offset of the transaction that created the contract.
	Offset int64
	// NodeID is the create's node id in that transaction.
	NodeID int32
	// ContractID and TemplateID name the contract and its template (the
	// package the contract was created with); PackageName is that
	// package's name.
	ContractID  value.ContractID
	TemplateID  lf.TypeConID
	PackageName string
	// Argument is the contract's argument, a record of the template's
	// type; Key is its contract key, nil when the template has none.
	Argument value.Value
	Key      value.Value
	// Blob is the created-event blob (for explicit disclosure), when the
	// format asks for it.
	Blob []byte
	// InterfaceViews are the views the format's interface filters ask
	// for.
	InterfaceViews []InterfaceView
	// Signatories and Observers are the contract's stakeholders;
	// WitnessParties are the reading parties that see the create.
	Signatories, Observers, WitnessParties []string
	// CreatedAt is the ledger effective time of the create.
	CreatedAt time.Time
	// ACSDelta reports whether the create changes the active contracts
	// of a witness (false for a transient contract and for a witness that
	// is not a stakeholder).
	ACSDelta bool
}

// InterfaceView is the view of a created contract for an interface a
// filter names: Value when it could be computed, Err otherwise.
type InterfaceView struct {
	InterfaceID lf.TypeConID
	// Value is the view, of the interface's view type.
	Value value.Value
	// ImplementationPackageID is the package whose implementation
	// computed the view.
	ImplementationPackageID string
	// Err says why the view could not be computed.
	Err *ViewError
}

// ViewError is the status of an interface view that could not be
// computed: Canton's error message and its gRPC status code.
type ViewError struct {
	Code    int32
	Message string
}

// Error returns the view's error message.
func (e *ViewError) Error() string { return e.Message }

// ArchivedEvent is the archival of a contract (ACS-delta shape).
type ArchivedEvent struct {
	Offset      int64
	NodeID      int32
	ContractID  value.ContractID
	TemplateID  lf.TypeConID
	PackageName string
	// WitnessParties are the reading parties among the stakeholders.
	WitnessParties []string
	// ImplementedInterfaces are the interfaces of the format's interface
	// filters (with views asked for) that the template implements.
	ImplementedInterfaces []lf.TypeConID
}

// ExercisedEvent is the exercise of a choice (ledger-effects shape).
type ExercisedEvent struct {
	Offset      int64
	NodeID      int32
	ContractID  value.ContractID
	TemplateID  lf.TypeConID
	PackageName string
	// InterfaceID is the interface of an interface choice, else nil.
	InterfaceID *lf.TypeConID
	Choice      string
	// Argument is the choice argument; Result the choice's result (nil
	// on events written before the engine ran, which stored none).
	Argument, Result value.Value
	ActingParties    []string
	Consuming        bool
	WitnessParties   []string
	// LastDescendantNodeID is the id of the last node of the exercise's
	// subtree.
	LastDescendantNodeID int32
	// ImplementedInterfaces: see ArchivedEvent (consuming exercises).
	ImplementedInterfaces []lf.TypeConID
	// ACSDelta reports whether the exercise archives a contract that
	// existed before the transaction, seen by a stakeholder.
	ACSDelta bool
}

// Node returns the event's node id.
func (e *CreatedEvent) Node() int32 { return e.NodeID }

// Node returns the event's node id.
func (e *ArchivedEvent) Node() int32 { return e.NodeID }

// Node returns the event's node id.
func (e *ExercisedEvent) Node() int32 { return e.NodeID }

func (*CreatedEvent) isEvent()   {}
func (*ArchivedEvent) isEvent()  {}
func (*ExercisedEvent) isEvent() {}

// typedDecoder decodes the rendered (JSON) events of one read into typed
// events. The rendering decided what a reader sees (eventFilter), so the
// typed reads apply the same rules; the decoding only adds the types of
// the values, from the node's packages.
type typedDecoder struct {
	lookup func(pkgID string) *lf.Package
}

func (d typedDecoder) transaction(t *JsTransaction) (*Transaction, error) {
	eff, err := parseTime(t.EffectiveAt)
	if err != nil {
		return nil, err
	}
	rec, err := parseTime(t.RecordTime)
	if err != nil {
		return nil, err
	}
	out := &Transaction{UpdateID: t.UpdateID, Offset: t.Offset, CommandID: t.CommandID, WorkflowID: t.WorkflowID,
		EffectiveAt: eff, RecordTime: rec, SynchronizerID: t.SynchronizerID, Events: make([]Event, 0, len(t.Events))}
	for _, e := range t.Events {
		var ev Event
		switch {
		case e.CreatedEvent != nil:
			ev, err = d.created(e.CreatedEvent)
		case e.ArchivedEvent != nil:
			ev, err = d.archived(e.ArchivedEvent)
		case e.ExercisedEvent != nil:
			ev, err = d.exercised(e.ExercisedEvent)
		}
		if err != nil {
			return nil, err
		}
		out.Events = append(out.Events, ev)
	}
	return out, nil
}

func (d typedDecoder) created(e *JsCreatedEvent) (*CreatedEvent, error) {
	tc, err := splitTypeCon(e.TemplateID)
	if err != nil {
		return nil, fmt.Errorf("event %d: template id: %w", e.NodeID, err)
	}
	out := &CreatedEvent{Offset: e.Offset, NodeID: e.NodeID, ContractID: value.ContractID(e.ContractID), TemplateID: tc,
		PackageName: e.PackageName, Signatories: e.Signatories, Observers: e.Observers, WitnessParties: e.WitnessParties,
		ACSDelta: e.ACSDelta}
	if out.CreatedAt, err = parseTime(e.CreatedAt); err != nil {
		return nil, err
	}
	if out.Argument, err = value.FromJSON(e.CreateArgument, value.TypeOf(tc.PackageID, tc.Module, tc.Name), d.lookup); err != nil {
		return nil, fmt.Errorf("event %d: argument: %w", e.NodeID, err)
	}
	if len(e.ContractKey) > 0 && string(e.ContractKey) != "null" {
		var t *lf.Template
		if p := d.lookup(tc.PackageID); p != nil {
			t = p.Template(tc.Module, tc.Name)
		}
		if t == nil || t.Key == nil {
			return nil, fmt.Errorf("event %d: %s has no key", e.NodeID, e.TemplateID)
		}
		if out.Key, err = value.FromJSON(e.ContractKey, t.Key.Type, d.lookup); err != nil {
			return nil, fmt.Errorf("event %d: key: %w", e.NodeID, err)
		}
	}
	if e.CreatedEventBlob != "" {
		if out.Blob, err = base64.StdEncoding.DecodeString(e.CreatedEventBlob); err != nil {
			return nil, fmt.Errorf("event %d: blob: %w", e.NodeID, err)
		}
	}
	for _, a := range e.InterfaceViews {
		jv, ok := a.(JsInterfaceView)
		if !ok {
			continue
		}
		iid, err := splitTypeCon(jv.InterfaceID)
		if err != nil {
			return nil, fmt.Errorf("event %d: interface id: %w", e.NodeID, err)
		}
		v := InterfaceView{InterfaceID: iid, ImplementationPackageID: jv.ImplementationPackageID}
		if jv.ViewStatus.Code != 0 {
			v.Err = &ViewError{Code: jv.ViewStatus.Code, Message: jv.ViewStatus.Message}
		} else {
			i := d.iface(iid)
			if i == nil {
				return nil, fmt.Errorf("event %d: interface %s is unknown", e.NodeID, jv.InterfaceID)
			}
			if v.Value, err = value.FromJSON(jv.ViewValue, i.View, d.lookup); err != nil {
				return nil, fmt.Errorf("event %d: view: %w", e.NodeID, err)
			}
		}
		out.InterfaceViews = append(out.InterfaceViews, v)
	}
	return out, nil
}

func (d typedDecoder) archived(e *JsArchivedEvent) (*ArchivedEvent, error) {
	tc, err := splitTypeCon(e.TemplateID)
	if err != nil {
		return nil, fmt.Errorf("event %d: template id: %w", e.NodeID, err)
	}
	ifaces, err := typeConIDs(e.ImplementedInterfaces)
	if err != nil {
		return nil, fmt.Errorf("event %d: %w", e.NodeID, err)
	}
	return &ArchivedEvent{Offset: e.Offset, NodeID: e.NodeID, ContractID: value.ContractID(e.ContractID), TemplateID: tc,
		PackageName: e.PackageName, WitnessParties: e.WitnessParties, ImplementedInterfaces: ifaces}, nil
}

func (d typedDecoder) exercised(e *JsExercisedEvent) (*ExercisedEvent, error) {
	tc, err := splitTypeCon(e.TemplateID)
	if err != nil {
		return nil, fmt.Errorf("event %d: template id: %w", e.NodeID, err)
	}
	out := &ExercisedEvent{Offset: e.Offset, NodeID: e.NodeID, ContractID: value.ContractID(e.ContractID), TemplateID: tc,
		PackageName: e.PackageName, Choice: e.Choice, ActingParties: e.ActingParties, Consuming: e.Consuming,
		WitnessParties: e.WitnessParties, LastDescendantNodeID: e.LastDescendantNodeID, ACSDelta: e.ACSDelta}
	if out.ImplementedInterfaces, err = typeConIDs(e.ImplementedInterfaces); err != nil {
		return nil, fmt.Errorf("event %d: %w", e.NodeID, err)
	}
	var ch *lf.Choice
	if e.InterfaceID != nil {
		iid, err := splitTypeCon(*e.InterfaceID)
		if err != nil {
			return nil, fmt.Errorf("event %d: interface id: %w", e.NodeID, err)
		}
		out.InterfaceID = &iid
		if i := d.iface(iid); i != nil {
			ch = i.Choice(e.Choice)
		}
	} else if p := d.lookup(tc.PackageID); p != nil {
		ch = p.Choice(tc.Module, tc.Name, e.Choice)
	}
	if ch == nil {
		return nil, fmt.Errorf("event %d: choice %s of %s is unknown", e.NodeID, e.Choice, e.TemplateID)
	}
	if out.Argument, err = value.FromJSON(e.ChoiceArgument, ch.ArgType, d.lookup); err != nil {
		return nil, fmt.Errorf("event %d: choice argument: %w", e.NodeID, err)
	}
	// "null" is an Optional result's None, or no stored result.
	if len(e.ExerciseResult) > 0 {
		r, err := value.FromJSON(e.ExerciseResult, ch.ReturnType, d.lookup)
		switch {
		case err == nil:
			out.Result = r
		case string(e.ExerciseResult) != "null":
			return nil, fmt.Errorf("event %d: exercise result: %w", e.NodeID, err)
		}
	}
	return out, nil
}

// iface returns an interface definition, nil when unknown.
func (d typedDecoder) iface(id lf.TypeConID) *lf.Interface {
	if p := d.lookup(id.PackageID); p != nil {
		return p.Interface(id.Module, id.Name)
	}
	return nil
}

func typeConIDs(ss []string) ([]lf.TypeConID, error) {
	if len(ss) == 0 {
		return nil, nil
	}
	out := make([]lf.TypeConID, len(ss))
	for i, s := range ss {
		id, err := splitTypeCon(s)
		if err != nil {
			return nil, fmt.Errorf("interface id %q: %w", s, err)
		}
		out[i] = id
	}
	return out, nil
}

// parseTime reads a time the log stores as text (formatTime).
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}
