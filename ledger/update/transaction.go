package update

import (
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Transactions and their events (Canton's
// com.daml.ledger.api.v2.transaction.proto and event.proto). The node's
// typed reads decode the stored Daml values with the types of its
// packages, so records carry their type id and field labels.

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
