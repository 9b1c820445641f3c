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
//	w/<party>/<contract id>   a stakeholder's active contract (see below)
//	z/<party>/<offset><cid>   a stakeholder's contract archived at offset
package store

import (
	"bytes"
	"encoding/binary"
)

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
func OffsetBytes(off int64) []byte { return AppendOffset(make([]byte, 0, 8), off) }

// DecodeOffset decodes 8 big-endian bytes (0 when b is shorter).
func DecodeOffset(b []byte) int64 {
	if len(b) < 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

// UpdateKey is the key of the update at an offset.
func UpdateKey(off int64) []byte {
	return AppendUpdateKey(make([]byte, 0, len(PrefixUpdate)+8), off)
}

// AppendUpdateKey appends UpdateKey(off) to dst.
func AppendUpdateKey(dst []byte, off int64) []byte {
	return AppendOffset(append(dst, PrefixUpdate...), off)
}

// UpdateIDKey is the key of the update-id index entry.
func UpdateIDKey(updateID string) []byte {
	return AppendUpdateIDKey(make([]byte, 0, len(PrefixUpdateID)+len(updateID)), updateID)
}

// AppendUpdateIDKey appends UpdateIDKey(updateID) to dst.
func AppendUpdateIDKey(dst []byte, updateID string) []byte {
	return append(append(dst, PrefixUpdateID...), updateID...)
}

// AppendOffset appends OffsetBytes(off) to dst.
func AppendOffset(dst []byte, off int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(off))
}

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

// AppendContractKey appends ContractKey(cid) to dst.
func AppendContractKey(dst []byte, cid string) []byte {
	return append(append(dst, PrefixContract...), cid...)
}

// PrefixDedup holds command deduplication entries: q/<change id hash>.
const PrefixDedup = "q/"

// DedupKey is the key of a deduplication entry.
func DedupKey(changeID string) []byte { return []byte(PrefixDedup + changeID) }

// AppendDedupKey appends DedupKey(changeID) to dst.
func AppendDedupKey(dst []byte, changeID string) []byte {
	return append(append(dst, PrefixDedup...), changeID...)
}

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

// The active-contracts index by stakeholder. Every stakeholder of a
// contract that was ever active has one entry: w/<party>/<contract id>
// while the contract is active (or in transit), replaced when it is
// archived at offset off by z/<party>/<off><contract id>. Both hold the
// contract's creation offset, template and package name (ACSIndexValue);
// an active entry of an on-disk node also holds its record
// (ACSIndexRecordValue). A read of a party's active contracts at the
// ledger end scans its w/ entries (in contract-id order); a read at an
// earlier offset at also scans its z/ entries from at+1 on, the contracts
// archived since. Party ids contain no '/' (Daml-LF Party strings), so a
// party's prefix is no other party's. KeyACSIndex marks a store whose
// index is complete.
const (
	PrefixActiveByParty   = "w/"
	PrefixArchivedByParty = "z/"
)

// KeyACSIndex is present once the active-contracts index covers every
// contract of the store (its value is the index's version).
var KeyACSIndex = MetaKey("acs-index")

// ActiveByPartyPrefix is the prefix of a party's active-contract entries.
func ActiveByPartyPrefix(party string) []byte {
	return []byte(PrefixActiveByParty + party + "/")
}

// ActiveByPartyKey is the entry of a party's active contract.
func ActiveByPartyKey(party, cid string) []byte {
	return AppendActiveByPartyKey(make([]byte, 0, len(PrefixActiveByParty)+len(party)+1+len(cid)), party, cid)
}

// AppendActiveByPartyKey appends ActiveByPartyKey(party, cid) to dst.
func AppendActiveByPartyKey(dst []byte, party, cid string) []byte {
	dst = append(dst, PrefixActiveByParty...)
	dst = append(dst, party...)
	dst = append(dst, '/')
	return append(dst, cid...)
}

// ArchivedByPartyPrefix is the prefix of a party's archived-contract
// entries.
func ArchivedByPartyPrefix(party string) []byte {
	return []byte(PrefixArchivedByParty + party + "/")
}

// ArchivedByPartyKey is the entry of a party's contract archived at an
// offset; ArchivedByPartyKey(party, off, "") is where the contracts
// archived at off or later start.
func ArchivedByPartyKey(party string, off int64, cid string) []byte {
	k := make([]byte, 0, len(PrefixArchivedByParty)+len(party)+9+len(cid))
	k = append(k, PrefixArchivedByParty...)
	k = append(k, party...)
	k = append(k, '/')
	k = binary.BigEndian.AppendUint64(k, uint64(off))
	return append(k, cid...)
}

// ACSIndexValue is the value of an index entry: the contract's creation
// offset (8 bytes big-endian), its template id, a 0 byte and its package
// name, so that reads filter by offset and template before loading the
// contract.
func ACSIndexValue(createdOffset int64, templateID, pkgName string) []byte {
	return AppendACSIndexValue(make([]byte, 0, ACSIndexValueSize(templateID, pkgName)), createdOffset, templateID, pkgName)
}

// ACSIndexRecordValue is ACSIndexValue followed by a 0 byte and the
// contract's record as stored under its ContractKey: an active entry of
// an on-disk store carries it, so that a read of a party's active
// contracts finds them in its scan of the entries rather than looking each
// record up at a random place of the store.
func ACSIndexRecordValue(createdOffset int64, templateID, pkgName string, record []byte) []byte {
	return AppendACSIndexRecordValue(make([]byte, 0, ACSIndexValueSize(templateID, pkgName)+1+len(record)), createdOffset, templateID, pkgName, record)
}

// AppendACSIndexValue appends ACSIndexValue's bytes to v (a buffer of
// the caller's, with room for more after them).
func AppendACSIndexValue(v []byte, createdOffset int64, templateID, pkgName string) []byte {
	v = binary.BigEndian.AppendUint64(v, uint64(createdOffset))
	v = append(v, templateID...)
	v = append(v, 0)
	return append(v, pkgName...)
}

// AppendACSIndexRecordValue appends ACSIndexRecordValue's bytes to v.
func AppendACSIndexRecordValue(v []byte, createdOffset int64, templateID, pkgName string, record []byte) []byte {
	v = AppendACSIndexValue(v, createdOffset, templateID, pkgName)
	v = append(v, 0)
	return append(v, record...)
}

// ACSIndexValueSize is the length of ACSIndexValue's bytes (an
// ACSIndexRecordValue has 1 + len(record) more).
func ACSIndexValueSize(templateID, pkgName string) int {
	return 8 + len(templateID) + 1 + len(pkgName)
}

// DecodeACSIndexValue splits an ACSIndexValue or an ACSIndexRecordValue;
// record is nil for the former; ok is false when v is neither. (Template
// ids and package names hold no 0 byte.)
func DecodeACSIndexValue(v []byte) (createdOffset int64, templateID, pkgName, record []byte, ok bool) {
	if len(v) < 9 {
		return 0, nil, nil, nil, false
	}
	rest := v[8:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return 0, nil, nil, nil, false
	}
	templateID, pkgName = rest[:i], rest[i+1:]
	if j := bytes.IndexByte(pkgName, 0); j >= 0 {
		pkgName, record = pkgName[:j], pkgName[j+1:]
	}
	return int64(binary.BigEndian.Uint64(v)), templateID, pkgName, record, true
}
