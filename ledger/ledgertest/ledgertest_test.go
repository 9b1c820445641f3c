package ledgertest_test

import (
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestOpenClosesOnCleanup: the node serves during the test and is closed
// when it ends; a directory in the options gives a durable node.
func TestOpenClosesOnCleanup(t *testing.T) {
	t.Parallel()
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

// TestMainPackageID: the id is the one the package is stored under (a
// create by "<id>:Main:T" commits), and a body that is not a DAR fails
// the test.
func TestMainPackageID(t *testing.T) {
	t.Parallel()
	dar, ids := lftest.DAR(lftest.TemplatePackage("app", "1.0.0", nil, lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}))
	if got := ledgertest.MainPackageID(t, dar); got != ids[0] {
		t.Fatalf("MainPackageID = %q, want %q", got, ids[0])
	}
	node := ledgertest.Open(t, ledger.Options{})
	ledgertest.MustUploadDAR(t, node, dar)
	alice := ledgertest.MustAllocate(t, node, "alice")
	tpl := ledger.MustParseTemplateRef(ledgertest.MainPackageID(t, dar) + ":Main:T")
	ledgertest.Create(t, node, alice, tpl, ledgertest.Record(map[string]value.Value{"owner": value.Party(alice)}))

	rec := &recordingT{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != rec {
				panic(p)
			}
		}()
		ledgertest.MainPackageID(rec, []byte("not a zip"))
	}()
	if !strings.HasPrefix(rec.failed, "ledgertest: reading the DAR: ") {
		t.Errorf("failure %q, want the DAR's read error", rec.failed)
	}
}
