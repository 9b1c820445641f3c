package httpadapter

import (
	"github.com/ledgernode/ledgernode/ledger"
)

// Decoders of the interactive-submission routes
// (JsInteractiveSubmissionService): the commands and the transaction
// format get the same decode-time checks as on the command routes.

// decodePrepareSubmission reads a JsPrepareSubmissionRequest body.
func decodePrepareSubmission(rq *request) (ledger.JsPrepareSubmissionRequest, error) {
	req, err := decodeBody[ledger.JsPrepareSubmissionRequest](rq)
	if err != nil {
		return req, err
	}
	return req, checkJsCommands(&ledger.JsCommands{Commands: req.Commands}, "")
}

// decodeExecuteAndWaitForTransaction reads a
// JsExecuteSubmissionAndWaitForTransactionRequest body.
func decodeExecuteAndWaitForTransaction(rq *request) (ledger.ExecuteSubmissionAndWaitForTransactionRequest, error) {
	req, err := decodeBody[ledger.ExecuteSubmissionAndWaitForTransactionRequest](rq)
	if err != nil {
		return req, err
	}
	if req.TransactionFormat != nil {
		return req, checkTransactionFormat(req.TransactionFormat, "transactionFormat.")
	}
	return req, nil
}
