package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
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
