package httpadapter

import (
	"bytes"
	"errors"
	"io"
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
