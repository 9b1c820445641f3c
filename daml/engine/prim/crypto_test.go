package prim

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	secpecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

func wantCrypto(t *testing.T, err error, kind CryptoErrorKind, value, cause string) {
	t.Helper()
	var ce *CryptoError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want CryptoError", err)
	}
	if ce.Kind != kind || ce.Value != value || cause != "" && ce.Cause != cause {
		t.Errorf("CryptoError = %+v, want kind %d value %q cause %q", ce, kind, value, cause)
	}
}

func TestSHA256Hex(t *testing.T) {
	for in, want := range map[string]string{
		"": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855": "5df6e0e2761359d30a8275058e299fcc0381534545f55cf43e41983f5d4c9456",
	} {
		if got, err := SHA256Hex(in); err != nil || got != want {
			t.Errorf("SHA256_HEX %q = %s, %v", in, got, err)
		}
	}
	for _, in := range []string{"DeadBeef", lorem, "a¶‱😂", "0"} {
		_, err := SHA256Hex(in)
		wantCrypto(t, err, MalformedByteEncoding, in, "can not parse hex string")
	}
	err := &CryptoError{Kind: MalformedByteEncoding, Value: "DeadBeef", Cause: "can not parse hex string"}
	if err.Message() != "Invalid byte encoding format for DeadBeef :\ncan not parse hex string" {
		t.Errorf("message %q", err.Message())
	}
}

func TestKeccak256(t *testing.T) {
	for in, want := range map[string]string{
		"":         "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
		"00":       "bc36789e7a1e281436464229828f817d6612f7b477d66591ff96a9e064bcc98a",
		"0000":     "54a8c0ab653c15bfb48b47fd011ba2b9617af01cb45cab344acd57c924d56798",
		"deadbeef": "d4fd4e189132273036449fc9e11198c739161b4c0116a9a2dccdfa1c492006f1",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855": "a332df1e58a99d8dcb0767dab2d23985ef337d59fadbe040f56e1c642b314973",
	} {
		if got, err := Keccak256Text(in); err != nil || got != want {
			t.Errorf("KECCAK256_TEXT %q = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "000", "0g", "DeadBeef", "843d0824-9133-4bc9-b0e8-7cb4e8487dd1", "input", lorem, "a¶‱😂"} {
		_, err := Keccak256Text(in)
		wantCrypto(t, err, MalformedByteEncoding, in, "can not parse hex string")
	}
}

// spkiHex returns the hex DER SubjectPublicKeyInfo of an EC point.
func spkiHex(t *testing.T, curve asn1.ObjectIdentifier, point []byte) string {
	t.Helper()
	params, err := asn1.Marshal(curve)
	if err != nil {
		t.Fatal(err)
	}
	der, err := asn1.Marshal(subjectPublicKeyInfo{
		Algorithm: pkix.AlgorithmIdentifier{Algorithm: oidECPublicKey, Parameters: asn1.RawValue{FullBytes: params}},
		PublicKey: asn1.BitString{Bytes: point, BitLength: 8 * len(point)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(der)
}

func derSig(t *testing.T, r, s *big.Int) string {
	t.Helper()
	b, err := asn1.Marshal(struct{ R, S *big.Int }{r, s})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func TestSecp256k1(t *testing.T) {
	priv, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	pub := spkiHex(t, oidSecp256k1, priv.PubKey().SerializeUncompressed())
	other, _ := secp256k1.GeneratePrivateKey()
	otherPub := spkiHex(t, oidSecp256k1, other.PubKey().SerializeUncompressed())

	message := "deadbeef"
	msgBytes, _ := hex.DecodeString(message)
	digest := sha256.Sum256(msgBytes)
	// SECP256K1_WITH_ECDSA_BOOL signs the raw message bytes as the digest
	signature := hex.EncodeToString(secpecdsa.Sign(priv, msgBytes).Serialize())
	signatureDigest := hex.EncodeToString(secpecdsa.Sign(priv, digest[:]).Serialize())

	check := func(name string, got bool, err error, want bool) {
		t.Helper()
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", name, got, err, want)
		}
	}
	ok, err := Secp256k1WithECDSABool(signature, message, pub)
	check("valid raw", ok, err, true)
	ok, err = Secp256k1Bool(signatureDigest, message, pub)
	check("valid sha256", ok, err, true)
	ok, err = Secp256k1WithECDSABool(signature, "deadbeefdeadbeef", pub)
	check("other message raw", ok, err, false)
	ok, err = Secp256k1Bool(signatureDigest, "deadbeefdeadbeef", pub)
	check("other message sha256", ok, err, false)
	ok, err = Secp256k1WithECDSABool(signature, message, otherPub)
	check("other key", ok, err, false)
	ok, err = Secp256k1Bool(signatureDigest, message, otherPub)
	check("other key sha256", ok, err, false)

	// high-S signatures are valid (BouncyCastle does not enforce low S)
	var r, s big.Int
	var v struct{ R, S *big.Int }
	sigBytes, _ := hex.DecodeString(signature)
	if _, err := asn1.Unmarshal(sigBytes, &v); err != nil {
		t.Fatal(err)
	}
	n := secp256k1.Params().N
	r.Set(v.R)
	s.Sub(n, v.S)
	ok, err = Secp256k1WithECDSABool(derSig(t, &r, &s), message, pub)
	check("high S", ok, err, true)
	// r = 0 or s = 0: well-formed, not valid
	ok, err = Secp256k1WithECDSABool(derSig(t, big.NewInt(0), v.S), message, pub)
	check("r = 0", ok, err, false)
	// a long message is truncated to its leftmost 256 bits
	long := make([]byte, 40)
	copy(long, digest[:])
	long[39] = 7
	sigLong := hex.EncodeToString(secpecdsa.Sign(priv, digest[:]).Serialize())
	ok, err = Secp256k1WithECDSABool(sigLong, hex.EncodeToString(long), pub)
	check("long message", ok, err, true)

	// bad hex, in Speedy's order: signature, message, key
	_, err = Secp256k1WithECDSABool("DeadBeef", "XX", "YY")
	wantCrypto(t, err, MalformedByteEncoding, "DeadBeef", "can not parse signature hex string")
	_, err = Secp256k1WithECDSABool("non-hex encoded", message, pub)
	wantCrypto(t, err, MalformedByteEncoding, "non-hex encoded", "can not parse signature hex string")
	_, err = Secp256k1WithECDSABool(signature, "DeadBeef", "YY")
	wantCrypto(t, err, MalformedByteEncoding, "DeadBeef", "can not parse message hex string")
	_, err = Secp256k1Bool("XX", "DeadBeef", pub)
	wantCrypto(t, err, MalformedByteEncoding, "DeadBeef", "can not parse message hex string")
	_, err = Secp256k1WithECDSABool(signature, message, "Y")
	wantCrypto(t, err, MalformedByteEncoding, "Y", "can not parse DER encoded public key hex string")
	_, err = Secp256k1Bool(signatureDigest, message, "Y")
	wantCrypto(t, err, MalformedByteEncoding, "Y", "can not parse DER encoded public key hex string")

	// an RSA key is a MalformedKey
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	rsaDER, _ := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	rsaHex := hex.EncodeToString(rsaDER)
	_, err = Secp256k1WithECDSABool(signature, message, rsaHex)
	wantCrypto(t, err, MalformedKey, rsaHex, "")
	var ce *CryptoError
	if errors.As(err, &ce) && ce.Cause[:len(invalidKey)] != invalidKey {
		t.Errorf("cause %q", ce.Cause)
	}
	_, err = Secp256k1Bool(signatureDigest, message, rsaHex)
	wantCrypto(t, err, MalformedKey, rsaHex, "")
	// compressed point, truncated DER, trailing bytes: MalformedKey
	for _, key := range []string{
		spkiHex(t, oidSecp256k1, priv.PubKey().SerializeCompressed()),
		pub[:len(pub)-2],
		pub + "00",
		spkiHex(t, asn1.ObjectIdentifier{1, 3, 132, 0, 33}, priv.PubKey().SerializeUncompressed()), // P-224
		"",
	} {
		_, err = Secp256k1WithECDSABool(signature, message, key)
		wantCrypto(t, err, MalformedKey, key, "")
	}
	// a point off the curve
	bad := priv.PubKey().SerializeUncompressed()
	bad[64] ^= 1
	badHex := spkiHex(t, oidSecp256k1, bad)
	_, err = Secp256k1WithECDSABool(signature, message, badHex)
	wantCrypto(t, err, MalformedByteEncoding, badHex, "can not parse DER encoded public key hex string")

	// malformed signatures
	rsaSig := hex.EncodeToString(make([]byte, 128))
	for _, sig := range []string{
		rsaSig,
		"",
		signature[:len(signature)-2],
		signature + "00",
		derSig(t, n, v.S),                     // r = n
		derSig(t, new(big.Int).Neg(v.R), v.S), // r < 0
		"3006020100020100" + "",               // fine: r = s = 0 → false, checked below
	} {
		got, err := Secp256k1WithECDSABool(sig, message, pub)
		if sig == "3006020100020100" {
			check("zero sig", got, err, false)
			continue
		}
		wantCrypto(t, err, MalformedSignature, sig, "error decoding signature bytes.")
	}
	// non-minimal integer encoding (BouncyCastle compares with the re-encoding)
	nonMinimal := "3007" + "02020001" + "020101"
	_, err = Secp256k1WithECDSABool(nonMinimal, message, pub)
	wantCrypto(t, err, MalformedSignature, nonMinimal, "error decoding signature bytes.")
	// a key error is reported before a signature error
	_, err = Secp256k1WithECDSABool(rsaSig, message, rsaHex)
	wantCrypto(t, err, MalformedKey, rsaHex, "")
}

func TestSecp256k1ValidateKey(t *testing.T) {
	priv, _ := secp256k1.GeneratePrivateKey()
	pt := priv.PubKey().SerializeUncompressed()
	ok, err := Secp256k1ValidateKey(spkiHex(t, oidSecp256k1, pt))
	if err != nil || !ok {
		t.Errorf("valid key: %v %v", ok, err)
	}
	off := append([]byte(nil), pt...)
	off[64] ^= 1
	ok, err = Secp256k1ValidateKey(spkiHex(t, oidSecp256k1, off))
	if err != nil || ok {
		t.Errorf("off-curve key: %v %v", ok, err)
	}
	// coordinates >= p
	big := append([]byte{4}, make([]byte, 64)...)
	for i := 1; i < 33; i++ {
		big[i] = 0xff
	}
	bigHex := spkiHex(t, oidSecp256k1, big)
	_, err = Secp256k1ValidateKey(bigHex)
	wantCrypto(t, err, MalformedByteEncoding, bigHex, "can not parse DER encoded public key hex string")
	_, err = Secp256k1ValidateKey("XYZ")
	wantCrypto(t, err, MalformedByteEncoding, "XYZ", "can not parse DER encoded public key hex string")
	_, err = Secp256k1ValidateKey("3000")
	wantCrypto(t, err, MalformedKey, "3000", "")
	// a P-256 key parses but is not a secp256k1 point
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKIXPublicKey(&p256.PublicKey)
	ok, err = Secp256k1ValidateKey(hex.EncodeToString(der))
	if err != nil || ok {
		t.Errorf("P-256 key: %v %v", ok, err)
	}
}

// TestNISTKeys: Java's KeyFactory("EC") parses NIST keys too, and
// NONEwithECDSA then verifies on that curve.
func TestNISTKeys(t *testing.T) {
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
		msg := []byte("some message")
		digest := sha256.Sum256(msg)
		sig, err := ecdsa.SignASN1(rand.Reader, k, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		ok, err := Secp256k1Bool(hex.EncodeToString(sig), hex.EncodeToString(msg), hex.EncodeToString(der))
		if err != nil || !ok {
			t.Errorf("%s: %v %v", c.Params().Name, ok, err)
		}
		ok, err = Secp256k1Bool(hex.EncodeToString(sig), "00", hex.EncodeToString(der))
		if err != nil || ok {
			t.Errorf("%s wrong message: %v %v", c.Params().Name, ok, err)
		}
	}
}
