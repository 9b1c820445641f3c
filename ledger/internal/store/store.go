package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// ErrClosed is returned by every call on a closed Store.
var ErrClosed = errors.New("store: closed")

// ErrNotFound is returned by Get for an absent key.
var ErrNotFound = errors.New("store: key not found")

// ErrTooLarge is returned when one operation's writes exceed what a single
// Badger transaction can hold.
var ErrTooLarge = errors.New("store: the operation's writes exceed one transaction")

// Options configures a Store.
type Options struct {
	// Badger is the Badger configuration, used as given.
	Badger badger.Options
	// Logger receives the committer's logs; nil means slog.Default().
	Logger *slog.Logger
	// MaxBatch bounds how many waiting operations one group commit takes
	// (default 256).
	MaxBatch int
	// Spill, when enabled, keeps large values out of the committing Badger
	// transaction (see Spill); an in-memory store needs it to hold values
	// above 1 MiB or operations above 15% of its memtable.
	Spill Spill
	// OnCommitFailed, when set, is called (in the committer) after a group
	// commit failed, so that caches filled from its staged writes can be
	// dropped.
	OnCommitFailed func()
	// OnSubmit, when set, is called after each Submit with how long the
	// operation took (waiting for the committer included) and whether it
	// failed.
	OnSubmit func(d time.Duration, failed bool)
	// Restore, when set, fills the new, empty store from a Backup stream
	// before anything else reads it; a store that is not empty is an error.
	Restore io.Reader
	// MappedResident bounds the pages of an on-disk store's tables and
	// value log that stay mapped in the process (resident.go): 0 means
	// DefaultMappedResident, a negative value no bound. Linux only.
	MappedResident int64
	// ValueLogGC is how often an on-disk store reclaims the space of
	// overwritten and deleted values in Badger's value log (vlog.go): 0
	// means DefaultValueLogGC, a negative value never.
	ValueLogGC time.Duration
	// MinFreeDisk is the free space an on-disk store keeps on its file
	// system: below it, Submit and PutBlob answer ErrDiskLow, and Open
	// refuses a Restore (disk.go). 0 means DefaultMinFreeDisk, a negative
	// value none. Linux and macOS.
	MinFreeDisk int64
}

// Op is one operation run by the committer. It reads the current state
// through tx (which sees the writes of the operations committed before it,
// including earlier ones of the same group), and stages its writes on tx.
// When it returns an error, nothing it staged is written and the offsets it
// took are given back. An Op must not keep tx after returning and must not
// block.
type Op func(tx *Tx) (any, error)

// Runner is an operation as a value of the caller's, whose Run is an Op
// (SubmitRunner): a pointer to state the caller has allocated anyway
// spares the closure an Op capturing that state would allocate.
type Runner interface {
	Run(tx *Tx) (any, error)
}

// Run runs op.
func (op Op) Run(tx *Tx) (any, error) { return op(tx) }

type result struct {
	v   any
	err error
}

type request struct {
	op  Runner
	res chan result
	// tx is the Tx op runs on; its writes' array serves the next
	// request (requests).
	tx Tx
	// end holds the value of the ledger end the committer writes with
	// op's writes, which Badger reads until the commit, before the
	// request is answered.
	end [8]byte
}

// requests are Submit's requests, reused once answered: a submission
// would otherwise allocate its request, the channel (two allocations),
// its Tx and the array of its writes.
var requests = sync.Pool{New: func() any { return &request{res: make(chan result, 1)} }}

// maxPooledWrites bounds the writes' arrays a pooled request keeps (a
// large transaction's goes with it).
const maxPooledWrites = 64

// release readies an answered request for the pool: the committer is
// done with it and its Tx (it answers last), and nobody else saw them
// (an Op must not keep its Tx).
func (r *request) release() {
	w := r.tx.writes
	if cap(w) > maxPooledWrites {
		w = nil
	}
	clear(w) // the keys and values are their writers'
	p := r.tx.pooled
	clear(p) // back in ValueBuffer's pools
	r.op, r.tx = nil, Tx{writes: w[:0], pooled: p[:0]}
	requests.Put(r)
}

// Store is the Badger database with its committer goroutine.
type Store struct {
	db       *badger.DB
	log      *slog.Logger
	maxBatch int
	onFail   func()
	onSubmit func(time.Duration, bool)
	spill    Spill

	spilledAny atomic.Bool // some value was ever spilled
	// shared are the values of the Prepared snapshot the store was
	// restored from (backup.go), which keys marked metaShared refer to.
	shared sharedValues
	// ov, for an in-memory store restored from Prepared.OverlayReader, is
	// its state, instead of db (nil then; overlay.go).
	ov *overlay
	// restored, for a store Open restored into a directory, is the
	// directory as it was before, for Discard.
	restored *restoreTarget

	// inMemory, dir and valueDir are Badger's options, for Sizes and
	// trimMapped (absolute).
	inMemory      bool
	dir, valueDir string
	// mappedResident is the budget of trimMapped (0: none).
	mappedResident int64
	// bgMu keeps trimMapped and runValueLogGC apart; gcPending are the
	// value log files that were on disk before a garbage collection that
	// rewrote gcPendingLeft of them, which Badger deletes (resident.go).
	bgMu          sync.Mutex
	gcPending     map[int64]bool
	gcPendingLeft int
	// trimDone, gcDone and diskDone are closed when trimLoop, gcLoop and
	// the loop of lookAtDisk return (nil when they do not run).
	trimDone, gcDone, diskDone chan struct{}
	// minFreeDisk is the free space an on-disk store keeps (0: none);
	// diskFree the free space at lookAtDisk's last look (-1: unknown), by
	// freeSpace.
	minFreeDisk int64
	diskFree    atomic.Int64
	freeSpace   func(dir string) (int64, error)

	reqs chan *request
	// pending is commitBatch's list of the applied operations, kept
	// between batches (the committer's own).
	pending []applied
	// pooled are the buffers of the batch's SetPooled values, given back
	// once the batch is committed (commitBatch).
	pooled [][]byte
	// entries are the Badger entries of the batch's writes (applyWrites),
	// reused once it is committed.
	entries entrySlab
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once

	// reads counts the reads of the database under way (beginRead), with
	// readsClosed set by Close, which waits for readsDone (closed by the
	// last read to end after it) before it closes the database: Badger
	// panics in a read that outlives its database (a stream's page read
	// while the node closed did).
	reads     atomic.Int64
	readsDone chan struct{}

	end    atomic.Int64
	mu     sync.Mutex
	notify chan struct{}
}

// Open opens the database, reads the ledger end and starts the committer.
func Open(opts Options) (*Store, error) {
	if or, ok := opts.Restore.(*overlayReader); ok && opts.Badger.InMemory {
		return openOverlayStore(opts, or.p)
	}
	if err := checkRestoreFinished(opts.Badger); err != nil {
		return nil, err
	}
	if err := removeEmptyLogFiles(opts.Badger); err != nil {
		return nil, err
	}
	var target *restoreTarget
	if opts.Restore != nil {
		// A restore writes through Badger's mappings too.
		if err := restoreRoom(opts); err != nil {
			return nil, err
		}
		var err error
		if target, err = newRestoreTarget(opts.Badger); err != nil {
			return nil, err
		}
	}
	db, err := openBadger(opts.Badger)
	if err != nil {
		// What Badger made of the directory goes (a nil target: none).
		return nil, errors.Join(err, target.undo())
	}
	s := newStore(opts)
	s.db = db
	if opts.Restore != nil {
		shared, err := restore(db, opts.Restore, target)
		if err != nil {
			return nil, err
		}
		s.restored = target
		s.shared = shared
		// The copy may hold spilled values: keep releasing their chunks.
		s.spilledAny.Store(true)
	}
	err = db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(KeyLedgerEnd)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error { s.end.Store(DecodeOffset(v)); return nil })
	})
	if err != nil {
		// A restored store must not stay, unmarked, for the next open.
		db.Close()
		return nil, errors.Join(err, target.undo())
	}
	go s.loop()
	s.startBackground(opts)
	return s, nil
}

// newStore is a Store of opts, without its database.
func newStore(opts Options) *Store {
	s := &Store{
		log:      opts.Logger,
		maxBatch: opts.MaxBatch,
		onFail:   opts.OnCommitFailed,
		onSubmit: opts.OnSubmit,
		spill:    opts.Spill,
		inMemory: opts.Badger.InMemory,
		dir:      opts.Badger.Dir,
		valueDir: opts.Badger.ValueDir,
		reqs:     make(chan *request),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
		notify:   make(chan struct{}),

		readsDone: make(chan struct{}),
	}
	s.diskFree.Store(-1)
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.maxBatch <= 0 {
		s.maxBatch = 256
	}
	return s
}

// openOverlayStore opens an overlay store on p (overlay.go).
func openOverlayStore(opts Options, p *Prepared) (*Store, error) {
	ov, err := openOverlay(p)
	if err != nil {
		return nil, err
	}
	s := newStore(opts)
	s.ov, s.inMemory, s.spill = ov, true, Spill{}
	if v, ok := ov.cur.Load().get(KeyLedgerEnd); ok {
		s.end.Store(DecodeOffset(v))
	}
	// No committer goroutine: Submit runs each operation on its caller's
	// goroutine (submitOverlay).
	close(s.done)
	return s, nil
}

// every runs f every d until the store closes, then closes done (a
// background loop of an on-disk store).
func (s *Store) every(d time.Duration, done chan struct{}, f func()) {
	defer close(done)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
			f()
		}
	}
}

// startBackground starts an on-disk store's trimLoop and gcLoop, and its
// looks at the free disk space.
func (s *Store) startBackground(opts Options) {
	if s.inMemory || opts.Badger.ReadOnly {
		return
	}
	if d, err := filepath.Abs(s.dir); err == nil {
		s.dir = d
	}
	if d, err := filepath.Abs(s.valueDir); err == nil {
		s.valueDir = d
	}
	if s.mappedResident = opts.MappedResident; s.mappedResident == 0 {
		s.mappedResident = DefaultMappedResident
	}
	if s.minFreeDisk = minFreeDisk(opts); s.minFreeDisk > 0 {
		if s.freeSpace == nil {
			s.freeSpace = freeSpace
		}
		if s.lookAtDisk(); s.diskFree.Load() < 0 {
			s.log.Warn("store: the free disk space is unknown here: no write is refused for want of it", "dir", s.dir)
		}
		s.diskDone = make(chan struct{})
		go s.every(diskInterval, s.diskDone, s.lookAtDisk)
	}
	if s.mappedResident > 0 && trimSupported {
		s.trimDone = make(chan struct{})
		go s.trimLoop()
	}
	interval := opts.ValueLogGC
	if interval == 0 {
		interval = DefaultValueLogGC
	}
	if interval > 0 {
		s.gcDone = make(chan struct{})
		go s.gcLoop(interval)
	}
}

// Close stops the committer (operations already taken are finished and
// answered; later ones get ErrClosed) and closes the database.
func (s *Store) Close() error {
	var err error
	s.once.Do(func() {
		close(s.quit)
		<-s.done
		if s.ov != nil {
			// An operation under way (submitOverlay) finishes first.
			s.ov.mu.Lock()
			s.ov.mu.Unlock() //lint:ignore SA2001 waits for the operation under way
		}
		if s.trimDone != nil {
			<-s.trimDone
		}
		if s.gcDone != nil {
			<-s.gcDone
		}
		if s.diskDone != nil {
			<-s.diskDone
		}
		if s.reads.Or(readsClosed)&^readsClosed != 0 {
			<-s.readsDone
		}
		if s.db != nil {
			err = s.db.Close()
		}
	})
	return err
}

// Discard closes a store that Open restored from a snapshot into a
// directory and removes what it wrote there, leaving the directory as it
// was before Open: for a caller that finds the restored store unfit (it
// belongs to another participant, say), so that the restore can be run
// again. For any other store it is Close.
func (s *Store) Discard() error {
	err := s.Close()
	if s.restored != nil {
		err = errors.Join(err, s.restored.undo())
	}
	return err
}

// Closed reports whether Close has been called.
func (s *Store) Closed() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// LedgerEnd returns the last published offset (0 on an empty ledger).
func (s *Store) LedgerEnd() int64 { return s.end.Load() }

// Changed returns a channel that is closed at the next publication of a new
// ledger end. Take it before reading state to wait without missing a change.
func (s *Store) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notify
}

// Submit hands op to the committer and waits until its writes are committed
// (or it failed). It returns what op returned.
func (s *Store) Submit(op Op) (any, error) { return s.SubmitRunner(op) }

// SubmitFreeing is Submit for an operation that deletes and adds little
// (pruning, the cleanup of a refused upload): the disk guard (disk.go)
// lets it through on a nearly full disk, since it is how space comes
// back.
func (s *Store) SubmitFreeing(op Op) (any, error) { return s.timed(op, false) }

// SubmitRunner is Submit of op.Run.
func (s *Store) SubmitRunner(op Runner) (any, error) { return s.timed(op, true) }

// timed is submit, reported to Options.OnSubmit.
func (s *Store) timed(op Runner, guarded bool) (any, error) {
	if s.onSubmit != nil {
		start := time.Now()
		v, err := s.submit(op, guarded)
		s.onSubmit(time.Since(start), err != nil)
		return v, err
	}
	return s.submit(op, guarded)
}

// submit runs op in the committer; guarded, it refuses on a nearly full
// disk (diskLow).
func (s *Store) submit(op Runner, guarded bool) (any, error) {
	if s.ov != nil {
		return s.submitOverlay(op)
	}
	if guarded {
		if err := s.diskLow(); err != nil {
			return nil, err
		}
	}
	r := requests.Get().(*request)
	r.op = op
	select {
	case s.reqs <- r:
	case <-s.quit:
		r.release()
		return nil, ErrClosed
	}
	res := <-r.res
	r.release()
	return res.v, res.err
}

// readsClosed is the bit of Store.reads that Close sets.
const readsClosed = 1 << 62

// beginRead counts a read of the database; false once Close began, when
// the read must not start. endRead ends it.
func (s *Store) beginRead() bool {
	for {
		n := s.reads.Load()
		if n&readsClosed != 0 {
			return false
		}
		if s.reads.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// endRead ends a read of beginRead; the last to end after Close began
// lets Close go on.
func (s *Store) endRead() {
	if s.reads.Add(-1) == readsClosed {
		close(s.readsDone)
	}
}

// View runs fn on a read-only snapshot of the store.
func (s *Store) View(fn func(r *Reader) error) error {
	return s.read(func(r Reader) error { return fn(&r) })
}

// read runs fn with a read snapshot: View's and ViewTx's body.
func (s *Store) read(fn func(r Reader) error) error {
	if s.Closed() {
		return ErrClosed
	}
	if s.ov != nil {
		return fn(Reader{ov: s.ov.cur.Load()})
	}
	if !s.beginRead() {
		return ErrClosed
	}
	defer s.endRead()
	err := s.db.View(func(txn *badger.Txn) error { return fn(Reader{txn: txn, shared: s.shared}) })
	if errors.Is(err, badger.ErrDBClosed) {
		return ErrClosed
	}
	return err
}

// DB returns the underlying database (for tests and benchmarks that compare
// with raw Badger writes). Nothing may Subscribe to it: the committer
// reuses the entries and value buffers of a commit once Commit returns
// (entrySlab, ValueBuffer), and Badger's publisher would read them after.
func (s *Store) DB() *badger.DB { return s.db }

func (s *Store) loop() {
	defer close(s.done)
	var batch []*request // the committer's, reused batch after batch
	for {
		var first *request
		select {
		case first = <-s.reqs:
		case <-s.quit:
			return
		}
		clear(batch) // the answered requests go back to their pool
		batch = append(batch[:0], first)
	drain:
		for len(batch) < s.maxBatch {
			select {
			case r := <-s.reqs:
				batch = append(batch, r)
			default:
				break drain
			}
		}
		s.commitBatch(batch)
	}
}

type applied struct {
	r      *request
	v      any
	writes []write
	end    int64
	spills [][]byte // pointers to the values it spilled
}

// commitBatch runs the operations of one group in order inside one Badger
// transaction (splitting it only when Badger says it is too big), commits,
// publishes the new ledger end and answers every caller.
func (s *Store) commitBatch(batch []*request) {
	end := s.end.Load()
	txn := s.db.NewTransaction(true)
	pending := s.pending[:0]
	for _, r := range batch {
		tx := &r.tx
		*tx = Tx{Reader: Reader{txn: txn, shared: s.shared}, base: end, writes: tx.writes, pooled: tx.pooled[:0]}
		v, err := runOp(r.op, tx)
		if err != nil {
			r.res <- result{err: err}
			continue
		}
		var spills [][]byte
		if idx := s.spill.toSpill(tx.writes, tx.bytes); len(idx) > 0 {
			// The chunks are written outside txn: commit the group so far,
			// write them, and go on in a transaction that sees them.
			end = s.finish(txn, pending)
			pending = nil
			tx.writes, spills, err = s.spillValues(tx.writes, idx)
			txn = s.db.NewTransaction(true)
			if err != nil {
				r.res <- result{err: err}
				continue
			}
		}
		newEnd := end + tx.next
		if tx.next > 0 {
			// KeyLedgerEnd is never changed; r.end lives until r is
			// answered, after the commit.
			tx.SetOwned(KeyLedgerEnd, AppendOffset(r.end[:0], newEnd))
		}
		writes, err := s.releaseOld(txn, tx.writes)
		if err != nil {
			s.dropSpills(spills)
			r.res <- result{err: err}
			continue
		}
		if err := s.applyWrites(txn, writes); err != nil {
			txn.Discard()
			if len(pending) > 0 {
				// Commit what fitted, then try this operation alone.
				txn = s.db.NewTransaction(true)
				for _, p := range pending {
					if err := s.applyWrites(txn, p.writes); err != nil {
						s.log.Error("re-applying writes that fitted before failed", "err", err)
					}
				}
				end = s.finish(txn, pending)
				pending = nil
				newEnd = end + tx.next
				if tx.next > 0 {
					tx.SetOwned(KeyLedgerEnd, AppendOffset(r.end[:0], newEnd))
				}
			}
			txn = s.db.NewTransaction(true)
			writes, err = s.releaseOld(txn, tx.writes)
			if err == nil {
				err = s.applyWrites(txn, writes)
			}
			if err != nil {
				txn.Discard()
				txn = s.db.NewTransaction(true)
				if errors.Is(err, badger.ErrTxnTooBig) {
					err = ErrTooLarge
				}
				s.dropSpills(spills)
				r.res <- result{err: err}
				continue
			}
		}
		pending = append(pending, applied{r: r, v: v, writes: writes, end: newEnd, spills: spills})
		end = newEnd
		s.pooled = append(s.pooled, tx.pooled...)
	}
	s.finish(txn, pending)
	clear(pending) // the answered requests go back to their pool
	s.pending = pending[:0]
	// The batch's transactions are committed or discarded: Badger keeps
	// their entries no longer.
	s.entries.reset()
	// Badger copied the committed values (into its memtable, its logs):
	// their buffers serve the next values.
	for _, b := range s.pooled {
		putValueBuffer(b)
	}
	clear(s.pooled)
	s.pooled = s.pooled[:0]
}

// finish commits txn, publishes the ledger end of the last applied operation
// and answers the callers. It returns the ledger end in force afterwards.
func (s *Store) finish(txn *badger.Txn, pending []applied) int64 {
	if len(pending) == 0 {
		txn.Discard()
		return s.end.Load()
	}
	if err := txn.Commit(); err != nil {
		s.log.Error("commit failed", "err", err, "operations", len(pending))
		if s.onFail != nil {
			s.onFail()
		}
		for _, p := range pending {
			s.dropSpills(p.spills)
			p.r.res <- result{err: fmt.Errorf("store: commit failed: %w", err)}
		}
		return s.end.Load()
	}
	return s.publish(pending)
}

// publish publishes the ledger end of the last of the committed operations
// and answers their callers. It returns the new ledger end.
func (s *Store) publish(pending []applied) int64 {
	newEnd := pending[len(pending)-1].end
	s.publishEnd(newEnd)
	for _, p := range pending {
		p.r.res <- result{v: p.v}
	}
	return newEnd
}

// publishEnd publishes newEnd as the ledger end and wakes those waiting
// for a change (Changed).
func (s *Store) publishEnd(newEnd int64) {
	if newEnd != s.end.Load() {
		s.end.Store(newEnd)
	}
	s.mu.Lock()
	close(s.notify)
	s.notify = make(chan struct{})
	s.mu.Unlock()
}

func runOp(op Runner, tx *Tx) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: operation panicked: %v", p)
		}
	}()
	return op.Run(tx)
}

// applyWrites stages writes in txn, a transaction of the batch being
// committed, their entries from s.entries.
func (s *Store) applyWrites(txn *badger.Txn, writes []write) error {
	for i := range writes {
		w := &writes[i]
		var err error
		if w.del {
			err = txn.Delete(w.key)
		} else {
			// txn.Set's entry (badger.NewEntry), with w.meta as
			// WithMeta sets it, every other field zero.
			e := s.entries.next()
			*e = badger.Entry{Key: w.key, Value: w.val, UserMeta: w.meta}
			err = txn.SetEntry(e)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// entrySlab hands out the Badger entries of a batch's writes from arrays
// that serve batch after batch: Badger keeps a transaction's entries
// until the transaction is committed or discarded, no longer
// (Txn.SetEntry; with no subscriber, see DB), and an entry allocated
// for each write was the most frequent allocation of a commit.
type entrySlab struct {
	chunks [][]badger.Entry // each of entryChunk entries
	used   int              // entries handed out, chunk after chunk
}

// entryChunk is the size of an entrySlab's arrays (a batch of a few
// creates fills a part of one).
const entryChunk = 256

// maxEntryChunks bounds the arrays an entrySlab keeps between batches
// (a large batch's others go to the collector).
const maxEntryChunks = 4

// next returns an entry for a write, to be set whole.
func (s *entrySlab) next() *badger.Entry {
	c, i := s.used/entryChunk, s.used%entryChunk
	if c == len(s.chunks) {
		s.chunks = append(s.chunks, make([]badger.Entry, entryChunk))
	}
	s.used++
	return &s.chunks[c][i]
}

// reset takes every entry back, once the transactions that used them
// are committed or discarded, dropping their keys and values.
func (s *entrySlab) reset() {
	for c := 0; c*entryChunk < s.used; c++ {
		clear(s.chunks[c][:min(entryChunk, s.used-c*entryChunk)])
	}
	s.used = 0
	if len(s.chunks) > maxEntryChunks {
		clear(s.chunks[maxEntryChunks:])
		s.chunks = s.chunks[:maxEntryChunks]
	}
}

// Reader reads one consistent snapshot.
type Reader struct {
	txn    *badger.Txn   // nil until a lazy snapshot opens (badger)
	snap   *lazySnapshot // ViewTx's: opened by the first read (nil: txn is set)
	shared sharedValues  // the store's
	ov     *overlayView  // instead of txn, in an overlay store
}

// badger returns the reader's Badger transaction, opening its lazy
// snapshot at the first read.
func (r *Reader) badger() *badger.Txn {
	if r.txn == nil {
		r.txn = r.snap.open()
	}
	return r.txn
}

// Get returns a copy of the value at key, or ErrNotFound.
func (r *Reader) Get(key []byte) ([]byte, error) {
	if r.ov != nil {
		v, ok := r.ov.get(key)
		if !ok {
			return nil, ErrNotFound
		}
		return slices.Clone(v), nil
	}
	item, err := r.badger().Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	switch item.UserMeta() & (metaSpilled | metaShared) {
	case 0:
		return item.ValueCopy(nil)
	case metaShared:
		var out []byte
		err = r.value(item, func(v []byte) error { out = slices.Clone(v); return nil })
		return out, err
	}
	var out []byte
	err = r.value(item, func(v []byte) error { out = v; return nil })
	return out, err
}

// GetFunc calls fn with the value at key, or returns ErrNotFound. The value
// is not copied, as Scan's are not: it is only valid during the call, and
// fn must not change it. It spares a caller that only reads the value (to
// decode it, or to look it up in a cache) Get's copy.
func (r *Reader) GetFunc(key []byte, fn func(val []byte) error) error {
	if r.ov != nil {
		v, ok := r.ov.get(key)
		if !ok {
			return ErrNotFound
		}
		return fn(v)
	}
	item, err := r.badger().Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return r.value(item, fn)
}

// GetDecoded is GetFunc that also hands fn the value's decoded form its
// writer gave SetOwnedDecoded, when the store kept one (an overlay store
// does; nil otherwise: fn decodes val itself). Neither may be changed.
func (r *Reader) GetDecoded(key []byte, fn func(val []byte, decoded any) error) error {
	if r.ov != nil {
		v, d, ok := r.ov.getDecoded(key)
		if !ok {
			return ErrNotFound
		}
		return fn(v, d)
	}
	return r.GetFunc(key, func(val []byte) error { return fn(val, nil) })
}

// ScanActiveOfTemplate calls fn with the contract id of every entry of
// party's active-contracts index (ActiveByPartyKey) whose value
// (ACSIndexValue) names template templateID, as it is stored, in
// contract-id order, until fn returns false or an error: what a Scan of
// ActiveByPartyPrefix(party) gives, filtered. ok is false when the store
// keeps no index by template (only an overlay store does, overlay.go):
// the caller scans the party's entries then. cid is only valid during the
// call.
func (r *Reader) ScanActiveOfTemplate(party, templateID string, fn func(cid []byte) (bool, error)) (ok bool, err error) {
	if r.ov == nil {
		return false, nil
	}
	var buf [256]byte // the prefix, on the stack when it fits
	prefix := byTemplatePrefix(buf[:0], party, templateID, nil)
	return true, r.ov.byTemplate.scan(prefix, prefix, false, func(k, _ []byte) (bool, error) {
		return fn(k[len(prefix):])
	})
}

// Decoded returns the decoded form kept with the value at key, when the
// store kept one (an overlay store, for a value written by
// SetOwnedDecoded): a read that needs no callback. false says nothing of
// the value (GetDecoded reads it).
func (r *Reader) Decoded(key []byte) (any, bool) {
	if r.ov == nil {
		return nil, false
	}
	_, d, ok := r.ov.getDecoded(key)
	return d, ok && d != nil
}

// Scan calls fn for every key with the prefix at or after start (nil: from
// the first), in key order, until fn returns false or an error. key and val
// are only valid during the call: fn copies what it keeps.
func (r *Reader) Scan(prefix, start []byte, fn func(key, val []byte) (bool, error)) error {
	seek := prefix
	if start != nil {
		seek = start
	}
	if r.ov != nil {
		return r.ov.scan(prefix, seek, false, fn)
	}
	it := r.badger().NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
	defer it.Close()
	for it.Seek(seek); it.ValidForPrefix(prefix); it.Next() {
		if more, err := r.visit(it.Item(), fn); err != nil || !more {
			return err
		}
	}
	return nil
}

type write struct {
	key, val []byte
	del      bool
	meta     byte // metaSpilled: val is a pointer to a spilled value
	chunk    bool // the deletion of a spilled value's chunk
	owned    bool // val is handed over for good (SetOwned)
	// decoded is val's decoded form (SetOwnedDecoded), kept by an
	// overlay store only, or a *lazyValue (SetOwnedLazy, val nil).
	decoded any
}

// value returns the value the write stages (a lazy one's rendering).
func (w *write) value() []byte { return valueOf(w.val, w.decoded) }

// decodedForm returns the decoded form the write stages (a lazy value's
// own).
func (w *write) decodedForm() any { return decodedOf(w.decoded) }

// lazyValue is a value an overlay store renders at its first read
// (SetOwnedLazy), kept as the decoded form of an entry with no bytes,
// with the value's own decoded form (SetOwnedLazyDecoded; nil: none).
type lazyValue struct {
	once    sync.Once
	render  func() []byte
	val     []byte
	decoded any
}

// bytes returns the value, rendered at the first call.
func (l *lazyValue) bytes() []byte {
	l.once.Do(func() {
		l.val = l.render()
		if l.val == nil {
			l.val = []byte{}
		}
		l.render = nil
	})
	return l.val
}

// valueOf returns the value of an entry holding val and decoded: val, or
// decoded's rendering when it is a lazy value.
func valueOf(val []byte, decoded any) []byte {
	if l, ok := decoded.(*lazyValue); ok {
		return l.bytes()
	}
	return val
}

// decodedOf returns the decoded form of an entry holding decoded: a
// lazy value's own.
func decodedOf(decoded any) any {
	if l, ok := decoded.(*lazyValue); ok {
		return l.decoded
	}
	return decoded
}

// Tx is an operation's view of the store inside a group commit: reads see
// the committed state, the writes of earlier operations of the group and
// this operation's own staged writes.
type Tx struct {
	Reader
	writes []write
	index  map[string]int // staged keys to writes, from indexFrom writes on
	// keys has the bit (keyBit) of every staged key set: a key whose
	// bit is clear is not staged, and its lookup compares no key.
	keys uint64
	// bytes bounds the bytes of the staged keys and values from above
	// (those of the writes replaced too), for toSpill.
	bytes int
	base  int64
	next  int64
	// pooled are the buffers handed to Pool, back to ValueBuffer once
	// the operation is committed.
	pooled [][]byte
}

// Get returns the value at key as this operation sees it.
func (t *Tx) Get(key []byte) ([]byte, error) {
	if i, ok := t.staged(key); ok {
		if t.writes[i].del {
			return nil, ErrNotFound
		}
		return slices.Clone(t.writes[i].value()), nil
	}
	return t.Reader.Get(key)
}

// GetFunc is Reader.GetFunc as this operation sees it.
func (t *Tx) GetFunc(key []byte, fn func(val []byte) error) error {
	if i, ok := t.staged(key); ok {
		if t.writes[i].del {
			return ErrNotFound
		}
		return fn(t.writes[i].value())
	}
	return t.Reader.GetFunc(key, fn)
}

// GetDecoded is Reader.GetDecoded as this operation sees it (a staged
// value's decoded form is the one staged with it).
func (t *Tx) GetDecoded(key []byte, fn func(val []byte, decoded any) error) error {
	if i, ok := t.staged(key); ok {
		if t.writes[i].del {
			return ErrNotFound
		}
		w := &t.writes[i]
		return fn(w.value(), w.decodedForm())
	}
	return t.Reader.GetDecoded(key, fn)
}

// Decoded is Reader.Decoded as this operation sees it.
func (t *Tx) Decoded(key []byte) (any, bool) {
	if i, ok := t.staged(key); ok {
		w := &t.writes[i]
		d := w.decodedForm()
		return d, !w.del && d != nil
	}
	return t.Reader.Decoded(key)
}

// Has reports whether key is present.
func (t *Tx) Has(key []byte) (bool, error) {
	_, err := t.Get(key)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Set stages a write of val at key. The key is copied: the caller may
// reuse it; val is kept and must not change until the commit.
func (t *Tx) Set(key, val []byte) { t.stage(write{key: slices.Clone(key), val: val}) }

// SetOwned stages a write of val at key as Set does, but the caller hands
// both over for good: it must not change either afterwards, even once the
// write is committed (for a key and a value built for this write, e.g. by
// UpdateKey and an encoder). Neither is copied, not even by an overlay
// store's commit, which copies the values of Set.
func (t *Tx) SetOwned(key, val []byte) { t.stage(write{key: key, val: val, owned: true}) }

// SetPooled stages a write of val, a buffer of ValueBuffer, at key, as
// SetOwned does; once the write is committed, the store gives the buffer
// back to ValueBuffer for a later value, so the caller must keep nothing
// of val (nor the key's bytes, if they share its buffer) past this call.
// An overlay store, which keeps its values, keeps val as SetOwned's.
func (t *Tx) SetPooled(key, val []byte) { t.SetPooledDecoded(key, val, nil) }

// SetPooledDecoded is SetPooled with decoded, val's decoded form, as
// SetOwnedDecoded hands it over (an overlay store keeps it).
func (t *Tx) SetPooledDecoded(key, val []byte, decoded any) {
	t.SetOwnedDecoded(key, val, decoded)
	t.Pool(val)
}

// Pool hands buf, a buffer of ValueBuffer that holds keys or values the
// operation wrote with SetOwned (a party's index keys, say), back to
// ValueBuffer once the operation is committed: the caller keeps nothing
// of it past this call. An overlay store, which keeps what it is given,
// keeps it.
func (t *Tx) Pool(buf []byte) {
	if t.ov == nil {
		t.pooled = append(t.pooled, buf)
	}
}

// SetOwnedDecoded is SetOwned with decoded, the form the caller's
// readers decode val to, which the caller hands over for good too (its
// readers share it and never change it): an overlay store keeps it with
// the value and GetDecoded hands it out, so that they need not decode
// val again; the other stores drop it. decoded must be what the readers'
// decoding of val gives (a reader of another store, or of the value
// after a restart, decodes it).
func (t *Tx) SetOwnedDecoded(key, val []byte, decoded any) {
	t.stage(write{key: key, val: val, owned: true, decoded: decoded})
}

// RendersLazily reports whether the store renders the values written
// with Tx.SetOwnedLazy at their first read (an overlay store, overlay.go)
// rather than at the write.
func (s *Store) RendersLazily() bool { return s.ov != nil }

// SetOwnedLazy is SetOwned of the value render returns: an overlay store
// (overlay.go) calls render at the value's first read, if it is ever
// read (a Daml Script's node stores records nobody reads), and keeps its
// bytes from then on; any other store calls it here. render must not
// fail, must return the same bytes whenever it is called, from any
// goroutine, and must hand them over as SetOwned's val is.
func (t *Tx) SetOwnedLazy(key []byte, render func() []byte) {
	t.SetOwnedLazyDecoded(key, render, nil)
}

// SetOwnedLazyDecoded is SetOwnedLazy with decoded, the decoded form of
// the value render returns, as SetOwnedDecoded hands it over (an overlay
// store keeps it, the others drop it).
func (t *Tx) SetOwnedLazyDecoded(key []byte, render func() []byte, decoded any) {
	if t.ov == nil {
		t.SetOwnedDecoded(key, render(), decoded)
		return
	}
	t.stage(write{key: key, owned: true, decoded: &lazyValue{render: render, decoded: decoded}})
}

// Delete stages the removal of key.
func (t *Tx) Delete(key []byte) { t.stage(write{key: slices.Clone(key), del: true}) }

// indexFrom is the number of staged writes from which a Tx finds its
// staged keys through a map (index) rather than by comparing them all:
// most operations stage a handful of writes.
const indexFrom = 16

// keyBit is the bit of key in Tx.keys: of its length, first and last
// bytes (the keys an operation stages differ in one of them mostly).
func keyBit(key []byte) uint64 {
	n := len(key)
	if n == 0 {
		return 1
	}
	return 1 << ((uint(n) + 5*uint(key[n-1]) + 11*uint(key[0])) & 63)
}

// staged returns the position of the write staged at key, if any.
func (t *Tx) staged(key []byte) (int, bool) {
	if t.keys&keyBit(key) == 0 {
		return 0, false
	}
	return t.find(key)
}

// find is staged of a key whose bit is set.
func (t *Tx) find(key []byte) (int, bool) {
	if t.index != nil {
		i, ok := t.index[string(key)]
		return i, ok
	}
	for i := range t.writes {
		if bytes.Equal(t.writes[i].key, key) {
			return i, true
		}
	}
	return 0, false
}

func (t *Tx) stage(w write) {
	bit := keyBit(w.key)
	if t.keys&bit != 0 {
		if i, ok := t.find(w.key); ok {
			t.bytes += len(w.key) + len(w.val)
			t.writes[i] = w
			return
		}
	}
	if t.writes == nil {
		t.writes = make([]write, 0, 16) // a submission's handful of writes (a Ping create stages 9)
	}
	t.keys |= bit
	t.bytes += len(w.key) + len(w.val)
	t.writes = append(t.writes, w)
	switch {
	case t.index != nil:
		t.index[string(w.key)] = len(t.writes) - 1
	case len(t.writes) >= indexFrom:
		t.index = make(map[string]int, 2*len(t.writes))
		for i, w := range t.writes {
			t.index[string(w.key)] = i
		}
	}
}

// NextOffset takes the next offset for an update of this operation. Offsets
// are contiguous across the ledger; if the operation fails they are given
// back.
func (t *Tx) NextOffset() int64 {
	t.next++
	return t.base + t.next
}

// LedgerEnd returns the ledger end as this operation sees it (including the
// offsets it took).
func (t *Tx) LedgerEnd() int64 { return t.base + t.next }

// Scan is Reader.Scan over the state this operation sees, its own staged
// writes included.
func (t *Tx) Scan(prefix, start []byte, fn func(key, val []byte) (bool, error)) error {
	var own []write
	for _, w := range t.writes {
		if bytes.HasPrefix(w.key, prefix) && (start == nil || bytes.Compare(w.key, start) >= 0) {
			own = append(own, w)
		}
	}
	if len(own) == 0 {
		return t.Reader.Scan(prefix, start, fn)
	}
	slices.SortFunc(own, func(a, b write) int { return bytes.Compare(a.key, b.key) })
	stop := false
	emitOwn := func(upTo []byte) error { // emits own writes with key < upTo (all when nil)
		for len(own) > 0 && !stop && (upTo == nil || bytes.Compare(own[0].key, upTo) < 0) {
			w := own[0]
			own = own[1:]
			if w.del {
				continue
			}
			more, err := fn(slices.Clone(w.key), slices.Clone(w.value()))
			if err != nil {
				return err
			}
			stop = !more
		}
		return nil
	}
	err := t.Reader.Scan(prefix, start, func(k, v []byte) (bool, error) {
		if err := emitOwn(k); err != nil || stop {
			return false, err
		}
		if len(own) > 0 && bytes.Equal(own[0].key, k) {
			return true, nil // shadowed by this operation's write, emitted below
		}
		more, err := fn(k, v)
		stop = !more
		return more, err
	})
	if err != nil || stop {
		return err
	}
	return emitOwn(nil)
}

// ViewTx is View with the snapshot as ReadOnlyTx gives it, taken at the
// Tx's first read rather than at once: a submission whose interpretation
// reads nothing from the store (a create of known parties, on a cached
// package view) then costs no Badger transaction, whose read mark Badger
// tracks on a goroutine of its own. Every read of the Tx still sees the
// one snapshot, of the store as it was at that first read. The Tx, and
// any ReadOnlyTx copy of it, must be used by one goroutine at a time, and
// not after fn returns: it serves a later ViewTx then.
func (s *Store) ViewTx(fn func(t *Tx) error) error {
	if s.Closed() {
		return ErrClosed
	}
	if s.ov != nil {
		return fn(&Tx{Reader: Reader{ov: s.ov.cur.Load()}})
	}
	if !s.beginRead() {
		return ErrClosed
	}
	defer s.endRead()
	t := viewTxs.Get().(*viewTx)
	t.snap.db = s.db
	t.Reader = Reader{snap: &t.snap, shared: s.shared}
	defer t.release()
	err := fn(&t.Tx)
	if errors.Is(err, badger.ErrDBClosed) {
		return ErrClosed
	}
	return err
}

// viewTx is ViewTx's Tx with its snapshot, in one allocation, which
// serves the next ViewTx once fn returned (viewTxs).
type viewTx struct {
	Tx
	snap lazySnapshot
}

// viewTxs are the viewTx ViewTx reuses: a submission's interpretation
// would otherwise allocate one.
var viewTxs = sync.Pool{New: func() any { return new(viewTx) }}

// release discards the snapshot and gives t back to viewTxs.
func (t *viewTx) release() {
	t.snap.discard()
	*t = viewTx{}
	viewTxs.Put(t)
}

// lazySnapshot is ViewTx's read snapshot, a Badger transaction opened at
// its first read (open) and discarded when ViewTx ends.
type lazySnapshot struct {
	db  *badger.DB
	txn *badger.Txn
}

func (l *lazySnapshot) open() *badger.Txn {
	if l.txn == nil {
		l.txn = l.db.NewTransaction(false)
	}
	return l.txn
}

func (l *lazySnapshot) discard() {
	if l.txn != nil {
		l.txn.Discard()
	}
}

// ReadOnlyTx wraps a read snapshot as a Tx, so that an Op can run as a dry
// run: its staged writes are simply dropped.
func ReadOnlyTx(r *Reader) *Tx { return &Tx{Reader: *r} }

// ScanReverse calls fn for every key with the prefix at or before start
// (nil: from the last), in descending key order, until fn returns false or
// an error. As with Scan, key and val are only valid during the call.
func (r *Reader) ScanReverse(prefix, start []byte, fn func(key, val []byte) (bool, error)) error {
	seek := start
	if seek == nil {
		seek = append(slices.Clone(prefix), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	}
	if r.ov != nil {
		return r.ov.scan(prefix, seek, true, fn)
	}
	it := r.badger().NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: true})
	defer it.Close()
	for it.Seek(seek); it.ValidForPrefix(prefix); it.Next() {
		if more, err := r.visit(it.Item(), fn); err != nil || !more {
			return err
		}
	}
	return nil
}

// visit calls fn with an item's key and value without copying them.
func (r *Reader) visit(item *badger.Item, fn func(key, val []byte) (bool, error)) (more bool, err error) {
	err = r.value(item, func(v []byte) error {
		var ferr error
		more, ferr = fn(item.Key(), v)
		return ferr
	})
	return more, err
}

// Cursor reads the values of keys under one prefix that a caller visits
// in ascending order, such as the log entries a party's index lists: a
// visit steps an iterator forward instead of looking the key up afresh,
// which costs far less when the keys are close together. It is valid
// while its Reader is; Close releases it.
type Cursor struct {
	r      *Reader
	it     *badger.Iterator
	prefix []byte
	sought bool
}

// Cursor returns a cursor over the keys with the prefix.
func (r *Reader) Cursor(prefix []byte) *Cursor {
	c := &Cursor{r: r, prefix: prefix}
	if r.ov == nil {
		c.it = r.badger().NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
	}
	return c
}

// cursorSteps is how many keys a visit steps over before it seeks.
const cursorSteps = 8

// Visit calls fn with the value at key, which must have the cursor's
// prefix and follow the keys of earlier visits, or returns ErrNotFound.
// val is only valid during the call.
func (c *Cursor) Visit(key []byte, fn func(val []byte) error) error {
	if c.it == nil {
		v, ok := c.r.ov.get(key)
		if !ok {
			return ErrNotFound
		}
		return fn(v)
	}
	steps := 0
	for c.sought && c.it.ValidForPrefix(c.prefix) && bytes.Compare(c.it.Item().Key(), key) < 0 && steps < cursorSteps {
		c.it.Next()
		steps++
	}
	if !c.sought || !c.it.ValidForPrefix(c.prefix) || bytes.Compare(c.it.Item().Key(), key) < 0 {
		c.it.Seek(key)
		c.sought = true
	}
	if !c.it.ValidForPrefix(c.prefix) || !bytes.Equal(c.it.Item().Key(), key) {
		return ErrNotFound
	}
	return c.r.value(c.it.Item(), fn)
}

// Close releases the cursor's iterator.
func (c *Cursor) Close() {
	if c.it != nil {
		c.it.Close()
	}
}

// valueThreshold is the size from which an on-disk store keeps a value in
// Badger's value log rather than in its LSM tree (Badger's
// ValueThreshold; in the tree, a 12-byte pointer). A Ping create writes
// about 1.9 kB of values of 512 bytes and more (its update, ~1 kB, and its
// contract record, ~780 bytes) and 0.7 kB of keys and smaller values (the
// indexes). In the tree, every value is rewritten by the compaction of
// each level it passes through, and the deeper the tree the more: the
// committing node's CPU per create grew by 1.7 times from the first to the
// last tenth of 100 000 creates, and its rate fell to 0.5–0.6. In the value
// log, a value is written once; the tree holds the keys and pointers, a
// third of the bytes, and the CPU per create stays flat (BENCHMARKS.md,
// issue 23). The value log is not compressed: the files take about twice
// the disk.
const valueThreshold = 512

// blockSize is an on-disk store's Badger block size: 16 KiB rather than
// Badger's 4 KiB. Each table's index holds every block's first key (with
// the ledger's keys of 70–150 bytes, ~175 bytes a block) and its bloom
// filter, and Badger reads every table's index through and checks its
// checksum when it opens the store: 38 MiB at a million Ping creates with
// 4 KiB blocks, the part of a restart that grew with the ledger. With 16
// KiB blocks the offsets are a quarter; a point read decompresses a
// larger block (BENCHMARKS.md, issue 23).
const blockSize = 16 << 10

// DiskBadgerOptions are the Badger options of an on-disk node's store in
// dir (nodeSettings included): moderate memtables and tables
// rather than Badger's server-sized defaults, values of valueThreshold
// bytes and more in the value log, larger blocks. syncWrites makes every
// commit wait for the disk.
func DiskBadgerOptions(dir string, syncWrites bool) badger.Options {
	b := badger.DefaultOptions(dir).
		// Memtables of 8 MiB: each is a skip list in an arena of its
		// size (Go heap) and a write-ahead log of its size (mapped);
		// a smaller list also costs each insert less.
		WithMemTableSize(8 << 20).
		// NumMemtables is how many full memtables may wait for
		// their flush (besides the one being flushed and the one
		// written) before writes stall. They pile up only when the
		// flushes wait for compactions (level 0 full), late in a
		// large ledger's run, when the memory peaked (BENCHMARKS.md,
		// issue 23): 1, so that at most one waits; with 2 (of
		// 16 MiB), a million Ping creates peaked at 413 MiB.
		WithNumMemtables(1).
		// No block cache: a table that is not compressed (below) is
		// read in place from its mapping, so the cache would keep
		// only blocks' headers, and its counters cost ~10 MiB of heap.
		WithBlockCacheSize(0).
		WithIndexCacheSize(16 << 20).
		WithBaseTableSize(4 << 20).
		WithBlockSize(blockSize).
		WithValueThreshold(valueThreshold).
		// Value log files of 16 MiB: at Open, Badger reads the
		// last one through (for its end), and its garbage
		// collection rewrites a file at a time.
		WithValueLogFileSize(16 << 20).
		WithNumCompactors(2).
		// Level 0 holds up to 48 memtable flushes (~300 MiB of
		// tables) before they are merged into the level below, and
		// writes stall at 96, rather than Badger's 5 and 15. The
		// ledger's index keys are random (contract, update and
		// command ids), so every flushed table overlaps the whole
		// level below, and each merge rewrites all of it: merging
		// more at once rewrites it less often. Tables are not
		// compressed: random hex ids compress by ~15 % with Snappy,
		// and compressing every compaction's tables and
		// decompressing every block read cost more CPU than those
		// bytes do. At a million Ping creates the last tenth's rate
		// was 0.50–0.53 of the first's with Badger's defaults,
		// 0.87–1.03 with 24 and 48 as with 48 and 96, whose runs
		// wrote 4 % faster and peaked lower in anonymous memory
		// (fewer merges: fewer bursts of table builders). A merge's
		// new tables stay mapped until it ends, but trimMapped
		// reclaims their pages as they are written. The tables take
		// ~20 % more disk (BENCHMARKS.md, issue 23).
		WithNumLevelZeroTables(48).
		WithNumLevelZeroTablesStall(96).
		WithCompression(options.None).
		WithSyncWrites(syncWrites)
	// Every level's tables at BaseTableSize: with Badger's default
	// multiplier (2 per level below the base level), the deep levels a
	// growing ledger fills get tables of 8, 16 … 128 MiB, and each
	// compaction's table builders (several at once, each starting at
	// twice the table size) grew the heap with the ledger: 457 MB at
	// 100 000 Ping creates, 942 MB at 300 000; 392 and 333 MB with
	// this (BENCHMARKS.md, issue 23). More, smaller files instead.
	b.TableSizeMultiplier = 1
	return nodeSettings(b)
}

// nodeSettings are what every node's Badger gets, in memory or on disk:
// no Badger logger (the committer logs what matters), no expvar metrics,
// and no conflict detection (one committer writes; it never conflicts).
func nodeSettings(b badger.Options) badger.Options {
	return b.WithLogger(nil).WithMetricsEnabled(false).WithDetectConflicts(false)
}

// InMemorySpill is an in-memory node's spill. Its memtable holds every
// value, and Badger takes no value above 1 MiB and no transaction above
// 15 % of the 8 MiB memtable: values above 64 KiB, and an operation's
// largest values beyond 512 KiB in all, are spilled, so that every value
// a client may send is storable without a large memtable.
var InMemorySpill = Spill{Above: 64 << 10, Inline: 512 << 10}

// DiskSpill is an on-disk node's spill. Values of valueThreshold bytes
// and more go to the value log (12-byte pointers in the transaction,
// whose limit is 15 % of the 8 MiB memtable), but one value must fit a
// value log file (16 MiB): an operation's largest values beyond 1 MiB in
// all are spilled, in chunks.
var DiskSpill = Spill{Inline: 1 << 20}

// InMemoryBadgerOptions are the Badger options of an in-memory node's
// store (nodeSettings included; package ledger adds the settings of a
// prepared snapshot's node): small memtables and tables, no compression and no
// caches (the data is in memory already), every value in the tree.
func InMemoryBadgerOptions() badger.Options {
	b := badger.DefaultOptions("").WithInMemory(true).
		WithMemTableSize(8 << 20).
		WithNumMemtables(2).
		WithNumLevelZeroTables(5).
		WithNumLevelZeroTablesStall(15).
		WithBaseLevelSize(64 << 20).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithIndexCacheSize(0).
		WithNumCompactors(2).
		WithBaseTableSize(2 << 20).
		WithValueThreshold(1 << 20)
	return nodeSettings(b)
}
