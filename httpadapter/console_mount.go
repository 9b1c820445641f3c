package httpadapter

import (
	"context"
	"net/http"

	"github.com/julienschmidt/httprouter"
	"github.com/ledgernode/ledgernode/httpadapter/console"
	"github.com/ledgernode/ledgernode/identity"
)

// mountConsole serves the browser console (package console) under
// /console when Options.Console is set. Its requests are authenticated
// as the API's are: a token is verified with the adapter's verifier and
// resolved to a Principal by the node; in auth mode none (no verifier)
// the console acts as the participant admin.
func (a *adapter) mountConsole(r *httprouter.Router, opts Options) {
	if !opts.Console {
		return
	}
	var auth func(ctx context.Context, token string) (identity.Principal, error)
	if a.verifier != nil {
		auth = func(ctx context.Context, token string) (identity.Principal, error) {
			claims, err := a.verifier.Verify(ctx, token)
			if err != nil {
				return identity.Principal{}, err
			}
			return a.node.Authenticate(ctx, claims)
		}
	} else {
		a.log.Warn("httpadapter: the console runs in auth mode none: every browser acts as a participant admin")
	}
	c := console.New(a.node, console.Options{Authenticate: auth, Token: opts.ConsoleToken, Logger: a.log})
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		r.Handler(m, console.Prefix, c)
		r.Handler(m, console.Prefix+"/*path", c)
	}
}
