package identity

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/lowerhex"
)

// Limits of Canton's identifier kinds (UniqueIdentifier in Canton's
// community/base/src/main/scala/com/digitalasset/canton/topology/Identifier.scala,
// String185 and String68 of config/CantonRequireTypes.scala); the Daml-LF
// ones are daml/lf's.
const (
	MaxPartyLength        = lf.MaxPartyLength
	MaxLedgerStringLength = lf.MaxLedgerStringLength
	MaxUserIDLength       = lf.MaxUserIDLength
	MaxUIDIdentifierLen   = 185
	MaxFingerprintLength  = 68
)

// HashPurpose is the 4-byte purpose Canton mixes into every hash.
type HashPurpose int32

// Hash purposes used by ledgernode.
const (
	PurposeTopologyTransactionSignature HashPurpose = 11
	PurposePublicKeyFingerprint         HashPurpose = 12
	PurposeMultiTopologyTransaction     HashPurpose = 55
)

// CantonHash returns Canton's multihash of data for a purpose:
// 0x12 0x20 ‖ SHA-256(int32_be(purpose) ‖ data) (34 bytes).
func CantonHash(purpose HashPurpose, data []byte) []byte {
	sum := cantonSum(purpose, data)
	return append([]byte{0x12, 0x20}, sum[:]...)
}

// CantonHashHex is CantonHash in hex ("1220" and 64 hex digits), the
// form of Canton's ids and fingerprints, in one allocation: the string.
func CantonHashHex(purpose HashPurpose, data []byte) string {
	sum := cantonSum(purpose, data)
	var out [4 + 2*sha256.Size]byte
	copy(out[:], "1220")
	lowerhex.Encode32((*[64]byte)(out[4:]), &sum)
	return string(out[:])
}

// AppendCantonHashHexOf appends CantonHashHex(purpose, msg[4:]) to dst,
// for a msg whose first four bytes the caller left for the purpose, which
// are overwritten: msg itself is hashed, not a copy of it.
func AppendCantonHashHexOf(dst []byte, purpose HashPurpose, msg []byte) []byte {
	binary.BigEndian.PutUint32(msg, uint32(purpose))
	sum := sha256.Sum256(msg)
	var h [2 * sha256.Size]byte
	lowerhex.Encode32(&h, &sum)
	dst = append(dst, "1220"...)
	return append(dst, h[:]...)
}

// cantonSum is the SHA-256 of CantonHash: of a copy of the purpose and
// data on the stack when they are small (most ids), which spares a
// hasher's allocation.
func cantonSum(purpose HashPurpose, data []byte) [sha256.Size]byte {
	var small [512]byte
	if 4+len(data) <= len(small) {
		b := binary.BigEndian.AppendUint32(small[:0], uint32(purpose))
		return sha256.Sum256(append(b, data...))
	}
	h := sha256.New()
	var p [4]byte
	binary.BigEndian.PutUint32(p[:], uint32(purpose))
	h.Write(p[:])
	h.Write(data)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Fingerprint returns the hex fingerprint ("1220" + 64 hex) of a public key,
// given the bytes Canton hashes for it: the raw 32 bytes of an Ed25519 key,
// or the DER SubjectPublicKeyInfo of an EC key.
func Fingerprint(keyBytes []byte) string {
	return CantonHashHex(PurposePublicKeyFingerprint, keyBytes)
}

// syntaxErr rewords a daml/lf syntax error (err, not nil: its callers
// test that first, on their hot paths) of the string kind kind in this
// package's words, as a KindInvalid *Error.
func syntaxErr(kind string, err error) error {
	var se *lf.SyntaxError
	if !errors.As(err, &se) {
		return wrapError(KindInvalid, err, "%v", err)
	}
	switch se.Problem {
	case lf.SyntaxEmpty:
		return wrapError(KindInvalid, err, "%s is empty", kind)
	case lf.SyntaxTooLong:
		return wrapError(KindInvalid, err, "%s is longer than %d characters", kind, se.Max)
	case lf.SyntaxBadChar:
		return wrapError(KindInvalid, err, "non expected character 0x%x in Daml-LF %s %q", se.Char, kind, apierr.Quote(se.Input))
	}
	return wrapError(KindInvalid, err, "%v", err)
}

// ValidatePartyString checks a Daml-LF Party string (lf.CheckParty):
// non-empty, at most 255 US-ASCII characters from letters, digits, ':',
// '-', '_' and space.
func ValidatePartyString(s string) error {
	if err := lf.CheckParty(s); err != nil { // syntaxErr is not called for none
		return syntaxErr("Party", err)
	}
	return nil
}

// ValidateLedgerString checks a Daml-LF LedgerString (command, submission,
// workflow, update, participant and identity-provider ids;
// lf.CheckLedgerString).
func ValidateLedgerString(s string) error {
	if err := lf.CheckLedgerString(s); err != nil {
		return syntaxErr("LedgerString", err)
	}
	return nil
}

// ValidateUserID checks a participant user id (lf.CheckUserID): 1 to 128
// characters from letters, digits and @^$.!`-#+'~_|:().
func ValidateUserID(s string) error {
	if !lf.IsUserID(s) {
		return newError(KindInvalid, "user id %q does not match [a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}", apierr.Quote(s))
	}
	return nil
}

// ValidateIdentityProviderID checks an identity-provider id: empty (the
// default provider) or a LedgerString.
func ValidateIdentityProviderID(s string) error {
	if s == "" {
		return nil
	}
	return ValidateLedgerString(s)
}

// UID is a Canton unique identifier, identifier::namespace.
type UID struct {
	Identifier string
	Namespace  string
}

// String returns identifier::namespace.
func (u UID) String() string { return u.Identifier + "::" + u.Namespace }

// ParseUID splits a Canton UID at its first "::" and validates both parts:
// the identifier is a Party string of at most 185 characters without "::",
// the namespace a Party string of at most 68 characters.
func ParseUID(s string) (UID, error) {
	id, ns, ok := strings.Cut(s, "::")
	if !ok {
		return UID{}, newError(KindInvalid, "%q is not a unique identifier: missing '::' delimiter", apierr.Quote(s))
	}
	if err := ValidateUIDIdentifier(id); err != nil {
		return UID{}, err
	}
	if ns == "" {
		return UID{}, newError(KindInvalid, "%q has an empty namespace", apierr.Quote(s))
	}
	if len(ns) > MaxFingerprintLength {
		return UID{}, newError(KindInvalid, "namespace of %q is longer than %d characters", apierr.Quote(s), MaxFingerprintLength)
	}
	if err := ValidatePartyString(ns); err != nil {
		return UID{}, err
	}
	return UID{Identifier: id, Namespace: ns}, nil
}

// ValidateUIDIdentifier checks the identifier part of a UID (a party hint or
// a participant name): a Party string of at most 185 characters without "::".
func ValidateUIDIdentifier(id string) error {
	if id == "" {
		return newError(KindInvalid, "identifier is empty")
	}
	if len(id) > MaxUIDIdentifierLen {
		return newError(KindInvalid, "identifier %q is longer than %d characters", apierr.Quote(id), MaxUIDIdentifierLen)
	}
	if strings.Contains(id, "::") {
		return newError(KindInvalid, "identifier %q contains the delimiter '::'", apierr.Quote(id))
	}
	return ValidatePartyString(id)
}

// ValidatePartyID checks a party id: a Party string that is a well-formed
// UID (hint::namespace).
func ValidatePartyID(s string) error {
	if err := ValidatePartyString(s); err != nil {
		return err
	}
	_, err := ParseUID(s)
	return err
}
