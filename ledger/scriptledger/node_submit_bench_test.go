package scriptledger_test

import (
	"fmt"
	"log/slog"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

// BenchmarkScriptNodeSubmit measures the node's side of a Daml Script's
// steps on a fresh node of a scriptledger.Fixture (a script's node): per
// op, a fresh node creates an Iou, transfers it (an exercise with a record
// argument) and lists its user's rights, as a script does between its
// queries (IDE mode, as the runner submits). The node's open is outside the timer. (In package ledger's
// own tests every stored record is checked against its decoding and
// encoding at once, verifyStoredRecords: the benchmark lives here.)
func BenchmarkScriptNodeSubmit(b *testing.B) {
	ctx := b.Context()
	iouPkg := lftest.IouPackage("1.0.0")
	log := slog.New(slog.DiscardHandler)
	d, _ := lftest.DAR(iouPkg)
	fx, err := scriptledger.NewFixture(ctx, ledger.Options{Logger: log}, d)
	if err != nil {
		b.Fatal(err)
	}
	iouID, _ := lftest.Dalf(iouPkg)
	iou := lf.TypeConID{PackageID: iouID, Module: "Main", Name: "Iou"}
	transfer := lf.TypeConID{PackageID: iouID, Module: "Main", Name: "Transfer"}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		n, err := fx.Open()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := n.CreateUser(ctx, identity.User{ID: "script"}, nil); err != nil {
			b.Fatal(err)
		}
		alice, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "alice", UserID: "script"})
		if err != nil {
			b.Fatal(err)
		}
		bob, err := n.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: "bob", UserID: "script"})
		if err != nil {
			b.Fatal(err)
		}
		for i := range 5 {
			c, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice.Party}, CommandID: fmt.Sprint("create-", i), Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateRef{ID: iou},
				Arguments: value.Record{RecordID: &iou, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice.Party)}, {Label: "amount", Value: value.Int64(i)}}}}}},
				ledger.AllowEffectfulRollback())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice.Party}, CommandID: fmt.Sprint("transfer-", i), Commands: []ledger.Command{ledger.ExerciseCommand{Template: ledger.TemplateRef{ID: iou},
				ContractID: c.Created()[0].ContractID, Choice: "Transfer", Argument: value.Record{RecordID: &transfer, Fields: []value.RecordField{{Label: "newOwner", Value: value.Party(bob.Party)}}}}}},
				ledger.AllowEffectfulRollback()); err != nil {
				b.Fatal(err)
			}
			if rights, err := n.ListUserRights(ctx, "script", ""); err != nil || len(rights) != 2 {
				b.Fatalf("ListUserRights = %v, %v", rights, err)
			}
		}
		b.StopTimer()
		n.Close()
		b.StartTimer()
	}
}
