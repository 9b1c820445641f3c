package ledgertest_test

import (
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestOpenClosesOnCleanup: the node serves during the test and is closed
// when it ends; a directory in the options gives a durable node.
func TestOpenClosesOnCleanup(t *testing.T) {
	var node *ledger.Node
	t.Run("inner", func(t *testing.T) {
		node = ledgertest.Open(t, ledger.Options{})
		if err := node.Ready(); err != nil {
			t.Fatalf("Ready during the test: %v", err)
		}
	})
	if node.Ready() == nil {
		t.Error("the node is still open after its test ended")
	}
	dir := t.TempDir()
	t.Run("durable", func(t *testing.T) {
		ledgertest.MustAllocate(t, ledgertest.Open(t, ledger.Options{Dir: dir, ParticipantID: "p1"}), "alice")
	})
	n := ledgertest.Open(t, ledger.Options{Dir: dir})
	if got := n.ParticipantIDString(); got[:4] != "p1::" {
		t.Errorf("reopened participant %q", got)
	}
}
