package grpcadapter

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// blockingStream is a server stream whose Send blocks until the test
// releases it or the stream's context ends, as a client's full
// flow-control window blocks grpc-go's Send.
type blockingStream[T any] struct {
	grpc.ServerStreamingServer[T]
	ctx     context.Context
	sending chan *T
	release chan struct{}
}

func (s *blockingStream[T]) Context() context.Context { return s.ctx }

func (s *blockingStream[T]) Send(r *T) error {
	s.sending <- r
	select {
	case <-s.release:
		return nil
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// flowNode is a node with the Ping DAR and the parties alice and bob,
// which sends no offset checkpoints in a stream (the flow tests count
// the elements).
func flowNode(t *testing.T) (node *ledger.Node, alice, bob string) {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash("../../shared/testdata/dars/canton-builtin-admin-workflow-ping.dar"))
	if err != nil {
		t.Skipf("../shared not found: skipping (%v)", err)
	}
	node = ledgertest.Open(t, ledger.Options{CheckpointDelay: time.Hour})
	ledgertest.MustUploadDAR(t, node, data)
	return node, ledgertest.MustAllocate(t, node, "alice"), ledgertest.MustAllocate(t, node, "bob")
}

// TestCompletionStreamFlowAndCancel: CompletionStream sends one
// completion at a time (the next is not read while a Send is blocked),
// follows the ledger when it has sent everything, and returns once the
// client's context ends, whether it was blocked in Send or waiting for
// the ledger.
func TestCompletionStreamFlowAndCancel(t *testing.T) {
	t.Parallel()
	node, alice, bob := flowNode(t)
	if _, err := node.GrantUserRights(context.Background(), identity.DefaultParticipantAdmin, "", []identity.Right{{Kind: identity.RightCanActAs, Party: alice}}); err != nil {
		t.Fatal(err)
	}
	svc := &completionService{a: New(node, Options{Logger: slog.New(slog.DiscardHandler)})}
	p, err := node.Authenticate(context.Background(), identity.Claims{UserID: identity.DefaultParticipantAdmin})
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, s *blockingStream[ledgerv2.CompletionStreamResponse]) chan error {
		done := make(chan error, 1)
		go func() {
			done <- svc.CompletionStream(&ledgerv2.CompletionStreamRequest{UserId: identity.DefaultParticipantAdmin, Parties: []string{alice}}, s)
		}()
		return done
	}
	newStream := func() (*blockingStream[ledgerv2.CompletionStreamResponse], context.CancelFunc) {
		ctx, cancel := context.WithCancel(ledger.WithPrincipal(context.Background(), p))
		return &blockingStream[ledgerv2.CompletionStreamResponse]{ctx: ctx, sending: make(chan *ledgerv2.CompletionStreamResponse, 8), release: make(chan struct{})}, cancel
	}
	wantEnd := func(done chan error) {
		t.Helper()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("CompletionStream returned %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("CompletionStream did not return after the cancellation")
		}
	}

	// Waiting for the ledger.
	s, cancel := newStream()
	done := run(s.ctx, s)
	time.Sleep(50 * time.Millisecond)
	cancel()
	wantEnd(done)

	// Blocked in Send with more to send.
	for _, id := range []string{"c1", "c2", "c3"} {
		ledgertest.Submit(t, node, ledger.Commands{CommandID: id, ActAs: []string{alice}, UserID: identity.DefaultParticipantAdmin,
			Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByName("canton-builtin-admin-workflow-ping", "Canton.Internal.Ping", "Ping"),
				Arguments: ledgertest.Record(map[string]value.Value{"id": value.Text(id), "initiator": value.Party(alice), "responder": value.Party(bob)})}}})
	}
	s, cancel = newStream()
	done = run(s.ctx, s)
	first := <-s.sending
	if c := first.GetCompletion(); c == nil || c.CommandId != "c1" {
		t.Fatalf("first element %v, want c1's completion", first)
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(s.sending); n != 0 {
		t.Errorf("%d more Sends while the first was blocked", n)
	}
	s.release <- struct{}{}
	if c := (<-s.sending).GetCompletion(); c == nil || c.CommandId != "c2" {
		t.Errorf("second element %v, want c2's completion", c)
	}
	cancel()
	wantEnd(done)
}
