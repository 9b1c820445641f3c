package ledger

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/vetting"
)

// purposeReassignmentID is the hash purpose of reassignment ids.
const purposeReassignmentID identity.HashPurpose = 0x4c4e0002

// reassignmentRecord is an unassignment, open until its assignment.
type reassignmentRecord struct {
	ContractID string `json:"cid"`
	Source     string `json:"src"`
	Target     string `json:"dst"`
	Counter    int64  `json:"cnt"`
	Completed  bool   `json:"done"`
}

func (n *Node) connected(id, field string) error {
	if !slices.Contains(n.syncs, id) {
		return apierr.InvalidField.New("%s: the participant is not connected to synchronizer %q", field, apierr.Quote(id))
	}
	return nil
}

func loadContract(tx *store.Tx, cid string) (*contractRecord, error) {
	raw, err := tx.Get(store.ContractKey(cid))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(cid)).WithResource("CONTRACT_ID", cid)
	}
	if err != nil {
		return nil, err
	}
	var c contractRecord
	return &c, decodeContractRecord(raw, &c)
}

func (n *Node) unassign(tx *store.Tx, u UnassignContract, submitter string, e *logEntry, i int) (*reassignNode, error) {
	cid := string(u.ContractID)
	c, err := loadContract(tx, cid)
	if err != nil {
		return nil, err
	}
	if c.State == contractArchived {
		return nil, apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(cid)).WithResource("CONTRACT_ID", cid)
	}
	if c.State != contractActive || c.SynchronizerID != u.Source {
		return nil, apierr.ContractNotActive.New("Contract %s is not active on synchronizer %s", apierr.Quote(cid), apierr.Quote(u.Source)).WithResource("CONTRACT_ID", cid)
	}
	if !slices.Contains(c.Create.stakeholders(), submitter) {
		return nil, apierr.DamlAuthorizationError.New("the submitter %s is not a stakeholder of contract %s", submitter, apierr.Quote(cid))
	}
	st, err := loadVetting(tx, u.Target)
	if err != nil {
		return nil, err
	}
	pkgID := packageOf(c.Create.TemplateID)
	if !slices.ContainsFunc(st.Packages, func(v vetting.VettedPackage) bool { return v.PackageID == pkgID }) {
		return nil, apierr.ReassignmentMismatch.New("the package %s of contract %s is not vetted on the target synchronizer %s", pkgID, apierr.Quote(cid), apierr.Quote(u.Target))
	}
	counter := c.Counter + 1
	rid := "00" + identity.CantonHashHex(purposeReassignmentID,
		mustJSON([]any{u.Source, u.Target, e.RecordTime, e.Offset, i, cid, counter}))
	c.State, c.Counter, c.ReassignmentID, c.Target, c.UnassignedOffset, c.UnassignedBy = contractUnassigned, counter, rid, u.Target, e.Offset, submitter
	// In transit, the contract stays in its stakeholders' active contracts:
	// its entries of the active-contracts index (acsindex.go) keep their
	// keys, and carry its new record where they carry records.
	raw := mustJSON(c)
	tx.Set(store.ContractKey(cid), raw)
	n.reindexActive(tx, c, raw)
	tx.Set(store.ReassignmentKey(rid), mustJSON(reassignmentRecord{ContractID: cid, Source: u.Source, Target: u.Target, Counter: counter}))
	return &reassignNode{Unassign: true, ReassignmentID: rid, Source: u.Source, Target: u.Target, Submitter: submitter,
		Counter: counter, Contract: c.Create}, nil
}

func (n *Node) assign(tx *store.Tx, a AssignContract, submitter string) (*reassignNode, error) {
	raw, err := tx.Get(store.ReassignmentKey(a.ReassignmentID))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.ReassignmentNotFound.New("no unassignment with reassignment id %s", apierr.Quote(a.ReassignmentID)).
			WithResource("REASSIGNMENT_ID", a.ReassignmentID)
	}
	if err != nil {
		return nil, err
	}
	var r reassignmentRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	switch {
	case r.Completed:
		return nil, apierr.ReassignmentMismatch.New("the reassignment %s is already completed", apierr.Quote(a.ReassignmentID))
	case r.Source != a.Source || r.Target != a.Target:
		return nil, apierr.ReassignmentMismatch.New("the reassignment %s goes from %s to %s, not from %s to %s", apierr.Quote(a.ReassignmentID), r.Source, r.Target, apierr.Quote(a.Source), apierr.Quote(a.Target))
	}
	c, err := loadContract(tx, r.ContractID)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(c.Create.stakeholders(), submitter) {
		return nil, apierr.DamlAuthorizationError.New("the submitter %s is not a stakeholder of contract %s", submitter, apierr.Quote(r.ContractID))
	}
	r.Completed = true
	c.State, c.SynchronizerID, c.ReassignmentID, c.Target, c.UnassignedOffset, c.UnassignedBy = contractActive, r.Target, "", "", 0, ""
	tx.Set(store.ReassignmentKey(a.ReassignmentID), mustJSON(r))
	raw = mustJSON(c)
	tx.Set(store.ContractKey(r.ContractID), raw)
	n.reindexActive(tx, c, raw)
	return &reassignNode{ReassignmentID: a.ReassignmentID, Source: r.Source, Target: r.Target, Submitter: submitter,
		Counter: r.Counter, Contract: c.Create}, nil
}
