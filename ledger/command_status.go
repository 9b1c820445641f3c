package ledger

// Command inspection: Canton's CommandInspectionService.GetCommandStatus
// on an in-memory, bounded tracker of the node's recent submissions, as
// Canton's participant keeps one (CommandProgressTrackerImpl): the
// commands being processed (at most trackMaxPending; beyond, new ones are
// not tracked), and the last trackMaxSucceeded succeeded and
// trackMaxFailed failed ones, newest first. Nothing of it is stored: a
// restart starts empty.
//
// A submission is registered once it is validated (submit,
// SubmitEngineCommands) and finishes with its commit or its rejection;
// its interpretation records what it created, archived, exercised,
// fetched and looked up by key (Canton's recordTransactionImpact). The
// key of a command is Canton's: command id, user id, actAs parties and
// submission id.

import (
	"context"
	"errors"
	"iter"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
)

// The tracker's bounds, Canton's CommandProgressTrackerConfig defaults.
const (
	trackMaxPending   = 1000
	trackMaxSucceeded = 100
	trackMaxFailed    = 100
)

// DefaultCommandStatusLimit is the number of statuses CommandStatuses
// returns when limit is 0 or less (the proto's documented
// default).
const DefaultCommandStatusLimit = 100

// CommandState is the state of a tracked command (Canton's CommandState).
type CommandState int

// The command states; CommandStateUnspecified matches every state in a
// query.
const (
	CommandStateUnspecified CommandState = iota
	CommandStatePending
	CommandStateSucceeded
	CommandStateFailed
)

// CommandContract is a contract a command created or archived.
type CommandContract struct {
	TemplateID lf.TypeConID
	ContractID string
	// ContractKey is the contract's key, nil when its template has none.
	ContractKey value.Value
}

// CommandUpdates is what a command's transaction did.
type CommandUpdates struct {
	Created, Archived                 []CommandContract
	Exercised, Fetched, LookedUpByKey int
}

// CommandStatus is the status of one tracked command (Canton's
// CommandStatus).
type CommandStatus struct {
	// Started is when the node received the command; Completed when it
	// was committed or rejected (zero while pending).
	Started, Completed time.Time
	State              CommandState
	CommandID          string
	UserID             string
	SubmissionID       string
	ActAs              []string
	// Commands are the submitted commands (empty for a submission of
	// engine commands, SubmitEngineCommands).
	Commands []Command
	Updates  CommandUpdates
	// UpdateID, Offset, SynchronizerID and RecordTime place a succeeded
	// command's transaction.
	UpdateID       string
	Offset         int64
	SynchronizerID string
	RecordTime     time.Time
	// Error is a failed command's rejection.
	Error *apierr.Error
}

// CommandStatuses returns the statuses of the node's recent commands
// (ParticipantAdmin), as Canton's
// ApiCommandInspectionService.getCommandStatus does. commandIDPrefix
// selects the commands whose id starts with it ("": all); a non-empty
// prefix that is not a valid command id is INVALID_FIELD
// command_id_prefix. state selects the commands in that state
// (CommandStateUnspecified, or an unknown state: all). limit bounds the
// statuses returned (0 or less: DefaultCommandStatusLimit). Without a state,
// the failed commands come first, then the pending and the succeeded ones,
// each newest first and each list cut at the limit, and the whole at the
// limit (CommandProgressTrackerImpl.findCommandStatus).
func (n *Node) CommandStatuses(ctx context.Context, commandIDPrefix string, state CommandState, limit int) ([]CommandStatus, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if err := requireParticipantAdmin(ctx, "inspecting commands"); err != nil {
		return nil, err
	}
	if commandIDPrefix != "" {
		if err := identity.ValidateLedgerString(commandIDPrefix); err != nil {
			return nil, apierr.InvalidField.New("command_id_prefix: %v", err)
		}
	}
	if state < CommandStateUnspecified || state > CommandStateFailed {
		state = CommandStateUnspecified // Canton: CommandState.Unrecognized matches all
	}
	if limit <= 0 {
		limit = DefaultCommandStatusLimit
	}
	return n.tracker.find(commandIDPrefix, state, limit), nil
}

// commandTracker is a Node's command progress tracker. Its zero value is
// ready.
//
// Every submission registers, updates and finishes its command, from as
// many goroutines as there are clients: the pending commands are spread
// over shards by their command id (hashed outside any lock), each under a
// lock of its own. Finishing takes the command's shard's lock only, and
// pushes the command on a ring whose slot it claims atomically
// (statusRing). find takes every shard's lock, in order: no command is
// then finishing, so that it sees each command in one place.
type commandTracker struct {
	shards [trackShards]pendingShard
	// npending counts the pending commands of all shards (changed under
	// a shard's lock).
	npending  atomic.Int64
	succeeded statusRing // the last trackMaxSucceeded
	failed    statusRing // the last trackMaxFailed
}

// trackShards is the number of shards of the pending commands: enough
// that the submissions of a busy node seldom take one lock at once (a
// waiter parks, and waits behind every runnable goroutine).
const trackShards = 64

// pendingShard is a shard of the pending commands, on a cache line of its
// own.
type pendingShard struct {
	mu sync.Mutex
	// pending are the shard's pending commands by command id, those of
	// one id but different keys (sameKey) chained by next.
	pending map[string]*trackedCommand
	_       [64 - 16]byte
}

// trackedCommand is a tracked command, pending, then finished: its
// status does not change once it is in a ring.
type trackedCommand struct {
	// next is the shard's next pending command of the same command id.
	next   *trackedCommand
	status CommandStatus
	// updates, once set (interpreted), are the status's Updates: set
	// without taking the shard's lock, which find holds.
	updates atomic.Pointer[CommandUpdates]
	// oneActAs, oneCommand and oneCreated hold status's ActAs, Commands
	// and Updates.Created while they have one element (a one-party
	// create's), and oneUpdates the first updates: they are allocated
	// with the entry.
	oneActAs   [1]string
	oneCommand [1]Command
	oneCreated [1]CommandContract
	oneUpdates CommandUpdates
}

// sameKey reports whether h and g, of the same command id, have the same
// key, Canton's: command id, user id, actAs parties (as a set) and
// submission id.
func (h *trackedCommand) sameKey(g *trackedCommand) bool {
	return h.status.UserID == g.status.UserID && h.status.SubmissionID == g.status.SubmissionID &&
		sameParties(h.status.ActAs, g.status.ActAs)
}

// sameParties reports whether a and b are the same set of parties.
func sameParties(a, b []string) bool {
	if len(a) == 1 && len(b) == 1 { // the common case, without sorting copies
		return a[0] == b[0]
	}
	return slices.Equal(union(a), union(b))
}

// snapshot returns the command's status.
func (h *trackedCommand) snapshot() CommandStatus {
	s := h.status
	if u := h.updates.Load(); u != nil {
		s.Updates = *u
	}
	return s
}

// track registers a validated submission as pending (unless
// trackMaxPending commands are), as s.tracked, started at the node's
// time started (read once by the caller); done records its outcome.
// Callers defer done right after: n.tracker.track(now, s); defer
// n.tracker.done(n.now, s, &e, &err).
func (t *commandTracker) track(started time.Time, s *submission) {
	c := s.c
	// Built outside the lock, which every submission takes.
	h := &trackedCommand{status: CommandStatus{
		Started: started, State: CommandStatePending, CommandID: c.CommandID, UserID: c.UserID,
		SubmissionID: c.SubmissionID,
	}}
	h.status.ActAs = cloneInto(h.oneActAs[:0], c.ActAs)
	h.status.Commands = cloneInto(h.oneCommand[:0], c.Commands)
	sh := &t.shards[trackShard(c.CommandID)]
	sh.mu.Lock()
	head := sh.pending[c.CommandID]
	var prev, g *trackedCommand
	for g = head; g != nil && !g.sameKey(h); g = g.next {
		prev = g
	}
	// A new command takes its place within the bound before it is
	// listed, so that commands registering on other shards at the same
	// time cannot take it too; a command registered again keeps its
	// place, and at the bound is not tracked again either.
	if g == nil {
		if t.npending.Add(1) > trackMaxPending {
			t.npending.Add(-1)
			sh.mu.Unlock()
			return
		}
	} else if t.npending.Load() >= trackMaxPending {
		sh.mu.Unlock()
		return
	}
	if sh.pending == nil {
		sh.pending = map[string]*trackedCommand{}
	}
	switch {
	case g == nil: // a new command, at the head
		h.next = head
		sh.pending[c.CommandID] = h
	case prev == nil: // the same command twice: the later one is tracked
		h.next = g.next
		sh.pending[c.CommandID] = h
	default:
		h.next = g.next
		prev.next = h
	}
	s.tracked = h
	sh.mu.Unlock()
}

// trackShard picks the shard of a command of id id (the same for every
// registration of one command) from a few of its bytes, where ids differ
// from one command to the next: a counter's last two digits (the last
// alone would leave the commands in flight at once ten shards), a
// UUID's anywhere.
func trackShard(id string) int {
	n := len(id)
	if n < 2 {
		return n
	}
	return (int(id[n-1]) + 11*int(id[n-2]) + 7*int(id[n/2]) + 3*int(id[n/4]) + n) % trackShards
}

// done records the outcome of a submission track registered from its
// results: the committed entry or the error (nothing when it was not
// registered).
func (t *commandTracker) done(now func() time.Time, s *submission, e **logEntry, err *error) {
	if h := s.tracked; h != nil {
		t.finish(h, now(), *e, *err)
	}
}

// finish moves a pending command to the succeeded or failed ones.
func (t *commandTracker) finish(h *trackedCommand, now time.Time, e *logEntry, err error) {
	// A failure's error is made before locking (no lock is held should
	// its text panic).
	var failure *apierr.Error
	failed := err != nil || e == nil
	if failed {
		if err == nil {
			err = apierr.InternalError.New("the submission ended without a result")
		}
		var ae *apierr.Error // escapes (errors.As): declared only here
		if !errors.As(err, &ae) {
			ae = apierr.InternalError.Wrap(err, "%v", err)
		}
		failure = ae
	}
	id := h.status.CommandID
	sh := &t.shards[trackShard(id)]
	sh.mu.Lock()
	var prev, g *trackedCommand
	for g = sh.pending[id]; g != nil && g != h; g = g.next {
		prev = g
	}
	switch {
	case g == nil:
		sh.mu.Unlock()
		return // replaced by a later registration of the same command
	case prev != nil:
		prev.next = h.next
	case h.next != nil:
		sh.pending[id] = h.next
	default:
		delete(sh.pending, id)
	}
	h.next = nil
	t.npending.Add(-1)
	s := &h.status
	s.Completed = now
	if failed {
		s.State, s.Error = CommandStateFailed, failure
		t.failed.push(h, trackMaxFailed)
	} else {
		s.State = CommandStateSucceeded
		s.UpdateID, s.Offset, s.SynchronizerID, s.RecordTime = e.UpdateID, e.Offset, e.SynchronizerID, e.recordTime
		t.succeeded.push(h, trackMaxSucceeded)
	}
	sh.mu.Unlock()
}

// interpreted records what the transaction of the submission s does
// (Canton's recordTransactionImpact: creates and consuming exercises,
// exercise, fetch and key-lookup counts, rollback subtrees left out),
// when track registered s.
func (t *commandTracker) interpreted(s *submission, txn *tx.Transaction) {
	h := s.tracked
	if h == nil || txn == nil {
		return
	}
	// The first updates are written in the entry, oneCreated included,
	// before they are published; any later ones (a submission is
	// interpreted once so far) in memory of their own, as find may be
	// reading the first.
	u := &h.oneUpdates
	if h.updates.Load() != nil {
		u = new(CommandUpdates)
	} else {
		u.Created = h.oneCreated[:0]
	}
	var walk func(ids []tx.NodeID)
	walk = func(ids []tx.NodeID) {
		for _, id := range ids {
			switch nd := txn.Nodes[id].(type) {
			case *tx.Create:
				u.Created = append(u.Created, CommandContract{TemplateID: nd.TemplateID, ContractID: string(nd.ContractID), ContractKey: keyValue(nd.Key)})
			case *tx.Exercise:
				u.Exercised++
				if nd.Consuming {
					u.Archived = append(u.Archived, CommandContract{TemplateID: nd.TemplateID, ContractID: string(nd.TargetID), ContractKey: keyValue(nd.Key)})
				}
				walk(nd.Children)
			case *tx.Fetch:
				u.Fetched++
			case *tx.QueryByKey:
				u.LookedUpByKey++
			}
		}
	}
	walk(txn.Roots)
	if len(u.Created) == 0 {
		u.Created = nil
	}
	h.updates.Store(u)
}

// cloneInto is slices.Clone(src) in buf when it fits (nil for nil, as
// slices.Clone).
func cloneInto[T any](buf, src []T) []T {
	if src == nil {
		return nil
	}
	if len(src) > cap(buf) {
		return slices.Clone(src)
	}
	return append(buf[:0:len(src)], src...)
}

func keyValue(k *tx.KeyWithMaintainers) value.Value {
	if k == nil {
		return nil
	}
	return k.Key
}

// trackRingSize is the room of a statusRing, the larger bound.
const trackRingSize = max(trackMaxSucceeded, trackMaxFailed)

// statusRing keeps the last commands pushed, up to a bound (at most
// trackRingSize), in place: once full, a push overwrites the oldest.
// Pushes may run at once (under different shards' locks): each claims
// its place in the order of pushes, and the slot it writes keeps the
// latest of those that write it. Reading it (newestFirst) needs that
// none is under way: the tracker pushes under a shard's lock, and find
// holds them all.
type statusRing struct {
	n     atomic.Uint64 // the pushes so far
	slots [trackRingSize]ringSlot
}

// ringSlot is a place of a statusRing: the command it keeps and the
// number (from 1) of the latest push that claimed it, side by side, so
// that a push need not read the command it overwrites (pushed a bound
// of pushes ago, its memory no longer in the cache) to know it is older.
type ringSlot struct {
	claim atomic.Uint64
	h     atomic.Pointer[trackedCommand]
}

// push adds h, dropping the oldest command when bound are kept.
func (r *statusRing) push(h *trackedCommand, bound int) {
	i := r.n.Add(1)
	slot := &r.slots[(i-1)%uint64(bound)]
	// The claim first: once it is made, an earlier push to the slot
	// sees it before it could write the slot, and a write it made
	// before is overwritten below (its compare-and-swap changed what
	// this push compares with).
	for {
		c := slot.claim.Load()
		if c > i {
			return // a later push already took h's place
		}
		if slot.claim.CompareAndSwap(c, i) {
			break
		}
	}
	for {
		old := slot.h.Load()
		if slot.claim.Load() > i {
			return
		}
		if slot.h.CompareAndSwap(old, h) {
			return
		}
	}
}

// newestFirst yields the statuses of the commands kept, newest first.
func (r *statusRing) newestFirst(yield func(CommandStatus) bool) {
	// The pushes fill the slots from the first, up to the bound: as many
	// commands are kept as slots are filled.
	n, kept := r.n.Load(), uint64(0)
	for kept < trackRingSize && r.slots[kept].h.Load() != nil {
		kept++
	}
	for k := range kept {
		if !yield(r.slots[(n-1-k)%kept].h.Load().snapshot()) {
			return
		}
	}
}

// find returns the statuses matching prefix and state, at most limit
// (findCommandStatus).
func (t *commandTracker) find(prefix string, state CommandState, limit int) []CommandStatus {
	for i := range t.shards {
		t.shards[i].mu.Lock()
		defer t.shards[i].mu.Unlock()
	}
	pick := func(list iter.Seq[CommandStatus]) []CommandStatus {
		var out []CommandStatus
		for s := range list {
			if len(out) == limit {
				break
			}
			if strings.HasPrefix(s.CommandID, prefix) {
				out = append(out, s)
			}
		}
		return out
	}
	pending := func() []CommandStatus {
		list := make([]CommandStatus, 0, t.npending.Load())
		for i := range t.shards {
			for _, h := range t.shards[i].pending {
				for ; h != nil; h = h.next {
					list = append(list, h.snapshot())
				}
			}
		}
		slices.SortFunc(list, func(a, b CommandStatus) int { return b.Started.Compare(a.Started) })
		return list
	}
	var out []CommandStatus
	switch state {
	case CommandStatePending:
		out = pick(slices.Values(pending()))
	case CommandStateSucceeded:
		out = pick(t.succeeded.newestFirst)
	case CommandStateFailed:
		out = pick(t.failed.newestFirst)
	default:
		out = append(append(pick(t.failed.newestFirst), pick(slices.Values(pending()))...), pick(t.succeeded.newestFirst)...)
	}
	if len(out) > limit {
		out = out[:limit]
	}
	for i := range out { // copies: the caller may keep them
		out[i].ActAs = slices.Clone(out[i].ActAs)
		out[i].Updates.Created = slices.Clone(out[i].Updates.Created)
		out[i].Updates.Archived = slices.Clone(out[i].Updates.Archived)
	}
	if out == nil {
		out = []CommandStatus{}
	}
	return out
}
