// Package rawjson lets the JSON Ledger API layer (ledger/jsonapi) read
// package ledger's typed reads without paying for the decoding of their
// Daml values, which it would print straight back.
//
// A context made by WithStoredValues asks the typed reads (Node.Transaction,
// UpdatesPage, ActiveContractEventsPage, …) for their values as the
// node stored them: the value fields of the typed events (arguments, keys,
// results, interface views) then hold a Value, the stored Daml-LF JSON,
// rather than the value decoded with its package type. The JSON layer
// writes a Value's bytes as they are — the bytes the JSON reads serve
// today, escapes included — and any other value.Value with
// value.AppendJSON (AppendJSON).
//
// The package is internal to ledger: a Go user of the typed reads cannot
// ask for stored values, and always sees decoded ones.
package rawjson

import (
	"context"

	"github.com/ledgernode/ledgernode/daml/value"
)

// Value is a Daml value as the node stored it: its Daml-LF JSON encoding
// (compact, <, >, &, U+2028 and U+2029 escaped, as json.Marshal writes
// it). It is a value.Value (through the embedded Unit, which carries
// value.Value's method) so that it can stand in the typed events' value
// fields; no function of package value knows it. The typed reads hold
// *Values (carved out of their renderer's chunks, no allocation each);
// AppendJSON takes either.
type Value struct {
	value.Unit
	// JSON is the stored encoding.
	JSON []byte
}

// Stored returns v's stored bytes and true when v is a Value or a
// *Value (a nil one has none), else false.
func Stored(v value.Value) ([]byte, bool) {
	switch x := v.(type) {
	case Value:
		return x.JSON, true
	case *Value:
		if x == nil {
			return nil, true
		}
		return x.JSON, true
	}
	return nil, false
}

// AppendJSON appends v in the Daml-LF JSON encoding: a Value's stored
// bytes as they are, any other value as value.AppendJSON prints it; nil
// (and a Value without bytes) is null.
func AppendJSON(dst []byte, v value.Value) []byte {
	if v == nil {
		return append(dst, "null"...)
	}
	if b, ok := Stored(v); ok {
		if len(b) == 0 {
			return append(dst, "null"...)
		}
		return append(dst, b...)
	}
	return value.AppendJSON(dst, v)
}

type storedKey struct{}

// WithStoredValues returns a context whose typed reads give their Daml
// values as Values.
func WithStoredValues(ctx context.Context) context.Context {
	return context.WithValue(ctx, storedKey{}, true)
}

// StoredValues reports whether ctx asks the typed reads for stored
// values.
func StoredValues(ctx context.Context) bool {
	b, _ := ctx.Value(storedKey{}).(bool)
	return b
}

var (
	_ value.Value = Value{}
	_ value.Value = (*Value)(nil)
)
