package ledger_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestDomainEventsLogged: a DAR upload, a party allocation and a user's
// creation and deletion each log one info line through Options.Logger.
func TestDomainEventsLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	n := ledgertest.Open(t, ledger.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	ctx := context.Background()
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, d)
	alice, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.CreateUser(ctx, identity.User{ID: "bob"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := n.DeleteUser(ctx, "bob", ""); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		switch m["msg"] {
		case "DAR uploaded", "party allocated", "user created", "user deleted":
			delete(m, "time")
			delete(m, "synchronizerId")
			if m["msg"] == "DAR uploaded" && m["name"] == "" {
				t.Errorf("DAR uploaded without a package name: %v", m)
			}
			delete(m, "name")
			got = append(got, m)
		}
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "DAR uploaded", "mainPackageId": ids[0], "version": "1.0.0", "packages": 1.0, "vetted": true},
		{"level": "INFO", "msg": "party allocated", "party": alice.Party, "user": ""},
		{"level": "INFO", "msg": "user created", "user": "bob", "identityProviderId": "", "rights": 0.0},
		{"level": "INFO", "msg": "user deleted", "user": "bob", "identityProviderId": ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("domain event lines (-want +got):\n%s", diff)
	}
}
