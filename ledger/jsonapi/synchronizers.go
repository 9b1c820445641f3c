package jsonapi

import (
	"context"
)

// LedgerEnd serves GET /v2/state/ledger-end: {"offset": …}
// (Node.LedgerEnd).
func (a *API) LedgerEnd(ctx context.Context) (LedgerEnd, error) {
	off, err := a.Node.LedgerEnd(ctx)
	if err != nil {
		return LedgerEnd{}, err
	}
	return LedgerEnd{Offset: off}, nil
}

// ConnectedSynchronizers serves GET /v2/state/connected-synchronizers
// (Node.ConnectedSynchronizers): the synchronizers, with the
// party's permission when the request names a party. The request's
// identity provider id does not change the answer (every party the
// participant knows is hosted on every synchronizer).
func (a *API) ConnectedSynchronizers(ctx context.Context, req ConnectedSynchronizersRequest) (ConnectedSynchronizersResponse, error) {
	cs, err := a.Node.ConnectedSynchronizers(ctx, req.Party, req.ParticipantID)
	if err != nil {
		return ConnectedSynchronizersResponse{}, err
	}
	out := ConnectedSynchronizersResponse{ConnectedSynchronizers: make([]ConnectedSynchronizer, len(cs))}
	for i, c := range cs {
		out.ConnectedSynchronizers[i] = ConnectedSynchronizer{SynchronizerAlias: c.Alias, SynchronizerID: c.ID, Permission: string(c.Permission)}
	}
	return out, nil
}
