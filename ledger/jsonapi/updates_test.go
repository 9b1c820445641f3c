package jsonapi_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestReadsOneSameAsNode checks that the JSON layer's reads of one update
// (by id and offset, as an update, a transaction and a tree) and of one
// contract (its events, the contract by id) are the bytes of the Node's
// JSON reads for every format of the fixture and every update and
// contract, refusals included.
func TestReadsOneSameAsNode(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range emitFormats {
		ef := l.wire(f)
		parties := l.partyIDs(f)
		slices.Sort(parties)
		topo := parties
		if f.anyParty {
			topo = nil
		}
		for _, shape := range []string{jsonapi.ShapeACSDelta, jsonapi.ShapeLedgerEffects} {
			tf := jsonapi.TransactionFormat{EventFormat: ef, TransactionShape: shape}
			uf := jsonapi.UpdateFormat{IncludeTransactions: &tf, IncludeReassignments: &ef, IncludeTopologyEvents: &jsonapi.TopologyFormat{
				IncludeParticipantAuthorizationEvents: &jsonapi.ParticipantAuthorizationTopologyFormat{Parties: topo}}}
			for off := int64(0); off <= end+1; off++ {
				what := fmt.Sprintf("%s %s offset %d", f.name, shape, off)
				got, gerr := a.UpdateByOffset(l.ctx, jsonapi.GetUpdateByOffsetRequest{Offset: off, UpdateFormat: &uf})
				sameAnswer(t, what+" update", got, gerr)
				got, gerr = a.TransactionByOffset(l.ctx, jsonapi.GetTransactionByOffsetRequest{Offset: off, TransactionFormat: &tf})
				sameAnswer(t, what+" transaction", got, gerr)
			}
			for _, id := range append(slices.Clone(l.updates), "nope") {
				what := fmt.Sprintf("%s %s update %s", f.name, shape, id)
				got, gerr := a.UpdateByID(l.ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &uf})
				sameAnswer(t, what, got, gerr)
				got, gerr = a.TransactionByID(l.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: id, TransactionFormat: &tf})
				sameAnswer(t, what+" transaction", got, gerr)
			}
		}
		if len(parties) > 0 {
			for off := int64(0); off <= end+1; off++ {
				what := fmt.Sprintf("%s offset %d", f.name, off)
				got, gerr := a.TransactionTreeByOffset(l.ctx, off, parties)
				sameAnswer(t, what+" tree", got, gerr)
				got, gerr = a.TransactionByOffset(l.ctx, jsonapi.GetTransactionByOffsetRequest{Offset: off, RequestingParties: parties})
				sameAnswer(t, what+" transaction of the requesting parties", got, gerr)
			}
			for _, id := range l.updates {
				got, gerr := a.TransactionTreeByID(l.ctx, id, parties)
				sameAnswer(t, f.name+" tree "+id, got, gerr)
			}
		}
		for _, cid := range append(slices.Clone(l.cids), "00nope", "") {
			what := fmt.Sprintf("%s contract %s", f.name, cid)
			got, gerr := a.EventsByContractID(l.ctx, jsonapi.GetEventsByContractIDRequest{ContractID: cid, EventFormat: ef})
			sameAnswer(t, what+" events", got, gerr)
			got, gerr = a.ContractByID(l.ctx, jsonapi.GetContractRequest{ContractID: cid, QueryingParties: parties})
			sameAnswer(t, what+" by id", got, gerr)
		}
	}
}

// TestReadsOneRefusals checks the refusals of the JSON layer's reads of
// one update or contract against the Node's JSON reads (the order of
// their checks), and the requests the typed formats do not express.
func TestReadsOneRefusals(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	l := newEmitLedger(t, emitNotes)
	a := jsonapi.New(l.n)
	id := l.updates[len(l.updates)-1]
	alice := l.aliceFormat()
	tf := func(shape string) *jsonapi.TransactionFormat {
		return &jsonapi.TransactionFormat{EventFormat: alice, TransactionShape: shape}
	}
	noVariant := l.noVariantFormat()
	bob := l.bobCtx()
	cancelled := l.cancelledCtx()
	type read struct {
		name string
		api  func() (jsonapi.Body, error)
	}
	byID := func(name string, ctx context.Context, req jsonapi.GetUpdateByIDRequest) read {
		return read{"update by id " + name, func() (jsonapi.Body, error) { return a.UpdateByID(ctx, req) }}
	}
	byOffset := func(name string, ctx context.Context, req jsonapi.GetUpdateByOffsetRequest) read {
		return read{"update by offset " + name, func() (jsonapi.Body, error) { return a.UpdateByOffset(ctx, req) }}
	}
	txByID := func(name string, ctx context.Context, req jsonapi.GetTransactionByIDRequest) read {
		return read{"transaction by id " + name, func() (jsonapi.Body, error) { return a.TransactionByID(ctx, req) }}
	}
	txByOffset := func(name string, ctx context.Context, req jsonapi.GetTransactionByOffsetRequest) read {
		return read{"transaction by offset " + name, func() (jsonapi.Body, error) { return a.TransactionByOffset(ctx, req) }}
	}
	tree := func(name string, ctx context.Context, id string, parties ...string) read {
		return read{"tree " + name, func() (jsonapi.Body, error) { return a.TransactionTreeByID(ctx, id, parties) }}
	}
	treeAt := func(name string, ctx context.Context, off int64, parties ...string) read {
		return read{"tree by offset " + name, func() (jsonapi.Body, error) { return a.TransactionTreeByOffset(ctx, off, parties) }}
	}
	events := func(name string, ctx context.Context, req jsonapi.GetEventsByContractIDRequest) read {
		return read{"events " + name, func() (jsonapi.Body, error) { return a.EventsByContractID(ctx, req) }}
	}
	contract := func(name string, ctx context.Context, req jsonapi.GetContractRequest) read {
		return read{"contract " + name, func() (jsonapi.Body, error) { return a.ContractByID(ctx, req) }}
	}
	for _, r := range []read{
		byID("no format", l.ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id}),
		byID("no format, no id", l.ctx, jsonapi.GetUpdateByIDRequest{}),
		byID("empty format: not found", l.ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &jsonapi.UpdateFormat{}}),
		byOffset("no format", l.ctx, jsonapi.GetUpdateByOffsetRequest{Offset: 1}),
		byOffset("empty format: not found", l.ctx, jsonapi.GetUpdateByOffsetRequest{Offset: 1, UpdateFormat: &jsonapi.UpdateFormat{}}),
		byID("unknown shape", l.ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: tf("X")}}),
		byID("unrecognized shape", cancelled, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: tf("UNRECOGNIZED")}}),
		byID("no right", bob, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: tf(jsonapi.ShapeACSDelta)}}),
		byID("no variant", l.ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{
			EventFormat: noVariant, TransactionShape: jsonapi.ShapeACSDelta}}}),
		byID("empty id", l.ctx, jsonapi.GetUpdateByIDRequest{UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: tf(jsonapi.ShapeACSDelta)}}),
		byOffset("0", l.ctx, jsonapi.GetUpdateByOffsetRequest{UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: tf(jsonapi.ShapeACSDelta)}}),
		byOffset("0, bad shape", l.ctx, jsonapi.GetUpdateByOffsetRequest{UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: tf("X")}}),
		byOffset("topology without authorizations", l.ctx, jsonapi.GetUpdateByOffsetRequest{Offset: 1, UpdateFormat: &jsonapi.UpdateFormat{IncludeTopologyEvents: &jsonapi.TopologyFormat{}}}),
		txByID("neither", l.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: id}),
		txByID("both", l.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{l.alice}, TransactionFormat: tf(jsonapi.ShapeACSDelta)}),
		txByID("empty id", cancelled, jsonapi.GetTransactionByIDRequest{RequestingParties: []string{l.alice}}),
		txByID("unspecified shape", l.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: id, TransactionFormat: tf("")}),
		txByID("no right", bob, jsonapi.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{l.alice}}),
		txByID("bad party", l.ctx, jsonapi.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{"not a party"}}),
		txByOffset("negative", l.ctx, jsonapi.GetTransactionByOffsetRequest{Offset: -1, RequestingParties: []string{l.alice}}),
		txByOffset("not a transaction", l.ctx, jsonapi.GetTransactionByOffsetRequest{Offset: 1, RequestingParties: []string{l.alice}}),
		tree("no parties", l.ctx, id),
		tree("no right", bob, id, l.alice),
		tree("no right, unsorted", bob, id, l.carol, l.alice, l.bob),
		tree("repeated", l.ctx, id, l.alice, l.alice),
		tree("empty id", l.ctx, "", l.alice),
		tree("cancelled", cancelled, id, l.alice),
		treeAt("0", cancelled, 0, l.alice),
		treeAt("after the end", l.ctx, 10_000, l.alice),
		events("empty id, bad shape", l.ctx, jsonapi.GetEventsByContractIDRequest{EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{
			l.alice: {Cumulative: []jsonapi.CumulativeFilter{{IdentifierFilter: jsonapi.IdentifierFilter{TemplateFilter: &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{}}}}}}}}),
		events("empty id", l.ctx, jsonapi.GetEventsByContractIDRequest{}),
		events("no party", l.ctx, jsonapi.GetEventsByContractIDRequest{ContractID: l.cids[0]}),
		events("no right", bob, jsonapi.GetEventsByContractIDRequest{ContractID: l.cids[0], EventFormat: alice}),
		events("no variant", l.ctx, jsonapi.GetEventsByContractIDRequest{ContractID: l.cids[0], EventFormat: noVariant}),
		contract("empty id", cancelled, jsonapi.GetContractRequest{}),
		contract("no right", bob, jsonapi.GetContractRequest{ContractID: l.cids[0], QueryingParties: []string{l.alice}}),
		contract("any party without the right", bob, jsonapi.GetContractRequest{ContractID: l.cids[0]}),
	} {
		t.Run(r.name, func(t *testing.T) {
			got, gerr := r.api()
			sameAnswer(t, r.name, got, gerr)
		})
	}
}
