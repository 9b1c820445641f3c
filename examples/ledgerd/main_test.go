package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/identity"
)

// start runs ledgerd with args on a free loopback port and returns its base
// URL and what it printed; the server stops at the end of the test.
func start(t *testing.T, args ...string) (string, *bytes.Buffer) {
	t.Helper()
	s := startServer(t, discardLogger(), args...)
	return s.base, &s.out
}

// discardLogger is a logger that writes nothing.
func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func call(t *testing.T, method, u, token, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: body %q is not a JSON object: %v", method, u, raw, err)
	}
	return resp.StatusCode, m
}

func TestServesWithHS256(t *testing.T) {
	t.Parallel()
	base, _ := start(t, "-in-memory", "-auth", "hs256:S")
	tok := mintFor(t, "S")
	if code, _ := call(t, "GET", base+"/livez", "", ""); code != 200 {
		t.Fatalf("livez = %d", code)
	}
	if code, _ := call(t, "GET", base+"/v2/state/ledger-end", "", ""); code != 401 {
		t.Fatalf("ledger-end without a token = %d, want 401", code)
	}
	wrong := mintFor(t, "other")
	if code, _ := call(t, "GET", base+"/v2/state/ledger-end", wrong, ""); code != 401 {
		t.Fatalf("ledger-end with a token of another secret = %d, want 401", code)
	}
	code, body := call(t, "POST", base+"/v2/parties", tok, `{"partyIdHint":"alice"}`)
	if code != 200 {
		t.Fatalf("allocate = %d %v", code, body)
	}
	party := body["partyDetails"].(map[string]any)["party"].(string)
	code, body = call(t, "GET", base+"/v2/parties/"+url.PathEscape(party), tok, "")
	if code != 200 || len(body["partyDetails"].([]any)) != 1 {
		t.Fatalf("get party = %d %v", code, body)
	}
	if code, body = call(t, "GET", base+"/v2/state/ledger-end", tok, ""); code != 200 || body["offset"] != 1.0 {
		t.Fatalf("ledger end = %d %v, want offset 1", code, body)
	}
}

func TestGeneratedSecretPrintsToken(t *testing.T) {
	t.Parallel()
	base, out := start(t, "-in-memory")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	tok := lines[len(lines)-1]
	if code, body := call(t, "GET", base+"/v2/parties/participant-id", tok, ""); code != 200 || body["participantId"] == "" {
		t.Fatalf("participant-id with the printed token = %d %v", code, body)
	}
}

func TestRestartServesSameParticipant(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"-data", dir, "-auth", "none", "-participant-id", "node1", "-synchronizers", "sync1::1220aa,sync2::1220bb"}
	read := func() (string, float64) {
		s := startServer(t, discardLogger(), args...)
		base := s.base
		_, id := call(t, "GET", base+"/v2/parties/participant-id", "", "")
		call(t, "POST", base+"/v2/parties", "", `{}`)
		_, end := call(t, "GET", base+"/v2/state/ledger-end", "", "")
		s.stop()
		return id["participantId"].(string), end["offset"].(float64)
	}
	id1, end1 := read()
	id2, end2 := read()
	if id1 != id2 || !strings.HasPrefix(id1, "node1::1220") {
		t.Errorf("participant ids %q then %q", id1, id2)
	}
	if end1 != 1 || end2 != 2 {
		t.Errorf("ledger ends %v then %v, want 1 then 2", end1, end2)
	}
}

func TestBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-in-memory", "-auth", "md5:x"},
		{"-in-memory", "-participant-id", "bad::"},
		{"-in-memory", "-synchronizers", "nope"},
		{"-in-memory", "stray"},
	} {
		err := run(context.Background(), args, io.Discard, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		if err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

func TestInstrumentsFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := dir + "/bad.json"
	os.WriteFile(bad, []byte(`{"adminId":"a","instruments":[{"id":"GOLD","name":"Gold","symbol":"AU","decimals":12}]}`), 0o600)
	err := run(context.Background(), []string{"-in-memory", "-addr", "127.0.0.1:0", "-instruments", bad}, io.Discard,
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if err == nil || !strings.Contains(err.Error(), "instrument GOLD: field decimals") {
		t.Fatalf("invalid instruments file: err = %v, want it to name instrument GOLD and field decimals", err)
	}
	if err := run(context.Background(), []string{"-in-memory", "-instruments", dir + "/missing.json"}, io.Discard,
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil); err == nil {
		t.Fatal("a missing instruments file was accepted")
	}
}

func TestServesInstrumentsFile(t *testing.T) {
	t.Parallel()
	file := t.TempDir() + "/instruments.json"
	os.WriteFile(file, []byte(`{"adminId": "registry::1220ab", "supportedApis": {"splice-api-token-metadata-v1": 1},
		"instruments": [{"id": "USDX", "name": "US Dollar X", "symbol": "USDX", "decimals": 2, "supportedApis": {}}]}`), 0o600)
	base, _ := start(t, "-in-memory", "-auth", "hs256:S", "-instruments", file)
	code, body := call(t, "GET", base+"/registry/metadata/v1/instruments/USDX", "", "")
	if code != 200 || body["symbol"] != "USDX" || body["decimals"] != 2.0 {
		t.Fatalf("instrument = %d %v", code, body)
	}
	code, body = call(t, "GET", base+"/registry/metadata/v1/info", "", "")
	if code != 200 || body["adminId"] != "registry::1220ab" {
		t.Fatalf("info = %d %v", code, body)
	}
	if code, body = call(t, "GET", base+"/registry/metadata/v1/instruments/NOPE", "", ""); code != 404 || body["error"] == nil {
		t.Fatalf("unknown instrument = %d %v", code, body)
	}
}

// TestStalledRequestClosed: ledgerd closes a connection whose request body
// stalls once -request-timeout has passed, with pekko-http's 503.
func TestStalledRequestClosed(t *testing.T) {
	t.Parallel()
	base, _ := start(t, "-in-memory", "-auth", "none", "-request-timeout", "300ms")
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	begin := time.Now()
	io.WriteString(conn, "POST /v2/parties HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"partyIdHint\"")
	conn.SetReadDeadline(begin.Add(5 * time.Second))
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("connection still open after 5 s (%v); got %q", err, got)
	}
	if took := time.Since(begin); took > 3*time.Second || !strings.HasPrefix(string(got), "HTTP/1.1 503 ") {
		t.Errorf("after %v: %q, want a 503 after about 300ms", took, got)
	}
}

// mintFor mints a participant_admin token with an HS256 secret.
func mintFor(t *testing.T, secret string) string {
	t.Helper()
	tok, err := identity.MintHS256([]byte(secret), identity.DefaultParticipantAdmin, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
