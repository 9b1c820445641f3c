package grpcadapter

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// updateService is UpdateService, on the Node's typed reads of updates
// (Node.Updates, UpdatesPage, UpdateByID,
// UpdateByOffset): transactions, reassignments and topology
// transactions, in ascending or descending order; a tailing GetUpdates
// also sends an OffsetCheckpoint when it has caught up and stayed idle
// (ledger.Options.CheckpointDelay, one second by default).
type updateService struct {
	ledgerv2.UnimplementedUpdateServiceServer
	a *Adapter
}

// updateServices lists the services of this file's reads.
func (a *Adapter) updateServices() []service {
	return []service{
		{&ledgerv2.UpdateService_ServiceDesc, &updateService{a: a}},
	}
}

// GetUpdates streams the updates of (begin_exclusive, end_inclusive] as
// the format shows them, newest first with descending_order (which needs
// end_inclusive: DESCENDING_ORDER_MISSING_END otherwise, as the JSON
// stream); without end_inclusive it follows the ledger until the client
// cancels (the stream's context ends the Node's iterator).
//
// Two goroutines share the work: one walks the Node's typed updates and
// builds their messages, the handler's marshals and sends them. At most
// updatesAhead built messages wait between the two, and Send
// blocks while the client's flow-control window is full, so a slow
// reader holds the walk back instead of filling a buffer.
func (s *updateService) GetUpdates(req *ledgerv2.GetUpdatesRequest, stream grpc.ServerStreamingServer[ledgerv2.GetUpdatesResponse]) error {
	f, verbose, err := updateFormatFromProto(req.GetUpdateFormat())
	if err != nil {
		return err
	}
	// A tailing stream sends offset checkpoints when idle, as Canton's
	// (IndexServiceImpl's checkpoint flow, for tailing streams only).
	r := ledger.OffsetRange{After: req.GetBeginExclusive(), Tail: req.EndInclusive == nil, Descending: req.GetDescendingOrder(),
		Checkpoints: req.EndInclusive == nil}
	r.Through = req.EndInclusive
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	type encoded struct {
		msg *ledgerv2.GetUpdatesResponse
		err error
	}
	out := make(chan encoded, updatesAhead)
	go func() {
		defer close(out)
		put := func(e encoded) bool {
			select {
			case out <- e:
				return true
			case <-ctx.Done():
				return false
			}
		}
		var c protoConverter
		for u, err := range s.a.node.Updates(ctx, f, r) {
			if err == nil {
				var resp *ledgerv2.GetUpdatesResponse
				if resp, err = c.updatesResponse(u, verbose); err == nil {
					if !put(encoded{msg: resp}) {
						return
					}
					continue
				}
			}
			put(encoded{err: err})
			return
		}
	}()
	defer func() {
		cancel()
		for range out { // wait for the walk to end
		}
	}()
	for e := range out {
		if e.err != nil {
			if err := stream.Context().Err(); err != nil {
				// The client cancelled: the iterator's last element.
				return err
			}
			return e.err
		}
		if err := stream.Send(e.msg); err != nil {
			return err
		}
	}
	// The walk ended: the range is read, or the client cancelled (and
	// the walk saw it before it could say so).
	return stream.Context().Err()
}

// updatesAhead is how many messages GetUpdates builds ahead of the
// sends.
const updatesAhead = 256

// updatesResponse converts an update of the stream.
func (c *protoConverter) updatesResponse(u update.Update, verbose updateVerbose) (*ledgerv2.GetUpdatesResponse, error) {
	resp := &ledgerv2.GetUpdatesResponse{}
	switch u := u.(type) {
	case *update.Transaction:
		pt, err := c.transaction(u, verbose.transactions)
		if err != nil {
			return nil, err
		}
		resp.Update = &ledgerv2.GetUpdatesResponse_Transaction{Transaction: pt}
	case *update.Reassignment:
		pr, err := c.reassignment(u, verbose.reassignments)
		if err != nil {
			return nil, err
		}
		resp.Update = &ledgerv2.GetUpdatesResponse_Reassignment{Reassignment: pr}
	case *update.TopologyTransaction:
		resp.Update = &ledgerv2.GetUpdatesResponse_TopologyTransaction{TopologyTransaction: topologyToProto(u)}
	case *update.OffsetCheckpoint:
		resp.Update = &ledgerv2.GetUpdatesResponse_OffsetCheckpoint{OffsetCheckpoint: checkpointToProto(u)}
	default:
		return nil, apierr.InternalError.New("an update of type %T", u)
	}
	return resp, nil
}

// checkpointToProto converts an offset checkpoint, of the update and
// the completion streams.
func checkpointToProto(c *update.OffsetCheckpoint) *ledgerv2.OffsetCheckpoint {
	out := &ledgerv2.OffsetCheckpoint{Offset: c.Offset, SynchronizerTimes: make([]*ledgerv2.SynchronizerTime, len(c.SynchronizerTimes))}
	for i, t := range c.SynchronizerTimes {
		out.SynchronizerTimes[i] = synchronizerTimeToProto(t.SynchronizerID, t.RecordTime)
	}
	return out
}

// GetUpdateById returns the update with that update id as the format
// shows it (UPDATE_NOT_FOUND when it is unknown or shows nothing); the
// update id is checked first (ledger.CheckUpdateID), as Canton's
// UpdateServiceRequestValidator.validateUpdateById does.
func (s *updateService) GetUpdateById(ctx context.Context, req *ledgerv2.GetUpdateByIdRequest) (*ledgerv2.GetUpdateResponse, error) {
	if err := ledger.CheckUpdateID(req.GetUpdateId()); err != nil {
		return nil, err
	}
	f, verbose, err := updateFormatFromProto(req.GetUpdateFormat())
	if err != nil {
		return nil, err
	}
	u, err := s.a.node.UpdateByID(ctx, req.GetUpdateId(), f)
	if err != nil {
		return nil, err
	}
	var c protoConverter
	return c.updateResponse(u, verbose)
}

// GetUpdateByOffset returns the update at an offset as the format shows
// it (NON_POSITIVE_OFFSET, UPDATE_NOT_FOUND).
func (s *updateService) GetUpdateByOffset(ctx context.Context, req *ledgerv2.GetUpdateByOffsetRequest) (*ledgerv2.GetUpdateResponse, error) {
	f, verbose, err := updateFormatFromProto(req.GetUpdateFormat())
	if err != nil {
		return nil, err
	}
	u, err := s.a.node.UpdateByOffset(ctx, req.GetOffset(), f)
	if err != nil {
		return nil, err
	}
	var c protoConverter
	return c.updateResponse(u, verbose)
}

// GetUpdatesPage returns one page of updates (Node.UpdatesPage: the
// JSON twin's checks, tokens and errors). The page tokens are the bytes
// whose base64 text is the JSON API's token, as Canton's JSON API writes
// the bytes; without end_offset_inclusive an ascending page always has a
// next token (to ask again for later updates) and a descending one reads
// down from the ledger end.
func (s *updateService) GetUpdatesPage(ctx context.Context, req *ledgerv2.GetUpdatesPageRequest) (*ledgerv2.GetUpdatesPageResponse, error) {
	f, verbose, err := updateFormatFromProto(req.GetUpdateFormat())
	if err != nil {
		return nil, err
	}
	r := ledger.OffsetRange{After: req.GetBeginOffsetExclusive(), Tail: req.EndOffsetInclusive == nil, Descending: req.GetDescendingOrder()}
	r.Through = req.EndOffsetInclusive
	var token []byte
	if req.PageToken != nil {
		token = req.PageToken
	}
	page, err := s.a.node.UpdatesPage(ctx, f, r, req.MaxPageSize, token)
	if err != nil {
		return nil, err
	}
	out := &ledgerv2.GetUpdatesPageResponse{LowestPageOffsetExclusive: page.Lowest, HighestPageOffsetInclusive: page.Highest,
		NextPageToken: page.NextToken, Updates: make([]*ledgerv2.GetUpdateResponse, 0, len(page.Updates))}
	var c protoConverter
	for _, u := range page.Updates {
		pu, err := c.updateResponse(u, verbose)
		if err != nil {
			return nil, err
		}
		out.Updates = append(out.Updates, pu)
	}
	return out, nil
}

// updateResponse converts an update.
func (c *protoConverter) updateResponse(u update.Update, verbose updateVerbose) (*ledgerv2.GetUpdateResponse, error) {
	switch u := u.(type) {
	case *update.Transaction:
		pt, err := c.transaction(u, verbose.transactions)
		if err != nil {
			return nil, err
		}
		return &ledgerv2.GetUpdateResponse{Update: &ledgerv2.GetUpdateResponse_Transaction{Transaction: pt}}, nil
	case *update.Reassignment:
		pr, err := c.reassignment(u, verbose.reassignments)
		if err != nil {
			return nil, err
		}
		return &ledgerv2.GetUpdateResponse{Update: &ledgerv2.GetUpdateResponse_Reassignment{Reassignment: pr}}, nil
	case *update.TopologyTransaction:
		return &ledgerv2.GetUpdateResponse{Update: &ledgerv2.GetUpdateResponse_TopologyTransaction{TopologyTransaction: topologyToProto(u)}}, nil
	}
	return nil, apierr.InternalError.New("an update of type %T", u)
}

// reassignment converts a reassignment and its events (of the update
// reads and SubmitAndWaitForReassignment).
func (c *protoConverter) reassignment(r *update.Reassignment, verbose bool) (*ledgerv2.Reassignment, error) {
	out := &ledgerv2.Reassignment{UpdateId: r.UpdateID, CommandId: r.CommandID, WorkflowId: r.WorkflowID, Offset: r.Offset,
		RecordTime: timestamp(r.RecordTime), SynchronizerId: r.SynchronizerID, Events: make([]*ledgerv2.ReassignmentEvent, 0, len(r.Events))}
	for _, e := range r.Events {
		switch e := e.(type) {
		case *update.UnassignedEvent:
			out.Events = append(out.Events, &ledgerv2.ReassignmentEvent{Event: &ledgerv2.ReassignmentEvent_Unassigned{Unassigned: unassignedToProto(e)}})
		case *update.AssignedEvent:
			ce, err := c.created(e.Created, verbose)
			if err != nil {
				return nil, err
			}
			out.Events = append(out.Events, &ledgerv2.ReassignmentEvent{Event: &ledgerv2.ReassignmentEvent_Assigned{Assigned: &ledgerv2.AssignedEvent{
				Source: e.Source, Target: e.Target, ReassignmentId: e.ReassignmentID, Submitter: e.Submitter,
				ReassignmentCounter: uint64(e.ReassignmentCounter), CreatedEvent: ce}}})
		default:
			return nil, apierr.InternalError.New("reassignment %s: event of type %T", r.UpdateID, e)
		}
	}
	return out, nil
}

// topologyToProto converts a topology transaction.
func topologyToProto(t *update.TopologyTransaction) *ledgerv2.TopologyTransaction {
	out := &ledgerv2.TopologyTransaction{UpdateId: t.UpdateID, Offset: t.Offset, SynchronizerId: t.SynchronizerID,
		RecordTime: timestamp(t.RecordTime), Events: make([]*ledgerv2.TopologyEvent, 0, len(t.Events))}
	for _, e := range t.Events {
		perm := ledgerv2.ParticipantPermission(ledgerv2.ParticipantPermission_value[string(e.Permission)])
		var pe *ledgerv2.TopologyEvent
		switch e.Change {
		case update.AuthorizationAdded:
			pe = &ledgerv2.TopologyEvent{Event: &ledgerv2.TopologyEvent_ParticipantAuthorizationAdded{ParticipantAuthorizationAdded: &ledgerv2.ParticipantAuthorizationAdded{
				PartyId: e.PartyID, ParticipantId: e.ParticipantID, ParticipantPermission: perm}}}
		case update.AuthorizationChanged:
			pe = &ledgerv2.TopologyEvent{Event: &ledgerv2.TopologyEvent_ParticipantAuthorizationChanged{ParticipantAuthorizationChanged: &ledgerv2.ParticipantAuthorizationChanged{
				PartyId: e.PartyID, ParticipantId: e.ParticipantID, ParticipantPermission: perm}}}
		default:
			pe = &ledgerv2.TopologyEvent{Event: &ledgerv2.TopologyEvent_ParticipantAuthorizationRevoked{ParticipantAuthorizationRevoked: &ledgerv2.ParticipantAuthorizationRevoked{
				PartyId: e.PartyID, ParticipantId: e.ParticipantID}}}
		}
		out.Events = append(out.Events, pe)
	}
	return out
}

// timestamp is t as a Timestamp, nil for the zero time (absent).
func timestamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}
