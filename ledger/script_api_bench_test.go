package ledger_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// BenchmarkEngineContracts reads a party's active contracts of one
// template as a Daml Script's query does (EngineContracts with a template
// match): the party has 40 Iou contracts and 2 of the queried template,
// T; /all reads every contract (no match); /shared reads through
// EngineContractsShared; template/index reads through
// EngineContractsOfTemplateShared, from the node's index by template (as
// the script runner's queries of one template do).
func BenchmarkEngineContracts(b *testing.B) {
	// A node restored from a prepared snapshot, as a Daml Script's node
	// is (scriptledger.Fixture).
	ctx := b.Context()
	iouPkg := lftest.IouPackage("1.0.0")
	tPkg := lftest.TemplatePackage("bench-t", "1.0.0", nil,
		lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)},
		lftest.Field{Name: "tags", Type: lftest.ListOf(lftest.B(lftest.Text))},
		lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))})
	base := ledgertest.Open(b, ledger.Options{Logger: slog.New(slog.DiscardHandler)})
	for _, p := range []lftest.Package{iouPkg, tPkg} {
		d, _ := lftest.DAR(p)
		ledgertest.MustUploadDAR(b, base, d)
	}
	var snap bytes.Buffer
	if err := base.Snapshot(ctx, &snap); err != nil {
		b.Fatal(err)
	}
	prepared, err := ledger.PrepareSnapshot(snap.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	n := ledgertest.Open(b, ledger.Options{Logger: slog.New(slog.DiscardHandler), Restore: prepared.Reader()})
	iouID, _ := lftest.Dalf(iouPkg)
	tID, _ := lftest.Dalf(tPkg)
	iou := lf.TypeConID{PackageID: iouID, Module: "Main", Name: "Iou"}
	tt := lf.TypeConID{PackageID: tID, Module: "Main", Name: "T"}
	alice := ledgertest.MustAllocate(b, n, "alice")
	for i := range 40 {
		ledgertest.Create(b, n, alice, ledger.TemplateRef{ID: iou}, value.Record{RecordID: &iou, Fields: []value.RecordField{
			{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(i)}}})
	}
	for range 2 {
		ledgertest.Create(b, n, alice, ledger.TemplateRef{ID: tt}, value.Record{RecordID: &tt, Fields: []value.RecordField{
			{Label: "owner", Value: value.Party(alice)}, {Label: "tags", Value: value.List{value.Text("a"), value.Text("b")}},
			{Label: "note", Value: value.Optional{Value: value.Text("n")}}}})
	}
	for _, c := range []struct {
		name  string
		match func(lf.TypeConID) bool
		want  int
		read  func(context.Context, []string, func(lf.TypeConID) bool) ([]ledger.EngineContract, error)
	}{
		{"template", func(id lf.TypeConID) bool { return id == tt }, 2, n.EngineContracts},
		{"all", nil, 42, n.EngineContracts},
		{"template/shared", func(id lf.TypeConID) bool { return id == tt }, 2, n.EngineContractsShared},
		{"all/shared", nil, 42, n.EngineContractsShared},
		{"template/index", nil, 2, func(ctx context.Context, parties []string, _ func(lf.TypeConID) bool) ([]ledger.EngineContract, error) {
			return n.EngineContractsOfTemplateShared(ctx, parties, tt)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cs, err := c.read(ctx, []string{alice}, c.match)
				if err != nil || len(cs) != c.want {
					b.Fatalf("%d contracts, %v; want %d", len(cs), err, c.want)
				}
			}
		})
	}
}
