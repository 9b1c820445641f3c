package rawjson_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
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

// TestAppendJSON: a Value prints as its bytes (not as the Unit it
// embeds), nil and an empty Value as null, other values as
// value.AppendJSON prints them.
func TestAppendJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		v    value.Value
		want string
	}{
		{"nil", nil, "null"},
		{"stored", rawjson.Value{JSON: []byte(`{"a":"\u003cb\u003e"}`)}, `{"a":"\u003cb\u003e"}`},
		{"stored without bytes", rawjson.Value{}, "null"},
		{"stored, by pointer", &rawjson.Value{JSON: []byte(`[1,"\u0026"]`)}, `[1,"\u0026"]`},
		{"stored without bytes, by pointer", &rawjson.Value{}, "null"},
		{"nil pointer", (*rawjson.Value)(nil), "null"},
		{"decoded", value.Text("<b>"), `"<b>"`},
		{"unit", value.Unit{}, "{}"},
	} {
		if got := string(rawjson.AppendJSON([]byte("x"), tc.v)); got != "x"+tc.want {
			t.Errorf("%s: AppendJSON = %s, want x%s", tc.name, got, tc.want)
		}
	}
}
