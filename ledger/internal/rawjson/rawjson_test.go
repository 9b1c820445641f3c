package rawjson_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
)

// TestStoredValues: only a context made by WithStoredValues (or derived
// from one) asks for stored values.
func TestStoredValues(t *testing.T) {
	t.Parallel()
	type key struct{}
	stored := rawjson.WithStoredValues(context.Background())
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"background", context.Background(), false},
		{"other value", context.WithValue(context.Background(), key{}, true), false},
		{"stored", stored, true},
		{"derived from stored", context.WithValue(stored, key{}, false), true},
	} {
		if got := rawjson.StoredValues(tc.ctx); got != tc.want {
			t.Errorf("%s: StoredValues = %v, want %v", tc.name, got, tc.want)
		}
	}
}
