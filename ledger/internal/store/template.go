package store

import (
	"bytes"
	"encoding/binary"

	"github.com/dgraph-io/badger/v4/pb"
)

// Empty returns a Prepared snapshot of no entries: an in-memory store
// restored from its OverlayReader is an empty overlay store (overlay.go),
// a new store without a Badger instance of its own, which a short-lived
// store that is built once and then prepared (a Daml Script fixture's
// template node) uses rather than opening, filling and closing an
// in-memory Badger database (its memtable arenas alone are tens of MB).
func Empty() *Prepared { return &Prepared{} }

// Prepare returns the entries of an overlay store as of one version as a
// Prepared snapshot: what Prepare gives for the store's Backup stream,
// without writing and parsing the stream (which copies every value twice).
// The snapshot shares the store's values, which no writer changes once
// committed (overlayView.with keeps copies, or values handed over for
// good). ok is false for a store that is no overlay store: prepare its
// Backup stream then.
func (s *Store) Prepare() (p *Prepared, ok bool, err error) {
	if s.ov == nil {
		return nil, false, nil
	}
	if s.Closed() {
		return nil, true, ErrClosed
	}
	p = &Prepared{}
	err = s.ov.cur.Load().scan(nil, nil, false, func(k, v []byte) (bool, error) {
		// As Prepare reads backupOverlay's entries.
		kv := &pb.KV{Key: k, Value: v, UserMeta: []byte{0}, Version: 1, Meta: []byte{0}}
		if bytes.HasPrefix(k, []byte(prefixBlob)) && len(v) >= minShared && len(p.shared) < 1<<31 {
			p.shared = append(p.shared, v)
			kv.Value = binary.BigEndian.AppendUint32(nil, uint32(len(p.shared)-1))
			kv.UserMeta = []byte{metaShared}
		}
		p.kvs = append(p.kvs, kv)
		return true, nil
	})
	if err != nil {
		return nil, true, err
	}
	return p, true, nil
}
