package interactive

import "github.com/ledgernode/ledgernode/apierr"

// The Ledger API's crypto enums arrive by their proto names: the JSON API
// writes them so, and the gRPC adapter prints its enum numbers so (an
// unknown number prints as a number and is refused as an unknown name
// is). The adapters map their wire shape onto SignatureNames and a public
// key's names and parse them here, so that both refuse the same input
// with the same code and text (Canton's
// ProtoDeserializationError.ValueConversionError, reported as
// INVALID_ARGUMENT at the field's path).

// SignatureNames is a Ledger API signature with its enums by their proto
// names, as an adapter reads it off its wire.
type SignatureNames struct {
	// Format is a SignatureFormat name, e.g. "SIGNATURE_FORMAT_RAW".
	Format string
	// Signature holds the signature bytes.
	Signature []byte
	// SignedBy is the fingerprint of the signing key.
	SignedBy string
	// SigningAlgorithmSpec is a SigningAlgorithmSpec name, e.g.
	// "SIGNING_ALGORITHM_SPEC_ED25519".
	SigningAlgorithmSpec string
}

// ParseSignatures parses the signatures in, each mapped onto its names by
// names, as the repeated field at path field: an enum name that is not
// one is INVALID_ARGUMENT "<field>[i].format: …" or
// "<field>[i].signingAlgorithmSpec: …". The result is empty, not nil, for
// no signatures.
func ParseSignatures[S any](in []S, field string, names func(S) SignatureNames) ([]Signature, error) {
	out := make([]Signature, 0, len(in))
	for i, w := range in {
		s := names(w)
		f, err := ParseSignatureFormat(s.Format)
		if err != nil {
			return nil, apierr.InvalidArgument.New("%s[%d].format: %v", field, i, err)
		}
		alg, err := ParseSigningAlgorithmSpec(s.SigningAlgorithmSpec)
		if err != nil {
			return nil, apierr.InvalidArgument.New("%s[%d].signingAlgorithmSpec: %v", field, i, err)
		}
		out = append(out, Signature{Format: f, Signature: s.Signature, SignedBy: s.SignedBy, SigningAlgorithmSpec: alg})
	}
	return out, nil
}

// ParsePublicKey parses the public_key of a topology generation request
// from its format and key spec names: a name that is not one is
// INVALID_FIELD "public_key.format: …" or "public_key.key_spec: …".
func ParsePublicKey(format string, keyData []byte, keySpec string) (*SigningPublicKey, error) {
	f, err := ParseKeyFormat(format)
	if err != nil {
		return nil, apierr.InvalidField.New("public_key.format: %v", err)
	}
	spec, err := ParseSigningKeySpec(keySpec)
	if err != nil {
		return nil, apierr.InvalidField.New("public_key.key_spec: %v", err)
	}
	return &SigningPublicKey{Format: f, KeyData: keyData, KeySpec: spec}, nil
}
