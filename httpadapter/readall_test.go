package httpadapter

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAll: readAll reads what io.ReadAll reads, whatever the announced
// length (right, too short, too long, unknown) and however the reader
// splits its reads, and passes a read error on.
func TestReadAll(t *testing.T) {
	t.Parallel()
	body := strings.Repeat(`{"commands":[]}`, 70)
	for _, tc := range []struct {
		name   string
		length int64
	}{
		{"announced", int64(len(body))},
		{"shorter", 10},
		{"empty announced", 0},
		{"longer", int64(len(body)) + 100},
		{"unknown", -1},
		{"huge", 1 << 30},
	} {
		for _, split := range []bool{false, true} {
			var r io.Reader = strings.NewReader(body)
			if split {
				r = iotest.OneByteReader(r)
			}
			got, err := readAll(r, tc.length)
			if err != nil || !bytes.Equal(got, []byte(body)) {
				t.Errorf("%s (one byte at a time: %v): %d bytes, %v; want the body's %d", tc.name, split, len(got), err, len(body))
			}
		}
	}
	boom := errors.New("boom")
	got, err := readAll(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 3)
	if !errors.Is(err, boom) || string(got) != "abc" {
		t.Errorf("a failing reader: %q, %v; want abc, boom", got, err)
	}
}

// TestBodyLimitIsMaxBytesReaders: readBody's own limit reads what
// http.MaxBytesReader reads, and fails where it fails, at every limit
// around the body's length, however the reader splits its reads.
func TestBodyLimitIsMaxBytesReaders(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("0123456789", 7)
	for limit := int64(1); limit <= int64(len(body))+2; limit++ {
		for _, split := range []bool{false, true} {
			reader := func() io.Reader {
				var r io.Reader = strings.NewReader(body)
				if split {
					r = iotest.OneByteReader(r)
				}
				return r
			}
			want, wantErr := readSized(http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(reader()), limit).Read, int64(len(body)))
			l := bodyLimit{r: reader(), max: limit, n: limit}
			got, err := readSized(l.read, int64(len(body)))
			var mbe, wantMBE *http.MaxBytesError
			if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || errors.As(err, &mbe) != errors.As(wantErr, &wantMBE) ||
				(mbe != nil && *mbe != *wantMBE) {
				t.Errorf("limit %d (one byte at a time: %v): %q, %v; MaxBytesReader: %q, %v", limit, split, got, err, want, wantErr)
			}
		}
	}
}
