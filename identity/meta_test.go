package identity

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValidateAnnotationKey(t *testing.T) {
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"k", true},
		{"a.b-c_d", true},
		{"example.com/name", true},
		{"sub.example-1.com/x9", true},
		{strings.Repeat("a", 63), true},
		{strings.Repeat("a", 64), false},
		{strings.Repeat("a", 253) + "/n", true},
		{strings.Repeat("a", 254) + "/n", false},
		{"", false},
		{"-a", false},
		{"a-", false},
		{"a b", false},
		{"/name", false},
		{"pre/", false},
		{"a/b/c", false},
		{"-bad.com/n", false},
		{"bad..com/n", false},
		{"bad_.com/n", false},
		{"ünïcode", false},
	} {
		if err := ValidateAnnotationKey(tc.key); (err == nil) != tc.ok {
			t.Errorf("ValidateAnnotationKey(%q) = %v, want ok=%v", tc.key, err, tc.ok)
		}
	}
}

func TestValidateAnnotations(t *testing.T) {
	full := strings.Repeat("v", MaxAnnotationsSize-1) // key "k" + value = exactly the maximum
	if err := ValidateAnnotations(map[string]string{"k": full}, false); err != nil {
		t.Errorf("exactly 256 KiB: %v", err)
	}
	err := ValidateAnnotations(map[string]string{"k": full + "v"}, false)
	if !errors.Is(err, ErrAnnotationsTooLarge) {
		t.Errorf("256 KiB + 1: %v", err)
	}
	if err := ValidateAnnotations(map[string]string{"k": ""}, false); err == nil {
		t.Error("empty value accepted on create")
	}
	if err := ValidateAnnotations(map[string]string{"k": "", "j": full}, true); err != nil {
		t.Errorf("empty value (a deletion) on update: %v", err)
	}
}

// FuzzValidateAnnotations checks that the validator never panics, and that
// whatever it accepts respects the documented rules.
func FuzzValidateAnnotations(f *testing.F) {
	for _, s := range []string{"k", "example.com/name", "a/b/c", "-x", strings.Repeat("a", 64), "a..b/c"} {
		f.Add(s, "value", false)
	}
	f.Fuzz(func(t *testing.T, key, value string, update bool) {
		err := ValidateAnnotations(map[string]string{key: value}, update)
		if err != nil {
			return
		}
		if !utf8.ValidString(key) || len(key) == 0 {
			t.Fatalf("accepted key %q", key)
		}
		prefix, name, has := strings.Cut(key, "/")
		if !has {
			name = key
		}
		if len(name) > 63 || (has && (len(prefix) > 253 || strings.Contains(name, "/"))) {
			t.Fatalf("accepted key %q beyond the length rules", key)
		}
		if value == "" && !update {
			t.Fatal("accepted an empty value on create")
		}
		if len(key)+len(value) > MaxAnnotationsSize {
			t.Fatal("accepted oversized annotations")
		}
	})
}

func TestUnverifiedIssuer(t *testing.T) {
	tok := func(payload string) string {
		return "e30." + base64.RawURLEncoding.EncodeToString([]byte(payload)) + ".sig"
	}
	for _, tc := range []struct {
		token, want string
		ok          bool
	}{
		{tok(`{"iss":"https://idp"}`), "https://idp", true},
		{tok(`{"sub":"x"}`), "", true},
		{tok(`{"iss":3}`), "", false},
		{tok(`not json`), "", false},
		{"a.b", "", false},
		{"a.!!!.c", "", false},
	} {
		got, err := UnverifiedIssuer(tc.token)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("UnverifiedIssuer(%q) = %q, %v; want %q, ok=%v", tc.token, got, err, tc.want, tc.ok)
		}
	}
}

func TestIdentityProviderConfigValidate(t *testing.T) {
	good := IdentityProviderConfig{IdentityProviderID: "idp1", Issuer: "iss", JWKSURL: "https://x/jwks"}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(*IdentityProviderConfig){
		"no id":     func(c *IdentityProviderConfig) { c.IdentityProviderID = "" },
		"bad id":    func(c *IdentityProviderConfig) { c.IdentityProviderID = "a!b" },
		"no issuer": func(c *IdentityProviderConfig) { c.Issuer = "" },
		"no url":    func(c *IdentityProviderConfig) { c.JWKSURL = "" },
		"relative":  func(c *IdentityProviderConfig) { c.JWKSURL = "/jwks" },
		"ftp":       func(c *IdentityProviderConfig) { c.JWKSURL = "ftp://x/jwks" },
		"no host":   func(c *IdentityProviderConfig) { c.JWKSURL = "https:///jwks" },
		"not a url": func(c *IdentityProviderConfig) { c.JWKSURL = "::::" },
	} {
		c := good
		mutate(&c)
		var fe *FieldError
		if err := c.Validate(); !errors.As(err, &fe) {
			t.Errorf("%s: Validate() = %v, want a FieldError", name, err)
		}
	}
}
