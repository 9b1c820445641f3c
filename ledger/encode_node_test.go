package ledger

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestStoredBytesUnchanged runs Ping submissions through the engine path
// of a node — a create, a consuming exercise, a create archived by the
// same transaction — with texts that JSON escapes, and checks every
// record they store (entries, contract records, deduplication entries and
// their keys) against the encoding/json code path the encoders replace
// (entries, stored in the binary form, through their JSON form).
func TestStoredBytesUnchanged(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("../../shared/testdata/dars", "canton-builtin-admin-workflow-ping.dar"))
	if err != nil {
		t.Skipf("../shared not found: skipping the real-DAR test (%v)", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := Open(Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	ctx := t.Context()
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: data}); err != nil {
		t.Fatal(err)
	}
	party := func(hint string) string {
		resp, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: hint})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Party
	}
	alice, bob := party("alice"), party("bob")
	ping := TemplateByID(lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Ping"})
	pingArgs := func(id string) value.Record {
		return value.Record{Fields: []value.RecordField{{Label: "id", Value: value.Text(id)},
			{Label: "initiator", Value: value.Party(alice)}, {Label: "responder", Value: value.Party(bob)}}}
	}
	read := func(key []byte) []byte {
		t.Helper()
		var raw []byte
		err := n.st.View(func(r *store.Reader) (err error) {
			raw, err = r.Get(key)
			return err
		})
		if err != nil {
			t.Fatalf("reading %q: %v", key, err)
		}
		return raw
	}
	// checkEntry compares a committed entry, its deduplication record and
	// the contract records it wrote with the old encodings.
	checkEntry := func(name string, c Commands, off int64) {
		t.Helper()
		// The entry is stored in the binary form: it decodes to what
		// json.Unmarshal gives for its JSON form, which encodeJSON writes
		// as encoding/json does, and encodes back to the stored bytes.
		raw := read(store.UpdateKey(off))
		if raw[0] != binlogV1 {
			t.Fatalf("%s: stored entry %q is not in the binary form", name, raw)
		}
		var e logEntry
		if err := decodeLogEntry(raw, &e); err != nil {
			t.Fatal(err)
		}
		// Decoded, so not nodesAhead: both sides encode the nodes themselves
		// (encoding/json, and appendTxNode).
		old := oldEncodeEntry(&e)
		if diff := cmp.Diff(string(old), string(e.encodeJSON())); diff != "" {
			t.Errorf("%s: JSON form of the stored entry (-encoding/json +encodeJSON):\n%s", name, diff)
		}
		var want logEntry
		if err := json.Unmarshal(old, &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, e, cmpStored); diff != "" {
			t.Errorf("%s: stored entry (-json.Unmarshal of its JSON form +decoded):\n%s", name, diff)
		}
		if diff := cmp.Diff(raw, e.encode()); diff != "" {
			t.Errorf("%s: stored entry (-stored +encoded again):\n%s", name, diff)
		}
		dedup := read(store.DedupKey(oldChangeID(&c)))
		var dr dedupRecord
		if err := json.Unmarshal(dedup, &dr); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(mustJSON(dr)), string(dedup)); diff != "" {
			t.Errorf("%s: stored deduplication record (-encoding/json +stored):\n%s", name, diff)
		}
		if dr.Offset != off || dr.UpdateID != e.UpdateID || dr.At != e.RecordTime {
			t.Errorf("%s: deduplication record %+v, want offset %d, update %s, at %s", name, dr, off, e.UpdateID, e.RecordTime)
		}
		for _, nd := range e.Nodes {
			raw := read(store.ContractKey(nd.ContractID))
			var rec contractRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			want := mustJSON(&rec) // archived and transient records
			if rec.State == contractActive {
				head := rec
				head.Create = txNode{}
				want = oldEncodeContractRecord(&head, mustJSON(&rec.Create))
			}
			if diff := cmp.Diff(string(want), string(raw)); diff != "" {
				t.Errorf("%s: stored %s contract record (-encoding/json +stored):\n%s", name, rec.State, diff)
			}
		}
	}

	odd := "<ping> & \"quotes\" \u2028 ünï — spaces"
	create := Commands{CommandID: "create", ActAs: []string{alice}, UserID: "u1",
		Commands: []Command{CreateCommand{Template: ping, Arguments: pingArgs(odd)}}}
	created, err := n.submitCmds(ctx, create)
	if err != nil {
		t.Fatal(err)
	}
	checkEntry("create", create, created.Offset)
	if got := read(store.ContractKey(created.Nodes[0].ContractID)); !json.Valid(got) {
		t.Fatalf("contract record %q", got)
	}

	respond := Commands{CommandID: "respond", ActAs: []string{bob}, UserID: "u1",
		Commands: []Command{ExerciseCommand{Template: ping, ContractID: value.ContractID(created.Nodes[0].ContractID), Choice: "Respond"}}}
	responded, err := n.submitCmds(ctx, respond)
	if err != nil {
		t.Fatal(err)
	}
	checkEntry("respond", respond, responded.Offset)

	// Created and archived at once; actAs out of order (the change id
	// sorts it).
	transient := Commands{CommandID: "transient", ActAs: []string{bob, alice}, UserID: "u1",
		Commands: []Command{CreateAndExerciseCommand{Template: ping, Arguments: pingArgs(odd + " 2"), Choice: "Respond"}}}
	both, err := n.submitCmds(ctx, transient)
	if err != nil {
		t.Fatal(err)
	}
	checkEntry("create and exercise", transient, both.Offset)
}
