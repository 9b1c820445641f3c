package update

import (
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// The three kinds of update of the log as a reader sees them (Canton's
// com.daml.ledger.api.v2 Transaction, Reassignment and
// TopologyTransaction, update_service.proto's GetUpdateResponse one-of).

// Update is one update of the log: a *Transaction, a *Reassignment
// or a *TopologyTransaction (a type switch tells which), or, in a tailing
// walk that asks for them (ledger's OffsetRange.Checkpoints), an
// *OffsetCheckpoint. No other type implements it.
type Update interface {
	// UpdateOffset returns the update's offset.
	UpdateOffset() int64
	isUpdate()
}

// UpdateOffset returns the transaction's offset.
func (t *Transaction) UpdateOffset() int64 { return t.Offset }

// UpdateOffset returns the reassignment's offset.
func (r *Reassignment) UpdateOffset() int64 { return r.Offset }

// UpdateOffset returns the topology transaction's offset.
func (t *TopologyTransaction) UpdateOffset() int64 { return t.Offset }

func (*Transaction) isUpdate()         {}
func (*Reassignment) isUpdate()        {}
func (*TopologyTransaction) isUpdate() {}

// Reassignment is the unassignment of contracts from a synchronizer, or
// their assignment to one, as a reader sees it (Canton's
// reassignment.proto).
type Reassignment struct {
	// UpdateID identifies the reassignment; Offset places it in the log.
	UpdateID string
	Offset   int64
	// CommandID and WorkflowID are the submission's.
	CommandID, WorkflowID string
	// RecordTime is the time the node committed the reassignment.
	RecordTime time.Time
	// SynchronizerID is the synchronizer the update is on: the source of
	// an unassignment, the target of an assignment.
	SynchronizerID string
	// Events are *UnassignedEvent and *AssignedEvent values, the ones
	// the format shows.
	Events []ReassignmentEvent
}

// ReassignmentEvent is an event of a reassignment: an *UnassignedEvent
// or an *AssignedEvent (no other type implements it).
type ReassignmentEvent interface {
	// Reassigned returns the reassigned contract's id.
	Reassigned() value.ContractID
	isReassignmentEvent()
}

// UnassignedEvent is the unassignment of a contract from its source
// synchronizer towards a target.
type UnassignedEvent struct {
	Offset         int64
	NodeID         int32
	ReassignmentID string
	ContractID     value.ContractID
	TemplateID     lf.TypeConID
	PackageName    string
	// Source and Target are the synchronizers the contract leaves and
	// goes to; Submitter the party that unassigned it.
	Source, Target, Submitter string
	ReassignmentCounter       int64
	// AssignmentExclusivity is the time until which only the submitter
	// may assign the contract; zero when not set.
	AssignmentExclusivity time.Time
	// WitnessParties are the reading parties among the stakeholders.
	WitnessParties []string
}

// AssignedEvent is the assignment of a contract to its target
// synchronizer: the contract as a created event, with the reassignment's
// data.
type AssignedEvent struct {
	// Source and Target are the synchronizers the contract came from and
	// is now on; Submitter the party that assigned it.
	Source, Target, Submitter string
	ReassignmentID            string
	ReassignmentCounter       int64
	// Created is the assigned contract, as the format shows it.
	Created *CreatedEvent
}

// Reassigned returns the unassigned contract's id.
func (e *UnassignedEvent) Reassigned() value.ContractID { return e.ContractID }

// Reassigned returns the assigned contract's id.
func (e *AssignedEvent) Reassigned() value.ContractID { return e.Created.ContractID }

func (*UnassignedEvent) isReassignmentEvent() {}
func (*AssignedEvent) isReassignmentEvent()   {}

// TopologyTransaction is a topology transaction as a reader sees it: the
// changes of the hosting of parties it asked for (Canton's
// topology_transaction.proto).
type TopologyTransaction struct {
	UpdateID       string
	Offset         int64
	SynchronizerID string
	RecordTime     time.Time
	// Events are the participant authorization changes the format asks
	// for.
	Events []PartyAuthorization
}

// AuthorizationChange says what a PartyAuthorization event does.
type AuthorizationChange uint8

// Authorization changes (Canton's ParticipantAuthorizationAdded, Changed,
// Revoked).
const (
	AuthorizationAdded AuthorizationChange = iota + 1
	AuthorizationChanged
	AuthorizationRevoked
)

// PartyAuthorization is a change of the hosting of a party on a
// participant.
type PartyAuthorization struct {
	Change        AuthorizationChange
	PartyID       string
	ParticipantID string
	// Permission is the party's permission on the participant (empty
	// when revoked).
	Permission ParticipantPermission
}
