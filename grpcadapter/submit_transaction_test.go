package grpcadapter_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// withoutIDs is s with what differs between two submissions of the same
// commands cleared: ids, offsets and contract ids.
func withoutIDs(s txSummary) txSummary {
	s.UpdateID, s.CommandID, s.Offset = "", "", 0
	s.Events = slicesClone(s.Events)
	for i := range s.Events {
		s.Events[i].ContractID = ""
	}
	return s
}

func slicesClone[T any](s []T) []T { return append([]T(nil), s...) }

// TestSubmitAndWaitForTransactionSameAsJSON: SubmitAndWaitForTransaction
// answers as /v2/commands/submit-and-wait-for-transaction: with the
// default format (ACS delta as the act_as parties) and with a format,
// the transaction it returns is the one the reads return, and the same
// commands over both APIs give the same transaction; refusals are the
// same and commit nothing.
func TestSubmitAndWaitForTransactionSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	updates := ledgerv2.NewUpdateServiceClient(p.conn)
	bobFormat, bobJSON := txFormat(p.bob, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS)
	aliceFormat, _ := txFormat(p.alice, ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA)
	for _, tc := range []struct {
		name   string
		format *ledgerv2.TransactionFormat
		json   string
		read   *ledgerv2.TransactionFormat // the format of the same view
	}{
		{"default format", nil, "", aliceFormat},
		{"bob ledger effects", bobFormat, bobJSON, bobFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := strings.ReplaceAll(tc.name, " ", "-")
			g, _ := p.createPing(cmd+"-g", p.pingID)
			res, err := p.commands.SubmitAndWaitForTransaction(p.grpcCtx, &ledgerv2.SubmitAndWaitForTransactionRequest{Commands: g, TransactionFormat: tc.format})
			if err != nil {
				t.Fatal(err)
			}
			got := summaryOfProto(res.Transaction)
			if len(got.Events) != 1 || got.Offset != p.end() {
				t.Fatalf("transaction %+v, want the one create at the ledger end", got)
			}
			read, err := updates.GetUpdateById(p.grpcCtx, &ledgerv2.GetUpdateByIdRequest{UpdateId: got.UpdateID, UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: tc.read}})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(summaryOfProto(read.GetTransaction()), got); d != "" {
				t.Errorf("the submission's transaction differs from its read (-read +submitted):\n%s", d)
			}
			_, j := p.createPing(cmd+"-j", p.pingID)
			body := `{"commands":` + j + `}`
			if tc.json != "" {
				body = `{"commands":` + j + `,"transactionFormat":` + tc.json + `}`
			}
			var jres jsonapi.SubmitAndWaitForTransactionResponse
			p.postOK("/v2/commands/submit-and-wait-for-transaction", body, &jres)
			if d := cmp.Diff(withoutIDs(summaryOfJSON(&jres.Transaction)), withoutIDs(got)); d != "" {
				t.Errorf("gRPC and JSON submissions differ (-json +grpc):\n%s", d)
			}
		})
	}

	t.Run("nothing visible", func(t *testing.T) {
		g, _ := p.createPing("invisible", p.pingID)
		// Reading as a party that is no stakeholder: the transaction
		// without events, as the JSON API answers.
		carol := ledgertest.MustAllocate(t, p.node, "carol")
		if _, err := p.node.GrantUserRights(context.Background(), p.admin, "", []identity.Right{{Kind: identity.RightCanReadAs, Party: carol}}); err != nil {
			t.Fatal(err)
		}
		carolFormat, _ := txFormat(carol, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS)
		res, err := p.commands.SubmitAndWaitForTransaction(p.grpcCtx, &ledgerv2.SubmitAndWaitForTransactionRequest{Commands: g, TransactionFormat: carolFormat})
		if err != nil {
			t.Fatal(err)
		}
		if tr := res.Transaction; tr.UpdateId == "" || tr.Offset != p.end() || len(tr.Events) != 0 || tr.EffectiveAt == nil {
			t.Fatalf("transaction %v, want the committed one without events", tr)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		g, j := p.createPing("refused", p.pingID)
		for _, tc := range []struct {
			name   string
			cmds   *ledgerv2.Commands
			format *ledgerv2.TransactionFormat
			body   string
		}{
			{"alice's Respond", func() *ledgerv2.Commands {
				c, _ := p.respond("alice-respond", p.alice, p.createdCID(p.mustCreate("to-respond")))
				return c
			}(), nil, ""},
			{"unknown template in the format", g, &ledgerv2.TransactionFormat{EventFormat: &ledgerv2.EventFormat{FiltersByParty: map[string]*ledgerv2.Filters{p.bob: {Cumulative: []*ledgerv2.CumulativeFilter{{
				IdentifierFilter: &ledgerv2.CumulativeFilter_TemplateFilter{TemplateFilter: &ledgerv2.TemplateFilter{TemplateId: identifier(strings.Replace(p.pingID, ":Ping", ":Nothing", 1))}}}}}}},
				TransactionShape: ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA},
				fmt.Sprintf(`{"commands":%s,"transactionFormat":{"eventFormat":{"filtersByParty":{%q:{"cumulative":[{"identifierFilter":{"TemplateFilter":{"value":{"templateId":%q,"includeCreatedEventBlob":false}}}}]}},"verbose":true},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}`,
					j, p.bob, strings.Replace(p.pingID, ":Ping", ":Nothing", 1))},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := p.end()
				body := tc.body
				if body == "" {
					_, jr := p.respond("alice-respond", p.alice, tc.cmds.Commands[0].GetExercise().ContractId)
					body = `{"commands":` + jr + `}`
				}
				_, err := p.commands.SubmitAndWaitForTransaction(p.grpcCtx, &ledgerv2.SubmitAndWaitForTransactionRequest{Commands: tc.cmds, TransactionFormat: tc.format})
				got := fromGRPC(t, err)
				if p.end() != before {
					t.Fatalf("the refused submission moved the ledger end from %d to %d", before, p.end())
				}
				want := jsonError(t, p.post("/v2/commands/submit-and-wait-for-transaction", body))
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("gRPC refusal differs from JSON (-json +grpc):\n%s", d)
				}
			})
		}
	})
}

// mustCreate creates a Ping over gRPC and returns its update id.
func (p *pingEnv) mustCreate(cmd string) string {
	p.t.Helper()
	c, _ := p.createPing(cmd, p.pingID)
	res, err := p.commands.SubmitAndWait(p.grpcCtx, &ledgerv2.SubmitAndWaitRequest{Commands: c})
	if err != nil {
		p.t.Fatal(err)
	}
	return res.UpdateId
}
