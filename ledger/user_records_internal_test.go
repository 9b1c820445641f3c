package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestUserRecordsDecodedForm: on a node restored from a prepared snapshot
// (a Daml Script's, whose store keeps decoded forms), a user's record is
// stored with its decoded form, its decoding, which the reads copy (a
// caller changing the rights it got changes nothing stored); a record
// with a string the encoding rewrites (invalid UTF-8) has none and is
// read from its bytes; rights granted by a party allocation and by
// GrantUserRights read back alike.
func TestUserRecordsDecodedForm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)}
	base, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	var snap bytes.Buffer
	if err := base.Snapshot(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	prepared, err := PrepareSnapshot(snap.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	opts.Restore = prepared.Reader()
	n, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })

	decoded := func(id string) (*userRecord, userRecord) {
		t.Helper()
		var d any
		var raw []byte
		if err := n.st.View(func(r *store.Reader) error {
			d, _ = r.Decoded(store.UserKey(id))
			var err error
			raw, err = r.Get(store.UserKey(id))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var want userRecord
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		u, _ := d.(*userRecord)
		return u, want
	}
	party, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	canRead := identity.Right{Kind: identity.RightCanReadAs, Party: party.Party}
	if _, err := n.CreateUser(ctx, identity.User{ID: "u1", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": "<v>"}}}, []identity.Right{canRead}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: "bob", UserID: "u1"}); err != nil {
		t.Fatal(err)
	}
	got, want := decoded("u1")
	if got == nil {
		t.Fatal("no decoded form of user u1")
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("decoded form of u1 (-decoding +form):\n%s", diff)
	}
	rights, err := n.ListUserRights(ctx, "u1", "")
	if err != nil || len(rights) != 2 || rights[0] != canRead {
		t.Fatalf("ListUserRights = %v, %v", rights, err)
	}
	rights[0] = identity.Right{Kind: identity.RightParticipantAdmin}
	if again, err := n.ListUserRights(ctx, "u1", ""); err != nil || again[0] != canRead {
		t.Errorf("ListUserRights after the caller changed its copy = %v, %v", again, err)
	}
	if _, err := n.GrantUserRights(ctx, "u1", "", []identity.Right{{Kind: identity.RightParticipantAdmin}}); err != nil {
		t.Fatal(err)
	}
	if u, err := n.GetUser(ctx, "u1", ""); err != nil || u.Metadata.Annotations["k"] != "<v>" {
		t.Errorf("GetUser = %+v, %v", u, err)
	}
	if rights, err := n.ListUserRights(ctx, "u1", ""); err != nil || len(rights) != 3 {
		t.Errorf("ListUserRights after a grant = %v, %v", rights, err)
	}

	// Invalid UTF-8 is written as U+FFFD: no decoded form.
	if _, err := n.CreateUser(ctx, identity.User{ID: "u2", Metadata: identity.ObjectMeta{Annotations: map[string]string{"k": "\xff"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := decoded("u2"); got != nil {
		t.Errorf("decoded form of u2 = %+v, want none", got)
	}
	if u, err := n.GetUser(ctx, "u2", ""); err != nil || u.Metadata.Annotations["k"] != "\ufffd" {
		t.Errorf("GetUser(u2) = %+v, %v", u, err)
	}
}
