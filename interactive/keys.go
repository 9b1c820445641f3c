package interactive

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/x509"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/identity"
)

// ed25519SPKIPrefix is the DER SubjectPublicKeyInfo header of an Ed25519
// key (AlgorithmIdentifier 1.3.101.112, BIT STRING of 33 bytes).
var ed25519SPKIPrefix = []byte{0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00}

// SigningPublicKey is the Ledger API (v2 crypto.proto) public key, as the
// JSON API carries it: {format, keyData, keySpec}.
type SigningPublicKey struct {
	// Format is the encoding of KeyData (Ledger API enum).
	Format KeyFormat
	// KeyData holds the key bytes.
	KeyData []byte
	// KeySpec is the key type.
	KeySpec SigningKeySpec
}

// SigningKey is a topology (crypto.v30) SigningPublicKey: a key as it sits
// in PartyToParticipant.party_signing_keys, with its usages. The
// deprecated scheme field is always written as 0.
type SigningKey struct {
	// Format is the encoding of PublicKey (written with the v30 numbers).
	Format KeyFormat
	// PublicKey holds the key bytes (a DER SubjectPublicKeyInfo for keys
	// produced by NormalizeSigningKey).
	PublicKey []byte
	// KeySpec is the key type.
	KeySpec SigningKeySpec
	// Usage lists the key's usages in order (the order is part of the
	// encoding and therefore of the topology transaction hash).
	Usage []SigningKeyUsage
}

// HasUsage reports whether the key lists usage u.
func (k SigningKey) HasUsage(u SigningKeyUsage) bool { return slices.Contains(k.Usage, u) }

// Fingerprint returns Canton's fingerprint of the key ("1220" + 64 hex):
// the purpose-12 hash of the raw 32 bytes for Ed25519 and of the whole DER
// SubjectPublicKeyInfo for EC keys (Canton's Fingerprint.create, in
// crypto/CryptoKeys.scala).
func (k SigningKey) Fingerprint() (string, error) {
	pub, err := k.parse()
	if err != nil {
		return "", err
	}
	return fingerprintOf(k.KeySpec, pub, k.PublicKey)
}

func fingerprintOf(spec SigningKeySpec, pub crypto.PublicKey, spki []byte) (string, error) {
	if spec == SigningKeySpecEcCurve25519 {
		return identity.Fingerprint(pub.(ed25519.PublicKey)), nil
	}
	return identity.Fingerprint(spki), nil
}

// parse returns the Go public key of a v30 key after checking that format,
// key spec and curve agree.
func (k SigningKey) parse() (crypto.PublicKey, error) {
	switch k.Format {
	case KeyFormatRaw:
		if k.KeySpec != SigningKeySpecEcCurve25519 {
			return nil, fmt.Errorf("key format %v is not supported for key spec %v", k.Format, k.KeySpec)
		}
		if len(k.PublicKey) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("raw Ed25519 key must be 32 bytes, got %d", len(k.PublicKey))
		}
		return ed25519.PublicKey(bytes.Clone(k.PublicKey)), nil
	case KeyFormatDER:
		if k.KeySpec == SigningKeySpecEcCurve25519 {
			return nil, fmt.Errorf("key format %v is not supported for key spec %v", k.Format, k.KeySpec)
		}
		return parseSPKI(k.KeySpec, k.PublicKey)
	case KeyFormatDERX509SubjectPublicKeyInfo:
		return parseSPKI(k.KeySpec, k.PublicKey)
	default:
		return nil, fmt.Errorf("key format %v is not supported for signing public keys", k.Format)
	}
}

// parseSPKI parses a DER SubjectPublicKeyInfo and checks it is a key of
// the given spec (which validates the curve point as well).
func parseSPKI(spec SigningKeySpec, der []byte) (crypto.PublicKey, error) {
	switch spec {
	case SigningKeySpecEcCurve25519, SigningKeySpecEcP256, SigningKeySpecEcP384:
	case SigningKeySpecEcSecp256k1:
		return nil, fmt.Errorf("key spec %v is not supported by this participant", spec)
	default:
		return nil, fmt.Errorf("key spec %v is not a valid signing key spec", spec)
	}
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("invalid DER SubjectPublicKeyInfo for %v: %v", spec, err)
	}
	switch p := pub.(type) {
	case ed25519.PublicKey:
		if spec == SigningKeySpecEcCurve25519 {
			return p, nil
		}
	case *ecdsa.PublicKey:
		if spec == SigningKeySpecEcP256 && p.Curve == elliptic.P256() ||
			spec == SigningKeySpecEcP384 && p.Curve == elliptic.P384() {
			return p, nil
		}
	}
	return nil, fmt.Errorf("public key does not match key spec %v", spec)
}

// NormalizeSigningKey converts a Ledger API key to the v30 key Canton puts
// into topology transactions (Canton's SigningPublicKey.migrate, in
// crypto/Signing.scala): it validates the key (format, spec, curve),
// migrates an Ed25519 RAW key to DER SPKI (302a300506032b6570032100 ‖ raw)
// and relabels an EC DER key as DER SPKI, and gives it the usages
// (NAMESPACE, PROOF_OF_OWNERSHIP, PROTOCOL when usage is nil). Accepted
// inputs: Ed25519 RAW or DER_X509_SPKI; P-256/P-384 DER or DER_X509_SPKI.
// secp256k1 is not supported. It also returns the key's fingerprint, which
// the migration does not change.
func NormalizeSigningKey(k SigningPublicKey, usage []SigningKeyUsage) (SigningKey, string, error) {
	if usage == nil {
		usage = ExternalPartyKeyUsages
	}
	if k.KeySpec == SigningKeySpecUnspecified {
		return SigningKey{}, "", fmt.Errorf("the key spec of the public key must be set")
	}
	out := SigningKey{KeySpec: k.KeySpec, Usage: slices.Clone(usage), Format: KeyFormatDERX509SubjectPublicKeyInfo}
	switch {
	case k.KeySpec == SigningKeySpecEcCurve25519 && k.Format == KeyFormatRaw:
		if len(k.KeyData) != ed25519.PublicKeySize {
			return SigningKey{}, "", fmt.Errorf("raw Ed25519 public key must be 32 bytes, got %d", len(k.KeyData))
		}
		out.PublicKey = append(slices.Clone(ed25519SPKIPrefix), k.KeyData...)
	case k.KeySpec == SigningKeySpecEcCurve25519 && k.Format == KeyFormatDERX509SubjectPublicKeyInfo,
		k.KeySpec != SigningKeySpecEcCurve25519 && (k.Format == KeyFormatDER || k.Format == KeyFormatDERX509SubjectPublicKeyInfo):
		out.PublicKey = bytes.Clone(k.KeyData)
	default:
		return SigningKey{}, "", fmt.Errorf("key format %v is not supported for key spec %v", k.Format, k.KeySpec)
	}
	pub, err := out.parse()
	if err != nil {
		return SigningKey{}, "", err
	}
	fp, err := fingerprintOf(out.KeySpec, pub, out.PublicKey)
	return out, fp, err
}

// Fingerprint returns the fingerprint of a Ledger API key (the same as of
// its normalized form).
func (k SigningPublicKey) Fingerprint() (string, error) {
	_, fp, err := NormalizeSigningKey(k, nil)
	return fp, err
}
