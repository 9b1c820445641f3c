package store

import (
	"errors"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// An on-disk store whose Badger options keep values in the value log
// (ValueThreshold below the values' sizes) leaves there, for each value
// overwritten or deleted (a contract record rewritten when archived, a
// spilled value's chunks, a deleted blob), the old copy: Badger reclaims
// that space only when asked (DB.RunValueLogGC), rewriting the live
// values of a file whose discarded share is large enough. The store asks
// every ValueLogGC interval.

// DefaultValueLogGC is the interval of an on-disk store's value log
// garbage collection when Options.ValueLogGC is 0.
const DefaultValueLogGC = time.Minute

// valueLogDiscardRatio is the discarded share of a value log file above
// which RunValueLogGC rewrites it (Badger's documentation suggests 0.5: a
// rewrite then frees at least as much as it writes).
const valueLogDiscardRatio = 0.5

// gcLoop runs runValueLogGC every interval until the store closes.
func (s *Store) gcLoop(interval time.Duration) {
	s.every(interval, s.gcDone, func() {
		if _, err := s.runValueLogGC(); err != nil {
			s.log.Warn("store: value log garbage collection", "err", err)
		}
	})
}

// runValueLogGC rewrites value log files while Badger finds one worth it;
// it returns how many it rewrote. It never runs with trimMapped, which
// must know the files Badger is to delete (noteGC).
func (s *Store) runValueLogGC() (n int, err error) {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	before := s.vlogSizes()
	defer func() { s.noteGC(before, n) }()
	for {
		select {
		case <-s.quit:
			return n, nil
		default:
		}
		err := s.db.RunValueLogGC(valueLogDiscardRatio)
		switch {
		case err == nil:
			n++
		case errors.Is(err, badger.ErrNoRewrite), errors.Is(err, badger.ErrRejected), errors.Is(err, badger.ErrDBClosed):
			return n, nil
		default:
			return n, err
		}
	}
}
