package grpcadapter

import (
	"context"

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
	f, verbose, err := submissionFormatFromProto(req.GetTransactionFormat())
	if err != nil {
		return nil, err
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

// submissionFormatFromProto converts the optional transaction format of a
// submission or execution that waits for its transaction: nil for none
// (the Node's default, verbose), else the format and its verbosity.
func submissionFormatFromProto(tf *ledgerv2.TransactionFormat) (*ledger.ReadFormat, bool, error) {
	if tf == nil {
		return nil, true, nil
	}
	f, verbose, err := transactionFormatFromProto(tf, "transaction_format")
	if err != nil {
		return nil, false, err
	}
	return &f, verbose, nil
}
