package identity_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/identity"
)

func TestParsePublicKeyPEM(t *testing.T) {
	k := authKeys()
	for _, tc := range []struct {
		name string
		pem  []byte
		want any
	}{
		{"PKIX RSA", k.rsaPEM, &k.rsa.PublicKey},
		{"PKCS1 RSA", k.rsaPKCS1PEM, &k.rsa.PublicKey},
		{"RSA certificate", k.rsaCertPEM, &k.rsa.PublicKey},
		{"PKIX EC", k.ecPEM, &k.ec.PublicKey},
		{"EC certificate", k.ecCertPEM, &k.ec.PublicKey},
		{"leading text", k.rsaPEMNoise, &k.rsa.PublicKey},
		{"EC PARAMETERS block first", k.ecPEMPlus, &k.ec.PublicKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := identity.ParsePublicKeyPEM(tc.pem)
			if err != nil {
				t.Fatal(err)
			}
			type equaler interface{ Equal(x crypto.PublicKey) bool }
			if !got.(equaler).Equal(tc.want) {
				t.Errorf("got key %T, not the expected key", got)
			}
		})
	}
	for _, tc := range []struct {
		name string
		pem  []byte
		want string
	}{
		{"empty", nil, "no PEM block"},
		{"private key only", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1}}), "no PEM block"},
		{"bad PKIX", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: []byte{1}}), "parse PUBLIC KEY block"},
		{"bad PKCS1", pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: []byte{1}}), "parse RSA PUBLIC KEY block"},
		{"bad certificate", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}), "parse CERTIFICATE block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := identity.ParsePublicKeyPEM(tc.pem)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPublicKeyKinds(t *testing.T) {
	k := authKeys()
	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		key  any
		want string // error substring; "" accepts
		alg  string // the one alg the source serves
	}{
		{"RSA 2048", &k.rsa.PublicKey, "", "RS256"},
		{"ECDSA P-256", &k.ec.PublicKey, "", "ES256"},
		{"ECDSA P-384", &k.ecP384.PublicKey, "want P-256", ""},
		{"Ed25519", edPub, "unsupported public key type ed25519.PublicKey", ""},
		{"RSA 1024", &small.PublicKey, "RSA public key has 1024 bits, want at least 2048", ""},
		{"nil RSA", (*rsa.PublicKey)(nil), "nil RSA public key", ""},
		{"nil ECDSA", (*ecdsa.PublicKey)(nil), "nil ECDSA public key", ""},
		{"nil", nil, "unsupported public key type <nil>", ""},
		{"private key", k.rsa, "unsupported public key type *rsa.PrivateKey", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := identity.PublicKey(tc.key)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := src.Key(context.Background(), tc.alg, "any-kid")
			if err != nil {
				t.Fatalf("Key(%s): %v", tc.alg, err)
			}
			if diff := cmp.Diff(tc.key, got); diff != "" {
				t.Errorf("key (-want +got):\n%s", diff)
			}
			for _, other := range []string{"HS256", "RS256", "ES256", "none"} {
				if other == tc.alg {
					continue
				}
				_, err := src.Key(context.Background(), other, "")
				checkUnauthenticated(t, err, "signing algorithm "+other+" does not match the "+tc.alg+" key")
			}
		})
	}
}

func TestHMACSecretCopiesAndChecksAlg(t *testing.T) {
	secret := []byte("abc")
	src := identity.HMACSecret(secret)
	secret[0] = 'X'
	got, err := src.Key(context.Background(), "HS256", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]byte("abc"), got); diff != "" {
		t.Errorf("secret (-want +got):\n%s", diff)
	}
	_, err = src.Key(context.Background(), "RS256", "")
	checkUnauthenticated(t, err, "signing algorithm RS256 does not match the HS256 key")
}
