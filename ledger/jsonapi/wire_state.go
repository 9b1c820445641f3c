package jsonapi

// LedgerEnd is the answer of GET /v2/state/ledger-end: the offset of the
// last committed update (0 on an empty ledger).
type LedgerEnd struct {
	Offset int64 `json:"offset"`
}

// GetActiveContractsRequest reads the active contracts at an offset:
// exactly one of EventFormat and the legacy Filter (+Verbose).
// StreamContinuationToken is not supported yet: a request that sets it is
// refused with INVALID_ARGUMENT.
type GetActiveContractsRequest struct {
	ActiveAtOffset          int64        `json:"activeAtOffset"`
	EventFormat             *EventFormat `json:"eventFormat"`
	Filter                  *EventFormat `json:"filter"`
	Verbose                 bool         `json:"verbose"`
	StreamContinuationToken string       `json:"streamContinuationToken"`
}

// ActiveContract is an active contract with where it lives.
type ActiveContract struct {
	CreatedEvent        JsCreatedEvent `json:"createdEvent"`
	SynchronizerID      string         `json:"synchronizerId"`
	ReassignmentCounter int64          `json:"reassignmentCounter"`
}

// IncompleteUnassigned is a contract in transit, unassigned but not yet
// assigned.
type IncompleteUnassigned struct {
	CreatedEvent    JsCreatedEvent    `json:"createdEvent"`
	UnassignedEvent JsUnassignedEvent `json:"unassignedEvent"`
}

// ContractEntry is {"JsActiveContract": {…}} or {"JsIncompleteUnassigned":
// {…}} (no value layer).
type ContractEntry struct {
	JsActiveContract       *ActiveContract       `json:"JsActiveContract,omitempty"`
	JsIncompleteUnassigned *IncompleteUnassigned `json:"JsIncompleteUnassigned,omitempty"`
}

// GetActiveContractsResponse is one element of the active contracts.
type GetActiveContractsResponse struct {
	WorkflowID              string        `json:"workflowId"`
	ContractEntry           ContractEntry `json:"contractEntry"`
	StreamContinuationToken string        `json:"streamContinuationToken"`
}

// GetActiveContractsPageRequest asks for one page of active contracts.
type GetActiveContractsPageRequest struct {
	// ActiveAtOffset is the offset the contracts are active at; nil means
	// the ledger end.
	ActiveAtOffset *int64      `json:"activeAtOffset"`
	EventFormat    EventFormat `json:"eventFormat"`
	// MaxPageSize is 1 to 10000; nil means 2000.
	MaxPageSize *int32 `json:"maxPageSize"`
	PageToken   string `json:"pageToken"`
}

// GetActiveContractsPageResponse is a page of active contracts.
type GetActiveContractsPageResponse struct {
	ActiveContracts []GetActiveContractsResponse `json:"activeContracts"`
	ActiveAtOffset  int64                        `json:"activeAtOffset"`
	NextPageToken   *string                      `json:"nextPageToken"`
}

// ConnectedSynchronizer is a synchronizer the participant is connected to.
type ConnectedSynchronizer struct {
	SynchronizerAlias string `json:"synchronizerAlias"`
	SynchronizerID    string `json:"synchronizerId"`
	Permission        string `json:"permission"`
}

// ConnectedSynchronizersRequest optionally names a party whose hosting
// permission is reported.
type ConnectedSynchronizersRequest struct {
	Party              string
	ParticipantID      string
	IdentityProviderID string
}

// ConnectedSynchronizersResponse lists the connected synchronizers.
type ConnectedSynchronizersResponse struct {
	ConnectedSynchronizers []ConnectedSynchronizer `json:"connectedSynchronizers"`
}

// GetEventsByContractIDRequest asks for a contract's create and archive
// events as the format shows them.
type GetEventsByContractIDRequest struct {
	ContractID  string      `json:"contractId"`
	EventFormat EventFormat `json:"eventFormat"`
}

// CreatedWithSynchronizer is a create event with its synchronizer.
type CreatedWithSynchronizer struct {
	CreatedEvent   JsCreatedEvent `json:"createdEvent"`
	SynchronizerID string         `json:"synchronizerId"`
}

// ArchivedWithSynchronizer is an archive event with its synchronizer.
type ArchivedWithSynchronizer struct {
	ArchivedEvent  JsArchivedEvent `json:"archivedEvent"`
	SynchronizerID string          `json:"synchronizerId"`
}

// GetEventsByContractIDResponse holds the events (archived is nil while
// the contract is active).
type GetEventsByContractIDResponse struct {
	Created  *CreatedWithSynchronizer  `json:"created"`
	Archived *ArchivedWithSynchronizer `json:"archived"`
}

// GetContractRequest looks a contract up by id (the alpha ContractService).
type GetContractRequest struct {
	ContractID string `json:"contractId"`
	// QueryingParties must share a stakeholder with the contract; empty
	// means any party (and needs CanReadAsAnyParty).
	QueryingParties []string `json:"queryingParties"`
}

// GetContractResponse carries the contract's created event.
type GetContractResponse struct {
	CreatedEvent JsCreatedEvent `json:"createdEvent"`
}
