// Package grpcadapter serves a *ledger.Node as Canton's gRPC Ledger API v2
// (release line 3.5), beside httpadapter's JSON API on the same Node.
//
//	a := grpcadapter.New(node, grpcadapter.Options{Verifier: v})
//	srv := grpc.NewServer(a.ServerOptions()...)
//	a.Register(srv)
//	srv.Serve(lis)
//
// Every Ledger API RPC authenticates its caller from the bearer token of
// the "authorization" metadata (as httpadapter does from the HTTP header),
// calls one Node method with the Node's typed request, and answers with the
// generated messages of package pb (no JSON in between). Errors are sent as
// Canton sends them (ErrorCode.asGrpcStatus): a google.rpc.Status with the
// category's gRPC code, the message "CODE(category,correlation): cause",
// and the details ErrorInfo (reason: the error code id; metadata: the
// context, "category", "definite_answer", "tid"), RetryInfo, RequestInfo
// (the correlation id, else the trace id) and one ResourceInfo per
// resource; security-sensitive categories are redacted.
//
// A server stream keeps authorizing its caller while it runs, as Canton's
// UserBasedOngoingAuthorization does: it ends with ACCESS_TOKEN_EXPIRED
// when it would send a message after its token expired, and with
// STALE_STREAM_AUTHORIZATION when its user's rights change (read again
// every Options.UserRightsCheckInterval).
//
// Register also adds the standard gRPC health service
// (grpc.health.v1.Health) and server reflection (v1 and v1alpha), as
// Canton's participant does; neither needs a token.
package grpcadapter
