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
