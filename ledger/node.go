// Package ledger is ledgernode's participant node: the only package that
// owns the Badger store. Every Ledger API operation is a method on *Node
// that takes a context first and returns typed results and an error that is
// (or wraps) an *apierr.Error.
//
// Every write goes through one committer goroutine that assigns offsets
// (int64, strictly increasing, gapless; ledger begin is 0), group-commits
// the waiting operations in one Badger transaction, and then publishes the
// new ledger end. A method returns after its commit.
//
// Authorization lives here, not in the HTTP adapter: attach the caller's
// identity.Principal to the context with WithPrincipal; a context without a
// Principal is a trusted in-process caller and may do everything.
//
// Commands run through the Daml engine (daml/engine) on a read snapshot
// outside the committer; see interpret.go and the README for what the
// ledger still does not do.
//
// The API is Go-typed: commands carry daml/value values and lf identifiers
// (Commands, CreateCommand, …), reads return the values of package
// ledger/update (transactions and their events, reassignments, topology
// transactions, completions) and take a ReadFormat or UpdateReadFormat.
// The JSON Ledger API is a layer of its own over these methods, package
// ledger/jsonapi; package ledger/ledgertest opens a node per test and has
// helpers to create, exercise and read with typed values.
package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// APIVersion is the Ledger API version the node reports.
const APIVersion = "3.5.10"

// Node is a Canton participant node. It is safe for concurrent use.
type Node struct {
	opts   Options
	log    *slog.Logger
	clock  func() time.Time
	static *StaticClock // nil on wall-clock time
	// sysClock says clock is time.Now (neither Options.Clock nor
	// StaticTime was set): its readings then carry the monotonic clock
	// the deadlines need, and a submission reads it once (nowMono).
	sysClock bool
	st       *store.Store
	met      *nodeMetrics

	participantID string
	namespace     string
	syncs         []string

	idpv     idpVerifiers
	pkgCache packageCache
	views    viewCache
	eng      *engine.Engine // runs the node's Daml (engines.go)

	// knownParties holds the parties a read found allocated (string keys,
	// empty values): parties are never removed, so a party once known
	// stays known, and the per-submission check that every actAs party
	// and informee is known (checkPartiesKnown) need not ask the store
	// again. Unknown parties are never kept.
	knownParties sync.Map

	pruning  pruneState     // prune.go
	tracker  commandTracker // command_status.go
	decoding decodeCache    // submit_decode.go
	dedup    *dedupFilter   // dedupfilter.go

	// hookInterpreted, set only by tests, runs between a submission's
	// interpretation and its commit.
	hookInterpreted func()
}

// participantRecord is the node's persisted identity.
type participantRecord struct {
	ParticipantID string   `json:"participantId"`
	Namespace     string   `json:"namespace"`
	NamespaceKey  []byte   `json:"namespaceKey"` // Ed25519 seed
	Synchronizers []string `json:"synchronizers"`
	CreatedAt     string   `json:"createdAt"`
}

var keyParticipant = store.MetaKey("participant")

// Open opens (or creates) a node. A new store gets the participant's
// identity (an Ed25519 namespace key whose fingerprint is the participant's
// namespace) and the participant_admin user with the ParticipantAdmin
// right. An existing directory resumes where it stopped: nothing is
// replayed at start-up.
//
// Options with both Dir and InMemory set are an error (as Badger treats
// them), not a silent in-memory node.
func Open(opts Options) (*Node, error) {
	if opts.Dir != "" && opts.InMemory {
		return nil, fmt.Errorf("ledger: Options.Dir (%q) and Options.InMemory are exclusive: set one", opts.Dir)
	}
	if opts.StaticTime != nil && opts.Clock != nil {
		return nil, errors.New("ledger: Options.Clock and Options.StaticTime are exclusive: set one")
	}
	sysClock := opts.Clock == nil && opts.StaticTime == nil
	opts = opts.withDefaults()
	n := &Node{opts: opts, log: opts.Logger, clock: opts.Clock, static: opts.StaticTime, sysClock: sysClock, met: newNodeMetrics()}
	n.eng = newEngine(n)
	restore, restored := opts.restoreSource()
	st, err := store.Open(store.Options{Badger: opts.badgerOptions(), Spill: opts.spill(), Logger: opts.Logger,
		OnCommitFailed: n.packagesChanged, OnSubmit: n.met.observeSubmit, Restore: restore, MappedResident: opts.MappedResident,
		MinFreeDisk: opts.MinFreeDisk})
	if err != nil {
		return nil, fmt.Errorf("ledger: opening the store: %w", err)
	}
	n.cachePackages(restored) // the packages of a PreparedSnapshot, which the store now holds
	n.st = st
	// A node that fails to open leaves a directory it restored into as it
	// was (st.Discard): a half-made node must not start next time, and the
	// restore must be possible again.
	for _, step := range []func() error{n.bootstrap, n.ensureACSIndex, n.resumeStaticTime} {
		if err := step(); err != nil {
			return nil, errors.Join(err, st.Discard())
		}
	}
	n.dedup = newDedupFilter(st)
	return n, nil
}

// Close stops the committer and closes the store. Operations already
// handed to the committer finish; later calls fail with SERVICE_NOT_RUNNING.
func (n *Node) Close() error {
	n.dedup.close()
	return n.st.Close()
}

// Ready returns nil while the node serves, and a SERVICE_NOT_RUNNING error
// once it is closed.
func (n *Node) Ready() error {
	if n.st.Closed() {
		return apierr.ServiceNotRunning.New("the ledger store is closed")
	}
	return nil
}

// ParticipantIDString returns the participant id (name::namespace).
func (n *Node) ParticipantIDString() string { return n.participantID }

// Synchronizers returns the connected synchronizer ids; the first is the
// default.
func (n *Node) Synchronizers() []string { return append([]string(nil), n.syncs...) }

func (n *Node) now() time.Time { return n.clock().UTC() }

// nowMono returns n.now() and a reading of the system clock with its
// monotonic clock, for deadlines: on the system clock one reading serves
// both.
func (n *Node) nowMono() (now, mono time.Time) {
	if n.sysClock {
		mono = time.Now()
		return mono.UTC(), mono
	}
	return n.now(), time.Now()
}

// bootstrap loads or creates the participant's identity. A store whose
// record this start leaves as it was is not written: a node on a nearly
// full disk (store.ErrDiskLow refuses writes) still opens and serves
// reads.
func (n *Node) bootstrap() error {
	var raw []byte
	err := n.st.View(func(r *store.Reader) (err error) {
		raw, err = r.Get(keyParticipant)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	var rec participantRecord
	if raw != nil {
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("ledger: corrupt participant record: %w", err)
		}
		if err := n.checkReopen(&rec); err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
		if bytes.Equal(mustJSON(rec), raw) {
			n.participantID, n.namespace, n.syncs = rec.ParticipantID, rec.Namespace, rec.Synchronizers
			return nil
		}
	}
	// Open runs alone: nothing writes the record between the read above
	// and this commit.
	_, err = n.st.Submit(func(tx *store.Tx) (any, error) {
		if raw == nil {
			var err error
			if rec, err = n.newParticipant(); err != nil {
				return nil, err
			}
			admin := userRecord{User: identity.User{ID: identity.DefaultParticipantAdmin,
				Metadata: identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{}}},
				Rights: []identity.Right{{Kind: identity.RightParticipantAdmin}}}
			setUserRecord(tx, admin)
			tx.Set(store.IDPMemberKey("", "u", admin.User.ID), nil)
		}
		tx.Set(keyParticipant, mustJSON(rec))
		return nil, nil
	})
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	n.participantID, n.namespace, n.syncs = rec.ParticipantID, rec.Namespace, rec.Synchronizers
	return nil
}

func (n *Node) newParticipant() (participantRecord, error) {
	seed := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return participantRecord{}, err
	}
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	fp := identity.Fingerprint(pub)
	rec := participantRecord{NamespaceKey: seed, CreatedAt: n.now().Format(time.RFC3339Nano)}
	id := n.opts.ParticipantID
	switch {
	case id == "":
		rec.ParticipantID, rec.Namespace = "participant1::"+fp, fp
	case strings.Contains(id, "::"):
		uid, err := identity.ParseUID(id)
		if err != nil {
			return participantRecord{}, fmt.Errorf("invalid participant id %q: %w", id, err)
		}
		rec.ParticipantID, rec.Namespace = id, uid.Namespace
	default:
		if err := identity.ValidateUIDIdentifier(id); err != nil {
			return participantRecord{}, fmt.Errorf("invalid participant name %q: %w", id, err)
		}
		rec.ParticipantID, rec.Namespace = id+"::"+fp, fp
	}
	syncs, err := n.synchronizerList(nil, fp)
	if err != nil {
		return participantRecord{}, err
	}
	rec.Synchronizers = syncs
	return rec, nil
}

// checkReopen verifies that the options agree with a stored identity and
// applies a changed synchronizer list.
func (n *Node) checkReopen(rec *participantRecord) error {
	if id := n.opts.ParticipantID; id != "" {
		same := id == rec.ParticipantID ||
			(!strings.Contains(id, "::") && id+"::"+rec.Namespace == rec.ParticipantID)
		if !same {
			return fmt.Errorf("the store belongs to participant %q, not %q", rec.ParticipantID, id)
		}
	}
	syncs, err := n.synchronizerList(rec.Synchronizers, "")
	if err != nil {
		return err
	}
	// A changed list connects and disconnects synchronizers, as a
	// participant's connections change: the contracts of one left out
	// stay, unusable until it is listed again. Worth a warning, since a
	// typo does it too.
	var dropped []string
	for _, s := range rec.Synchronizers {
		if !slices.Contains(syncs, s) {
			dropped = append(dropped, s)
		}
	}
	if len(dropped) > 0 {
		n.log.Warn("ledger: the store's synchronizers are no longer all connected: their contracts cannot be used until they are listed again",
			"disconnected", dropped, "synchronizers", syncs)
	}
	rec.Synchronizers = syncs
	return nil
}

// synchronizerList returns the configured synchronizers, validated, or the
// stored ones, or (on a new store) one generated id.
func (n *Node) synchronizerList(stored []string, fp string) ([]string, error) {
	if len(n.opts.Synchronizers) == 0 {
		if len(stored) > 0 {
			return stored, nil
		}
		seed := make([]byte, 32)
		if _, err := rand.Read(seed); err != nil {
			return nil, err
		}
		return []string{"synchronizer::" + identity.Fingerprint(seed)}, nil
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range n.opts.Synchronizers {
		if _, err := identity.ParseUID(s); err != nil {
			return nil, fmt.Errorf("invalid synchronizer id %q: %w", s, err)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// submissionSynchronizer resolves a command's synchronizer_id ("" = the
// default) as Canton's submission does: a malformed id is INVALID_FIELD
// (CommandsValidator: requireSynchronizerId), one the participant is not
// connected to SUBMISSION_SYNCHRONIZER_NOT_READY (the router's).
func (n *Node) submissionSynchronizer(id string) (string, error) {
	if s, err := n.synchronizer(id); err == nil {
		return s, nil // a connected one: valid (synchronizerList parsed it)
	}
	if _, err := identity.ParseUID(id); err != nil {
		return "", apierr.InvalidField.New("synchronizer_id: %v", err)
	}
	return "", apierr.SubmissionSynchronizerNotReady.New("Trying to submit to a disconnected or not configured synchronizer.").
		WithResource("SYNCHRONIZER_ID", id)
}

// synchronizer resolves a requested synchronizer id ("" = the default).
func (n *Node) synchronizer(id string) (string, error) {
	if id == "" {
		return n.syncs[0], nil
	}
	for _, s := range n.syncs {
		if s == id {
			return s, nil
		}
	}
	return "", apierr.InvalidArgument.New("the participant is not connected to synchronizer %s", apierr.Quote(id)).
		WithResource("SYNCHRONIZER_ID", id)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("ledger: encoding %T: %v", v, err))
	}
	return b
}

// storeErr converts store failures to API errors.
func storeErr(err error) error {
	if err == nil {
		return nil
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, store.ErrClosed) {
		return apierr.ServiceNotRunning.New("the ledger store is closed")
	}
	if errors.Is(err, store.ErrDiskLow) {
		// The figures and the directory stay in the node's log (the
		// store logs them when writes stop): not for clients.
		return apierr.IndexDBSQLTransientError.New("the participant's disk is nearly full; writes are refused until there is space again")
	}
	if errors.Is(err, store.ErrTooLarge) {
		return apierr.RequestTooLarge.New("The request's writes exceed what one ledger transaction can hold; split it into smaller requests")
	}
	return apierr.InternalError.Wrap(err, "%v", err)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
