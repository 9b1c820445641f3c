package ledger

// Reads for the browser console (httpadapter/console) that the Ledger API
// has no method for.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TransactionNodes returns a committed transaction with every node the
// Daml engine built, fetches, key lookups and rollbacks included, which
// the update reads leave out (the Ledger API shows creates and exercises
// only). The node stores what the Ledger API serves, so the transaction is
// re-interpreted, as Canton's participants re-interpret a transaction to
// validate it (ModelConformanceChecker): its root commands run again on
// the contracts they used, at the transaction's ledger time, with its
// submitters. Node ids are the committed ones; the ids of the contracts
// it created are the committed ids (rolled-back creates keep the local id
// of the re-interpretation).
//
// The caller must be able to read the transaction as the parties (all
// parties when parties is empty), as for UpdateByID; the answer is the
// whole transaction, not the parties' projection. A transaction the
// re-interpretation does not reproduce (its creates and exercises differ
// from the stored ones) is refused with INTERNAL_ERROR rather than shown
// wrong.
func (n *Node) TransactionNodes(ctx context.Context, updateID string, parties []string) (*tx.Transaction, error) {
	f := ReadFormat{Shape: LedgerEffects}
	if len(parties) == 0 {
		f.AnyParty = []Filter{}
	} else {
		// The typed read checks the parties in sorted order; the given
		// order names the first refused party, as before.
		if err := CheckReadAs(ctx, parties...); err != nil {
			return nil, err
		}
		f = ReadAs(parties...)
		f.Shape = LedgerEffects
	}
	// The same authorization and visibility as the update read.
	if _, err := n.UpdateByID(ctx, updateID, UpdateReadFormat{Transactions: &f}); err != nil {
		return nil, err
	}
	e, err := n.entryAt(updateID, 0)
	if err != nil {
		return nil, err
	}
	if e.Kind != kindTransaction {
		return nil, apierr.InvalidArgument.New("update %s is not a transaction", apierr.Quote(updateID))
	}
	if len(e.Nodes) == 0 || !e.Nodes[0].Engine || len(e.ActAs) == 0 {
		return nil, apierr.InternalError.New("transaction %s was not written by the Daml engine: it cannot be re-interpreted", apierr.Quote(updateID))
	}
	let, err := time.Parse(time.RFC3339Nano, e.EffectiveAt)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "transaction %s: effective time", updateID)
	}
	var out *tx.Transaction
	err = n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		pkgs, err := n.snapshotPkgView(t, e.SynchronizerID)
		if err != nil {
			return err
		}
		eng := pkgs.engine()
		// The root commands: the stored nodes no exercise contains.
		var cmds []engine.Value
		var last int32 = -1
		for i := range e.Nodes {
			nd := &e.Nodes[i]
			if nd.ID <= last {
				continue
			}
			cmd, err := storedRootCommand(eng, pkgs, nd)
			if err != nil {
				return err
			}
			cmds = append(cmds, cmd)
			if nd.Exercise {
				last = nd.LastDescendant
			}
		}
		src := &historicContracts{tx: t, pkgs: pkgs}
		// The NoKey mode, which also allows the effectful rollbacks of
		// transactions that Daml Script submitted (AllowEffectfulRollback):
		// a transaction the stricter mode accepted runs the same in it.
		var seed [32]byte
		res, err := eng.Submit(ctx, engine.Submission{ActAs: e.ActAs, LedgerTime: engine.Timestamp(let.UnixMicro()),
			Contracts: src, SubmissionSeed: seed, ParticipantID: n.participantID}, cmds...)
		if err != nil {
			return engineError(ctx, err)
		}
		out, err = committedIDs(res.Transaction, e)
		return err
	})
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return nil, err
		}
		return nil, storeErr(err)
	}
	return out, nil
}

// storedRootCommand is the command that made a root node.
func storedRootCommand(eng *engine.Engine, pkgs *pkgView, nd *txNode) (engine.Value, error) {
	tc, err := splitTypeCon(nd.TemplateID)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "stored node %d", nd.ID)
	}
	if !nd.Exercise {
		arg, err := value.FromJSON(nd.Argument, value.TypeOf(tc.PackageID, tc.Module, tc.Name), pkgs.lookup)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "stored node %d: argument", nd.ID)
		}
		ev, err := eng.FromValue(arg)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "stored node %d: argument", nd.ID)
		}
		return engine.CreateCommand(tc, ev), nil
	}
	x := &tx.Exercise{TemplateID: tc, Choice: nd.Choice}
	if nd.InterfaceID != "" {
		iid, err := splitTypeCon(nd.InterfaceID)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "stored node %d", nd.ID)
		}
		x.InterfaceID = &iid
	}
	ch := pkgs.choice(x)
	if ch == nil {
		return nil, apierr.InternalError.New("stored node %d: choice %s of %s is unknown", nd.ID, nd.Choice, nd.TemplateID)
	}
	arg, err := value.FromJSON(nd.Argument, ch.ArgType, pkgs.lookup)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "stored node %d: choice argument", nd.ID)
	}
	ev, err := eng.FromValue(arg)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "stored node %d: choice argument", nd.ID)
	}
	if x.InterfaceID != nil {
		return engine.ExerciseInterfaceCommand(*x.InterfaceID, nd.Choice, engine.ContractID(nd.ContractID), ev), nil
	}
	return engine.ExerciseCommand(tc, nd.Choice, engine.ContractID(nd.ContractID), ev), nil
}

// historicContracts gives a re-interpretation every stored contract,
// archived or not: the transaction used them while they were active.
type historicContracts struct {
	tx   *store.Tx
	pkgs *pkgView
}

// Contract returns the stored contract id, archived or not (nil when
// there is none).
func (s *historicContracts) Contract(_ context.Context, id engine.ContractID) (*engine.Contract, error) {
	rec, err := loadRecord(&s.tx.Reader, string(id), nil)
	if rec == nil || err != nil {
		return nil, err
	}
	return s.pkgs.engineContract(&rec.Create)
}

// committedIDs checks that a re-interpretation reproduced the stored
// transaction (the same creates and exercises at the same node ids) and
// gives its created contracts their committed ids.
func committedIDs(t *tx.Transaction, e *logEntry) (*tx.Transaction, error) {
	stored := make(map[int32]*txNode, len(e.Nodes))
	for i := range e.Nodes {
		stored[e.Nodes[i].ID] = &e.Nodes[i]
	}
	ids := map[value.ContractID]value.ContractID{}
	var mismatch error
	seen := 0
	t.Walk(func(id tx.NodeID, nd tx.Node, rolledBack bool) bool {
		if rolledBack {
			return true
		}
		s := stored[int32(id)]
		switch x := nd.(type) {
		case *tx.Create:
			if s == nil || s.Exercise || s.TemplateID != x.TemplateID.String() {
				mismatch = fmt.Errorf("node %d: the create is not the stored node", id)
				return false
			}
			ids[x.ContractID] = value.ContractID(s.ContractID)
			seen++
		case *tx.Exercise:
			if s == nil || !s.Exercise || s.Choice != x.Choice || s.TemplateID != x.TemplateID.String() {
				mismatch = fmt.Errorf("node %d: the exercise is not the stored node", id)
				return false
			}
			seen++
		}
		return true
	})
	if mismatch == nil && seen != len(e.Nodes) {
		mismatch = fmt.Errorf("%d creates and exercises, %d stored", seen, len(e.Nodes))
	}
	if mismatch != nil {
		return nil, apierr.InternalError.New("transaction %s: the re-interpretation differs from the committed transaction: %v", e.UpdateID, mismatch)
	}
	out := t.MapContractIDs(ids)
	out.NodeSeeds = nil // the re-interpretation's, not the committed ones
	return out, nil
}
