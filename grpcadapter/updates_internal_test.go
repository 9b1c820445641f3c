package grpcadapter

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestGetUpdatesFlowAndCancel: GetUpdates sends one transaction at a
// time (no other Send while one is blocked), follows the ledger when it
// has sent everything, and returns once the client's context ends,
// whether it was blocked in Send or waiting for the ledger.
func TestGetUpdatesFlowAndCancel(t *testing.T) {
	t.Parallel()
	node, alice, bob := flowNode(t)
	svc := &updateService{a: New(node, Options{Logger: slog.New(slog.DiscardHandler)})}
	p := identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true}
	req := &ledgerv2.GetUpdatesRequest{UpdateFormat: &ledgerv2.UpdateFormat{IncludeTransactions: &ledgerv2.TransactionFormat{
		EventFormat:      &ledgerv2.EventFormat{FiltersForAnyParty: &ledgerv2.Filters{}},
		TransactionShape: ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA}}}
	newStream := func() (*blockingStream[ledgerv2.GetUpdatesResponse], context.CancelFunc, chan error) {
		ctx, cancel := context.WithCancel(ledger.WithPrincipal(context.Background(), p))
		s := &blockingStream[ledgerv2.GetUpdatesResponse]{ctx: ctx, sending: make(chan *ledgerv2.GetUpdatesResponse, 8), release: make(chan struct{})}
		done := make(chan error, 1)
		go func() { done <- svc.GetUpdates(req, s) }()
		return s, cancel, done
	}
	wantEnd := func(done chan error) {
		t.Helper()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("GetUpdates returned %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("GetUpdates did not return after the cancellation")
		}
	}
	// next is the element being sent, failing the test when GetUpdates
	// returns or nothing comes.
	next := func(s *blockingStream[ledgerv2.GetUpdatesResponse], done chan error) *ledgerv2.Transaction {
		t.Helper()
		select {
		case r := <-s.sending:
			return r.GetTransaction()
		case err := <-done:
			t.Fatalf("GetUpdates returned %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("nothing sent")
		}
		return nil
	}
	create := func(id string) {
		ledgertest.Submit(t, node, ledger.Commands{CommandID: id, ActAs: []string{alice}, UserID: identity.DefaultParticipantAdmin,
			Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByName("canton-builtin-admin-workflow-ping", "Canton.Internal.Ping", "Ping"),
				Arguments: ledgertest.Record(map[string]value.Value{"id": value.Text(id), "initiator": value.Party(alice), "responder": value.Party(bob)})}}})
	}

	// Waiting for the ledger.
	_, cancel, done := newStream()
	time.Sleep(50 * time.Millisecond)
	cancel()
	wantEnd(done)

	// Blocked in Send with more to send.
	for _, id := range []string{"c1", "c2", "c3"} {
		create(id)
	}
	s, cancel, done := newStream()
	if tx := next(s, done); tx == nil || tx.CommandId != "c1" {
		t.Fatalf("first element %v, want c1's transaction", tx)
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(s.sending); n != 0 {
		t.Errorf("%d more Sends while the first was blocked", n)
	}
	s.release <- struct{}{}
	if tx := next(s, done); tx == nil || tx.CommandId != "c2" {
		t.Errorf("second element %v, want c2's transaction", tx)
	}
	s.release <- struct{}{}
	next(s, done)
	s.release <- struct{}{}
	// Then the ledger is followed: a later transaction comes.
	create("c4")
	if tx := next(s, done); tx == nil || tx.CommandId != "c4" {
		t.Errorf("tail element %v, want c4's transaction", tx)
	}
	cancel()
	wantEnd(done)
}
