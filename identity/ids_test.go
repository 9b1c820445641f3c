package identity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestIDSyntaxTexts: the id checks keep their texts while their rules are
// daml/lf's.
func TestIDSyntaxTexts(t *testing.T) {
	tests := []struct {
		name  string
		check func(string) error
		in    string
		want  string // "" when valid
	}{
		{"party", ValidatePartyString, "alice::1220ab", ""},
		{"party empty", ValidatePartyString, "", "Party is empty"},
		{"party long", ValidatePartyString, strings.Repeat("p", 256), "Party is longer than 255 characters"},
		{"party bad char", ValidatePartyString, "a#b", `non expected character 0x23 in Daml-LF Party "a#b"`},
		{"ledger string", ValidateLedgerString, "cmd-1/a#b", ""},
		{"ledger string empty", ValidateLedgerString, "", "LedgerString is empty"},
		{"ledger string long", ValidateLedgerString, strings.Repeat("x", 256), "LedgerString is longer than 255 characters"},
		{"ledger string bad char", ValidateLedgerString, "a@b", `non expected character 0x40 in Daml-LF LedgerString "a@b"`},
		{"user", ValidateUserID, "alice@example.com", ""},
		{"user bad", ValidateUserID, "a b", "user id \"a b\" does not match [a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}"},
		{"user long", ValidateUserID, strings.Repeat("u", 129), "user id \"" + strings.Repeat("u", 129) + "\" does not match [a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}"},
		{"idp default", ValidateIdentityProviderID, "", ""},
		{"idp bad", ValidateIdentityProviderID, "a@b", `non expected character 0x40 in Daml-LF LedgerString "a@b"`},
		{"party id", ValidatePartyID, "alice::1220ab", ""},
		{"party id no namespace", ValidatePartyID, "alice", `"alice" is not a unique identifier: missing '::' delimiter`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check(tt.in)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCantonHashForms: CantonHash and CantonHashHex are Canton's
// multihash (0x12 0x20 and the SHA-256 of the purpose and the data,
// written here with a streaming hasher), for data that fits the stack
// copy and data that does not.
func TestCantonHashForms(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 100, 508, 509, 4000} {
		data := bytes.Repeat([]byte{byte(n)}, n)
		h := sha256.New()
		h.Write([]byte{0, 0, 0, 12})
		h.Write(data)
		want := h.Sum([]byte{0x12, 0x20})
		if got := CantonHash(PurposePublicKeyFingerprint, data); !bytes.Equal(got, want) {
			t.Errorf("%d bytes: CantonHash %x, want %x", n, got, want)
		}
		if got := CantonHashHex(PurposePublicKeyFingerprint, data); got != hex.EncodeToString(want) {
			t.Errorf("%d bytes: CantonHashHex %s, want %x", n, got, want)
		}
	}
}

// TestAppendCantonHashHexOf: AppendCantonHashHexOf appends CantonHashHex
// of the message after its four bytes left for the purpose.
func TestAppendCantonHashHexOf(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 100, 508, 509, 4000} {
		data := bytes.Repeat([]byte{byte(n)}, n)
		msg := append([]byte{9, 9, 9, 9}, data...)
		want := "x" + CantonHashHex(PurposePublicKeyFingerprint, data)
		if got := string(AppendCantonHashHexOf([]byte("x"), PurposePublicKeyFingerprint, msg)); got != want {
			t.Errorf("%d bytes: AppendCantonHashHexOf %s, want %s", n, got, want)
		}
	}
}
