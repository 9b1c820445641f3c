package ledger

import (
	"encoding/json"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/vetting"
)

// decodeVetting decodes a stored vetting record (vettingJSON's form).
//
// The last record decoded in the process is kept with its bytes and a
// record with the same bytes is copied from it rather than decoded
// again: decoding is a function of the bytes alone, and the nodes a
// Daml Script fixture opens (one per script) all start with the same
// record, whose JSON (one entry per vetted package, ~60 for the Splice
// Amulet test DAR) each decoded when it first read its packages (~0.1 ms,
// about 1 % of a median script of that suite).
func decodeVetting(raw []byte) (vetting.State, error) {
	if m := lastVetting.Load(); m != nil && m.raw == string(raw) {
		return cloneVetting(m.st), nil
	}
	var rec vettingRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return vetting.State{}, err
	}
	st := vetting.State{Serial: rec.Serial}
	for _, p := range rec.Packages {
		st.Packages = append(st.Packages, vetting.VettedPackage{PackageID: p.ID, ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil})
	}
	lastVetting.Store(&decodedVetting{raw: string(raw), st: cloneVetting(st)})
	return st, nil
}

// decodedVetting is a vetting record's bytes and its decoding, which no
// one changes: decodeVetting hands out copies.
type decodedVetting struct {
	raw string
	st  vetting.State
}

// lastVetting is the last vetting record decodeVetting decoded.
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
