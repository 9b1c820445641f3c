package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// externalFixture is a node with the iou package, an external party ext
// (Ed25519) and a local party bob.
type externalFixture struct {
	n   *ledger.Node
	ctx context.Context
	key *extKey
	ext string
	bob string
	pkg string
}

func newExternalFixture(t *testing.T, newKey func(testing.TB) *extKey) *externalFixture {
	t.Helper()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, d)
	k := newKey(t)
	_, req := onboard(t, ctx, n, "ext", k)
	ext, err := n.AllocateExternalParty(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return &externalFixture{n: n, ctx: ctx, key: k, ext: ext, bob: ledgertest.MustAllocate(t, n, "bob"), pkg: ids[0]}
}

func (f *externalFixture) prepare(t *testing.T, cmdID string, scheme string, cmds ...jsonapi.JsCommand) jsonapi.JsPrepareSubmissionResponse {
	t.Helper()
	p, err := jsonapi.New(f.n).PrepareSubmission(f.ctx, jsonapi.JsPrepareSubmissionRequest{CommandID: cmdID, ActAs: []string{f.ext},
		Commands: cmds, HashingSchemeVersion: scheme, VerboseHashing: true})
	if err != nil {
		t.Fatalf("PrepareSubmission: %v", err)
	}
	return p
}

func (f *externalFixture) execReq(p jsonapi.JsPrepareSubmissionResponse) jsonapi.ExecuteSubmissionRequest {
	return jsonapi.ExecuteSubmissionRequest{PreparedTransaction: p.PreparedTransaction, SubmissionID: "s1",
		HashingSchemeVersion: p.HashingSchemeVersion, PartySignatures: &jsonapi.PartySignatures{Signatures: []jsonapi.SinglePartySignatures{
			{Party: f.ext, Signatures: []jsonapi.Signature{f.key.sign(p.PreparedTransactionHash)}}}}}
}

func TestPrepareSignExecute(t *testing.T) {
	t.Parallel()
	for _, scheme := range []string{"", "HASHING_SCHEME_VERSION_V3"} {
		t.Run("scheme"+scheme, func(t *testing.T) {
			t.Parallel()
			f := newExternalFixture(t, ed25519Key)
			tid := f.pkg + ":Main:Iou"
			args := json.RawMessage(`{"owner": "` + f.ext + `", "amount": "100"}`)
			p := f.prepare(t, "create-1", scheme, jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: args}})
			if len(p.PreparedTransactionHash) != 32 || p.HashingDetails == nil || *p.HashingDetails == "" {
				t.Fatalf("prepare: %+v", p)
			}
			want := "HASHING_SCHEME_VERSION_V2"
			if scheme != "" {
				want = scheme
			}
			if p.HashingSchemeVersion != want {
				t.Fatalf("scheme %s, want %s", p.HashingSchemeVersion, want)
			}
			// Prepare writes nothing.
			before, _ := f.n.LedgerEnd(f.ctx)

			// Signed by nobody, tampered, or with a wrong scheme: refused.
			unsigned := f.execReq(p)
			unsigned.PartySignatures.Signatures = nil
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, unsigned); !errors.Is(err, apierr.FailedToExecuteTransaction) {
				t.Fatalf("unsigned: %v", err)
			}
			pt, err := interactive.DecodePreparedTransaction(p.PreparedTransaction)
			if err != nil {
				t.Fatal(err)
			}
			pt.Metadata.SubmitterInfo.CommandID = "other"
			tampered := f.execReq(p)
			if tampered.PreparedTransaction, err = interactive.EncodePreparedTransaction(pt); err != nil {
				t.Fatal(err)
			}
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, tampered); !errors.Is(err, apierr.FailedToExecuteTransaction) {
				t.Fatalf("tampered: %v", err)
			}
			garbage := f.execReq(p)
			garbage.PreparedTransaction = []byte{0xff, 0xff, 0xff}
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, garbage); err == nil {
				t.Fatal("undecodable transaction accepted")
			}
			// A user without rights on ext.
			plain := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u"})
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(plain, f.execReq(p)); !errors.Is(err, apierr.PermissionDenied) {
				t.Fatalf("no rights: %v", err)
			}
			if end, _ := f.n.LedgerEnd(f.ctx); end != before {
				t.Fatal("rejections moved the ledger end")
			}

			// A user with CanExecuteAs only executes.
			exec := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "u",
				Rights: []identity.Right{{Kind: identity.RightCanExecuteAs, Party: f.ext}}})
			resp, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(exec, f.execReq(p))
			if err != nil {
				t.Fatalf("execute: %v", err)
			}
			if resp.CompletionOffset != before+1 {
				t.Fatalf("offset %d, want %d", resp.CompletionOffset, before+1)
			}
			got, err := f.n.Transaction(f.ctx, resp.UpdateID, ledger.ReadAs(f.ext))
			if err != nil || len(got.Events) != 1 {
				t.Fatalf("Transaction: %+v %v", got, err)
			}
			ev, _ := got.Events[0].(*update.CreatedEvent)
			// The prepared id is local; the committed one carries its suffix.
			if ev == nil || !strings.HasPrefix(string(ev.ContractID), pt.Transaction.Nodes[0].Create.ContractID) || ev.TemplateID.String() != tid ||
				got.CommandID != "create-1" {
				t.Fatalf("created event: %+v", got)
			}
			// The same command again is a duplicate.
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(exec, f.execReq(p)); !errors.Is(err, apierr.DuplicateCommand) {
				t.Fatalf("duplicate: %v", err)
			}

			// Exercise: transfer to bob; the contract is an input contract.
			p2 := f.prepare(t, "transfer-1", scheme, jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: tid,
				ContractID: string(ev.ContractID), Choice: "Transfer", ChoiceArgument: json.RawMessage(`{"newOwner": "` + f.bob + `"}`)}})
			pt2, err := interactive.DecodePreparedTransaction(p2.PreparedTransaction)
			if err != nil {
				t.Fatal(err)
			}
			if len(pt2.Metadata.InputContracts) != 1 || pt2.Metadata.InputContracts[0].Contract.ContractID != string(ev.ContractID) {
				t.Fatalf("input contracts: %+v", pt2.Metadata.InputContracts)
			}
			tx, err := jsonapi.DecodeAnswer[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{
				ExecuteSubmissionRequest: f.execReq(p2)}))
			if err != nil {
				t.Fatalf("execute transfer: %v", err)
			}
			if evs := tx.Transaction.Events; len(evs) != 1 || evs[0].ArchivedEvent == nil || evs[0].ArchivedEvent.ContractID != string(ev.ContractID) {
				t.Fatalf("transfer events: %+v", tx.Transaction.Events)
			}
			// Under another user the same prepared create is no duplicate,
			// but its contract id is taken.
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(p)); !errors.Is(err, apierr.FailedToExecuteTransaction) {
				t.Fatalf("replayed contract id: %v", err)
			}
		})
	}
}

func TestExecuteStaleInputContract(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, p256Key)
	tid := f.pkg + ":Main:Iou"
	args := json.RawMessage(`{"owner": "` + f.ext + `", "amount": "5"}`)
	p := f.prepare(t, "c", "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: args}})
	done, err := jsonapi.DecodeAnswer[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](jsonapi.New(f.n).ExecuteSubmissionAndWaitForTransaction(f.ctx, jsonapi.ExecuteSubmissionAndWaitForTransactionRequest{ExecuteSubmissionRequest: f.execReq(p)}))
	if err != nil {
		t.Fatalf("execute with a P-256 key: %v", err)
	}
	cid := done.Transaction.Events[0].CreatedEvent.ContractID
	archive := func(cmd string) jsonapi.JsPrepareSubmissionResponse {
		return f.prepare(t, cmd, "", jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: tid, ContractID: cid, Choice: "Transfer",
			ChoiceArgument: json.RawMessage(`{"newOwner": "` + f.bob + `"}`)}})
	}
	a1, a2 := archive("a1"), archive("a2")
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(a1)); err != nil {
		t.Fatalf("archive: %v", err)
	}
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, f.execReq(a2)); !errors.Is(err, apierr.ContractNotFound) {
		t.Fatalf("second archive: %v", err)
	}
}

func TestExecuteSubmissionIDAndTimeBounds(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	tid := f.pkg + ":Main:Iou"
	args := json.RawMessage(`{"owner": "` + f.ext + `", "amount": "1"}`)
	p := f.prepare(t, "tb-1", "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tid, CreateArguments: args}})
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)
	for _, tc := range []struct {
		name   string
		mutate func(*jsonapi.ExecuteSubmissionRequest)
		code   apierr.Code
	}{
		{"no submission id", func(r *jsonapi.ExecuteSubmissionRequest) { r.SubmissionID = "" }, apierr.MissingField},
		{"bad submission id", func(r *jsonapi.ExecuteSubmissionRequest) { r.SubmissionID = "bad!id" }, apierr.InvalidField},
		{"signature without signedBy", func(r *jsonapi.ExecuteSubmissionRequest) {
			r.PartySignatures.Signatures[0].Signatures[0].SignedBy = ""
		}, apierr.InvalidField},
		{"min ledger time in the future", func(r *jsonapi.ExecuteSubmissionRequest) {
			r.MinLedgerTime = &jsonapi.MinLedgerTime{Time: jsonapi.MinLedgerTimeKind{MinLedgerTimeAbs: &jsonapi.Wrapped[string]{Value: future}}}
		}, apierr.FailedToExecuteTransaction},
		{"relative min ledger time in the future", func(r *jsonapi.ExecuteSubmissionRequest) {
			r.MinLedgerTime = &jsonapi.MinLedgerTime{Time: jsonapi.MinLedgerTimeKind{MinLedgerTimeRel: &jsonapi.Wrapped[jsonapi.Duration]{Value: jsonapi.Duration{Seconds: 60}}}}
		}, apierr.FailedToExecuteTransaction},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := ledger.StoreDumpForTest(t, f.n)
			r := f.execReq(p)
			tc.mutate(&r)
			if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, r); !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); diff != "" {
				t.Fatalf("state changed:\n%s", diff)
			}
		})
	}
	r := f.execReq(p)
	r.MinLedgerTime = &jsonapi.MinLedgerTime{Time: jsonapi.MinLedgerTimeKind{Empty: &struct{}{}}}
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, r); err != nil {
		t.Fatalf("empty min ledger time: %v", err)
	}
}
