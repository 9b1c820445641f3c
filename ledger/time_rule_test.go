package ledger_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestTimeRule: Node.Time is Canton's TimeService.GetTime, open to any
// authenticated caller; AdminTime (ledgernode's admin time route) needs
// ParticipantAdmin.
func TestTimeRule(t *testing.T) {
	t.Parallel()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	node, _ := ledgertest.OpenStatic(t, ledger.Options{}, start)
	plain := ledger.WithPrincipal(context.Background(), identity.Principal{UserID: "plain"})
	admin := ledger.WithPrincipal(context.Background(), identity.Principal{UserID: "adm", Rights: []identity.Right{{Kind: identity.RightParticipantAdmin}}})
	tests := []struct {
		name string
		read func(context.Context) (time.Time, error)
		ctx  context.Context
		code apierr.Code // zero: the call succeeds
	}{
		{"Time, no rights", node.Time, plain, apierr.Code{}},
		{"Time, admin", node.Time, admin, apierr.Code{}},
		{"AdminTime, no rights", node.AdminTime, plain, apierr.PermissionDenied},
		{"AdminTime, admin", node.AdminTime, admin, apierr.Code{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.read(tc.ctx)
			if tc.code == (apierr.Code{}) {
				if err != nil || !got.Equal(start) {
					t.Fatalf("%v, %v; want %v", got, err, start)
				}
				return
			}
			if !errors.Is(err, tc.code) {
				t.Fatalf("%v, want %s", err, tc.code.Name)
			}
		})
	}
}
