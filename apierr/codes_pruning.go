package apierr

// The Canton error codes of participant pruning
// (ledger/error/groups/RequestValidationErrors.scala).
var (
	// ParticipantPrunedDataAccessed: a read asks for data at or before the
	// participant's pruned offset (400; context earliest_offset).
	ParticipantPrunedDataAccessed = Code{Name: "PARTICIPANT_PRUNED_DATA_ACCESSED", Category: InvalidGivenCurrentSystemStateOther}
	// ParticipantPruningInProgress: another prune request is running (400).
	ParticipantPruningInProgress = Code{Name: "PARTICIPANT_PRUNING_IN_PROGRESS", Category: InvalidGivenCurrentSystemStateOther}
)
