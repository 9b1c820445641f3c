package main

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// envProcess makes the test binary run ledgerd's main with its arguments
// (TestMain), so that a test can start ledgerd as a separate process: a
// new process has none of the process-wide caches of the test's own
// (decoded packages, DARs), as a restarted ledgerd has none.
const envProcess = "LEDGERD_TEST_PROCESS"

func TestMain(m *testing.M) {
	if os.Getenv(envScaleLimit) == "1" {
		os.Exit(serveScaleLimit())
	}
	if os.Getenv(envProcess) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// process is ledgerd running in a process of its own.
type process struct {
	cmd  *exec.Cmd
	base string
	done chan error
	log  *lockedBuffer
}

var servingAddr = regexp.MustCompile(`ledgerd serving.* addr=(\S+)`)

// startProcess starts ledgerd with args (on a free loopback port) in a new
// process and waits until it serves.
func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), envProcess+"=1")
	p := &process{cmd: cmd, done: make(chan error, 1), log: &lockedBuffer{}}
	cmd.Stdout = p.log
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(p.log, sc.Text())
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	select {
	case a := <-addr:
		p.base = "http://" + a
	case err := <-p.done:
		t.Fatalf("ledgerd %v exited before serving: %v\n%s", args, err, p.log)
	case <-time.After(30 * time.Second):
		t.Fatalf("ledgerd %v did not serve within 30s:\n%s", args, p.log)
	}
	return p
}

// stop ends the process as an operator does (SIGTERM) and waits for a
// clean exit.
func (p *process) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("ledgerd exited with %v:\n%s", err, p.log)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("ledgerd did not stop within 30s of SIGTERM:\n%s", p.log)
	}
}

func (p *process) client(t *testing.T, seq int) *apiClient {
	return &apiClient{t: t, base: p.base, hc: &http.Client{}, seq: seq}
}

// restartModes are the two ways a ledgerd's state outlives its process:
// the flags of its first and second start in dir.
var restartModes = []struct {
	name          string
	first, second func(dir string) []string
}{
	{"data directory",
		func(dir string) []string { return []string{"-data", filepath.Join(dir, "data")} },
		func(dir string) []string { return []string{"-data", filepath.Join(dir, "data")} }},
	{"in-memory snapshot and restore",
		func(dir string) []string { return []string{"-in-memory", "-snapshot", filepath.Join(dir, "snap.bin")} },
		func(dir string) []string { return []string{"-in-memory", "-restore", filepath.Join(dir, "snap.bin")} }},
}

// TestDamlAfterRestartInNewProcess is what a user of a durable ledgerd
// does: upload a DAR, create, stop, start a new process on the same data
// (a directory, or an in-memory node's snapshot), then create and
// exercise again — on contracts of both runs. Before the node's engine
// read its packages from its own store, the second process answered
// "unknown package" while /v2/packages still listed the package; tests
// that restarted inside one process did not see it, because the
// process-wide engine still held the package.
func TestDamlAfterRestartInNewProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ledgerd processes (-short)")
	}
	t.Parallel()
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	iou := ids[0] + ":Main:Iou"
	for _, tc := range restartModes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			p := startProcess(t, append(tc.first(dir), "-auth", "none")...)
			c := p.client(t, 0)
			c.upload(dar)
			alice, bob := c.party("alice"), c.party("bob")
			first := c.submitTx([]string{alice}, createCmd(iou, map[string]any{"owner": alice, "amount": "1"}))
			p.stop(t)

			p = startProcess(t, append(tc.second(dir), "-auth", "none")...)
			c = p.client(t, 100) // new command ids
			var pkgs struct {
				PackageIDs []string `json:"packageIds"`
			}
			c.ok("GET", "/v2/packages", nil, &pkgs)
			if !strings.Contains(strings.Join(pkgs.PackageIDs, ","), ids[0]) {
				t.Fatalf("the restarted node does not list package %s: %v", ids[0], pkgs.PackageIDs)
			}
			second := c.submitTx([]string{alice}, createCmd(iou, map[string]any{"owner": alice, "amount": "2"}))
			oldID := createdID(t, first)
			newID := createdID(t, second)
			c.submitTx([]string{alice}, exerciseCmd(iou, newID, "Peek", map[string]any{}))
			c.submitTx([]string{alice}, exerciseCmd(iou, oldID, "Transfer", map[string]any{"newOwner": bob}))
			if got := len(c.acs(alice)); got != 1 {
				t.Errorf("alice sees %d active contracts after the transfer, want 1 (the second Iou)", got)
			}
			p.stop(t)
		})
	}
}

// createdID is the contract id of a transaction's first created event.
func createdID(t *testing.T, tx jsTransaction) string {
	t.Helper()
	for _, e := range tx.Events {
		if e.CreatedEvent != nil {
			return e.CreatedEvent.ContractID
		}
	}
	t.Fatalf("transaction %+v has no created event", tx)
	return ""
}
