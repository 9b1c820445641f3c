package jsonapi

// GetUpdatesPageRequest asks for one page of updates.
type GetUpdatesPageRequest struct {
	// BeginOffsetExclusive starts the range (0: the ledger's beginning).
	BeginOffsetExclusive int64 `json:"beginOffsetExclusive"`
	// EndOffsetInclusive ends the range; nil means the ledger end at the
	// time of the request: an ascending page then always carries a next
	// page token (for tailing), and a descending one starts from that
	// ledger end (its tokens continue downwards).
	EndOffsetInclusive *int64 `json:"endOffsetInclusive"`
	// MaxPageSize is 1 to 2000; nil means 100.
	MaxPageSize *int32 `json:"maxPageSize"`
	// UpdateFormat selects what is read; nil (absent) is MISSING_FIELD,
	// and {} selects nothing: the page has no updates.
	UpdateFormat *UpdateFormat `json:"updateFormat"`
	// DescendingOrder reads from the end down.
	DescendingOrder bool `json:"descendingOrder"`
	// PageToken continues a previous page of the same request (base64).
	PageToken string `json:"pageToken"`
}

// GetUpdateResponse carries one update.
type GetUpdateResponse struct {
	Update Update `json:"update"`
}

// GetUpdatesPageResponse is one page of updates: the updates in
// (LowestPageOffsetExclusive, HighestPageOffsetInclusive] that the format
// selects, in the requested order.
type GetUpdatesPageResponse struct {
	Updates                    []GetUpdateResponse `json:"updates"`
	LowestPageOffsetExclusive  int64               `json:"lowestPageOffsetExclusive"`
	HighestPageOffsetInclusive int64               `json:"highestPageOffsetInclusive"`
	NextPageToken              *string             `json:"nextPageToken"`
}

// GetUpdatesRequest is the body of the list endpoints (/v2/updates,
// /v2/updates/flats, /v2/updates/trees): exactly one of UpdateFormat or the
// legacy Filter (+Verbose) is given.
type GetUpdatesRequest struct {
	BeginExclusive  int64         `json:"beginExclusive"`
	EndInclusive    *int64        `json:"endInclusive"`
	Filter          *EventFormat  `json:"filter"`
	Verbose         bool          `json:"verbose"`
	UpdateFormat    *UpdateFormat `json:"updateFormat"`
	DescendingOrder bool          `json:"descendingOrder"`
}

// GetUpdatesResponse is one element of an updates list.
type GetUpdatesResponse struct {
	Update Update `json:"update"`
}

// GetUpdateTreesResponse is one element of the trees list.
type GetUpdateTreesResponse struct {
	Update TreeUpdate `json:"update"`
}

// GetUpdateByIDRequest looks an update up by id.
type GetUpdateByIDRequest struct {
	UpdateID string `json:"updateId"`
	// UpdateFormat is required (nil: MISSING_FIELD); {} shows nothing of
	// any update (UPDATE_NOT_FOUND).
	UpdateFormat *UpdateFormat `json:"updateFormat"`
}

// GetUpdateByOffsetRequest looks an update up by offset.
type GetUpdateByOffsetRequest struct {
	Offset int64 `json:"offset"`
	// UpdateFormat is required, as GetUpdateByIDRequest's.
	UpdateFormat *UpdateFormat `json:"updateFormat"`
}

// TransactionTreeResponse carries a transaction tree.
type TransactionTreeResponse struct {
	Transaction JsTransactionTree `json:"transaction"`
}

// GetTransactionByIDRequest is the deprecated lookup of a transaction by
// update id: exactly one of RequestingParties and TransactionFormat.
type GetTransactionByIDRequest struct {
	UpdateID          string             `json:"updateId"`
	RequestingParties []string           `json:"requestingParties"`
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// GetTransactionByOffsetRequest is GetTransactionByIDRequest by offset.
type GetTransactionByOffsetRequest struct {
	Offset            int64              `json:"offset"`
	RequestingParties []string           `json:"requestingParties"`
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// GetTransactionResponse carries one transaction (JsGetTransactionResponse).
type GetTransactionResponse struct {
	Transaction JsTransaction `json:"transaction"`
}
