package update

// ParticipantPermission is a party's hosting permission on a participant
// (Canton's com.daml.ledger.api.v2.ParticipantPermission, by its enum
// name).
type ParticipantPermission string

// Participant permissions.
const (
	PermissionSubmission   ParticipantPermission = "PARTICIPANT_PERMISSION_SUBMISSION"
	PermissionConfirmation ParticipantPermission = "PARTICIPANT_PERMISSION_CONFIRMATION"
	PermissionObservation  ParticipantPermission = "PARTICIPANT_PERMISSION_OBSERVATION"
)
