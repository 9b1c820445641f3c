package jsonapi

import "sync/atomic"

// Page answers are large (a page of 1000 Ping creates is 1.5 MB) and a
// new buffer of that size is cleared by the runtime before the emitters
// write it, and collected after: 5–8 % of an update page's CPU
// (BENCHMARKS.md, issue 23). The pages' bodies reuse buffers instead: a
// caller that has written a page's Body gives it back with Release. The
// free list is short and its buffers bounded, so what it keeps is at most
// pageBuffers × maxPageBuffer, whatever the load.

const (
	// pageBuffers is how many buffers the free list keeps: about the
	// pages rendered at once on a small machine.
	pageBuffers = 4
	// minPageBuffer and maxPageBuffer bound the buffers kept: a small
	// answer's buffer costs little to make and would only crowd the
	// list; a larger page's goes to the collector.
	minPageBuffer = 64 << 10
	maxPageBuffer = 8 << 20
)

var freePages = make(chan []byte, pageBuffers)

// pageBuffer returns an empty buffer for a page answer, with room for n
// bytes when a free one has it.
func pageBuffer(n int) []byte {
	select {
	case b := <-freePages:
		if cap(b) >= n {
			return b[:0]
		}
		release(b)
	default:
	}
	return make([]byte, 0, n)
}

// updatesPageSize is about the size of the last updates pages written:
// the size of a larger page at once, of a smaller one an eighth of the
// way down (a tail of small pages lowers it slowly). An updates page is
// written as it is read, its size unknown ahead: when the free list has
// no buffer, its new one has room for as much as the last pages (pages
// read one after another are mostly alike, and growing a buffer step by
// step allocates and copies it about twice over).
var updatesPageSize atomic.Int64

// noteUpdatesPage records the size n of an updates page written.
func noteUpdatesPage(n int) {
	old := updatesPageSize.Load()
	updatesPageSize.Store(max(int64(n), old-old/8))
}

// updatesPageBuffer returns an empty buffer for an updates page: a free
// one, else a new one with room for the last page's size (within the
// free list's bounds).
func updatesPageBuffer() []byte {
	select {
	case b := <-freePages:
		return b[:0]
	default:
	}
	n := updatesPageSize.Load()
	return make([]byte, 0, min(max(n+n/8, minPageBuffer), maxPageBuffer)) // an eighth more: pages grow
}

// release puts b on the free list when the list is not full and b's
// size is within the bounds.
func release(b []byte) {
	if cap(b) < minPageBuffer || cap(b) > maxPageBuffer {
		return
	}
	select {
	case freePages <- b[:0]:
	default:
	}
}

// Release gives the body's memory back to be reused by a later page
// answer. Only a caller done with b may call it: b's bytes change once
// another page is written into them. Calling it is optional (an
// unreleased body is collected as usual); httpadapter releases each page
// once it has written it.
func (b Body) Release() { release(b) }
