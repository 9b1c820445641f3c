package jsonapi

import "github.com/ledgernode/ledgernode/ledger/update"

// TraceContext is a W3C trace context.
type TraceContext struct {
	Traceparent *string `json:"traceparent"`
	Tracestate  *string `json:"tracestate"`
}

// ParticipantAuthorization is the payload of a topology event.
type ParticipantAuthorization struct {
	PartyID               string                       `json:"partyId"`
	ParticipantID         string                       `json:"participantId"`
	ParticipantPermission update.ParticipantPermission `json:"participantPermission,omitempty"`
}

// TopologyEvent is one event of a topology transaction:
// {"event": {"<Variant>": {"value": {…}}}}. Exactly one variant is set.
type TopologyEvent struct {
	Event TopologyEventKind `json:"event"`
}

// TopologyEventKind holds the variant of a TopologyEvent.
type TopologyEventKind struct {
	ParticipantAuthorizationAdded   *Wrapped[ParticipantAuthorization] `json:"ParticipantAuthorizationAdded,omitempty"`
	ParticipantAuthorizationChanged *Wrapped[ParticipantAuthorization] `json:"ParticipantAuthorizationChanged,omitempty"`
	ParticipantAuthorizationRevoked *Wrapped[ParticipantAuthorization] `json:"ParticipantAuthorizationRevoked,omitempty"`
}

// TopologyTransaction is a topology update (JsTopologyTransaction).
type TopologyTransaction struct {
	UpdateID       string          `json:"updateId"`
	Offset         int64           `json:"offset"`
	SynchronizerID string          `json:"synchronizerId"`
	RecordTime     string          `json:"recordTime"`
	Events         []TopologyEvent `json:"events"`
	TraceContext   *TraceContext   `json:"traceContext"`
}

// Update is one entry of the ledger's update log as a reader sees it:
// {"<Variant>": {"value": {…}}}. Exactly one variant is set.
type Update struct {
	Transaction         *Wrapped[JsTransaction]       `json:"Transaction,omitempty"`
	Reassignment        *Wrapped[JsReassignment]      `json:"Reassignment,omitempty"`
	TopologyTransaction *Wrapped[TopologyTransaction] `json:"TopologyTransaction,omitempty"`
	OffsetCheckpoint    *Wrapped[OffsetCheckpoint]    `json:"OffsetCheckpoint,omitempty"`
}

// Offset returns the update's offset.
func (u Update) Offset() int64 {
	switch {
	case u.Transaction != nil:
		return u.Transaction.Value.Offset
	case u.Reassignment != nil:
		return u.Reassignment.Value.Offset
	case u.TopologyTransaction != nil:
		return u.TopologyTransaction.Value.Offset
	case u.OffsetCheckpoint != nil:
		return u.OffsetCheckpoint.Value.Offset
	}
	return 0
}

// TreeUpdate is an update of the deprecated trees stream: a transaction
// tree, a reassignment or an offset checkpoint.
type TreeUpdate struct {
	TransactionTree  *Wrapped[JsTransactionTree] `json:"TransactionTree,omitempty"`
	Reassignment     *Wrapped[JsReassignment]    `json:"Reassignment,omitempty"`
	OffsetCheckpoint *Wrapped[OffsetCheckpoint]  `json:"OffsetCheckpoint,omitempty"`
}

// Offset returns the update's offset.
func (u TreeUpdate) Offset() int64 {
	switch {
	case u.TransactionTree != nil:
		return u.TransactionTree.Value.Offset
	case u.Reassignment != nil:
		return u.Reassignment.Value.Offset
	case u.OffsetCheckpoint != nil:
		return u.OffsetCheckpoint.Value.Offset
	}
	return 0
}
