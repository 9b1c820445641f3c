package ledger

import (
	"encoding/json"
	"errors"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Interactive submission, the execute side (Canton's
// InteractiveSubmissionServiceImpl.execute, in
// community/ledger/ledger-api-core,
// platform/apiserver/services/command/interactive): the node keeps nothing
// between prepare and execute; execute decodes the prepared transaction
// the client sends back, recomputes its hash, verifies the external
// parties' signatures against their stored keys, re-interprets the
// transaction's root actions with the engine and requires the same
// transaction (reinterpretPrepared), then commits it through the same
// committer step as ordinary commands.

func failedToExecute(format string, args ...any) error {
	return apierr.FailedToExecuteTransaction.New(format, args...)
}

// canExecuteAs reports whether p may execute as party: CanActAs,
// CanExecuteAs or CanExecuteAsAnyParty.
func canExecuteAs(p identity.Principal, party string) bool {
	return p.Wildcard || p.CanActAs(party) || p.Has(identity.Right{Kind: identity.RightCanExecuteAs, Party: party}) ||
		p.Has(identity.Right{Kind: identity.RightCanExecuteAsAnyParty})
}

// partyKeys reads the signing keys of the parties that have them.
func (n *Node) partyKeys(parties []string) (map[string]interactive.PartyKeys, error) {
	out := map[string]interactive.PartyKeys{}
	err := n.st.View(func(r *store.Reader) error {
		for _, p := range parties {
			raw, err := r.Get(store.PartyKey(p))
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var rec partyRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return err
			}
			if len(rec.SigningKeys) > 0 {
				out[p] = interactive.PartyKeys{Keys: rec.SigningKeys, Threshold: rec.SigningThreshold}
			}
		}
		return nil
	})
	return out, err
}
