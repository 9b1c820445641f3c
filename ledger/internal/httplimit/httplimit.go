// Package httplimit is the physical limit of ledgernode's stack for one
// command: a minimal net/http server that does what a submit-and-wait
// create must physically do and nothing else. It reads the request body,
// writes, in one operation of the group-committing store (store.Submit,
// as the node's committer does), the keys and values a create stores (as
// many, of the same sizes), and answers a JSON reply of the size of the
// node's. No JSON decoding, no Daml, no checks, no deduplication read.
//
// Benchmarks run it side by side with the node (ledgertest.ServeLimit,
// examples/ledgerd's BenchmarkHTTPPingCreateVsLimit): the node's rate over
// the limit's, in the same run on the same machine, is how close the node
// comes to what HTTP and Badger allow.
package httplimit

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Write is one key and value a command stores: their sizes in bytes, and
// whether its keys arrive in offset order.
type Write struct {
	Key, Value int
	// Ordered keys are the write's prefix, the same filler and the offset
	// last, so that each request's key follows the one before, as a
	// party's update index entries (x/<party>/<offset>) do; the others
	// are filled from the request's hash, at random places of the key
	// space, as contract, update and command ids are.
	Ordered bool
}

// Shape is what one command costs the store and the reply.
type Shape struct {
	// Writes are the keys and values of the command's one store
	// operation, besides the ledger end (which the store writes itself
	// for an operation that takes an offset, as for the node's).
	Writes []Write
	// Update is the index in Writes of the update's record, whose key is
	// its prefix and the offset alone, so that the records are in offset
	// order as the node's are: the write Page reads.
	Update int
}

// PingCreate is the shape of one submit-and-wait create of Canton's Ping
// (parties alice and bob, signatory and observer) on an in-memory node,
// measured at the store (the writes of one operation, 2026-11-28, the
// update in the binary form with its checksum): its contract record
// (c/), the two stakeholders' active-contract index entries (w/), the
// update (u/), the update-id index (i/), the two parties' update index
// entries (x/) and the deduplication record (q/); with the ledger end, 9
// keys and 3 090 bytes.
var PingCreate = Shape{Writes: []Write{
	{Key: 140, Value: 846}, {Key: 216, Value: 133}, {Key: 214, Value: 133}, {Key: 10, Value: 947, Ordered: true},
	{Key: 70, Value: 8}, {Key: 86, Ordered: true}, {Key: 84, Ordered: true}, {Key: 66, Value: 117},
}, Update: 3}

// SelfPingCreateOnDisk is what an on-disk node stores for a Ping whose
// initiator is also its responder (examples/ledgerd's BenchmarkScale's
// creates; measured as PingCreate is): one stakeholder, so one
// active-contract index entry (w/), which on disk also holds the
// contract's record (store.ACSIndexRecordValue), and one update index
// entry (x/).
var SelfPingCreateOnDisk = Shape{Writes: []Write{
	{Key: 140, Value: 764}, {Key: 216, Value: 898}, {Key: 10, Value: 874, Ordered: true},
	{Key: 70, Value: 8}, {Key: 86, Ordered: true}, {Key: 66, Value: 117},
}, Update: 2}

// Bytes returns the keys and values the shape writes, in bytes (the
// ledger end excluded).
func (s Shape) Bytes() int {
	n := 0
	for _, w := range s.Writes {
		n += w.Key + w.Value
	}
	return n
}

// BadgerOptions are the Badger options of an in-memory node (ledger's
// Options.badgerOptions with InMemory; a test in package ledger keeps them
// equal).
func BadgerOptions() badger.Options { return store.InMemoryBadgerOptions() }

// Spill is the spill configuration of an in-memory node's store (ledger's
// Options.spill with InMemory).
var Spill = store.InMemorySpill

// DiskBadgerOptions are the Badger options of an on-disk node's store in
// dir (ledger's Options.badgerOptions with Dir).
func DiskBadgerOptions(dir string) badger.Options { return store.DiskBadgerOptions(dir, false) }

// DiskSpill is the spill configuration of an on-disk node's store
// (ledger's Options.spill with Dir).
var DiskSpill = store.DiskSpill

// Server is the limit's HTTP handler over its own store.
type Server struct {
	st    *store.Store
	shape Shape
}

// Open opens an in-memory store with the node's options and returns the
// server writing shape per request. Close closes the store.
func Open(shape Shape, logger *slog.Logger) (*Server, error) {
	st, err := store.Open(store.Options{Badger: BadgerOptions(), Spill: Spill, Logger: logger})
	if err != nil {
		return nil, err
	}
	return &Server{st: st, shape: shape}, nil
}

// OpenDir opens an on-disk store in dir with an on-disk node's options
// (its Badger options, spill, bound on mapped memory and value log
// garbage collection) and returns the server writing shape per request:
// the limit of a durable node, whose cost grows with its store as
// Badger's compactions do. Close closes the store.
func OpenDir(shape Shape, dir string, logger *slog.Logger) (*Server, error) {
	st, err := store.Open(store.Options{Badger: DiskBadgerOptions(dir), Spill: DiskSpill, Logger: logger})
	if err != nil {
		return nil, err
	}
	return &Server{st: st, shape: shape}, nil
}

// Close closes the store.
func (s *Server) Close() error { return s.st.Close() }

// LedgerEnd is the offset of the last committed request (one per request).
func (s *Server) LedgerEnd() int64 { return s.st.LedgerEnd() }

// ServeHTTP reads the body, commits the shape's writes for it and answers
// {"updateId":"1220…","completionOffset":N}, as the node's submit-and-wait.
// The keys and values are filled from the body's SHA-256 (a create hashes
// its contract and update ids) and the offset, so every request's keys
// are new.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sum := sha256.Sum256(body)
	off, err := s.commit(body, sum)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	out := make([]byte, 0, 128)
	out = append(out, `{"updateId":"1220`...)
	out = hex.AppendEncode(out, sum[:])
	out = append(out, `","completionOffset":`...)
	out = strconv.AppendInt(out, off, 10)
	out = append(out, '}')
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// Commit commits the shape's writes for a request body, as ServeHTTP
// does, and returns their offset: to fill the store before a benchmark
// reads it (Page).
func (s *Server) Commit(body []byte) (int64, error) {
	return s.commit(body, sha256.Sum256(body))
}

// commit commits the shape's writes for body, whose SHA-256 is sum.
func (s *Server) commit(body []byte, sum [32]byte) (int64, error) {
	v, err := s.st.Submit(func(tx *store.Tx) (any, error) {
		off := tx.NextOffset()
		ob := store.OffsetBytes(off)
		for i, wr := range s.shape.Writes {
			src := sum[:]
			if wr.Ordered {
				src = orderedFiller
			}
			key := make([]byte, wr.Key)
			fill(key, byte('a'+i), src, ob)
			val := make([]byte, wr.Value)
			fill(val, 0, body, nil)
			tx.SetOwned(key, val)
		}
		return off, nil
	})
	if err != nil {
		return 0, err
	}
	return v.(int64), nil
}

// orderedFiller fills an ordered write's key between its prefix and the
// offset: the same for every request, as a party's id is in its index.
var orderedFiller = []byte("party")

// fill fills b with prefix (when not 0) and "/", then tail at the end (as
// much of it as fits after the prefix) and src repeated in between.
func fill(b []byte, prefix byte, src, tail []byte) {
	i := 0
	if prefix != 0 && len(b) >= 2 {
		b[0], b[1] = prefix, '/'
		i = 2
	}
	end := len(b) - len(tail)
	if end < i {
		end = i
	}
	copy(b[end:], tail)
	for i < end && len(src) > 0 {
		i += copy(b[i:end], src)
	}
}

// Page is the handler of the limit of an updates page: for every request
// (any path) it reads the body and answers the size updates stored after
// offset from (one read of the store, in offset order) as one JSON-shaped
// reply, {"updates":[…]}, each update's stored bytes copied and repeated
// to updateBytes bytes (0: as stored), so that the reply has the size of
// the node's, which renders each update from its stored form. It decodes
// nothing: every request reads the same page.
func (s *Server) Page(from int64, size, updateBytes int) http.Handler {
	prefix := []byte{byte('a' + s.shape.Update), '/'}
	start := append(prefix[:2:2], store.OffsetBytes(from+1)...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, 4<<20)); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		// The reply's size, when known, is allocated at once: the limit
		// copies its bytes and nothing else.
		out := make([]byte, 0, 16+size*(max(updateBytes, 0)+1))
		out = append(out, `{"updates":[`...)
		n := 0
		err := s.st.View(func(rd *store.Reader) error {
			return rd.Scan(prefix, start, func(_, v []byte) (bool, error) {
				if n > 0 {
					out = append(out, ',')
				}
				if updateBytes <= 0 {
					out = append(out, v...)
				} else {
					out = slices.Grow(out, updateBytes)
					at := len(out)
					out = out[:at+updateBytes]
					fill(out[at:], 0, v, nil)
				}
				n++
				return n < size, nil
			})
		})
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		out = append(out, `]}`...)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
}
