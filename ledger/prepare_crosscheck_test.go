package ledger_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

var writeNodeFixtures = flag.Bool("write-crosscheck", false,
	"write ../interactive/testdata/crosscheck/node-prepared.json (transactions prepared by the node, for crosscheck.mjs)")

// TestWriteNodePreparedFixtures writes transactions that the node prepared
// through the Daml engine with Canton's Ping DAR — an Ed25519 external
// party's Ping create, and its Respond on alice's Ping (an exercise with
// its result and an input contract) — with the node's V2 hashes, for the
// reference cross-check:
//
//	go test ./ledger -run TestWriteNodePreparedFixtures -args -write-crosscheck
//	node crosscheck.mjs node-prepared.json
//
// Prepared transactions carry a fresh uuid, seeds and time, so the file is
// not compared with what the test would write; without the flag the test
// checks that both prepared transactions execute.
func TestWriteNodePreparedFixtures(t *testing.T) {
	t.Parallel()
	f := newPingExternal(t)
	create := f.prepareCreate(t, "xc-create")
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(create)); err != nil {
		t.Fatalf("execute the Ping create: %v", err)
	}
	respond := f.prepareRespond(t, "xc-respond", f.alicePing(t, "xc"))
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(respond)); err != nil {
		t.Fatalf("execute the Respond: %v", err)
	}
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
		resp jsonapi.JsPrepareSubmissionResponse
	}{{"node-ping-create", create}, {"node-ping-respond", respond}} {
		out.Prepared = append(out.Prepared, prepared{Name: p.name, Note: "prepared by the node (V2)",
			Base64: base64.StdEncoding.EncodeToString(p.resp.PreparedTransaction), HashV2: hex.EncodeToString(p.resp.PreparedTransactionHash), ExpectMatch: true})
	}
	// npm implements V2 only; V3 is covered by the interactive package's
	// own test vectors.
	b, _ := json.MarshalIndent(out, "", "  ")
	path := filepath.Join("..", "interactive", "testdata", "crosscheck", "node-prepared.json")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
