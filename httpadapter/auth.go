package httpadapter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// authMode says what a route needs from the caller.
type authMode int

const (
	// authRequired: a token is verified and resolved to a Principal, which
	// is attached to the context (with no Verifier: the wildcard admin).
	authRequired authMode = iota
	// authOptional: a token header is parsed when present (a malformed one
	// is a 400) but neither required nor verified (/livez, /readyz).
	authOptional
)

// wsTokenPrefix marks the token entry of a Sec-WebSocket-Protocol list.
const wsTokenPrefix = "jwt.token."

// authenticate returns the request context for the handler, with the
// caller's Principal attached on authRequired routes. e, when not nil, is
// the request's access-log entry, whose allocation holds the context of
// auth mode none's principal (withAdmin).
func (a *adapter) authenticate(r *http.Request, mode authMode, e *accessEntry) (context.Context, error) {
	ctx := r.Context()
	token, present, err := tokenFrom(r.Header)
	if err != nil {
		return nil, err
	}
	if mode == authOptional {
		return ctx, nil
	}
	if a.verifier == nil {
		return withAdmin(ctx, e), nil
	}
	if !present {
		return nil, apierr.Unauthenticated.New("The command is missing a (valid) JWT token")
	}
	claims, err := a.verifier.Verify(ctx, token)
	if err != nil {
		var e *apierr.Error
		if !errors.As(err, &e) {
			// The Verifier contract is an *apierr.Error; a failing verifier
			// still means the caller is not authenticated.
			err = apierr.Unauthenticated.Wrap(err, "%v", err)
		}
		return nil, err
	}
	p, err := a.node.Authenticate(ctx, claims)
	if err != nil {
		return nil, &tokenResolutionError{err}
	}
	return ledger.WithPrincipal(ctx, p), nil
}

// adminPrincipal is the principal of every request in auth mode none.
var adminPrincipal = identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true}

// adminCtx is adminPrincipal attached to the background context, made
// once: a principalCtx answers its value.
var adminCtx = ledger.WithPrincipal(context.Background(), adminPrincipal)

// withAdmin returns ledger.WithPrincipal(ctx, adminPrincipal): a
// principalCtx in e's allocation (once) when there is an entry.
func withAdmin(ctx context.Context, e *accessEntry) context.Context {
	if e == nil || e.pcTaken {
		return ledger.WithPrincipal(ctx, adminPrincipal)
	}
	e.pcTaken = true
	e.pc = principalCtx{Context: ctx, p: adminCtx}
	return &e.pc
}

// principalCtx is context.WithValue(parent, key, value) for the key and
// value of p, a context.WithValue(context.Background(), key, value): p
// answers its key (and the background context nothing else), the parent
// every other key, as WithValue's context answers them.
type principalCtx struct {
	context.Context
	p context.Context
}

// Value returns p's value for key, else the parent's.
func (c *principalCtx) Value(key any) any {
	if v := c.p.Value(key); v != nil {
		return v
	}
	return c.Context.Value(key)
}

// String names the context as context.WithValue's does, for debugging.
func (c *principalCtx) String() string {
	return fmt.Sprint(c.Context) + strings.TrimPrefix(fmt.Sprint(c.p), "context.Background")
}

// tokenFrom extracts the access token: from "Authorization: Bearer <jwt>",
// else from the first "jwt.token.<jwt>" entry of the comma-separated
// Sec-WebSocket-Protocol list ("daml.ws.auth" and other entries are
// ignored). The bearer header wins when both are present. An Authorization
// header that is not a non-empty Bearer token is a decode failure (400).
func tokenFrom(h http.Header) (token string, present bool, err error) {
	// The keys as net/http stores them (canonical): Values would
	// canonicalize them again, and allocate "Sec-Websocket-Protocol" for
	// every request.
	if vs := h["Authorization"]; len(vs) > 0 {
		scheme, tok, _ := strings.Cut(strings.TrimSpace(vs[0]), " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "", false, invalidHeader("Authorization", "expected the Bearer authentication scheme")
		}
		if tok = strings.TrimSpace(tok); tok == "" {
			return "", false, invalidHeader("Authorization", "the Bearer token is empty")
		}
		return tok, true, nil
	}
	for _, v := range h["Sec-Websocket-Protocol"] {
		for _, p := range strings.Split(v, ",") {
			if t, ok := strings.CutPrefix(strings.TrimSpace(p), wsTokenPrefix); ok {
				return t, t != "", nil
			}
		}
	}
	return "", false, nil
}
