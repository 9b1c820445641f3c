package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Contract arguments are stored as Daml JSON (log.go's txNode) and read
// back as Daml-LF values whenever the engine or an in-process runner
// uses a contract (storedContract): a Daml Script queries the active
// contracts after most steps and so decodes, and type-checks, the same
// stored arguments again and again. argCache keeps the decoded values.
//
// What the decoding depends on is the key: the stored bytes, the
// template id (which names the type, package id included) and the
// template's package as the node's lookup resolves it (the entry keeps
// the *lf.Package it was decoded against and a lookup that resolves the
// package id to another one misses). Package ids are the SHA-256 of the
// package payload (lf.DecodePayload), and a payload names its
// dependencies by id, so the template's package fixes every data type the
// argument's type reaches. The contract id is no part of the key: two
// contracts with the same template and stored argument have the same
// value. A failed decoding is not kept.
//
// Values are kept unchanged and handed out as copies (value.Clone,
// storedContract), so that a caller changing the value it got cannot
// change what the cache returns next; callers that only read them (the
// engine, which converts a contract to its own values at once, and the
// Daml Script runner through EngineContractsShared) get the cache's own
// (sharedContract), which spares copying every argument a script's
// queries read. The cache is shared by every node of the process (nodes
// opened from one prepared snapshot share their decoded packages, and so
// the entries) and bounded (generations, below).

// argCacheBudget bounds the estimated memory of the decoded arguments
// kept, in bytes.
const argCacheBudget = 8 << 20

var storedArgs = newArgCache(argCacheBudget)

// argCache is a bounded cache of decoded contract arguments, by stored
// bytes.
type argCache struct {
	gens generations[argEntry]
}

// argEntry is an argument decoded as of template templateID against pkg,
// with the memo of its conversion to engine values (engine.ArgMemo: the
// engines convert the shared value v once, not at every lookup; v is
// never changed, so the memo stays true to it).
type argEntry struct {
	templateID string
	pkg        *lf.Package
	v          value.Value
	memo       *engine.ArgMemo
}

func newArgCache(budget int) *argCache {
	return &argCache{gens: newGenerations[argEntry](budget)}
}

// argEntrySize estimates the memory an entry of n stored bytes takes:
// the bytes as its key and the decoded value (a few times the JSON). The
// engine value its memo keeps once an engine used the contract is of the
// same order as the decoded value and is not counted: the budget bounds
// the number of entries, and so their memory, within a small factor.
func argEntrySize(n int) int { return 4*n + 128 }

// decodeSharedMemo returns the argument of template templateID stored as
// raw, as value.FromJSON decodes it against pkg's template type (pkg the
// package lookup resolves templateID's package id to): the cached value,
// or from decode, which is then kept. The value is shared with every
// other caller and must not be changed (storedContract hands out copies).
// It also returns the memo of the value's conversion to engine values,
// kept with it (nil when the value is not kept: pkg nil).
func (c *argCache) decodeSharedMemo(templateID string, raw []byte, pkg *lf.Package, decode func() (value.Value, error)) (value.Value, *engine.ArgMemo, error) {
	same := func(e argEntry) bool { return e.templateID == templateID && e.pkg == pkg }
	if pkg != nil {
		if e, ok := c.gens.get(raw, same); ok {
			return e.v, e.memo, nil
		}
	}
	v, err := decode()
	if err != nil {
		return nil, nil, err
	}
	if pkg == nil {
		return v, nil, nil
	}
	e := argEntry{templateID: templateID, pkg: pkg, v: v, memo: new(engine.ArgMemo)}
	// Another caller may have kept its own decoding meanwhile: hand out
	// the entry kept, so that value and memo stay paired.
	e = c.gens.putOrGet(raw, e, argEntrySize(len(raw)), same)
	return e.v, e.memo, nil
}

// seed keeps v as the argument of template templateID stored as raw,
// decoded against pkg, for a v that is what decodeSharedMemo's decode gives
// for them (pkgView.seedArg); the cache owns v from then on. An entry
// already there is kept.
func (c *argCache) seed(templateID string, raw []byte, pkg *lf.Package, v value.Value) {
	if pkg == nil {
		return
	}
	same := func(e argEntry) bool { return e.templateID == templateID && e.pkg == pkg }
	c.gens.put(raw, argEntry{templateID: templateID, pkg: pkg, v: v, memo: new(engine.ArgMemo)}, argEntrySize(len(raw)), same)
}

// Contract records (the stored JSON of a contract's create node and
// state, commands.go's contractRecord) are read by every ACS query and
// every contract the engine fetches. recordCache keeps them decoded, by
// their stored bytes (decoding is a function of the bytes alone: an
// archived contract's record has other bytes). The records it returns
// are shared: callers read them and never change them (storedContract
// copies what it hands out).

// recordCacheBudget bounds the estimated memory of the decoded records
// kept, in bytes.
const recordCacheBudget = 8 << 20

var storedRecords = recordCache{gens: newGenerations[*contractRecord](recordCacheBudget)}

// recordCache is a bounded cache of decoded contract records.
type recordCache struct {
	gens generations[*contractRecord]
}

// recordEntrySize estimates the memory of a record of n stored bytes:
// the bytes as its key, and the decoded record (its create node's
// argument copied, its strings).
func recordEntrySize(n int) int { return 2*n + 256 }

// decode returns the record stored as raw (decodeContractRecord's), shared
// with other callers: it must not be changed.
func (c *recordCache) decode(raw []byte) (*contractRecord, error) {
	if rec, ok := c.gens.get(raw, nil); ok {
		return rec, nil
	}
	rec := new(contractRecord)
	if err := decodeContractRecord(raw, rec); err != nil {
		return nil, err
	}
	c.gens.put(raw, rec, recordEntrySize(len(raw)), nil)
	return rec, nil
}

// loadSharedRecord reads the record of contract cid through the record
// cache: nil, nil when there is none. The record must not be changed.
func loadSharedRecord(r *store.Reader, cid string) (*contractRecord, error) {
	rec, err := sharedRecordAt(r, cid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return rec, err
}

// decodedReader is a store.Reader or a store.Tx.
type decodedReader interface {
	Decoded(key []byte) (any, bool)
	GetDecoded(key []byte, fn func(val []byte, decoded any) error) error
}

// sharedRecordAt reads the record of contract cid from src: the decoded
// record its writer stored with it (setContractRecord), else through the
// record cache, which keeps nothing of the stored bytes it is handed (it
// copies its key and decodes into fresh memory), so they need no copy of
// their own: store.ErrNotFound when there is none. The record must not be
// changed.
func sharedRecordAt(src decodedReader, cid string) (*contractRecord, error) {
	key := store.ContractKey(cid)
	if d, ok := src.Decoded(key); ok {
		if rec, ok := d.(*contractRecord); ok {
			return rec, nil
		}
	}
	var rec *contractRecord
	err := src.GetDecoded(key, func(raw []byte, decoded any) error {
		if d, ok := decoded.(*contractRecord); ok {
			rec = d
			return nil
		}
		var err error
		rec, err = storedRecords.decode(raw)
		return err
	})
	return rec, err
}

// setContractRecord stages the write of contract record rec, stored as
// raw (its encoding, built for this write), handing rec over with it as
// its decoded form (store.Tx.SetOwnedDecoded): an in-memory script node's
// readers (sharedRecordAt) then share rec rather than look its bytes up
// in the record cache and decode them at the first read. rec is changed
// to what decodeContractRecord gives for raw (its lists that are empty
// become nil, as the encoding omits them; the create node's key digest
// and plainIDs, which are not stored, are dropped; a raw JSON member the encoding
// rewrites, such as one holding '<', becomes its rewriting), and neither
// the caller nor anyone else may change it afterwards.
func setContractRecord(t *store.Tx, rec *contractRecord, raw []byte) {
	normalizeRecord(rec, raw)
	t.SetOwnedDecoded(store.ContractKey(rec.Create.ContractID), raw, rec)
}

// setPooledContractRecord is setContractRecord of raw, a buffer of
// store.ValueBuffer that nothing else keeps (store.Tx.SetPooledDecoded).
func setPooledContractRecord(t *store.Tx, rec *contractRecord, raw []byte) {
	normalizeRecord(rec, raw)
	t.SetPooledDecoded(store.ContractKey(rec.Create.ContractID), raw, rec)
}

// setContractRecordLazy is setContractRecord of the record encode(rec)
// encodes, rendered at its first read where the store renders lazily
// (store.Tx.SetOwnedLazyDecoded; deferred.go): encode must encode rec as
// setContractRecord's raw, once rec is what its decoding gives (which
// encodes alike: lists omitted when empty, raw members written in their
// rewriting).
func setContractRecordLazy(t *store.Tx, rec *contractRecord, encode func(*contractRecord) []byte) {
	var raw []byte
	if verifyStoredRecords {
		raw = encode(rec)
	}
	normalizeRecord(rec, raw)
	if verifyStoredRecords {
		if again := encode(rec); !bytes.Equal(again, raw) {
			panic(fmt.Sprintf("ledger: contract record %s encodes otherwise once decoded:\n%s\n%s", rec.Create.ContractID, raw, again))
		}
	}
	t.SetOwnedLazyDecoded(store.ContractKey(rec.Create.ContractID), func() []byte { return encode(rec) }, rec)
}

// encodeCreatedRecord is the encoding of the record of a contract
// created by a submission (committable, commitInterpreted): its create
// node last.
func encodeCreatedRecord(rec *contractRecord) []byte {
	return encodeContractRecord(rec, encodeTxNode(&rec.Create))
}

// normalizeRecord changes rec to what decodeContractRecord gives for its
// encoding raw (setContractRecord), and checks it under
// verifyStoredRecords.
func normalizeRecord(rec *contractRecord, raw []byte) {
	c := &rec.Create
	c.keyHash, c.plainIDs = nil, false
	for _, l := range []*[]string{&c.Signatories, &c.Observers, &c.Stakeholders, &c.Acting, &c.Witnesses, &c.Maintainers, &c.ChoiceObservers} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	for _, m := range []*json.RawMessage{&c.Argument, &c.Key, &c.Result} {
		if len(*m) > 0 && rawNeedsRewrite(*m) {
			*m = appendRawJSON(nil, *m)
		}
	}
	if verifyStoredRecords {
		var want contractRecord
		if err := decodeContractRecord(raw, &want); err != nil || !reflect.DeepEqual(&want, rec) {
			panic(fmt.Sprintf("ledger: the decoded form of contract record %s is not its decoding (%v):\n%+v\n%+v", c.ContractID, err, rec, &want))
		}
	}
}

// verifyStoredRecords makes setContractRecord check every decoded form
// it stores against the decoding of its bytes (set by package ledger's
// tests).
var verifyStoredRecords bool

// loadContractCopy is loadContract (CONTRACT_NOT_FOUND when there is no
// record) through the record cache: a copy of the shared record whose own
// fields (State, offsets, …) the caller may set, but not the slices and
// bytes of its create node, which are shared.
func loadContractCopy(tx *store.Tx, cid string) (*contractRecord, error) {
	shared, err := sharedRecordAt(tx, cid)
	if errors.Is(err, store.ErrNotFound) {
		return loadContract(tx, cid) // its error
	}
	if err != nil {
		return nil, err
	}
	c := *shared
	return &c, nil
}

// generations is a bounded map from bytes to entries: two generations of
// at most budget/2 estimated bytes each, the older dropped when the newer
// is full; an entry used from the older one moves to the newer. It is
// safe for concurrent use.
type generations[E any] struct {
	mu sync.Mutex
	// max is the estimated size at which the newer generation is full.
	max int
	// cur is the newer generation, old the older; size is cur's
	// estimated size.
	cur, old map[string]sized[E]
	size     int
}

type sized[E any] struct {
	e    E
	size int
}

func newGenerations[E any](budget int) generations[E] {
	return generations[E]{max: budget / 2, cur: map[string]sized[E]{}}
}

// get returns the entry of key when there is one and valid (nil: any)
// accepts it.
func (g *generations[E]) get(key []byte, valid func(E) bool) (E, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if x, ok := g.cur[string(key)]; ok && (valid == nil || valid(x.e)) {
		return x.e, true
	}
	if x, ok := g.old[string(key)]; ok && (valid == nil || valid(x.e)) {
		delete(g.old, string(key))
		g.putLocked(string(key), x)
		return x.e, true
	}
	var zero E
	return zero, false
}

// put keeps e under key, of the estimated size, unless the newer
// generation has a valid entry there already (another caller's) or e is
// larger than a generation.
func (g *generations[E]) put(key []byte, e E, size int, valid func(E) bool) {
	if size > g.max {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if x, ok := g.cur[string(key)]; ok && (valid == nil || valid(x.e)) {
		return
	}
	g.putLocked(string(key), sized[E]{e, size})
}

// putOrGet is put that returns the entry kept under key: e, or the valid
// entry the newer generation has there already; e when e is larger than
// a generation (kept nowhere).
func (g *generations[E]) putOrGet(key []byte, e E, size int, valid func(E) bool) E {
	if size > g.max {
		return e
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if x, ok := g.cur[string(key)]; ok && (valid == nil || valid(x.e)) {
		return x.e
	}
	g.putLocked(string(key), sized[E]{e, size})
	return e
}

// putLocked keeps x under key in the newer generation, which becomes the
// older one first when x would not fit.
func (g *generations[E]) putLocked(key string, x sized[E]) {
	if prev, ok := g.cur[key]; ok {
		g.size -= prev.size
	} else if g.size+x.size > g.max {
		g.old, g.cur, g.size = g.cur, map[string]sized[E]{}, 0
	}
	g.cur[key] = x
	g.size += x.size
}
