package grpcadapter

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/metadata"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// authenticate returns ctx with the caller's Principal attached: the
// token of the "authorization" metadata verified and resolved by the
// Node, as httpadapter does for the Authorization header (with no
// Verifier: the wildcard admin).
func (a *Adapter) authenticate(ctx context.Context) (context.Context, error) {
	if a.verifier == nil {
		return ledger.WithPrincipal(ctx, identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true}), nil
	}
	token, ok := bearerToken(ctx)
	if !ok {
		return nil, apierr.Unauthenticated.New("The command is missing a (valid) JWT token")
	}
	claims, err := a.verifier.Verify(ctx, token)
	if err != nil {
		var e *apierr.Error
		if !errors.As(err, &e) {
			err = apierr.Unauthenticated.Wrap(err, "%v", err)
		}
		return nil, err
	}
	p, err := a.node.Authenticate(ctx, claims)
	if err != nil {
		return nil, err
	}
	return ledger.WithPrincipal(ctx, p), nil
}

// bearerToken returns the token of the first "authorization" metadata
// value. As in Canton's AuthServiceJWT, a value that is not
// "Bearer <token>" counts as no token.
func bearerToken(ctx context.Context) (string, bool) {
	vs := metadata.ValueFromIncomingContext(ctx, "authorization")
	if len(vs) == 0 {
		return "", false
	}
	tok, ok := strings.CutPrefix(vs[0], "Bearer ")
	tok = strings.TrimSpace(tok)
	return tok, ok && tok != ""
}
