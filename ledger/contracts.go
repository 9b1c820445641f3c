package ledger

import (
	"context"
	"errors"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// contractFor makes the checks of Contract and decides what the querying
// parties see: the contract's record and its witnesses.
func (n *Node) contractFor(ctx context.Context, cid string, parties []string) (*contractRecord, []string, error) {
	if err := n.public(ctx); err != nil {
		return nil, nil, err
	}
	// Canton's order: the authorization interceptor, then
	// ApiContractService's requireContractId and requireParties.
	if err := authorizeReadRights(ctx, parties, len(parties) == 0); err != nil {
		return nil, nil, err
	}
	if cid == "" {
		return nil, nil, apierr.MissingField.New("contract_id")
	}
	if err := checkContractIDField(cid); err != nil {
		return nil, nil, err
	}
	for _, p := range parties {
		// requireParties: INVALID_ARGUMENT (the querying parties are no
		// filters_by_party).
		if err := identity.ValidatePartyString(p); err != nil {
			return nil, nil, apierr.InvalidArgument.New("%v", err)
		}
	}
	notFound := apierr.ContractPayloadNotFound.New("Contract payload not found, or not visible.").WithResource("CONTRACT_ID", cid)
	var c contractRecord
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(store.ContractKey(cid))
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
	if len(parties) > 0 {
		witnesses = slices.DeleteFunc(slices.Clone(witnesses), func(p string) bool { return !slices.Contains(parties, p) })
	}
	if len(witnesses) == 0 {
		return nil, nil, notFound
	}
	return &c, witnesses, nil
}

// checkContractIDField checks the contract id of a read as Canton's
// requireContractId does (ContractId.fromString): an id that is no
// contract id is INVALID_FIELD, not a contract that is not found. It is
// the one check of a read's contract id: the gRPC and JSON adapters pass
// the id through, so both answer these words, after authorization.
func checkContractIDField(cid string) error {
	if !lf.IsContractID(cid) {
		// Canton's words (InvalidField.Reject's "Invalid field <name>: "
		// and fromString's message), the id bounded (apierr.Quote): it
		// may be huge.
		return apierr.InvalidField.New("Invalid field contract_id: cannot parse ContractId \"%s\"", apierr.Quote(cid))
	}
	return nil
}
