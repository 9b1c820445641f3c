package grpcadapter_test

import (
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// grpcurlPath finds grpcurl on PATH or in the go command's bin directory,
// or skips the test.
func grpcurlPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("grpcurl"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, dir := range lines {
			if dir == "" {
				continue
			}
			if i == 1 {
				dir = filepath.Join(dir, "bin")
			}
			if p := filepath.Join(dir, "grpcurl"); fileExists(p) {
				return p
			}
		}
	}
	t.Skip("grpcurl is not installed (go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4)")
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// TestGRPCurl: grpcurl, a client nobody here wrote, finds the services by
// reflection and calls them with a bearer token: it lists the services,
// reads the version, allocates a party, gets Canton's error details for
// an unknown user, and is refused without a valid token.
func TestGRPCurl(t *testing.T) {
	t.Parallel()
	bin := grpcurlPath(t)
	node := ledgertest.Open(t, ledger.Options{})
	secret := "grpcurl-test-secret-grpcurl-test-secret"
	v, err := identity.ParseAuthSpec("hs256:"+secret, identity.VerifyOptions{ParticipantID: node.ParticipantIDString()})
	if err != nil {
		t.Fatal(err)
	}
	token, err := identity.MintHS256([]byte(secret), identity.DefaultParticipantAdmin, time.Hour, nil)
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
	addr := lis.Addr().String()

	run := func(t *testing.T, args ...string) (string, error) {
		t.Helper()
		out, err := exec.Command(bin, append([]string{"-plaintext"}, args...)...).CombinedOutput()
		return string(out), err
	}
	auth := "authorization: Bearer " + token

	out, err := run(t, addr, "list")
	if err != nil {
		t.Fatalf("grpcurl list: %v\n%s", err, out)
	}
	for _, want := range []string{"com.daml.ledger.api.v2.VersionService", "com.daml.ledger.api.v2.admin.PartyManagementService", "grpc.health.v1.Health"} {
		if !strings.Contains(out, want) {
			t.Errorf("grpcurl list lacks %s:\n%s", want, out)
		}
	}

	if strings.Contains(out, "TimeService") {
		t.Errorf("grpcurl list shows the TimeService of a node on wall-clock time:\n%s", out)
	}

	out, err = run(t, "-H", auth, addr, "com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion")
	if err != nil {
		t.Fatalf("GetLedgerApiVersion: %v\n%s", err, out)
	}
	var version struct {
		Version  string
		Features struct{ UserManagement struct{ Supported bool } }
	}
	if err := json.Unmarshal([]byte(out), &version); err != nil || version.Version != ledger.APIVersion || !version.Features.UserManagement.Supported {
		t.Errorf("version %s (%v)", out, err)
	}

	out, err = run(t, "-H", auth, "-d", `{"party_id_hint": "alice"}`, addr, "com.daml.ledger.api.v2.admin.PartyManagementService/AllocateParty")
	if err != nil {
		t.Fatalf("AllocateParty: %v\n%s", err, out)
	}
	var alloc struct{ PartyDetails struct{ Party string } }
	if err := json.Unmarshal([]byte(out), &alloc); err != nil || !strings.HasPrefix(alloc.PartyDetails.Party, "alice::") {
		t.Fatalf("allocated %s (%v)", out, err)
	}
	if res, err := node.GetParties(t.Context(), []string{alloc.PartyDetails.Party}, ""); err != nil || len(res) != 1 {
		t.Errorf("the node does not know %s: %v, %v", alloc.PartyDetails.Party, res, err)
	}

	out, err = run(t, "-H", auth, "-d", `{"user_id": "nobody"}`, addr, "com.daml.ledger.api.v2.admin.UserManagementService/GetUser")
	if err == nil || !strings.Contains(out, "Code: NotFound") || !strings.Contains(out, "USER_NOT_FOUND(11,0)") ||
		!strings.Contains(out, `"reason": "USER_NOT_FOUND"`) || !strings.Contains(out, "google.rpc.ResourceInfo") {
		t.Errorf("GetUser of an unknown user: %v\n%s", err, out)
	}

	for _, h := range [][]string{{}, {"-H", "authorization: Bearer not-a-token"}} {
		out, err = run(t, append(h, "-d", `{"party_id_hint": "mallory"}`, addr, "com.daml.ledger.api.v2.admin.PartyManagementService/AllocateParty")...)
		if err == nil || !strings.Contains(out, "Code: Unauthenticated") {
			t.Errorf("AllocateParty with %v: %v\n%s", h, err, out)
		}
	}
}
