package ledger

// The active-contracts index by stakeholder (store keys w/ and z/, see
// ledger/internal/store/keys.go). Canton's ledger API server answers the
// active contracts of parties from filter tables of its index database
// that are indexed by party and by party and template
// (lapi_filter_activate_stakeholder in the V2_0__lapi_3.0.sql migration,
// read by ledger-api-core's platform/store/dao/events/ACSReader.scala), so
// a read costs what the readers hold, not what the ledger holds. This
// index is by party only: a template or interface filter is applied to
// the entries' template ids, which the entries carry, before any contract
// is loaded.
//
// The committer maintains the index in the same write as the contract
// records (commitInterpreted): a contract created by a transaction gets a
// w/<party>/<cid> entry for each stakeholder; archiving it replaces those
// by z/<party>/<archived offset><cid> entries. A transient contract
// (created and archived by one transaction) is never active at any offset
// and has no entry. A reassignment (unassign, assign) changes neither the
// stakeholders nor whether a contract is in the active contracts (in
// transit, it is listed as an incomplete unassignment), so it writes no
// entry: the contract record it rewrites holds the reassignment state the
// reads show.
//
// Reads take the contract record of every candidate the index yields
// and apply the same checks as a scan of all contracts would (active at
// the offset, visible to the filter). On disk, an active entry carries
// the contract's record (indexCreated), which every write of the record
// writes again, so the read scans the party's entries and looks nothing
// up; in memory, and for entries written before they carried records,
// the read looks the record up under its contract id. An entry left by a
// build interrupted by a crash is dropped by the next build, which runs
// on open; only missing entries could hide a contract, which that build
// prevents.
//
// A store written before the index has no KeyACSIndex: Open builds the
// index once (ensureACSIndex), in committer operations of at most
// acsIndexBatch entries each, and writes the marker with the last one.

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// acsIndexVersion is the value of store.KeyACSIndex.
const acsIndexVersion = "1"

// acsIndexBatch bounds the index entries one committer operation of the
// build writes or deletes (well within one Badger transaction, even with
// the in-memory store's small memtables).
const acsIndexBatch = 2000

// indexCreated writes the index entries of a contract created at offset
// created: one active entry per stakeholder, carrying record (the
// contract's stored record, store.ACSIndexRecordValue) when it is not
// nil. An on-disk node's entries carry the
// record (indexRecords): a party's active contracts are then read in one
// scan of its entries, in key order, rather than by a lookup of each
// record under its random contract id, which on a large store misses
// Badger's block cache for nearly every contract. The record in an entry
// is kept equal to the contract's: every write of the record of an
// active contract writes its entries again (reindexActive).
func indexCreated(t *store.Tx, c *txNode, created int64, record []byte) int {
	// The stakeholders, when they must be built, in an array on the
	// stack: only the keys below outlive this call.
	var arr [4]string
	hs := c.stakeholdersInto(arr[:0])
	// The value and the keys, built for this write, share one array.
	size := store.ACSIndexValueSize(c.TemplateID, c.PackageName)
	if record != nil {
		size += 1 + len(record)
	}
	for _, p := range hs {
		size += len(store.PrefixActiveByParty) + len(p) + 1 + len(c.ContractID)
	}
	keys := store.ValueBuffer(size)
	if record != nil {
		keys = store.AppendACSIndexRecordValue(keys, created, c.TemplateID, c.PackageName, record)
	} else {
		keys = store.AppendACSIndexValue(keys, created, c.TemplateID, c.PackageName)
	}
	val := keys[:len(keys):len(keys)]
	for _, p := range hs {
		start := len(keys)
		keys = store.AppendActiveByPartyKey(keys, p, c.ContractID)
		t.SetOwned(keys[start:len(keys):len(keys)], val)
	}
	// Nothing keeps the keys but the store: their buffer serves the next
	// writes once committed.
	t.Pool(keys)
	return len(hs)
}

// indexRecords tells whether the node's active entries carry the
// contracts' records: on disk only (in memory, a record lookup is cheap
// and a copy per stakeholder would cost memory).
func (n *Node) indexRecords() bool { return !n.opts.InMemory }

// entryRecord is raw when the node's active entries carry the contracts'
// records (indexRecords), else nil.
func (n *Node) entryRecord(raw []byte) []byte {
	if !n.indexRecords() {
		return nil
	}
	return raw
}

// reindexActive writes again the active entries of contract c, not
// archived, whose record was rewritten as raw (a reassignment changes the
// record but not the entries' keys). In memory too: the entries of a
// store restored from an on-disk node's snapshot carry records, which
// must not stay behind.
func (n *Node) reindexActive(t *store.Tx, c *contractRecord, raw []byte) {
	indexCreated(t, &c.Create, c.CreatedOffset, n.entryRecord(raw))
}

// indexArchived moves the index entries of a contract created at offset
// created and archived at offset archived from active to archived.
func indexArchived(t *store.Tx, c *txNode, created, archived int64) {
	val := store.ACSIndexValue(created, c.TemplateID, c.PackageName)
	for _, p := range c.stakeholders() {
		t.Delete(store.ActiveByPartyKey(p, c.ContractID))
		t.SetOwned(store.ArchivedByPartyKey(p, archived, c.ContractID), val)
	}
}

// indexRecord writes the index entries of a stored contract, whose
// stored record is raw, as the committer would have written them; it
// returns how many.
func (n *Node) indexRecord(t *store.Tx, c *contractRecord, raw []byte) int {
	switch {
	case c.State != contractArchived:
		return indexCreated(t, &c.Create, c.CreatedOffset, n.entryRecord(raw))
	case c.ArchivedOffset == c.CreatedOffset:
		return 0 // transient
	default:
		val := store.ACSIndexValue(c.CreatedOffset, c.Create.TemplateID, c.Create.PackageName)
		hs := c.Create.stakeholders()
		for _, p := range hs {
			t.SetOwned(store.ArchivedByPartyKey(p, c.ArchivedOffset, c.Create.ContractID), val)
		}
		return len(hs)
	}
}

// ensureACSIndex builds the active-contracts index of a store written
// before it (no store.KeyACSIndex); Open runs it before the node serves
// anything.
func (n *Node) ensureACSIndex() error {
	var built bool
	err := n.st.View(func(r *store.Reader) (err error) { built, err = hasKey(r, store.KeyACSIndex); return err })
	if err != nil || built {
		return err
	}
	return n.buildACSIndex(acsIndexBatch)
}

// buildACSIndex drops any index entries (those a build cut short left),
// indexes every contract record, and marks the index complete. Each step
// is a committer operation of at most about batch entries.
func (n *Node) buildACSIndex(batch int) error {
	start := time.Now()
	for _, prefix := range []string{store.PrefixActiveByParty, store.PrefixArchivedByParty} {
		for cut := true; cut; {
			_, err := n.st.Submit(func(t *store.Tx) (any, error) {
				deleted := 0
				cut = false
				return nil, t.Scan([]byte(prefix), nil, func(k, _ []byte) (bool, error) {
					t.Delete(k)
					deleted++
					cut = deleted == batch
					return !cut, nil
				})
			})
			if err != nil {
				return fmt.Errorf("ledger: clearing the active-contracts index: %w", err)
			}
		}
	}
	var from []byte
	contracts := 0
	for cut := true; cut; {
		_, err := n.st.Submit(func(t *store.Tx) (any, error) {
			entries, seen := 0, 0
			var last []byte
			cut = false
			err := t.Scan([]byte(store.PrefixContract), from, func(k, v []byte) (bool, error) {
				var c contractRecord
				if err := decodeContractRecord(v, &c); err != nil {
					return false, fmt.Errorf("contract record %s: %w", k, err)
				}
				entries += n.indexRecord(t, &c, v)
				seen++
				last = append(last[:0], k...)
				cut = entries >= batch
				return !cut, nil
			})
			if err != nil {
				return nil, err
			}
			if cut {
				from = append(last, 0)
			} else {
				t.Set(store.KeyACSIndex, []byte(acsIndexVersion))
			}
			contracts += seen
			return nil, nil
		})
		if err != nil {
			return fmt.Errorf("ledger: building the active-contracts index: %w", err)
		}
	}
	if contracts > 0 {
		n.log.Info("ledger: built the active-contracts index", "contracts", contracts, "took", time.Since(start))
	}
	return nil
}

// indexedContracts calls visit with the ids of the contracts that may be
// active at offset at for one of parties (contracts created at or before
// at that are active now or were archived after at), in contract-id
// order after the id after, each once, until visit returns false or an
// error. keep sees a party's entry's template id and package name first
// and drops it when it returns false. The candidates are the parties'
// index entries: visit checks each against its contract record, which it
// is handed when the active entry carries it (nil otherwise; valid only
// during the call).
func indexedContracts(r *store.Reader, parties []string, at int64, after string, keep func(party string, templateID, pkgName []byte) bool,
	visit func(cid string, record []byte) (bool, error)) error {
	// The contracts archived after at, in the order of their archival:
	// collected and sorted.
	var late []string
	for _, p := range parties {
		prefix := store.ArchivedByPartyPrefix(p)
		err := r.Scan(prefix, store.ArchivedByPartyKey(p, at+1, ""), func(k, v []byte) (bool, error) {
			co, tid, pkg, _, ok := store.DecodeACSIndexValue(v)
			if !ok || co > at || len(k) < len(prefix)+8 {
				return true, nil
			}
			cid := k[len(prefix)+8:]
			if string(cid) > after && keep(p, tid, pkg) {
				late = append(late, string(cid))
			}
			return true, nil
		})
		if err != nil {
			return err
		}
	}
	slices.Sort(late)
	sources := make([]func() (indexEntry, bool), 0, len(parties)+1)
	var scanErr error
	for _, p := range parties {
		next, stop := iter.Pull(activeEntries(r, p, at, after, keep, &scanErr))
		defer stop()
		sources = append(sources, next)
	}
	sources = append(sources, func() (indexEntry, bool) {
		if len(late) == 0 {
			return indexEntry{}, false
		}
		cid := late[0]
		late = late[1:]
		return indexEntry{cid: cid}, true
	})
	heads := make([]indexEntry, len(sources))
	live := make([]bool, len(sources))
	for i, next := range sources {
		heads[i], live[i] = next()
	}
	last, emitted := "", false
	for {
		best := -1
		for i := range sources {
			if live[i] && (best < 0 || heads[i].cid < heads[best].cid) {
				best = i
			}
		}
		if best < 0 {
			return scanErr
		}
		// The source moves on after the visit: the entry's record is
		// valid until then.
		e := heads[best]
		if !emitted || e.cid != last {
			last, emitted = e.cid, true
			if more, err := visit(e.cid, e.record); err != nil || !more {
				return err
			}
		}
		heads[best], live[best] = sources[best]()
		if scanErr != nil {
			return scanErr
		}
	}
}

// indexEntry is a candidate of indexedContracts: a contract id and the
// record its entry carries (nil when it carries none).
type indexEntry struct {
	cid    string
	record []byte
}

// activeEntries yields party's active entries after the id after,
// created at or before at and kept by keep, in contract-id order, with
// the record each carries (valid until the next entry is asked for); a
// store error ends it and is left in *errp.
func activeEntries(r *store.Reader, party string, at int64, after string, keep func(party string, templateID, pkgName []byte) bool, errp *error) iter.Seq[indexEntry] {
	return func(yield func(indexEntry) bool) {
		prefix := store.ActiveByPartyPrefix(party)
		var start []byte
		if after != "" {
			start = append(store.ActiveByPartyKey(party, after), 0)
		}
		err := r.Scan(prefix, start, func(k, v []byte) (bool, error) {
			co, tid, pkg, record, ok := store.DecodeACSIndexValue(v)
			if !ok || co > at || !keep(party, tid, pkg) {
				return true, nil
			}
			return yield(indexEntry{cid: string(k[len(prefix):]), record: record}), nil
		})
		if err != nil && *errp == nil {
			*errp = err
		}
	}
}

// loadRecord reads a contract record, its names shared through names
// when not nil (decodeContractRecordWith); nil, nil when there is none.
func loadRecord(r *store.Reader, cid string, names *internTable) (*contractRecord, error) {
	var c contractRecord
	// Decoded from the store's bytes, not a copy of them: the record
	// decoded keeps none of them (decodeContractRecordWith copies).
	err := r.GetFunc(store.ContractKey(cid), func(raw []byte) error { return decodeContractRecordWith(raw, &c, names) })
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// partyKeep is the keep function of indexedContracts for an event
// filter without a filter for any party: an entry of a party is kept when
// that party's filters select its template.
func partyKeep(ef *eventFilter) func(party string, templateID, pkgName []byte) bool {
	one := map[string][]string{}
	for p := range ef.byParty {
		one[p] = []string{p}
	}
	return func(party string, templateID, pkgName []byte) bool {
		if len(ef.byParty[party]) == 0 {
			return true // no template or interface filter: everything
		}
		w, _ := ef.witnesses(one[party], string(templateID), string(pkgName))
		return len(w) > 0
	}
}

// filterParties returns the parties of an event filter, sorted.
func filterParties(ef *eventFilter) []string {
	out := make([]string, 0, len(ef.byParty))
	for p := range ef.byParty {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
