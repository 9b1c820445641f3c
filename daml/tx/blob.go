package tx

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/pbwire"
)

// A contract blob (the Ledger API's created_event_blob, and what clients
// send back in disclosed_contracts) is Daml-LF's serialized
// FatContractInstance (ContractInstanceCoder.encodeFatContractInstance):
//
//	Versioned { version = 1: string ("2.1" without key, "2" with one),
//	            payload = 2: bytes (FatContractInstance) }
//	FatContractInstance {
//	  contract_id = 1: bytes (the binary contract id)
//	  package_name = 2: string
//	  template_id = 3: Identifier { package_id = 1, repeated module_name = 2,
//	                                repeated name = 3 } (dotted names split)
//	  create_arg = 4: bytes (a daml-lf value.proto Value, unversioned)
//	  repeated non_maintainer_signatories = 5, sorted
//	  repeated non_signatory_stakeholders = 6, sorted
//	  created_at = 7: sfixed64 (µs; Long.MinValue is "now", not committed)
//	  authentication_data = 8: bytes
//	  repeated package_version = 9: int32 (dev only)
//	  contract_key_with_maintainers = 1001: KeyWithMaintainers {
//	      key = 1 (Value bytes), repeated maintainers = 2, hash = 3 } }
//
// Fields are written in field-number order and proto3 defaults left out,
// as protobuf-java does.
const (
	fVersionedVersion = 1
	fVersionedPayload = 2

	fFCIContractID        = 1
	fFCIPackageName       = 2
	fFCITemplateID        = 3
	fFCICreateArg         = 4
	fFCINonMaintainerSigs = 5
	fFCINonSigStakeholder = 6
	fFCICreatedAt         = 7
	fFCIAuthData          = 8
	fFCIPackageVersion    = 9
	fFCIKey               = 1001

	fIdentPackageID = 1
	fIdentModule    = 2
	fIdentName      = 3

	fKeyKey         = 1
	fKeyMaintainers = 2
	fKeyHash        = 3
)

// VersionDev is the serialization version "dev", which DecodeContractBlob
// accepts besides VersionNoKey and VersionKeys.
const VersionDev = "dev"

// MaxContractBlobSize bounds the blobs DecodeContractBlob reads.
const MaxContractBlobSize = 32 << 20

// createdAtNow is CreationTime.Now's encoding (Long.MinValue): the
// creation time of a contract whose transaction has no ledger time yet.
const createdAtNow = math.MinInt64

// BlobErrorKind classifies a *BlobError.
type BlobErrorKind uint8

const (
	// BlobMalformed: the bytes are not the protobuf messages of a
	// contract blob (bad wire data, unknown fields, a wrong wire type).
	BlobMalformed BlobErrorKind = iota + 1
	// BlobInvalid: well-formed, but a field breaks Canton's rules (an
	// unknown version, a bad contract id, package name, template id,
	// party, value or creation time, unsorted or overlapping parties,
	// no signatory) or, when encoding, the contract does.
	BlobInvalid
	// BlobLimit: the blob exceeds MaxContractBlobSize or a value nests
	// deeper than value.MaxLFNesting.
	BlobLimit
	// BlobUnsupported: the contract cannot be encoded by ledgernode (a
	// contract key: the blob needs the key's hash, which daml/tx does not
	// compute).
	BlobUnsupported
)

// String returns the kind's name.
func (k BlobErrorKind) String() string {
	switch k {
	case BlobMalformed:
		return "malformed"
	case BlobInvalid:
		return "invalid"
	case BlobLimit:
		return "limit"
	case BlobUnsupported:
		return "unsupported"
	}
	return fmt.Sprintf("BlobErrorKind(%d)", uint8(k))
}

// BlobError is the error of EncodeContractBlob and DecodeContractBlob:
// what is wrong (Message, Kind) with the field at Path, e.g.
// "payload.create_arg$.fields[2]" or "payload.template_id". The ledger
// maps a decoding error to Canton's INVALID_ARGUMENT for a disclosed
// contract.
type BlobError struct {
	// Path names the faulty field: "" for the whole blob, "version",
	// "payload", "payload.<field>", and for values the value path of
	// value.LFProtoError after the field.
	Path string
	// Kind classifies the fault.
	Kind BlobErrorKind
	// Message says what is wrong.
	Message string
}

// Error returns "contract blob: <Message> at '<Path>'" ("contract blob:
// <Message>" without a path).
func (e *BlobError) Error() string {
	if e.Path == "" {
		return "contract blob: " + e.Message
	}
	return "contract blob: " + e.Message + " at '" + e.Path + "'"
}

func blobErr(kind BlobErrorKind, path, format string, args ...any) *BlobError {
	return &BlobError{Path: path, Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// valueErr turns an error of the value codec into a *BlobError at field
// path.
func valueErr(path string, err error) *BlobError {
	var le *value.LFProtoError
	if errors.As(err, &le) {
		kind := BlobInvalid
		switch le.Kind {
		case value.LFMalformed:
			kind = BlobMalformed
		case value.LFTooDeep:
			kind = BlobLimit
		}
		return &BlobError{Path: path + le.Path, Kind: kind, Message: le.Message}
	}
	return blobErr(BlobInvalid, path, "%v", err)
}

// ContractBlob is a contract decoded from a blob.
type ContractBlob struct {
	// Create is the contract as a create node: the contract id (as
	// carried, lowercase hex), package name, template id, argument,
	// signatories and stakeholders (sorted), key and version. The
	// argument and key are untyped (value.DecodeLFProto): records have
	// no type id or labels, variants and enums no type id and rank 0;
	// the ledger re-types them against the template
	// (value.TypeValue(arg, value.TypeOf(pkg, module, name), lookup)).
	Create Create
	// CreatedAt is the creation time (ledger time of the creating
	// transaction).
	CreatedAt value.Timestamp
	// AuthData is authentication_data as carried (Canton's
	// ContractAuthenticationData; ParseAuthenticationDataV1 reads the V1
	// form).
	AuthData []byte
	// KeyHash is the hash of the contract key as carried (32 bytes in
	// version "2"), nil without a key.
	KeyHash []byte
	// PackageVersion is package_version as carried (dev blobs only), nil
	// when absent.
	PackageVersion []int32
}

// EncodeContractBlob returns Canton's blob (created_event_blob) of the
// committed contract c created at createdAt, with authData as its
// authentication_data: the Versioned envelope of c.Version around the
// FatContractInstance, byte for byte as Canton 3.5 writes it. c's
// contract id must be suffixed (committed); non-maintainer signatories
// are c.Signatories minus the key's maintainers, non-signatory
// stakeholders c.Stakeholders minus c.Signatories, both sorted and
// deduplicated. authData is written as given: for a ca12 (V1) contract
// Canton writes AuthenticationDataV1(salt). Contracts with a key are not
// supported (BlobUnsupported: the blob carries the key's hash). Errors
// are *BlobError.
func EncodeContractBlob(c *Create, createdAt value.Timestamp, authData []byte) ([]byte, error) {
	if c == nil {
		return nil, blobErr(BlobInvalid, "", "nil contract")
	}
	if c.Key != nil {
		return nil, blobErr(BlobUnsupported, "payload.contract_key_with_maintainers", "contract keys are not supported (the key hash is not computed)")
	}
	if c.Version != VersionNoKey && c.Version != VersionKeys {
		return nil, blobErr(BlobInvalid, "version", "unsupported serialization version %q", c.Version)
	}
	cid, err := lf.ParseContractID(string(c.ContractID))
	if err != nil {
		return nil, blobErr(BlobInvalid, "payload.contract_id", "%v", err)
	}
	if cid.IsLocal() {
		return nil, blobErr(BlobInvalid, "payload.contract_id", "contract id %s is not suffixed", c.ContractID)
	}
	if err := lf.CheckPackageName(c.PackageName); err != nil {
		return nil, blobErr(BlobInvalid, "payload.package_name", "%v", err)
	}
	if err := checkTemplateID(c.TemplateID); err != nil {
		return nil, blobErr(BlobInvalid, "payload.template_id", "%v", err)
	}
	if createdAt < value.MinTimestamp || createdAt > value.MaxTimestamp {
		return nil, blobErr(BlobInvalid, "payload.created_at", "timestamp %d out of range", int64(createdAt))
	}
	sigs, stakeholders := sortedSet(c.Signatories), sortedSet(c.Stakeholders)
	if len(sigs) == 0 {
		return nil, blobErr(BlobInvalid, "payload.non_maintainer_signatories", "no signatories")
	}
	for _, p := range append(slices.Clip(sigs), stakeholders...) {
		if err := lf.CheckParty(p); err != nil {
			return nil, blobErr(BlobInvalid, "payload", "%v", err)
		}
	}
	arg, err := value.EncodeLFProto(c.Arg)
	if err != nil {
		return nil, valueErr("payload.create_arg", err)
	}
	cidBytes, _ := hex.DecodeString(string(c.ContractID))

	var p pbwire.Encoder
	p.Bytes(fFCIContractID, cidBytes)
	p.String(fFCIPackageName, c.PackageName)
	p.Message(fFCITemplateID, func(e *pbwire.Encoder) { encodeIdent(e, c.TemplateID) })
	p.BytesAlways(fFCICreateArg, arg)
	p.Strings(fFCINonMaintainerSigs, sigs)
	p.Strings(fFCINonSigStakeholder, diff(stakeholders, sigs))
	if createdAt != 0 {
		p.Fixed64Always(fFCICreatedAt, uint64(createdAt))
	}
	p.Bytes(fFCIAuthData, authData)
	if p.Err != nil {
		return nil, blobErr(BlobInvalid, "payload", "%v", p.Err)
	}
	var v pbwire.Encoder
	v.String(fVersionedVersion, c.Version)
	v.Bytes(fVersionedPayload, p.B)
	return v.B, nil
}

// encodeIdent writes an LF Identifier: the module and entity names split
// at their dots.
func encodeIdent(e *pbwire.Encoder, id lf.TypeConID) {
	e.String(fIdentPackageID, id.PackageID)
	e.Strings(fIdentModule, strings.Split(id.Module, "."))
	e.Strings(fIdentName, strings.Split(id.Name, "."))
}

func checkTemplateID(id lf.TypeConID) error {
	if err := lf.CheckPackageID(id.PackageID); err != nil {
		return err
	}
	if err := lf.CheckDottedName(id.Module); err != nil {
		return err
	}
	return lf.CheckDottedName(id.Name)
}

// DecodeContractBlob parses a contract blob as Canton's
// ContractInstanceCoder.decodeFatContractInstance does: the Versioned
// envelope (version "2.1", "2" or "dev"), then the FatContractInstance,
// rejecting unknown fields and wrong wire types. It checks the contract
// id (V1 or V2, local ones included as Canton's decoder does), the
// package name, the template id (package id, dotted names), every party,
// that non-maintainer signatories and non-signatory stakeholders are
// strictly increasing, that some signatory exists, that maintainers,
// non-maintainer signatories and non-signatory stakeholders are disjoint,
// the create argument and key (value.DecodeLFProto), a key's maintainers
// being non-empty and its hash being 32 bytes (version "2" and "dev") or
// absent ("2.1"), and the creation time (in Daml-LF's range; "now",
// which only transactions in flight carry, is rejected). It reads at most
// MaxContractBlobSize bytes and values nested at most value.MaxLFNesting
// deep, and never panics. Errors are *BlobError.
func DecodeContractBlob(b []byte) (*ContractBlob, error) {
	if len(b) > MaxContractBlobSize {
		return nil, blobErr(BlobLimit, "", "blob of %d bytes exceeds %d", len(b), MaxContractBlobSize)
	}
	var version string
	var payload []byte
	err := pbwire.Walk(b, func(f pbwire.Field) error {
		switch f.Num {
		case fVersionedVersion:
			s, err := f.Text()
			if err != nil {
				return blobErr(BlobMalformed, "version", "%v", err)
			}
			version = s
		case fVersionedPayload:
			m, err := f.Message()
			if err != nil {
				return blobErr(BlobMalformed, "payload", "%v", err)
			}
			payload = m
		default:
			return blobErr(BlobMalformed, "", "unknown field %d in Versioned", f.Num)
		}
		return nil
	})
	if err != nil {
		return nil, asBlobErr("", err)
	}
	if version != VersionNoKey && version != VersionKeys && version != VersionDev {
		return nil, blobErr(BlobInvalid, "version", "unsupported serialization version '%s'", version)
	}
	out, err := decodeFCI(version, payload)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func asBlobErr(path string, err error) *BlobError {
	var be *BlobError
	if errors.As(err, &be) {
		return be
	}
	return blobErr(BlobMalformed, path, "%v", err)
}

// fciFields holds a FatContractInstance's fields as read.
type fciFields struct {
	cid, createArg, authData []byte
	hasCreateArg             bool
	pkgName                  string
	tmpl, key                pbwire.Acc
	nms, nss                 []string
	createdAt                int64
	pkgVersion               []int32
}

func (x *fciFields) read(f pbwire.Field) error {
	const at = "payload."
	bytesField := func(name string) ([]byte, error) {
		m, err := f.Message()
		if err != nil {
			return nil, blobErr(BlobMalformed, at+name, "%v", err)
		}
		return m, nil
	}
	textField := func(name string) (string, error) {
		s, err := f.Text()
		if err != nil {
			return "", blobErr(BlobMalformed, at+name, "%v", err)
		}
		return s, nil
	}
	var err error
	switch f.Num {
	case fFCIContractID:
		x.cid, err = bytesField("contract_id")
	case fFCIPackageName:
		x.pkgName, err = textField("package_name")
	case fFCITemplateID:
		var m []byte
		if m, err = bytesField("template_id"); err == nil {
			x.tmpl.Add(m)
		}
	case fFCICreateArg:
		x.createArg, err = bytesField("create_arg")
		x.hasCreateArg = true
	case fFCINonMaintainerSigs:
		var s string
		if s, err = textField("non_maintainer_signatories"); err == nil {
			x.nms = append(x.nms, s)
		}
	case fFCINonSigStakeholder:
		var s string
		if s, err = textField("non_signatory_stakeholders"); err == nil {
			x.nss = append(x.nss, s)
		}
	case fFCICreatedAt:
		if x.createdAt, err = f.SFixed64(); err != nil {
			err = blobErr(BlobMalformed, at+"created_at", "%v", err)
		}
	case fFCIAuthData:
		x.authData, err = bytesField("authentication_data")
	case fFCIPackageVersion:
		if x.pkgVersion, err = f.AppendInt32s(x.pkgVersion); err != nil {
			err = blobErr(BlobMalformed, at+"package_version", "%v", err)
		}
	case fFCIKey:
		var m []byte
		if m, err = bytesField("contract_key_with_maintainers"); err == nil {
			x.key.Add(m)
		}
	default:
		err = blobErr(BlobMalformed, "payload", "unknown field %d in FatContractInstance", f.Num)
	}
	return err
}

func decodeFCI(version string, payload []byte) (*ContractBlob, error) {
	var x fciFields
	if err := pbwire.Walk(payload, x.read); err != nil {
		return nil, asBlobErr("payload", err)
	}
	cid, err := value.DecodeLFContractID(x.cid)
	if err != nil {
		return nil, blobErr(BlobInvalid, "payload.contract_id", "cannot parse contractId %q", hex.EncodeToString(x.cid))
	}
	if err := lf.CheckPackageName(x.pkgName); err != nil {
		return nil, blobErr(BlobInvalid, "payload.package_name", "invalid package name '%s': %v", x.pkgName, err)
	}
	tmpl, err := decodeIdent(x.tmpl.B)
	if err != nil {
		return nil, err
	}
	if !x.hasCreateArg {
		return nil, blobErr(BlobMalformed, "payload.create_arg", "Value not set")
	}
	arg, err := value.DecodeLFProto(x.createArg)
	if err != nil {
		return nil, valueErr("payload.create_arg", err)
	}
	out := &ContractBlob{
		Create: Create{
			ContractID:  cid,
			PackageName: x.pkgName,
			TemplateID:  tmpl,
			Arg:         arg,
			Version:     version,
		},
		AuthData:       x.authData,
		PackageVersion: x.pkgVersion,
	}
	var maintainers []string
	if x.key.Set {
		k, hash, err := decodeKey(version, x.key.B)
		if err != nil {
			return nil, err
		}
		out.Create.Key, out.KeyHash, maintainers = k, hash, k.Maintainers
	}
	if err := checkPartyList("payload.non_maintainer_signatories", x.nms); err != nil {
		return nil, err
	}
	if err := checkPartyList("payload.non_signatory_stakeholders", x.nss); err != nil {
		return nil, err
	}
	if len(maintainers) == 0 && len(x.nms) == 0 {
		return nil, blobErr(BlobInvalid, "payload.non_maintainer_signatories", "maintainers or non_maintainer_signatories should be non empty")
	}
	for _, p := range maintainers {
		if _, found := slices.BinarySearch(x.nms, p); found {
			return nil, blobErr(BlobInvalid, "payload.non_maintainer_signatories", "party %s is declared as maintainer and nonMaintainerSignatory", p)
		}
	}
	sigs := sortedSet(append(slices.Clip(maintainers), x.nms...))
	for _, p := range x.nss {
		if _, found := slices.BinarySearch(sigs, p); found {
			return nil, blobErr(BlobInvalid, "payload.non_signatory_stakeholders", "party %s is declared as signatory and nonSignatoryStakeholder", p)
		}
	}
	out.Create.Signatories = sigs
	out.Create.Stakeholders = sortedSet(append(slices.Clip(sigs), x.nss...))
	switch ts := x.createdAt; {
	case ts == createdAtNow:
		return nil, blobErr(BlobInvalid, "payload.created_at", "creation time \"now\" is not the time of a committed contract")
	case value.Timestamp(ts) < value.MinTimestamp || value.Timestamp(ts) > value.MaxTimestamp:
		return nil, blobErr(BlobInvalid, "payload.created_at", "timestamp %d out of range", ts)
	}
	out.CreatedAt = value.Timestamp(x.createdAt)
	return out, nil
}

// checkPartyList checks that ps are valid parties in strictly increasing
// order (Canton's toPartyTreeSet).
func checkPartyList(path string, ps []string) error {
	for i, p := range ps {
		if err := lf.CheckParty(p); err != nil {
			return blobErr(BlobInvalid, path, "Cannot decode party: %v", err)
		}
		if i > 0 && ps[i-1] >= p {
			return blobErr(BlobInvalid, path, "parties are not strictly ordered: %s before %s", ps[i-1], p)
		}
	}
	return nil
}

// decodeIdent reads an LF Identifier as a template id.
func decodeIdent(b []byte) (lf.TypeConID, error) {
	const at = "payload.template_id"
	var pkg string
	var mod, name []string
	err := pbwire.Walk(b, func(f pbwire.Field) error {
		if f.Num < fIdentPackageID || f.Num > fIdentName {
			return blobErr(BlobMalformed, at, "unknown field %d in Identifier", f.Num)
		}
		s, err := f.Text()
		if err != nil {
			return blobErr(BlobMalformed, at, "%v", err)
		}
		switch f.Num {
		case fIdentPackageID:
			pkg = s
		case fIdentModule:
			mod = append(mod, s)
		default:
			name = append(name, s)
		}
		return nil
	})
	if err != nil {
		return lf.TypeConID{}, asBlobErr(at, err)
	}
	id := lf.TypeConID{PackageID: pkg, Module: strings.Join(mod, "."), Name: strings.Join(name, ".")}
	if err := lf.CheckPackageID(pkg); err != nil {
		return lf.TypeConID{}, blobErr(BlobInvalid, at, "Invalid package id '%s': %v", pkg, err)
	}
	for _, segs := range [][]string{mod, name} {
		if len(segs) == 0 {
			return lf.TypeConID{}, blobErr(BlobInvalid, at, "empty dotted name")
		}
		for _, s := range segs {
			if err := lf.CheckName(s); err != nil {
				return lf.TypeConID{}, blobErr(BlobInvalid, at, "invalid name segment: %v", err)
			}
		}
	}
	return id, nil
}

// decodeKey reads a KeyWithMaintainers: the key, maintainers (valid,
// non-empty; any order, deduplicated) and hash (32 bytes from version
// "2" on, absent in "2.1").
func decodeKey(version string, b []byte) (*KeyWithMaintainers, []byte, error) {
	const at = "payload.contract_key_with_maintainers"
	var key, hash []byte
	var hasKey bool
	var ms []string
	err := pbwire.Walk(b, func(f pbwire.Field) error {
		switch f.Num {
		case fKeyKey, fKeyHash:
			m, err := f.Message()
			if err != nil {
				return blobErr(BlobMalformed, at, "%v", err)
			}
			if f.Num == fKeyKey {
				key, hasKey = m, true
			} else {
				hash = m
			}
		case fKeyMaintainers:
			s, err := f.Text()
			if err != nil {
				return blobErr(BlobMalformed, at, "%v", err)
			}
			ms = append(ms, s)
		default:
			return blobErr(BlobMalformed, at, "unknown field %d in KeyWithMaintainers", f.Num)
		}
		return nil
	})
	if err != nil {
		return nil, nil, asBlobErr(at, err)
	}
	for _, p := range ms {
		if err := lf.CheckParty(p); err != nil {
			return nil, nil, blobErr(BlobInvalid, at+".maintainers", "Cannot decode party: %v", err)
		}
	}
	if len(ms) == 0 {
		return nil, nil, blobErr(BlobInvalid, at+".maintainers", "key without maintainers")
	}
	if !hasKey {
		return nil, nil, blobErr(BlobMalformed, at+".key", "Value not set")
	}
	kv, err := value.DecodeLFProto(key)
	if err != nil {
		return nil, nil, valueErr(at+".key", err)
	}
	if version == VersionNoKey {
		if len(hash) != 0 {
			return nil, nil, blobErr(BlobInvalid, at+".hash", "unexpected hash field in KeyWithMaintainers for version %s", version)
		}
		hash = nil
	} else if len(hash) != sha256.Size {
		return nil, nil, blobErr(BlobInvalid, at+".hash", "key hash of %d bytes, want %d", len(hash), sha256.Size)
	}
	return &KeyWithMaintainers{Key: kv, Maintainers: sortedSet(ms)}, hash, nil
}

// Fields of Canton's ContractAuthenticationData for V1 contract ids
// (ca10, ca11, ca12 suffixes), as FatContractInstance.authentication_data
// holds it: an UntypedVersionedMessage { data = 1: bytes, version = 2:
// int32 (30) } around v30.ContractAuthenticationData { contract_salt = 1:
// Salt { hmac = 1: HmacAlgorithm (HMAC_SHA256 = 1), salt = 2: bytes } }.
const (
	fUntypedData    = 1
	fUntypedVersion = 2
	fCADSalt        = 1
	fSaltHmac       = 1
	fSaltBytes      = 2

	authDataProtoVersion = 30
	hmacSHA256           = 1
)

// AuthenticationDataV1 returns the authentication_data Canton writes for
// a contract with a V1 (ca12) contract id and salt: the bytes of
// UntypedVersionedMessage{data: ContractAuthenticationData{contract_salt:
// Salt{hmac: HMAC_SHA256, salt}}, version: 30}. Canton's salt is a random
// secret of the creating participant that its unicum commits to; a
// ledgernode contract has none (its unicum is UnicumOf), so the ledger
// passes ContractSalt(cid), which is deterministic. A Canton participant
// checking the id against this salt would not accept it; Canton's JSON
// Ledger API clients and ledgernode itself do not check it.
func AuthenticationDataV1(salt Hash) []byte {
	var s, cad, env pbwire.Encoder
	s.VarintAlways(fSaltHmac, hmacSHA256)
	s.BytesAlways(fSaltBytes, salt[:])
	cad.BytesAlways(fCADSalt, s.B)
	env.BytesAlways(fUntypedData, cad.B)
	env.VarintAlways(fUntypedVersion, authDataProtoVersion)
	return env.B
}

// ContractSalt returns ledgernode's deterministic stand-in for Canton's
// contract salt: SHA-256 of "ledgernode-contract-salt" and the contract
// id's text. It is for AuthenticationDataV1.
func ContractSalt(cid value.ContractID) Hash {
	return sha256.Sum256([]byte("ledgernode-contract-salt:" + string(cid)))
}

// ParseAuthenticationDataV1 returns the salt of the V1 authentication
// data b (AuthenticationDataV1's form; the salt must be 32 bytes and the
// algorithm HMAC-SHA256). Errors are *BlobError at "authentication_data".
func ParseAuthenticationDataV1(b []byte) (Hash, error) {
	const at = "payload.authentication_data"
	bad := func(format string, args ...any) (Hash, error) {
		return Hash{}, blobErr(BlobInvalid, at, format, args...)
	}
	var data []byte
	var version uint64
	err := pbwire.Walk(b, func(f pbwire.Field) error {
		var err error
		switch f.Num {
		case fUntypedData:
			data, err = f.Message()
		case fUntypedVersion:
			version, err = f.Uint64()
		}
		return err
	})
	if err != nil {
		return bad("%v", err)
	}
	if version != authDataProtoVersion {
		return bad("unknown contract authentication data version %d", version)
	}
	var saltMsg []byte
	var hasSalt bool
	if err := pbwire.Walk(data, func(f pbwire.Field) error {
		if f.Num != fCADSalt {
			return nil
		}
		m, err := f.Message()
		saltMsg, hasSalt = append(saltMsg, m...), true
		return err
	}); err != nil {
		return bad("%v", err)
	}
	if !hasSalt {
		return bad("salt is missing")
	}
	var alg uint64
	var salt []byte
	if err := pbwire.Walk(saltMsg, func(f pbwire.Field) error {
		var err error
		switch f.Num {
		case fSaltHmac:
			alg, err = f.Uint64()
		case fSaltBytes:
			salt, err = f.Message()
		}
		return err
	}); err != nil {
		return bad("%v", err)
	}
	if alg != hmacSHA256 {
		return bad("salt algorithm %d is not HMAC-SHA256", alg)
	}
	var h Hash
	if len(salt) != len(h) {
		return bad("salt of %d bytes, want %d", len(salt), len(h))
	}
	copy(h[:], salt)
	return h, nil
}
