package ledger

// Participant pruning: Canton's ParticipantPruningService.Prune
// (ledger-api-core's ApiParticipantPruningService.prune, and the index
// pruning of PruningStorageBackend) on the Badger store.
//
// Pruning up to offset P removes what Canton's index pruning removes:
// every update at an offset <= P (u/<offset>, with its update-id entry
// i/ and its per-party index entries x/, and with them the completions
// and topology events the updates carry) and the contracts archived at an
// offset <= P (their c/ record and the z/ entries of the active-contracts
// index), transient contracts included. Contracts still active, or
// archived after P, are kept, so the active contracts at any offset >= P
// are unchanged. Command deduplication entries (q/) and reassignment
// records (t/) are kept.
//
// The pruned offset is stored (m/pruned-up-to) in a commit of its own
// before anything is deleted, so that a read that starts afterwards and
// asks for data at or before it is refused with
// PARTICIPANT_PRUNED_DATA_ACCESSED (QueryValidRange.withRangeNotPruned)
// rather than shown part of the pruned data; the deletions follow in
// committer operations of at most pruneBatch deletions each. A prune cut
// short (a crash) leaves the offset stored and some data undeleted, which
// no read can reach; pruning again (at that offset or later) deletes it,
// as in Canton, where a failed prune is reissued.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// keyPrunedUpTo holds the pruned offset as 8 big-endian bytes; absent
// means never pruned.
var keyPrunedUpTo = store.MetaKey("pruned-up-to")

// pruneBatch bounds the deletions of one committer operation of a prune.
const pruneBatch = 2000

// pruneState is a Node's pruning state. Its zero value is ready: the
// pruned offset is read from the store on first use.
type pruneState struct {
	running atomic.Bool // a Prune is under way

	mu     sync.Mutex
	loaded bool
	upTo   int64 // the pruned offset once loaded
	// done is the offset up to which the deletions are complete in this
	// process (they may lag upTo after a prune cut short).
	done int64
}

// PruneRequest is Canton's PruneRequest.
type PruneRequest struct {
	// PruneUpTo is the offset up to which (inclusive) the ledger is
	// pruned: positive and before the ledger end. Required.
	PruneUpTo int64
	// SubmissionID identifies the request in the logs; empty means a
	// random one.
	SubmissionID string
	// PruneAllDivulgedContracts is Canton's deprecated flag, a no-op:
	// divulged contracts are pruned with the archived ones.
	PruneAllDivulgedContracts bool
}

// Prune removes the updates at offsets <= req.PruneUpTo and the contracts
// archived by then (ParticipantAdmin), as Canton's
// ApiParticipantPruningService.prune does: a PruneUpTo of 0 is
// INVALID_ARGUMENT ("prune_up_to not specified or zero"), a negative one
// NON_POSITIVE_OFFSET, one at or after the ledger end OFFSET_OUT_OF_RANGE
// ("prune_up_to needs to be before ledger end …"), and a prune while
// another runs PARTICIPANT_PRUNING_IN_PROGRESS; none changes anything.
// Pruning at or before the offset already pruned succeeds and changes
// nothing (Canton only ever raises the pruned offset). Afterwards reads
// that reach back to req.PruneUpTo fail with
// PARTICIPANT_PRUNED_DATA_ACCESSED, and LatestPrunedOffsets reports it,
// also after a restart.
func (n *Node) Prune(ctx context.Context, req PruneRequest) error {
	return n.prune(ctx, req, pruneBatch)
}

// prune is Prune with at most about batch deletions per committer
// operation.
func (n *Node) prune(ctx context.Context, req PruneRequest, batch int) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	if err := requireParticipantAdmin(ctx, "pruning the participant"); err != nil {
		return err
	}
	if req.PruneUpTo == 0 {
		return apierr.InvalidArgument.New("prune_up_to not specified or zero")
	}
	if req.PruneUpTo < 0 {
		return apierr.NonPositiveOffset.New("Offset %d in prune_up_to is not a positive integer: the offset has to be a positive integer (>0)", req.PruneUpTo)
	}
	if !n.pruning.running.CompareAndSwap(false, true) {
		return apierr.ParticipantPruningInProgress.New("Pruning in progress. Please try later.")
	}
	defer n.pruning.running.Store(false)
	if end := n.st.LedgerEnd(); req.PruneUpTo >= end {
		// Canton prints the ledger end as an Option[Offset].
		printed := "None"
		if end > 0 {
			printed = fmt.Sprintf("Some(Offset(%d))", end)
		}
		return apierr.OffsetOutOfRange.New("prune_up_to needs to be before ledger end %s", printed)
	}
	prev, err := n.prunedUpTo()
	if err != nil {
		return err
	}
	upTo := max(prev, req.PruneUpTo)
	if upTo > prev {
		// SubmitFreeing: pruning is how a nearly full disk gets its space
		// back, so the disk guard lets it through.
		_, err := n.st.SubmitFreeing(func(tx *store.Tx) (any, error) {
			tx.Set(keyPrunedUpTo, store.OffsetBytes(upTo))
			return nil, nil
		})
		if err != nil {
			return storeErr(err)
		}
		n.pruning.mu.Lock()
		n.pruning.upTo = upTo
		n.pruning.mu.Unlock()
		n.log.Info("ledger: pruning", "upTo", upTo, "submissionId", req.SubmissionID)
	}
	return n.pruneData(upTo, batch)
}

// prunedUpTo returns the pruned offset (0: never pruned).
func (n *Node) prunedUpTo() (int64, error) {
	s := &n.pruning
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.loaded {
		return s.upTo, nil
	}
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(keyPrunedUpTo)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		s.upTo = store.DecodeOffset(raw)
		return nil
	})
	if err != nil {
		return 0, storeErr(err)
	}
	s.loaded = true
	return s.upTo, nil
}

// pruneData deletes the pruned data up to upTo, from the first update
// this process has not pruned yet, in committer operations of at most
// about batch deletions.
func (n *Node) pruneData(upTo int64, batch int) error {
	n.pruning.mu.Lock()
	from := n.pruning.done
	n.pruning.mu.Unlock()
	for from < upTo {
		v, err := n.st.SubmitFreeing(func(tx *store.Tx) (any, error) {
			return pruneBatchOf(tx, from, upTo, batch)
		})
		if err != nil {
			return storeErr(err)
		}
		from = v.(int64)
	}
	n.pruning.mu.Lock()
	n.pruning.done = max(n.pruning.done, upTo)
	n.pruning.mu.Unlock()
	return nil
}

// pruneBatchOf deletes the updates after from up to upTo, and the
// contracts they archived, until about batch deletions are staged. It
// returns the offset up to which it pruned (upTo when done).
func pruneBatchOf(tx *store.Tx, from, upTo int64, batch int) (int64, error) {
	deleted, last := 0, upTo
	err := tx.Scan([]byte(store.PrefixUpdate), store.UpdateKey(from+1), func(k, v []byte) (bool, error) {
		off := store.DecodeOffset(k[len(store.PrefixUpdate):])
		if off > upTo {
			return false, nil
		}
		if deleted >= batch {
			last = off - 1
			return false, nil
		}
		var e logEntry
		if err := decodeLogEntry(v, &e); err != nil {
			return false, fmt.Errorf("update at offset %d: %w", off, err)
		}
		tx.Delete(k)
		tx.Delete(store.UpdateIDKey(e.UpdateID))
		deleted += 2
		for _, p := range e.parties() {
			tx.Delete(store.PartyUpdateKey(p, off))
			deleted++
		}
		d, err := pruneArchived(tx, &e, upTo)
		deleted += d
		return err == nil, err
	})
	return last, err
}

// pruneArchived deletes the contracts of entry e that are archived at an
// offset <= upTo: their records and their archived-contract index
// entries. It returns the number of deletions.
func pruneArchived(tx *store.Tx, e *logEntry, upTo int64) (int, error) {
	deleted := 0
	for i := range e.Nodes {
		nd := &e.Nodes[i]
		if nd.Exercise && !nd.Consuming {
			continue
		}
		c, err := loadRecord(&tx.Reader, nd.ContractID, nil)
		if err != nil {
			return deleted, fmt.Errorf("contract %s: %w", nd.ContractID, err)
		}
		if c == nil {
			continue // pruned already (a create and its archive in e)
		}
		if c.State != contractArchived || c.ArchivedOffset > upTo {
			continue
		}
		tx.Delete(store.ContractKey(nd.ContractID))
		deleted++
		for _, p := range c.Create.stakeholders() {
			tx.Delete(store.ArchivedByPartyKey(p, c.ArchivedOffset, nd.ContractID))
			deleted++
		}
	}
	return deleted, nil
}

// errPrunedData is Canton's PARTICIPANT_PRUNED_DATA_ACCESSED with the
// pruned offset as earliest_offset.
func errPrunedData(prunedUpTo int64, format string, args ...any) error {
	return apierr.ParticipantPrunedDataAccessed.New(format, args...).
		WithContext("earliest_offset", fmt.Sprint(prunedUpTo))
}

// checkUpdatesNotPruned refuses a read of the updates after begin (up to
// end, or the ledger end when nil) that reaches back to the pruned
// offset, in the words of Canton's UpdatesStreamReader.
func (n *Node) checkUpdatesNotPruned(begin int64, end *int64) error {
	return n.checkRangeNotPruned("Updates", "precedes", begin, end)
}

// checkCompletionsNotPruned is checkUpdatesNotPruned for command
// completions (CommandCompletionsReader's words).
func (n *Node) checkCompletionsNotPruned(begin int64) error {
	return n.checkRangeNotPruned("Command completions", "overlaps with", begin, nil)
}

func (n *Node) checkRangeNotPruned(what, verb string, begin int64, end *int64) error {
	pruned, err := n.prunedUpTo()
	if err != nil || pruned <= begin {
		return err
	}
	hi := n.st.LedgerEnd()
	if end != nil {
		hi = *end
	}
	return errPrunedData(pruned, "%s request from %d to %d %s pruned offset %d", what, begin+1, hi, verb, pruned)
}

// checkACSNotPruned refuses a read of the active contracts at an offset
// before the pruned offset (ACSReader.acsBeforePruningErrorReason); at
// the pruned offset itself they are still known.
func (n *Node) checkACSNotPruned(at int64) error {
	if at == 0 {
		return nil // the participant's beginning: no contracts, nothing read
	}
	pruned, err := n.prunedUpTo()
	if err != nil || at >= pruned {
		return err
	}
	return errPrunedData(pruned, "Active contracts request at offset %d precedes pruned offset %d", at, pruned)
}
