package prim

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestExplodeImplode(t *testing.T) {
	got := ExplodeText("a¶‱😂")
	if diff := cmp.Diff([]string{"a", "¶", "‱", "😂"}, got); diff != "" {
		t.Errorf("EXPLODE_TEXT (-want +got):\n%s", diff)
	}
	if got := ExplodeText(""); len(got) != 0 {
		t.Errorf("EXPLODE_TEXT \"\" = %q", got)
	}
	if got := ImplodeText([]string{"", "", ""}); got != "" {
		t.Errorf("IMPLODE_TEXT empties = %q", got)
	}
	if got := ImplodeText([]string{"a", "¶", "‱", "😂"}); got != "a¶‱😂" {
		t.Errorf("IMPLODE_TEXT = %q", got)
	}
	if got := ImplodeText([]string{"IMPLODE_TEXT", " ", "works", " ", "properly"}); got != "IMPLODE_TEXT works properly" {
		t.Errorf("IMPLODE_TEXT = %q", got)
	}
	if AppendText("a¶", "😂") != "a¶😂" {
		t.Error("APPEND_TEXT")
	}
}

func TestCodePoints(t *testing.T) {
	if diff := cmp.Diff([]int64{'a', 0xB6, 0x2031, 0x1F602}, TextToCodePoints("a¶‱😂")); diff != "" {
		t.Errorf("TEXT_TO_CODE_POINTS (-want +got):\n%s", diff)
	}
	legal := []int64{0, 0x61, 0x7f, 0x80, 0xe9, 0x8ee0, 0xd7ff, 0xe000, 0xe568, 0xffff, 0x10000, 0x1d81a,
		0x1ffff, 0x20000, 0x245ad, 0x2ffff, 0x30000, 0x3ae2d, 0x3ffff, 0x40000, 0x9ea6d, 0xdffff, 0xe0000,
		0xeae2d, 0xeffff, 0xf0000, 0x10ae2d, 0x10ffff}
	for _, cp := range legal {
		s, err := CodePointsToText([]int64{'\'', cp, '\''})
		if err != nil || s != "'"+string(rune(cp))+"'" {
			t.Errorf("CODE_POINTS_TO_TEXT %#x = %q, %v", cp, s, err)
		}
		if back := TextToCodePoints(s); len(back) != 3 || back[1] != cp {
			t.Errorf("round trip %#x = %v", cp, back)
		}
	}
	illegal := []int64{0xd800, 0xd924, 0xdbff, 0xdc00, 0xdde0, 0xdfff, -9223372036854775808, -2147483648,
		-0x23456 - 2, -1, 0x110000, 0x110001, 0x345678, 2147483647, 9223372036854775807}
	for _, cp := range illegal {
		_, err := CodePointsToText([]int64{'\'', cp, '\''})
		var ie *InvalidCodePointError
		if !errors.As(err, &ie) || ie.CodePoint != cp {
			t.Errorf("CODE_POINTS_TO_TEXT %#x: err %v", cp, err)
		}
	}
	_, err := CodePointsToText([]int64{0xd800})
	if err.Error() != "invalid code point 0xd800." {
		t.Errorf("message %q", err)
	}
	// Java's Long.toHexString prints negatives as two's complement
	_, err = CodePointsToText([]int64{-1})
	if err.Error() != "invalid code point 0xffffffffffffffff." {
		t.Errorf("message %q", err)
	}
}

func TestCompareText(t *testing.T) {
	strs := []string{"", "aa", "ab", "b", "a¶‱😂", "a¶‱😃", "a", "¶", "‱", "😂", "😃", "｡", "1.1"}
	for _, a := range strs {
		for _, b := range strs {
			ra, rb := []rune(a), []rune(b)
			want := 0
			for i := 0; ; i++ {
				if i == len(ra) || i == len(rb) {
					want = len(ra) - len(rb)
					break
				}
				if ra[i] != rb[i] {
					want = int(ra[i]) - int(rb[i])
					break
				}
			}
			got := CompareText(a, b)
			if (got < 0) != (want < 0) || (got == 0) != (want == 0) {
				t.Errorf("CompareText(%q, %q) = %d, want sign of %d", a, b, got, want)
			}
		}
	}
	// code-point order, not UTF-16 order: U+FF61 < U+1F602
	if CompareText("｡", "😂") >= 0 {
		t.Error("UTF-16 order used")
	}
}

func TestCheckText(t *testing.T) {
	tests := map[string]string{
		"ok ¶😂":        "",
		"a\x00b":       "Text contains null character",
		"\xed\xa0\x80": "Text contains unpaired high surrogate",
		"\xed\xb0\x80": "Text contains unpaired low surrogate",
		"\xff":         "Text contains invalid UTF-8",
		"\xc3":         "Text contains invalid UTF-8",
		"":             "",
	}
	for s, want := range tests {
		err := CheckText(s)
		var got string
		if err != nil {
			got = err.Error()
			var mt *MalformedTextError
			if !errors.As(err, &mt) {
				t.Errorf("CheckText(%q) is %T", s, err)
			}
		}
		if got != want {
			t.Errorf("CheckText(%q) = %q, want %q", s, got, want)
		}
	}
	s, _ := CodePointsToText([]int64{0})
	if CheckText(s) == nil {
		t.Error("CODE_POINTS_TO_TEXT [0] passes CheckText")
	}
}

func TestParty(t *testing.T) {
	good := []string{"alice::1220" + strings.Repeat("ab", 32), "p", strings.Repeat("p", 255), "Alice Bob_-:09"}
	for _, s := range good {
		if p, ok := TextToParty(s); !ok || p != s || PartyToText(p) != s {
			t.Errorf("TEXT_TO_PARTY %.20q = %q, %v", s, p, ok)
		}
	}
	bad := []string{"", "a!", strings.Repeat("p", 256), "é", "a\x00", "a.b", "a/b", "a\tb"}
	for _, s := range bad {
		if p, ok := TextToParty(s); ok {
			t.Errorf("TEXT_TO_PARTY %.20q = %q, want None", s, p)
		}
	}
}

func TestContractIDToText(t *testing.T) {
	if _, ok := ContractIDToText("00abc", true); ok {
		t.Error("on-ledger CONTRACT_ID_TO_TEXT is Some")
	}
	if s, ok := ContractIDToText("00abc", false); !ok || s != "00abc" {
		t.Error("off-ledger CONTRACT_ID_TO_TEXT")
	}
}

const lorem = `Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do
eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad
minim veniam, quis nostrud exercitation ullamco laboris nisi ut
aliquip ex ea commodo consequat. Duis aute irure dolor in
reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla
pariatur. Excepteur sint occaecat cupidatat non proident, sunt in
culpa qui officia deserunt mollit anim id est laborum...`

func TestSHA256Text(t *testing.T) {
	tests := map[string]string{
		"": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855": "cd372fb85148700fa88095e3492d3f9f5beb43e555e5ff26d95f5a6adc36f8e6",
		lorem:  "c045064089460b634bb47e71d2457cd0e8dbc1327aaf9439c275c9796c073620",
		"a¶‱😂": "8f1cc14a85321115abcd2854e34f9ca004f4f199d367c3c9a84a355f287cec2e",
	}
	for in, want := range tests {
		if got := SHA256Text(in); got != want {
			t.Errorf("SHA256_TEXT %.20q = %s, want %s", in, got, want)
		}
	}
}

func TestHexText(t *testing.T) {
	tests := map[string]string{
		"":                                     "",
		"Hello world!":                         "48656c6c6f20776f726c6421",
		"DeadBeef":                             "4465616442656566",
		"843d0824-9133-4bc9-b0e8-7cb4e8487dd1": "38343364303832342d393133332d346263392d623065382d376362346538343837646431",
		"a¶‱😂":                                 "61c2b6e280b1f09f9882",
	}
	for text, h := range tests {
		if got := TextToHex(text); got != h {
			t.Errorf("TEXT_TO_HEX %q = %s, want %s", text, got, h)
		}
		if got, err := HexToText(h); err != nil || got != text {
			t.Errorf("HEX_TO_TEXT %s = %q, %v", h, got, err)
		}
	}
	for _, h := range []string{"0", "000", "0g", "DeadBeef", "4A", " 00", "input", "a¶‱😂"} {
		_, err := HexToText(h)
		wantCrypto(t, err, MalformedByteEncoding, h, "can not parse hex string argument")
	}
	// invalid UTF-8: one U+FFFD per maximal ill-formed subpart
	lossy := map[string]string{
		"ff":       "\uFFFD",
		"61ff62":   "a\uFFFDb",
		"e282":     "\uFFFD",
		"e28261":   "\uFFFDa",
		"c0af":     "\uFFFD\uFFFD",
		"eda080":   "\uFFFD\uFFFD\uFFFD",
		"f0908080": "𐀀",
		"f09080":   "\uFFFD",
		"f4908080": "\uFFFD\uFFFD\uFFFD\uFFFD",
		"f8888080": "\uFFFD\uFFFD\uFFFD\uFFFD",
		"e0808080": "\uFFFD\uFFFD\uFFFD\uFFFD",
		"c3a9e2":   "é\uFFFD",
	}
	for h, want := range lossy {
		got, err := HexToText(h)
		if err != nil || got != want || !utf8.ValidString(got) {
			t.Errorf("HEX_TO_TEXT %s = %+q, %v; want %+q", h, got, err, want)
		}
	}
}
