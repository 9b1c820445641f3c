package engine

import "github.com/ledgernode/ledgernode/daml/engine/prim"

// The Timestamp and Date ranges: 0001-01-01 … 9999-12-31.
const (
	minDate      = int64(prim.MinDate)
	maxDate      = int64(prim.MaxDate)
	minTimestamp = int64(prim.MinTimestamp)
	maxTimestamp = int64(prim.MaxTimestamp)
)

func timestampText(us int64) string { return prim.TimestampToText(prim.Timestamp(us)) }

func dateText(days int32) string { return prim.DateToText(prim.Date(days)) }
