package ledger_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestCrashChild is the child process of TestCrashSafety: it allocates
// parties on a durable node and prints each acknowledged offset, until it
// is killed.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("LEDGERNODE_CRASH_DIR")
	if dir == "" {
		t.Skip("run by TestCrashSafety")
	}
	n, err := ledger.Open(ledger.Options{Dir: dir, ParticipantID: "crash"})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	for i := 0; ; i++ {
		resp, err := n.AllocateParty(context.Background(), ledger.AllocatePartyRequest{PartyIDHint: fmt.Sprintf("p%d", i)})
		if err != nil {
			fmt.Println("allocate:", err)
			os.Exit(2)
		}
		_ = resp
		end, _ := n.LedgerEnd(context.Background())
		fmt.Printf("ack %d\n", end)
	}
}

// TestCrashSafety kills a process that is committing and checks that the
// reopened store has every acknowledged update and nothing torn.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LEDGERNODE_CRASH_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked int64
	sc := bufio.NewScanner(out)
	deadline := time.Now().Add(20 * time.Second)
	for sc.Scan() && time.Now().Before(deadline) {
		line := sc.Text()
		if off, ok := strings.CutPrefix(line, "ack "); ok {
			acked, _ = strconv.ParseInt(off, 10, 64)
			if acked >= 200 {
				break
			}
		} else if strings.Contains(line, ":") {
			t.Fatalf("child: %s", line)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if acked == 0 {
		t.Fatal("the child acknowledged nothing")
	}

	n, err := ledger.Open(ledger.Options{Dir: dir, ParticipantID: "crash"})
	if err != nil {
		t.Fatalf("reopening after the kill: %v", err)
	}
	defer n.Close()
	ctx := context.Background()
	end, _ := n.LedgerEnd(ctx)
	if end < acked {
		t.Fatalf("ledger end %d after the kill, but %d was acknowledged", end, acked)
	}
	var prev int64
	for u, err := range n.Updates(ctx, topologyRead(), ledger.OffsetRange{Through: &end}) {
		if err != nil {
			t.Fatal(err)
		}
		if u.UpdateOffset() != prev+1 {
			t.Fatalf("update %d follows %d: a gap or a torn write", u.UpdateOffset(), prev)
		}
		prev = u.UpdateOffset()
	}
	if prev != end {
		t.Fatalf("read up to %d, ledger end %d", prev, end)
	}
	parties, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{})
	if err != nil || int64(len(parties)) != end {
		t.Fatalf("%d parties for ledger end %d (%v)", len(parties), end, err)
	}
	if _, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "after"}); err != nil {
		t.Fatalf("allocating after the kill: %v", err)
	}
}

// TestDamlCrashChild is the child process of TestDamlCrashRounds: on a
// durable node it uploads the iou package and allocates alice (first
// round only), then creates Ious as alice and prints each acknowledged
// create's offset, until it is killed.
func TestDamlCrashChild(t *testing.T) {
	dir, round := os.Getenv("LEDGERNODE_DAML_CRASH_DIR"), os.Getenv("LEDGERNODE_DAML_CRASH_ROUND")
	if dir == "" {
		t.Skip("run by TestDamlCrashRounds")
	}
	fail := func(what string, err error) { fmt.Println(what+":", err); os.Exit(2) }
	n, err := ledger.Open(ledger.Options{Dir: dir, ParticipantID: "crash"})
	if err != nil {
		fail("open", err)
	}
	ctx := context.Background()
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	var alice string
	if round == "0" {
		if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
			fail("upload", err)
		}
		resp, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice"})
		if err != nil {
			fail("allocate", err)
		}
		alice = resp.Party
	} else {
		// A later round has neither uploaded the package nor decoded it in
		// this process: only the store has it.
		parties, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{})
		if err != nil || len(parties) != 1 {
			fail("listing the parties", fmt.Errorf("%v (%d parties)", err, len(parties)))
		}
		alice = parties[0].Party
	}
	for i := 0; ; i++ {
		resp, err := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: fmt.Sprintf("r%s-%d", round, i), ActAs: []string{alice}, UserID: "crash",
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:Iou",
				CreateArguments: json.RawMessage(fmt.Sprintf(`{"owner":%q,"amount":"%d"}`, alice, i))}}}})
		if err != nil {
			fail("create", err)
		}
		fmt.Printf("ack %d\n", resp.CompletionOffset)
	}
}

// TestDamlCrashRounds kills (SIGKILL) a process that is creating Daml
// contracts, three times, each round in a new process on the same
// directory, which must create again after the restart; then checks that
// every acknowledged create is an active contract.
func TestDamlCrashRounds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	dir := t.TempDir()
	const rounds, perRound = 3, 50
	var acked, creates int64
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDamlCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LEDGERNODE_DAML_CRASH_DIR="+dir, fmt.Sprintf("LEDGERNODE_DAML_CRASH_ROUND=%d", round))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		n := 0
		sc := bufio.NewScanner(out)
		deadline := time.Now().Add(30 * time.Second)
		for n < perRound && sc.Scan() && time.Now().Before(deadline) {
			line := sc.Text()
			if off, ok := strings.CutPrefix(line, "ack "); ok {
				acked, _ = strconv.ParseInt(off, 10, 64)
				n++
			} else if strings.Contains(line, ":") {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("round %d: child: %s", round, line)
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		if n < perRound {
			t.Fatalf("round %d: the child acknowledged %d creates, want %d", round, n, perRound)
		}
		creates += int64(n)
	}

	n, err := ledger.Open(ledger.Options{Dir: dir, ParticipantID: "crash"})
	if err != nil {
		t.Fatalf("reopening after the kills: %v", err)
	}
	defer n.Close()
	ctx := context.Background()
	end, _ := n.LedgerEnd(ctx)
	if end < acked {
		t.Fatalf("ledger end %d after the kills, but %d was acknowledged", end, acked)
	}
	parties, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{})
	if err != nil || len(parties) != 1 {
		t.Fatalf("%d parties after the kills (%v)", len(parties), err)
	}
	alice := parties[0].Party
	var active int64
	for _, err := range n.ActiveContractEvents(ctx, ledger.ReadAs(alice), end) {
		if err != nil {
			t.Fatal(err)
		}
		active++
	}
	if active < creates {
		t.Fatalf("%d active contracts after the kills, but %d creates were acknowledged", active, creates)
	}
}
