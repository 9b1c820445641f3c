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

// TestUpdatesPageBuffer: an updates page's buffer is a free one when
// there is one, whatever its size (it grows as the page is written),
// else a new one with room for the last updates page (and an eighth
// more), within the free list's bounds.
func TestUpdatesPageBuffer(t *testing.T) {
	drainPages()
	t.Cleanup(drainPages)
	defer updatesPageSize.Store(updatesPageSize.Load())

	free := make([]byte, 0, minPageBuffer)
	Body(free).Release()
	updatesPageSize.Store(4 * minPageBuffer)
	if b := updatesPageBuffer(); cap(b) != minPageBuffer || unsafe.SliceData(b[:1]) != unsafe.SliceData(free[:1]) {
		t.Errorf("with a free buffer: a buffer of %d bytes, not the free one", cap(b))
	}
	for _, tc := range []struct {
		last     int64
		min, max int
	}{
		{0, minPageBuffer, minPageBuffer},
		{1 << 20, 1<<20 + 1<<17, 1<<20 + 1<<17},
		{64 << 20, maxPageBuffer, maxPageBuffer},
	} {
		updatesPageSize.Store(tc.last)
		if b := updatesPageBuffer(); cap(b) < tc.min || cap(b) > tc.max+tc.max/8 || len(b) != 0 {
			t.Errorf("after a page of %d bytes: a new buffer of %d bytes (len %d), want %d to %d", tc.last, cap(b), len(b), tc.min, tc.max)
		}
	}
}

// TestNoteUpdatesPage: a larger page sets the size at once, a smaller
// one lowers it by an eighth.
func TestNoteUpdatesPage(t *testing.T) {
	defer updatesPageSize.Store(updatesPageSize.Load())
	updatesPageSize.Store(0)
	for _, tc := range []struct{ page, want int64 }{
		{800, 800},
		{100, 700},
		{100, 613},
		{2000, 2000},
	} {
		noteUpdatesPage(int(tc.page))
		if got := updatesPageSize.Load(); got != tc.want {
			t.Errorf("after a page of %d bytes: %d, want %d", tc.page, got, tc.want)
		}
	}
}
