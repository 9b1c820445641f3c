package ledger

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// Hand-written encoders of the records the submission path stores: log
// entries in the JSON form (now written only for entries with topology
// events: the others are stored in binlog.go's binary form), their
// nodes, contract and deduplication records. They write exactly the
// bytes json.Marshal writes for the same values — HTML-safe string
// escapes, RawMessage fields compacted and HTML-escaped, the omitempty
// rules of the struct tags, fields in declaration order — without
// encoding/json's reflection. encode_test.go pins them to json.Marshal.
// Decoding stays encoding/json.
//
// A json.RawMessage field must hold valid JSON, as everything the node
// stores does (values are rendered by value.AppendJSONAs or read back
// from stored JSON): unlike json.Marshal, the encoders do not validate
// it. A nil one is written as null, as json.Marshal does.

// appendJSONString appends s as a JSON string, escaped as json.Marshal
// escapes it (HTML-safe: <, > and & as \u003c, \u003e, \u0026; U+2028
// and U+2029 escaped; invalid UTF-8 replaced by \ufffd).
func appendJSONString(dst []byte, s string) []byte { return jsontext.AppendString(dst, s, true) }

// appendJSONStrings appends a list of strings as a JSON array (null for
// a nil list).
func appendJSONStrings(dst []byte, l []string) []byte {
	if l == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range l {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// appendRawJSON appends a json.RawMessage as json.Marshal writes it:
// null when nil, else compacted with <, >, &, U+2028 and U+2029 escaped.
// Raw JSON that needs neither (the node's own renderings) is copied as it
// is.
func appendRawJSON(dst []byte, raw []byte) []byte {
	if raw == nil {
		return append(dst, "null"...)
	}
	if !rawNeedsRewrite(raw) {
		return append(dst, raw...)
	}
	var c bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		panic("ledger: encoding invalid raw JSON: " + err.Error())
	}
	var h bytes.Buffer
	json.HTMLEscape(&h, c.Bytes())
	return append(dst, h.Bytes()...)
}

// rawNeedsRewrite reports whether raw JSON holds a byte json.Marshal
// would not copy as it is: whitespace outside strings (compacted away),
// tabs and line breaks anywhere (outside strings, compacted; inside, the
// JSON is invalid and json.Compact says so), <, >, & and U+2028/U+2029
// (escaped). Spaces inside strings stay.
func rawNeedsRewrite(raw []byte) bool {
	// Most values hold none of the bytes that can need a rewrite: looking
	// for each (bytes.IndexByte, vectorized) costs a fraction of the walk
	// below, which only they can make answer true.
	special := false
	for _, c := range rawSpecial {
		if bytes.IndexByte(raw, c) >= 0 {
			special = true
			break
		}
	}
	if !special {
		return len(raw) == 0
	}
	inString := false
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '<', '>', '&', '\t', '\n', '\r':
			return true
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9) {
				return true
			}
		case '"':
			inString = !inString
		case '\\':
			if inString {
				i++ // the escaped byte
			}
		case ' ':
			if !inString {
				return true
			}
		}
	}
	return len(raw) == 0
}

// rawSpecial are the bytes on which rawNeedsRewrite can answer true.
var rawSpecial = []byte{' ', '<', '>', '&', '\t', '\n', '\r', 0xE2}

// jsonObject appends the members of a JSON object.
type jsonObject struct {
	b     []byte
	first bool
	// With noteRefs, refs[:nrefs] note where the raw members written as
	// they are (rawRef) lie in b; the others are copied (encodeNodes). An
	// array, not a slice: a node has three raw members, and a slice
	// appended to through the object would take the heap.
	noteRefs bool
	refs     [3]rawRef
	nrefs    int
	// copied counts the raw members noted as not written as they are.
	copied int
	// own says the nodes written are committable's
	// (encodeNodesWith with own): their strings known to need no escaping are
	// written without a look, the others looked at once (ownStr): notPlain
	// is set when one of them is not jsontext.HTMLPlain, and plains (not
	// nil with own) keeps the last party strings found plain.
	own      bool
	notPlain bool
	plains   *plainParties
}

// plainParties are the last party strings ownStrsOmit found
// jsontext.HTMLPlain, which it then writes without a look: the nodes
// repeat them (signatories among stakeholders and witnesses), and so do
// the next submissions of a package view (valueRenderer.plains).
type plainParties struct {
	p    [4]string
	next uint8
}

// has reports whether s is one of k's parties.
func (k *plainParties) has(s string) bool {
	for _, p := range k.p {
		if p == s {
			return true
		}
	}
	return false
}

// add keeps s, found plain, in place of the oldest party.
func (k *plainParties) add(s string) {
	k.p[k.next%uint8(len(k.p))] = s
	k.next++
}

// rawRef is a raw JSON member v written as it is at b[start:end].
type rawRef struct {
	v          *json.RawMessage
	start, end int
}

func newJSONObject(dst []byte) jsonObject {
	return jsonObject{b: append(dst, '{'), first: true}
}

// key appends a member's name (a plain ASCII tag: no escaping needed).
func (o *jsonObject) key(k string) {
	if o.first {
		o.first = false
		o.b = append(o.b, '"')
	} else {
		o.b = append(o.b, ',', '"')
	}
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *jsonObject) str(k, v string) {
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// plainStr is str for a string known to need no escaping in JSON
// (jsontext.AppendString would write it as it is): the node's own ids and
// times (encodeNodesWith with own, dedupRecord.appendTo).
func (o *jsonObject) plainStr(k, v string) {
	o.key(k)
	o.b = appendQuoted(o.b, v)
}

// ownStr is str for a string of one of committable's nodes: written as
// it is when jsontext.HTMLPlain (as str would write it), else as str
// writes it, noted in notPlain.
func (o *jsonObject) ownStr(k, v string) {
	o.key(k)
	o.b, _ = o.appendOwn(o.b, v)
}

// appendOwn appends v as appendJSONString does, for ownStr and
// ownStrsOmit; plain says v is jsontext.HTMLPlain (else it notes
// notPlain).
func (o *jsonObject) appendOwn(dst []byte, v string) (_ []byte, plain bool) {
	if !jsontext.HTMLPlain(v) {
		o.notPlain = true
		return appendJSONString(dst, v), false
	}
	return appendQuoted(dst, v), true
}

// appendQuoted appends v, which needs no escaping, in quotes.
func appendQuoted(dst []byte, v string) []byte {
	dst = append(dst, '"')
	dst = append(dst, v...)
	return append(dst, '"')
}

// ownStrsOmit is strsOmit for the parties of one of committable's
// nodes: ownStr's for each, but a party found plain before (o.plains) is
// written without a look.
func (o *jsonObject) ownStrsOmit(k string, v []string) {
	if len(v) == 0 {
		return
	}
	o.key(k)
	o.b = append(o.b, '[')
	for i, s := range v {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		if o.plains.has(s) {
			o.b = appendQuoted(o.b, s)
			continue
		}
		var plain bool
		if o.b, plain = o.appendOwn(o.b, s); plain {
			o.plains.add(s)
		}
	}
	o.b = append(o.b, ']')
}

// strOmit is a string member with omitempty.
func (o *jsonObject) strOmit(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

func (o *jsonObject) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

// intOmit is an integer member with omitempty.
func (o *jsonObject) intOmit(k string, v int64) {
	if v != 0 {
		o.int(k, v)
	}
}

// trueOmit is a bool member with omitempty.
func (o *jsonObject) trueOmit(k string, v bool) {
	if v {
		o.key(k)
		o.b = append(o.b, "true"...)
	}
}

// strsOmit is a []string member with omitempty.
func (o *jsonObject) strsOmit(k string, v []string) {
	if len(v) > 0 {
		o.key(k)
		o.b = appendJSONStrings(o.b, v)
	}
}

// rawRef appends a json.RawMessage member *v (as json.Marshal writes
// it); with o.noteRefs, *v is noted in o.refs when written as it is, else
// replaced by a copy of its own.
func (o *jsonObject) rawRef(k string, v *json.RawMessage) {
	o.key(k)
	start := len(o.b)
	o.b = appendRawJSON(o.b, *v)
	switch {
	case !o.noteRefs:
	case *v == nil:
		o.copied++ // written as null
	case bytes.Equal(o.b[start:], *v):
		o.refs[o.nrefs] = rawRef{v: v, start: start, end: len(o.b)}
		o.nrefs++
	default:
		*v = bytes.Clone(*v)
		o.copied++
	}
}

// rawRefOmit is rawRef with omitempty.
func (o *jsonObject) rawRefOmit(k string, v *json.RawMessage) {
	if len(*v) > 0 {
		o.rawRef(k, v)
	}
}

// spliced appends a member whose value is JSON encoded ahead, as it is
// (not compacted nor validated again, as spliceJSON does).
func (o *jsonObject) spliced(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *jsonObject) end() []byte { return append(o.b, '}') }

// appendTxNode appends a node as json.Marshal encodes a txNode.
func appendTxNode(dst []byte, n *txNode) []byte {
	o := newJSONObject(dst)
	o.txNode(n)
	return o.end()
}

// appendTxNodeRefs is appendTxNode noting the raw members it writes as
// they are, appended to refs, and copying the others (jsonObject's
// rawRef); asIs says it wrote every one as it is.
// With own, n is one of committable's nodes (encodeNodesWith), and
// plain says its strings are jsontext.HTMLPlain (CreatedAt and an
// exercise's ContractID aside); plains are the parties known plain, which
// it keeps those it finds plain in.
func appendTxNodeRefs(dst []byte, n *txNode, refs []rawRef, own bool, plains *plainParties) (out []byte, _ []rawRef, asIs, plain bool) {
	o := newJSONObject(dst)
	o.noteRefs, o.own, o.plains = true, own, plains
	o.txNode(n)
	return o.end(), append(refs, o.refs[:o.nrefs]...), o.copied == 0, own && !o.notPlain
}

// txNode appends the members of a node. For one of committable's nodes
// (o.own) its strings are written by ownStr and ownStrsOmit (the same
// bytes, and CreatedAt, formatTime's, without a look); the members are
// listed once for both.
func (o *jsonObject) txNode(n *txNode) {
	o.int("id", int64(n.ID))
	o.trueOmit("x", n.Exercise)
	if o.own && !n.Exercise {
		o.plainStr("cid", n.ContractID)
	} else {
		o.str("cid", n.ContractID)
	}
	if o.own && n.plainIDs {
		o.plainStr("tid", n.TemplateID)
		o.plainStr("pn", n.PackageName)
	} else {
		o.nodeStr("tid", n.TemplateID)
		o.nodeStr("pn", n.PackageName)
	}
	o.rawRef("arg", &n.Argument)
	o.nodeStrsOmit("sig", n.Signatories)
	o.nodeStrsOmit("obs", n.Observers)
	if o.own && n.CreatedAt != "" {
		o.plainStr("at", n.CreatedAt)
	} else {
		o.strOmit("at", n.CreatedAt)
	}
	o.nodeStrsOmit("stk", n.Stakeholders)
	o.nodeStrOmit("ch", n.Choice)
	o.trueOmit("cons", n.Consuming)
	o.nodeStrsOmit("act", n.Acting)
	o.trueOmit("tr", n.Transient)
	o.nodeStrsOmit("w", n.Witnesses)
	o.intOmit("ld", int64(n.LastDescendant))
	o.rawRefOmit("key", &n.Key)
	o.nodeStrsOmit("km", n.Maintainers)
	o.rawRefOmit("res", &n.Result)
	o.nodeStrsOmit("cobs", n.ChoiceObservers)
	o.nodeStrOmit("iid", n.InterfaceID)
	o.trueOmit("arc", n.Archives)
	o.trueOmit("eng", n.Engine)
}

// nodeStr is a node's string member: ownStr for one of committable's
// nodes, else str.
func (o *jsonObject) nodeStr(k, v string) {
	if o.own {
		o.ownStr(k, v)
	} else {
		o.str(k, v)
	}
}

// nodeStrOmit is nodeStr with omitempty.
func (o *jsonObject) nodeStrOmit(k, v string) {
	if v != "" {
		o.nodeStr(k, v)
	}
}

// nodeStrsOmit is a node's list of strings with omitempty: ownStrsOmit
// for one of committable's nodes, else strsOmit.
func (o *jsonObject) nodeStrsOmit(k string, v []string) {
	if o.own {
		o.ownStrsOmit(k, v)
	} else {
		o.strsOmit(k, v)
	}
}

// encodeTxNode is json.Marshal(n), hand-written.
func encodeTxNode(n *txNode) []byte {
	return appendTxNode(make([]byte, 0, txNodeSize(n)), n)
}

// txNodeSize estimates the encoded size of a node (to size its buffer
// once in the common case).
func txNodeSize(n *txNode) int {
	size := 160 + len(n.ContractID) + len(n.TemplateID) + len(n.PackageName) + len(n.Argument) +
		len(n.CreatedAt) + len(n.Choice) + len(n.Key) + len(n.Result) + len(n.InterfaceID)
	// The lists one by one: a slice of them would be built at each call.
	return size + strsSize(n.Signatories) + strsSize(n.Observers) + strsSize(n.Stakeholders) + strsSize(n.Acting) +
		strsSize(n.Witnesses) + strsSize(n.Maintainers) + strsSize(n.ChoiceObservers)
}

// strsSize is txNodeSize's room for a list of strings: each with its
// quotes and comma.
func strsSize(l []string) int {
	size := 0
	for _, s := range l {
		size += len(s) + 3
	}
	return size
}

// appendReassignNode appends a reassignment event as json.Marshal
// encodes a reassignNode.
func appendReassignNode(dst []byte, r *reassignNode) []byte {
	o := newJSONObject(dst)
	o.trueOmit("un", r.Unassign)
	o.str("rid", r.ReassignmentID)
	o.str("src", r.Source)
	o.str("dst", r.Target)
	o.str("by", r.Submitter)
	o.int("cnt", r.Counter)
	o.key("contract")
	o.b = appendTxNode(o.b, &r.Contract)
	return o.end()
}

// encodeJSON returns the JSON form of an entry, json.Marshal's encoding
// of it; when its nodes were encoded ahead (nodesAhead) they are the last
// member, as the submission path stored them. The stored form is
// encode's (binlog.go): this one for entries with topology events, and
// entries written before the binary form.
func (e *logEntry) encodeJSON() []byte {
	size := 192 + len(e.UpdateID) + len(e.CommandID) + len(e.WorkflowID) + len(e.SynchronizerID) +
		len(e.UserID) + len(e.SubmissionID)
	for _, p := range e.ActAs {
		size += len(p) + 3
	}
	for i := range e.Nodes {
		size += txNodeSize(&e.Nodes[i])
	}
	o := newJSONObject(make([]byte, 0, size))
	o.str("k", e.Kind)
	o.int("o", e.Offset)
	o.str("u", e.UpdateID)
	o.strOmit("c", e.CommandID)
	o.strOmit("w", e.WorkflowID)
	o.strOmit("e", e.EffectiveAt)
	o.str("r", e.RecordTime)
	o.str("s", e.SynchronizerID)
	if len(e.Nodes) > 0 && !e.nodesAhead {
		o.nodes(e.Nodes)
	}
	if e.Reassign != nil {
		o.key("a")
		o.b = appendReassignNode(o.b, e.Reassign)
	}
	if len(e.Topology) > 0 {
		// Rare (party allocations): encoding/json's own encoding.
		o.key("t")
		o.b = append(o.b, mustJSON(e.Topology)...)
	}
	o.strOmit("user", e.UserID)
	o.strsOmit("actAs", e.ActAs)
	o.strOmit("sub", e.SubmissionID)
	if e.nodesAhead {
		o.nodes(e.Nodes)
	}
	return o.end()
}

// nodes appends an entry's nodes, the member "n".
func (o *jsonObject) nodes(nodes []txNode) {
	o.key("n")
	o.b = append(o.b, '[')
	for i := range nodes {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = appendTxNode(o.b, &nodes[i])
	}
	o.b = append(o.b, ']')
}

// appendContractRecordFields appends the members of a contract record
// after its create node.
func (o *jsonObject) contractRecordFields(rec *contractRecord) {
	o.str("sync", rec.SynchronizerID)
	o.str("state", rec.State)
	o.int("counter", rec.Counter)
	o.strOmit("rid", rec.ReassignmentID)
	o.int("co", rec.CreatedOffset)
	o.intOmit("ao", rec.ArchivedOffset)
	o.strOmit("wf", rec.WorkflowID)
	o.strOmit("dst", rec.Target)
	o.intOmit("uo", rec.UnassignedOffset)
	o.strOmit("ub", rec.UnassignedBy)
}

// contractRecordSize estimates the encoded size of a contract record
// without its create node.
func contractRecordSize(rec *contractRecord) int {
	return 128 + len(rec.SynchronizerID) + len(rec.State) + len(rec.ReassignmentID) + len(rec.WorkflowID) + len(rec.Target) + len(rec.UnassignedBy)
}

// encodeContractRecordJSON is json.Marshal(rec), hand-written.
func encodeContractRecordJSON(rec *contractRecord) []byte {
	o := newJSONObject(make([]byte, 0, contractRecordSize(rec)+txNodeSize(&rec.Create)))
	o.key("create")
	o.b = appendTxNode(o.b, &rec.Create)
	o.contractRecordFields(rec)
	return o.end()
}

// encodeContractRecord encodes a contract record whose create node was
// encoded ahead: json.Marshal's encoding of the record without its create
// node, the node spliced in as the last member (as it always was stored).
func encodeContractRecord(rec *contractRecord, create json.RawMessage) []byte {
	return appendContractRecord(make([]byte, 0, contractRecordSize(rec)+len(create)), rec, create)
}

// appendActiveRecord is appendContractRecord of the record the committer
// writes for a contract it creates, active from offset created, without
// building the record: contractRecord{SynchronizerID: sync, State:
// contractActive, CreatedOffset: created, WorkflowID: workflowID};
// syncPlain says sync is jsontext.HTMLPlain (logEntry.syncPlain).
func appendActiveRecord(dst []byte, sync string, syncPlain bool, created int64, workflowID string, create json.RawMessage) []byte {
	o := newJSONObject(dst)
	if syncPlain {
		o.plainStr("sync", sync)
	} else {
		o.str("sync", sync)
	}
	o.plainStr("state", contractActive)
	o.int("counter", 0)
	o.int("co", created)
	o.strOmit("wf", workflowID)
	o.spliced("create", create)
	return o.end()
}

// activeRecordSize is contractRecordSize of appendActiveRecord's record.
func activeRecordSize(sync, workflowID string) int {
	return 128 + len(sync) + len(contractActive) + len(workflowID)
}

// appendContractRecord appends encodeContractRecord's encoding to dst.
func appendContractRecord(dst []byte, rec *contractRecord, create json.RawMessage) []byte {
	o := newJSONObject(dst)
	o.contractRecordFields(rec)
	o.spliced("create", create)
	return o.end()
}

// encode is json.Marshal(d), hand-written.
func (d *dedupRecord) encode() []byte { return d.appendTo(make([]byte, 0, d.size()), false) }

// size estimates the size of d's encoding.
func (d *dedupRecord) size() int { return 32 + len(d.UpdateID) + len(d.At) }

// appendTo appends d's encoding (encode's) to dst. own tells that d is
// the committer's record, whose UpdateID (txUpdateID's, "1220" and hex)
// and At (formatTime's) need no escaping: they are written without a
// look.
func (d *dedupRecord) appendTo(dst []byte, own bool) []byte {
	o := newJSONObject(dst)
	o.int("o", d.Offset)
	if own {
		o.plainStr("u", d.UpdateID)
		o.plainStr("at", d.At)
	} else {
		o.str("u", d.UpdateID)
		o.str("at", d.At)
	}
	return o.end()
}
