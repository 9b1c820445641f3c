package prim

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	secpecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"
)

// CryptoErrorKind says which of Speedy's Crypto interpretation errors a
// CryptoError is.
type CryptoErrorKind int

const (
	// MalformedByteEncoding: a hex argument that is not lowercase,
	// even-length hex (INTERPRETATION_CRYPTO_ERROR_MALFORMED_BYTE_ENCODING).
	MalformedByteEncoding CryptoErrorKind = iota + 1
	// MalformedKey: a public key that is not a DER EC SubjectPublicKeyInfo
	// (INTERPRETATION_CRYPTO_ERROR_MALFORMED_KEY).
	MalformedKey
	// MalformedSignature: a signature that is not a DER ECDSA signature
	// (INTERPRETATION_CRYPTO_ERROR_MALFORMED_SIGNATURE).
	MalformedSignature
)

// CryptoError is the fatal (not catchable) interpretation error
// Crypto.MalformedByteEncoding / MalformedKey / MalformedSignature. Value
// is the offending argument text as given; Cause is Speedy's cause text.
type CryptoError struct {
	Kind  CryptoErrorKind
	Value string
	Cause string
}

// Message returns Speedy's rendering of the error (after the
// "Interpretation error: Error: " prefix the engine adds), e.g.
// "Invalid byte encoding format for DeadBeef :\ncan not parse hex string".
func (e *CryptoError) Message() string {
	var head string
	switch e.Kind {
	case MalformedByteEncoding:
		head = "Invalid byte encoding format for "
	case MalformedKey:
		head = "Malformed public key for "
	default:
		head = "Malformed signature for "
	}
	return head + e.Value + " :\n" + e.Cause
}

// Error returns Message.
func (e *CryptoError) Error() string { return e.Message() }

func malformedBytes(value, cause string) *CryptoError {
	return &CryptoError{Kind: MalformedByteEncoding, Value: value, Cause: cause}
}

// decodeLowerHex decodes s if it is lowercase, even-length hex (Guava's
// base16().lowerCase(); "" is valid).
func decodeLowerHex(s string) ([]byte, bool) {
	if len(s)%2 != 0 {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return nil, false
		}
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

// IsHex reports whether s is valid for the hex arguments of the crypto
// builtins: lowercase, even-length hex ("" included).
func IsHex(s string) bool {
	_, ok := decodeLowerHex(s)
	return ok
}

// SHA256Hex implements SHA256_HEX: SHA-256 of the bytes the hex text h
// encodes, as lowercase hex; a MalformedByteEncoding error ("can not parse
// hex string") if h is not lowercase, even-length hex.
func SHA256Hex(h string) (string, error) {
	b, ok := decodeLowerHex(h)
	if !ok {
		return "", malformedBytes(h, "can not parse hex string")
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Keccak256Text implements KECCAK256_TEXT: the original Keccak-256 (as
// Ethereum uses it, not SHA3-256) of the bytes the hex text h encodes, as
// lowercase hex; a MalformedByteEncoding error ("can not parse hex
// string") if h is not lowercase, even-length hex.
func Keccak256Text(h string) (string, error) {
	b, ok := decodeLowerHex(h)
	if !ok {
		return "", malformedBytes(h, "can not parse hex string")
	}
	d := sha3.NewLegacyKeccak256()
	d.Write(b)
	return hex.EncodeToString(d.Sum(nil)), nil
}

// Secp256k1Bool implements SECP256K1_BOOL(signature, message, publicKey),
// all hex: it verifies signature over SHA-256(message bytes), i.e. standard
// SHA256withECDSA. The message's hex is checked first ("can not parse
// message hex string"); then as Secp256k1WithECDSABool.
func Secp256k1Bool(signature, message, publicKey string) (bool, error) {
	m, ok := decodeLowerHex(message)
	if !ok {
		return false, malformedBytes(message, "can not parse message hex string")
	}
	sum := sha256.Sum256(m)
	return Secp256k1WithECDSABool(signature, hex.EncodeToString(sum[:]), publicKey)
}

// Secp256k1WithECDSABool implements SECP256K1_WITH_ECDSA_BOOL(signature,
// message, publicKey), all hex: raw ECDSA verification (BouncyCastle's
// NONEwithECDSA) with message used as the digest (its leftmost bits when
// longer than the group order). publicKey is a DER X.509
// SubjectPublicKeyInfo of an EC key with an uncompressed point; signature
// is a DER ECDSA signature.
//
// Failures, in Speedy's order: MalformedByteEncoding for bad hex in the
// signature, the message, then the key (causes "can not parse signature hex
// string", "can not parse message hex string", "can not parse DER encoded
// public key hex string"); MalformedKey when the key does not parse as an
// EC key; MalformedByteEncoding (key, "can not parse DER encoded public key
// hex string") when its point is not on its curve; MalformedSignature
// ("error decoding signature bytes.") when the signature is not exactly the
// DER encoding of two integers in [0, n). A well-formed but wrong signature
// is false, not an error.
func Secp256k1WithECDSABool(signature, message, publicKey string) (bool, error) {
	sig, ok := decodeLowerHex(signature)
	if !ok {
		return false, malformedBytes(signature, "can not parse signature hex string")
	}
	msg, ok := decodeLowerHex(message)
	if !ok {
		return false, malformedBytes(message, "can not parse message hex string")
	}
	key, err := parseECKey(publicKey)
	if err != nil {
		return false, err
	}
	if !key.onCurve() {
		return false, malformedBytes(publicKey, "can not parse DER encoded public key hex string")
	}
	r, s, ok := parseDERSignature(sig, key.order())
	if !ok {
		return false, &CryptoError{Kind: MalformedSignature, Value: signature, Cause: "error decoding signature bytes."}
	}
	return key.verify(msg, r, s), nil
}

// Secp256k1ValidateKey implements SECP256K1_VALIDATE_KEY (LF >= 2.3): the
// DER public key (hex) parses as an EC key and its point lies on secp256k1
// and is not the point at infinity. Bad hex or coordinates outside the
// secp256k1 field give MalformedByteEncoding ("can not parse DER encoded
// public key hex string"); a key that does not parse gives MalformedKey.
func Secp256k1ValidateKey(publicKey string) (bool, error) {
	key, err := parseECKey(publicKey)
	if err != nil {
		return false, err
	}
	p := secp256k1.Params().P
	if key.x.Cmp(p) >= 0 || key.y.Cmp(p) >= 0 {
		return false, malformedBytes(publicKey, "can not parse DER encoded public key hex string")
	}
	return secp256k1OnCurve(key.x, key.y), nil
}

func secp256k1OnCurve(x, y *big.Int) bool {
	p := secp256k1.Params().P
	lhs := new(big.Int).Mul(y, y)
	lhs.Mod(lhs, p)
	rhs := new(big.Int).Mul(x, x)
	rhs.Mul(rhs, x)
	rhs.Add(rhs, big.NewInt(7))
	rhs.Mod(rhs, p)
	return lhs.Cmp(rhs) == 0
}

var (
	oidECPublicKey = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidSecp256k1   = asn1.ObjectIdentifier{1, 3, 132, 0, 10}
	oidP256        = asn1.ObjectIdentifier{1, 2, 840, 10045, 3, 1, 7}
	oidP384        = asn1.ObjectIdentifier{1, 3, 132, 0, 34}
	oidP521        = asn1.ObjectIdentifier{1, 3, 132, 0, 35}
)

// ecKey is a parsed EC public key: secp256k1, or a NIST curve (which Java's
// KeyFactory("EC") also accepts; the verification then runs on that curve).
type ecKey struct {
	der   []byte
	curve asn1.ObjectIdentifier
	x, y  *big.Int
	point []byte // 0x04 || X || Y
}

type subjectPublicKeyInfo struct {
	Algorithm pkix.AlgorithmIdentifier
	PublicKey asn1.BitString
}

const invalidKey = "java.security.InvalidKeyException: "

// parseECKey decodes the hex DER SubjectPublicKeyInfo of an EC key with a
// named curve and an uncompressed point (what Java's KeyFactory("EC")
// accepts). The point is not checked against the curve here.
func parseECKey(publicKey string) (*ecKey, error) {
	der, ok := decodeLowerHex(publicKey)
	if !ok {
		return nil, malformedBytes(publicKey, "can not parse DER encoded public key hex string")
	}
	bad := func(cause string) error {
		return &CryptoError{Kind: MalformedKey, Value: publicKey, Cause: invalidKey + cause}
	}
	var spki subjectPublicKeyInfo
	rest, err := asn1.Unmarshal(der, &spki)
	if err != nil || len(rest) != 0 {
		return nil, bad("Unable to decode key")
	}
	if !spki.Algorithm.Algorithm.Equal(oidECPublicKey) {
		return nil, bad("Not an EC key")
	}
	var curve asn1.ObjectIdentifier
	if rest, err := asn1.Unmarshal(spki.Algorithm.Parameters.FullBytes, &curve); err != nil || len(rest) != 0 {
		return nil, bad("Unsupported EC domain parameters")
	}
	var size int
	switch {
	case curve.Equal(oidSecp256k1), curve.Equal(oidP256):
		size = 32
	case curve.Equal(oidP384):
		size = 48
	case curve.Equal(oidP521):
		size = 66
	default:
		return nil, bad("Unsupported EC domain parameters")
	}
	pt := spki.PublicKey.RightAlign()
	if spki.PublicKey.BitLength%8 != 0 || len(pt) == 0 || pt[0] != 4 {
		return nil, bad("Only uncompressed point format supported")
	}
	if len(pt) != 1+2*size {
		return nil, bad("Point does not match field size")
	}
	return &ecKey{
		der:   der,
		curve: curve,
		x:     new(big.Int).SetBytes(pt[1 : 1+size]),
		y:     new(big.Int).SetBytes(pt[1+size:]),
		point: pt,
	}, nil
}

func (k *ecKey) nist() elliptic.Curve {
	switch {
	case k.curve.Equal(oidP256):
		return elliptic.P256()
	case k.curve.Equal(oidP384):
		return elliptic.P384()
	case k.curve.Equal(oidP521):
		return elliptic.P521()
	}
	return nil
}

func (k *ecKey) order() *big.Int {
	if c := k.nist(); c != nil {
		return c.Params().N
	}
	return secp256k1.Params().N
}

// onCurve reports whether the point is a valid point of its curve.
func (k *ecKey) onCurve() bool {
	if k.nist() != nil {
		// the standard library validates NIST points when parsing
		_, err := x509.ParsePKIXPublicKey(k.der)
		return err == nil
	}
	_, err := secp256k1.ParsePubKey(k.point)
	return err == nil
}

// verify checks the ECDSA signature (r, s) over digest; r and s are in
// [0, n).
func (k *ecKey) verify(digest []byte, r, s *big.Int) bool {
	if r.Sign() == 0 || s.Sign() == 0 {
		return false
	}
	if k.nist() != nil {
		pub, err := x509.ParsePKIXPublicKey(k.der)
		if err != nil {
			return false
		}
		ec, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return false
		}
		sig, err := asn1.Marshal(struct{ R, S *big.Int }{r, s})
		if err != nil {
			return false
		}
		return ecdsa.VerifyASN1(ec, digest, sig)
	}
	pub, err := secp256k1.ParsePubKey(k.point)
	if err != nil {
		return false
	}
	if len(digest) > 32 { // BouncyCastle uses the leftmost bits of the order's length
		digest = digest[:32]
	}
	var rs, ss secp256k1.ModNScalar
	rs.SetByteSlice(r.Bytes())
	ss.SetByteSlice(s.Bytes())
	return secpecdsa.NewSignature(&rs, &ss).Verify(digest, pub)
}

// parseDERSignature accepts exactly what BouncyCastle's StandardDSAEncoding
// decodes: the DER encoding of SEQUENCE { INTEGER r, INTEGER s } (the input
// must equal the canonical re-encoding) with 0 <= r, s < n.
func parseDERSignature(sig []byte, n *big.Int) (r, s *big.Int, ok bool) {
	var v struct{ R, S *big.Int }
	rest, err := asn1.Unmarshal(sig, &v)
	if err != nil || len(rest) != 0 {
		return nil, nil, false
	}
	again, err := asn1.Marshal(v)
	if err != nil || string(again) != string(sig) {
		return nil, nil, false
	}
	for _, x := range []*big.Int{v.R, v.S} {
		if x.Sign() < 0 || x.Cmp(n) >= 0 {
			return nil, nil, false
		}
	}
	return v.R, v.S, true
}
