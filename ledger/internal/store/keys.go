// Package store holds ledgernode's Badger key layout and the committer: the
// single goroutine that assigns offsets and group-commits every write.
//
// Keys are prefixed by kind; offsets are big-endian so that range scans are
// ordered:
//
//	m/<name>                  node metadata (ledger end, participant identity)
//	u/<offset>                an update, encoded once in the form readers need
//	i/<update id>             update id -> offset
//	x/<party>/<offset>        per-party update index
//	p/<party>                 a party record
//	s/<user id>               a user record with its rights
//	d/<idp id>                an identity-provider configuration
//	~/<spill id><chunk>       a chunk of a spilled large value (spill.go)
package store

import "encoding/binary"

// Key prefixes.
const (
	PrefixMeta        = "m/"
	PrefixUpdate      = "u/"
	PrefixUpdateID    = "i/"
	PrefixPartyUpdate = "x/"
	PrefixParty       = "p/"
	PrefixUser        = "s/"
	PrefixIDP         = "d/"
)

// MetaKey returns the key of a metadata entry.
func MetaKey(name string) []byte { return []byte(PrefixMeta + name) }

// KeyLedgerEnd holds the ledger end as 8 big-endian bytes.
var KeyLedgerEnd = MetaKey("ledger-end")

// OffsetBytes encodes an offset big-endian.
func OffsetBytes(off int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(off))
	return b[:]
}

// DecodeOffset decodes 8 big-endian bytes (0 when b is shorter).
func DecodeOffset(b []byte) int64 {
	if len(b) < 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

// UpdateKey is the key of the update at an offset.
func UpdateKey(off int64) []byte {
	return binary.BigEndian.AppendUint64(append(make([]byte, 0, len(PrefixUpdate)+8), PrefixUpdate...), uint64(off))
}

// UpdateIDKey is the key of the update-id index entry.
func UpdateIDKey(updateID string) []byte { return []byte(PrefixUpdateID + updateID) }

// PartyUpdateKey is the key of a per-party index entry.
func PartyUpdateKey(party string, off int64) []byte {
	return AppendPartyUpdateKey(make([]byte, 0, len(PrefixPartyUpdate)+len(party)+9), party, off)
}

// AppendPartyUpdateKey appends PartyUpdateKey(party, off) to dst.
func AppendPartyUpdateKey(dst []byte, party string, off int64) []byte {
	dst = append(dst, PrefixPartyUpdate...)
	dst = append(dst, party...)
	dst = append(dst, '/')
	return binary.BigEndian.AppendUint64(dst, uint64(off))
}

// PartyKey is the key of a party record.
func PartyKey(party string) []byte { return []byte(PrefixParty + party) }

// UserKey is the key of a user record.
func UserKey(userID string) []byte { return []byte(PrefixUser + userID) }

// IDPKey is the key of an identity-provider configuration.
func IDPKey(id string) []byte { return []byte(PrefixIDP + id) }

// PrefixIDPMember indexes the users and parties of each identity provider:
// g/<idp>/<kind>/<id> (kind "u" for users, "p" for parties; the default
// provider's idp is empty).
const PrefixIDPMember = "g/"

// IDPMemberPrefix is the prefix of one provider's members of one kind.
func IDPMemberPrefix(idp, kind string) []byte {
	return []byte(PrefixIDPMember + idp + "/" + kind + "/")
}

// IDPMemberKey is the index entry of one member of a provider.
func IDPMemberKey(idp, kind, id string) []byte {
	return append(IDPMemberPrefix(idp, kind), id...)
}

// PrefixInstrument holds registry instruments: r/<instrument id>.
const PrefixInstrument = "r/"

// InstrumentKey is the key of an instrument.
func InstrumentKey(id string) []byte { return []byte(PrefixInstrument + id) }

// KeyRegistryInfo holds the registry's info.
var KeyRegistryInfo = MetaKey("registry-info")

// PrefixPackage holds package records: k/<package id>. Their archive
// payloads are blobs of kind "pkg".
const PrefixPackage = "k/"

// PackageKey is the key of a package record.
func PackageKey(id string) []byte { return []byte(PrefixPackage + id) }

// PrefixVetting holds the vetting state per synchronizer: v/<synchronizer>.
const PrefixVetting = "v/"

// VettingKey is the key of a synchronizer's vetting state.
func VettingKey(sync string) []byte { return []byte(PrefixVetting + sync) }

// PrefixContract holds contracts: c/<contract id>.
const PrefixContract = "c/"

// ContractKey is the key of a contract record.
func ContractKey(cid string) []byte { return []byte(PrefixContract + cid) }

// PrefixDedup holds command deduplication entries: q/<change id hash>.
const PrefixDedup = "q/"

// DedupKey is the key of a deduplication entry.
func DedupKey(changeID string) []byte { return []byte(PrefixDedup + changeID) }

// PrefixReassignment holds open and completed unassignments: t/<id>.
const PrefixReassignment = "t/"

// ReassignmentKey is the key of a reassignment record.
func ReassignmentKey(id string) []byte { return []byte(PrefixReassignment + id) }

// PrefixContractKey indexes the active contracts by contract key (LF 2.3):
// y/<key hash>/<inverted creation offset><inverted node id><contract id>,
// so that a scan of one key's prefix yields its contracts most recent
// first (within a transaction, the later create first).
const PrefixContractKey = "y/"

// ContractKeyPrefix is the prefix of one key's index entries; keyHash is
// a fixed-size digest of the key's identity (package name, template and
// value).
func ContractKeyPrefix(keyHash []byte) []byte {
	k := append([]byte(PrefixContractKey), keyHash...)
	return append(k, '/')
}

// ContractKeyEntry is the index entry of a contract with a key, created
// at offset off by node node of its transaction.
func ContractKeyEntry(keyHash []byte, off int64, node int32, cid string) []byte {
	k := make([]byte, 0, len(PrefixContractKey)+len(keyHash)+1+ContractKeyEntryIDOffset+len(cid))
	k = append(k, PrefixContractKey...)
	k = append(k, keyHash...)
	k = append(k, '/')
	k = binary.BigEndian.AppendUint64(k, uint64(^off))
	k = binary.BigEndian.AppendUint32(k, ^uint32(node))
	return append(k, cid...)
}

// ContractKeyEntryIDOffset is where the contract id starts in a key index
// entry after its key's prefix.
const ContractKeyEntryIDOffset = 8 + 4
