package store

import "sync"

// The buffers of values written with Tx.SetPooled come back here once
// their write is committed, for the next values of their size: a
// create's update and contract record (a KB each) would otherwise be
// garbage right after Badger copies them into its memtable. Buffers are
// fixed arrays of a few sizes, so that one goes back to the pool of its
// size without a header allocated for it.
var (
	valueBufs1K  = sync.Pool{New: func() any { return new([1 << 10]byte) }}
	valueBufs2K  = sync.Pool{New: func() any { return new([2 << 10]byte) }}
	valueBufs4K  = sync.Pool{New: func() any { return new([4 << 10]byte) }}
	valueBufs16K = sync.Pool{New: func() any { return new([16 << 10]byte) }}
)

// ValueBuffer returns an empty buffer with room for n bytes, for a value
// the caller then writes with Tx.SetPooled. A value that outgrows it
// (append reallocating) is written as well; its buffer is simply not
// reused.
func ValueBuffer(n int) []byte {
	switch {
	case n <= 1<<10:
		return valueBufs1K.Get().(*[1 << 10]byte)[:0]
	case n <= 2<<10:
		return valueBufs2K.Get().(*[2 << 10]byte)[:0]
	case n <= 4<<10:
		return valueBufs4K.Get().(*[4 << 10]byte)[:0]
	case n <= 16<<10:
		return valueBufs16K.Get().(*[16 << 10]byte)[:0]
	}
	return make([]byte, 0, n)
}

// putValueBuffer gives the buffer of a committed value back to the pool
// of its size (a buffer of no pool's size is left to the collector).
func putValueBuffer(b []byte) {
	switch cap(b) {
	case 1 << 10:
		valueBufs1K.Put((*[1 << 10]byte)(b[:cap(b)]))
	case 2 << 10:
		valueBufs2K.Put((*[2 << 10]byte)(b[:cap(b)]))
	case 4 << 10:
		valueBufs4K.Put((*[4 << 10]byte)(b[:cap(b)]))
	case 16 << 10:
		valueBufs16K.Put((*[16 << 10]byte)(b[:cap(b)]))
	}
}
