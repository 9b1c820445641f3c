package interactive

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
)

// testKey is a private key with its v30 public key and a signer.
type testKey struct {
	pub  SigningPublicKey // Ledger API form
	key  SigningKey       // normalized v30 form
	fp   string
	sign func(msg []byte) Signature
}

func newEdKey(t testing.TB, seedByte byte, usage ...SigningKeyUsage) testKey {
	t.Helper()
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seedByte}, 32))
	pub := SigningPublicKey{Format: KeyFormatRaw, KeyData: priv.Public().(ed25519.PublicKey), KeySpec: SigningKeySpecEcCurve25519}
	return finishKey(t, pub, usage, func(msg []byte) Signature {
		return Signature{Format: SignatureFormatConcat, Signature: ed25519.Sign(priv, msg), SigningAlgorithmSpec: SigningAlgorithmSpecEd25519}
	})
}

func newECKey(t testing.TB, curve elliptic.Curve, format KeyFormat, usage ...SigningKeyUsage) testKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	spec, alg := SigningKeySpecEcP256, SigningAlgorithmSpecEcDsaSha256
	if curve == elliptic.P384() {
		spec, alg = SigningKeySpecEcP384, SigningAlgorithmSpecEcDsaSha384
	}
	pub := SigningPublicKey{Format: format, KeyData: der, KeySpec: spec}
	return finishKey(t, pub, usage, func(msg []byte) Signature {
		var d []byte
		if alg == SigningAlgorithmSpecEcDsaSha256 {
			s := sha256.Sum256(msg)
			d = s[:]
		} else {
			s := sha512.Sum384(msg)
			d = s[:]
		}
		sig, err := ecdsa.SignASN1(rand.Reader, priv, d)
		if err != nil {
			t.Fatal(err)
		}
		return Signature{Format: SignatureFormatDER, Signature: sig, SigningAlgorithmSpec: alg}
	})
}

func finishKey(t testing.TB, pub SigningPublicKey, usage []SigningKeyUsage, sign func([]byte) Signature) testKey {
	t.Helper()
	if len(usage) == 0 {
		usage = nil
	}
	k, fp, err := NormalizeSigningKey(pub, usage)
	if err != nil {
		t.Fatal(err)
	}
	return testKey{pub: pub, key: k, fp: fp, sign: func(msg []byte) Signature {
		s := sign(msg)
		s.SignedBy = fp
		return s
	}}
}

func TestNormalizeSigningKey(t *testing.T) {
	ed := newEdKey(t, 1)
	p256 := newECKey(t, elliptic.P256(), KeyFormatDER)
	p384 := newECKey(t, elliptic.P384(), KeyFormatDERX509SubjectPublicKeyInfo)
	tests := []struct {
		name    string
		in      SigningPublicKey
		wantFP  string
		wantErr string
	}{
		{"ed25519 raw", ed.pub, ed.fp, ""},
		{"ed25519 spki", SigningPublicKey{Format: KeyFormatDERX509SubjectPublicKeyInfo, KeyData: ed.key.PublicKey, KeySpec: SigningKeySpecEcCurve25519}, ed.fp, ""},
		{"p256 der", p256.pub, identity.Fingerprint(p256.pub.KeyData), ""},
		{"p256 spki", SigningPublicKey{Format: KeyFormatDERX509SubjectPublicKeyInfo, KeyData: p256.pub.KeyData, KeySpec: SigningKeySpecEcP256}, identity.Fingerprint(p256.pub.KeyData), ""},
		{"p384 spki", p384.pub, identity.Fingerprint(p384.pub.KeyData), ""},
		{"ed25519 der", SigningPublicKey{Format: KeyFormatDER, KeyData: ed.key.PublicKey, KeySpec: SigningKeySpecEcCurve25519}, "", "not supported for key spec"},
		{"ed25519 short raw", SigningPublicKey{Format: KeyFormatRaw, KeyData: ed.pub.KeyData[:31], KeySpec: SigningKeySpecEcCurve25519}, "", "32 bytes"},
		{"p256 raw", SigningPublicKey{Format: KeyFormatRaw, KeyData: p256.pub.KeyData, KeySpec: SigningKeySpecEcP256}, "", "not supported for key spec"},
		{"wrong curve", SigningPublicKey{Format: KeyFormatDER, KeyData: p256.pub.KeyData, KeySpec: SigningKeySpecEcP384}, "", "does not match key spec"},
		{"ed key as p256", SigningPublicKey{Format: KeyFormatDER, KeyData: ed.key.PublicKey, KeySpec: SigningKeySpecEcP256}, "", "does not match key spec"},
		{"garbage", SigningPublicKey{Format: KeyFormatDER, KeyData: []byte{0x30, 0x00}, KeySpec: SigningKeySpecEcP256}, "", "invalid DER"},
		{"no spec", SigningPublicKey{Format: KeyFormatRaw, KeyData: ed.pub.KeyData}, "", "key spec"},
		{"secp256k1", SigningPublicKey{Format: KeyFormatDER, KeyData: p256.pub.KeyData, KeySpec: SigningKeySpecEcSecp256k1}, "", "not supported by this participant"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, fp, err := NormalizeSigningKey(tc.in, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fp != tc.wantFP {
				t.Errorf("fingerprint = %s, want %s", fp, tc.wantFP)
			}
			if k.Format != KeyFormatDERX509SubjectPublicKeyInfo || k.KeySpec != tc.in.KeySpec {
				t.Errorf("normalized key = %+v", k)
			}
			if fp2, err := k.Fingerprint(); err != nil || fp2 != fp {
				t.Errorf("SigningKey.Fingerprint = %s, %v", fp2, err)
			}
		})
	}
}

func TestVerifySignature(t *testing.T) {
	msg := bytes.Repeat([]byte{0xab}, 32)
	ed := newEdKey(t, 2)
	p256 := newECKey(t, elliptic.P256(), KeyFormatDER)
	p384 := newECKey(t, elliptic.P384(), KeyFormatDER)
	protoOnly := newEdKey(t, 3, SigningKeyUsageNamespace)
	mod := func(s Signature, f func(*Signature)) Signature { f(&s); return s }
	tests := []struct {
		name    string
		key     testKey
		sig     Signature
		wantErr string
	}{
		{"ed25519 concat", ed, ed.sign(msg), ""},
		{"ed25519 raw migrated", ed, mod(ed.sign(msg), func(s *Signature) { s.Format = SignatureFormatRaw }), ""},
		{"ed25519 der rejected", ed, mod(ed.sign(msg), func(s *Signature) { s.Format = SignatureFormatDER }), "not supported for SIGNING_ALGORITHM_SPEC_ED25519"},
		{"p256 der", p256, p256.sign(msg), ""},
		{"p256 raw migrated", p256, mod(p256.sign(msg), func(s *Signature) { s.Format = SignatureFormatRaw }), ""},
		{"p256 concat rejected", p256, mod(p256.sign(msg), func(s *Signature) { s.Format = SignatureFormatConcat }), "not supported for SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256"},
		{"p384 der", p384, p384.sign(msg), ""},
		{"p384 with sha256 spec", p384, mod(p384.sign(msg), func(s *Signature) { s.SigningAlgorithmSpec = SigningAlgorithmSpecEcDsaSha256 }), "not supported for key spec"},
		{"ed25519 spec on p256", p256, mod(p256.sign(msg), func(s *Signature) { s.SigningAlgorithmSpec = SigningAlgorithmSpecEd25519 }), "not supported for key spec"},
		{"wrong signer", ed, mod(ed.sign(msg), func(s *Signature) { s.SignedBy = p256.fp }), "signed by"},
		{"unspecified format", ed, mod(ed.sign(msg), func(s *Signature) { s.Format = 0 }), "format must be set"},
		{"unspecified algorithm", ed, mod(ed.sign(msg), func(s *Signature) { s.SigningAlgorithmSpec = 0 }), "algorithm spec must be set"},
		{"symbolic", ed, mod(ed.sign(msg), func(s *Signature) { s.Format = SignatureFormatSymbolic }), "unsupported signature format"},
		{"missing usage", protoOnly, protoOnly.sign(msg), "does not have the usage SIGNING_KEY_USAGE_PROTOCOL"},
		{"ed25519 bad", ed, ed.sign(append([]byte{1}, msg...)), "invalid signature"},
		{"p256 bad", p256, p256.sign(append([]byte{1}, msg...)), "invalid signature"},
		{"p384 bad", p384, p384.sign(msg[1:]), "invalid signature"},
		{"ed25519 truncated", ed, mod(ed.sign(msg), func(s *Signature) { s.Signature = s.Signature[:63] }), "invalid signature"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifySignature(tc.key.key, tc.sig, msg, SigningKeyUsageProtocol)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}
