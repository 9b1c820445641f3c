package ledger

import "encoding/json"

// CreatedEvent is a contract creation as the JSON API shows it.
type CreatedEvent struct {
	Offset                  int64           `json:"offset"`
	NodeID                  int32           `json:"nodeId"`
	ContractID              string          `json:"contractId"`
	TemplateID              string          `json:"templateId"`
	ContractKey             json.RawMessage `json:"contractKey"`
	ContractKeyHash         string          `json:"contractKeyHash"`
	CreateArgument          json.RawMessage `json:"createArgument"`
	CreatedEventBlob        string          `json:"createdEventBlob"`
	InterfaceViews          []any           `json:"interfaceViews"`
	WitnessParties          []string        `json:"witnessParties"`
	Signatories             []string        `json:"signatories"`
	Observers               []string        `json:"observers"`
	CreatedAt               string          `json:"createdAt"`
	PackageName             string          `json:"packageName"`
	RepresentativePackageID string          `json:"representativePackageId"`
	ACSDelta                bool            `json:"acsDelta"`
}

// ArchivedEvent is a contract archival (ACS-delta shape).
type ArchivedEvent struct {
	Offset                int64    `json:"offset"`
	NodeID                int32    `json:"nodeId"`
	ContractID            string   `json:"contractId"`
	TemplateID            string   `json:"templateId"`
	WitnessParties        []string `json:"witnessParties"`
	PackageName           string   `json:"packageName"`
	ImplementedInterfaces []string `json:"implementedInterfaces"`
}

// ExercisedEvent is a choice exercise (ledger-effects shape): the choice
// argument and its result as Daml JSON, the controllers, and the node id
// of the last node of the choice's subtree.
type ExercisedEvent struct {
	Offset                int64           `json:"offset"`
	NodeID                int32           `json:"nodeId"`
	ContractID            string          `json:"contractId"`
	TemplateID            string          `json:"templateId"`
	InterfaceID           *string         `json:"interfaceId"`
	Choice                string          `json:"choice"`
	ChoiceArgument        json.RawMessage `json:"choiceArgument"`
	ActingParties         []string        `json:"actingParties"`
	Consuming             bool            `json:"consuming"`
	WitnessParties        []string        `json:"witnessParties"`
	LastDescendantNodeID  int32           `json:"lastDescendantNodeId"`
	ExerciseResult        json.RawMessage `json:"exerciseResult"`
	PackageName           string          `json:"packageName"`
	ImplementedInterfaces []string        `json:"implementedInterfaces"`
	ACSDelta              bool            `json:"acsDelta"`
}

// Event is one event of a transaction: {"CreatedEvent": {…}},
// {"ArchivedEvent": {…}} or {"ExercisedEvent": {…}} (no value layer).
type Event struct {
	CreatedEvent   *CreatedEvent   `json:"CreatedEvent,omitempty"`
	ArchivedEvent  *ArchivedEvent  `json:"ArchivedEvent,omitempty"`
	ExercisedEvent *ExercisedEvent `json:"ExercisedEvent,omitempty"`
}

// Transaction is a transaction update (JsTransaction).
type Transaction struct {
	UpdateID                string        `json:"updateId"`
	CommandID               string        `json:"commandId"`
	WorkflowID              string        `json:"workflowId"`
	EffectiveAt             string        `json:"effectiveAt"`
	Events                  []Event       `json:"events"`
	Offset                  int64         `json:"offset"`
	SynchronizerID          string        `json:"synchronizerId"`
	TraceContext            *TraceContext `json:"traceContext"`
	RecordTime              string        `json:"recordTime"`
	ExternalTransactionHash *string       `json:"externalTransactionHash"`
	PaidTrafficCost         *int64        `json:"paidTrafficCost"`
}

// TreeEvent is an event of a transaction tree:
// {"CreatedTreeEvent": {"value": …}} or {"ExercisedTreeEvent": {"value": …}}.
type TreeEvent struct {
	CreatedTreeEvent   *Wrapped[CreatedEvent]   `json:"CreatedTreeEvent,omitempty"`
	ExercisedTreeEvent *Wrapped[ExercisedEvent] `json:"ExercisedTreeEvent,omitempty"`
}

// TransactionTree is the deprecated tree form of a transaction
// (JsTransactionTree), events keyed by node id.
type TransactionTree struct {
	UpdateID       string               `json:"updateId"`
	CommandID      string               `json:"commandId"`
	WorkflowID     string               `json:"workflowId"`
	EffectiveAt    string               `json:"effectiveAt"`
	Offset         int64                `json:"offset"`
	EventsByID     map[string]TreeEvent `json:"eventsById"`
	SynchronizerID string               `json:"synchronizerId"`
	TraceContext   *TraceContext        `json:"traceContext"`
	RecordTime     string               `json:"recordTime"`
}

// UnassignedEvent is the unassignment of a contract from a synchronizer.
type UnassignedEvent struct {
	ReassignmentID        string   `json:"reassignmentId"`
	ContractID            string   `json:"contractId"`
	TemplateID            string   `json:"templateId"`
	Source                string   `json:"source"`
	Target                string   `json:"target"`
	Submitter             string   `json:"submitter"`
	ReassignmentCounter   int64    `json:"reassignmentCounter"`
	AssignmentExclusivity *string  `json:"assignmentExclusivity"`
	WitnessParties        []string `json:"witnessParties"`
	PackageName           string   `json:"packageName"`
	Offset                int64    `json:"offset"`
	NodeID                int32    `json:"nodeId"`
}

// AssignmentEvent is the assignment of a contract to its target.
type AssignmentEvent struct {
	Source              string       `json:"source"`
	Target              string       `json:"target"`
	ReassignmentID      string       `json:"reassignmentId"`
	Submitter           string       `json:"submitter"`
	ReassignmentCounter int64        `json:"reassignmentCounter"`
	CreatedEvent        CreatedEvent `json:"createdEvent"`
}

// ReassignmentEvent is {"JsAssignmentEvent": {…}} (no value layer) or
// {"JsUnassignedEvent": {"value": {…}}}.
type ReassignmentEvent struct {
	JsAssignmentEvent *AssignmentEvent          `json:"JsAssignmentEvent,omitempty"`
	JsUnassignedEvent *Wrapped[UnassignedEvent] `json:"JsUnassignedEvent,omitempty"`
}

// Reassignment is a reassignment update (JsReassignment).
type Reassignment struct {
	UpdateID        string              `json:"updateId"`
	CommandID       string              `json:"commandId"`
	WorkflowID      string              `json:"workflowId"`
	Offset          int64               `json:"offset"`
	Events          []ReassignmentEvent `json:"events"`
	TraceContext    *TraceContext       `json:"traceContext"`
	RecordTime      string              `json:"recordTime"`
	SynchronizerID  string              `json:"synchronizerId"`
	PaidTrafficCost *int64              `json:"paidTrafficCost"`
}

// OffsetCheckpoint tells a reader that the ledger end moved past the last
// update it could see.
type OffsetCheckpoint struct {
	Offset            int64              `json:"offset"`
	SynchronizerTimes []SynchronizerTime `json:"synchronizerTimes"`
}

// SynchronizerTime is a synchronizer's record time at a checkpoint.
type SynchronizerTime struct {
	SynchronizerID string `json:"synchronizerId"`
	RecordTime     string `json:"recordTime"`
}

// WildcardFilterValue matches every template.
type WildcardFilterValue struct {
	IncludeCreatedEventBlob bool `json:"includeCreatedEventBlob"`
}

// TemplateFilterValue matches one template (package-id or #package-name
// form).
type TemplateFilterValue struct {
	TemplateID              string `json:"templateId"`
	IncludeCreatedEventBlob bool   `json:"includeCreatedEventBlob"`
}

// InterfaceFilterValue matches the contracts whose template implements an
// interface ("pkg:M:I" or "#package-name:M:I"); with IncludeInterfaceView
// each created event carries the interface's view, computed through the
// Daml engine (CreatedEvent.InterfaceViews holds JsInterfaceView values).
type InterfaceFilterValue struct {
	InterfaceID             string `json:"interfaceId"`
	IncludeInterfaceView    bool   `json:"includeInterfaceView"`
	IncludeCreatedEventBlob bool   `json:"includeCreatedEventBlob"`
}

// IdentifierFilter is the one-of of a cumulative filter.
type IdentifierFilter struct {
	WildcardFilter  *Wrapped[WildcardFilterValue]  `json:"WildcardFilter,omitempty"`
	TemplateFilter  *Wrapped[TemplateFilterValue]  `json:"TemplateFilter,omitempty"`
	InterfaceFilter *Wrapped[InterfaceFilterValue] `json:"InterfaceFilter,omitempty"`
	Empty           *struct{}                      `json:"Empty,omitempty"`
}

// CumulativeFilter is one alternative of a party's filter.
type CumulativeFilter struct {
	IdentifierFilter IdentifierFilter `json:"identifierFilter"`
}

// Filters are a party's filters; no entries matches everything.
type Filters struct {
	Cumulative []CumulativeFilter `json:"cumulative"`
}

// EventFormat selects the parties whose view is read and the templates.
type EventFormat struct {
	FiltersByParty     map[string]Filters `json:"filtersByParty"`
	FiltersForAnyParty *Filters           `json:"filtersForAnyParty"`
	Verbose            bool               `json:"verbose"`
}

// Transaction shapes.
const (
	ShapeACSDelta      = "TRANSACTION_SHAPE_ACS_DELTA"
	ShapeLedgerEffects = "TRANSACTION_SHAPE_LEDGER_EFFECTS"
)

// TransactionFormat is an event format with a transaction shape.
type TransactionFormat struct {
	EventFormat      EventFormat `json:"eventFormat"`
	TransactionShape string      `json:"transactionShape"`
}

// ParticipantAuthorizationTopologyFormat selects topology events by party
// (no parties: all).
type ParticipantAuthorizationTopologyFormat struct {
	Parties []string `json:"parties"`
}

// TopologyFormat selects topology events.
type TopologyFormat struct {
	IncludeParticipantAuthorizationEvents *ParticipantAuthorizationTopologyFormat `json:"includeParticipantAuthorizationEvents"`
}

// UpdateFormat selects the kinds of updates read and how; an absent part
// means that kind is not read.
type UpdateFormat struct {
	IncludeTransactions   *TransactionFormat `json:"includeTransactions"`
	IncludeReassignments  *EventFormat       `json:"includeReassignments"`
	IncludeTopologyEvents *TopologyFormat    `json:"includeTopologyEvents"`
}
