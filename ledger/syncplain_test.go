package ledger

import (
	"testing"

	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// TestSyncIsPlain checks syncIsPlain against jsontext.HTMLPlain, with the
// last plain id remembered or not.
func TestSyncIsPlain(t *testing.T) {
	for _, sync := range []string{"global-domain::1220ab", "a<b", "global-domain::1220ab", "", "x\u00e9", "other::12", "a<b", "other::12"} {
		if got, want := syncIsPlain(sync), jsontext.HTMLPlain(sync); got != want {
			t.Errorf("syncIsPlain(%q) = %v, want %v", sync, got, want)
		}
	}
}
