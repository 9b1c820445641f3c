package jsonapi

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
// Daml engine (JsCreatedEvent.InterfaceViews holds JsInterfaceView values).
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

// The transaction shapes of TransactionFormat.TransactionShape, the names
// of the Ledger API's TransactionShape enum (the typed API's ledger.Shape).
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
