package tx

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/lowerhex"
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

// hmacBlock is SHA-256's block size, the size of HMAC's key blocks.
const hmacBlock = 64

// newHMACInput returns empty data over buf after room for HMAC's inner
// key block (buf must hold hmacBlock bytes), for sumInPlace: the data is
// hashed where it is, rather than copied after the block.
func newHMACInput(buf []byte) hmacData { return hmacData(buf[:hmacBlock]) }

// sumInPlace returns HMAC-SHA256(key, data), data being what follows h's
// first hmacBlock bytes (newHMACInput's room), which it overwrites with
// the inner key block: the key (32 bytes) is shorter than SHA-256's
// block, so the HMAC is two SHA-256 sums over buffers of the caller's
// (crypto/hmac allocates a hasher per call, and seeds and discriminators
// are derived at every Create and Exercise).
func (h hmacData) sumInPlace(key Hash) Hash {
	hmacPad((*[hmacBlock]byte)(h), &key, 0x36)
	inner := sha256.Sum256(h)
	var outer [hmacBlock + sha256.Size]byte
	hmacPad((*[hmacBlock]byte)(outer[:]), &key, 0x5c)
	copy(outer[hmacBlock:], inner[:])
	return sha256.Sum256(outer[:])
}

// hmacPad sets the 64-byte block dst to the key, zero-padded, XOR pad in
// every byte (HMAC's inner or outer key block), eight bytes at a time, at
// constant offsets into arrays (no bounds checks).
func hmacPad(dst *[64]byte, key *Hash, pad byte) {
	p := uint64(pad) * 0x0101010101010101
	binary.LittleEndian.PutUint64(dst[0:8], binary.LittleEndian.Uint64(key[0:8])^p)
	binary.LittleEndian.PutUint64(dst[8:16], binary.LittleEndian.Uint64(key[8:16])^p)
	binary.LittleEndian.PutUint64(dst[16:24], binary.LittleEndian.Uint64(key[16:24])^p)
	binary.LittleEndian.PutUint64(dst[24:32], binary.LittleEndian.Uint64(key[24:32])^p)
	binary.LittleEndian.PutUint64(dst[32:40], p)
	binary.LittleEndian.PutUint64(dst[40:48], p)
	binary.LittleEndian.PutUint64(dst[48:56], p)
	binary.LittleEndian.PutUint64(dst[56:64], p)
}

// TransactionSeed derives the transaction seed from the participant's
// random submission seed, the participant id and the preparation time (µs
// since the epoch): HMAC(submissionSeed, str(participantID) ‖
// int64(preparationTime)) (Hash.deriveTransactionSeed).
func TransactionSeed(submissionSeed Hash, participantID string, preparationTime value.Timestamp) Hash {
	var buf [hmacBlock + 128]byte
	return newHMACInput(buf[:]).str(participantID).int64(int64(preparationTime)).sumInPlace(submissionSeed)
}

// DeriveNodeSeed derives the seed of the action child number i (from 0) of
// a context with seed parent: HMAC(parent, int32(i)). The root context's
// seed is the transaction seed (Hash.deriveNodeSeed).
func DeriveNodeSeed(parent Hash, i int) Hash {
	var buf [hmacBlock + 4]byte
	return newHMACInput(buf[:]).int32(int32(i)).sumInPlace(parent)
}

// Discriminator derives the discriminator of a contract created by a node
// with seed nodeSeed: HMAC(nodeSeed, int64(preparationTime) ‖ int32(n) ‖
// str(p1) ‖ … ‖ str(pn)) over the stakeholders sorted and unique
// (Hash.deriveContractDiscriminator).
func Discriminator(nodeSeed Hash, preparationTime value.Timestamp, stakeholders []string) Hash {
	ps := stakeholders
	if !isSortedSet(ps) {
		ps = sortedSet(ps)
	}
	var buf [hmacBlock + 192]byte
	h := newHMACInput(buf[:]).int64(int64(preparationTime)).int32(int32(len(ps)))
	for _, p := range ps {
		h = h.str(p)
	}
	return h.sumInPlace(nodeSeed)
}

// LocalContractID returns the V1 contract id of a discriminator before its
// suffix: "00" followed by the discriminator in hex (66 characters;
// Value.ContractId.V1 with an empty suffix).
func LocalContractID(discriminator Hash) value.ContractID {
	var b [2 + 2*len(discriminator)]byte
	b[0], b[1] = '0', '0'
	encodeHash(b[2:], &discriminator)
	return value.ContractID(string(b[:]))
}

// encodeHash writes h in lowercase hex to dst[:64] (lowerhex: hex.Encode's
// per-digit work was the larger part of LocalContractID and
// SuffixContractID).
func encodeHash(dst []byte, h *Hash) { lowerhex.Encode32((*[64]byte)(dst), (*[32]byte)(h)) }

// suffixV1Prefix starts Canton's V1 suffix: the "ca12" version of an
// authenticated contract id, then the multihash header of a SHA-256
// digest (0x12, 32 bytes).
var suffixV1Prefix = []byte{0xca, 0x12, 0x12, 0x20}

// suffixV1PrefixHex is suffixV1Prefix in hex.
const suffixV1PrefixHex = "ca121220"

// localV1Len is the length of a local V1 contract id: "00" and the
// 32-byte discriminator in hex.
const localV1Len = 2 + 2*len(Hash{})

// suffixedLen is the length of a committed V1 contract id
// (SuffixContractID's).
const suffixedLen = localV1Len + len(suffixV1PrefixHex) + 2*len(Hash{})

// SuffixContractID returns the committed form of a local V1 contract id:
// the id followed by the suffix ca12 ‖ 1220 ‖ unicum (138 hex characters;
// Canton's ContractIdSuffixer and CantonContractIdVersion). It fails unless
// cid is a local V1 id.
func SuffixContractID(cid value.ContractID, unicum Hash) (value.ContractID, error) {
	var b [suffixedLen]byte
	out, err := appendSuffixContractID(b[:0], cid, unicum)
	if err != nil {
		return "", err
	}
	return value.ContractID(out), nil
}

// appendSuffixContractID appends SuffixContractID(cid, unicum) to dst.
func appendSuffixContractID(dst []byte, cid value.ContractID, unicum Hash) ([]byte, error) {
	if !isLocalV1(cid) {
		return dst, notLocalV1(cid)
	}
	// A local V1 id in lowercase hex is its own text form, so the
	// committed id is the id, then the suffix in hex.
	var h [2 * len(Hash{})]byte
	encodeHash(h[:], &unicum)
	dst = append(dst, cid...)
	dst = append(dst, suffixV1PrefixHex...)
	return append(dst, h[:]...), nil
}

// isLocalV1 reports whether cid is the text form of a local V1 contract
// id: "00" and 64 lowercase hex digits (what lf.ParseContractID accepts
// as a V1 id without a suffix).
func isLocalV1(cid value.ContractID) bool {
	return len(cid) == localV1Len && cid[0] == '0' && cid[1] == '0' && lowerhex.Valid64(string(cid[2:]))
}

// notLocalV1 returns the error of SuffixContractID on an id that is not
// a local V1 id: lf.ParseContractID's when it is no contract id at all.
func notLocalV1(cid value.ContractID) error {
	if _, err := lf.ParseContractID(string(cid)); err != nil {
		return err
	}
	return fmt.Errorf("contract id %s is not a local V1 id", cid)
}

// IsLocalContractID reports whether cid is a V1 or V2 id without a
// suffix: a contract of the transaction being built.
func IsLocalContractID(cid value.ContractID) bool {
	c, err := lf.ParseContractID(string(cid))
	return err == nil && c.IsLocal()
}

// UnicumOf returns a unicum that is unique per contract: SHA-256 over the
// update id and the node id. Canton's unicum is a salted commitment to the
// synchronizer, the view and the contract (UnicumGenerator) that no client
// verifies; a ledger that does not exchange transactions with Canton
// participants may use this one.
func UnicumOf(updateID string, node NodeID) Hash {
	var buf [128]byte
	return sha256.Sum256(newHMACData(buf[:]).str(updateID).int32(int32(node)))
}

// UnicumOfBytes is UnicumOf of an update id given as bytes.
func UnicumOfBytes(updateID []byte, node NodeID) Hash {
	var buf [128]byte
	h := newHMACData(buf[:]).int32(int32(len(updateID))) // str's encoding
	h = append(h, updateID...)
	return sha256.Sum256(h.int32(int32(node)))
}

// WithSuffixes returns the transaction with every contract it creates
// given its committed id (SuffixContractID with unicum(node, create)),
// and every occurrence of those ids replaced: in Create, Fetch and
// Exercise nodes, query results, and inside every argument, choice
// argument, result and key. It also returns the mapping from local to
// committed ids. Contracts created inside a Rollback are suffixed too
// (their Create node stays in the transaction). The input is not
// modified; the returned nodes are new, and the parts of their values
// without a suffixed id are shared with the input's.
func (t *Transaction) WithSuffixes(unicum func(node NodeID, c *Create) Hash) (*Transaction, map[value.ContractID]value.ContractID, error) {
	s, err := t.suffixes(unicum, nil)
	if err != nil {
		return nil, nil, err
	}
	m := s.asMap()
	return t.MapContractIDs(m), m, nil
}

// Suffixed is WithSuffixes without the mapping, which it keeps in a
// list on its stack while the transaction creates a few contracts.
func (t *Transaction) Suffixed(unicum func(node NodeID, c *Create) Hash) (*Transaction, error) {
	var buf [8][2]value.ContractID
	s, err := t.suffixes(unicum, buf[:0])
	if err != nil {
		return nil, err
	}
	return t.mapWith(&s), nil
}

// SuffixInPlaceAfter is Suffixed on t itself, for a transaction nothing
// else refers to (the engine's Result's, say, which its caller owns): t's
// nodes take their committed ids, and the values that hold one are
// replaced (never changed in place), which saves Suffixed's copies of the
// transaction and of its Create and Exercise nodes. On an error t is left
// as it was. The committed ids are made in one string after prefix's
// bytes, which it returns: its first len(prefix) bytes are prefix's, for
// the caller's own strings to share the allocation.
func (t *Transaction) SuffixInPlaceAfter(prefix []byte, unicum func(node NodeID, c *Create) Hash) (string, error) {
	// The committed ids' bytes first, each suffixedLen long after the
	// prefix, then one string of them all. The pairs are filled in place:
	// the local ids in the walk, the committed ids after it. (A pair built
	// on the stack and copied in, 16-byte loads of words just stored,
	// stalled on the string's copy to new memory in a profile.)
	var pairBuf [8][2]value.ContractID
	s := suffixer{pairs: pairBuf[:0]}
	b := prefix
	var err error
	t.Walk(func(id NodeID, n Node, _ bool) bool { // suffixes' order
		if c, ok := n.(*Create); ok {
			if b, err = appendSuffixContractID(b, c.ContractID, unicum(id, c)); err != nil {
				return false
			}
			s.pairs = append(s.pairs, [2]value.ContractID{})
			s.pairs[len(s.pairs)-1][0] = c.ContractID
		}
		return true
	})
	if err != nil {
		return "", err
	}
	all := string(b)
	for i, start := 0, len(prefix); i < len(s.pairs); i, start = i+1, start+suffixedLen {
		s.pairs[i][1] = value.ContractID(all[start : start+suffixedLen])
	}
	if len(s.pairs) > len(pairBuf) {
		s.m = s.asMap()
	}
	t.suffixInPlace(&s)
	return all, nil
}

// suffixInPlace gives t's nodes their committed ids, s's
// (SuffixInPlaceAfter).
func (t *Transaction) suffixInPlace(s *suffixer) {
	if t.Nodes == nil {
		t.Nodes = []Node{} // as Suffixed's copy
	}
	for _, n := range t.Nodes {
		switch x := n.(type) {
		case *Create:
			x.ContractID, x.Arg, x.Key = s.cid(x.ContractID), s.value(x.Arg), s.key(x.Key)
		case *Fetch:
			x.ContractID, x.Key = s.cid(x.ContractID), s.key(x.Key)
		case *Exercise:
			x.TargetID, x.ChosenValue, x.Key = s.cid(x.TargetID), s.value(x.ChosenValue), s.key(x.Key)
			if x.Result != nil {
				x.Result = s.value(x.Result)
			}
		case *QueryByKey:
			x.Key = *s.key(&x.Key)
			res := make([]value.ContractID, len(x.Result))
			for j, c := range x.Result {
				res[j] = s.cid(c)
			}
			x.Result = res
		}
	}
}

// suffixes maps the ids of the contracts t creates to their committed
// ids (WithSuffixes), in pairs appended to buf, indexed by a map when
// they are more than buf holds.
func (t *Transaction) suffixes(unicum func(node NodeID, c *Create) Hash, buf [][2]value.ContractID) (suffixer, error) {
	s := suffixer{pairs: buf}
	var err error
	t.Walk(func(id NodeID, n Node, _ bool) bool {
		if c, ok := n.(*Create); ok {
			var g value.ContractID
			if g, err = SuffixContractID(c.ContractID, unicum(id, c)); err != nil {
				return false
			}
			s.pairs = append(s.pairs, [2]value.ContractID{c.ContractID, g})
		}
		return true
	})
	if len(s.pairs) > cap(buf) {
		s.m = s.asMap()
	}
	return s, err
}

// MapContractIDs returns the transaction with every contract id that m
// maps replaced by m's: in Create, Fetch and Exercise nodes, query
// results, and inside every argument, choice argument, result and key.
// The input is not modified; the returned nodes are new, and the parts
// of their values without a mapped id are shared with the input's.
func (t *Transaction) MapContractIDs(m map[value.ContractID]value.ContractID) *Transaction {
	return t.mapWith(&suffixer{m: m})
}

// mapWith is MapContractIDs with the mapping s.
func (t *Transaction) mapWith(s *suffixer) *Transaction {
	out := newTransaction(len(t.Nodes))
	out.Roots, out.NodeSeeds = t.Roots, t.NodeSeeds
	// The copies of the Create and Exercise nodes, one array each.
	var nc, ne int
	for _, n := range t.Nodes {
		switch n.(type) {
		case *Create:
			nc++
		case *Exercise:
			ne++
		}
	}
	creates, exercises := make([]Create, nc), make([]Exercise, ne)
	for i, n := range t.Nodes {
		switch x := n.(type) {
		case *Create:
			cp := &creates[0]
			creates = creates[1:]
			*cp = *x
			cp.ContractID, cp.Arg, cp.Key = s.cid(x.ContractID), s.value(x.Arg), s.key(x.Key)
			out.Nodes[i] = cp
		case *Fetch:
			cp := *x
			cp.ContractID, cp.Key = s.cid(x.ContractID), s.key(x.Key)
			out.Nodes[i] = &cp
		case *Exercise:
			cp := &exercises[0]
			exercises = exercises[1:]
			*cp = *x
			cp.TargetID, cp.ChosenValue, cp.Key = s.cid(x.TargetID), s.value(x.ChosenValue), s.key(x.Key)
			if x.Result != nil {
				cp.Result = s.value(x.Result)
			}
			out.Nodes[i] = cp
		case *QueryByKey:
			cp := *x
			cp.Key = *s.key(&x.Key)
			cp.Result = make([]value.ContractID, len(x.Result))
			for j, c := range x.Result {
				cp.Result[j] = s.cid(c)
			}
			out.Nodes[i] = &cp
		default:
			out.Nodes[i] = n
		}
	}
	return out
}

// newTransaction returns a Transaction with n nil nodes; for a few
// nodes, the Transaction and its node list are one allocation.
func newTransaction(n int) *Transaction {
	switch {
	case n <= 2:
		x := &struct {
			t     Transaction
			nodes [2]Node
		}{}
		x.t.Nodes = x.nodes[:n:n]
		return &x.t
	case n <= 4:
		x := &struct {
			t     Transaction
			nodes [4]Node
		}{}
		x.t.Nodes = x.nodes[:n:n]
		return &x.t
	case n <= 8:
		x := &struct {
			t     Transaction
			nodes [8]Node
		}{}
		x.t.Nodes = x.nodes[:n:n]
		return &x.t
	}
	return &Transaction{Nodes: make([]Node, n)}
}

// suffixer maps local contract ids to their committed ids: with m, or
// else with pairs (local, committed), a few searched in order.
type suffixer struct {
	m     map[value.ContractID]value.ContractID
	pairs [][2]value.ContractID
}

func (s *suffixer) cid(c value.ContractID) value.ContractID {
	if s.m != nil {
		if g, ok := s.m[c]; ok {
			return g
		}
		return c
	}
	// By index, not copying each pair out (SuffixInPlaceAfter's were just
	// stored word by word).
	for i := range s.pairs {
		if s.pairs[i][0] == c {
			return s.pairs[i][1]
		}
	}
	return c
}

// asMap returns the mapping as a map (s.m when it has one).
func (s *suffixer) asMap() map[value.ContractID]value.ContractID {
	if s.m != nil {
		return s.m
	}
	m := make(map[value.ContractID]value.ContractID, len(s.pairs))
	for _, p := range s.pairs {
		m[p[0]] = p[1]
	}
	return m
}

func (s *suffixer) key(k *KeyWithMaintainers) *KeyWithMaintainers {
	if k == nil {
		return nil
	}
	return &KeyWithMaintainers{Key: s.value(k.Key), Maintainers: k.Maintainers}
}

func (s *suffixer) value(v value.Value) value.Value {
	return mapContractIDs(v, s.cid)
}

// mapContractIDs returns v with every contract id c replaced by f(c).
// The parts of v in which f changes nothing are shared, not copied; a
// nil list, map or record field list becomes an empty one (a change: the
// values around it are copied), as when every part was copied.
func mapContractIDs(v value.Value, f func(value.ContractID) value.ContractID) value.Value {
	out, _ := mapCIDs(v, f)
	return out
}

// mapCIDs is mapContractIDs, also reporting whether the result differs
// from v (f changed an id, or a nil container became empty).
func mapCIDs(v value.Value, f func(value.ContractID) value.ContractID) (value.Value, bool) {
	switch x := v.(type) {
	case value.ContractID:
		if g := f(x); g != x {
			return g, true
		}
	case value.Optional:
		if x.Value != nil {
			if e, ok := mapCIDs(x.Value, f); ok {
				x.Value = e
				return x, true
			}
		}
	case value.List:
		if x == nil {
			return value.List{}, true
		}
		var out value.List // made at the first change
		for i, e := range x {
			if g, ok := mapCIDs(e, f); ok || out != nil {
				if out == nil {
					out = make(value.List, len(x))
					copy(out, x[:i])
				}
				out[i] = g
			}
		}
		if out != nil {
			return out, true
		}
	case value.TextMap:
		if x == nil {
			return value.TextMap{}, true
		}
		var out value.TextMap
		for i, e := range x {
			if g, ok := mapCIDs(e.Value, f); ok || out != nil {
				if out == nil {
					out = make(value.TextMap, len(x))
					copy(out, x[:i])
				}
				out[i] = value.TextMapEntry{Key: e.Key, Value: g}
			}
		}
		if out != nil {
			return out, true
		}
	case value.GenMap:
		if x == nil {
			return value.GenMap{}, true
		}
		var out value.GenMap
		for i, e := range x {
			k, kok := mapCIDs(e.Key, f)
			g, ok := mapCIDs(e.Value, f)
			if kok || ok || out != nil {
				if out == nil {
					out = make(value.GenMap, len(x))
					copy(out, x[:i])
				}
				out[i] = value.GenMapEntry{Key: k, Value: g}
			}
		}
		if out != nil {
			return out, true
		}
	case value.Record:
		if x.Fields == nil {
			x.Fields = []value.RecordField{}
			return x, true
		}
		var fs []value.RecordField
		for i := range x.Fields {
			e := &x.Fields[i] // not a copy of each field
			if g, ok := mapCIDs(e.Value, f); ok || fs != nil {
				if fs == nil {
					fs = make([]value.RecordField, len(x.Fields))
					copy(fs, x.Fields[:i])
				}
				fs[i] = value.RecordField{Label: e.Label, Value: g}
			}
		}
		if fs != nil {
			x.Fields = fs
			return x, true
		}
	case value.Variant:
		if g, ok := mapCIDs(x.Value, f); ok {
			x.Value = g
			return x, true
		}
	}
	return v, false
}
