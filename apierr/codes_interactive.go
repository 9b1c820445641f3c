package apierr

// The Canton error codes of interactive (externally signed) submission and
// of external-party onboarding. Each category below was read in the Canton
// sources (TopologyManagerError, ParticipantTopologyManagerError,
// LedgerApiErrors/CommandExecutionErrors) unless its comment says
// otherwise. Use them with New/Wrap to build an error and with errors.Is to
// test for one.
var (
	// FailedToExecuteTransaction: ExecuteSubmission failed: a missing,
	// invalid or superfluous external signature, an unknown key, a
	// transaction that cannot be hashed (missing seed, keys under V2, bad
	// LF version), a hashing scheme the protocol version does not support,
	// or a synchronizer id in the wrong form (400, category
	// InvalidIndependentOfSystemState, definite answer). 3.5 uses it for
	// every execute-time signature failure; INVALID_EXTERNAL_SIGNATURE is
	// defined by Canton (TransactionProcessor) but never emitted.
	FailedToExecuteTransaction = Code{Name: "FAILED_TO_EXECUTE_TRANSACTION", Category: InvalidIndependentOfSystemState, prefix: "The participant failed to execute the transaction: "}
	// FailedToPrepareTransaction: PrepareSubmission failed (400, category
	// InvalidIndependentOfSystemState, definite answer).
	FailedToPrepareTransaction = Code{Name: "FAILED_TO_PREPARE_TRANSACTION", Category: InvalidIndependentOfSystemState, prefix: "The participant failed to prepare the transaction: "}
	// ExternalPartyAlreadyExists: AllocateExternalParty for a party that is
	// already allocated; Canton's cause is "Party <party> already exists on
	// synchronizer <synchronizer>" (409, category
	// InvalidGivenCurrentSystemStateResourceExists).
	ExternalPartyAlreadyExists = Code{Name: "EXTERNAL_PARTY_ALREADY_EXISTS", Category: InvalidGivenCurrentSystemStateResourceExists}
	// TopologyInvalidTxSignature: a signature on an onboarding topology
	// transaction (or on its multi-hash) does not verify; Canton's cause is
	// "Transaction signature verification failed". It is an alarm (category
	// SecurityAlert), so clients see a redacted 400.
	TopologyInvalidTxSignature = Code{Name: "TOPOLOGY_INVALID_TX_SIGNATURE", Category: SecurityAlert}
	// TopologyUnauthorizedTransaction: an onboarding topology transaction
	// lacks a required authorization (the party namespace, or proof of
	// ownership by a newly added key), or is signed by a key that no
	// delegation makes known. An alarm (category SecurityAlert, redacted
	// 400).
	TopologyUnauthorizedTransaction = Code{Name: "TOPOLOGY_UNAUTHORIZED_TRANSACTION", Category: SecurityAlert}
	// TopologySigningThresholdCannotBeReached: a party's signing threshold
	// is higher than its number of signing keys ("Tried to set a signing
	// threshold (t) above the number of signing keys (n).") (409, category
	// InvalidGivenCurrentSystemStateResourceExists — Canton's choice, odd
	// as it is).
	TopologySigningThresholdCannotBeReached = Code{Name: "TOPOLOGY_SIGNING_THRESHOLD_CANNOT_BE_REACHED", Category: InvalidGivenCurrentSystemStateResourceExists}
)
