package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	v2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
)

// runToExit runs ledgerd with args in a new process that must not serve
// (it is expected to exit on its own) and returns its exit code and
// output; one still running after 30 s is killed (-1).
func runToExit(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envProcess+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return -1, out.String()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// TestFailedRestoreLeavesNoStore: a -restore into a new -data directory
// that fails (the snapshot is cut, at a batch boundary too, or altered; it
// belongs to another participant than -participant-id) exits 1 with an
// error naming the cause and leaves no directory behind, so that the next
// start neither serves a half-restored node under a new identity nor
// refuses the restore as "not empty". The whole snapshot then restores,
// and its node serves again after a restart in a new process. The
// snapshot file is its owner's only: it holds the namespace key.
func TestFailedRestoreLeavesNoStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	dir := t.TempDir()
	snap := filepath.Join(dir, "snap.bin")
	p := startProcess(t, "-in-memory", "-auth", "none", "-grpc-addr", "off", "-snapshot", snap)
	c := p.client(t, 0)
	alice := c.party("alice")
	p.stop(t)
	if fi, err := os.Stat(snap); err != nil {
		t.Fatal(err)
	} else if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("the snapshot's mode is %v: others may read the participant's key", fi.Mode().Perm())
	}
	whole, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(whole)
	flipped[len(flipped)/2] ^= 0x01
	for _, tc := range []struct {
		name string
		snap []byte
		args []string
		want string
	}{
		{"cut in half", whole[:len(whole)/2], nil, "truncated snapshot"},
		{"its trailer cut off", whole[:len(whole)-16], nil, "truncated snapshot"},
		{"a byte altered", flipped, nil, "corrupt snapshot"},
		{"another participant", whole, []string{"-participant-id", "other"}, "belongs to participant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "snap.bin")
			if err := os.WriteFile(file, tc.snap, 0o600); err != nil {
				t.Fatal(err)
			}
			data := filepath.Join(t.TempDir(), "data")
			args := append([]string{"-addr", "127.0.0.1:0", "-grpc-addr", "off", "-auth", "none", "-data", data, "-restore", file}, tc.args...)
			code, out := runToExit(t, args...)
			if code != 1 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want 1 with %q:\n%s", code, tc.want, out)
			}
			if _, err := os.Stat(data); !os.IsNotExist(err) {
				t.Errorf("the failed restore left %s (%v)", data, err)
			}
		})
	}
	data := filepath.Join(dir, "data")
	p = startProcess(t, "-auth", "none", "-grpc-addr", "off", "-data", data, "-restore", snap)
	p.stop(t)
	p = startProcess(t, "-auth", "none", "-grpc-addr", "off", "-data", data)
	var parties struct {
		PartyDetails []struct {
			Party string `json:"party"`
		} `json:"partyDetails"`
	}
	p.client(t, 100).ok("GET", "/v2/parties", nil, &parties)
	if len(parties.PartyDetails) != 1 || parties.PartyDetails[0].Party != alice {
		t.Errorf("the restored node's parties after a restart: %+v, want %s", parties.PartyDetails, alice)
	}
	p.stop(t)
}

// TestPortInUseLeavesStoreAlone: a start whose address is taken exits 1
// before it opens the store: a new -data directory is not created (with
// an identity of its own), and an existing one gets none of the -dar
// seeding, which the next start would run again.
func TestPortInUseLeavesStoreAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	darFile := filepath.Join(t.TempDir(), "iou.dar")
	if err := os.WriteFile(darFile, dar, 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "data")
	for _, addr := range []string{"-addr", "-grpc-addr", "-metrics-addr"} {
		args := []string{"-addr", "127.0.0.1:0", "-grpc-addr", "127.0.0.1:0", "-auth", "none", "-data", data, "-dar", darFile}
		args = append(args, addr, taken.Addr().String())
		code, out := runToExit(t, args...)
		if code != 1 || !strings.Contains(out, addr+": listen") || !strings.Contains(out, "address already in use") {
			t.Errorf("%s in use: exit %d, want 1 naming the flag:\n%s", addr, code, out)
		}
		if _, err := os.Stat(data); !os.IsNotExist(err) {
			t.Errorf("%s in use: the failed start created %s (%v)", addr, data, err)
		}
	}
	p := startProcess(t, "-auth", "none", "-grpc-addr", "off", "-data", data)
	p.stop(t)
	code, out := runToExit(t, "-addr", taken.Addr().String(), "-grpc-addr", "off", "-auth", "none", "-data", data, "-dar", darFile)
	if code != 1 {
		t.Errorf("-addr in use on an existing store: exit %d, want 1:\n%s", code, out)
	}
	p = startProcess(t, "-auth", "none", "-grpc-addr", "off", "-data", data)
	var pkgs struct {
		PackageIDs []string `json:"packageIds"`
	}
	p.client(t, 0).ok("GET", "/v2/packages", nil, &pkgs)
	if strings.Contains(strings.Join(pkgs.PackageIDs, ","), ids[0]) {
		t.Errorf("the start that could not serve uploaded its -dar: %v", pkgs.PackageIDs)
	}
	p.stop(t)
}

// TestSIGTERMEndsGRPCStreams: SIGTERM with a gRPC client tailing the
// ledger (GetUpdates without an end) stops ledgerd at once, the stream
// ending with Canton's SERVER_IS_SHUTTING_DOWN (UNAVAILABLE), rather than
// after the 30 s grace of a graceful stop that waits for a stream that
// never ends.
func TestSIGTERMEndsGRPCStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	p := startProcess(t, "-in-memory", "-auth", "none", "-grpc-addr", "127.0.0.1:0")
	m := grpcLogAddr.FindStringSubmatch(p.log.String())
	if m == nil {
		t.Fatalf("no gRPC address in the log:\n%s", p.log)
	}
	conn, err := grpc.NewClient(m[1], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	party, err := admin.NewPartyManagementServiceClient(conn).AllocateParty(context.Background(), &admin.AllocatePartyRequest{PartyIdHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	alice := party.PartyDetails.Party
	stream, err := v2.NewUpdateServiceClient(conn).GetUpdates(context.Background(), &v2.GetUpdatesRequest{
		UpdateFormat: &v2.UpdateFormat{IncludeTransactions: &v2.TransactionFormat{
			EventFormat:      &v2.EventFormat{FiltersByParty: map[string]*v2.Filters{alice: {}}},
			TransactionShape: v2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA}}})
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		for {
			if _, err := stream.Recv(); err != nil {
				ended <- err
				return
			}
		}
	}()
	time.Sleep(300 * time.Millisecond) // the stream is open on the server
	start := time.Now()
	p.stop(t)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("ledgerd took %v to stop with a stream open", d)
	}
	select {
	case err := <-ended:
		st := status.Convert(err)
		if st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "SERVER_IS_SHUTTING_DOWN") {
			t.Errorf("the stream ended with %v, want UNAVAILABLE SERVER_IS_SHUTTING_DOWN", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the stream did not end")
	}
}

// TestSIGTERMEndsWaitingLists: SIGTERM while an HTTP list waits for new
// updates or completions (stream_idle_timeout_ms, uncapped here) stops
// ledgerd at once; each list answers 200 with what it has, as at its idle
// timeout, instead of holding the shutdown for the whole idle timeout.
func TestSIGTERMEndsWaitingLists(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	p := startProcess(t, "-in-memory", "-auth", "none", "-grpc-addr", "off", "-max-stream-idle-timeout", "-1s")
	alice := p.client(t, 0).party("alice")
	bodies := map[string]string{
		"/v2/updates": `{"beginExclusive": 0, "updateFormat": {"includeTransactions": {"eventFormat": {"filtersByParty": {"` + alice +
			`": {}}}, "transactionShape": "TRANSACTION_SHAPE_ACS_DELTA"}}}`,
		"/v2/commands/completions": `{"userId": "participant_admin", "parties": ["` + alice + `"], "beginExclusive": 0}`,
	}
	type answer struct {
		path string
		code int
		body string
		err  error
	}
	answers := make(chan answer, len(bodies))
	for path, body := range bodies {
		go func() {
			resp, err := http.Post(p.base+path+"?stream_idle_timeout_ms=600000", "application/json", strings.NewReader(body))
			if err != nil {
				answers <- answer{path: path, err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			answers <- answer{path, resp.StatusCode, string(b), err}
		}()
	}
	time.Sleep(500 * time.Millisecond) // the lists wait on the server
	start := time.Now()
	p.stop(t)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("ledgerd took %v to stop with lists waiting", d)
	}
	for range bodies {
		select {
		case a := <-answers:
			if a.err != nil || a.code != 200 || !strings.HasPrefix(a.body, "[") {
				t.Errorf("%s: %d %q %v, want 200 and a list", a.path, a.code, a.body, a.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a list did not answer")
		}
	}
}

// TestStaticTimeResumesAfterRestart: a node on -static-time that moved its
// time and committed, restarted in a new process with the same flag (on
// its directory, or from its snapshot), resumes at its last record time,
// not at the flag's instant: record times do not go back, as Canton's
// never do, and the static clock stays forward-only across restarts.
func TestStaticTimeResumesAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	const start, later = "2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"
	for _, tc := range restartModes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := func(more []string) []string {
				return append(more, "-auth", "none", "-grpc-addr", "off", "-static-time="+start)
			}
			var now struct {
				CurrentTime string `json:"currentTime"`
			}
			p := startProcess(t, args(tc.first(dir))...)
			c := p.client(t, 0)
			c.ok("POST", "/ledgernode/v1/time", map[string]any{"advance": "24h"}, &now)
			c.party("alice") // an update at the later time
			p.stop(t)

			p = startProcess(t, args(tc.second(dir))...)
			c = p.client(t, 100)
			c.ok("GET", "/ledgernode/v1/time", nil, &now)
			if now.CurrentTime != later {
				t.Errorf("static time after the restart: %s, want %s (the last record time), not the flag's %s", now.CurrentTime, later, start)
			}
			p.stop(t)
		})
	}
}

// TestSnapshotNotWrittenFails: -snapshot is the only state an in-memory
// node keeps. One that cannot be written is refused at start (exit 1,
// nothing served), and one that fails at shutdown (its directory went
// away meanwhile) makes ledgerd exit 1, not 0.
func TestSnapshotNotWrittenFails(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "snap.bin")
	code, out := runToExit(t, "-addr", "127.0.0.1:0", "-grpc-addr", "off", "-auth", "none", "-in-memory", "-snapshot", missing)
	if code != 1 || !strings.Contains(out, "-snapshot:") || strings.Contains(out, "ledgerd serving") {
		t.Errorf("-snapshot in a missing directory: exit %d, want 1 before serving:\n%s", code, out)
	}

	dir := filepath.Join(t.TempDir(), "snaps")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := startProcess(t, "-in-memory", "-auth", "none", "-grpc-addr", "off", "-snapshot", filepath.Join(dir, "snap.bin"))
	p.client(t, 0).party("alice")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("a snapshot not written at shutdown: %v, want exit status 1:\n%s", err, p.log)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ledgerd did not stop")
	}
}

// TestEmptyDataDirRefused: -data "" (a script's unset variable) is a
// command-line mistake (exit 2), not an in-memory node that loses
// everything at exit while it reports store="".
func TestEmptyDataDirRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	code, out := runToExit(t, "-addr", "127.0.0.1:0", "-grpc-addr", "off", "-auth", "none", "-data", "")
	if code != 2 || !strings.Contains(out, "-data is empty") || strings.Contains(out, "ledgerd serving") {
		t.Errorf("-data \"\": exit %d, want 2 before serving:\n%s", code, out)
	}
	if code, out := runToExit(t, "-addr", "127.0.0.1:0", "-grpc-addr", "off", "-auth", "none", "-data", "", "-in-memory", "-version"); code != 0 {
		t.Errorf("-data \"\" -in-memory: exit %d, want 0:\n%s", code, out)
	}
}
