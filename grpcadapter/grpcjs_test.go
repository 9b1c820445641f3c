package grpcadapter_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// protoRoot is the directory of Canton 3.5's .proto files.
const protoRoot = "../../shared/reference/proto-3.5"

// grpcJSModules installs @grpc/grpc-js and @grpc/proto-loader with npm
// into a temporary directory and returns its node_modules; it skips the
// test without node or npm, or when the install fails (no registry).
func grpcJSModules(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: skipping", tool)
		}
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir,
		"@grpc/grpc-js@1", "@grpc/proto-loader@0")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install failed: skipping (%v)\n%s", err, out)
	}
	return filepath.Join(dir, "node_modules")
}

// jsSession is what testdata/grpcjs_ping.js prints.
type jsSession struct {
	Alice, Bob string
	Created    struct {
		UpdateID    string `json:"update_id"`
		Offset      string
		ContractID  string `json:"contract_id"`
		Template    string
		Signatories []string
	}
	BobStream []struct {
		UpdateID  string `json:"update_id"`
		Offset    string
		Contracts []string
		Witnesses [][]string
		Labels    [][]string
	}
	AliceRespond, BadToken struct {
		Code    string
		Reasons []string
	}
	BobRespond struct {
		UpdateID string `json:"update_id"`
		Offset   string
	}
}

// TestGRPCJSPing: a client nobody here wrote — Node's @grpc/grpc-js with
// @grpc/proto-loader over the raw 3.5 protos, on a TCP port — uploads
// the Ping DAR, allocates alice and bob, creates a Ping with
// SubmitAndWaitForTransaction, streams it with GetUpdates as bob, has
// bob Respond, sees alice's Respond refused with
// DAML_AUTHORIZATION_ERROR in the status details and an invalid token
// refused with UNAUTHENTICATED.
func TestGRPCJSPing(t *testing.T) {
	t.Parallel()
	dar, err := filepath.Abs(filepath.FromSlash(pingDAR))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dar)
	if err != nil {
		t.Skipf("../shared not found: skipping (%v)", err)
	}
	if _, err := os.Stat(filepath.FromSlash(protoRoot)); err != nil {
		t.Skipf("../shared not found: skipping (%v)", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	modules := grpcJSModules(t)

	node := ledgertest.Open(t, ledger.Options{})
	raw := make([]byte, 32)
	rand.Read(raw)
	secret := []byte(hex.EncodeToString(raw))
	v, err := identity.ParseAuthSpec("hs256:"+string(secret), identity.VerifyOptions{ParticipantID: node.ParticipantIDString()})
	if err != nil {
		t.Fatal(err)
	}
	srv := grpcadapter.New(node, grpcadapter.Options{Verifier: v, Logger: slog.New(slog.DiscardHandler)}).NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	admin, err := identity.MintHS256(secret, identity.DefaultParticipantAdmin, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}

	roots, _ := filepath.Abs(filepath.FromSlash(protoRoot))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join("testdata", "grpcjs_ping.js"), lis.Addr().String(), roots, dar, d.Main.Name, admin)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var s jsSession
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("%s: %v", out, err)
	}

	if s.Created.Template != "Canton.Internal.Ping:Ping" || !slices.Equal(s.Created.Signatories, []string{s.Alice}) || s.Created.ContractID == "" {
		t.Errorf("created %+v, want alice's Ping", s.Created)
	}
	if len(s.BobStream) == 0 {
		t.Fatal("bob's GetUpdates sent nothing")
	}
	last := s.BobStream[len(s.BobStream)-1]
	if d := cmp.Diff([]any{s.Created.UpdateID, s.Created.Offset, []string{s.Created.ContractID}, [][]string{{s.Bob}}, [][]string{{"id", "initiator", "responder"}}},
		[]any{last.UpdateID, last.Offset, last.Contracts, last.Witnesses, last.Labels}); d != "" {
		t.Errorf("bob's stream ends with %+v (-want +got):\n%s", last, d)
	}
	if s.AliceRespond.Code != "INVALID_ARGUMENT" || !slices.Contains(s.AliceRespond.Reasons, "DAML_AUTHORIZATION_ERROR") {
		t.Errorf("alice's Respond: %+v, want INVALID_ARGUMENT with DAML_AUTHORIZATION_ERROR", s.AliceRespond)
	}
	if s.BadToken.Code != "UNAUTHENTICATED" {
		t.Errorf("invalid token: %+v, want UNAUTHENTICATED", s.BadToken)
	}
	end, err := node.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.BobRespond.UpdateID == "" || s.BobRespond.Offset != strconv.FormatInt(end, 10) {
		t.Errorf("bob's Respond %+v, want the last transaction (ledger end %d): nothing after it", s.BobRespond, end)
	}
	bobsView, err := node.Transaction(ledger.WithPrincipal(context.Background(), identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true}),
		s.BobRespond.UpdateID, ledger.ReadFormat{Parties: map[string][]ledger.Filter{s.Bob: nil}, Shape: ledger.LedgerEffects})
	if err != nil {
		t.Fatal(err)
	}
	if ex, ok := bobsView.Events[0].(*update.ExercisedEvent); !ok || ex.Choice != "Respond" || string(ex.ContractID) != s.Created.ContractID {
		t.Errorf("bob's Respond is %+v", bobsView.Events[0])
	}
}
