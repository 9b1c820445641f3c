package grpcadapter

import (
	"context"
	"errors"
	"strings"
	"time"

	"google.golang.org/grpc"
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
	ctx, _, err := a.authenticateSession(ctx)
	return ctx, err
}

// session is what a call was authenticated with: the token, its claims
// and the Principal they resolved to. A stream keeps it to check it
// again while it runs (authStream).
type session struct {
	token     string
	claims    identity.Claims
	principal identity.Principal
}

// authenticateSession is authenticate that also returns the session (nil
// without a Verifier).
func (a *Adapter) authenticateSession(ctx context.Context) (context.Context, *session, error) {
	if a.verifier == nil {
		return ledger.WithPrincipal(ctx, identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true}), nil, nil
	}
	token, ok := bearerToken(ctx)
	if !ok {
		return nil, nil, apierr.Unauthenticated.New("The command is missing a (valid) JWT token")
	}
	claims, err := a.verifier.Verify(ctx, token)
	if err != nil {
		var e *apierr.Error
		if !errors.As(err, &e) {
			err = apierr.Unauthenticated.Wrap(err, "%v", err)
		}
		return nil, nil, err
	}
	p, err := a.node.Authenticate(ctx, claims)
	if err != nil {
		return nil, nil, err
	}
	return ledger.WithPrincipal(ctx, p), &session{token: token, claims: claims, principal: p}, nil
}

// Canton's codes of a stream's ongoing authorization
// (AuthorizationChecksErrors), which only streams raise.
var (
	// accessTokenExpired ends a stream whose token expired while it ran
	// (AccessTokenExpired).
	accessTokenExpired = apierr.Code{Name: "ACCESS_TOKEN_EXPIRED", Category: apierr.ContentionOnSharedResources}
	// staleStreamAuthorization ends a stream whose user's rights changed,
	// or whose user was deactivated or deleted, while it ran
	// (StaleUserManagementBasedStreamClaims).
	staleStreamAuthorization = apierr.Code{Name: "STALE_STREAM_AUTHORIZATION", Category: apierr.ContentionOnSharedResources}
)

// authStream is a server stream whose context carries the caller's
// Principal, which ends at the adapter's Shutdown, and which keeps
// authorizing the caller while it runs, as
// Canton's UserBasedOngoingAuthorization does: a message is not sent
// once the token has expired (ACCESS_TOKEN_EXPIRED), and every
// rightsCheck the user's rights are read again, the stream ending
// (STALE_STREAM_AUTHORIZATION) when they changed or the user can no
// longer authenticate. Either refusal cancels the stream's context, with
// the refusal as its cause, so that the handler stops.
type authStream struct {
	grpc.ServerStream
	ctx    context.Context
	cancel context.CancelCauseFunc
	a      *Adapter
	sess   *session // nil: no authentication (auth mode none)
	// verifiedUntil is when a token found valid past its exp claim (in
	// the verifier's leeway) is verified again: at most once a second,
	// not once a message.
	verifiedUntil time.Time
}

// newAuthStream wraps ss for a caller authenticated into ctx with sess,
// and starts the check of its rights; stop ends that check.
func (a *Adapter) newAuthStream(ss grpc.ServerStream, ctx context.Context, sess *session) (s *authStream, stop func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	s = &authStream{ServerStream: ss, ctx: ctx, cancel: cancel, a: a, sess: sess}
	// The adapter's Shutdown ends the stream, as the stop of Canton's
	// index service does.
	unhook := context.AfterFunc(a.closing, func() { cancel(serviceStopping()) })
	if sess == nil {
		return s, func() {
			unhook()
			cancel(nil)
		}
	}
	done := make(chan struct{})
	go s.watchRights(done)
	return s, func() {
		unhook()
		close(done)
		cancel(nil)
	}
}

// serviceStopping is the error that ends streams at Shutdown: Canton's
// CommonErrors.ServerIsShuttingDown, as its StreamingServiceLifecycleManagement
// ends the streams it holds when the server closes.
func serviceStopping() error {
	return apierr.ServerIsShuttingDown.New("Server is shutting down")
}

// Context returns the context with the caller's Principal.
func (s *authStream) Context() context.Context { return s.ctx }

// SendMsg sends m unless the stream was refused or its token expired.
func (s *authStream) SendMsg(m any) error {
	if err := s.refusal(); err != nil {
		return err
	}
	if err := s.checkExpiry(); err != nil {
		s.cancel(err)
		return err
	}
	return s.ServerStream.SendMsg(m)
}

// refusal returns the error that ended the stream's authorization, or
// nil (also when the client cancelled).
func (s *authStream) refusal() error {
	// The stream's context ends with its refusal: while it runs, no cause
	// is looked up (context.Cause walks the context chain) per message.
	select {
	case <-s.ctx.Done():
	default:
		return nil
	}
	var e *apierr.Error
	if c := context.Cause(s.ctx); errors.As(c, &e) {
		return c
	}
	return nil
}

// checkExpiry refuses the stream once its token has expired: past the
// exp claim the token is verified again, so that the verifier's leeway
// applies as it did when the stream began.
func (s *authStream) checkExpiry() error {
	if s.sess == nil {
		return nil
	}
	exp := s.sess.claims.ExpiresAt
	now := time.Now()
	if exp.IsZero() || now.Before(exp) || now.Before(s.verifiedUntil) {
		return nil
	}
	if _, err := s.a.verifier.Verify(s.ctx, s.sess.token); err == nil {
		s.verifiedUntil = now.Add(time.Second)
		return nil
	}
	return accessTokenExpired.New("JWT token has expired")
}

// watchRights reads the user's rights again every rightsCheck until done
// or the stream ends, and refuses the stream when they are no longer the
// ones it began with.
func (s *authStream) watchRights(done <-chan struct{}) {
	t := time.NewTicker(s.a.rightsCheck)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		p, err := s.a.node.Authenticate(s.ctx, s.sess.claims)
		if s.ctx.Err() != nil {
			return
		}
		if err != nil || !sameRights(p, s.sess.principal) {
			s.cancel(staleStreamAuthorization.New("Stale stream authorization. Retry quickly."))
			return
		}
	}
}

// sameRights reports whether p and q are the same user with the same
// rights, in any order.
func sameRights(p, q identity.Principal) bool {
	if p.UserID != q.UserID || p.IdentityProviderID != q.IdentityProviderID || len(p.Rights) != len(q.Rights) {
		return false
	}
	set := make(map[identity.Right]int, len(p.Rights))
	for _, r := range p.Rights {
		set[r]++
	}
	for _, r := range q.Rights {
		if set[r] == 0 {
			return false
		}
		set[r]--
	}
	return true
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
