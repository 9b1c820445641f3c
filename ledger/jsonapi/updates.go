package jsonapi

import (
	"context"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The JSON reads of one update (JsUpdateService's update-by-id and
// -offset, and the deprecated transaction-by-id/-offset and
// transaction-tree-by-id/-offset) over the typed reads, as the pages
// (reads.go): the wire's checks in the Node's order, the typed read with
// stored values, the emitters.

func notATransaction() error {
	return apierr.UpdateNotFound.New("Update not found, or not visible: %s", "the update is not a transaction")
}

// UpdateByID returns the update with that id as the format shows it
// (POST /v2/updates/update-by-id): Node.UpdateByID.
func (a *API) UpdateByID(ctx context.Context, req GetUpdateByIDRequest) (Body, error) {
	if err := checkUpdateFormatShape(req.UpdateFormat, "updateFormat."); err != nil {
		return nil, err
	}
	return a.updateBy(ctx, req.UpdateID, 0, req.UpdateFormat)
}

// UpdateByOffset returns the update at an offset as the format shows it
// (POST /v2/updates/update-by-offset): Node.UpdateByOffset.
func (a *API) UpdateByOffset(ctx context.Context, req GetUpdateByOffsetRequest) (Body, error) {
	if err := checkUpdateFormatShape(req.UpdateFormat, "updateFormat."); err != nil {
		return nil, err
	}
	if err := ledger.CheckUpdateOffset(req.Offset); err != nil {
		return nil, err
	}
	return a.updateBy(ctx, "", req.Offset, req.UpdateFormat)
}

func (a *API) updateBy(ctx context.Context, id string, off int64, uf *UpdateFormat) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	if off == 0 {
		// Canton's order (UpdateServiceRequestValidator): the id, then
		// the format.
		if err := ledger.CheckUpdateID(id); err != nil {
			return nil, err
		}
	}
	if err := checkUpdateFormat(uf); err != nil {
		return nil, err
	}
	u, err := a.updateAt(ctx, id, off, updateReadFormat(uf))
	if err != nil {
		return nil, err
	}
	return AppendUpdateResponse(make([]byte, 0, 2048), u), nil
}

// legacyTransactionFormat resolves the format of a deprecated transaction
// lookup: the transaction format, or for requesting parties a wildcard
// filter per party, verbose, in the ACS-delta shape. Exactly one of the
// two must be given.
func legacyTransactionFormat(parties []string, f *TransactionFormat) (TransactionFormat, error) {
	if err := checkTransactionFormatShape(f, "transactionFormat."); err != nil {
		return TransactionFormat{}, err
	}
	switch {
	case f != nil && len(parties) > 0:
		return TransactionFormat{}, apierr.InvalidArgument.New("Both transaction_format and requesting_parties are set. Please use either backwards compatible arguments (requesting_parties) or transaction_format, but not both.")
	case f != nil:
		return *f, nil
	case len(parties) > 0:
		ef := EventFormat{FiltersByParty: map[string]Filters{}, Verbose: true}
		for _, p := range parties {
			ef.FiltersByParty[p] = Filters{}
		}
		return TransactionFormat{EventFormat: ef, TransactionShape: ShapeACSDelta}, nil
	}
	return TransactionFormat{}, apierr.InvalidArgument.New("Either transaction_format or requesting_parties is required. Please use either backwards compatible arguments (requesting_parties) or transaction_format.")
}

// TransactionByID returns the transaction with that update id as the
// format shows it (deprecated POST /v2/updates/transaction-by-id):
// Node.Transaction.
func (a *API) TransactionByID(ctx context.Context, req GetTransactionByIDRequest) (Body, error) {
	tf, err := legacyTransactionFormat(req.RequestingParties, req.TransactionFormat)
	if err != nil {
		return nil, err
	}
	if req.UpdateID == "" {
		return nil, apierr.MissingField.New("update_id")
	}
	return a.transactionBy(ctx, req.UpdateID, 0, tf)
}

// TransactionByOffset is TransactionByID by offset (deprecated POST
// /v2/updates/transaction-by-offset).
func (a *API) TransactionByOffset(ctx context.Context, req GetTransactionByOffsetRequest) (Body, error) {
	tf, err := legacyTransactionFormat(req.RequestingParties, req.TransactionFormat)
	if err != nil {
		return nil, err
	}
	if err := ledger.CheckUpdateOffset(req.Offset); err != nil {
		return nil, err
	}
	return a.transactionBy(ctx, "", req.Offset, tf)
}

func (a *API) transactionBy(ctx context.Context, id string, off int64, tf TransactionFormat) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	uf := UpdateFormat{IncludeTransactions: &tf}
	if err := checkUpdateFormat(&uf); err != nil {
		return nil, err
	}
	t, err := a.transactionAt(ctx, id, off, updateReadFormat(&uf))
	if err != nil {
		return nil, err
	}
	return AppendTransactionResponse(make([]byte, 0, 2048), t), nil
}

// updateAt reads update id (off 0) or the update at offset off as f
// shows it, its values as stored.
func (a *API) updateAt(ctx context.Context, id string, off int64, f ledger.UpdateReadFormat) (update.Update, error) {
	if off == 0 {
		return a.Node.UpdateByID(rawjson.WithStoredValues(ctx), id, f)
	}
	return a.Node.UpdateByOffset(rawjson.WithStoredValues(ctx), off, f)
}

// transactionAt reads the transaction of update id (off 0) or at offset
// off in f, with stored values; an update that is not a transaction is
// refused as the JSON API refuses it.
func (a *API) transactionAt(ctx context.Context, id string, off int64, f ledger.UpdateReadFormat) (*update.Transaction, error) {
	u, err := a.updateAt(ctx, id, off, f)
	if err != nil {
		return nil, err
	}
	t, ok := u.(*update.Transaction)
	if !ok {
		return nil, notATransaction()
	}
	return t, nil
}

// TransactionTreeByID returns a transaction as a tree (ledger effects)
// seen by the parties (deprecated GET
// /v2/updates/transaction-tree-by-id/{update-id}): Node.UpdateByID
// reading as the parties, every template.
func (a *API) TransactionTreeByID(ctx context.Context, updateID string, parties []string) (Body, error) {
	return a.treeBy(ctx, updateID, 0, parties)
}

// TransactionTreeByOffset is TransactionTreeByID by offset.
func (a *API) TransactionTreeByOffset(ctx context.Context, offset int64, parties []string) (Body, error) {
	if err := ledger.CheckUpdateOffset(offset); err != nil {
		return nil, err
	}
	return a.treeBy(ctx, "", offset, parties)
}

func (a *API) treeBy(ctx context.Context, id string, off int64, parties []string) (Body, error) {
	if err := a.public(ctx); err != nil {
		return nil, err
	}
	if len(parties) == 0 {
		return nil, apierr.MissingField.New("requesting_parties")
	}
	// The typed read checks the parties in sorted order; the request's
	// order names the first refused party.
	if err := ledger.CheckReadAs(ctx, parties...); err != nil {
		return nil, err
	}
	f := ledger.ReadAs(parties...)
	f.Shape = ledger.LedgerEffects
	t, err := a.transactionAt(ctx, id, off, ledger.UpdateReadFormat{Transactions: &f})
	if err != nil {
		return nil, err
	}
	return AppendTransactionTreeResponse(make([]byte, 0, 2048), t), nil
}
