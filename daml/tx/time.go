package tx

import "github.com/ledgernode/ledgernode/daml/value"

// The range of LF timestamps: 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999Z, in µs since the epoch.
const (
	// MinTimestamp is the earliest LF timestamp.
	MinTimestamp value.Timestamp = -62135596800000000
	// MaxTimestamp is the latest LF timestamp.
	MaxTimestamp value.Timestamp = 253402300799999999
)

// TimeBounds are the ledger times a transaction stays valid for, as its
// reads of the time constrain them (Speedy's time boundaries, a
// Time.Range): a transaction that reads no time is Unconstrained.
type TimeBounds struct {
	// Min and Max are the inclusive bounds.
	Min, Max value.Timestamp
}

// Unconstrained are the bounds of a transaction that did not read the
// time.
var Unconstrained = TimeBounds{Min: MinTimestamp, Max: MaxTimestamp}

// Constrained reports whether the bounds are narrower than Unconstrained.
func (b TimeBounds) Constrained() bool { return b != Unconstrained }

// Contains reports Min ≤ t ≤ Max.
func (b TimeBounds) Contains(t value.Timestamp) bool { return b.Min <= t && t <= b.Max }

// GetTime runs get_time (SBUGetTime): it returns the ledger effective time
// and sets the bounds to exactly [LET, LET], as Speedy does.
func (b *Builder) GetTime() value.Timestamp {
	let := b.cfg.LedgerTime
	b.time = TimeBounds{Min: let, Max: let}
	return let
}

// LedgerTimeLT runs ledger_time_lt t (SBULedgerTimeLT): it returns LET < t
// and narrows the bounds: when true the upper bound becomes min(upper, t −
// 1µs), when false the lower bound becomes max(lower, t).
func (b *Builder) LedgerTimeLT(t value.Timestamp) bool {
	if b.cfg.LedgerTime < t {
		b.time.Max = min(b.time.Max, t-1)
		return true
	}
	b.time.Min = max(b.time.Min, t)
	return false
}

// TimeBounds returns the current time bounds.
func (b *Builder) TimeBounds() TimeBounds { return b.time }
