package grpcadapter

import (
	"context"

	"google.golang.org/grpc"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/grpcadapter/internal/pbvalue"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// GetActiveContracts streams the contracts active at active_at_offset
// that the event format shows, one GetActiveContractsResponse per
// contract as Canton sends them (ApiStateService): the created event,
// the synchronizer the contract is on, the workflow id of the
// transaction that created it (read with the typed walk: the typed
// created event does not carry it; empty for a contract whose creating
// transaction was pruned — a gap, Canton keeps it). It walks Node.ActiveContractEvents, one
// contract sent before the next is read (Send blocks under flow
// control); the client's cancellation ends the walk.
//
// Not served, and why: stream_continuation_token (the walk has no
// tokens); nodes connected to more than one synchronizer (the typed
// walk does not say which synchronizer a reassigned contract is on, nor
// its reassignment counter); contracts in transit between synchronizers
// (IncompleteUnassigned/IncompleteAssigned) are not part of the walk —
// on one synchronizer there are none.
func (s *stateService) GetActiveContracts(req *ledgerv2.GetActiveContractsRequest, stream grpc.ServerStreamingServer[ledgerv2.GetActiveContractsResponse]) error {
	f, verbose, err := readFormatFromProto(req.GetEventFormat(), "event_format")
	if err != nil {
		return err
	}
	if req.StreamContinuationToken != nil {
		return notServed("GetActiveContracts with a stream_continuation_token", "the Node's typed walk has no continuation tokens")
	}
	syncs := s.a.node.Synchronizers()
	if len(syncs) > 1 {
		return notServed("GetActiveContracts on a node with several synchronizers", "the Node's typed walk does not say which synchronizer a contract is on")
	}
	ctx := stream.Context()
	at := req.GetActiveAtOffset()
	if at == 0 {
		// Canton: "If zero, the empty set will be returned" — after the
		// checks of the format, which the walk's first page makes.
		for _, err := range s.a.node.ActiveContractEvents(ctx, f, 0) {
			return err
		}
		return nil
	}
	pruned, _, err := s.a.node.LatestPrunedOffsets(ctx)
	if err != nil {
		return err
	}
	// One synchronizer: every contract is on it, never reassigned.
	sync := syncs[0]
	origins := map[int64]string{}
	for c, err := range s.a.node.ActiveContractEvents(ctx, f, at) {
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		var workflow string
		if c.Offset > pruned {
			if workflow, err = s.workflow(ctx, f, c.Offset, origins); err != nil {
				return err
			}
		}
		pc, err := createdToProto(c, verbose)
		if err != nil {
			return err
		}
		if err := stream.Send(&ledgerv2.GetActiveContractsResponse{
			WorkflowId: workflow,
			ContractEntry: &ledgerv2.GetActiveContractsResponse_ActiveContract{ActiveContract: &ledgerv2.ActiveContract{
				CreatedEvent: pc, SynchronizerId: sync}},
		}); err != nil {
			return err
		}
	}
	return nil
}

// workflow returns the workflow id of the transaction that created a
// contract at offset off, read once per offset: the one transaction of
// the range (off-1, off] as the reader sees it (it sees the create, so
// it sees that transaction).
func (s *stateService) workflow(ctx context.Context, f ledger.ReadFormat, off int64, cache map[int64]string) (string, error) {
	if w, ok := cache[off]; ok {
		return w, nil
	}
	f.Shape = ledger.ACSDelta
	f.Blobs, f.InterfaceViews = false, false
	for t, err := range s.a.node.Transactions(ctx, f, ledger.OffsetRange{After: off - 1, Through: off}) {
		if err != nil {
			return "", err
		}
		if len(cache) >= 4096 {
			clear(cache) // keep the cache of a long walk small
		}
		cache[off] = t.WorkflowID
		return t.WorkflowID, nil
	}
	// The reader sees an active contract as a stakeholder, so it sees its
	// create in the transaction's ACS delta.
	return "", apierr.InternalError.New("the transaction that created an active contract at offset %d is not visible", off)
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
	for _, c := range page.Contracts {
		pc, err := createdToProto(c.Created, verbose)
		if err != nil {
			return nil, err
		}
		r := &ledgerv2.GetActiveContractsResponse{WorkflowId: c.WorkflowID}
		if u := c.Unassigned; u != nil {
			r.ContractEntry = &ledgerv2.GetActiveContractsResponse_IncompleteUnassigned{IncompleteUnassigned: &ledgerv2.IncompleteUnassigned{
				CreatedEvent: pc, UnassignedEvent: unassignedToProto(u)}}
		} else {
			r.ContractEntry = &ledgerv2.GetActiveContractsResponse_ActiveContract{ActiveContract: &ledgerv2.ActiveContract{
				CreatedEvent: pc, SynchronizerId: c.SynchronizerID, ReassignmentCounter: uint64(c.ReassignmentCounter)}}
		}
		out.ActiveContracts = append(out.ActiveContracts, r)
	}
	return out, nil
}

func unassignedToProto(u *ledger.UnassignedEvent) *ledgerv2.UnassignedEvent {
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
