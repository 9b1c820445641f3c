package ledger_test

import (
	"encoding/json"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestDecodeResolvesByNameAfterUpload: a reference by package name that
// decoding resolved before resolves to the newer version once it is
// uploaded, a preference pins the older one, and the next reference by
// name is the newer one again (what decoding keeps for the next
// submission is only for the same package view and preference).
func TestDecodeResolvesByNameAfterUpload(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := t.Context()
	d1, ids1 := lftest.DAR(lftest.IouPackage("1.0.0"))
	d2, ids2 := lftest.DAR(upgradedIou(ids1[0]))
	ledgertest.MustUploadDAR(t, n, d1)
	alice := ledgertest.MustAllocate(t, n, "alice")
	api := jsonapi.New(n)
	create := func(cmdID string, pref []string) string {
		t.Helper()
		resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionTreeResponse](api.SubmitAndWaitForTransactionTree(ctx, jsonapi.JsCommands{
			CommandID: cmdID, ActAs: []string{alice}, UserID: "u1", PackageIDSelectionPreference: pref,
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: "#iou:Main:Iou",
				CreateArguments: json.RawMessage(`{"owner": "` + alice + `", "amount": "1"}`)}}}}))
		if err != nil {
			t.Fatalf("%s: %v", cmdID, err)
		}
		return resp.TransactionTree.EventsByID["0"].CreatedTreeEvent.Value.TemplateID
	}
	v1, v2 := ids1[0]+":Main:Iou", ids2[0]+":Main:Iou"
	for _, step := range []struct {
		cmdID  string
		upload []byte
		pref   []string
		want   string
	}{
		{cmdID: "c1", want: v1},
		{cmdID: "c2", want: v1},
		{cmdID: "c3", upload: d2, want: v2},
		{cmdID: "c4", pref: []string{ids1[0]}, want: v1},
		{cmdID: "c5", want: v2},
	} {
		if step.upload != nil {
			ledgertest.MustUploadDAR(t, n, step.upload)
		}
		if got := create(step.cmdID, step.pref); got != step.want {
			t.Errorf("%s: #iou:Main:Iou created %s, want %s", step.cmdID, got, step.want)
		}
	}
}
