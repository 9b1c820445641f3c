package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// encodingJSON is s as encoding/json writes it, with or without HTML
// escaping.
func encodingJSON(t testing.TB, s string, html bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestAppendStringIsEncodingJSON: the bytes encoding/json writes, in both
// modes, for the characters each escapes differently.
func TestAppendStringIsEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " backslash \`, "controls \b\f\n\r\t\x00\x1f",
		"html <a href='x'>&amp;</a>", "separators \u2028 \u2029", "invalid \xff\xfe utf-8",
		"unicode é ∑ 😀", "\x7f del",
	} {
		for _, html := range []bool{false, true} {
			if got, want := AppendString(nil, s, html), encodingJSON(t, s, html); !bytes.Equal(got, want) {
				t.Errorf("AppendString(%q, html=%v) = %s, encoding/json %s", s, html, got, want)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\u2028\xff\"\\\n"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := AppendString(nil, s, html), encodingJSON(t, s, html); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q, html=%v) = %s, encoding/json %s", s, html, got, want)
		}
	})
}

// encodingJSONBody is encodingJSON without the quotes: what
// AppendStringBody must write.
func encodingJSONBody(t testing.TB, s string, html bool) []byte {
	q := encodingJSON(t, s, html)
	return q[1 : len(q)-1]
}

// TestAppendStringBodyBoundaries: every escaped character, multibyte runes,
// U+2028/2029 and invalid UTF-8 at every position 0..17 of a plain string
// of every length up to 24, so that each lands at every offset of the fast
// path's words and in the tail after them, in both modes, equal the byte
// encoding/json's bytes.
func TestAppendStringBodyBoundaries(t *testing.T) {
	specials := []string{"\"", "\\", "\x00", "\x1f", "\n", "\x7f", "<", ">", "&", "é", "∑", "😀",
		"\u2028", "\u2029", "\xff", "\xe2\x80", "\xf0\x9f\x98", " ", "~"}
	for n := range 25 {
		for pos := range min(n, 18) {
			for _, sp := range specials {
				s := strings.Repeat("a", pos) + sp + strings.Repeat("b", n-pos-1)
				for _, html := range []bool{false, true} {
					got, want := AppendStringBody(nil, s, html), encodingJSONBody(t, s, html)
					if !bytes.Equal(got, want) {
						t.Fatalf("AppendStringBody(%q, html=%v) = %s, encoding/json %s", s, html, got, want)
					}
					if q := AppendString(nil, s, html); !bytes.Equal(q, encodingJSON(t, s, html)) {
						t.Fatalf("AppendString(%q, html=%v) = %s, encoding/json %s", s, html, q, encodingJSON(t, s, html))
					}
				}
			}
		}
	}
}

// FuzzAppendStringBody: the fast path's bytes are encoding/json's, after
// a non-empty prefix too (so that dst's contents are kept).
func FuzzAppendStringBody(f *testing.F) {
	for _, s := range []string{"", "plain ascii text over 8", "a<b>&c\"d\\e\x01f", "0123456\u2028\xff\"\\\nxyz", "é∑😀\xe2\x80"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := AppendStringBody([]byte("x"), s, html), append([]byte("x"), encodingJSONBody(t, s, html)...); !bytes.Equal(got, want) {
			t.Errorf("AppendStringBody(%q, html=%v) = %s, encoding/json %s", s, html, got, want)
		}
	})
}

// BenchmarkAppendStringBody: a contract id and a party id, the bulk of
// what an update page writes.
func BenchmarkAppendStringBody(b *testing.B) {
	s := "00a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90ca1112201f2e3d4c5b6a79880716253443526170 alice::1220f1e2d3c4b5a69788796a5b4c3d2e1f"
	dst := make([]byte, 0, 512)
	for b.Loop() {
		dst = AppendStringBody(dst[:0], s, false)
	}
}

// TestPlain checks Plain against AppendString: a plain string is written
// as it is between quotes, and every string that is not plain has a byte
// Plain must refuse (a byte outside printable ASCII, '"' or '\').
func TestPlain(t *testing.T) {
	t.Parallel()
	cases := []string{"", "a", "alice::1220abcd", strings.Repeat("0123456789abcdef", 9), "2026-11-28T23:10:17.5Z"}
	for b := range 256 {
		for _, at := range []int{0, 3, 7, 8, 15, 40} {
			s := []byte(strings.Repeat("x", 41))
			s[at] = byte(b)
			cases = append(cases, string(s[:at+1]), string(s))
		}
	}
	cases = append(cases, "\u2028", "é", "a\xffb")
	for _, s := range cases {
		asIs := string(AppendString(nil, s, false)) == `"`+s+`"`
		printable := true
		for i := range len(s) {
			if s[i] < 0x20 || s[i] >= utf8.RuneSelf || s[i] == '"' || s[i] == '\\' {
				printable = false
			}
		}
		if got := Plain(s); got != printable || got && !asIs {
			t.Errorf("Plain(%q) = %v, printable ASCII %v, written as it is %v", s, got, printable, asIs)
		}
	}
}

// TestPlainPrefix compares PlainPrefix, which tests eight bytes at a
// time, with a byte loop: every byte value at every position of strings
// of length 0 to 40, as a string and as bytes.
func TestPlainPrefix(t *testing.T) {
	t.Parallel()
	plain := func(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf }
	for n := range 41 {
		for pos := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				want := n
				if !plain(byte(c)) {
					want = pos
				}
				if got := PlainPrefix(b); got != want {
					t.Fatalf("PlainPrefix(%q) = %d, want %d", b, got, want)
				}
				if got := PlainPrefix(string(b)); got != want {
					t.Fatalf("PlainPrefix(string %q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}

// TestHTMLPlain compares HTMLPlain, which tests eight bytes at a time,
// with Plain and a look for <, > and &: every byte value at every
// position of strings of length 1 to 40, and two bytes to refuse.
func TestHTMLPlain(t *testing.T) {
	t.Parallel()
	want := func(s string) bool { return Plain(s) && !strings.ContainsAny(s, "<>&") }
	for n := 1; n <= 40; n++ {
		for pos := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				if got := HTMLPlain(string(b)); got != want(string(b)) {
					t.Fatalf("HTMLPlain(%q) = %v", b, got)
				}
				if got := HTMLPlain(string(b)); got && string(AppendString(nil, string(b), true)) != `"`+string(b)+`"` {
					t.Fatalf("HTMLPlain(%q), not written as it is", b)
				}
				b[n-1-pos] = '&'
				if HTMLPlain(string(b)) {
					t.Fatalf("HTMLPlain(%q) = true", b)
				}
			}
		}
	}
	if !HTMLPlain("") {
		t.Error(`HTMLPlain("") = false`)
	}
}

// TestAppendStringBodyEveryByte: every byte value at every position of
// strings of length 1 to 17 and before a byte to escape, in both modes,
// written as encoding/json writes it (the masks' lowest flags are exact).
func TestAppendStringBodyEveryByte(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 17; n++ {
		for pos := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				for _, s := range []string{string(b), string(b) + "<\"&"} {
					for _, html := range []bool{false, true} {
						if got, want := AppendStringBody(nil, s, html), encodingJSONBody(t, s, html); !bytes.Equal(got, want) {
							t.Fatalf("AppendStringBody(%q, html=%v) = %s, encoding/json %s", s, html, got, want)
						}
					}
				}
			}
		}
	}
}

// plainPrefixByByte is PlainPrefix's definition, a byte at a time: the
// reference of FuzzPlainPrefix.
func plainPrefixByByte(s []byte) int {
	for i, c := range s {
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return i
		}
	}
	return len(s)
}

// FuzzPlainPrefix: PlainPrefix, sixteen bytes at a time, agrees with the
// byte loop for any bytes, as a string and as bytes, from every offset of
// the input (so that every byte falls at every place of a word).
func FuzzPlainPrefix(f *testing.F) {
	for _, s := range []string{"", "a", `abc"`, "alice::1220abcdef0123456789abcdef0123456789", "x\x7f\x80", strings.Repeat("y", 31) + "\\", "é€😀\u2028"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for from := range min(len(b), 17) + 1 {
			s := b[from:]
			want := plainPrefixByByte(s)
			if got := PlainPrefix(s); got != want {
				t.Fatalf("PlainPrefix(%q) = %d, want %d", s, got, want)
			}
			if got := PlainPrefix(string(s)); got != want {
				t.Fatalf("PlainPrefix(string %q) = %d, want %d", s, got, want)
			}
		}
	})
}
