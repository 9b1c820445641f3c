package ledger

import (
	"io"
	"log/slog"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Default limits, as Canton 3.5 configures them.
const (
	DefaultMaxPartiesPageSize = 10000
	DefaultMaxUsersPageSize   = 1000
	DefaultMaxRightsPerUser   = 1000
	DefaultListLimit          = 200
)

// DefaultMaxDARUncompressedSize bounds what one DAR upload or validation
// may inflate: 128 MiB in total, of which at most 1 MiB of manifest (real
// DARs inflate 4 to 5 times, so this is far above any DAR an 8 MiB request
// body can carry). Canton's limits are 1 GiB per entry and 2 GiB in total;
// ledgernode's are lower so that a small zip bomb cannot make an embedded
// node allocate gigabytes.
const DefaultMaxDARUncompressedSize int64 = 128 << 20

// DefaultMinFreeDisk is the free disk space an on-disk node keeps when
// Options.MinFreeDisk is 0: room for the largest merge Badger may have
// to finish with the node's options.
const DefaultMinFreeDisk int64 = store.DefaultMinFreeDisk

// Options configures a Node. The zero value is usable: with neither Dir nor
// InMemory set, Open opens an in-memory node with Canton's default limits.
type Options struct {
	// Dir is the Badger directory of a durable node. Reopening a directory
	// resumes where the node stopped.
	Dir string
	// InMemory keeps everything in memory (no files at all). It is implied
	// when Dir is empty; setting it with Dir is an error.
	InMemory bool

	// ParticipantID is a bare name (the namespace is then the node's own key
	// fingerprint) or a full "name::1220…" id used verbatim, also as the
	// namespace of the parties it allocates. Empty: "participant1" on a new
	// store, the stored id on a reopened one. A reopened store refuses a
	// different id.
	ParticipantID string
	// Synchronizers are the connected synchronizer ids (Canton UIDs); the
	// first is the default. Empty: the stored list, or one generated id on a
	// new store.
	Synchronizers []string

	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
	// StaticTime, when set, runs the node on static time: every time the
	// node takes (record time, ledger effective time, deduplication,
	// creation times) is this clock's, which moves only forward and only
	// when told to (StaticClock.Set/Advance, Node.SetTime/AdvanceTime, or
	// ledgernode's admin route /ledgernode/v1/time), and GET /v2/version
	// reports static time as supported. Clock must then be nil. The time is
	// not stored as such: a reopened (or restored) node starts at the later
	// of its clock's time and its last update's record time, so that
	// record times never go back.
	StaticTime *StaticClock

	// Restore, when set, fills the new node's store from a Node.Snapshot
	// stream before the node opens, as if the snapshotted node were
	// reopened (same participant, parties, packages, contracts and ledger
	// end). The store must be empty: an in-memory node or a new directory.
	// A cut or altered snapshot is refused; a restore into a directory
	// that fails, or whose node then fails to open (another participant
	// id), leaves the directory as it was.
	Restore io.Reader
	// Logger receives the node's logs; nil means slog.Default().
	Logger *slog.Logger

	// SyncWrites makes every commit wait for fsync (durable nodes only).
	SyncWrites bool
	// Badger, when set, adjusts the Badger options ledgernode chose before
	// the store opens (cache sizes, table sizes, compaction).
	Badger func(badger.Options) badger.Options
	// MappedResident bounds the pages of an on-disk node's Badger files
	// (tables and value log, which Badger reads and writes through mmap)
	// that stay mapped in the process, so counted in its resident set:
	// over it, the node unmaps them from the process (Linux; madvise
	// MADV_DONTNEED), the oldest files first, and they stay in the page
	// cache, for the kernel to keep or drop. The pages of tables that
	// Badger has written and not yet put in a level (a compaction's new
	// tables) are reclaimed, out of the page cache too (MADV_PAGEOUT):
	// only that advice is safe for a mapping Badger may drop meanwhile.
	// It looks every 100 ms. 0 means 32 MiB; a negative
	// value leaves them mapped (the resident set then grows with the
	// ledger's files, until the kernel needs the memory).
	MappedResident int64
	// MinFreeDisk is the free space an on-disk node keeps on its file
	// system for Badger's own writes (memtable flushes, compactions):
	// Badger writes through mmap, so a full disk would kill the process
	// (SIGBUS) mid-write. Below it the node refuses every write but
	// pruning (commands, uploads, party, user and vetting changes…) with
	// INDEX_DB_SQL_TRANSIENT_ERROR (retryable), stores nothing of them,
	// and serves reads; writes resume once there is room. It looks every
	// second. A new node, and a restore, need that room to open. 0 means
	// DefaultMinFreeDisk (1 GiB); a negative value never refuses. Linux
	// and macOS.
	MinFreeDisk int64

	// MaxPartiesPageSize caps GET /v2/parties pages (default 10000).
	MaxPartiesPageSize int
	// MaxUsersPageSize caps user pages (default 1000).
	MaxUsersPageSize int
	// MaxRightsPerUser caps a user's rights (default 1000).
	MaxRightsPerUser int
	// MaxDeduplicationDuration is the deduplication period of commands that
	// name none (default 7 days).
	MaxDeduplicationDuration time.Duration
	// CheckpointDelay is how long a tailing read that asked for offset
	// checkpoints (OffsetRange.Checkpoints) waits, caught up and idle,
	// before it yields one (default DefaultCheckpointDelay, which the
	// version service reports as the maximum emission delay).
	CheckpointDelay time.Duration

	// MaxDARUncompressedSize bounds the total uncompressed size of a DAR's
	// entries (and so of each entry); beyond it ValidateDAR and UploadDAR
	// answer ZIP_BOMB. Zero means DefaultMaxDARUncompressedSize. With the
	// request body limit it bounds the memory one DAR request can make the
	// node allocate: about the body, plus twice this size (inflate buffers
	// grow by doubling), plus the decoded packages.
	MaxDARUncompressedSize int64

	// AllowDevLF accepts Daml-LF 2.dev packages (Canton's alpha version
	// support); by default only LF 2.1, 2.2 and 2.3 are accepted.
	AllowDevLF bool

	// JWKS configures the fetching of identity providers' key sets
	// (timeouts, HTTP client); the zero value uses identity's defaults.
	JWKS identity.JWKSOptions

	// ListLimit is http-list-max-elements-limit for the list endpoints
	// (default 200).
	ListLimit int

	// EngineCache keeps the Daml the node's engine compiles and the
	// top-level values it evaluates (engine.Cache). Nil means the one
	// cache of the process, shared by all nodes that leave this nil; it
	// never forgets. A node sees only the packages it stores whichever
	// cache it uses: set a cache of its own (engine.NewCache()) only to
	// free the compiled code with the node, or to measure compiling.
	EngineCache *engine.Cache
}

func (o Options) withDefaults() Options {
	if o.Dir == "" {
		o.InMemory = true
	}
	if o.StaticTime != nil {
		o.Clock = o.StaticTime.Now
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxPartiesPageSize <= 0 {
		o.MaxPartiesPageSize = DefaultMaxPartiesPageSize
	}
	if o.MaxUsersPageSize <= 0 {
		o.MaxUsersPageSize = DefaultMaxUsersPageSize
	}
	if o.MaxRightsPerUser <= 0 {
		o.MaxRightsPerUser = DefaultMaxRightsPerUser
	}
	if o.MaxDeduplicationDuration <= 0 {
		o.MaxDeduplicationDuration = DefaultMaxDeduplicationDuration
	}
	if o.CheckpointDelay <= 0 {
		o.CheckpointDelay = DefaultCheckpointDelay
	}
	if o.MaxDARUncompressedSize <= 0 {
		o.MaxDARUncompressedSize = DefaultMaxDARUncompressedSize
	}
	if o.ListLimit <= 0 {
		o.ListLimit = DefaultListLimit
	}
	return o
}

// spill is the store's spill of the node's kind (store.InMemorySpill,
// store.DiskSpill).
func (o Options) spill() store.Spill {
	if !o.InMemory {
		return store.DiskSpill
	}
	return store.InMemorySpill
}

// badgerOptions sizes Badger for the node: an in-memory node for a unit test
// must open in milliseconds and cost a few MB, so it gets small tables and
// no caches; a durable node keeps moderate tables instead of Badger's
// server-sized defaults. An in-memory node also compacts lazily (Badger's
// default of 5 level-0 tables before a compaction, a 64 MiB first level):
// its tables are in memory, so what compaction saves on reads is little,
// while rewriting the first level at every second memtable flush cost
// about 7 % of the CPU of a node committing Ping creates (BENCHMARKS.md,
// issue 13).
func (o Options) badgerOptions() badger.Options {
	var b badger.Options
	if o.InMemory {
		b = store.InMemoryBadgerOptions()
		if _, ok := o.Restore.(*preparedReader); ok {
			// A node of a PreparedSnapshot (one per test or script) is
			// short-lived and holds little of its own: each memtable
			// flush (one at Close at least) starts its table builder at
			// twice this size, 1 MiB rather than 4.
			b = b.WithBaseTableSize(512 << 10)
		}
	} else {
		b = store.DiskBadgerOptions(o.Dir, o.SyncWrites)
	}
	if o.Badger != nil {
		b = o.Badger(b)
	}
	return b
}
