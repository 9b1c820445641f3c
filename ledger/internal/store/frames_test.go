package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"runtime"
	"testing"
)

// TestReadFrameOfCorruptSize: a cut stream whose size field claims a
// batch near maxFrame is refused as truncated, having allocated about
// what the stream holds, not the size it claims; a whole batch reads
// back after the room its caller reserved.
func TestReadFrameOfCorruptSize(t *testing.T) {
	stream := binary.LittleEndian.AppendUint64(nil, maxFrame-1)
	stream = append(stream, bytes.Repeat([]byte{7}, 1000)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readFrame(bytes.NewReader(stream), 0, 8)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errTruncated) {
		t.Fatalf("err %v, want errTruncated", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4*readStep {
		t.Errorf("reading a cut batch allocated %d bytes", grew)
	}

	msg := []byte("a batch")
	whole := binary.LittleEndian.AppendUint64(nil, uint64(len(msg)))
	whole = append(whole, msg...)
	whole = binary.LittleEndian.AppendUint32(whole, crc32.Checksum(msg, castagnoli))
	b, err := readFrame(bytes.NewReader(whole), 0, 8)
	if err != nil || !bytes.Equal(b[8:], msg) || len(b) != 8+len(msg) {
		t.Fatalf("readFrame = %q, %v; want 8 reserved bytes and %q", b, err, msg)
	}
}
