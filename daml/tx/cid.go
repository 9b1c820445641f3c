package tx

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// String returns the hash in lowercase hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// hmacData accumulates the data of one HMAC-SHA256 in Canton's
// encoding: integers big-endian, strings as a 4-byte length and UTF-8.
// Its methods return the extended value, so that the data can live in a
// caller's stack buffer (newHMACData).
type hmacData []byte

// newHMACData returns empty data over buf.
func newHMACData(buf []byte) hmacData { return hmacData(buf[:0]) }

func (h hmacData) int32(i int32) hmacData {
	return binary.BigEndian.AppendUint32(h, uint32(i))
}

func (h hmacData) int64(i int64) hmacData {
	return binary.BigEndian.AppendUint64(h, uint64(i))
}

func (h hmacData) str(s string) hmacData {
	return append(h.int32(int32(len(s))), s...)
}

// sum returns HMAC-SHA256(key, data). The key (32 bytes) is shorter than
// SHA-256's block, so the HMAC is two SHA-256 sums over stack buffers
// (crypto/hmac allocates a hasher per call, and seeds and discriminators
// are derived at every Create and Exercise).
func (h hmacData) sum(key Hash) Hash {
	const block = 64
	var small [block + 192]byte
	buf := small[:0]
	if block+len(h) > len(small) {
		buf = make([]byte, 0, block+len(h))
	}
	var pad [block]byte
	copy(pad[:], key[:])
	for _, c := range pad {
		buf = append(buf, c^0x36)
	}
	buf = append(buf, h...)
	inner := sha256.Sum256(buf)
	var outer [block + sha256.Size]byte
	for i, c := range pad {
		outer[i] = c ^ 0x5c
	}
	copy(outer[block:], inner[:])
	return sha256.Sum256(outer[:])
}

// TransactionSeed derives the transaction seed from the participant's
// random submission seed, the participant id and the preparation time
// (µs since the epoch): HMAC(submissionSeed, str(participantID) ‖
// int64(preparationTime)) (§6.2).
func TransactionSeed(submissionSeed Hash, participantID string, preparationTime value.Timestamp) Hash {
	var buf [128]byte
	return newHMACData(buf[:]).str(participantID).int64(int64(preparationTime)).sum(submissionSeed)
}

// DeriveNodeSeed derives the seed of the action child number i (from 0)
// of a context with seed parent: HMAC(parent, int32(i)). The root
// context's seed is the transaction seed (§6.2).
func DeriveNodeSeed(parent Hash, i int) Hash {
	var buf [4]byte
	return newHMACData(buf[:]).int32(int32(i)).sum(parent)
}

// Discriminator derives the discriminator of a contract created by a
// node with seed nodeSeed: HMAC(nodeSeed, int64(preparationTime) ‖
// int32(n) ‖ str(p1) ‖ … ‖ str(pn)) over the stakeholders sorted and
// unique (§6.2).
func Discriminator(nodeSeed Hash, preparationTime value.Timestamp, stakeholders []string) Hash {
	ps := stakeholders
	if !isSortedSet(ps) {
		ps = sortedSet(ps)
	}
	var buf [192]byte
	h := newHMACData(buf[:]).int64(int64(preparationTime)).int32(int32(len(ps)))
	for _, p := range ps {
		h = h.str(p)
	}
	return h.sum(nodeSeed)
}

// LocalContractID returns the V1 contract id of a discriminator before
// its suffix: "00" followed by the discriminator in hex (66 characters,
// §6.1).
func LocalContractID(discriminator Hash) value.ContractID {
	var b [2 + 2*len(discriminator)]byte
	b[0], b[1] = '0', '0'
	hex.Encode(b[2:], discriminator[:])
	return value.ContractID(string(b[:]))
}

// suffixV1Prefix starts Canton's V1 suffix: the "ca12" version of an
// authenticated contract id, then the multihash header of a SHA-256
// digest (0x12, 32 bytes).
var suffixV1Prefix = []byte{0xca, 0x12, 0x12, 0x20}

// SuffixContractID returns the committed form of a local V1 contract id:
// the id followed by the suffix ca12 ‖ 1220 ‖ unicum (138 hex characters,
// §6.1, §6.3). It fails unless cid is a local V1 id.
func SuffixContractID(cid value.ContractID, unicum Hash) (value.ContractID, error) {
	c, err := lf.ParseContractID(string(cid))
	if err != nil {
		return "", err
	}
	if c.Version != lf.ContractIDV1 || !c.IsLocal() {
		return "", fmt.Errorf("contract id %s is not a local V1 id", cid)
	}
	c.Suffix = append(slices.Clone(suffixV1Prefix), unicum[:]...)
	return value.ContractID(c.String()), nil
}

// IsLocalContractID reports whether cid is a V1 or V2 id without a
// suffix: a contract of the transaction being built.
func IsLocalContractID(cid value.ContractID) bool {
	c, err := lf.ParseContractID(string(cid))
	return err == nil && c.IsLocal()
}

// UnicumOf returns a unicum that is unique per contract: SHA-256 over the
// update id and the node id. Canton's unicum is a salted commitment to
// the synchronizer, the view and the contract (§6.3) that no client
// verifies; a ledger that does not exchange transactions with Canton
// participants may use this one.
func UnicumOf(updateID string, node NodeID) Hash {
	h := sha256.New()
	h.Write(newHMACData(nil).str(updateID).int32(int32(node)))
	var out Hash
	copy(out[:], h.Sum(nil))
	return out
}

// WithSuffixes returns the transaction with every contract it creates
// given its committed id (SuffixContractID with unicum(node, create)),
// and every occurrence of those ids replaced: in Create, Fetch and
// Exercise nodes, query results, and inside every argument, choice
// argument, result and key. It also returns the mapping from local to
// committed ids. Contracts created inside a Rollback are suffixed too
// (their Create node stays in the transaction). The input is not
// modified.
func (t *Transaction) WithSuffixes(unicum func(node NodeID, c *Create) Hash) (*Transaction, map[value.ContractID]value.ContractID, error) {
	m := map[value.ContractID]value.ContractID{}
	for id, n := range t.All() {
		if c, ok := n.(*Create); ok {
			g, err := SuffixContractID(c.ContractID, unicum(id, c))
			if err != nil {
				return nil, nil, err
			}
			m[c.ContractID] = g
		}
	}
	sub := func(cid value.ContractID) value.ContractID {
		if g, ok := m[cid]; ok {
			return g
		}
		return cid
	}
	key := func(k *KeyWithMaintainers) *KeyWithMaintainers {
		if k == nil {
			return nil
		}
		return &KeyWithMaintainers{Key: mapContractIDs(k.Key, sub), Maintainers: k.Maintainers}
	}
	out := &Transaction{Nodes: make([]Node, len(t.Nodes)), Roots: t.Roots, NodeSeeds: t.NodeSeeds}
	for i, n := range t.Nodes {
		switch x := n.(type) {
		case *Create:
			cp := *x
			cp.ContractID, cp.Arg, cp.Key = sub(x.ContractID), mapContractIDs(x.Arg, sub), key(x.Key)
			out.Nodes[i] = &cp
		case *Fetch:
			cp := *x
			cp.ContractID, cp.Key = sub(x.ContractID), key(x.Key)
			out.Nodes[i] = &cp
		case *Exercise:
			cp := *x
			cp.TargetID, cp.ChosenValue, cp.Key = sub(x.TargetID), mapContractIDs(x.ChosenValue, sub), key(x.Key)
			if x.Result != nil {
				cp.Result = mapContractIDs(x.Result, sub)
			}
			out.Nodes[i] = &cp
		case *QueryByKey:
			cp := *x
			cp.Key = *key(&x.Key)
			cp.Result = make([]value.ContractID, len(x.Result))
			for j, c := range x.Result {
				cp.Result[j] = sub(c)
			}
			out.Nodes[i] = &cp
		default:
			out.Nodes[i] = n
		}
	}
	return out, m, nil
}

// mapContractIDs returns v with every contract id c replaced by f(c);
// the parts of v without contract ids are shared, not copied.
func mapContractIDs(v value.Value, f func(value.ContractID) value.ContractID) value.Value {
	switch x := v.(type) {
	case value.ContractID:
		return f(x)
	case value.Optional:
		if x.Value != nil {
			x.Value = mapContractIDs(x.Value, f)
		}
		return x
	case value.List:
		out := make(value.List, len(x))
		for i, e := range x {
			out[i] = mapContractIDs(e, f)
		}
		return out
	case value.TextMap:
		out := make(value.TextMap, len(x))
		for i, e := range x {
			out[i] = value.TextMapEntry{Key: e.Key, Value: mapContractIDs(e.Value, f)}
		}
		return out
	case value.GenMap:
		out := make(value.GenMap, len(x))
		for i, e := range x {
			out[i] = value.GenMapEntry{Key: mapContractIDs(e.Key, f), Value: mapContractIDs(e.Value, f)}
		}
		return out
	case value.Record:
		fs := make([]value.RecordField, len(x.Fields))
		for i, e := range x.Fields {
			fs[i] = value.RecordField{Label: e.Label, Value: mapContractIDs(e.Value, f)}
		}
		x.Fields = fs
		return x
	case value.Variant:
		x.Value = mapContractIDs(x.Value, f)
		return x
	}
	return v
}
