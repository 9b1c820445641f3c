package script

import (
	"context"
	"crypto/sha256"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	secpecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ledgernode/ledgernode/daml/engine"
)

// The secp256k1 test-signing questions (module
// Daml.Script.Internal.Questions.Crypto.Text). Keys are DER, as hex:
// PKCS#8 PrivateKeyInfo for private keys, X.509 SubjectPublicKeyInfo with
// an uncompressed point for public keys (what Java's KeyFactory("EC")
// reads and writes, and what the SECP256K1_BOOL builtins verify against).
// Signatures are hex DER ECDSA signatures.
//
// The JVM runner signs with a SHA1PRNG seeded with 1, so that a script
// signs the same message with the same key identically on every run. This
// runner signs with RFC 6979 deterministic nonces instead: its signatures
// are reproducible too, and verify with the same builtins, but are not
// byte for byte the JVM's.

var (
	oidECPublicKey = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidSecp256k1   = asn1.ObjectIdentifier{1, 3, 132, 0, 10}
)

// pkcs8 is a PKCS#8 PrivateKeyInfo (RFC 5208; attributes are not read).
type pkcs8 struct {
	Version    int
	Algo       pkix.AlgorithmIdentifier
	PrivateKey []byte
}

// ecPrivateKey is a SEC 1 ECPrivateKey (RFC 5915).
type ecPrivateKey struct {
	Version       int
	PrivateKey    []byte
	NamedCurveOID asn1.ObjectIdentifier `asn1:"optional,explicit,tag:0"`
	PublicKey     asn1.BitString        `asn1:"optional,explicit,tag:1"`
}

// spki is an X.509 SubjectPublicKeyInfo.
type spki struct {
	Algorithm pkix.AlgorithmIdentifier
	PublicKey asn1.BitString
}

// lowerHex decodes s if it is lowercase, even-length hex (daml-lf's
// HexString; "" is valid).
func lowerHex(s, what string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return nil, fmt.Errorf("%s is not lowercase hex: %q", what, s)
		}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%s is not hex: %v", what, err)
	}
	return b, nil
}

// parsePrivateKey reads a hex PKCS#8 secp256k1 private key.
func parsePrivateKey(h string) (*secp256k1.PrivateKey, error) {
	der, err := lowerHex(h, "private key")
	if err != nil {
		return nil, err
	}
	var p pkcs8
	if rest, err := asn1.Unmarshal(der, &p); err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("private key: not a DER PKCS#8 PrivateKeyInfo")
	}
	var curve asn1.ObjectIdentifier
	if !p.Algo.Algorithm.Equal(oidECPublicKey) {
		return nil, fmt.Errorf("private key: not an EC key (algorithm %v)", p.Algo.Algorithm)
	}
	if rest, err := asn1.Unmarshal(p.Algo.Parameters.FullBytes, &curve); err != nil || len(rest) != 0 || !curve.Equal(oidSecp256k1) {
		return nil, fmt.Errorf("private key: not a secp256k1 key")
	}
	var ec ecPrivateKey
	if rest, err := asn1.Unmarshal(p.PrivateKey, &ec); err != nil || len(rest) != 0 || ec.Version != 1 {
		return nil, fmt.Errorf("private key: not a DER ECPrivateKey")
	}
	d := ec.PrivateKey
	for len(d) > 32 && d[0] == 0 {
		d = d[1:]
	}
	var k secp256k1.ModNScalar
	if len(d) > 32 || k.SetByteSlice(d) || k.IsZero() {
		return nil, fmt.Errorf("private key: out of range")
	}
	return secp256k1.NewPrivateKey(&k), nil
}

// sign answers Secp256k1Sign (digest: SHA-256 of the message, for
// SECP256K1_BOOL) and Secp256k1WithEcdsaSign (the message is the digest,
// for SECP256K1_WITH_ECDSA_BOOL) {privateKey, message}: the hex DER
// signature.
func (s *session) sign(p *engine.Record, hash bool) (engine.Value, error) {
	pk, err := asText(field(p, "privateKey"))
	if err != nil {
		return nil, fmt.Errorf("privateKey: %w", err)
	}
	mh, err := asText(field(p, "message"))
	if err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	key, err := parsePrivateKey(pk)
	if err != nil {
		return nil, err
	}
	digest, err := lowerHex(mh, "message")
	if err != nil {
		return nil, err
	}
	if hash {
		sum := sha256.Sum256(digest)
		digest = sum[:]
	}
	return engine.Text(hex.EncodeToString(secpecdsa.Sign(key, digest).Serialize())), nil
}

func (s *session) secp256k1Sign(_ context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	return s.sign(p, true)
}

func (s *session) secp256k1WithEcdsaSign(_ context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	return s.sign(p, false)
}

// secp256k1GenerateKeyPair answers Secp256k1GenerateKeyPair {} with a
// fresh random key pair: Secp256k1KeyPair {privateKey, publicKey}, hex
// PKCS#8 and X.509 DER.
func (s *session) secp256k1GenerateKeyPair(context.Context, *engine.Record, engine.Value) (engine.Value, error) {
	key, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return nil, err
	}
	priv, pub, err := encodeKeyPair(key)
	if err != nil {
		return nil, err
	}
	return s.recordOf(s.dsID("Questions.Crypto.Text", "Secp256k1KeyPair"),
		map[string]engine.Value{"privateKey": engine.Text(priv), "publicKey": engine.Text(pub)}), nil
}

// encodeKeyPair returns the hex PKCS#8 private key (with its public key,
// as OpenSSL writes it) and the hex X.509 public key of key.
func encodeKeyPair(key *secp256k1.PrivateKey) (priv, pub string, err error) {
	curve, err := asn1.Marshal(oidSecp256k1)
	if err != nil {
		return "", "", err
	}
	algo := pkix.AlgorithmIdentifier{Algorithm: oidECPublicKey, Parameters: asn1.RawValue{FullBytes: curve}}
	point := key.PubKey().SerializeUncompressed()
	bits := asn1.BitString{Bytes: point, BitLength: 8 * len(point)}
	ec, err := asn1.Marshal(ecPrivateKey{Version: 1, PrivateKey: key.Serialize(), PublicKey: bits})
	if err != nil {
		return "", "", err
	}
	p8, err := asn1.Marshal(pkcs8{Algo: algo, PrivateKey: ec})
	if err != nil {
		return "", "", err
	}
	x509, err := asn1.Marshal(spki{Algorithm: algo, PublicKey: bits})
	if err != nil {
		return "", "", err
	}
	return hex.EncodeToString(p8), hex.EncodeToString(x509), nil
}
