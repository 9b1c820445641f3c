package ledger

import (
	"context"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// SynchronizerConnection is a synchronizer the participant is connected
// to (Canton's GetConnectedSynchronizersResponse.ConnectedSynchronizer,
// ledger-api/.../state_service.proto).
type SynchronizerConnection struct {
	// Alias is the synchronizer's alias: the part of its id before "::".
	Alias string
	// ID is the synchronizer's id.
	ID string
	// Permission is the hosting permission of the asked-for party (every
	// local party is hosted with submission permission; so is the
	// participant itself when no party is asked for).
	Permission update.ParticipantPermission
}

// ConnectedSynchronizers lists the synchronizers the participant is
// connected to (any authenticated caller), in the order of
// Options.Synchronizers. With a party, only those where the party is
// hosted: none for a party the participant does not know. With a
// participantID other than this participant's, none (Canton asks the
// topology of that participant; ledgernode knows only its own).
func (n *Node) ConnectedSynchronizers(ctx context.Context, party, participantID string) ([]SynchronizerConnection, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	// Canton validates both filters before it reads (a party string, a
	// participant's unique identifier); a malformed one names nothing.
	if party != "" {
		if err := identity.ValidatePartyString(party); err != nil {
			return nil, apierr.InvalidField.New("party: %v", err)
		}
	}
	if participantID != "" {
		if _, err := identity.ParseUID(participantID); err != nil {
			return nil, apierr.InvalidField.New("participant_id: %v", err)
		}
	}
	out := []SynchronizerConnection{}
	if participantID != "" && participantID != n.participantID {
		return out, nil
	}
	if party != "" {
		var known bool
		err := n.st.View(func(r *store.Reader) (err error) { known, err = hasKey(r, store.PartyKey(party)); return err })
		if err != nil {
			return nil, storeErr(err)
		}
		if !known {
			return out, nil
		}
	}
	for _, s := range n.syncs {
		alias, _, _ := strings.Cut(s, "::")
		out = append(out, SynchronizerConnection{Alias: alias, ID: s, Permission: update.PermissionSubmission})
	}
	return out, nil
}

// LedgerEnd returns the offset of the last committed update, 0 on
// an empty ledger (any authenticated caller; Canton's GetLedgerEnd).
func (n *Node) LedgerEnd(ctx context.Context) (int64, error) {
	if err := n.public(ctx); err != nil {
		return 0, err
	}
	return n.st.LedgerEnd(), nil
}
