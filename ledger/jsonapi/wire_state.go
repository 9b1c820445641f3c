package jsonapi

// LedgerEnd is the answer of GET /v2/state/ledger-end: the offset of the
// last committed update (0 on an empty ledger).
type LedgerEnd struct {
	Offset int64 `json:"offset"`
}
