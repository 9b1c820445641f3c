package grpcadapter

import (
	"context"
	"errors"

	"google.golang.org/grpc"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/grpcadapter/internal/pbvalue"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// GetActiveContracts streams the contracts active (or in transit) at
// active_at_offset that the event format shows, one
// GetActiveContractsResponse per contract as Canton sends them
// (ApiStateService): the created event with the synchronizer the
// contract is on and its reassignment counter (ActiveContract), or with
// its unassignment for a contract in transit between synchronizers
// (IncompleteUnassigned), the workflow id of the transaction that created
// it, and a stream_continuation_token that resumes the stream after the
// contract (a request with that token, the same offset and format). It
// reads Node.ActiveContractEventsPage page by page (the JSON twin's
// checks and errors; INVALID_CONTINUATION_TOKEN for a token of another
// request), one contract sent before the next (Send blocks under flow
// control); the client's cancellation ends the walk.
func (s *stateService) GetActiveContracts(req *ledgerv2.GetActiveContractsRequest, stream grpc.ServerStreamingServer[ledgerv2.GetActiveContractsResponse]) error {
	f, verbose, err := readFormatFromProto(req.GetEventFormat(), "event_format")
	if err != nil {
		return err
	}
	ctx := stream.Context()
	at := req.GetActiveAtOffset()
	size := int32(acsStreamPage)
	p := ledger.PageRequest{At: &at, Size: &size}
	if req.StreamContinuationToken != nil {
		p.Token = req.StreamContinuationToken
	}
	var c protoConverter
	for first := true; ; first = false {
		page, err := s.a.node.ActiveContractEventsPage(ctx, f, p)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if first && p.Token != nil && (errors.Is(err, apierr.InvalidACSPageToken) || errors.Is(err, ledger.ErrMalformedPageToken)) {
				// The client's token, which the stream calls a
				// continuation token and Canton refuses with its own code.
				return invalidContinuationToken.New("The submitted command contains an invalid continuation token. " +
					"Tokens used in ACS requests must be taken from a valid GetActiveContractsResponse and used with the same " +
					"EventFormat settings, with the same Canton participant running the same Canton version.")
			}
			return err
		}
		if at == 0 {
			// Canton: "If zero, the empty set will be returned" — after
			// the checks of the format, which the page made.
			return nil
		}
		for i := range page.Contracts {
			r, err := c.activeContract(&page.Contracts[i], verbose)
			if err != nil {
				return err
			}
			r.StreamContinuationToken = page.Contracts[i].Token
			if err := stream.Send(r); err != nil {
				return err
			}
		}
		if page.NextToken == nil {
			return nil
		}
		p.Token = page.NextToken
	}
}

// invalidContinuationToken is Canton's INVALID_CONTINUATION_TOKEN
// (RequestValidationErrors.InvalidContinuationToken): a
// stream_continuation_token that is not one of this request's stream.
var invalidContinuationToken = apierr.Code{Name: "INVALID_CONTINUATION_TOKEN", Category: apierr.InvalidIndependentOfSystemState}

// acsStreamPage is the page size GetActiveContracts reads with.
const acsStreamPage = 1000

// activeContract converts a contract of the ACS.
func (c *protoConverter) activeContract(pc *ledger.PagedContract, verbose bool) (*ledgerv2.GetActiveContractsResponse, error) {
	ce, err := c.created(pc.Created, verbose)
	if err != nil {
		return nil, err
	}
	r := &ledgerv2.GetActiveContractsResponse{WorkflowId: pc.WorkflowID}
	if u := pc.Unassigned; u != nil {
		r.ContractEntry = &ledgerv2.GetActiveContractsResponse_IncompleteUnassigned{IncompleteUnassigned: &ledgerv2.IncompleteUnassigned{
			CreatedEvent: ce, UnassignedEvent: unassignedToProto(u)}}
	} else {
		r.ContractEntry = &ledgerv2.GetActiveContractsResponse_ActiveContract{ActiveContract: &ledgerv2.ActiveContract{
			CreatedEvent: ce, SynchronizerId: pc.SynchronizerID, ReassignmentCounter: uint64(pc.ReassignmentCounter)}}
	}
	return r, nil
}

// GetActiveContractsPage answers one page of the contracts active (or in
// transit) at active_at_offset (the ledger end when unset) that the event
// format shows, as Canton's ApiStateService: Node.ActiveContractEventsPage,
// whose checks and errors are the JSON twin's (INVALID_ACS_PAGE_TOKEN for
// a token of another request, INVALID_ARGUMENT for a page size out of
// range). The page tokens are the bytes whose base64 text is the JSON
// API's token, as Canton's JSON API writes the bytes. Each entry's
// stream_continuation_token is empty, as in Canton.
func (s *stateService) GetActiveContractsPage(ctx context.Context, req *ledgerv2.GetActiveContractsPageRequest) (*ledgerv2.GetActiveContractsPageResponse, error) {
	f, verbose, err := readFormatFromProto(req.GetEventFormat(), "event_format")
	if err != nil {
		return nil, err
	}
	page, err := s.a.node.ActiveContractEventsPage(ctx, f, ledger.PageRequest{At: req.ActiveAtOffset, Size: req.MaxPageSize, Token: req.PageToken})
	if err != nil {
		return nil, err
	}
	out := &ledgerv2.GetActiveContractsPageResponse{ActiveAtOffset: page.At, NextPageToken: page.NextToken,
		ActiveContracts: make([]*ledgerv2.GetActiveContractsResponse, 0, len(page.Contracts))}
	var c protoConverter
	for i := range page.Contracts {
		r, err := c.activeContract(&page.Contracts[i], verbose)
		if err != nil {
			return nil, err
		}
		out.ActiveContracts = append(out.ActiveContracts, r)
	}
	return out, nil
}

func unassignedToProto(u *update.UnassignedEvent) *ledgerv2.UnassignedEvent {
	return &ledgerv2.UnassignedEvent{
		ReassignmentId:        u.ReassignmentID,
		ContractId:            string(u.ContractID),
		TemplateId:            pbvalue.IdentifierToProto(u.TemplateID),
		Source:                u.Source,
		Target:                u.Target,
		Submitter:             u.Submitter,
		ReassignmentCounter:   uint64(u.ReassignmentCounter),
		AssignmentExclusivity: timestamp(u.AssignmentExclusivity),
		WitnessParties:        u.WitnessParties,
		PackageName:           u.PackageName,
		Offset:                u.Offset,
		NodeId:                u.NodeID,
	}
}
