package ledger_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

var writeNodeFixtures = flag.Bool("write-crosscheck", false,
	"write ../interactive/testdata/crosscheck/node-prepared.json (transactions prepared by the node, for crosscheck.mjs)")

// TestWriteNodePreparedFixtures writes transactions that the node prepared
// (a create by an Ed25519 external party and the exercise that archives
// it), with the node's V2 and V3 hashes, for the reference cross-check:
//
//	go test ./ledger -run TestWriteNodePreparedFixtures -args -write-crosscheck
//	node crosscheck.mjs node-prepared.json
//
// Prepared transactions carry a fresh uuid, seeds and time, so the file is
// not compared with what the test would write; without the flag the test
// only checks that the node's V2 hash verifies its own bytes.
func TestWriteNodePreparedFixtures(t *testing.T) {
	f := newExternalFixture(t, ed25519Key)
	tid := f.pkg + ":Main:Iou"
	create := f.prepare(t, "xc-create", "", ledger.Command{CreateCommand: &ledger.CreateCommand{TemplateID: tid,
		CreateArguments: json.RawMessage(`{"owner": "` + f.ext + `", "amount": "42"}`)}})
	done, err := f.n.ExecuteSubmissionAndWaitForTransaction(f.ctx, ledger.ExecuteSubmissionAndWaitForTransactionRequest{ExecuteSubmissionRequest: f.execReq(create)})
	if err != nil {
		t.Fatal(err)
	}
	cid := done.Transaction.Events[0].CreatedEvent.ContractID
	archive := f.prepare(t, "xc-archive", "", ledger.Command{ExerciseCommand: &ledger.ExerciseCommand{TemplateID: tid,
		ContractID: cid, Choice: "Archive", ChoiceArgument: json.RawMessage(`{}`)}})
	if !*writeNodeFixtures {
		return
	}
	type prepared struct {
		Name        string `json:"name"`
		Note        string `json:"note"`
		Base64      string `json:"base64"`
		HashV2      string `json:"hashV2"`
		ExpectMatch bool   `json:"expectMatch"`
	}
	out := struct {
		Comment  string     `json:"comment"`
		Prepared []prepared `json:"prepared"`
		Topology []any      `json:"topology"`
		Multi    []any      `json:"multiHashes"`
	}{Comment: "Transactions prepared by ledger.Node.PrepareSubmission; regenerate with go test ./ledger -run TestWriteNodePreparedFixtures -args -write-crosscheck",
		Topology: []any{}, Multi: []any{}}
	for _, p := range []struct {
		name string
		resp ledger.JsPrepareSubmissionResponse
	}{{"node-create", create}, {"node-archive", archive}} {
		out.Prepared = append(out.Prepared, prepared{Name: p.name, Note: "prepared by the node (V2)",
			Base64: base64.StdEncoding.EncodeToString(p.resp.PreparedTransaction), HashV2: hex.EncodeToString(p.resp.PreparedTransactionHash), ExpectMatch: true})
	}
	// npm implements V2 only; V3 is covered by interactive.md's vectors.
	b, _ := json.MarshalIndent(out, "", "  ")
	path := filepath.Join("..", "interactive", "testdata", "crosscheck", "node-prepared.json")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
