package ledger_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
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
		fmt.Printf("ack %d\n", end.Offset)
	}
}

// TestCrashSafety kills a process that is committing and checks that the
// reopened store has every acknowledged update and nothing torn.
func TestCrashSafety(t *testing.T) {
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
	if end.Offset < acked {
		t.Fatalf("ledger end %d after the kill, but %d was acknowledged", end.Offset, acked)
	}
	var prev int64
	for u, err := range n.Updates(ctx, ledger.GetUpdatesPageRequest{EndOffsetInclusive: &end.Offset, UpdateFormat: topologyFormat()}) {
		if err != nil {
			t.Fatal(err)
		}
		if u.Offset() != prev+1 {
			t.Fatalf("update %d follows %d: a gap or a torn write", u.Offset(), prev)
		}
		prev = u.Offset()
	}
	if prev != end.Offset {
		t.Fatalf("read up to %d, ledger end %d", prev, end.Offset)
	}
	parties, err := n.ListParties(ctx, ledger.ListPartiesRequest{})
	if err != nil || int64(len(parties.PartyDetails)) != end.Offset {
		t.Fatalf("%d parties for ledger end %d (%v)", len(parties.PartyDetails), end.Offset, err)
	}
	if _, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "after"}); err != nil {
		t.Fatalf("allocating after the kill: %v", err)
	}
}
