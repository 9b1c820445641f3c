package ledger_test

import (
	"encoding/json"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestCommandStatusOfOtherSubmissions: typed submissions (Daml Script's
// and Go callers' path) and executed interactive submissions are tracked
// too, as Canton registers the executions of its interactive submission
// service.
func TestCommandStatusOfOtherSubmissions(t *testing.T) {
	t.Parallel()
	t.Run("typed commands", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		n := ledgertest.Open(t, ledger.Options{})
		p := lftest.IouPackage("1.0.0")
		dar, _ := lftest.DAR(p)
		ledgertest.MustUploadDAR(t, n, dar)
		pkgID, _ := lftest.Dalf(p)
		iou := lf.TypeConID{PackageID: pkgID, Module: "Main", Name: "Iou"}
		alice := ledgertest.MustAllocate(t, n, "alice")
		arg := value.Record{RecordID: &iou, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(10)}}}
		res, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "typed-1",
			Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByID(iou), Arguments: arg}}})
		if err != nil {
			t.Fatal(err)
		}
		st, err := n.CommandStatuses(ctx, "typed-", ledger.CommandStateUnspecified, 0)
		if err != nil || len(st) != 1 {
			t.Fatalf("statuses %+v, %v", st, err)
		}
		s := st[0]
		if s.State != ledger.CommandStateSucceeded || s.UpdateID != res.UpdateID || s.Offset != res.Offset || len(s.Updates.Created) != 1 || s.Updates.Created[0].TemplateID != iou {
			t.Errorf("status %+v", s)
		}
	})
	t.Run("executed interactive submission", func(t *testing.T) {
		t.Parallel()
		f := newExternalFixture(t, ed25519Key)
		args := json.RawMessage(`{"owner": "` + f.ext + `", "amount": "100"}`)
		p := f.prepare(t, "exec-1", "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: f.pkg + ":Main:Iou", CreateArguments: args}})
		res, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(p))
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.n.CommandStatuses(f.ctx, "exec-", ledger.CommandStateUnspecified, 0)
		if err != nil || len(st) != 1 {
			t.Fatalf("statuses %+v, %v", st, err)
		}
		s := st[0]
		if s.State != ledger.CommandStateSucceeded || s.UpdateID != res.UpdateID || s.SubmissionID != "s1" || len(s.Updates.Created) != 1 {
			t.Errorf("status %+v", s)
		}
	})
}
