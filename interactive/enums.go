package interactive

import (
	"fmt"
	"strconv"

	"github.com/ledgernode/ledgernode/apierr"
)

// enumName returns the name of v in names, or "<prefix>UNRECOGNIZED(<v>)".
func enumName(names map[int32]string, prefix string, v int32) string {
	if n, ok := names[v]; ok {
		return n
	}
	return prefix + "UNRECOGNIZED(" + strconv.Itoa(int(v)) + ")"
}

func parseEnum(names map[int32]string, kind, s string) (int32, error) {
	for v, n := range names {
		if n == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q", kind, apierr.Quote(s))
}

// KeyFormat is the format of a public key's bytes. Canton has two
// CryptoKeyFormat enums with different numbers: the Ledger API one
// (com.daml.ledger.api.v2.CryptoKeyFormat) and the topology one
// (com.digitalasset.canton.crypto.v30.CryptoKeyFormat). Canton maps between
// them by name; KeyFormat is that name, and LedgerProto/V30Proto give the
// numbers (the Ledger API's com/daml/ledger/api/v2/crypto.proto and
// Canton's com/digitalasset/canton/crypto/v30/crypto.proto).
type KeyFormat int32

// The key formats. The Go values are internal; use LedgerProto, V30Proto
// and String for the wire forms.
const (
	KeyFormatUnspecified KeyFormat = iota
	// KeyFormatDER is a DER encoding (for EC public keys, treated as a
	// SubjectPublicKeyInfo).
	KeyFormatDER
	// KeyFormatRaw is the raw key (32 bytes for Ed25519).
	KeyFormatRaw
	// KeyFormatDERX509SubjectPublicKeyInfo is an X.509 SubjectPublicKeyInfo
	// in DER.
	KeyFormatDERX509SubjectPublicKeyInfo
	// KeyFormatDERPKCS8PrivateKeyInfo is a PKCS#8 private key (v30 only;
	// never valid for a public key).
	KeyFormatDERPKCS8PrivateKeyInfo
	// KeyFormatSymbolic is Canton's test-only symbolic crypto (v30 only).
	KeyFormatSymbolic
)

var keyFormatNames = map[int32]string{
	int32(KeyFormatUnspecified):                 "CRYPTO_KEY_FORMAT_UNSPECIFIED",
	int32(KeyFormatDER):                         "CRYPTO_KEY_FORMAT_DER",
	int32(KeyFormatRaw):                         "CRYPTO_KEY_FORMAT_RAW",
	int32(KeyFormatDERX509SubjectPublicKeyInfo): "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO",
	int32(KeyFormatDERPKCS8PrivateKeyInfo):      "CRYPTO_KEY_FORMAT_DER_PKCS8_PRIVATE_KEY_INFO",
	int32(KeyFormatSymbolic):                    "CRYPTO_KEY_FORMAT_SYMBOLIC",
}

// String returns the proto enum name, e.g. "CRYPTO_KEY_FORMAT_RAW".
func (f KeyFormat) String() string { return enumName(keyFormatNames, "CRYPTO_KEY_FORMAT_", int32(f)) }

// ParseKeyFormat parses a proto enum name such as
// "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO".
func ParseKeyFormat(s string) (KeyFormat, error) {
	v, err := parseEnum(keyFormatNames, "CryptoKeyFormat", s)
	return KeyFormat(v), err
}

// Ledger API numbers: UNSPECIFIED 0, DER 1, RAW 2, DER_X509_SPKI 3.
var ledgerKeyFormat = []KeyFormat{KeyFormatUnspecified, KeyFormatDER, KeyFormatRaw, KeyFormatDERX509SubjectPublicKeyInfo}

// KeyFormatFromLedgerProto maps a Ledger API (v2) CryptoKeyFormat number.
func KeyFormatFromLedgerProto(n int32) (KeyFormat, error) {
	if n < 0 || int(n) >= len(ledgerKeyFormat) {
		return 0, fmt.Errorf("unknown Ledger API CryptoKeyFormat %d", n)
	}
	return ledgerKeyFormat[n], nil
}

// LedgerProto returns the Ledger API (v2) CryptoKeyFormat number, or an
// error for the formats that enum does not have.
func (f KeyFormat) LedgerProto() (int32, error) {
	for i, g := range ledgerKeyFormat {
		if g == f {
			return int32(i), nil
		}
	}
	return 0, fmt.Errorf("%v has no Ledger API CryptoKeyFormat", f)
}

// v30 numbers: UNSPECIFIED 0, (1 reserved), DER 2, RAW 3, DER_X509_SPKI 4,
// DER_PKCS8 5, SYMBOLIC 10000.
var v30KeyFormat = map[int32]KeyFormat{
	0: KeyFormatUnspecified, 2: KeyFormatDER, 3: KeyFormatRaw, 4: KeyFormatDERX509SubjectPublicKeyInfo,
	5: KeyFormatDERPKCS8PrivateKeyInfo, 10000: KeyFormatSymbolic,
}

// KeyFormatFromV30Proto maps a topology (crypto.v30) CryptoKeyFormat number.
func KeyFormatFromV30Proto(n int32) (KeyFormat, error) {
	f, ok := v30KeyFormat[n]
	if !ok {
		return 0, fmt.Errorf("unknown v30 CryptoKeyFormat %d", n)
	}
	return f, nil
}

// V30Proto returns the topology (crypto.v30) CryptoKeyFormat number.
func (f KeyFormat) V30Proto() int32 {
	for n, g := range v30KeyFormat {
		if g == f {
			return n
		}
	}
	return 0
}

// SigningKeySpec is the key type of a signing key; the numbers are the same
// in the Ledger API and v30 enums.
type SigningKeySpec int32

// The signing key specs.
const (
	SigningKeySpecUnspecified  SigningKeySpec = 0
	SigningKeySpecEcCurve25519 SigningKeySpec = 1 // Ed25519
	SigningKeySpecEcP256       SigningKeySpec = 2
	SigningKeySpecEcP384       SigningKeySpec = 3
	SigningKeySpecEcSecp256k1  SigningKeySpec = 4 // not supported by this package
)

var signingKeySpecNames = map[int32]string{
	0: "SIGNING_KEY_SPEC_UNSPECIFIED", 1: "SIGNING_KEY_SPEC_EC_CURVE25519", 2: "SIGNING_KEY_SPEC_EC_P256",
	3: "SIGNING_KEY_SPEC_EC_P384", 4: "SIGNING_KEY_SPEC_EC_SECP256K1",
}

// String returns the proto enum name, e.g. "SIGNING_KEY_SPEC_EC_P256".
func (s SigningKeySpec) String() string {
	return enumName(signingKeySpecNames, "SIGNING_KEY_SPEC_", int32(s))
}

// ParseSigningKeySpec parses a proto enum name.
func ParseSigningKeySpec(s string) (SigningKeySpec, error) {
	v, err := parseEnum(signingKeySpecNames, "SigningKeySpec", s)
	return SigningKeySpec(v), err
}

// SignatureFormat is the encoding of a signature's bytes.
type SignatureFormat int32

// The signature formats.
const (
	SignatureFormatUnspecified SignatureFormat = 0
	// SignatureFormatRaw is migrated by Canton: to DER for ECDSA and to
	// CONCAT for Ed25519 (the bytes are not changed).
	SignatureFormatRaw SignatureFormat = 1
	// SignatureFormatDER is ASN.1 SEQUENCE{INTEGER r, INTEGER s} (ECDSA).
	SignatureFormatDER SignatureFormat = 2
	// SignatureFormatConcat is R‖S (Ed25519, 64 bytes).
	SignatureFormatConcat   SignatureFormat = 3
	SignatureFormatSymbolic SignatureFormat = 10000
)

var signatureFormatNames = map[int32]string{
	0: "SIGNATURE_FORMAT_UNSPECIFIED", 1: "SIGNATURE_FORMAT_RAW", 2: "SIGNATURE_FORMAT_DER",
	3: "SIGNATURE_FORMAT_CONCAT", 10000: "SIGNATURE_FORMAT_SYMBOLIC",
}

// String returns the proto enum name, e.g. "SIGNATURE_FORMAT_DER".
func (f SignatureFormat) String() string {
	return enumName(signatureFormatNames, "SIGNATURE_FORMAT_", int32(f))
}

// ParseSignatureFormat parses a proto enum name.
func ParseSignatureFormat(s string) (SignatureFormat, error) {
	v, err := parseEnum(signatureFormatNames, "SignatureFormat", s)
	return SignatureFormat(v), err
}

// SigningAlgorithmSpec is the signature algorithm.
type SigningAlgorithmSpec int32

// The signing algorithms.
const (
	SigningAlgorithmSpecUnspecified SigningAlgorithmSpec = 0
	// SigningAlgorithmSpecEd25519 is PureEdDSA over the message as is.
	SigningAlgorithmSpecEd25519 SigningAlgorithmSpec = 1
	// SigningAlgorithmSpecEcDsaSha256 is SHA256withECDSA: the message is
	// hashed with SHA-256 before signing.
	SigningAlgorithmSpecEcDsaSha256 SigningAlgorithmSpec = 2
	// SigningAlgorithmSpecEcDsaSha384 is SHA384withECDSA.
	SigningAlgorithmSpecEcDsaSha384 SigningAlgorithmSpec = 3
)

var signingAlgorithmNames = map[int32]string{
	0: "SIGNING_ALGORITHM_SPEC_UNSPECIFIED", 1: "SIGNING_ALGORITHM_SPEC_ED25519",
	2: "SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256", 3: "SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384",
}

// String returns the proto enum name, e.g. "SIGNING_ALGORITHM_SPEC_ED25519".
func (a SigningAlgorithmSpec) String() string {
	return enumName(signingAlgorithmNames, "SIGNING_ALGORITHM_SPEC_", int32(a))
}

// ParseSigningAlgorithmSpec parses a proto enum name.
func ParseSigningAlgorithmSpec(s string) (SigningAlgorithmSpec, error) {
	v, err := parseEnum(signingAlgorithmNames, "SigningAlgorithmSpec", s)
	return SigningAlgorithmSpec(v), err
}

// SigningKeyUsage is a v30 key usage.
type SigningKeyUsage int32

// The key usages (crypto.v30.SigningKeyUsage).
const (
	SigningKeyUsageUnspecified             SigningKeyUsage = 0
	SigningKeyUsageNamespace               SigningKeyUsage = 1
	SigningKeyUsageIdentityDelegation      SigningKeyUsage = 2 // deprecated
	SigningKeyUsageSequencerAuthentication SigningKeyUsage = 3
	SigningKeyUsageProtocol                SigningKeyUsage = 4
	SigningKeyUsageProofOfOwnership        SigningKeyUsage = 5
)

var signingKeyUsageNames = map[int32]string{
	0: "SIGNING_KEY_USAGE_UNSPECIFIED", 1: "SIGNING_KEY_USAGE_NAMESPACE", 2: "SIGNING_KEY_USAGE_IDENTITY_DELEGATION",
	3: "SIGNING_KEY_USAGE_SEQUENCER_AUTHENTICATION", 4: "SIGNING_KEY_USAGE_PROTOCOL", 5: "SIGNING_KEY_USAGE_PROOF_OF_OWNERSHIP",
}

// String returns the proto enum name, e.g. "SIGNING_KEY_USAGE_PROTOCOL".
func (u SigningKeyUsage) String() string {
	return enumName(signingKeyUsageNames, "SIGNING_KEY_USAGE_", int32(u))
}

// ExternalPartyKeyUsages are the usages GenerateExternalPartyTopology gives
// the party key, in Canton's order: NAMESPACE, PROOF_OF_OWNERSHIP, PROTOCOL
// (packed, the bytes 01 05 04).
var ExternalPartyKeyUsages = []SigningKeyUsage{SigningKeyUsageNamespace, SigningKeyUsageProofOfOwnership, SigningKeyUsageProtocol}

// ParticipantPermission is a hosting participant's permission.
type ParticipantPermission int32

// The participant permissions (same numbers in the topology and Ledger API
// enums).
const (
	ParticipantPermissionUnspecified  ParticipantPermission = 0
	ParticipantPermissionSubmission   ParticipantPermission = 1
	ParticipantPermissionConfirmation ParticipantPermission = 2
	ParticipantPermissionObservation  ParticipantPermission = 3
)

var participantPermissionNames = map[int32]string{
	0: "PARTICIPANT_PERMISSION_UNSPECIFIED", 1: "PARTICIPANT_PERMISSION_SUBMISSION",
	2: "PARTICIPANT_PERMISSION_CONFIRMATION", 3: "PARTICIPANT_PERMISSION_OBSERVATION",
}

// String returns the proto enum name.
func (p ParticipantPermission) String() string {
	return enumName(participantPermissionNames, "PARTICIPANT_PERMISSION_", int32(p))
}

// TopologyOperation is a topology transaction's operation.
type TopologyOperation int32

// The topology operations (protocol.v30.Enums.TopologyChangeOp).
const (
	TopologyOperationUnspecified TopologyOperation = 0
	TopologyOperationAddReplace  TopologyOperation = 1
	TopologyOperationRemove      TopologyOperation = 2
)

var topologyOperationNames = map[int32]string{
	0: "TOPOLOGY_CHANGE_OP_UNSPECIFIED", 1: "TOPOLOGY_CHANGE_OP_ADD_REPLACE", 2: "TOPOLOGY_CHANGE_OP_REMOVE",
}

// String returns the proto enum name.
func (o TopologyOperation) String() string {
	return enumName(topologyOperationNames, "TOPOLOGY_CHANGE_OP_", int32(o))
}

// HashingSchemeVersion is the prepared-transaction hashing scheme.
type HashingSchemeVersion int32

// The hashing scheme versions (V1 is reserved and unsupported).
const (
	HashingSchemeVersionUnspecified HashingSchemeVersion = 0
	HashingSchemeVersionV2          HashingSchemeVersion = 2
	HashingSchemeVersionV3          HashingSchemeVersion = 3
)

var hashingSchemeNames = map[int32]string{
	0: "HASHING_SCHEME_VERSION_UNSPECIFIED", 2: "HASHING_SCHEME_VERSION_V2", 3: "HASHING_SCHEME_VERSION_V3",
}

// String returns the proto enum name, e.g. "HASHING_SCHEME_VERSION_V2".
func (v HashingSchemeVersion) String() string {
	return enumName(hashingSchemeNames, "HASHING_SCHEME_VERSION_", int32(v))
}

// ParseHashingSchemeVersion parses a proto enum name.
func ParseHashingSchemeVersion(s string) (HashingSchemeVersion, error) {
	v, err := parseEnum(hashingSchemeNames, "HashingSchemeVersion", s)
	return HashingSchemeVersion(v), err
}

// SupportedHashingSchemes returns the hashing schemes a protocol version
// accepts: PV 34 → {V2}; PV 35 and later → {V2, V3} (Canton's
// HashingSchemeVersion.getHashingSchemeVersionsForProtocolVersion).
func SupportedHashingSchemes(protocolVersion int) []HashingSchemeVersion {
	if protocolVersion >= 35 {
		return []HashingSchemeVersion{HashingSchemeVersionV2, HashingSchemeVersionV3}
	}
	return []HashingSchemeVersion{HashingSchemeVersionV2}
}
