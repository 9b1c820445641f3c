package ledger

import (
	"encoding/hex"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/internal/lowerhex"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
)

// purposeUpdateID is the hash purpose ledgernode uses for the ids of the
// updates it creates itself (Canton's own ids hash Merkle-tree roots, which
// a single-node ledger does not have).
const purposeUpdateID identity.HashPurpose = 0x4c4e0001

// formatTime prints a timestamp as Java's Instant.toString does: UTC, with
// 0, 3, 6 or 9 fraction digits.
func formatTime(t time.Time) string {
	return wiretime.Format(t)
}

// newUpdateID derives a Canton-shaped update id ("1220" + 64 hex) from the
// update's content: the hash of every part written as "<len>:<part>;".
func newUpdateID(parts ...string) string {
	size := 0
	for _, p := range parts {
		size += len(p) + 8
	}
	b := make([]byte, 0, size)
	for _, p := range parts {
		b = appendUpdateIDPart(b, p)
	}
	return identity.CantonHashHex(purposeUpdateID, b)
}

// hexString is hex.EncodeToString for hashes (up to 40 bytes: no
// intermediate buffer; a SHA-256 sum through lowerhex).
func hexString(h []byte) string {
	var buf [80]byte
	if len(h) == 32 {
		lowerhex.Encode32((*[64]byte)(buf[:64]), (*[32]byte)(h))
		return string(buf[:64])
	}
	if len(h) > len(buf)/2 {
		return hex.EncodeToString(h)
	}
	n := hex.Encode(buf[:], h)
	return string(buf[:n])
}

// appendUpdateIDPart appends one part of newUpdateID's hashed content.
func appendUpdateIDPart[S string | []byte](b []byte, p S) []byte {
	b = strconv.AppendInt(b, int64(len(p)), 10)
	b = append(b, ':')
	b = append(b, p...)
	return append(b, ';')
}

// txUpdateID is newUpdateID("tx", participant, hex(seed), user, command,
// at), the id of a transaction a submission commits, without the
// intermediate strings.
func txUpdateID(participant string, seed [32]byte, user, command, at string) string {
	var hexSeed [2 * len(seed)]byte
	lowerhex.Encode32(&hexSeed, &seed)
	// On the stack when it fits (the usual ids and times).
	var small [320]byte
	b := small[:0]
	b = appendUpdateIDPart(b, "tx")
	b = appendUpdateIDPart(b, participant)
	b = appendUpdateIDPart(b, hexSeed[:])
	b = appendUpdateIDPart(b, user)
	b = appendUpdateIDPart(b, command)
	b = appendUpdateIDPart(b, at)
	return identity.CantonHashHex(purposeUpdateID, b)
}
