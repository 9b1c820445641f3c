package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"

	"github.com/dgraph-io/badger/v4/pb"
	"google.golang.org/protobuf/proto"
)

// A Backup stream is backupMagic, then batches, then a trailer. A batch is
// its size (uint64, little-endian), a KVList message and the message's
// CRC-32C (uint32, little-endian); the trailer is the size endMark and the
// number of batches (uint64, little-endian). DB.Load reads batches without
// the checksum (frameReader strips it): it checks nothing itself, and it
// takes the end of a stream cut at a batch boundary for the end.

// endMark is the size field of the trailer.
const endMark = math.MaxUint64

// maxFrame bounds the size of one batch read back (the reader allocates
// as the bytes arrive: readGrowing). A batch is about backupBatch
// bytes, plus one entry (a blob chunk or a small value) beyond it.
const maxFrame = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errTruncated and errCorrupt are what a cut or altered stream reads as.
var (
	errTruncated = errors.New("truncated snapshot: it ends before its trailer (was it copied whole?)")
	errCorrupt   = errors.New("corrupt snapshot: a batch does not match its checksum")
)

// writeKVList writes one batch.
func writeKVList(w io.Writer, list *pb.KVList) error {
	b, err := proto.Marshal(list)
	if err != nil {
		return err
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(b, castagnoli))
	_, err = w.Write(sum[:])
	return err
}

// writeTrailer ends a stream of frames batches.
func writeTrailer(w io.Writer, frames uint64) error {
	var t [16]byte
	binary.LittleEndian.PutUint64(t[:8], endMark)
	binary.LittleEndian.PutUint64(t[8:], frames)
	_, err := w.Write(t[:])
	return err
}

// readMagic reads and checks a stream's header.
func readMagic(r io.Reader) error {
	head := make([]byte, len(backupMagic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != backupMagic {
		if err == nil && string(head[:len(head)-2]) == backupMagic[:len(backupMagic)-2] {
			return fmt.Errorf("a snapshot of another ledgernode version (%q): restore it with that version", head[:len(head)-1])
		}
		return errors.New("not a ledgernode snapshot")
	}
	return nil
}

// readFrame reads the next batch, checked, into a new slice after
// reserve zero bytes (room for the caller's prefix); at the trailer it
// returns io.EOF after checking the number of batches read (frames).
func readFrame(r io.Reader, frames uint64, reserve int) ([]byte, error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, cutErr(err)
	}
	size := binary.LittleEndian.Uint64(n[:])
	if size == endMark {
		if _, err := io.ReadFull(r, n[:]); err != nil {
			return nil, cutErr(err)
		}
		if got := binary.LittleEndian.Uint64(n[:]); got != frames {
			return nil, fmt.Errorf("corrupt snapshot: %d batches, its trailer says %d", frames, got)
		}
		var extra [1]byte
		if k, _ := r.Read(extra[:]); k != 0 {
			return nil, errors.New("corrupt snapshot: bytes after its trailer")
		}
		return nil, io.EOF
	}
	if size > maxFrame {
		return nil, fmt.Errorf("corrupt snapshot: a batch of %d bytes", size)
	}
	b, err := readGrowing(r, make([]byte, reserve), int(size)+4)
	if err != nil {
		return nil, cutErr(err)
	}
	msg, sum := b[reserve:reserve+int(size)], b[reserve+int(size):]
	if crc32.Checksum(msg, castagnoli) != binary.LittleEndian.Uint32(sum) {
		return nil, errCorrupt
	}
	return b[:reserve+int(size)], nil
}

// readStep is how much readGrowing allocates ahead of the bytes read.
const readStep = 4 << 20

// readGrowing appends n bytes of r to b, allocating as they arrive, so
// that a corrupt size field in a cut stream costs no more memory than
// the stream holds.
func readGrowing(r io.Reader, b []byte, n int) ([]byte, error) {
	for n > 0 {
		k := min(n, readStep)
		b = slices.Grow(b, k)
		m, err := io.ReadFull(r, b[len(b):len(b)+k])
		b = b[:len(b)+m]
		if err != nil {
			return b, err
		}
		n -= k
	}
	return b, nil
}

// cutErr is the error of a stream that ends (err) before its trailer.
func cutErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errTruncated
	}
	return err
}

// readFrames calls fn with each batch of a stream (after its header), in
// order, and checks its trailer.
func readFrames(r io.Reader, fn func([]byte) error) error {
	for frames := uint64(0); ; frames++ {
		b, err := readFrame(r, frames, 0)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(b); err != nil {
			return err
		}
	}
}

// frameReader reads a stream's batches (after its header) as DB.Load
// reads them: size and message, no checksum, EOF after the trailer. A
// stream that is cut or altered ends early with err set, which the caller
// reports rather than what DB.Load makes of the early end.
type frameReader struct {
	r      io.Reader
	frames uint64
	buf    []byte // the rest of the current batch, in DB.Load's form
	err    error  // what ended the stream early
	done   bool   // the trailer is read
}

func (f *frameReader) Read(p []byte) (int, error) {
	if len(f.buf) == 0 {
		switch {
		case f.done:
			return 0, io.EOF
		case f.err != nil:
			return 0, f.err
		}
		// Read after room for DB.Load's size field: no copy.
		b, err := readFrame(f.r, f.frames, 8)
		if err == io.EOF {
			f.done = true
		} else if err != nil {
			f.err = err
		}
		if err != nil {
			return 0, err
		}
		f.frames++
		binary.LittleEndian.PutUint64(b, uint64(len(b)-8))
		f.buf = b
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}
