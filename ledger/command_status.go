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
// over shards by their key's hash (taken outside any lock), each under a
// lock of its own, and mu guards only the finished ones. Finishing takes
// the command's shard's lock, then mu; find takes every shard's lock, in
// order, then mu, so that it sees each command in one place.
type commandTracker struct {
	shards [trackShards]pendingShard
	// npending counts the pending commands of all shards (changed under
	// a shard's lock).
	npending  atomic.Int64
	mu        sync.Mutex
	succeeded statusRing // the last trackMaxSucceeded
	failed    statusRing // the last trackMaxFailed
}

// trackShards is the number of shards of the pending commands.
const trackShards = 16

// pendingShard is a shard of the pending commands, on a cache line of its
// own.
type pendingShard struct {
	mu      sync.Mutex
	pending map[string]*trackedCommand // by commandKey
	_       [64 - 16]byte
}

// trackedCommand is a pending command.
type trackedCommand struct {
	key    string
	shard  *pendingShard
	status CommandStatus
	// oneActAs, oneCommand and oneCreated hold status's ActAs, Commands
	// and Updates.Created while they have one element (a one-party
	// create's), allocated with the entry.
	oneActAs   [1]string
	oneCommand [1]Command
	oneCreated [1]CommandContract
}

// commandKey is Canton's key of a command: command id, user id, actAs
// parties (as a set) and submission id.
func commandKey(c *Commands) string {
	if len(c.ActAs) == 1 { // the common case, without sorting a copy
		return c.CommandID + "\x00" + c.UserID + "\x00" + c.ActAs[0] + "\x00" + c.SubmissionID
	}
	actAs := slices.Clone(c.ActAs)
	slices.Sort(actAs)
	return strings.Join([]string{c.CommandID, c.UserID, strings.Join(slices.Compact(actAs), ","), c.SubmissionID}, "\x00")
}

// track registers a validated submission as pending (unless
// trackMaxPending commands are), as s.tracked; done records its outcome.
// Callers defer done right after: n.tracker.track(n.now, s); defer
// n.tracker.done(n.now, s, &e, &err). Times are the node's (now).
func (t *commandTracker) track(now func() time.Time, s *submission) {
	c := s.c
	// Built outside the lock, which every submission takes.
	h := &trackedCommand{key: commandKey(c), status: CommandStatus{
		Started: now(), State: CommandStatePending, CommandID: c.CommandID, UserID: c.UserID,
		SubmissionID: c.SubmissionID,
	}}
	h.status.ActAs = cloneInto(h.oneActAs[:0], c.ActAs)
	h.status.Commands = cloneInto(h.oneCommand[:0], c.Commands)
	sh := &t.shards[trackShard(c.CommandID)]
	h.shard = sh
	sh.mu.Lock()
	if t.npending.Load() >= trackMaxPending {
		sh.mu.Unlock()
		return
	}
	if sh.pending == nil {
		sh.pending = map[string]*trackedCommand{}
	}
	// The same command twice: the later one is tracked.
	n := len(sh.pending)
	sh.pending[h.key], s.tracked = h, h
	if len(sh.pending) > n {
		t.npending.Add(1)
	}
	sh.mu.Unlock()
}

// trackShard picks the shard of a command of id id (the same for every
// registration of one command) from a few of its bytes, where ids differ
// from one command to the next (a counter's last digits, a UUID's
// anywhere).
func trackShard(id string) int {
	if id == "" {
		return 0
	}
	n := len(id)
	return (int(id[n-1]) + 7*int(id[n/2]) + 3*int(id[n/4]) + n) % trackShards
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
	sh := h.shard
	sh.mu.Lock()
	if sh.pending[h.key] != h {
		sh.mu.Unlock()
		return // replaced by a later registration of the same command
	}
	delete(sh.pending, h.key)
	t.npending.Add(-1)
	t.mu.Lock()
	// The status is written in its slot of the ring, not copied there.
	if failed {
		s := t.failed.slot(trackMaxFailed)
		*s = h.status
		s.Completed, s.State, s.Error = now, CommandStateFailed, failure
	} else {
		s := t.succeeded.slot(trackMaxSucceeded)
		*s = h.status
		s.Completed, s.State = now, CommandStateSucceeded
		s.UpdateID, s.Offset, s.SynchronizerID, s.RecordTime = e.UpdateID, e.Offset, e.SynchronizerID, e.recordTime
	}
	t.mu.Unlock()
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
	u := CommandUpdates{Created: h.oneCreated[:0]}
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
	h.shard.mu.Lock()
	h.status.Updates = u
	h.shard.mu.Unlock()
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

// statusRing keeps the last statuses pushed, up to a bound, in place: once
// full, a push overwrites the oldest (rather than moving the bound's
// statuses down a slice on every finished command, under the tracker's
// lock).
type statusRing struct {
	list []CommandStatus // in push order from next (0 until full)
	next int             // the oldest, overwritten by the next push once full
}

// push adds s, dropping the oldest status when bound are kept.
func (r *statusRing) push(s CommandStatus, bound int) { *r.slot(bound) = s }

// slot returns the place of a new status for the caller to write,
// dropping the oldest status when bound are kept.
func (r *statusRing) slot(bound int) *CommandStatus {
	if len(r.list) < bound {
		r.list = append(r.list, CommandStatus{})
		return &r.list[len(r.list)-1]
	}
	s := &r.list[r.next]
	r.next = (r.next + 1) % len(r.list)
	return s
}

// newestFirst yields the statuses kept, newest first.
func (r *statusRing) newestFirst(yield func(CommandStatus) bool) {
	n := len(r.list)
	for k := range n {
		if !yield(r.list[(r.next-1-k+2*n)%n]) {
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
	t.mu.Lock()
	defer t.mu.Unlock()
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
				list = append(list, h.status)
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
