package ledger

import (
	"context"
	"errors"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// GetContractRequest looks a contract up by id (the alpha ContractService).
type GetContractRequest struct {
	ContractID string `json:"contractId"`
	// QueryingParties must share a stakeholder with the contract; empty
	// means any party (and needs CanReadAsAnyParty).
	QueryingParties []string `json:"queryingParties"`
}

// GetContractResponse carries the contract's created event.
type GetContractResponse struct {
	CreatedEvent JsCreatedEvent `json:"createdEvent"`
}

// contractFor makes the checks of ContractByID and decides what the
// querying parties see: the contract's record and its witnesses (shared
// by the JSON and typed reads).
func (n *Node) contractFor(ctx context.Context, req GetContractRequest) (*contractRecord, []string, error) {
	if err := n.public(ctx); err != nil {
		return nil, nil, err
	}
	if req.ContractID == "" {
		return nil, nil, apierr.MissingField.New("contract_id")
	}
	if err := authorizeRead(ctx, req.QueryingParties, len(req.QueryingParties) == 0); err != nil {
		return nil, nil, err
	}
	notFound := apierr.ContractPayloadNotFound.New("Contract payload not found, or not visible.").WithResource("CONTRACT_ID", req.ContractID)
	var c contractRecord
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(store.ContractKey(req.ContractID))
		if errors.Is(err, store.ErrNotFound) {
			return notFound
		}
		if err != nil {
			return err
		}
		return decodeContractRecord(raw, &c)
	})
	if err != nil {
		return nil, nil, storeErr(err)
	}
	witnesses := c.Create.stakeholders()
	if len(req.QueryingParties) > 0 {
		witnesses = slices.DeleteFunc(slices.Clone(witnesses), func(p string) bool { return !slices.Contains(req.QueryingParties, p) })
	}
	if len(witnesses) == 0 {
		return nil, nil, notFound
	}
	return &c, witnesses, nil
}
