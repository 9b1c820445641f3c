package ledger

import (
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// activeNow calls visit once with the id of every contract that one of
// parties has an entry of in the active-contracts index (acsindex.go) of
// r's snapshot and that keep accepts (keep sees the entry's template id
// and package name), until visit returns false or an error. It is
// indexedContracts at the snapshot's own ledger end, where no entry was
// created later and no contract archived later, in no particular order:
// the caller sorts. Each party's entries are one scan (no merge of the
// parties' scans in contract-id order); a contract several of the parties
// see is visited once.
//
// With templateID (a stored template id; "" for none), keep must accept
// the entries of that template only: a store that keeps an index by
// template (store.Reader.ScanActiveOfTemplate: a Daml Script's node) then
// reads just the entries of templateID rather than every entry of the
// party (and keep is not called).
func activeNow(r *store.Reader, parties []string, templateID string, keep func(party string, templateID, pkgName []byte) bool,
	visit func(cid string) (bool, error)) error {
	var seen map[string]bool
	if len(parties) > 1 {
		seen = map[string]bool{}
	}
	more := true
	once := func(cid []byte) (bool, error) {
		if seen != nil {
			if seen[string(cid)] {
				return true, nil
			}
			seen[string(cid)] = true
		}
		var err error
		more, err = visit(string(cid))
		return more, err
	}
	for _, p := range parties {
		if templateID != "" {
			ok, err := r.ScanActiveOfTemplate(p, templateID, once)
			if err != nil || !more {
				return err
			}
			if ok {
				continue
			}
		}
		prefix := store.ActiveByPartyPrefix(p)
		err := r.Scan(prefix, nil, func(k, v []byte) (bool, error) {
			_, tid, pkg, _, ok := store.DecodeACSIndexValue(v)
			if !ok || !keep(p, tid, pkg) {
				return true, nil
			}
			return once(k[len(prefix):])
		})
		if err != nil || !more {
			return err
		}
	}
	return nil
}
