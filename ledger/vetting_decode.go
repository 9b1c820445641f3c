package ledger

import (
	"encoding/json"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/vetting"
)

// decodeVetting decodes a stored vetting record (vettingJSON's form) into
// a state of the caller's own (decodedVettingOf's, copied).
func decodeVetting(raw []byte) (vetting.State, error) {
	d, err := decodedVettingOf(raw)
	if err != nil {
		return vetting.State{}, err
	}
	return cloneVetting(d.st), nil
}

// decodedVettingOf returns the decoding of a stored vetting record,
// shared: nothing may change it.
//
// The last record decoded in the process is kept with its bytes and a
// record with the same bytes is not decoded again: decoding is a
// function of the bytes alone, and the nodes a Daml Script fixture opens
// (one per script) all start with the same record, whose JSON (one entry
// per vetted package, ~60 for the Splice Amulet test DAR) each decoded
// more than once (the package views of its first submission's snapshot
// and of its committer, its packages' reads): ~0.1 ms each, about 1 % of
// a median script of that suite.
func decodedVettingOf(raw []byte) (*decodedVetting, error) {
	if d := lastVetting.Load(); d != nil && d.raw == string(raw) {
		return d, nil
	}
	var rec vettingRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	d := &decodedVetting{raw: string(raw), st: vetting.State{Serial: rec.Serial}, vetted: make(map[string]bool, len(rec.Packages))}
	for _, p := range rec.Packages {
		d.st.Packages = append(d.st.Packages, vetting.VettedPackage{PackageID: p.ID, ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil})
		d.vetted[p.ID] = true
	}
	lastVetting.Store(d)
	return d, nil
}

// decodedVetting is a vetting record's bytes and its decoding, which no
// one changes: decodeVetting hands out copies of st, package views share
// vetted.
type decodedVetting struct {
	raw    string
	st     vetting.State
	vetted map[string]bool // the ids of st.Packages
}

// lastVetting is the last vetting record decodedVettingOf decoded.
var lastVetting atomic.Pointer[decodedVetting]

// cloneVetting returns a copy of st that shares nothing a caller may
// change with it: its packages and their times are copied.
func cloneVetting(st vetting.State) vetting.State {
	if st.Packages == nil {
		return st
	}
	pkgs := make([]vetting.VettedPackage, len(st.Packages))
	for i, p := range st.Packages {
		if p.ValidFrom != nil {
			t := *p.ValidFrom
			p.ValidFrom = &t
		}
		if p.ValidUntil != nil {
			t := *p.ValidUntil
			p.ValidUntil = &t
		}
		pkgs[i] = p
	}
	st.Packages = pkgs
	return st
}
