package ledger

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
)

// recordStrings are the strings the records' fields take in
// TestStoredRecordsAreJSONMarshal: plain ids and ones with bytes
// json.Marshal escapes.
var recordStrings = []string{"", "alice", "participant_admin", "alice::1220ab", "0", "17", `a"b`, `a\b`, "a<b>&c", "a\nb\t\x01",
	"a\x7fb", "a\u2028b\u2029", "é", "a\xffb", "日本"}

func recordMetas() []identity.ObjectMeta {
	metas := []identity.ObjectMeta{{}, {ResourceVersion: "0", Annotations: map[string]string{}}}
	for i, s := range recordStrings {
		a := map[string]string{}
		for j, k := range recordStrings[:i] {
			a[k] = recordStrings[(i+j)%len(recordStrings)]
		}
		metas = append(metas, identity.ObjectMeta{ResourceVersion: s, Annotations: a})
	}
	return metas
}

func TestStoredRecordsAreJSONMarshal(t *testing.T) {
	t.Parallel()
	kinds := []identity.RightKind{identity.RightParticipantAdmin, identity.RightCanActAs, identity.RightCanReadAs,
		identity.RightCanExecuteAsAnyParty, "Unknown<"}
	var rights [][]identity.Right
	rights = append(rights, nil, []identity.Right{})
	for i, s := range recordStrings {
		var rs []identity.Right
		for j := 0; j <= i%4; j++ {
			rs = append(rs, identity.Right{Kind: kinds[(i+j)%len(kinds)], Party: s})
		}
		rights = append(rights, rs)
	}
	n := 0
	for i, s := range recordStrings {
		for j, m := range recordMetas() {
			u := userRecord{User: identity.User{ID: s, PrimaryParty: recordStrings[(i+j)%len(recordStrings)], IsDeactivated: j%2 == 0,
				Metadata: m, IdentityProviderID: recordStrings[(i+2*j)%len(recordStrings)], PrimaryPartyAuthentication: j%3 == 0},
				Rights: rights[(i+j)%len(rights)]}
			if got, want := userRecordJSON(u), mustJSON(u); string(got) != string(want) {
				t.Errorf("user record %+v:\n got %s\nwant %s", u, got, want)
			}
			p := partyRecord{Party: s, IdentityProviderID: recordStrings[(i+j)%len(recordStrings)], Metadata: m,
				SynchronizerID: recordStrings[(2*i+j)%len(recordStrings)], Offset: int64(i*j - 3), SigningThreshold: (i + j) % 3}
			if j%5 == 1 {
				p.SigningKeys = []interactive.SigningKey{{}}
			}
			if got, want := partyRecordJSON(p), mustJSON(p); string(got) != string(want) {
				t.Errorf("party record %+v:\n got %s\nwant %s", p, got, want)
			}
			n++
		}
	}
	if n < 200 {
		t.Fatalf("only %d records", n)
	}
	// Read back, the user records are the same.
	u := userRecord{User: identity.User{ID: "alice", Metadata: identity.ObjectMeta{ResourceVersion: "3", Annotations: map[string]string{"k": "v"}}},
		Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: "alice::ns"}, {Kind: identity.RightParticipantAdmin}}}
	var back userRecord
	if err := json.Unmarshal(userRecordJSON(u), &back); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back) != fmt.Sprint(u) {
		t.Errorf("read back %+v, want %+v", back, u)
	}
}

// benchUserRecord is a Daml Script user's record: a few CanActAs and
// CanReadAs rights.
func benchUserRecord() userRecord {
	u := userRecord{User: identity.User{ID: "alice", PrimaryParty: "alice::1220ab",
		Metadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{}}}}
	for i := range 6 {
		u.Rights = append(u.Rights, identity.Right{Kind: identity.RightCanActAs, Party: fmt.Sprintf("party-%d::1220abcdef", i)},
			identity.Right{Kind: identity.RightCanReadAs, Party: fmt.Sprintf("party-%d::1220abcdef", i)})
	}
	return u
}

// BenchmarkUserRecordJSON writes a user's stored record: "written" as the
// node does, "json.Marshal" as it did.
func BenchmarkUserRecordJSON(b *testing.B) {
	u := benchUserRecord()
	b.Run("written", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			userRecordJSON(u)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustJSON(u)
		}
	})
}

// BenchmarkUserRecordRead reads a user's stored record back (its rights
// by Right.UnmarshalJSON).
func BenchmarkUserRecordRead(b *testing.B) {
	raw := userRecordJSON(benchUserRecord())
	b.ReportAllocs()
	for b.Loop() {
		var u userRecord
		if err := json.Unmarshal(raw, &u); err != nil {
			b.Fatal(err)
		}
	}
}
