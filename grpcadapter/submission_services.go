package grpcadapter

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/interactive"
)

// submissionServices lists the services of command submission: command
// submission, command (submit and wait), command completion and
// interactive submission.
func (a *Adapter) submissionServices() []service {
	return []service{
		{&ledgerv2.CommandSubmissionService_ServiceDesc, &commandSubmissionService{a: a}},
		{&ledgerv2.CommandService_ServiceDesc, &commandService{a: a}},
		{&ledgerv2.CommandCompletionService_ServiceDesc, &completionService{a: a}},
		{&interactive.InteractiveSubmissionService_ServiceDesc, &interactiveService{a: a}},
	}
}

// registerServices registers svcs on s: each
// RPC wrapped (authentication, Canton's statuses), each service SERVING
// on hs.
func (a *Adapter) registerServices(s *grpc.Server, hs *health.Server, svcs []service) {
	for _, svc := range svcs {
		s.RegisterService(a.wrap(svc.desc), svc.impl)
		hs.SetServingStatus(svc.desc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	}
}
