package engine

import (
	"strings"
	"testing"
)

// TestAppendTextPrepend checks that texts built by prepending in the
// room of a buffer are what concatenation gives, and that a text handed
// out earlier is not changed by the prepends after it, by a prepend to
// an older text of the same buffer, nor by one to a text that is not
// the buffer's.
func TestAppendTextPrepend(t *testing.T) {
	m := &Machine{}
	rest := Text(strings.Repeat("r", prependMin))
	var kept []Text
	var want []string
	s, w := rest, string(rest)
	for i := range 200 {
		piece := Text(strings.Repeat(string(rune('a'+i%26)), 1+i%7))
		s, w = m.appendText(piece, s), string(piece)+w
		kept, want = append(kept, s), append(want, w)
	}
	// A prepend to an older text (not at the front of the buffer) and to
	// a text of another buffer must copy, not write into the room.
	old := m.appendText("X", kept[10])
	other := m.appendText("Y", Text(strings.Repeat("o", prependMin)))
	again := m.appendText("Z", s)
	for i := range kept {
		if string(kept[i]) != want[i] {
			t.Fatalf("text %d changed: %.40q…, want %.40q…", i, kept[i], want[i])
		}
	}
	for _, c := range []struct{ got, want string }{
		{string(old), "X" + want[10]},
		{string(other), "Y" + strings.Repeat("o", prependMin)},
		{string(again), "Z" + want[len(want)-1]},
		{string(m.appendText("", s)), want[len(want)-1]},
		{string(m.appendText("ab", "cd")), "abcd"},
	} {
		if c.got != c.want {
			t.Errorf("got %.40q…, want %.40q…", c.got, c.want)
		}
	}
}

// BenchmarkAppendTextPrepend builds a 64 KiB text by prepending 8-byte
// pieces, as a derived Show instance builds a long list's text: linear
// with the room in front, quadratic with copying.
func BenchmarkAppendTextPrepend(b *testing.B) {
	piece := Text("piece, ")
	b.ReportAllocs()
	for b.Loop() {
		m := &Machine{}
		s := Text("]")
		for len(s) < 64<<10 {
			s = m.appendText(piece, s)
		}
	}
}
