package jsonapi

import "github.com/ledgernode/ledgernode/ledger"

// TypedListForTest is the Node's format and range of a request of
// /v2/updates (typedList).
func TypedListForTest(req GetUpdatesRequest) (ledger.UpdateReadFormat, ledger.OffsetRange, error) {
	return typedList(&req, kindUpdates)
}
