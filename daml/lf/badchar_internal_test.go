package lf

import "testing"

// TestBadChar compares badChar, which tests eight bytes at a time, with
// the plain table loop: every byte at every position of strings of length
// 0 to 40, over bases of letters and digits alone and with the set's other
// characters in them, for each set checkChars is given.
func TestBadChar(t *testing.T) {
	sets := map[string]*charSet{
		"party": partyChars, "packageID": packageIDChars, "packageName": packageNameChars,
		"ledgerString": ledgerStringChars, "name": nameChars, "userID": userIDChars,
	}
	want := func(s []byte, cs *charSet) int {
		for i, c := range s {
			if !cs.has(c) {
				return i
			}
		}
		return -1
	}
	const alnum = "aZ09zA5mQ"
	for name, cs := range sets {
		for c := 0; c < 256; c++ {
			if cs.has(byte(c)) != (c < 128 && cs[c]) {
				t.Fatalf("%s: has(%#x) wrong", name, c)
			}
			if ('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && !cs.has(byte(c)) {
				t.Fatalf("%s lacks %q, which badChar assumes it holds", name, rune(c))
			}
		}
		var others string // the set's characters but letters and digits
		for c := byte(0); c < 128; c++ {
			if cs[c] && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				others += string(rune(c))
			}
		}
		for _, extra := range []string{"", others[:1], others} {
			for n := 0; n <= 40; n++ {
				base := make([]byte, n)
				for i := range base {
					base[i] = alnum[i%len(alnum)]
					if extra != "" && i%7 == 3 {
						base[i] = extra[i%len(extra)]
					}
				}
				for p := 0; p < n; p++ {
					orig := base[p]
					for c := 0; c < 256; c++ {
						base[p] = byte(c)
						if got, w := badChar(string(base), cs), want(base, cs); got != w {
							t.Fatalf("%s: badChar(%q) = %d, want %d", name, base, got, w)
						}
					}
					base[p] = orig
				}
				if got, w := badChar(string(base), cs), want(base, cs); got != w {
					t.Fatalf("%s: badChar(%q) = %d, want %d", name, base, got, w)
				}
			}
		}
	}
}

// BenchmarkCheckParty checks a typical party id.
func BenchmarkCheckParty(b *testing.B) {
	const p = "alice::1220a3b1c9d2e8f70654321fedcba9876543210abcdef0123456789abcdef0123"
	for b.Loop() {
		if CheckParty(p) != nil {
			b.Fatal("not a party")
		}
	}
}
