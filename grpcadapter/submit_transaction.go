package grpcadapter

import (
	"context"
	"errors"

	"github.com/ledgernode/ledgernode/apierr"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// SubmitAndWaitForTransaction submits commands and returns the committed
// transaction as the request's transaction format shows it
// (Node.SubmitForTransaction, which checks the format before submitting):
// without a format, the ACS delta as the act_as and read_as parties see
// it, verbose; a transaction that shows nothing comes back without events.
func (s *commandService) SubmitAndWaitForTransaction(ctx context.Context, req *ledgerv2.SubmitAndWaitForTransactionRequest) (*ledgerv2.SubmitAndWaitForTransactionResponse, error) {
	c, err := commandsFromProto(req.GetCommands())
	if err != nil {
		return nil, err
	}
	var f *ledger.ReadFormat
	verbose := true
	if tf := req.GetTransactionFormat(); tf != nil {
		rf, v, err := transactionFormatFromProto(tf, "transaction_format")
		if err != nil {
			return nil, err
		}
		f, verbose = &rf, v
	}
	t, err := s.a.node.SubmitForTransaction(ctx, c, f)
	if err != nil {
		return nil, err
	}
	pt, err := transactionToProto(t, verbose)
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
