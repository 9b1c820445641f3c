package ledger

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/identity"
)

// purposeUpdateID is the hash purpose ledgernode uses for the ids of the
// updates it creates itself (Canton's own ids hash Merkle-tree roots, which
// a single-node ledger does not have).
const purposeUpdateID identity.HashPurpose = 0x4c4e0001

// ParticipantPermission is a party's hosting permission on a participant.
type ParticipantPermission string

// Participant permissions.
const (
	PermissionSubmission   ParticipantPermission = "PARTICIPANT_PERMISSION_SUBMISSION"
	PermissionConfirmation ParticipantPermission = "PARTICIPANT_PERMISSION_CONFIRMATION"
	PermissionObservation  ParticipantPermission = "PARTICIPANT_PERMISSION_OBSERVATION"
)

// TraceContext is a W3C trace context.
type TraceContext struct {
	Traceparent *string `json:"traceparent"`
	Tracestate  *string `json:"tracestate"`
}

// ParticipantAuthorization is the payload of a topology event.
type ParticipantAuthorization struct {
	PartyID               string                `json:"partyId"`
	ParticipantID         string                `json:"participantId"`
	ParticipantPermission ParticipantPermission `json:"participantPermission,omitempty"`
}

// TopologyEvent is one event of a topology transaction; exactly one field
// is set. On the wire it is {"event": {"<Variant>": {"value": {…}}}}.
type TopologyEvent struct {
	Added   *ParticipantAuthorization
	Changed *ParticipantAuthorization
	Revoked *ParticipantAuthorization
}

// MarshalJSON writes the one-of shape.
func (e TopologyEvent) MarshalJSON() ([]byte, error) {
	var name string
	var v *ParticipantAuthorization
	switch {
	case e.Added != nil:
		name, v = "ParticipantAuthorizationAdded", e.Added
	case e.Changed != nil:
		name, v = "ParticipantAuthorizationChanged", e.Changed
	case e.Revoked != nil:
		name, v = "ParticipantAuthorizationRevoked", e.Revoked
	default:
		return []byte(`{"event":{"Empty":{}}}`), nil
	}
	return json.Marshal(map[string]any{"event": map[string]any{name: map[string]any{"value": v}}})
}

// UnmarshalJSON reads the one-of shape.
func (e *TopologyEvent) UnmarshalJSON(b []byte) error {
	var w struct {
		Event map[string]struct {
			Value *ParticipantAuthorization `json:"value"`
		} `json:"event"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = TopologyEvent{}
	for name, v := range w.Event {
		switch name {
		case "ParticipantAuthorizationAdded":
			e.Added = v.Value
		case "ParticipantAuthorizationChanged":
			e.Changed = v.Value
		case "ParticipantAuthorizationRevoked":
			e.Revoked = v.Value
		case "Empty":
		default:
			return fmt.Errorf("unknown topology event %q", name)
		}
	}
	return nil
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

// Update is one entry of the ledger's update log; exactly one field is set.
// On the wire it is {"<Variant>": {"value": {…}}}.
type Update struct {
	TopologyTransaction *TopologyTransaction
}

// Offset returns the update's offset.
func (u Update) Offset() int64 {
	if u.TopologyTransaction != nil {
		return u.TopologyTransaction.Offset
	}
	return 0
}

// MarshalJSON writes the one-of shape.
func (u Update) MarshalJSON() ([]byte, error) {
	if u.TopologyTransaction != nil {
		return json.Marshal(map[string]any{"TopologyTransaction": map[string]any{"value": u.TopologyTransaction}})
	}
	return []byte(`{"Empty":{}}`), nil
}

// UnmarshalJSON reads the one-of shape.
func (u *Update) UnmarshalJSON(b []byte) error {
	var w struct {
		TopologyTransaction *struct {
			Value *TopologyTransaction `json:"value"`
		}
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = Update{}
	if w.TopologyTransaction != nil {
		u.TopologyTransaction = w.TopologyTransaction.Value
	}
	return nil
}

// formatTime prints a timestamp as Java's Instant.toString does: UTC, with
// 0, 3, 6 or 9 fraction digits.
func formatTime(t time.Time) string {
	t = t.UTC()
	ns := t.Nanosecond()
	switch {
	case ns == 0:
		return t.Format("2006-01-02T15:04:05Z")
	case ns%1_000_000 == 0:
		return t.Format("2006-01-02T15:04:05.000Z")
	case ns%1_000 == 0:
		return t.Format("2006-01-02T15:04:05.000000Z")
	default:
		return t.Format("2006-01-02T15:04:05.000000000Z")
	}
}

// newUpdateID derives a Canton-shaped update id ("1220" + 64 hex) from the
// update's content.
func newUpdateID(parts ...string) string {
	var b []byte
	for _, p := range parts {
		b = fmt.Appendf(b, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(identity.CantonHash(purposeUpdateID, b))
}
