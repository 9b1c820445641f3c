package ledger

import (
	"context"
	"log/slog"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
)

// openTestNode opens an in-memory node with opts (its logs discarded),
// closed at the test's cleanup.
func openTestNode(t testing.TB, opts Options) *Node {
	t.Helper()
	opts.InMemory, opts.Logger = true, slog.New(slog.DiscardHandler)
	n, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// allocateParties allocates a party for each hint on n and returns their
// ids, in the hints' order.
func allocateParties(t testing.TB, n *Node, hints ...string) []string {
	t.Helper()
	parties := make([]string, 0, len(hints))
	for _, h := range hints {
		d, err := n.AllocateParty(context.Background(), AllocatePartyRequest{PartyIDHint: h})
		if err != nil {
			t.Fatal(err)
		}
		parties = append(parties, d.Party)
	}
	return parties
}

// iouNode is a test node holding the Iou test package, with parties
// alice and bob.
type iouNode struct {
	*Node
	alice, bob string
	iouT       lf.TypeConID
	transferT  lf.TypeConID
}

// openIouNode opens an in-memory iouNode.
func openIouNode(t testing.TB) *iouNode {
	t.Helper()
	n := openTestNode(t, Options{})
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	if err := n.UploadDAR(context.Background(), UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	parties := allocateParties(t, n, "alice", "bob")
	return &iouNode{Node: n, alice: parties[0], bob: parties[1],
		iouT: lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"}, transferT: lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Transfer"}}
}

// iou is an Iou's argument.
func (n *iouNode) iou(owner string, amount int64) value.Record {
	return value.Record{RecordID: &n.iouT, Fields: []value.RecordField{{Label: "owner", Value: value.Party(owner)},
		{Label: "amount", Value: value.Int64(amount)}}}
}

// transfer is the argument of Transfer to bob.
func (n *iouNode) transfer() value.Record {
	return value.Record{RecordID: &n.transferT, Fields: []value.RecordField{{Label: "newOwner", Value: value.Party(n.bob)}}}
}
