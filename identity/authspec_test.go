package identity_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

func writePEM(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseAuthSpecAccepts(t *testing.T) {
	t.Parallel()
	k := authKeys()
	ctx := context.Background()
	srv := newJWKSServer(t, rsaJWK("k1", &k.rsa.PublicKey))
	rsaTok := signToken(t, jwt.SigningMethodRS256, k.rsa, "k1", baseClaims())
	ecTok := signToken(t, jwt.SigningMethodES256, k.ec, "", baseClaims())
	hsTok := signToken(t, jwt.SigningMethodHS256, k.hmac, "", baseClaims())
	for _, tc := range []struct {
		name, spec, good string
		bad              []string
	}{
		{"hs256", "hs256:" + string(k.hmac), hsTok, []string{rsaTok, ecTok, signToken(t, jwt.SigningMethodHS256, k.hmacOther, "", baseClaims())}},
		{"HS256 upper case", "HS256:" + string(k.hmac), hsTok, nil},
		{"hs256 secret with a colon", "hs256:a:b", signToken(t, jwt.SigningMethodHS256, []byte("a:b"), "", baseClaims()), []string{hsTok}},
		{"rs256 PKIX", "rs256:" + writePEM(t, "rsa.pem", k.rsaPEM), rsaTok, []string{ecTok, hsTok, signToken(t, jwt.SigningMethodHS256, k.rsaPEM, "", baseClaims())}},
		{"rs256 PKCS1", "rs256:" + writePEM(t, "rsa1.pem", k.rsaPKCS1PEM), rsaTok, []string{ecTok}},
		{"rs256 certificate", "rs256:" + writePEM(t, "rsa.crt", k.rsaCertPEM), rsaTok, []string{ecTok}},
		{"rs256 PEM after a comment", "rs256:" + writePEM(t, "rsa2.pem", k.rsaPEMNoise), rsaTok, nil},
		{"es256 PKIX", "es256:" + writePEM(t, "ec.pem", k.ecPEM), ecTok, []string{rsaTok, hsTok, signToken(t, jwt.SigningMethodHS256, k.ecPEM, "", baseClaims())}},
		{"es256 certificate", "es256:" + writePEM(t, "ec.crt", k.ecCertPEM), ecTok, []string{rsaTok}},
		{"es256 after EC PARAMETERS", "es256:" + writePEM(t, "ec2.pem", k.ecPEMPlus), ecTok, nil},
		{"jwks", "jwks:" + srv.URL + "/jwks", rsaTok, []string{ecTok, hsTok}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := identity.ParseAuthSpec(tc.spec, identity.VerifyOptions{Clock: authClock})
			if err != nil {
				t.Fatalf("ParseAuthSpec: %v", err)
			}
			c, err := v.Verify(ctx, tc.good)
			if err != nil {
				t.Fatalf("good token: %v", err)
			}
			if c.UserID != "alice" {
				t.Errorf("UserID = %q", c.UserID)
			}
			for i, bad := range tc.bad {
				if _, err := v.Verify(ctx, bad); !errors.Is(err, apierr.Unauthenticated) {
					t.Errorf("bad token %d: err = %v, want UNAUTHENTICATED", i, err)
				}
			}
		})
	}
}

func TestParseAuthSpecOptions(t *testing.T) {
	k := authKeys()
	v, err := identity.ParseAuthSpec("hs256:"+string(k.hmac), identity.VerifyOptions{
		Clock: authClock, ParticipantID: "participant1", Leeway: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := baseClaims()
	c["aud"] = "participant2"
	_, err = v.Verify(context.Background(), signToken(t, jwt.SigningMethodHS256, k.hmac, "", c))
	checkUnauthenticated(t, err, "not \"participant1\"")
	c = baseClaims()
	c["exp"] = authNow.Add(-time.Second).Unix()
	_, err = v.Verify(context.Background(), signToken(t, jwt.SigningMethodHS256, k.hmac, "", c))
	checkUnauthenticated(t, err, "token expired")
}

func TestParseAuthSpecRejects(t *testing.T) {
	k := authKeys()
	dir := t.TempDir()
	junk := writePEM(t, "junk.pem", []byte("not a pem file"))
	badBlock := writePEM(t, "bad.pem", []byte("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))
	p384 := writePEM(t, "p384.pem", k.ecP384PEM)
	rsaFile := writePEM(t, "rsa.pem", k.rsaPEM)
	ecFile := writePEM(t, "ec.pem", k.ecPEM)
	for _, tc := range []struct{ name, spec, want string }{
		{"empty", "", "want hs256:SECRET, rs256:PEMFILE, es256:PEMFILE or jwks:URL"},
		{"none", "none", "none must be handled by the caller"},
		{"no colon", "hs256", "want hs256:SECRET"},
		{"unknown kind", "hs512:topsecret", `unknown kind "hs512"`},
		{"empty secret", "hs256:", "secret is empty"},
		{"empty PEM file name", "rs256:", "PEM file name is empty"},
		{"missing file", "rs256:" + filepath.Join(dir, "nope.pem"), "no such file"},
		{"no PEM block", "rs256:" + junk, "no PEM block of type PUBLIC KEY, RSA PUBLIC KEY or CERTIFICATE"},
		{"undecodable key", "es256:" + badBlock, "parse PUBLIC KEY block"},
		{"EC key for rs256", "rs256:" + ecFile, "holds an ECDSA key, use es256"},
		{"RSA key for es256", "es256:" + rsaFile, "holds an RSA key, use rs256"},
		{"P-384 key for es256", "es256:" + p384, "want P-256"},
		{"jwks without URL", "jwks:", "is not an http(s) URL"},
		{"jwks with another scheme", "jwks:ftp://example.com/keys", "is not an http(s) URL"},
		{"jwks without host", "jwks:https:///keys", "is not an http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := identity.ParseAuthSpec(tc.spec, identity.VerifyOptions{})
			if err == nil {
				t.Fatalf("got verifier %v, want error", v)
			}
			if v != nil {
				t.Errorf("got a verifier with the error")
			}
			var ae *apierr.Error
			if errors.As(err, &ae) {
				t.Errorf("error %v is an apierr; want a plain error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("error %q leaks the secret", err)
			}
		})
	}
}
