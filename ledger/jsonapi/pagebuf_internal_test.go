package jsonapi

import (
	"testing"
	"unsafe"
)

// drainPages empties the free list, so that a test sees only its own
// buffers.
func drainPages() {
	for {
		select {
		case <-freePages:
		default:
			return
		}
	}
}

func TestPageBufferReuse(t *testing.T) {
	drainPages()
	t.Cleanup(drainPages)
	same := func(a, b []byte) bool { return unsafe.SliceData(a[:1]) == unsafe.SliceData(b[:1]) }

	page := Body(append(pageBuffer(minPageBuffer), "a page"...))
	page.Release()
	again := pageBuffer(minPageBuffer)
	if len(again) != 0 || !same(again[:cap(again)], page[:cap(page)]) {
		t.Fatalf("a released page's buffer is not reused: len %d", len(again))
	}

	// A buffer too small for the next page is not handed out for it.
	Body(make([]byte, 0, minPageBuffer)).Release()
	if b := pageBuffer(2 * minPageBuffer); cap(b) < 2*minPageBuffer {
		t.Fatalf("pageBuffer(%d) has room for %d", 2*minPageBuffer, cap(b))
	}

	for _, tc := range []struct {
		name string
		cap  int
	}{
		{"small", minPageBuffer - 1},
		{"too large", maxPageBuffer + 1},
	} {
		drainPages()
		Body(make([]byte, 0, tc.cap)).Release()
		select {
		case b := <-freePages:
			t.Errorf("%s: a buffer of %d bytes was kept (cap %d)", tc.name, tc.cap, cap(b))
		default:
		}
	}

	// The list keeps pageBuffers at most; more releases are dropped.
	drainPages()
	for range pageBuffers + 3 {
		Body(make([]byte, 0, minPageBuffer)).Release()
	}
	if n := len(freePages); n != pageBuffers {
		t.Fatalf("the free list holds %d buffers, want %d", n, pageBuffers)
	}
}
