package interactive

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
)

// Signature is a Ledger API (v2) signature: {format, signature, signedBy,
// signingAlgorithmSpec}.
type Signature struct {
	// Format is the encoding of Signature.
	Format SignatureFormat
	// Signature holds the signature bytes.
	Signature []byte
	// SignedBy is the fingerprint of the signing key.
	SignedBy string
	// SigningAlgorithmSpec is the algorithm; the Ledger API requires it.
	SigningAlgorithmSpec SigningAlgorithmSpec
}

// ErrInvalidSignature is wrapped by the errors of VerifySignature when the
// cryptographic check itself fails (as opposed to a format, algorithm or
// key mismatch).
var ErrInvalidSignature = errors.New("invalid signature")

// CheckSignatureFields applies Canton's proto-level checks to a signature
// (Canton's CryptoValidator.validateSignature): the format and the
// algorithm spec must be set and SYMBOLIC is not accepted.
func CheckSignatureFields(s Signature) error {
	switch s.Format {
	case SignatureFormatRaw, SignatureFormatDER, SignatureFormatConcat:
	case SignatureFormatUnspecified:
		return fmt.Errorf("the signature format must be set")
	default:
		return fmt.Errorf("unsupported signature format %v", s.Format)
	}
	switch s.SigningAlgorithmSpec {
	case SigningAlgorithmSpecEd25519, SigningAlgorithmSpecEcDsaSha256, SigningAlgorithmSpecEcDsaSha384:
	case SigningAlgorithmSpecUnspecified:
		return fmt.Errorf("the signing algorithm spec must be set")
	default:
		return fmt.Errorf("unsupported signing algorithm spec %v", s.SigningAlgorithmSpec)
	}
	if s.SignedBy == "" {
		return fmt.Errorf("the signature has no signedBy fingerprint")
	}
	return nil
}

// VerifySignature checks sig over message with key, in Canton's order
// (Canton's JcePureCrypto.verifySignature):
//  1. sig.SignedBy equals the key's fingerprint;
//  2. the algorithm is allowed for the key spec (ED25519 ↔ EC_CURVE25519,
//     EC_DSA_SHA_256 ↔ EC_P256, EC_DSA_SHA_384 ↔ EC_P384);
//  3. the key has usage (skipped when usage is SigningKeyUsageUnspecified);
//  4. the format is allowed for the algorithm: CONCAT for Ed25519, DER for
//     ECDSA, RAW migrated to those; anything else is rejected;
//  5. the cryptographic check: PureEd25519 over message, or ECDSA over
//     SHA-256/SHA-384(message) with an ASN.1 DER signature.
//
// message is what was signed: the raw 32-byte prepared-transaction hash
// for execute, the 34-byte multihash form (1220 ‖ digest) for topology
// transactions and the multi-hash. A failure of step 5 wraps
// ErrInvalidSignature.
func VerifySignature(key SigningKey, sig Signature, message []byte, usage SigningKeyUsage) error {
	if err := CheckSignatureFields(sig); err != nil {
		return err
	}
	pub, err := key.parse()
	if err != nil {
		return err
	}
	fp, err := fingerprintOf(key.KeySpec, pub, key.PublicKey)
	if err != nil {
		return err
	}
	if fp != sig.SignedBy {
		return fmt.Errorf("signature is signed by %s but the key's fingerprint is %s", sig.SignedBy, fp)
	}
	compatible := map[SigningAlgorithmSpec]SigningKeySpec{
		SigningAlgorithmSpecEd25519:     SigningKeySpecEcCurve25519,
		SigningAlgorithmSpecEcDsaSha256: SigningKeySpecEcP256,
		SigningAlgorithmSpecEcDsaSha384: SigningKeySpecEcP384,
	}
	if compatible[sig.SigningAlgorithmSpec] != key.KeySpec {
		return fmt.Errorf("signing algorithm %v is not supported for key spec %v", sig.SigningAlgorithmSpec, key.KeySpec)
	}
	if usage != SigningKeyUsageUnspecified && !key.HasUsage(usage) {
		return fmt.Errorf("key %s does not have the usage %v", fp, usage)
	}
	format := sig.Format
	if format == SignatureFormatRaw {
		if sig.SigningAlgorithmSpec == SigningAlgorithmSpecEd25519 {
			format = SignatureFormatConcat
		} else {
			format = SignatureFormatDER
		}
	}
	switch sig.SigningAlgorithmSpec {
	case SigningAlgorithmSpecEd25519:
		if format != SignatureFormatConcat {
			return fmt.Errorf("signature format %v is not supported for %v", sig.Format, sig.SigningAlgorithmSpec)
		}
		if len(sig.Signature) != ed25519.SignatureSize || !ed25519.Verify(pub.(ed25519.PublicKey), message, sig.Signature) {
			return fmt.Errorf("%w: Ed25519 verification by %s failed", ErrInvalidSignature, fp)
		}
	default:
		if format != SignatureFormatDER {
			return fmt.Errorf("signature format %v is not supported for %v", sig.Format, sig.SigningAlgorithmSpec)
		}
		var digest []byte
		if sig.SigningAlgorithmSpec == SigningAlgorithmSpecEcDsaSha256 {
			d := sha256.Sum256(message)
			digest = d[:]
		} else {
			d := sha512.Sum384(message)
			digest = d[:]
		}
		if !ecdsa.VerifyASN1(pub.(*ecdsa.PublicKey), digest, sig.Signature) {
			return fmt.Errorf("%w: ECDSA verification by %s failed", ErrInvalidSignature, fp)
		}
	}
	return nil
}
