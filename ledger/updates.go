package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/daml/tx"
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
	var out [updateIDLen]byte
	return string(appendTxUpdateID(out[:0], participant, seed, user, command, at))
}

// updateIDLen is the length of an update id: "1220" and 64 hex digits.
const updateIDLen = 4 + 64

// appendTxUpdateID appends txUpdateID(participant, seed, user, command,
// at) to dst, at given as text or bytes (committable's, on its stack).
func appendTxUpdateID[S string | []byte](dst []byte, participant string, seed [32]byte, user, command string, at S) []byte {
	var hexSeed [2 * len(seed)]byte
	lowerhex.Encode32(&hexSeed, &seed)
	// On the stack when it fits (the usual ids and times), after room
	// for the hash purpose (identity.AppendCantonHashHexOf).
	var small [320]byte
	b := append(small[:0], 0, 0, 0, 0)
	b = appendUpdateIDPart(b, "tx")
	b = appendUpdateIDPart(b, participant)
	b = appendUpdateIDPart(b, hexSeed[:])
	b = appendUpdateIDPart(b, user)
	b = appendUpdateIDPart(b, command)
	b = appendUpdateIDPart(b, at)
	return identity.AppendCantonHashHexOf(dst, purposeUpdateID, b)
}

// committableIDs returns formatTime(let) and the update id
// (txUpdateID) of the submission's transaction, and sets its change key
// (changeKey) unless it has one; with t, it also suffixes t in place, as
// committable does (SuffixInPlaceAfter with UnicumOfBytes of the update id). The
// strings, and t's committed contract ids, share one allocation, which
// the entry keeps, whose time and ids its readers keep too.
func (n *Node) committableIDs(s *submission, let time.Time, seed [32]byte, t *tx.Transaction) (at, updateID string, err error) {
	var atBuf [40]byte // the usual times; time.Format's forms may outgrow it
	atB := wiretime.Append(atBuf[:0], let)
	// Room for a few contract ids after the strings (suffixedIDLen).
	var buf [updateIDLen + len(atBuf) + 2*sha256.Size + 2*suffixedIDLen]byte
	b := appendTxUpdateID(buf[:0], n.participantID, seed, s.c.UserID, s.c.CommandID, atB)
	idB := b[:updateIDLen:updateIDLen]
	b = append(b, atB...)
	change := s.change == ""
	if change {
		sum := changeIDSum(s.c.UserID, s.c.ActAs, s.c.CommandID)
		var h [2 * sha256.Size]byte
		lowerhex.Encode32(&h, &sum)
		b = append(b, h[:]...)
	}
	end := len(b)
	var all string
	if t == nil {
		all = string(b)
	} else if all, err = t.SuffixInPlaceAfter(b, func(node tx.NodeID, _ *tx.Create) tx.Hash { return tx.UnicumOfBytes(idB, node) }); err != nil {
		return "", "", err
	}
	updateID, at = all[:updateIDLen], all[updateIDLen:updateIDLen+len(atB)]
	if change {
		s.change = all[updateIDLen+len(atB) : end]
	}
	return at, updateID, nil
}

// suffixedIDLen is the length of a committed V1 contract id: "00", the
// discriminator, "ca121220" and the unicum, in hex.
const suffixedIDLen = 2 + 64 + 8 + 64
