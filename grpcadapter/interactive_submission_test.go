package grpcadapter_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	interactivepb "github.com/ledgernode/ledgernode/grpcadapter/pb/v2/interactive"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// extParty is an external party with its Ed25519 key.
type extParty struct {
	party, fingerprint string
	key                ed25519.PrivateKey
}

// signature is the party's signature of hash over gRPC.
func (x *extParty) signature(hash []byte) *ledgerv2.Signature {
	return &ledgerv2.Signature{Format: ledgerv2.SignatureFormat_SIGNATURE_FORMAT_CONCAT, Signature: ed25519.Sign(x.key, hash),
		SignedBy: x.fingerprint, SigningAlgorithmSpec: ledgerv2.SigningAlgorithmSpec_SIGNING_ALGORITHM_SPEC_ED25519}
}

// signatures are the party signatures of an execute request signing hash.
func (x *extParty) signatures(hash []byte) *interactivepb.PartySignatures {
	return &interactivepb.PartySignatures{Signatures: []*interactivepb.SinglePartySignatures{{Party: x.party, Signatures: []*ledgerv2.Signature{x.signature(hash)}}}}
}

// allocateExternal onboards an external party over gRPC only (generate
// its topology, sign the multi-hash, allocate) and lets the participant
// admin act as it.
func (p *pingEnv) allocateExternal(hint string) *extParty {
	t := p.t
	t.Helper()
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	parties := admin.NewPartyManagementServiceClient(p.conn)
	sync := p.node.Synchronizers()[0]
	g, err := parties.GenerateExternalPartyTopology(p.grpcCtx, &admin.GenerateExternalPartyTopologyRequest{Synchronizer: sync, PartyHint: hint,
		PublicKey: &ledgerv2.SigningPublicKey{Format: ledgerv2.CryptoKeyFormat_CRYPTO_KEY_FORMAT_RAW, KeyData: pub,
			KeySpec: ledgerv2.SigningKeySpec_SIGNING_KEY_SPEC_EC_CURVE25519}})
	if err != nil {
		t.Fatal(err)
	}
	x := &extParty{party: g.PartyId, fingerprint: g.PublicKeyFingerprint, key: priv}
	req := &admin.AllocateExternalPartyRequest{Synchronizer: sync, MultiHashSignatures: []*ledgerv2.Signature{x.signature(g.MultiHash)}}
	for _, tx := range g.TopologyTransactions {
		req.OnboardingTransactions = append(req.OnboardingTransactions, &admin.AllocateExternalPartyRequest_SignedTransaction{Transaction: tx})
	}
	if _, err := parties.AllocateExternalParty(p.grpcCtx, req); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.NewUserManagementServiceClient(p.conn).GrantUserRights(p.grpcCtx, &admin.GrantUserRightsRequest{UserId: p.admin,
		Rights: []*admin.Right{{Kind: &admin.Right_CanActAs_{CanActAs: &admin.Right_CanActAs{Party: x.party}}}}}); err != nil {
		t.Fatal(err)
	}
	return x
}

// preparePing is the prepare request of initiator's Ping to bob with
// command id cmd, over gRPC and as the JSON API's body (scheme: the JSON
// name, "" for none).
func (p *pingEnv) preparePing(cmd, initiator string, scheme interactivepb.HashingSchemeVersion) (*interactivepb.PrepareSubmissionRequest, string) {
	g := &interactivepb.PrepareSubmissionRequest{UserId: p.admin, CommandId: cmd, ActAs: []string{initiator}, VerboseHashing: true,
		Commands: []*ledgerv2.Command{{Command: &ledgerv2.Command_Create{Create: &ledgerv2.CreateCommand{TemplateId: identifier(p.pingID),
			CreateArguments: pingArgs(cmd, initiator, p.bob)}}}}}
	js := ""
	if scheme != interactivepb.HashingSchemeVersion_HASHING_SCHEME_VERSION_UNSPECIFIED {
		g.HashingSchemeVersion = scheme.Enum()
		js = scheme.String()
		if _, known := interactivepb.HashingSchemeVersion_name[int32(scheme)]; !known {
			js = fmt.Sprintf("HASHING_SCHEME_VERSION_V%d", scheme)
		}
	}
	j := fmt.Sprintf(`{"userId":%q,"commandId":%q,"actAs":[%q],"verboseHashing":true,"hashingSchemeVersion":%q,`+
		`"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"id":%q,"initiator":%q,"responder":%q}}}]}`,
		p.admin, cmd, initiator, js, p.pingID, cmd, initiator, p.bob)
	return g, j
}

// grpcPrepared is a prepared transaction's protobuf bytes in the Node's
// model.
func grpcPrepared(t *testing.T, pt *interactivepb.PreparedTransaction) ([]byte, *interactive.PreparedTransaction) {
	t.Helper()
	b, err := proto.Marshal(pt)
	if err != nil {
		t.Fatal(err)
	}
	m, err := interactive.DecodePreparedTransaction(b)
	if err != nil {
		t.Fatalf("the prepared transaction message does not decode: %v", err)
	}
	return b, m
}

// withoutRandomness is a prepared transaction with what differs between
// two preparations of the same commands cleared: its uuid, preparation
// time, node seeds and the local contract ids they make.
func withoutRandomness(pt *interactive.PreparedTransaction) *interactive.PreparedTransaction {
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

// TestPrepareSubmissionSameAsJSON: PrepareSubmission answers as
// /v2/interactive-submission/prepare: the prepared transaction (a
// message that encodes to what the Node decodes), its hash under the
// scheme asked for (V2 by default) and the hash's trace; the same request
// over both APIs prepares the same transaction, and the same refusals.
// Preparing writes nothing.
func TestPrepareSubmissionSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	ext := p.allocateExternal("ext")
	svc := interactivepb.NewInteractiveSubmissionServiceClient(p.conn)
	end := p.end()
	for _, scheme := range []interactivepb.HashingSchemeVersion{interactivepb.HashingSchemeVersion_HASHING_SCHEME_VERSION_UNSPECIFIED,
		interactivepb.HashingSchemeVersion_HASHING_SCHEME_VERSION_V2, interactivepb.HashingSchemeVersion_HASHING_SCHEME_VERSION_V3} {
		t.Run(scheme.String(), func(t *testing.T) {
			g, j := p.preparePing("prep-"+scheme.String(), ext.party, scheme)
			res, err := svc.PrepareSubmission(p.grpcCtx, g)
			if err != nil {
				t.Fatal(err)
			}
			var jres jsonapi.JsPrepareSubmissionResponse
			p.postOK("/v2/interactive-submission/prepare", j, &jres)
			want := scheme
			if want == interactivepb.HashingSchemeVersion_HASHING_SCHEME_VERSION_UNSPECIFIED {
				want = interactivepb.HashingSchemeVersion_HASHING_SCHEME_VERSION_V2
			}
			if res.HashingSchemeVersion != want || jres.HashingSchemeVersion != want.String() {
				t.Errorf("schemes: gRPC %v, JSON %s, want %v", res.HashingSchemeVersion, jres.HashingSchemeVersion, want)
			}
			if res.HashingDetails == nil || *res.HashingDetails == "" || jres.HashingDetails == nil || *jres.HashingDetails == "" {
				t.Errorf("verbose hashing without details: gRPC %v, JSON %v", res.HashingDetails, jres.HashingDetails)
			}
			if res.CostEstimation != nil {
				t.Errorf("a cost estimation: %v", res.CostEstimation)
			}
			_, gm := grpcPrepared(t, res.PreparedTransaction)
			if h, err := interactive.Hash(gm, interactive.HashingSchemeVersion(want)); err != nil || !slices.Equal(h, res.PreparedTransactionHash) {
				t.Errorf("the gRPC hash %x is not the prepared transaction's %x (%v)", res.PreparedTransactionHash, h, err)
			}
			jm, err := interactive.DecodePreparedTransaction(jres.PreparedTransaction)
			if err != nil {
				t.Fatal(err)
			}
			if len(gm.Transaction.Nodes) != 1 || gm.Transaction.Nodes[0].Create == nil || !slices.Equal(gm.Metadata.SubmitterInfo.ActAs, []string{ext.party}) {
				t.Fatalf("prepared %+v, want ext's Ping create", gm)
			}
			if d := cmp.Diff(withoutRandomness(jm), withoutRandomness(gm), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("JSON and gRPC prepare differ (-json +grpc):\n%s", d)
			}
		})
	}

	t.Run("max record time", func(t *testing.T) {
		at := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
		g, j := p.preparePing("max-record-time", ext.party, 0)
		g.MaxRecordTime = timestamppb.New(at)
		res, err := svc.PrepareSubmission(p.grpcCtx, g)
		if err != nil {
			t.Fatal(err)
		}
		var jres jsonapi.JsPrepareSubmissionResponse
		p.postOK("/v2/interactive-submission/prepare", strings.Replace(j, "{", fmt.Sprintf(`{"maxRecordTime":%q,`, at.Format(time.RFC3339Nano)), 1), &jres)
		_, gm := grpcPrepared(t, res.PreparedTransaction)
		jm, err := interactive.DecodePreparedTransaction(jres.PreparedTransaction)
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(at.UnixMicro()); gm.Metadata.MaxRecordTime == nil || *gm.Metadata.MaxRecordTime != want {
			t.Errorf("max record time %v, want %d", gm.Metadata.MaxRecordTime, want)
		}
		if d := cmp.Diff(withoutRandomness(jm), withoutRandomness(gm), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("JSON and gRPC prepare differ (-json +grpc):\n%s", d)
		}
	})

	for _, tc := range []struct {
		name       string
		mutate     func(*interactivepb.PrepareSubmissionRequest)
		json       func(string) string
		sameCauses bool
		code       string
	}{
		// The scheme's name over JSON, its number over gRPC: the causes
		// name it each its way.
		{"unknown hashing scheme", func(r *interactivepb.PrepareSubmissionRequest) {
			r.HashingSchemeVersion = interactivepb.HashingSchemeVersion(9).Enum()
		},
			func(string) string { _, j := p.preparePing("bad", ext.party, 9); return j }, false, "INVALID_FIELD"},
		{"unknown template", func(r *interactivepb.PrepareSubmissionRequest) {
			r.Commands[0].GetCreate().TemplateId.EntityName = "Pong"
		}, func(string) string {
			_, j := p.preparePing("bad", ext.party, 0)
			return strings.Replace(j, p.pingID, p.pingID[:len(p.pingID)-len("Ping")]+"Pong", 1)
		}, true, "TEMPLATES_OR_INTERFACES_NOT_FOUND"},
		{"no command id", func(r *interactivepb.PrepareSubmissionRequest) { r.CommandId = "" },
			func(string) string {
				var m map[string]any
				_, j := p.preparePing("bad", ext.party, 0)
				json.Unmarshal([]byte(j), &m)
				m["commandId"] = ""
				b, _ := json.Marshal(m)
				return string(b)
			}, true, "MISSING_FIELD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := p.preparePing("bad", ext.party, 0)
			tc.mutate(g)
			_, err := svc.PrepareSubmission(p.grpcCtx, g)
			ge := fromGRPC(t, err)
			je := fromHTTP(t, p.post("/v2/interactive-submission/prepare", tc.json("")))
			if !tc.sameCauses {
				ge.Cause, je.Cause = "", ""
			}
			if d := cmp.Diff(je, ge); d != "" {
				t.Errorf("(-JSON API +gRPC):\n%s", d)
			}
			if ge.Code != tc.code {
				t.Errorf("gRPC refused with %s (%s), want %s", ge.Code, ge.Cause, tc.code)
			}
		})
	}
	if got := p.end(); got != end {
		t.Errorf("preparing moved the ledger end from %d to %d", end, got)
	}
}

// executeCall is one of the three execute RPCs and its JSON route, run
// with the same request.
type executeCall struct {
	name, path string
	// grpc executes over gRPC and returns the committed update id ("" when
	// the RPC does not say it).
	grpc func(*interactivepb.ExecuteSubmissionAndWaitForTransactionRequest) (string, *ledgerv2.Transaction, error)
}

func executeCalls(p *pingEnv) []executeCall {
	svc := interactivepb.NewInteractiveSubmissionServiceClient(p.conn)
	return []executeCall{
		{"ExecuteSubmission", "/v2/interactive-submission/execute", func(r *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest) (string, *ledgerv2.Transaction, error) {
			req := &interactivepb.ExecuteSubmissionRequest{PreparedTransaction: r.PreparedTransaction, PartySignatures: r.PartySignatures,
				SubmissionId: r.SubmissionId, UserId: r.UserId, HashingSchemeVersion: r.HashingSchemeVersion, MinLedgerTime: r.MinLedgerTime}
			_, err := svc.ExecuteSubmission(p.grpcCtx, req)
			return "", nil, err
		}},
		{"ExecuteSubmissionAndWait", "/v2/interactive-submission/executeAndWait", func(r *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest) (string, *ledgerv2.Transaction, error) {
			res, err := svc.ExecuteSubmissionAndWait(p.grpcCtx, &interactivepb.ExecuteSubmissionAndWaitRequest{PreparedTransaction: r.PreparedTransaction,
				PartySignatures: r.PartySignatures, SubmissionId: r.SubmissionId, UserId: r.UserId, HashingSchemeVersion: r.HashingSchemeVersion,
				MinLedgerTime: r.MinLedgerTime})
			if err != nil {
				return "", nil, err
			}
			if res.CompletionOffset != p.end() {
				p.t.Errorf("completion offset %d, ledger end %d", res.CompletionOffset, p.end())
			}
			return res.UpdateId, nil, nil
		}},
		{"ExecuteSubmissionAndWaitForTransaction", "/v2/interactive-submission/executeAndWaitForTransaction", func(r *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest) (string, *ledgerv2.Transaction, error) {
			res, err := svc.ExecuteSubmissionAndWaitForTransaction(p.grpcCtx, r)
			if err != nil {
				return "", nil, err
			}
			return res.Transaction.UpdateId, res.Transaction, nil
		}},
	}
}

// jsonExecute is the JSON body of an execute request: the prepared
// transaction's bytes, the signatures by their enum names.
func jsonExecute(t *testing.T, r *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest, format string) string {
	t.Helper()
	b, err := proto.Marshal(r.PreparedTransaction)
	if err != nil {
		t.Fatal(err)
	}
	j := jsonapi.ExecuteSubmissionRequest{PreparedTransaction: b, SubmissionID: r.SubmissionId, UserID: r.UserId,
		HashingSchemeVersion: r.HashingSchemeVersion.String(), PartySignatures: &jsonapi.PartySignatures{}}
	if _, known := interactivepb.HashingSchemeVersion_name[int32(r.HashingSchemeVersion)]; !known {
		j.HashingSchemeVersion = fmt.Sprintf("HASHING_SCHEME_VERSION_V%d", r.HashingSchemeVersion)
	}
	for _, ps := range r.PartySignatures.GetSignatures() {
		s := jsonapi.SinglePartySignatures{Party: ps.Party}
		for _, sig := range ps.Signatures {
			s.Signatures = append(s.Signatures, jsonapi.Signature{Format: sig.Format.String(), Signature: sig.Signature, SignedBy: sig.SignedBy,
				SigningAlgorithmSpec: sig.SigningAlgorithmSpec.String()})
		}
		j.PartySignatures.Signatures = append(j.PartySignatures.Signatures, s)
	}
	if r.PartySignatures == nil {
		j.PartySignatures = nil
	}
	switch m := r.MinLedgerTime.GetTime().(type) {
	case *interactivepb.MinLedgerTime_MinLedgerTimeAbs:
		j.MinLedgerTime = &jsonapi.MinLedgerTime{Time: jsonapi.MinLedgerTimeKind{MinLedgerTimeAbs: &jsonapi.Wrapped[string]{
			Value: m.MinLedgerTimeAbs.AsTime().Format(time.RFC3339Nano)}}}
	case *interactivepb.MinLedgerTime_MinLedgerTimeRel:
		j.MinLedgerTime = &jsonapi.MinLedgerTime{Time: jsonapi.MinLedgerTimeKind{MinLedgerTimeRel: &jsonapi.Wrapped[jsonapi.Duration]{
			Value: jsonapi.Duration{Seconds: m.MinLedgerTimeRel.Seconds, Nanos: m.MinLedgerTimeRel.Nanos}}}}
	}
	out, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	if format != "" {
		return string(out[:len(out)-1]) + `,"transactionFormat":` + format + `}`
	}
	return string(out)
}

// TestExecuteSubmissionSameAsJSON: each execute RPC answers as its JSON
// route: the same Ping create prepared for an external party and signed
// commits the same transaction over both (its update id, offset and
// events as the reads show them), and a prepared transaction crosses
// from one API to the other; a bad signature, a tampered transaction, an
// unknown hashing scheme and missing signatures are refused with the same
// errors over both, and commit nothing.
func TestExecuteSubmissionSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	ext := p.allocateExternal("ext")
	other := &extParty{party: ext.party, fingerprint: ext.fingerprint}
	_, other.key, _ = ed25519.GenerateKey(rand.Reader)
	svc := interactivepb.NewInteractiveSubmissionServiceClient(p.conn)
	updates := ledgerv2.NewUpdateServiceClient(p.conn)
	extFormat, _ := txFormat(ext.party, ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
	// read is the transaction of an update as ext's ACS delta.
	read := func(t *testing.T, updateID string) txSummary {
		t.Helper()
		if updateID == "" {
			// The update at the ledger end.
			end := p.end()
			txs, err := grpcUpdates(t, updates, p.grpcCtx, &ledgerv2.GetUpdatesRequest{BeginExclusive: end - 1, EndInclusive: &end,
				UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: extFormat}})
			if err != nil || len(txs) != 1 {
				t.Fatalf("the update at the ledger end: %v, %v", txs, err)
			}
			return txs[0]
		}
		u, err := updates.GetUpdateById(p.grpcCtx, &ledgerv2.GetUpdateByIdRequest{UpdateId: updateID, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: extFormat}})
		if err != nil {
			t.Fatal(err)
		}
		return summaryOfProto(u.GetTransaction())
	}
	// prepared prepares ext's Ping with command id cmd over gRPC and
	// returns the execute request signed by signer.
	prepared := func(t *testing.T, cmd string, signer *extParty) *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest {
		t.Helper()
		g, _ := p.preparePing(cmd, ext.party, 0)
		res, err := svc.PrepareSubmission(p.grpcCtx, g)
		if err != nil {
			t.Fatal(err)
		}
		return &interactivepb.ExecuteSubmissionAndWaitForTransactionRequest{PreparedTransaction: res.PreparedTransaction,
			PartySignatures: signer.signatures(res.PreparedTransactionHash), SubmissionId: "sub-" + cmd, UserId: p.admin,
			HashingSchemeVersion: res.HashingSchemeVersion}
	}

	for _, call := range executeCalls(p) {
		t.Run(call.name, func(t *testing.T) {
			// The same commands prepared and executed over each API.
			before := p.end()
			g := prepared(t, call.name+"-g", ext)
			updateID, tx, err := call.grpc(g)
			if err != nil {
				t.Fatal(err)
			}
			got := read(t, updateID)
			if got.Offset != before+1 || len(got.Events) != 1 || got.Events[0].Kind != "created" || got.CommandID != call.name+"-g" {
				t.Fatalf("gRPC committed %+v at %d, want ext's Ping create at %d", got, got.Offset, before+1)
			}
			if tx != nil {
				if d := cmp.Diff(got, summaryOfProto(tx)); d != "" {
					t.Errorf("the returned transaction differs from its read (-read +returned):\n%s", d)
				}
			}
			j := prepared(t, call.name+"-j", ext)
			var jres struct {
				UpdateID         string
				CompletionOffset int64
				Transaction      *jsonapi.JsTransaction
			}
			p.postOK(call.path, jsonExecute(t, j, ""), &jres)
			if jres.Transaction != nil {
				jres.UpdateID = jres.Transaction.UpdateID
			}
			jgot := read(t, jres.UpdateID)
			if jres.Transaction != nil {
				if d := cmp.Diff(jgot, summaryOfJSON(jres.Transaction)); d != "" {
					t.Errorf("the JSON transaction differs from its read (-read +returned):\n%s", d)
				}
			}
			if (jres.UpdateID == "") != (updateID == "") {
				t.Errorf("update ids: JSON %q, gRPC %q", jres.UpdateID, updateID)
			}
			if d := cmp.Diff(withoutIDs(jgot), withoutIDs(got)); d != "" {
				t.Errorf("gRPC and JSON executions differ (-json +grpc):\n%s", d)
			}

			// What gRPC prepared, JSON executes.
			x := prepared(t, call.name+"-x", ext)
			jres.UpdateID, jres.Transaction = "", nil
			p.postOK(call.path, jsonExecute(t, x, ""), &jres)
			if jres.Transaction != nil {
				jres.UpdateID = jres.Transaction.UpdateID
			}
			if c := read(t, jres.UpdateID); c.CommandID != call.name+"-x" || len(c.Events) != 1 {
				t.Errorf("the JSON execution of a gRPC prepare committed %+v", c)
			}

			// Refusals.
			bad := prepared(t, call.name+"-bad", ext)
			tampered := proto.Clone(bad).(*interactivepb.ExecuteSubmissionAndWaitForTransactionRequest)
			tampered.PreparedTransaction.Metadata.SubmitterInfo.CommandId = "other"
			for _, rc := range []struct {
				name       string
				req        *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest
				sameCauses bool
				code       string
			}{
				{"signed by another key", func() *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest {
					r := proto.Clone(bad).(*interactivepb.ExecuteSubmissionAndWaitForTransactionRequest)
					h, err := interactive.Hash(func() *interactive.PreparedTransaction { _, m := grpcPrepared(t, r.PreparedTransaction); return m }(), interactive.HashingSchemeVersionV2)
					if err != nil {
						t.Fatal(err)
					}
					r.PartySignatures = other.signatures(h)
					return r
				}(), true, "FAILED_TO_EXECUTE_TRANSACTION"},
				{"tampered", tampered, true, "FAILED_TO_EXECUTE_TRANSACTION"},
				{"unknown hashing scheme", func() *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest {
					r := proto.Clone(bad).(*interactivepb.ExecuteSubmissionAndWaitForTransactionRequest)
					r.HashingSchemeVersion = 9
					return r
				}(), false, "INVALID_FIELD"},
				{"no signatures", func() *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest {
					r := proto.Clone(bad).(*interactivepb.ExecuteSubmissionAndWaitForTransactionRequest)
					r.PartySignatures = nil
					return r
				}(), true, "MISSING_FIELD"},
				// The cause names the time, a moment apart.
				{"minimum ledger time in the future", func() *interactivepb.ExecuteSubmissionAndWaitForTransactionRequest {
					r := proto.Clone(bad).(*interactivepb.ExecuteSubmissionAndWaitForTransactionRequest)
					r.MinLedgerTime = &interactivepb.MinLedgerTime{Time: &interactivepb.MinLedgerTime_MinLedgerTimeRel{MinLedgerTimeRel: durationpb.New(time.Hour)}}
					return r
				}(), false, "FAILED_TO_EXECUTE_TRANSACTION"},
			} {
				t.Run(rc.name, func(t *testing.T) {
					end := p.end()
					_, _, err := call.grpc(rc.req)
					ge := fromGRPC(t, err)
					je := fromHTTP(t, p.post(call.path, jsonExecute(t, rc.req, "")))
					if ge.Code != rc.code {
						t.Errorf("gRPC refused with %s (%s), want %s", ge.Code, ge.Cause, rc.code)
					}
					if !rc.sameCauses {
						ge.Cause, je.Cause = "", ""
					}
					if d := cmp.Diff(je, ge); d != "" {
						t.Errorf("(-JSON API +gRPC):\n%s", d)
					}
					if got := p.end(); got != end {
						t.Errorf("a refused execution moved the ledger end from %d to %d", end, got)
					}
				})
			}
			// The request the refusals derive from executes.
			if _, _, err := call.grpc(bad); err != nil {
				t.Errorf("the unchanged request: %v", err)
			}
		})
	}

	t.Run("transaction format", func(t *testing.T) {
		// As bob, the Ping's observer, with ledger effects.
		bobFormat, bobJSON := txFormat(p.bob, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS)
		g := prepared(t, "format-g", ext)
		g.TransactionFormat = bobFormat
		res, err := svc.ExecuteSubmissionAndWaitForTransaction(p.grpcCtx, g)
		if err != nil {
			t.Fatal(err)
		}
		j := prepared(t, "format-j", ext)
		var jres jsonapi.ExecuteSubmissionAndWaitForTransactionResponse
		p.postOK("/v2/interactive-submission/executeAndWaitForTransaction", jsonExecute(t, j, bobJSON), &jres)
		got := summaryOfProto(res.Transaction)
		if len(got.Events) != 1 || !slices.Equal(got.Events[0].Witnesses, []string{p.bob}) {
			t.Fatalf("bob's view %+v", got)
		}
		if d := cmp.Diff(withoutIDs(summaryOfJSON(&jres.Transaction)), withoutIDs(got)); d != "" {
			t.Errorf("gRPC and JSON differ (-json +grpc):\n%s", d)
		}
		// A format with an invalid party is refused before anything is
		// committed.
		end := p.end()
		bad := prepared(t, "format-bad", ext)
		bad.TransactionFormat, _ = txFormat("not a party!", ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
		_, err = svc.ExecuteSubmissionAndWaitForTransaction(p.grpcCtx, bad)
		wantCode(t, err, codes.InvalidArgument, "INVALID_FIELD")
		if p.end() != end {
			t.Errorf("a refused format committed")
		}
	})
}

// TestInteractiveSubmissionOverGRPC: an external party's whole flow over
// gRPC only: onboard it, prepare a Ping create acting as it, sign the
// hash with its key, and execute: the create comes back, and bob (the
// Ping's observer) reads it.
func TestInteractiveSubmissionOverGRPC(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	ext := p.allocateExternal("wallet")
	svc := interactivepb.NewInteractiveSubmissionServiceClient(p.conn)
	g, _ := p.preparePing("flow", ext.party, 0)
	prep, err := svc.PrepareSubmission(p.grpcCtx, g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.ExecuteSubmissionAndWaitForTransaction(p.grpcCtx, &interactivepb.ExecuteSubmissionAndWaitForTransactionRequest{
		PreparedTransaction: prep.PreparedTransaction, PartySignatures: ext.signatures(prep.PreparedTransactionHash),
		SubmissionId: "flow-1", HashingSchemeVersion: prep.HashingSchemeVersion})
	if err != nil {
		t.Fatal(err)
	}
	tx := res.Transaction
	if len(tx.Events) != 1 || tx.Events[0].GetCreated() == nil || tx.CommandId != "flow" {
		t.Fatalf("executed %v, want one create", tx)
	}
	c := tx.Events[0].GetCreated()
	args := map[string]string{}
	for _, f := range c.CreateArguments.GetFields() {
		args[f.Label] = f.Value.GetParty() + f.Value.GetText()
	}
	want := map[string]string{"id": "flow", "initiator": ext.party, "responder": p.bob}
	if !slices.Equal(c.WitnessParties, []string{ext.party}) || c.TemplateId.EntityName != "Ping" || !cmp.Equal(args, want) {
		t.Fatalf("created %v, want ext's Ping %v", c, want)
	}
	bobFormat, _ := txFormat(p.bob, ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
	u, err := ledgerv2.NewUpdateServiceClient(p.conn).GetUpdateById(p.grpcCtx, &ledgerv2.GetUpdateByIdRequest{UpdateId: tx.UpdateId,
		UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: bobFormat}})
	if err != nil || len(u.GetTransaction().GetEvents()) != 1 || u.GetTransaction().Events[0].GetCreated().GetContractId() != c.ContractId {
		t.Fatalf("bob reads %v, %v", u, err)
	}
	// Executing it again is a duplicate.
	_, err = svc.ExecuteSubmissionAndWait(p.grpcCtx, &interactivepb.ExecuteSubmissionAndWaitRequest{
		PreparedTransaction: prep.PreparedTransaction, PartySignatures: ext.signatures(prep.PreparedTransactionHash),
		SubmissionId: "flow-2", HashingSchemeVersion: prep.HashingSchemeVersion})
	// A definite answer, as Canton's DuplicateCommandReject, which its
	// conformance tests check (CommandDeduplicationIT).
	if info := wantCode(t, err, codes.AlreadyExists, "DUPLICATE_COMMAND"); info.Metadata["definite_answer"] != "true" || info.Metadata["completion_offset"] == "" {
		t.Errorf("DUPLICATE_COMMAND metadata %v, want definite_answer true and the completion offset", info.Metadata)
	}
}
