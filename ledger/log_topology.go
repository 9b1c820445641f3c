package ledger

import "github.com/ledgernode/ledgernode/ledger/update"

// Stored topology events. The update log (log.go) writes a topology
// transaction's events in the JSON Ledger API's shape, {"event":
// {"<Variant>": {"value": {…}}}}, as it always has; these are the
// storage's own types for it (the wire's are jsonapi.TopologyEvent and
// its parts), so that changing either does not change the other.

// wrapped is the "value" layer around a stored one-of variant.
type wrapped[T any] struct {
	Value T `json:"value"`
}

// participantAuthorization is the payload of a stored topology event.
type participantAuthorization struct {
	PartyID               string                       `json:"partyId"`
	ParticipantID         string                       `json:"participantId"`
	ParticipantPermission update.ParticipantPermission `json:"participantPermission,omitempty"`
}

// topologyEvent is one stored event of a topology transaction.
type topologyEvent struct {
	Event topologyEventKind `json:"event"`
}

// topologyEventKind holds the variant of a topologyEvent; exactly one is
// set.
type topologyEventKind struct {
	ParticipantAuthorizationAdded   *wrapped[participantAuthorization] `json:"ParticipantAuthorizationAdded,omitempty"`
	ParticipantAuthorizationChanged *wrapped[participantAuthorization] `json:"ParticipantAuthorizationChanged,omitempty"`
	ParticipantAuthorizationRevoked *wrapped[participantAuthorization] `json:"ParticipantAuthorizationRevoked,omitempty"`
}

// authorizations are the event's three members, the one set among nils.
func (k *topologyEventKind) authorizations() [3]*wrapped[participantAuthorization] {
	return [3]*wrapped[participantAuthorization]{k.ParticipantAuthorizationAdded, k.ParticipantAuthorizationChanged, k.ParticipantAuthorizationRevoked}
}
