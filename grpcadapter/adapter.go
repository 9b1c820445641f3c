package grpcadapter

import (
	"context"
	"log/slog"
	"runtime/debug"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// DefaultMaxInboundMessageSize is the largest request message accepted
// when Options.MaxInboundMessageSize is zero: 10 MiB, Canton's
// ledger-api max-inbound-message-size default.
const DefaultMaxInboundMessageSize = 10 << 20

// Options configures the adapter. The zero value is usable: no
// authentication, Canton's message size limit and slog.Default().
type Options struct {
	// Verifier checks access tokens that do not come from one of the
	// node's identity providers (those are verified with the provider's
	// JWKS, see ledger.Node.TokenVerifier). When nil the adapter runs in
	// auth mode "none": every call acts as a participant admin, and New
	// logs a warning.
	Verifier identity.Verifier
	// Logger receives the adapter's logs, among them the full details of
	// every redacted error. Nil means slog.Default().
	Logger *slog.Logger
	// MaxInboundMessageSize limits request messages (ServerOptions); a
	// larger one is refused by gRPC with RESOURCE_EXHAUSTED. Zero or
	// negative means DefaultMaxInboundMessageSize.
	MaxInboundMessageSize int
	// VerboseErrors sends security-sensitive errors to the client as they
	// are instead of Canton's redacted status. For development only.
	VerboseErrors bool
	// UserRightsCheckInterval is how often a stream reads its user's
	// rights again, ending with STALE_STREAM_AUTHORIZATION when they
	// changed (Canton's user-management
	// cache-expiry-after-write-in-seconds). Zero or negative means
	// DefaultUserRightsCheckInterval.
	UserRightsCheckInterval time.Duration
	// PermitKeepAliveTime is the shortest interval between a client's
	// keep-alive pings that the server tolerates (ServerOptions); a client
	// pinging more often gets a GOAWAY "too_many_pings". Zero means
	// DefaultPermitKeepAliveTime.
	PermitKeepAliveTime time.Duration
}

// Canton's keep-alive defaults for the Ledger API server
// (LedgerApiKeepAliveServerConfig): the server pings a connection idle
// for KeepAliveTime and drops it when no answer comes within
// KeepAliveTimeout; clients may ping every DefaultPermitKeepAliveTime
// (grpc-go's own default is 5 minutes), during calls only.
const (
	KeepAliveTime              = 10 * time.Minute
	KeepAliveTimeout           = 20 * time.Second
	DefaultPermitKeepAliveTime = 10 * time.Second
)

// DefaultUserRightsCheckInterval is Options.UserRightsCheckInterval when
// unset: Canton's default of 5 seconds.
const DefaultUserRightsCheckInterval = 5 * time.Second

// Adapter holds what every service needs. Build it with New.
type Adapter struct {
	node        *ledger.Node
	verifier    identity.Verifier
	log         *slog.Logger
	verbose     bool
	maxRecv     int
	permitPings time.Duration
	rightsCheck time.Duration
	// closing is cancelled by Shutdown; open streams end with it.
	closing  context.Context
	shutdown context.CancelFunc
}

// New returns the adapter serving node.
func New(node *ledger.Node, opts Options) *Adapter {
	a := &Adapter{node: node, verifier: opts.Verifier, log: opts.Logger, verbose: opts.VerboseErrors, maxRecv: opts.MaxInboundMessageSize}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.maxRecv <= 0 {
		a.maxRecv = DefaultMaxInboundMessageSize
	}
	if a.permitPings = opts.PermitKeepAliveTime; a.permitPings <= 0 {
		a.permitPings = DefaultPermitKeepAliveTime
	}
	if a.rightsCheck = opts.UserRightsCheckInterval; a.rightsCheck <= 0 {
		a.rightsCheck = DefaultUserRightsCheckInterval
	}
	a.closing, a.shutdown = context.WithCancel(context.Background())
	if a.verifier != nil {
		a.verifier = node.TokenVerifier(a.verifier)
	} else {
		a.log.Warn("grpcadapter: no token verifier configured (auth mode none): every call acts as a participant admin")
	}
	return a
}

// Shutdown ends every open stream, and every stream called later, with
// SERVER_IS_SHUTTING_DOWN (UNAVAILABLE), as Canton's streaming services
// end theirs when the server closes. Call it before grpc.Server.GracefulStop, which
// otherwise waits for streams that follow the ledger, and never end by
// themselves. Unary calls are left to finish.
func (a *Adapter) Shutdown() { a.shutdown() }

// ServerOptions returns the options a server for the adapter should be
// built with: the inbound message size limit and Canton's keep-alive
// parameters and policy.
func (a *Adapter) ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(a.maxRecv),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: KeepAliveTime, Timeout: KeepAliveTimeout}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: a.permitPings, PermitWithoutStream: false}),
	}
}

// NewServer returns a gRPC server with ServerOptions (then extra) and
// every service registered.
func (a *Adapter) NewServer(extra ...grpc.ServerOption) *grpc.Server {
	s := grpc.NewServer(append(a.ServerOptions(), extra...)...)
	a.Register(s)
	return s
}

// Register registers the Ledger API services on s, each RPC behind the
// adapter's authentication and error conversion, with the health service
// (every registered service SERVING) and server reflection.
func (a *Adapter) Register(s *grpc.Server) {
	hs := health.NewServer()
	a.registerServices(s, hs, a.services())
	a.registerServices(s, hs, a.submissionServices())
	a.registerServices(s, hs, a.updateServices())
	healthpb.RegisterHealthServer(s, hs)
	reflection.Register(s)
}

// service is one Ledger API service: its generated description and the
// implementation.
type service struct {
	desc *grpc.ServiceDesc
	impl any
}

// wrap returns a copy of desc whose handlers authenticate the caller
// before the method runs and turn its errors into Canton's statuses.
func (a *Adapter) wrap(desc *grpc.ServiceDesc) *grpc.ServiceDesc {
	d := *desc
	d.Methods = make([]grpc.MethodDesc, len(desc.Methods))
	for i, m := range desc.Methods {
		h := m.Handler
		d.Methods[i] = grpc.MethodDesc{MethodName: m.MethodName, Handler: func(srv any, ctx context.Context, dec func(any) error, next grpc.UnaryServerInterceptor) (resp any, err error) {
			defer a.recoverTo(ctx, &err)
			actx, err := a.authenticate(ctx)
			if err != nil {
				return nil, a.status(ctx, err)
			}
			resp, err = h(srv, actx, dec, next)
			if err != nil {
				return nil, a.status(ctx, err)
			}
			return resp, nil
		}}
	}
	d.Streams = make([]grpc.StreamDesc, len(desc.Streams))
	for i, st := range desc.Streams {
		h := st.Handler
		st.Handler = func(srv any, ss grpc.ServerStream) (err error) {
			defer a.recoverTo(ss.Context(), &err)
			actx, sess, err := a.authenticateSession(ss.Context())
			if err != nil {
				return a.status(ss.Context(), err)
			}
			as, stop := a.newAuthStream(ss, actx, sess)
			defer stop()
			err = h(srv, as)
			if refused := as.refusal(); refused != nil {
				// The handler saw its context end: the reason is the
				// ongoing authorization's, not a cancellation.
				err = refused
			}
			if err != nil {
				return a.status(ss.Context(), err)
			}
			return nil
		}
		d.Streams[i] = st
	}
	return &d
}

// recoverTo turns a panic of a handler into the INTERNAL status of an
// internal error (logged with its stack), instead of the end of the
// process: grpc-go does not recover handler panics.
func (a *Adapter) recoverTo(ctx context.Context, err *error) {
	r := recover()
	if r == nil {
		return
	}
	a.log.Error("grpcadapter: handler panic", "method", methodFrom(ctx), "panic", r, "stack", string(debug.Stack()))
	*err = a.status(ctx, apierr.InternalError.New("panic: %v", r))
}
