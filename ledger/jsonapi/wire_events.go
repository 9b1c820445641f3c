package jsonapi

import "encoding/json"

// JsCreatedEvent is a contract creation as the JSON API shows it.
type JsCreatedEvent struct {
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

// JsArchivedEvent is a contract archival (ACS-delta shape).
type JsArchivedEvent struct {
	Offset                int64    `json:"offset"`
	NodeID                int32    `json:"nodeId"`
	ContractID            string   `json:"contractId"`
	TemplateID            string   `json:"templateId"`
	WitnessParties        []string `json:"witnessParties"`
	PackageName           string   `json:"packageName"`
	ImplementedInterfaces []string `json:"implementedInterfaces"`
}

// JsExercisedEvent is a choice exercise (ledger-effects shape): the choice
// argument and its result as Daml JSON, the controllers, and the node id
// of the last node of the choice's subtree.
type JsExercisedEvent struct {
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

// JsEvent is one event of a transaction: {"CreatedEvent": {…}},
// {"ArchivedEvent": {…}} or {"ExercisedEvent": {…}} (no value layer).
type JsEvent struct {
	CreatedEvent   *JsCreatedEvent   `json:"CreatedEvent,omitempty"`
	ArchivedEvent  *JsArchivedEvent  `json:"ArchivedEvent,omitempty"`
	ExercisedEvent *JsExercisedEvent `json:"ExercisedEvent,omitempty"`
}

// JsTransaction is a transaction update as the JSON API shows it.
type JsTransaction struct {
	UpdateID                string        `json:"updateId"`
	CommandID               string        `json:"commandId"`
	WorkflowID              string        `json:"workflowId"`
	EffectiveAt             string        `json:"effectiveAt"`
	Events                  []JsEvent     `json:"events"`
	Offset                  int64         `json:"offset"`
	SynchronizerID          string        `json:"synchronizerId"`
	TraceContext            *TraceContext `json:"traceContext"`
	RecordTime              string        `json:"recordTime"`
	ExternalTransactionHash *string       `json:"externalTransactionHash"`
	PaidTrafficCost         *int64        `json:"paidTrafficCost"`
}

// JsTreeEvent is an event of a transaction tree:
// {"CreatedTreeEvent": {"value": …}} or {"ExercisedTreeEvent": {"value": …}}.
type JsTreeEvent struct {
	CreatedTreeEvent   *Wrapped[JsCreatedEvent]   `json:"CreatedTreeEvent,omitempty"`
	ExercisedTreeEvent *Wrapped[JsExercisedEvent] `json:"ExercisedTreeEvent,omitempty"`
}

// JsTransactionTree is the deprecated tree form of a transaction
// as the JSON API shows it, events keyed by node id.
type JsTransactionTree struct {
	UpdateID       string                 `json:"updateId"`
	CommandID      string                 `json:"commandId"`
	WorkflowID     string                 `json:"workflowId"`
	EffectiveAt    string                 `json:"effectiveAt"`
	Offset         int64                  `json:"offset"`
	EventsByID     map[string]JsTreeEvent `json:"eventsById"`
	SynchronizerID string                 `json:"synchronizerId"`
	TraceContext   *TraceContext          `json:"traceContext"`
	RecordTime     string                 `json:"recordTime"`
}

// JsUnassignedEvent is the unassignment of a contract from a synchronizer.
type JsUnassignedEvent struct {
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

// JsAssignmentEvent is the assignment of a contract to its target.
type JsAssignmentEvent struct {
	Source              string         `json:"source"`
	Target              string         `json:"target"`
	ReassignmentID      string         `json:"reassignmentId"`
	Submitter           string         `json:"submitter"`
	ReassignmentCounter int64          `json:"reassignmentCounter"`
	CreatedEvent        JsCreatedEvent `json:"createdEvent"`
}

// JsReassignmentEvent is {"JsAssignmentEvent": {…}} (no value layer) or
// {"JsUnassignedEvent": {"value": {…}}}.
type JsReassignmentEvent struct {
	JsAssignmentEvent *JsAssignmentEvent          `json:"JsAssignmentEvent,omitempty"`
	JsUnassignedEvent *Wrapped[JsUnassignedEvent] `json:"JsUnassignedEvent,omitempty"`
}

// JsReassignment is a reassignment update as the JSON API shows it.
type JsReassignment struct {
	UpdateID        string                `json:"updateId"`
	CommandID       string                `json:"commandId"`
	WorkflowID      string                `json:"workflowId"`
	Offset          int64                 `json:"offset"`
	Events          []JsReassignmentEvent `json:"events"`
	TraceContext    *TraceContext         `json:"traceContext"`
	RecordTime      string                `json:"recordTime"`
	SynchronizerID  string                `json:"synchronizerId"`
	PaidTrafficCost *int64                `json:"paidTrafficCost"`
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
