package ledger_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// openIouNode opens a node with the Iou package uploaded and party alice
// allocated, and returns it with the Iou template's id and alice.
func openIouNode(t *testing.T) (n *ledger.Node, iou lf.TypeConID, alice string) {
	t.Helper()
	n = ledgertest.Open(t, ledger.Options{})
	p := lftest.IouPackage("1.0.0")
	dar, _ := lftest.DAR(p)
	ledgertest.MustUploadDAR(t, n, dar)
	pkgID, _ := lftest.Dalf(p)
	iou = lf.TypeConID{PackageID: pkgID, Module: "Main", Name: "Iou"}
	return n, iou, ledgertest.MustAllocate(t, n, "alice")
}

// TestEngineContractsCallerChanges changes, in place, the contracts that
// EngineContracts and EngineContractByID returned (the node keeps decoded
// contracts: contract_cache.go), then reads them again and exercises
// one: every later read, and the engine, see the stored contract.
func TestEngineContractsCallerChanges(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n, iou, alice := openIouNode(t)
	ref := ledger.TemplateRef{ID: iou, ByPackageName: true}
	cid := ledgertest.Create(t, n, alice, ref, value.Record{RecordID: &iou, Fields: []value.RecordField{
		{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(10)}}})

	read := func() []ledger.EngineContract {
		t.Helper()
		cs, err := n.EngineContracts(ctx, []string{alice}, nil)
		if err != nil || len(cs) != 1 {
			t.Fatalf("contracts %v, %v", cs, err)
		}
		return cs
	}
	first := read()
	want := first[0].Contract
	want.Arg = value.Clone(want.Arg)
	want.Signatories = append([]string(nil), want.Signatories...)
	want.Stakeholders = append([]string(nil), want.Stakeholders...)

	change := func(c *ledger.EngineContract) {
		r := c.Arg.(value.Record)
		r.Fields[0].Value = value.Party("mallory::ns")
		r.Fields[1].Value = value.Int64(1_000_000)
		r.RecordID.Name = "Other"
		c.Signatories[0] = "mallory::ns"
		c.Stakeholders[0] = "mallory::ns"
	}
	change(&first[0])
	one, err := n.EngineContractByID(ctx, string(cid), []string{alice})
	if err != nil || one == nil {
		t.Fatalf("by id: %v, %v", one, err)
	}
	if d := cmp.Diff(want, one.Contract); d != "" {
		t.Errorf("by id after a change to a read (-want +got):\n%s", d)
	}
	change(one)
	if d := cmp.Diff(want, read()[0].Contract); d != "" {
		t.Errorf("read after changes to earlier reads (-want +got):\n%s", d)
	}
	// The engine fetches the contract from the node's store too.
	ledgertest.Exercise(t, n, alice, ref, cid, "Peek", value.Unit{})
	if d := cmp.Diff(want, read()[0].Contract); d != "" {
		t.Errorf("read after an exercise (-want +got):\n%s", d)
	}
}

// TestEngineContractsShared reads the active contracts through
// EngineContractsShared, which hands out the node's decoded values
// without copies: it returns what EngineContracts returns, before and
// after a caller changed what EngineContracts gave it, and after an
// exercise (the engine reads the contract through the same cache) and an
// archive.
func TestEngineContractsShared(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n, iou, alice := openIouNode(t)
	ref := ledger.TemplateRef{ID: iou, ByPackageName: true}
	var cids []value.ContractID
	for i := range 3 {
		cids = append(cids, ledgertest.Create(t, n, alice, ref, value.Record{RecordID: &iou, Fields: []value.RecordField{
			{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(10 + i)}}}))
	}
	same := func(step string, want int) []ledger.EngineContract {
		t.Helper()
		cs, err := n.EngineContracts(ctx, []string{alice}, nil)
		if err != nil {
			t.Fatal(err)
		}
		shared, err := n.EngineContractsShared(ctx, []string{alice}, func(id lf.TypeConID) bool { return id == iou })
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != want {
			t.Fatalf("%s: %d contracts, want %d", step, len(cs), want)
		}
		if d := cmp.Diff(cs, shared); d != "" {
			t.Errorf("%s: EngineContractsShared differs from EngineContracts (-copied +shared):\n%s", step, d)
		}
		return shared
	}
	same("created", 3)
	cs, err := n.EngineContracts(ctx, []string{alice}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs[0].Arg.(value.Record).Fields[1].Value = value.Int64(1_000_000)
	cs[0].Signatories[0] = "mallory::ns"
	// Both reads would agree on a changed cache: what they hand out next
	// is checked against the contracts as created.
	for i, c := range same("after a caller's change", 3) {
		amount := c.Arg.(value.Record).Fields[1].Value
		if amount != value.Int64(10+i) || !slices.Equal(c.Signatories, []string{alice}) {
			t.Errorf("after a caller's change: contract %d has amount %v, signatories %v; want %d, [%s]", i, amount, c.Signatories, 10+i, alice)
		}
	}
	ledgertest.Exercise(t, n, alice, ref, cids[1], "Peek", value.Unit{})
	same("after an exercise", 3)
	ledgertest.Exercise(t, n, alice, ref, cids[1], "Archive", value.Unit{})
	same("after an archive", 2)
	if cs, err := n.EngineContractsShared(ctx, []string{alice}, func(lf.TypeConID) bool { return false }); err != nil || len(cs) != 0 {
		t.Errorf("no template matched: %d contracts, %v", len(cs), err)
	}
}
