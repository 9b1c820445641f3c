package grpcadapter

import (
	"context"
	"errors"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// SubmitAndWaitForTransaction submits commands and returns the committed
// transaction as the request's transaction format shows it, as the JSON
// API's /v2/commands/submit-and-wait-for-transaction does
// (Node.SubmitAndWaitForTransaction): without a format, the ACS delta as
// the act_as and read_as parties see it, verbose; a transaction that
// shows nothing comes back without events. A format is checked before
// the submission (a refused format commits nothing): its parties' rights
// and identifiers, by a walk of the empty range at the ledger end. The
// transaction is then read with Node.Transaction.
func (s *commandService) SubmitAndWaitForTransaction(ctx context.Context, req *ledgerv2.SubmitAndWaitForTransactionRequest) (*ledgerv2.SubmitAndWaitForTransactionResponse, error) {
	c, err := commandsFromProto(req.GetCommands())
	if err != nil {
		return nil, err
	}
	var f ledger.ReadFormat
	verbose := true
	if tf := req.GetTransactionFormat(); tf != nil {
		if f, verbose, err = transactionFormatFromProto(tf, "transaction_format"); err != nil {
			return nil, err
		}
		if err := s.checkFormat(ctx, f); err != nil {
			return nil, err
		}
	} else {
		// Reading as the act_as and read_as parties is authorized by the
		// submission's own checks.
		f = ledger.ReadAs(append(slices.Clone(c.ActAs), c.ReadAs...)...)
	}
	res, err := s.a.node.Submit(ctx, c)
	if err != nil {
		return nil, err
	}
	pt, err := s.a.committedTransaction(ctx, res, f, verbose)
	if err != nil {
		return nil, err
	}
	return &ledgerv2.SubmitAndWaitForTransactionResponse{Transaction: pt}, nil
}

// committedTransaction reads a transaction the caller just committed as
// the format shows it: with no event it shows, the transaction without
// events (as Canton answers the *ForTransaction calls).
func (a *Adapter) committedTransaction(ctx context.Context, res *ledger.Committed, f ledger.ReadFormat, verbose bool) (*ledgerv2.Transaction, error) {
	t, err := a.node.Transaction(ctx, res.UpdateID, f)
	switch {
	case errors.Is(err, apierr.UpdateNotFound):
		t = &ledger.Transaction{UpdateID: res.UpdateID, Offset: res.Offset, CommandID: res.CommandID, WorkflowID: res.WorkflowID,
			EffectiveAt: res.EffectiveAt, RecordTime: res.RecordTime, SynchronizerID: res.SynchronizerID}
	case err != nil:
		return nil, err
	}
	return transactionToProto(t, verbose)
}

// checkFormat makes the Node check a read format (rights, identifiers)
// without reading anything: a walk of the empty range at the ledger end.
func (s *commandService) checkFormat(ctx context.Context, f ledger.ReadFormat) error {
	end, err := s.a.node.LedgerEnd(ctx)
	if err != nil {
		return err
	}
	for _, err := range s.a.node.Transactions(ctx, f, ledger.OffsetRange{After: end.Offset, Through: end.Offset}) {
		if err != nil {
			return err
		}
	}
	return nil
}
