package ledger

import (
	"context"
	"encoding/base64"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Contract reads: a page of the active contracts, one contract by id,
// and a contract's create and archive events (Canton's StateService,
// ContractService and EventQueryService). Their checks, rights, errors,
// tokens and visibility decisions are activeContractsPage, contractFor,
// contractEventsFor and the ACS walk acsVisitAt; they render the selected
// contracts as typed events (render.go).

// PageRequest asks for one page of the active contracts
// (ActiveContractEventsPage). Its optional fields are pointers, as the
// Ledger API's optional fields: an explicit 0 is not the same as none.
type PageRequest struct {
	// At is the offset the contracts are active at; nil reads at the
	// ledger end (ContractPage.At says which offset that was). At 0 the
	// page is empty. A page token keeps the offset of the first page.
	At *int64
	// Size is the most contracts on the page, 1 to MaxACSPageSize; nil
	// means DefaultACSPageSize.
	Size *int32
	// Token is the NextToken of the previous page (same format and
	// offset); nil asks for the first page.
	Token []byte
}

// ContractPage is one page of the active contracts.
type ContractPage struct {
	// Contracts are the page's contracts in contract-id order.
	Contracts []PagedContract
	// At is the offset the contracts are active at.
	At int64
	// NextToken asks for the next page (PageRequest.Token); nil on the
	// last page. The JSON API writes it as base64 text, as Canton's does
	// with the gRPC bytes.
	NextToken []byte
}

// PagedContract is a contract of a page of active contracts: one active
// on a synchronizer (Unassigned nil), or one in transit between two,
// unassigned and not yet assigned (Unassigned set).
type PagedContract struct {
	// Created is the contract's created event.
	Created *update.CreatedEvent
	// WorkflowID is the workflow id of the transaction that created the
	// contract.
	WorkflowID string
	// SynchronizerID is the synchronizer the contract is on (for a
	// contract in transit, the one it was unassigned from), and
	// ReassignmentCounter the number of times it was reassigned.
	SynchronizerID      string
	ReassignmentCounter int64
	// Unassigned is the unassignment of a contract in transit.
	Unassigned *update.UnassignedEvent
	// Token asks for the contracts after this one (PageRequest.Token,
	// Canton's stream_continuation_token).
	Token []byte
}

// ActiveContractEventsPage returns one page of the contracts active (or
// in transit) at an offset that the format shows, in contract-id order,
// with typed created events (Canton's StateService.GetActiveContracts,
// paged). The format's Shape is not used. Refusals: PERMISSION_DENIED
// without the right to read as the format's parties, INVALID_ARGUMENT for
// a size out of range, INVALID_ACS_PAGE_TOKEN for a token that is not
// one of this format's (or of another offset), INVALID_FIELD for one that
// is no token (ErrMalformedPageToken), NEGATIVE_OFFSET,
// OFFSET_AFTER_LEDGER_END and the pruning errors for the offset.
func (n *Node) ActiveContractEventsPage(ctx context.Context, f ReadFormat, p PageRequest) (*ContractPage, error) {
	return n.contractPage(ctx, f, p, n.typedRendererFor(ctx))
}

func (n *Node) contractPage(ctx context.Context, f ReadFormat, p PageRequest, tr *typedRenderer) (*ContractPage, error) {
	req := acsQuery{Format: n.typedEventSpec(f), Size: p.Size, at: p.At}
	if p.Token != nil {
		req.token = base64.StdEncoding.EncodeToString(p.Token)
	}
	var contracts []PagedContract
	var failed error
	resp, err := n.activeContractsPage(ctx, req, func(ef *eventFilter) (acsVisit, func() int) {
		return func(c *contractRecord, w []string, m filterMatch) bool {
			pc, err := tr.pagedContract(c, w, ef, m)
			if err != nil {
				failed = err
				return false
			}
			contracts = append(contracts, pc)
			return true
		}, func() int { return len(contracts) }
	})
	if err == nil && failed != nil {
		err = decodeErr(failed)
	}
	if err != nil {
		return nil, err
	}
	out := &ContractPage{At: resp.at, Contracts: contracts}
	if len(out.Contracts) > 0 {
		// The tokens share one array, each capped at its end.
		tok := acsPageToken{At: resp.at, Request: resp.request}
		buf := make([]byte, 0, len(out.Contracts)*(len(tok.appendJSON(nil))+len(out.Contracts[0].Created.ContractID)+8))
		for i := range out.Contracts {
			tok.After = string(out.Contracts[i].Created.ContractID)
			start := len(buf)
			buf = tok.appendJSON(buf)
			out.Contracts[i].Token = buf[start:len(buf):len(buf)]
		}
	}
	if resp.next != nil {
		if out.NextToken, err = base64.StdEncoding.DecodeString(*resp.next); err != nil {
			return nil, apierr.InternalError.Wrap(err, "decoding a page token")
		}
	}
	return out, nil
}

// pagedContract renders a contract of the ACS for its witnesses.
func (r *typedRenderer) pagedContract(c *contractRecord, w []string, ef *eventFilter, m filterMatch) (PagedContract, error) {
	out := PagedContract{WorkflowID: c.WorkflowID, SynchronizerID: c.SynchronizerID, ReassignmentCounter: c.Counter}
	var err error
	if out.Created, err = r.created(c.CreatedOffset, c.SynchronizerID, &c.Create, w, ef, m, true); err != nil {
		return out, err
	}
	if c.State == contractUnassigned {
		out.Unassigned = &update.UnassignedEvent{Offset: c.UnassignedOffset, ReassignmentID: c.ReassignmentID, ContractID: out.Created.ContractID,
			TemplateID: out.Created.TemplateID, PackageName: c.Create.PackageName, Source: c.SynchronizerID, Target: c.Target,
			Submitter: c.UnassignedBy, ReassignmentCounter: c.Counter, WitnessParties: w}
	}
	return out, nil
}

// Contract returns the created event of a contract this participant
// stores, active or archived, as the querying parties see it
// (Canton's ContractService.GetContract): its witnesses are the parties
// that are stakeholders (every stakeholder when parties is empty); its
// offset and node id are 0, it has no interface views, its blob is set.
// Refusals, in Canton's order: PERMISSION_DENIED without the right to
// read as each party (as any party when parties is empty), MISSING_FIELD
// for an empty id, INVALID_FIELD for one that is no contract id,
// CONTRACT_PAYLOAD_NOT_FOUND when the contract is unknown or no party is
// a stakeholder.
func (n *Node) Contract(ctx context.Context, cid value.ContractID, parties []string) (*update.CreatedEvent, error) {
	c, w, err := n.contractFor(ctx, string(cid), parties)
	if err != nil {
		return nil, err
	}
	ev, err := n.typedRendererFor(ctx).created(0, "", &c.Create, w, &eventFilter{pk: n}, filterMatch{ok: true, blob: true}, false)
	if err != nil {
		return nil, decodeErr(err)
	}
	ev.NodeID = 0
	return ev, nil
}

// ContractEvents are a contract's create and archive events, each with
// the synchronizer that sequenced it.
type ContractEvents struct {
	Created               *update.CreatedEvent
	CreatedSynchronizerID string
	// Archived is nil while the contract is active.
	Archived               *update.ArchivedEvent
	ArchivedSynchronizerID string
}

// ContractEvents returns a contract's create event and, once archived,
// its archive event, as the format shows them in the ACS-delta shape
// (Canton's EventQueryService.GetEventsByContractId;
// the format's Shape is not used). Refusals, in Canton's order:
// PERMISSION_DENIED without the right to read as the format's parties,
// MISSING_FIELD or INVALID_FIELD for a missing or malformed contract id,
// the format's errors (no party, unknown templates),
// CONTRACT_EVENTS_NOT_FOUND when the contract is unknown (or pruned) or
// the format shows none of its events.
func (n *Node) ContractEvents(ctx context.Context, cid value.ContractID, f ReadFormat) (*ContractEvents, error) {
	spec := n.typedEventSpec(f)
	c, ef, w, m, err := n.contractEventsFor(ctx, string(cid), &spec)
	if err != nil {
		return nil, err
	}
	tr := n.typedRendererFor(ctx)
	out := &ContractEvents{CreatedSynchronizerID: c.SynchronizerID}
	if out.Created, err = tr.created(c.CreatedOffset, c.SynchronizerID, &c.Create, w, ef, m, true); err != nil {
		return nil, decodeErr(err)
	}
	if c.ArchivedOffset != 0 {
		a := &txNode{ContractID: c.Create.ContractID, TemplateID: c.Create.TemplateID, PackageName: c.Create.PackageName}
		if out.Archived, err = tr.archived(c.ArchivedOffset, a, w, m); err != nil {
			return nil, decodeErr(err)
		}
		out.ArchivedSynchronizerID = c.SynchronizerID
	}
	return out, nil
}
