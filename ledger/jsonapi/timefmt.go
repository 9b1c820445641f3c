package jsonapi

import "time"

// formatTime prints a time as the wire does (ledger's timestamps): RFC 3339
// in UTC with 0, 3, 6 or 9 fraction digits, the fewest that hold it.
func formatTime(t time.Time) string {
	t = t.UTC()
	switch ns := t.Nanosecond(); {
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

// Wrapped is the "value" layer Canton puts around the payload of a protobuf
// one-of variant: {"Variant": {"value": …}}.
type Wrapped[T any] struct {
	Value T `json:"value"`
}
