package word

import (
	"encoding/binary"
	"testing"
)

// TestLoad64IsLittleEndian: Load64 reads as binary.LittleEndian does, from
// a string and from bytes, and reads the first eight bytes only.
func TestLoad64IsLittleEndian(t *testing.T) {
	for _, s := range []string{"01234567", "\x00\x01\x02\x03\xfc\xfd\xfe\xff", "alice::1220abcd"} {
		want := binary.LittleEndian.Uint64([]byte(s))
		if got := Load64(s); got != want {
			t.Errorf("Load64(%q) = %#x, want %#x", s, got, want)
		}
		if got := Load64([]byte(s)); got != want {
			t.Errorf("Load64([]byte(%q)) = %#x, want %#x", s, got, want)
		}
	}
}

// TestLoad64Short: fewer than eight bytes is an index panic, not a read
// past them.
func TestLoad64Short(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Load64 of seven bytes did not panic")
		}
	}()
	Load64("0123456")
}
