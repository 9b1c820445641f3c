package script

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// An OpenSSL 3 secp256k1 key: `openssl genpkey -algorithm EC -pkeyopt
// ec_paramgen_curve:secp256k1`, then `openssl pkcs8 -topk8 -nocrypt
// -outform DER` and `openssl pkey -pubout -outform DER`.
const (
	opensslPKCS8 = "308184020100301006072a8648ce3d020106052b8104000a046d306b02010104209403052702f8a46bd52828bcaab21ba4886d8ba58efb1f323c358b990f953e60a144034200046474615f0fa156348cf73202b15286fe63f2e3523301c0963371b5691483a638107b27eeb5c7fd50f5ca6cdee012a13e8ca9770235d435e53d8beb8ac3f7fedd"
	opensslSPKI  = "3056301006072a8648ce3d020106052b8104000a034200046474615f0fa156348cf73202b15286fe63f2e3523301c0963371b5691483a638107b27eeb5c7fd50f5ca6cdee012a13e8ca9770235d435e53d8beb8ac3f7fedd"
)

// pkcs8Of wraps an ECPrivateKey in a PKCS#8 PrivateKeyInfo of curve.
func pkcs8Of(t *testing.T, curve asn1.ObjectIdentifier, ec ecPrivateKey) string {
	t.Helper()
	params, err := asn1.Marshal(curve)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := asn1.Marshal(ec)
	if err != nil {
		t.Fatal(err)
	}
	der, err := asn1.Marshal(pkcs8{Algo: pkix.AlgorithmIdentifier{Algorithm: oidECPublicKey, Parameters: asn1.RawValue{FullBytes: params}}, PrivateKey: inner})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(der)
}

// TestParsePrivateKey: the PKCS#8 keys of OpenSSL, of BouncyCastle (the
// JVM runner's provider: curve and public key in the ECPrivateKey), of
// an ECPrivateKey with neither, and of encodeKeyPair are read; other keys
// are refused with a reason.
func TestParsePrivateKey(t *testing.T) {
	t.Parallel()
	gen, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	genPriv, genPub, err := encodeKeyPair(gen)
	if err != nil {
		t.Fatal(err)
	}
	nist, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	nistDER, err := x509.MarshalPKCS8PrivateKey(nist)
	if err != nil {
		t.Fatal(err)
	}
	scalar := gen.Serialize()
	tests := []struct {
		name, key string
		// pub is the X.509 key the private key's public key encodes to;
		// fail the refusal's text.
		pub, fail string
	}{
		{name: "openssl", key: opensslPKCS8, pub: opensslSPKI},
		{name: "encodeKeyPair", key: genPriv, pub: genPub},
		{name: "BouncyCastle", key: pkcs8Of(t, oidSecp256k1, ecPrivateKey{Version: 1, PrivateKey: scalar, NamedCurveOID: oidSecp256k1,
			PublicKey: asn1.BitString{Bytes: gen.PubKey().SerializeUncompressed(), BitLength: 520}}), pub: genPub},
		{name: "no public key", key: pkcs8Of(t, oidSecp256k1, ecPrivateKey{Version: 1, PrivateKey: scalar}), pub: genPub},
		{name: "leading zero", key: pkcs8Of(t, oidSecp256k1, ecPrivateKey{Version: 1, PrivateKey: append([]byte{0}, scalar...)}), pub: genPub},
		{name: "uppercase hex", key: strings.ToUpper(opensslPKCS8), fail: "private key is not lowercase hex"},
		{name: "odd hex", key: opensslPKCS8[1:], fail: "private key is not hex"},
		{name: "not PKCS#8", key: "3000", fail: "not a DER PKCS#8 PrivateKeyInfo"},
		{name: "P-256", key: hex.EncodeToString(nistDER), fail: "not a secp256k1 key"},
		{name: "zero", key: pkcs8Of(t, oidSecp256k1, ecPrivateKey{Version: 1, PrivateKey: make([]byte, 32)}), fail: "out of range"},
		{name: "order", key: pkcs8Of(t, oidSecp256k1, ecPrivateKey{Version: 1, PrivateKey: secp256k1.Params().N.Bytes()}), fail: "out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			k, err := parsePrivateKey(tc.key)
			if tc.fail != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fail) {
					t.Fatalf("got %v, want a refusal with %q", err, tc.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, pub, err := encodeKeyPair(k)
			if err != nil {
				t.Fatal(err)
			}
			if pub != tc.pub {
				t.Errorf("public key %s, want %s", pub, tc.pub)
			}
		})
	}
}
