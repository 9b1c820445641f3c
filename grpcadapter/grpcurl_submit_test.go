package grpcadapter_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/grpcadapter"
	"github.com/ledgernode/ledgernode/identity"
)

// TestGRPCurlSubmissions: grpcurl (through reflection, a client nobody
// here wrote) creates a Ping with SubmitAndWait, is refused alice's
// Respond with DAML_AUTHORIZATION_ERROR in the status details, submits
// bob's Respond with Submit, sees both commands' completions on
// CompletionStream, and is refused a submission with a bad token.
func TestGRPCurlSubmissions(t *testing.T) {
	t.Parallel()
	bin := grpcurlPath(t)
	p := newPingEnv(t)
	v, err := identity.ParseAuthSpec("hs256:"+string(p.secret), identity.VerifyOptions{ParticipantID: p.node.ParticipantIDString()})
	if err != nil {
		t.Fatal(err)
	}
	srv := grpcadapter.New(p.node, grpcadapter.Options{Verifier: v, Logger: slog.New(slog.DiscardHandler)}).NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	addr := lis.Addr().String()
	run := func(token, body, method string, extra ...string) (string, error) {
		t.Helper()
		args := append([]string{"-plaintext", "-H", "authorization: Bearer " + token, "-d", body}, extra...)
		out, err := exec.Command(bin, append(args, addr, method)...).CombinedOutput()
		return string(out), err
	}
	begin := p.end()
	pkg, _, _ := strings.Cut(p.pingID, ":")
	tmpl := fmt.Sprintf(`{"package_id": %q, "module_name": "Canton.Internal.Ping", "entity_name": "Ping"}`, pkg)

	create := fmt.Sprintf(`{"commands": {"command_id": "curl-create", "user_id": %q, "act_as": [%q], "commands": [{"create": {"template_id": %s,
		"create_arguments": {"fields": [{"label": "id", "value": {"text": "curl"}}, {"label": "initiator", "value": {"party": %q}}, {"label": "responder", "value": {"party": %q}}]}}}]}}`,
		p.admin, p.alice, tmpl, p.alice, p.bob)
	out, err := run(p.env.admin, create, "com.daml.ledger.api.v2.CommandService/SubmitAndWait")
	if err != nil {
		t.Fatalf("SubmitAndWait: %v\n%s", err, out)
	}
	var res struct {
		UpdateID         string `json:"updateId"`
		CompletionOffset string `json:"completionOffset"` // int64 in proto JSON
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.UpdateID == "" || res.CompletionOffset != fmt.Sprint(begin+1) {
		t.Fatalf("SubmitAndWait answered %s (%v); want offset %d", out, err, begin+1)
	}
	cid := p.createdCID(res.UpdateID)

	respond := func(cmd, party string) string {
		return fmt.Sprintf(`{"commands": {"command_id": %q, "user_id": %q, "act_as": [%q], "commands": [{"exercise": {"template_id": %s,
			"contract_id": %q, "choice": "Respond", "choice_argument": {"record": {}}}}]}}`, cmd, p.admin, party, tmpl, cid)
	}
	out, err = run(p.env.admin, respond("curl-alice", p.alice), "com.daml.ledger.api.v2.CommandSubmissionService/Submit")
	if err == nil || !strings.Contains(out, "Code: InvalidArgument") || !strings.Contains(out, `"reason": "DAML_AUTHORIZATION_ERROR"`) {
		t.Errorf("alice's Respond: %v\n%s", err, out)
	}
	if end := p.end(); end != begin+1 {
		t.Errorf("ledger end %d after the refusal, want %d", end, begin+1)
	}
	out, err = run(p.env.admin, respond("curl-bob", p.bob), "com.daml.ledger.api.v2.CommandSubmissionService/Submit")
	if err != nil || strings.TrimSpace(out) != "{}" {
		t.Fatalf("bob's Respond: %v\n%s", err, out)
	}

	// The stream follows the ledger: grpcurl stops it after -max-time.
	out, _ = run(p.env.admin, fmt.Sprintf(`{"user_id": %q, "parties": [%q, %q], "begin_exclusive": %d}`, p.admin, p.alice, p.bob, begin),
		"com.daml.ledger.api.v2.CommandCompletionService/CompletionStream", "-max-time", "2")
	for _, want := range []string{`"commandId": "curl-create"`, `"updateId": "` + res.UpdateID + `"`, `"commandId": "curl-bob"`} {
		if !strings.Contains(out, want) {
			t.Errorf("CompletionStream lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "curl-alice") {
		t.Errorf("CompletionStream shows the refused command:\n%s", out)
	}

	out, err = run("not-a-token", create, "com.daml.ledger.api.v2.CommandService/SubmitAndWait")
	if err == nil || !strings.Contains(out, "Code: Unauthenticated") {
		t.Errorf("a bad token: %v\n%s", err, out)
	}
	if end := p.end(); end != begin+2 {
		t.Errorf("ledger end %d, want %d", end, begin+2)
	}
}
