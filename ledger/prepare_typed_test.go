package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// typedSignature is a signature of the JSON API's form in the Node's
// types.
func typedSignature(t testing.TB, s jsonapi.Signature) interactive.Signature {
	t.Helper()
	f, err := interactive.ParseSignatureFormat(s.Format)
	if err != nil {
		t.Fatal(err)
	}
	a, err := interactive.ParseSigningAlgorithmSpec(s.SigningAlgorithmSpec)
	if err != nil {
		t.Fatal(err)
	}
	return interactive.Signature{Format: f, Signature: s.Signature, SignedBy: s.SignedBy, SigningAlgorithmSpec: a}
}

// iouCreate is the typed create of an Iou of owner.
func (f *externalFixture) iouCreate(owner string, amount int64) ledger.Command {
	return ledger.CreateCommand{Template: ledger.TemplateByID(lf.TypeConID{PackageID: f.pkg, Module: "Main", Name: "Iou"}),
		Arguments: ledgertest.Record(map[string]value.Value{"owner": value.Party(owner), "amount": value.Int64(amount)})}
}

// typedPrepare prepares cmds as f.ext through the typed API.
func (f *externalFixture) typedPrepare(t *testing.T, cmdID string, scheme interactive.HashingSchemeVersion, cmds ...ledger.Command) *ledger.Prepared {
	t.Helper()
	p, err := f.n.Prepare(f.ctx, ledger.PrepareRequest{Commands: ledger.Commands{CommandID: cmdID, ActAs: []string{f.ext}, Commands: cmds},
		HashingScheme: scheme, VerboseHashing: true})
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return p
}

// typedExec is the typed execute request of p signed by f.ext.
func (f *externalFixture) typedExec(t *testing.T, p *ledger.Prepared) ledger.ExecuteRequest {
	return ledger.ExecuteRequest{PreparedTransaction: p.PreparedTransaction, SubmissionID: "s1", HashingScheme: p.HashingScheme,
		PartySignatures: []interactive.PartySignatures{{Party: f.ext, Signatures: []interactive.Signature{typedSignature(t, f.key.sign(p.Hash))}}}}
}

// TestPrepareExecute: the typed API prepares a create for an external
// party (the hash is the prepared transaction's under the scheme asked
// for, V2 by default, with its trace), and executes it once signed: the
// committed transaction creates the prepared contract, acting as the
// prepared act_as party.
func TestPrepareExecute(t *testing.T) {
	t.Parallel()
	for _, scheme := range []interactive.HashingSchemeVersion{interactive.HashingSchemeVersionUnspecified, interactive.HashingSchemeVersionV3} {
		t.Run(scheme.String(), func(t *testing.T) {
			t.Parallel()
			f := newExternalFixture(t, ed25519Key)
			p := f.typedPrepare(t, "typed-1", scheme, f.iouCreate(f.ext, 7))
			want := scheme
			if want == interactive.HashingSchemeVersionUnspecified {
				want = interactive.HashingSchemeVersionV2
			}
			if p.HashingScheme != want || p.HashingDetails == "" {
				t.Fatalf("prepared with %v (details %q), want %v with details", p.HashingScheme, p.HashingDetails, want)
			}
			pt, err := interactive.DecodePreparedTransaction(p.PreparedTransaction)
			if err != nil {
				t.Fatal(err)
			}
			if h, err := interactive.Hash(pt, want); err != nil || !slices.Equal(h, p.Hash) {
				t.Fatalf("the hash is not the prepared transaction's: %x, %x (%v)", p.Hash, h, err)
			}
			if d := cmp.Diff(pt, p.Transaction, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("Transaction is not the encoded one (-encoded +Transaction):\n%s", d)
			}
			end, _ := f.n.LedgerEnd(f.ctx)
			res, err := f.n.Execute(f.ctx, f.typedExec(t, p))
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if res.Offset != end+1 || res.CommandID != "typed-1" || !slices.Equal(res.ActAs, []string{f.ext}) {
				t.Fatalf("executed at %d as %v (command %q), want %d as [%s]", res.Offset, res.ActAs, res.CommandID, end+1, f.ext)
			}
			created := res.Created()
			if len(created) != 1 || !tx.IsLocalContractID(value.ContractID(pt.Transaction.Nodes[0].Create.ContractID)) ||
				string(created[0].ContractID) == pt.Transaction.Nodes[0].Create.ContractID ||
				!value.Equal(created[0].Arg, pt.Transaction.Nodes[0].Create.Argument) {
				t.Fatalf("created %+v, want the prepared create with its committed id", created)
			}
		})
	}
}

// TestPrepareExecuteRefusals: what the typed API refuses, with Canton's
// codes; nothing is written.
func TestPrepareExecuteRefusals(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	other := ed25519Key(t)
	other.fp = f.key.fp
	p := f.typedPrepare(t, "refused-1", interactive.HashingSchemeVersionUnspecified, f.iouCreate(f.ext, 1))
	prep := func(mutate func(*ledger.PrepareRequest)) func() error {
		return func() error {
			r := ledger.PrepareRequest{Commands: ledger.Commands{CommandID: "refused-2", ActAs: []string{f.ext}, Commands: []ledger.Command{f.iouCreate(f.ext, 2)}}}
			mutate(&r)
			_, err := f.n.Prepare(f.ctx, r)
			return err
		}
	}
	exec := func(mutate func(*ledger.ExecuteRequest)) func() error {
		return func() error {
			r := f.typedExec(t, p)
			mutate(&r)
			_, err := f.n.Execute(f.ctx, r)
			return err
		}
	}
	tampered, err := interactive.DecodePreparedTransaction(p.PreparedTransaction)
	if err != nil {
		t.Fatal(err)
	}
	tampered.Metadata.SubmitterInfo.CommandID = "other"
	tamperedBytes, err := interactive.EncodePreparedTransaction(tampered)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func() error
		code apierr.Code
	}{
		{"prepare with a workflow id", prep(func(r *ledger.PrepareRequest) { r.Commands.WorkflowID = "w" }), apierr.InvalidArgument},
		{"prepare with a deduplication period", prep(func(r *ledger.PrepareRequest) { r.Commands.Deduplication = ledger.DeduplicationOffset(1) }), apierr.InvalidArgument},
		{"prepare with an unknown hashing scheme", prep(func(r *ledger.PrepareRequest) { r.HashingScheme = 9 }), apierr.InvalidField},
		{"prepare without commands", prep(func(r *ledger.PrepareRequest) { r.Commands.Commands = nil }), apierr.MissingField},
		{"prepare with a max record time before 1970", prep(func(r *ledger.PrepareRequest) {
			t := time.Unix(-1, 0)
			r.MaxRecordTime = &t
		}), apierr.InvalidField},
		{"prepare with both minimum ledger times", prep(func(r *ledger.PrepareRequest) {
			r.Commands.MinLedgerTime, r.Commands.MinLedgerTimeRel = time.Now(), time.Second
		}), apierr.InvalidArgument},
		{"execute signed by another key", exec(func(r *ledger.ExecuteRequest) {
			r.PartySignatures[0].Signatures[0] = typedSignature(t, other.sign(p.Hash))
		}), apierr.FailedToExecuteTransaction},
		{"execute a tampered transaction", exec(func(r *ledger.ExecuteRequest) { r.PreparedTransaction = tamperedBytes }), apierr.FailedToExecuteTransaction},
		{"execute with an unknown hashing scheme", exec(func(r *ledger.ExecuteRequest) { r.HashingScheme = 9 }), apierr.InvalidField},
		{"execute without a hashing scheme", exec(func(r *ledger.ExecuteRequest) { r.HashingScheme = 0 }), apierr.InvalidField},
		{"execute with another hashing scheme", exec(func(r *ledger.ExecuteRequest) { r.HashingScheme = interactive.HashingSchemeVersionV3 }), apierr.FailedToExecuteTransaction},
		{"execute without signatures", exec(func(r *ledger.ExecuteRequest) { r.PartySignatures = nil }), apierr.MissingField},
		{"execute with no signature", exec(func(r *ledger.ExecuteRequest) { r.PartySignatures = []interactive.PartySignatures{} }), apierr.FailedToExecuteTransaction},
		{"execute a signature without a format", exec(func(r *ledger.ExecuteRequest) { r.PartySignatures[0].Signatures[0].Format = 0 }), apierr.InvalidField},
		{"execute with a negative deduplication duration", exec(func(r *ledger.ExecuteRequest) { r.Deduplication = ledger.DeduplicationDuration(-time.Second) }), apierr.InvalidField},
		{"execute with a negative deduplication offset", exec(func(r *ledger.ExecuteRequest) { r.Deduplication = ledger.DeduplicationOffset(-1) }), apierr.NegativeOffset},
		{"execute with both minimum ledger times", exec(func(r *ledger.ExecuteRequest) { r.MinLedgerTime, r.MinLedgerTimeRel = time.Now(), -time.Second }), apierr.InvalidArgument},
		{"execute with a minimum ledger time in the future", exec(func(r *ledger.ExecuteRequest) { r.MinLedgerTimeRel = time.Hour }), apierr.FailedToExecuteTransaction},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := ledger.StoreDumpForTest(t, f.n)
			if err := tc.call(); !errors.Is(err, tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code.Name)
			}
			if d := cmp.Diff(before, ledger.StoreDumpForTest(t, f.n)); d != "" {
				t.Fatalf("state changed:\n%s", d)
			}
		})
	}
	if _, err := f.n.Execute(f.ctx, f.typedExec(t, p)); err != nil {
		t.Fatalf("the request the refusals derive from: %v", err)
	}
}

// TestJSONInteractiveIsTyped: the JSON API's prepare and execute are the
// typed ones: the same commands prepared over both give the same
// transaction (but for its uuid, preparation time, seeds and the local
// contract ids they make), and what one prepared the other executes.
func TestJSONInteractiveIsTyped(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	typed := f.typedPrepare(t, "same", interactive.HashingSchemeVersionV3, f.iouCreate(f.ext, 3))
	js := f.prepare(t, "same", "HASHING_SCHEME_VERSION_V3", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{
		TemplateID: f.pkg + ":Main:Iou", CreateArguments: json.RawMessage(`{"owner": "` + f.ext + `", "amount": "3"}`)}})
	jpt, err := interactive.DecodePreparedTransaction(js.PreparedTransaction)
	if err != nil {
		t.Fatal(err)
	}
	normalize := func(pt *interactive.PreparedTransaction) *interactive.PreparedTransaction {
		pt.Metadata.TransactionUUID, pt.Metadata.PreparationTime = "", 0
		for i := range pt.Transaction.NodeSeeds {
			pt.Transaction.NodeSeeds[i].Seed = nil
		}
		for i := range pt.Transaction.Nodes {
			if c := pt.Transaction.Nodes[i].Create; c != nil {
				c.ContractID = ""
			}
		}
		return pt
	}
	tpt, err := interactive.DecodePreparedTransaction(typed.PreparedTransaction)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(normalize(jpt), normalize(tpt)); d != "" {
		t.Errorf("JSON and typed prepare differ (-json +typed):\n%s", d)
	}
	if js.HashingSchemeVersion != typed.HashingScheme.String() || js.HashingDetails == nil || *js.HashingDetails == "" {
		t.Errorf("JSON scheme %s details %v, typed %v", js.HashingSchemeVersion, js.HashingDetails, typed.HashingScheme)
	}
	// The typed prepared transaction executed over JSON, the JSON one
	// typed.
	r := f.execReq(jsonapi.JsPrepareSubmissionResponse{PreparedTransaction: typed.PreparedTransaction, PreparedTransactionHash: typed.Hash,
		HashingSchemeVersion: typed.HashingScheme.String()})
	r.SubmissionID = "json"
	if _, err := jsonapi.New(f.n).ExecuteSubmissionAndWait(f.ctx, r); err != nil {
		t.Fatalf("JSON execute of a typed prepare: %v", err)
	}
	if _, err := f.n.Execute(f.ctx, f.typedExec(t, &ledger.Prepared{PreparedTransaction: js.PreparedTransaction, Hash: js.PreparedTransactionHash,
		HashingScheme: interactive.HashingSchemeVersionV3})); !errors.Is(err, apierr.DuplicateCommand) {
		// Same command id, same user: the second is a duplicate.
		t.Fatalf("typed execute of the JSON prepare with the same command id: %v, want a duplicate", err)
	}
	js2 := f.prepare(t, "other", "", jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{
		TemplateID: f.pkg + ":Main:Iou", CreateArguments: json.RawMessage(`{"owner": "` + f.ext + `", "amount": "4"}`)}})
	res, err := f.n.Execute(f.ctx, f.typedExec(t, &ledger.Prepared{PreparedTransaction: js2.PreparedTransaction, Hash: js2.PreparedTransactionHash,
		HashingScheme: interactive.HashingSchemeVersionV2}))
	if err != nil || len(res.Created()) != 1 {
		t.Fatalf("typed execute of a JSON prepare: %+v, %v", res, err)
	}
}

// TestExecuteForTransaction executes prepared transactions and gets the
// committed transaction back in a format: the default (the act_as
// parties' ACS delta), a ledger-effects format, a format that shows
// nothing (the transaction without events); refused formats commit
// nothing, and the prepared transaction they came with still executes.
func TestExecuteForTransaction(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	iou := ledger.TemplateByID(lf.TypeConID{PackageID: f.pkg, Module: "Main", Name: "Iou"})

	got, err := f.n.ExecuteForTransaction(f.ctx, f.typedExec(t, f.typedPrepare(t, "eft-1", interactive.HashingSchemeVersionV2, f.iouCreate(f.ext, 7))), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 1 || got.CommandID != "eft-1" || got.EffectiveAt.IsZero() || got.RecordTime.IsZero() || got.Offset == 0 {
		t.Fatalf("default format: %+v, want one created event of eft-1 with its times", got)
	}
	ev, ok := got.Events[0].(*update.CreatedEvent)
	if !ok || ev.TemplateID != iou.ID || !slices.Equal(ev.WitnessParties, []string{f.ext}) {
		t.Fatalf("default format: event %+v, want ext's Iou", got.Events[0])
	}

	effects := ledger.ReadAs(f.ext)
	effects.Shape = ledger.LedgerEffects
	exercise := ledger.ExerciseCommand{Template: iou, ContractID: ev.ContractID, Choice: "Transfer",
		Argument: ledgertest.Record(map[string]value.Value{"newOwner": value.Party(f.bob)})}
	exercised, err := f.n.ExecuteForTransaction(f.ctx, f.typedExec(t, f.typedPrepare(t, "eft-2", interactive.HashingSchemeVersionV2, exercise)), &effects)
	if err != nil {
		t.Fatal(err)
	}
	if len(exercised.Events) == 0 {
		t.Fatal("ledger effects: no event")
	}
	if _, ok := exercised.Events[0].(*update.ExercisedEvent); !ok {
		t.Errorf("ledger effects: first event %T, want the exercise", exercised.Events[0])
	}

	// bob is no informee of ext's new Iou: the transaction comes back
	// without events.
	bobs := ledger.ReadFormat{Parties: map[string][]ledger.Filter{f.bob: nil}}
	empty, err := f.n.ExecuteForTransaction(f.ctx, f.typedExec(t, f.typedPrepare(t, "eft-3", interactive.HashingSchemeVersionV2, f.iouCreate(f.ext, 8))), &bobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(empty.Events) != 0 || empty.UpdateID == "" || empty.Offset == 0 || empty.EffectiveAt.IsZero() {
		t.Errorf("bob's format: %+v, want the transaction without events", empty)
	}

	// Refused formats commit nothing.
	req := f.typedExec(t, f.typedPrepare(t, "eft-4", interactive.HashingSchemeVersionV2, f.iouCreate(f.ext, 9)))
	end, err := f.n.LedgerEnd(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	executor := ledger.WithPrincipal(f.ctx, identity.Principal{UserID: "executor", Rights: []identity.Right{{Kind: identity.RightCanExecuteAs, Party: f.ext}}})
	unknown := ledger.ReadAs(f.ext)
	unknown.Parties[f.ext] = []ledger.Filter{ledger.TemplateFilter(ledger.TemplateByName("nosuchpackage", "Main", "Iou"), false)}
	for _, tt := range []struct {
		name string
		ctx  context.Context
		f    ledger.ReadFormat
		code apierr.Code
	}{
		{"no right to read as bob", executor, ledger.ReadAs(f.bob), apierr.PermissionDenied},
		{"unknown package name", f.ctx, unknown, apierr.PackageNamesNotFound},
		{"reads as nobody", f.ctx, ledger.ReadFormat{}, apierr.InvalidArgument},
	} {
		_, err := f.n.ExecuteForTransaction(tt.ctx, req, &tt.f)
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code != tt.code {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.code.Name)
		}
	}
	if after, err := f.n.LedgerEnd(f.ctx); err != nil || after != end {
		t.Errorf("ledger end %+v (%v) after refused formats, want %d", after, err, end)
	}
	if _, err := f.n.ExecuteForTransaction(f.ctx, req, nil); err != nil {
		t.Errorf("executing after the refused formats: %v", err)
	}
}

// TestConversionError: a field the caller could not convert is reported
// where Prepare's and Execute's rules check that field — after the checks
// of the fields before it, before those after it — and the refusal
// changes nothing.
func TestConversionError(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	errA, errB := errors.New("a field that did not convert"), errors.New("another field that did not convert")
	prep := func(mod func(*ledger.PrepareRequest)) ledger.PrepareRequest {
		r := ledger.PrepareRequest{Commands: ledger.Commands{CommandID: "conv-1", ActAs: []string{f.ext}, Commands: []ledger.Command{f.iouCreate(f.ext, 1)}}}
		if mod != nil {
			mod(&r)
		}
		return r
	}
	p := f.typedPrepare(t, "conv-2", interactive.HashingSchemeVersionV2, f.iouCreate(f.ext, 2))
	exec := func(mod func(*ledger.ExecuteRequest)) ledger.ExecuteRequest {
		r := f.typedExec(t, p)
		if mod != nil {
			mod(&r)
		}
		return r
	}
	conv := ledger.ConversionError
	for _, tt := range []struct {
		name    string
		prepare *ledger.PrepareRequest
		execute *ledger.ExecuteRequest
		opts    []ledger.SubmitOption
		want    error
	}{
		{"prepare: hashing scheme", ptr(prep(nil)), nil, []ledger.SubmitOption{conv(ledger.FieldHashingScheme, errA)}, errA},
		{"prepare: an earlier field's check first", ptr(prep(func(r *ledger.PrepareRequest) { r.Commands.CommandID = "" })), nil,
			[]ledger.SubmitOption{conv(ledger.FieldHashingScheme, errA)}, apierr.MissingField},
		{"prepare: hashing scheme before max record time", ptr(prep(nil)), nil,
			[]ledger.SubmitOption{conv(ledger.FieldMaxRecordTime, errB), conv(ledger.FieldHashingScheme, errA)}, errA},
		{"prepare: in place of the field's own check", ptr(prep(func(r *ledger.PrepareRequest) { r.HashingScheme = 99 })), nil,
			[]ledger.SubmitOption{conv(ledger.FieldHashingScheme, errA)}, errA},
		{"prepare: synchronizer before disclosed contracts", ptr(prep(func(r *ledger.PrepareRequest) { r.Commands.SynchronizerID = "nosuch::sync" })), nil,
			[]ledger.SubmitOption{conv(ledger.FieldDisclosedContracts, errA)}, apierr.SubmissionSynchronizerNotReady},
		{"prepare: a malformed synchronizer id", ptr(prep(func(r *ledger.PrepareRequest) { r.Commands.SynchronizerID = "no namespace" })), nil,
			nil, apierr.InvalidField},
		{"prepare: disclosed contracts before minimum ledger time", ptr(prep(nil)), nil,
			[]ledger.SubmitOption{conv(ledger.FieldMinLedgerTime, errB), conv(ledger.FieldDisclosedContracts, errA)}, errA},
		{"prepare: minimum ledger time", ptr(prep(nil)), nil, []ledger.SubmitOption{conv(ledger.FieldMinLedgerTime, errB)}, errB},
		{"execute: hashing scheme", nil, ptr(exec(nil)), []ledger.SubmitOption{conv(ledger.FieldHashingScheme, errA)}, errA},
		{"execute: an earlier field's check first", nil, ptr(exec(func(r *ledger.ExecuteRequest) { r.SubmissionID = "" })),
			[]ledger.SubmitOption{conv(ledger.FieldHashingScheme, errA)}, apierr.MissingField},
		{"execute: minimum ledger time before signatures", nil, ptr(exec(nil)),
			[]ledger.SubmitOption{conv(ledger.FieldPartySignatures, errB), conv(ledger.FieldMinLedgerTime, errA)}, errA},
		{"execute: signatures", nil, ptr(exec(nil)), []ledger.SubmitOption{conv(ledger.FieldPartySignatures, errB)}, errB},
	} {
		end, err := f.n.LedgerEnd(f.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if tt.prepare != nil {
			_, err = f.n.Prepare(f.ctx, *tt.prepare, tt.opts...)
		} else {
			_, err = f.n.Execute(f.ctx, *tt.execute, tt.opts...)
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		if after, err := f.n.LedgerEnd(f.ctx); err != nil || after != end {
			t.Errorf("%s: ledger end %+v (%v) after the refusal, want %d", tt.name, after, err, end)
		}
	}
	// The refusals left the prepared transaction executable.
	if _, err := f.n.Execute(f.ctx, exec(nil)); err != nil {
		t.Errorf("executing after the refusals: %v", err)
	}
}
