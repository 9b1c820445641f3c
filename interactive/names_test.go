package interactive

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
)

func TestParseSignatures(t *testing.T) {
	t.Parallel()
	ok := SignatureNames{Format: "SIGNATURE_FORMAT_CONCAT", Signature: []byte{1}, SignedBy: "12ab", SigningAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519"}
	badFormat, badAlg := ok, ok
	badFormat.Format = "SIGNATURE_FORMAT_NOPE"
	badAlg.SigningAlgorithmSpec = "3"
	id := func(s SignatureNames) SignatureNames { return s }
	for _, tc := range []struct {
		name    string
		in      []SignatureNames
		want    []Signature
		wantErr string
	}{
		{"none", nil, []Signature{}, ""},
		{"one", []SignatureNames{ok}, []Signature{{Format: SignatureFormatConcat, Signature: []byte{1}, SignedBy: "12ab", SigningAlgorithmSpec: SigningAlgorithmSpecEd25519}}, ""},
		{"unknown format", []SignatureNames{ok, badFormat}, nil, `sigs[1].format: unknown SignatureFormat "SIGNATURE_FORMAT_NOPE"`},
		{"unknown algorithm", []SignatureNames{badAlg}, nil, `sigs[0].signingAlgorithmSpec: unknown SigningAlgorithmSpec "3"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseSignatures(tc.in, "sigs", id)
			if tc.wantErr != "" {
				var e *apierr.Error
				if !errors.As(err, &e) || !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(e.Cause, tc.wantErr) {
					t.Fatalf("err = %v, want INVALID_ARGUMENT with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParsePublicKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, format, spec string
		want               *SigningPublicKey
		wantErr            string
	}{
		{"raw ed25519", "CRYPTO_KEY_FORMAT_RAW", "SIGNING_KEY_SPEC_EC_CURVE25519", &SigningPublicKey{Format: KeyFormatRaw, KeyData: []byte{7}, KeySpec: SigningKeySpecEcCurve25519}, ""},
		{"unknown format", "RAW", "SIGNING_KEY_SPEC_EC_CURVE25519", nil, `public_key.format: unknown CryptoKeyFormat "RAW"`},
		{"unknown spec", "CRYPTO_KEY_FORMAT_RAW", "9", nil, `public_key.key_spec: unknown SigningKeySpec "9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParsePublicKey(tc.format, []byte{7}, tc.spec)
			if tc.wantErr != "" {
				var e *apierr.Error
				if !errors.As(err, &e) || !errors.Is(err, apierr.InvalidField) || !strings.Contains(e.Cause, tc.wantErr) {
					t.Fatalf("err = %v, want INVALID_FIELD with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
