package interactive

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/numeric"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
)

// hashPurposePreparedSubmission is HashPurpose.PreparedSubmission (48).
const hashPurposePreparedSubmission = 48

// HashResult is the outcome of HashDetailed.
type HashResult struct {
	// Hash is the 32-byte prepared-transaction hash that parties sign
	// (PrepareSubmissionResponse.prepared_transaction_hash).
	Hash []byte
	// TransactionHash is the 32-byte hash of the transaction part.
	TransactionHash []byte
	// MetadataHash is the 32-byte hash of the metadata part.
	MetadataHash []byte
	// Details is the encoding trace (the hashingDetails of a verbose
	// prepare), empty unless requested.
	Details string
}

// Hash computes the prepared-transaction hash for hashing scheme V2 or V3
// (Canton's TransactionHash and its builders), the 32 raw bytes external
// parties sign.
func Hash(pt *PreparedTransaction, version HashingSchemeVersion) ([]byte, error) {
	r, err := HashDetailed(pt, version, false)
	if err != nil {
		return nil, err
	}
	return r.Hash, nil
}

// HashDetailed is Hash with the intermediate hashes and, when verbose,
// a trace of every encoded item in the style of Canton's StringHashTracer
// (lines "'<hex>' # <what>", "# <context>" headers, nested nodes indented
// by two spaces per level).
//
// Canton hashes the decoded LF transaction, so this does what that
// decoding implies: party sets (signatories, stakeholders, acting parties,
// choice observers, key maintainers, act_as) are hashed sorted and
// de-duplicated; input contracts sorted by contract id (duplicates must be
// identical); text maps sorted by key; an empty record-field label is
// hashed as None; the transaction UUID in lowercase canonical form; a
// negative-zero Numeric as zero. It rejects what Canton cannot hash:
// a node LF version outside the scheme's set (V2: "2.1"; V3: "2.1", "2"),
// keys, by-key or QueryByKey under V2 or with LF "2.1", an exercise
// without seed, a create without seed inside the transaction, seeds that
// are not 32 bytes or given twice, malformed node ids, dangling,
// repeated or cyclic child references, contract ids that are not
// lowercase hex, invalid party ids or Numerics, a transaction UUID that is
// not 8-4-4-4-12 hex, and a mediator group above 2^31-1.
func HashDetailed(pt *PreparedTransaction, version HashingSchemeVersion, verbose bool) (*HashResult, error) {
	if version != HashingSchemeVersionV2 && version != HashingSchemeVersionV3 {
		return nil, fmt.Errorf("unsupported hashing scheme version %v", version)
	}
	h := &hasher{v: version, nodes: map[string]*Node{}, seeds: map[string][]byte{}, visited: map[string]bool{}}
	var tr *tracer
	if verbose {
		tr = &tracer{sb: &strings.Builder{}}
	}
	for i := range pt.Transaction.Nodes {
		n := &pt.Transaction.Nodes[i]
		if _, err := parseNodeID(n.NodeID); err != nil {
			return nil, err
		}
		if _, dup := h.nodes[n.NodeID]; dup {
			return nil, fmt.Errorf("node id %s is used by more than one node", n.NodeID)
		}
		h.nodes[n.NodeID] = n
	}
	for _, s := range pt.Transaction.NodeSeeds {
		id := strconv.Itoa(int(s.NodeID))
		if s.NodeID < 0 {
			return nil, fmt.Errorf("node seed has a negative node id %d", s.NodeID)
		}
		if len(s.Seed) != 32 {
			return nil, fmt.Errorf("node seed of node %s must be 32 bytes, got %d", id, len(s.Seed))
		}
		if _, dup := h.seeds[id]; dup {
			return nil, fmt.Errorf("node %s has more than one node seed", id)
		}
		h.seeds[id] = s.Seed
	}

	res := &HashResult{}
	fb := newBuilder(tr)
	fb.purpose()
	fb.byte1(byte(version), fmt.Sprintf("%02x (Hashing Scheme Version)", byte(version)))

	// Transaction.
	txb := newBuilder(tr.sub())
	txb.purpose()
	txb.ctx("Transaction Version")
	txb.str(pt.Transaction.Version)
	txb.ctx("Root Nodes")
	txb.int32(int32(len(pt.Transaction.Roots)))
	for _, r := range pt.Transaction.Roots {
		d, err := h.nodeHash(r, txb.tr.sub())
		if err != nil {
			return nil, err
		}
		txb.raw(d, "(Hashed Inner Node)")
	}
	res.TransactionHash = txb.sum()
	fb.raw(res.TransactionHash, "Transaction")

	// Metadata.
	md, err := h.metadataHash(&pt.Metadata, tr.sub())
	if err != nil {
		return nil, err
	}
	res.MetadataHash = md
	fb.raw(res.MetadataHash, "Metadata")

	res.Hash = fb.sum()
	if tr != nil {
		res.Details = tr.sb.String()
	}
	return res, nil
}

type hasher struct {
	v       HashingSchemeVersion
	nodes   map[string]*Node
	seeds   map[string][]byte
	visited map[string]bool
}

// tracer accumulates a hashing trace; a nil tracer traces nothing.
type tracer struct {
	sb    *strings.Builder
	level int
}

func (t *tracer) sub() *tracer {
	if t == nil {
		return nil
	}
	return &tracer{sb: t.sb, level: t.level + 1}
}

func (t *tracer) line(s string) {
	if t != nil {
		t.sb.WriteString(strings.Repeat("  ", t.level))
		t.sb.WriteString(s)
		t.sb.WriteByte('\n')
	}
}

// builder accumulates the encoding of one hash.
type builder struct {
	b  []byte
	tr *tracer
}

func newBuilder(tr *tracer) *builder { return &builder{tr: tr} }

func (w *builder) trace(p []byte, what string) {
	if w.tr != nil {
		w.tr.line("'" + hex.EncodeToString(p) + "' # " + what)
	}
}

func (w *builder) ctx(name string) { w.tr.line("# " + name) }

func (w *builder) raw(p []byte, what string) {
	w.trace(p, what)
	w.b = append(w.b, p...)
}

func (w *builder) purpose() {
	w.raw(binary.BigEndian.AppendUint32(nil, hashPurposePreparedSubmission), "Hash Purpose")
}

func (w *builder) byte1(x byte, what string) { w.raw([]byte{x}, what) }

func (w *builder) boolean(v bool) {
	if v {
		w.byte1(1, "true (bool)")
	} else {
		w.byte1(0, "false (bool)")
	}
}

func (w *builder) int32(v int32) {
	w.raw(binary.BigEndian.AppendUint32(nil, uint32(v)), fmt.Sprintf("%d (int)", v))
}

func (w *builder) int64(v int64) {
	w.raw(binary.BigEndian.AppendUint64(nil, uint64(v)), fmt.Sprintf("%d (long)", v))
}

func (w *builder) bytesLP(p []byte, what string) {
	w.int32(int32(len(p)))
	w.raw(p, what)
}

func (w *builder) str(s string) { w.bytesLP([]byte(s), s+" (string)") }

func (w *builder) none() { w.byte1(0, "None") }
func (w *builder) some() { w.byte1(1, "Some") }

func (w *builder) optInt64(v *uint64) {
	if v == nil {
		w.none()
		return
	}
	w.some()
	w.int64(int64(*v))
}

func (w *builder) sum() []byte {
	d := sha256.Sum256(w.b)
	return d[:]
}

// identifier: string(package_id) ‖ repeated(module segments) ‖
// repeated(entity segments).
func (w *builder) identifier(id Identifier) {
	w.str(id.PackageID)
	for _, name := range []string{id.ModuleName, id.EntityName} {
		segs := strings.Split(name, ".")
		w.int32(int32(len(segs)))
		for _, s := range segs {
			w.str(s)
		}
	}
}

// optTypeConID hashes the optional type id of a record, variant or enum
// value as optIdentifier does.
func (w *builder) optTypeConID(id *lf.TypeConID) {
	if id == nil {
		w.optIdentifier(nil)
		return
	}
	iid := identifierOf(*id)
	w.optIdentifier(&iid)
}

func (w *builder) optIdentifier(id *Identifier) {
	if id == nil {
		w.none()
		return
	}
	w.some()
	w.identifier(*id)
}

// partySet hashes a party list as Canton hashes an LF party set: validated,
// sorted (Java String order, which is byte order for the ASCII-only party
// strings), de-duplicated, count-prefixed.
func (w *builder) partySet(what string, parties []string) error {
	ps := slices.Clone(parties)
	for _, p := range ps {
		if err := identity.ValidatePartyString(p); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	slices.Sort(ps)
	ps = slices.Compact(ps)
	w.int32(int32(len(ps)))
	for _, p := range ps {
		w.str(p)
	}
	return nil
}

// cid hashes a contract id: its hex-decoded bytes with a length prefix.
func (w *builder) cid(c string) error {
	b, err := contractIDBytes(c)
	if err != nil {
		return err
	}
	w.bytesLP(b, c+" (contractId)")
	return nil
}

// contractIDBytes returns the bytes Canton hashes for a contract id: the
// hex-decoded id. The hash takes any lowercase hex (the reference vectors
// hash ids such as "00ab" that are not V1 or V2 ids), so this is not
// daml/lf's contract-id syntax, which callers check where ids enter.
func contractIDBytes(c string) ([]byte, error) {
	if c == "" {
		return nil, fmt.Errorf("contract id is empty")
	}
	b, err := hex.DecodeString(c)
	if err != nil || strings.ToLower(c) != c {
		return nil, fmt.Errorf("contract id %q is not lowercase hex", c)
	}
	return b, nil
}

// canonicalNumeric validates a Numeric as Daml-LF parses it (daml/numeric's
// Parse: -?(0|[1-9][0-9]*)\.[0-9]*, at most 38 digits, 37 decimals) and
// returns the string Canton hashes (LF Numeric.toString of the parsed
// value: the input itself, but "-0.…" loses its sign).
func canonicalNumeric(s string) (string, error) {
	n, err := numeric.Parse(s)
	if err != nil {
		return "", fmt.Errorf("numeric %q is not in Daml-LF form -?(0|[1-9][0-9]*)\\.[0-9]* with at most 38 digits and 37 decimals", apierr.Quote(s))
	}
	return n.ScaledString(), nil
}

func (w *builder) value(v value.Value) error {
	switch v := v.(type) {
	case value.Unit:
		w.byte1(0x00, "value.Unit Type Tag")
	case value.Bool:
		w.byte1(0x01, "value.Bool Type Tag")
		w.boolean(bool(v))
	case value.Int64:
		w.byte1(0x02, "value.Int64 Type Tag")
		w.int64(int64(v))
	case value.Numeric:
		n, err := canonicalNumeric(string(v))
		if err != nil {
			return err
		}
		w.byte1(0x03, "value.Numeric Type Tag")
		w.bytesLP([]byte(n), n+" (numeric)")
	case value.Timestamp:
		w.byte1(0x04, "value.Timestamp Type Tag")
		w.int64(int64(v))
	case value.Date:
		w.byte1(0x05, "value.Date Type Tag")
		w.int32(int32(v))
	case value.Party:
		if err := identity.ValidatePartyString(string(v)); err != nil {
			return err
		}
		w.byte1(0x06, "value.Party Type Tag")
		w.str(string(v))
	case value.Text:
		w.byte1(0x07, "value.Text Type Tag")
		w.str(string(v))
	case value.ContractID:
		w.byte1(0x08, "ContractId Type Tag")
		return w.cid(string(v))
	case value.Optional:
		w.byte1(0x09, "value.Optional Type Tag")
		if v.Value == nil {
			w.none()
			return nil
		}
		w.some()
		return w.value(v.Value)
	case value.List:
		w.byte1(0x0a, "value.List Type Tag")
		w.int32(int32(len(v)))
		for _, x := range v {
			if err := w.value(x); err != nil {
				return err
			}
		}
	case value.TextMap:
		entries := slices.Clone(v)
		slices.SortStableFunc(entries, func(a, b value.TextMapEntry) int { return strings.Compare(a.Key, b.Key) })
		for i := 1; i < len(entries); i++ {
			if entries[i].Key == entries[i-1].Key {
				return fmt.Errorf("text map has duplicate key %q", entries[i].Key)
			}
		}
		w.byte1(0x0b, "value.TextMap Type Tag")
		w.int32(int32(len(entries)))
		for _, e := range entries {
			w.str(e.Key)
			if err := w.value(e.Value); err != nil {
				return err
			}
		}
	case value.Record:
		w.byte1(0x0c, "value.Record Type Tag")
		w.optTypeConID(v.RecordID)
		w.int32(int32(len(v.Fields)))
		for _, f := range v.Fields {
			if f.Label == "" {
				w.none()
			} else {
				w.some()
				w.str(f.Label)
			}
			if err := w.value(f.Value); err != nil {
				return err
			}
		}
	case value.Variant:
		w.byte1(0x0d, "value.Variant Type Tag")
		w.optTypeConID(v.VariantID)
		w.str(v.Constructor)
		return w.value(v.Value)
	case value.Enum:
		w.byte1(0x0e, "value.Enum Type Tag")
		w.optTypeConID(v.EnumID)
		w.str(v.Constructor)
	case value.GenMap:
		w.byte1(0x0f, "value.GenMap Type Tag")
		w.int32(int32(len(v)))
		for _, e := range v {
			if err := w.value(e.Key); err != nil {
				return err
			}
			if err := w.value(e.Value); err != nil {
				return err
			}
		}
	case nil:
		return fmt.Errorf("a required value is missing")
	default:
		return fmt.Errorf("unsupported value type %T", v)
	}
	return nil
}

// KWM(k) = str(pkg) ‖ Identifier(template) ‖ Value(key) ‖ hash (32 raw
// bytes) ‖ parties(maintainers).
func (w *builder) key(k KeyWithMaintainers) error {
	w.ctx("Key")
	w.str(k.Key.PackageName)
	w.identifier(k.Key.TemplateID)
	if err := w.value(k.Key.Key); err != nil {
		return err
	}
	if len(k.Key.Hash) != 32 {
		return fmt.Errorf("global key hash must be 32 bytes, got %d", len(k.Key.Hash))
	}
	w.raw(k.Key.Hash, "Global Key Hash")
	w.ctx("Key Maintainers")
	return w.partySet("key maintainers", k.Maintainers)
}

func (w *builder) optKey(k *KeyWithMaintainers) error {
	if k == nil {
		w.none()
		return nil
	}
	w.some()
	return w.key(*k)
}

// parseNodeID checks a node id is a canonical non-negative decimal int32.
func parseNodeID(id string) (int32, error) {
	n, err := strconv.ParseInt(id, 10, 32)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != id {
		return 0, fmt.Errorf("invalid node id %q: must be a non-negative decimal integer", id)
	}
	return int32(n), nil
}

// checkLF checks that the scheme can hash a node of LF version v (V2:
// "2.1"; V3: "2.1" and "2"), and that keys come with LF "2" only.
func (h *hasher) checkLF(v string, hasKey bool) error {
	switch {
	case v == "2.1":
		if hasKey {
			if h.v == HashingSchemeVersionV2 {
				return fmt.Errorf("contract keys cannot be hashed with %v: does the transaction use contract keys? Use %v", h.v, HashingSchemeVersionV3)
			}
			return fmt.Errorf("contract keys are not supported in nodes with LF serialization version %s", v)
		}
		return nil
	case v == "2" && h.v == HashingSchemeVersionV3:
		return nil
	}
	return fmt.Errorf("cannot hash node with LF serialization version %q using hashing scheme %v", v, h.v)
}

// nodeHash returns sha256(encode_node(id)) for a node of the transaction.
func (h *hasher) nodeHash(id string, tr *tracer) ([]byte, error) {
	n, ok := h.nodes[id]
	if !ok {
		return nil, fmt.Errorf("the transaction does not contain a node with nodeId %s", id)
	}
	if h.visited[id] {
		return nil, fmt.Errorf("node %s is referenced more than once (or the node graph has a cycle)", id)
	}
	h.visited[id] = true
	w := newBuilder(tr)
	if err := h.encodeNode(w, n, true); err != nil {
		return nil, err
	}
	return w.sum(), nil
}

// encodeNode writes the node encoding (Canton's NodeHashBuilder). inTx is
// false for input contracts (no seed, none required).
func (h *hasher) encodeNode(w *builder, n *Node, inTx bool) error {
	if n.Kind() == "" {
		return fmt.Errorf("node %q must have exactly one node type", n.NodeID)
	}
	if h.v == HashingSchemeVersionV2 {
		w.byte1(0x01, "01 (Node Encoding Version)")
	}
	seed, hasSeed := h.seeds[n.NodeID]
	if !inTx {
		hasSeed = false
	}
	switch {
	case n.Create != nil:
		if inTx && !hasSeed {
			return fmt.Errorf("missing node seed for create node %s", n.NodeID)
		}
		return h.encodeCreate(w, n.Create, seed, hasSeed)
	case n.Exercise != nil:
		x := n.Exercise
		if err := h.checkLF(x.LFVersion, x.Key != nil || x.ByKey); err != nil {
			return fmt.Errorf("exercise node %s: %w", n.NodeID, err)
		}
		if !hasSeed {
			return fmt.Errorf("missing node seed for exercise node %s", n.NodeID)
		}
		w.ctx("Exercise Node")
		w.str(x.LFVersion)
		w.byte1(0x01, "Exercise Node Tag")
		w.raw(seed, "seed")
		if err := w.cid(x.ContractID); err != nil {
			return err
		}
		w.str(x.PackageName)
		w.identifier(x.TemplateID)
		if err := h.sets(w, n.NodeID, []string{"Signatories", "Stakeholders", "Acting Parties"}, x.Signatories, x.Stakeholders, x.ActingParties); err != nil {
			return err
		}
		w.ctx("Interface Id")
		w.optIdentifier(x.InterfaceID)
		w.ctx("Choice Id")
		w.str(x.ChoiceID)
		w.ctx("Chosen Value")
		if err := w.value(x.ChosenValue); err != nil {
			return fmt.Errorf("exercise node %s: chosen value: %w", n.NodeID, err)
		}
		w.ctx("Consuming")
		w.boolean(x.Consuming)
		w.ctx("Exercise Result")
		if x.ExerciseResult == nil {
			w.none()
		} else {
			w.some()
			if err := w.value(x.ExerciseResult); err != nil {
				return fmt.Errorf("exercise node %s: exercise result: %w", n.NodeID, err)
			}
		}
		if err := h.sets(w, n.NodeID, []string{"Choice Observers"}, x.ChoiceObservers); err != nil {
			return err
		}
		if h.v == HashingSchemeVersionV3 {
			w.ctx("By Key")
			w.boolean(x.ByKey)
			if err := w.optKey(x.Key); err != nil {
				return err
			}
		}
		return h.children(w, x.Children)
	case n.Fetch != nil:
		x := n.Fetch
		if err := h.checkLF(x.LFVersion, x.Key != nil || x.ByKey); err != nil {
			return fmt.Errorf("fetch node %s: %w", n.NodeID, err)
		}
		w.ctx("Fetch Node")
		w.str(x.LFVersion)
		w.byte1(0x02, "Fetch Node Tag")
		if err := w.cid(x.ContractID); err != nil {
			return err
		}
		w.str(x.PackageName)
		w.identifier(x.TemplateID)
		if err := h.sets(w, n.NodeID, []string{"Signatories", "Stakeholders"}, x.Signatories, x.Stakeholders); err != nil {
			return err
		}
		w.ctx("Interface Id")
		w.optIdentifier(x.InterfaceID)
		if err := h.sets(w, n.NodeID, []string{"Acting Parties"}, x.ActingParties); err != nil {
			return err
		}
		if h.v == HashingSchemeVersionV3 {
			w.ctx("By Key")
			w.boolean(x.ByKey)
			return w.optKey(x.Key)
		}
		return nil
	case n.Rollback != nil:
		w.ctx("Rollback Node")
		w.byte1(0x03, "Rollback Node Tag")
		return h.children(w, n.Rollback.Children)
	default: // QueryByKey
		q := n.QueryByKey
		if h.v == HashingSchemeVersionV2 {
			return fmt.Errorf("query-by-key node %s cannot be hashed with %v", n.NodeID, h.v)
		}
		if err := h.checkLF(q.LFVersion, true); err != nil {
			return fmt.Errorf("query-by-key node %s: %w", n.NodeID, err)
		}
		w.ctx("QueryByKey Node")
		w.str(q.LFVersion)
		w.byte1(0x04, "QueryByKey Node Tag")
		w.str(q.PackageName)
		w.identifier(q.TemplateID)
		w.boolean(q.Exhaustive)
		if err := w.key(q.Key); err != nil {
			return err
		}
		w.ctx("Result")
		w.int32(int32(len(q.Result)))
		for _, c := range q.Result {
			if err := w.cid(c); err != nil {
				return err
			}
		}
		return nil
	}
}

func (h *hasher) encodeCreate(w *builder, c *Create, seed []byte, hasSeed bool) error {
	if err := h.checkLF(c.LFVersion, c.Key != nil); err != nil {
		return fmt.Errorf("create node %s: %w", c.ContractID, err)
	}
	w.ctx("Create Node")
	w.str(c.LFVersion)
	w.byte1(0x00, "Create Node Tag")
	w.ctx("Node Seed")
	if hasSeed {
		w.some()
		w.raw(seed, "node seed")
	} else {
		w.none()
	}
	w.ctx("Contract Id")
	if err := w.cid(c.ContractID); err != nil {
		return err
	}
	w.ctx("Package Name")
	w.str(c.PackageName)
	w.ctx("Template Id")
	w.identifier(c.TemplateID)
	w.ctx("Arg")
	if err := w.value(c.Argument); err != nil {
		return fmt.Errorf("create node %s: argument: %w", c.ContractID, err)
	}
	if err := h.sets(w, c.ContractID, []string{"Signatories", "Stakeholders"}, c.Signatories, c.Stakeholders); err != nil {
		return err
	}
	if h.v == HashingSchemeVersionV3 {
		return w.optKey(c.Key)
	}
	return nil
}

func (h *hasher) sets(w *builder, node string, names []string, sets ...[]string) error {
	for i, s := range sets {
		w.ctx(names[i])
		if err := w.partySet(names[i], s); err != nil {
			return fmt.Errorf("node %s: %w", node, err)
		}
	}
	return nil
}

func (h *hasher) children(w *builder, ids []string) error {
	w.ctx("Children")
	w.int32(int32(len(ids)))
	for _, id := range ids {
		d, err := h.nodeHash(id, w.tr.sub())
		if err != nil {
			return err
		}
		w.raw(d, "(Hashed Inner Node)")
	}
	return nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func (h *hasher) metadataHash(m *Metadata, tr *tracer) ([]byte, error) {
	if !uuidPattern.MatchString(m.TransactionUUID) {
		return nil, fmt.Errorf("transaction uuid %q is not a canonical UUID", m.TransactionUUID)
	}
	if m.MediatorGroup > math.MaxInt32 {
		return nil, fmt.Errorf("mediator group %d is out of range", m.MediatorGroup)
	}
	w := newBuilder(tr)
	w.purpose()
	if h.v == HashingSchemeVersionV2 {
		w.byte1(0x01, "01 (Metadata Encoding Version)")
	}
	w.ctx("Act As Parties")
	if err := w.partySet("act_as", m.SubmitterInfo.ActAs); err != nil {
		return nil, err
	}
	w.ctx("Command Id")
	w.str(m.SubmitterInfo.CommandID)
	w.ctx("Transaction UUID")
	w.str(strings.ToLower(m.TransactionUUID))
	w.ctx("Mediator Group")
	w.int32(int32(m.MediatorGroup))
	w.ctx("Synchronizer Id")
	w.str(m.SynchronizerID)
	w.ctx("Min Time Boundary")
	w.optInt64(m.MinLedgerEffectiveTime)
	w.ctx("Max Time Boundary")
	w.optInt64(m.MaxLedgerEffectiveTime)
	w.ctx("Preparation Time")
	w.int64(int64(m.PreparationTime))

	// Input contracts: sorted by contract id, identical duplicates merged.
	type entry struct {
		cid       string
		createdAt uint64
		hash      []byte
	}
	entries := make([]entry, 0, len(m.InputContracts))
	for i := range m.InputContracts {
		ic := &m.InputContracts[i]
		nw := newBuilder(tr.sub())
		if h.v == HashingSchemeVersionV2 {
			nw.byte1(0x01, "01 (Node Encoding Version)")
		}
		if err := h.encodeCreate(nw, &ic.Contract, nil, false); err != nil {
			return nil, fmt.Errorf("input contract %s: %w", ic.Contract.ContractID, err)
		}
		entries = append(entries, entry{ic.Contract.ContractID, ic.CreatedAt, nw.sum()})
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.cid, b.cid) })
	uniq := entries[:0]
	for _, e := range entries {
		if n := len(uniq); n > 0 && uniq[n-1].cid == e.cid {
			if uniq[n-1].createdAt != e.createdAt || !bytes.Equal(uniq[n-1].hash, e.hash) {
				return nil, fmt.Errorf("input contract %s is given twice with different content", e.cid)
			}
			continue
		}
		uniq = append(uniq, e)
	}
	w.ctx("Disclosed Contracts")
	w.int32(int32(len(uniq)))
	for _, e := range uniq {
		w.ctx("Created At")
		w.int64(int64(e.createdAt))
		w.raw(e.hash, "Disclosed Contract")
	}
	if h.v == HashingSchemeVersionV3 {
		w.ctx("Max Record Time")
		w.optInt64(m.MaxRecordTime)
	}
	return w.sum(), nil
}
