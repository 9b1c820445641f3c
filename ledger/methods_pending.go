package ledger

// TEMPORARY: signatures the adapter compiles against while the bodies are
// written. This file is deleted before anything lands.

import (
	"context"
	"log/slog"
	"time"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/apierr"
)

type Options struct {
	Dir           string
	InMemory      bool
	ParticipantID string
	Synchronizers []string
	Clock         func() time.Time
	Logger        *slog.Logger
	SyncWrites    bool
}

type Node struct{}

func Open(opts Options) (*Node, error) { return nil, apierr.Unimplemented.New("pending") }
func (n *Node) Close() error           { return nil }

// Ready returns nil while the node serves, and SERVICE_NOT_RUNNING after Close.
func (n *Node) Ready() error                { return nil }
func (n *Node) ParticipantIDString() string { return "" }
func (n *Node) Version(ctx context.Context) (VersionResponse, error) {
	return VersionResponse{}, nil
}
func (n *Node) LedgerEnd(ctx context.Context) (LedgerEnd, error) { return LedgerEnd{}, nil }
func (n *Node) ParticipantID(ctx context.Context) (ParticipantIDResponse, error) {
	return ParticipantIDResponse{}, nil
}
func (n *Node) AllocateParty(ctx context.Context, req AllocatePartyRequest) (AllocatePartyResponse, error) {
	return AllocatePartyResponse{}, nil
}
func (n *Node) ListParties(ctx context.Context, req ListPartiesRequest) (ListPartiesResponse, error) {
	return ListPartiesResponse{}, nil
}
func (n *Node) GetParties(ctx context.Context, req GetPartiesRequest) (GetPartiesResponse, error) {
	return GetPartiesResponse{}, nil
}

// Authenticate resolves verified token claims to a Principal: the user must
// exist in the claims' identity provider and be active (403 otherwise).
func (n *Node) Authenticate(ctx context.Context, c identity.Claims) (identity.Principal, error) {
	return identity.Principal{}, nil
}
func WithPrincipal(ctx context.Context, p identity.Principal) context.Context { return ctx }
func PrincipalFrom(ctx context.Context) (identity.Principal, bool)         { return identity.Principal{}, false }
