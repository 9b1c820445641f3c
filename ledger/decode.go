package ledger

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// Hand-written decoders of the records every read loads (log entries and
// contract records), the inverse of encode.go. New log entries are stored
// in the binary form of binlog.go; these read the JSON ones, those
// written before and those of topology events. Reads decode a log entry
// per update they visit, and encoding/json's reflection and its full
// validation pass were most of the cost of a page or a stream (a profile
// of GetUpdates over gRPC: 63 % of the server's time).
//
// The fast path reads only the canonical form encode.go writes: no
// whitespace between tokens, each known member at most once, strings
// without escapes in valid UTF-8, integers without fraction or
// exponent. Anything else — a record written by an older encoder, an
// escaped string, a topology event, damaged bytes — is decoded by
// json.Unmarshal, so the result is always json.Unmarshal's (but for a
// value in the binary form, whose first byte JSON refuses): the same
// value, or an error where it gives one (FuzzDecodeMatchesJSON checks
// this on arbitrary input; FuzzDecodeBinaryLogEntry fuzzes the binary
// form's decoder). Raw members (arguments, keys, results) are validated as
// encoding/json validates them and copied.

// decodeLogEntry decodes a stored log entry, in the binary form
// (binlog.go) or the JSON one, which the node wrote before.
func decodeLogEntry(b []byte, e *logEntry) error {
	return decodeLogEntryWith(b, e, nil)
}

// decodeLogEntryWith is decodeLogEntry sharing the strings that repeat
// between entries (parties, template ids, package names, synchronizer
// ids) through names, the table of one scan (nil: none).
func decodeLogEntryWith(b []byte, e *logEntry, names *internTable) error {
	return decodeLogEntryLent(b, e, names, nil)
}

// decodeLogEntryLent is decodeLogEntryWith lending the entry, when lent
// is set and the entry is in the binary form (decodeBinaryLogEntry); an
// entry in the JSON form has memory of its own.
func decodeLogEntryLent(b []byte, e *logEntry, names *internTable, lent *lentEntries) error {
	if len(b) > 0 && b[0] == binlogV1 {
		return decodeBinaryLogEntry(b, e, names, lent) // binlog.go
	}
	d := jsonDecoder{b: b, names: names}
	if d.logEntry(e) && d.i == len(b) {
		return nil
	}
	*e = logEntry{}
	return json.Unmarshal(b, e)
}

// decodeContractRecord decodes a stored contract record.
func decodeContractRecord(b []byte, c *contractRecord) error {
	return decodeContractRecordWith(b, c, nil)
}

// decodeContractRecordWith is decodeContractRecord sharing the record's
// names (template id, package name, parties) through names, when not nil:
// a scan of many contracts repeats the same few.
func decodeContractRecordWith(b []byte, c *contractRecord, names *internTable) error {
	d := jsonDecoder{b: b, names: names}
	if d.contractRecord(c) && d.i == len(b) {
		return nil
	}
	*c = contractRecord{}
	return json.Unmarshal(b, c)
}

// jsonDecoder reads the canonical JSON of encode.go. Each method returns
// false when the input leaves the canonical form (the caller then falls
// back to encoding/json).
type jsonDecoder struct {
	b []byte
	i int
	// names, when set, shares repeated strings (istr, istrs).
	names *internTable
}

// internTable holds one copy of the strings a scan's entries repeat.
type internTable struct {
	m map[string]string
	// recent holds strings of m by a cheap hash of their length and three
	// of their bytes: a scan's entries repeat the same few names (the
	// reading party, a template id, the synchronizer id) entry after
	// entry, which a compare here finds without the map's hashing and
	// probing.
	recent [internRecent]string
}

// internRecent is the size of an intern table's cache of recent names (a
// power of two).
const internRecent = 64

// maxInterned bounds an intern table (a scan of entries whose names do
// not repeat stops sharing when it is full).
const maxInterned = 4096

// istr is str through the intern table.
func (d *jsonDecoder) istr(dst *string) bool {
	if d.names == nil {
		return d.str(dst)
	}
	raw, ok := d.strBytes()
	if !ok {
		return false
	}
	*dst = d.names.intern(raw)
	return true
}

// intern returns the table's copy of raw, adding one while the table
// holds fewer than maxInterned strings.
func (t *internTable) intern(raw []byte) string {
	n := len(raw)
	if n == 0 {
		return ""
	}
	h := ((uint(n)*31+uint(raw[0]))*31+uint(raw[n/2]))*31 + uint(raw[n-1])
	slot := &t.recent[h%internRecent]
	if *slot == string(raw) {
		return *slot
	}
	if v, ok := t.m[string(raw)]; ok {
		*slot = v
		return v
	}
	s := string(raw)
	if t.m == nil {
		t.m = map[string]string{}
	}
	if len(t.m) < maxInterned {
		t.m[s] = s
		*slot = s
	}
	return s
}

// istrs is strs through the intern table.
func (d *jsonDecoder) istrs(dst *[]string) bool {
	if d.names == nil {
		return d.strs(dst)
	}
	if !d.byte('[') {
		return false
	}
	var out []string
	for {
		var s string
		if !d.istr(&s) {
			return false
		}
		out = append(out, s)
		if d.byte(']') {
			*dst = out
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// members calls member for each member of an object, with the member's
// name; member reads the value and returns false to give up.
func (d *jsonDecoder) members(member func(name []byte) bool) bool {
	if !d.byte('{') {
		return false
	}
	if d.byte('}') {
		return true
	}
	for {
		name, ok := d.name()
		if !ok || !d.byte(':') || !member(name) {
			return false
		}
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// name reads a member name (encode.go writes short ASCII tags). The
// callers switch on string(name), which the compiler does without
// allocating.
func (d *jsonDecoder) name() ([]byte, bool) {
	if !d.byte('"') {
		return nil, false
	}
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return d.b[start : d.i-1], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// byte consumes c when it is the next byte.
func (d *jsonDecoder) byte(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// str reads a string without escapes, in valid UTF-8.
func (d *jsonDecoder) str(dst *string) bool {
	if !d.byte('"') {
		return false
	}
	end := bytes.IndexByte(d.b[d.i:], '"')
	if end < 0 {
		return false
	}
	s := d.b[d.i : d.i+end]
	ascii := true
	for _, c := range s[jsontext.PlainPrefix(s):] {
		if c < 0x20 || c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(s) {
		return false // encoding/json replaces invalid UTF-8
	}
	d.i += end + 1
	*dst = string(s)
	return true
}

// strBytes is str without the copy: the bytes of the input.
func (d *jsonDecoder) strBytes() ([]byte, bool) {
	if !d.byte('"') {
		return nil, false
	}
	end := bytes.IndexByte(d.b[d.i:], '"')
	if end < 0 {
		return nil, false
	}
	s := d.b[d.i : d.i+end]
	ascii := true
	for _, c := range s[jsontext.PlainPrefix(s):] {
		if c < 0x20 || c == '\\' {
			return nil, false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(s) {
		return nil, false // encoding/json replaces invalid UTF-8
	}
	d.i += end + 1
	return s, true
}

// strs reads a non-empty array of strings.
func (d *jsonDecoder) strs(dst *[]string) bool {
	if !d.byte('[') {
		return false
	}
	var out []string
	for {
		var s string
		if !d.str(&s) {
			return false
		}
		out = append(out, s)
		if d.byte(']') {
			*dst = out
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// int reads an integer in [lo, hi] without sign on zero, fraction or
// exponent.
func (d *jsonDecoder) int(dst *int64, lo, hi int64) bool {
	neg := d.byte('-')
	start := d.i
	var v int64
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		if d.i-start >= 18 {
			return false // may overflow: encoding/json decides
		}
		v = v*10 + int64(d.b[d.i]-'0')
		d.i++
	}
	n := d.i - start
	switch {
	case n == 0, n > 1 && d.b[start] == '0', neg && v == 0:
		return false
	case d.i < len(d.b) && (d.b[d.i] == '.' || d.b[d.i] == 'e' || d.b[d.i] == 'E'):
		return false
	}
	if neg {
		v = -v
	}
	if v < lo || v > hi {
		return false
	}
	*dst = v
	return true
}

func (d *jsonDecoder) int64(dst *int64) bool {
	return d.int(dst, -1<<63+1, 1<<63-1)
}

func (d *jsonDecoder) int32(dst *int32) bool {
	var v int64
	if !d.int(&v, -1<<31, 1<<31-1) {
		return false
	}
	*dst = int32(v)
	return true
}

// bool reads true or false.
func (d *jsonDecoder) bool(dst *bool) bool {
	switch {
	case d.literal("true"):
		*dst = true
	case d.literal("false"):
		*dst = false
	default:
		return false
	}
	return true
}

// literal consumes a literal (true, false, null).
func (d *jsonDecoder) literal(lit string) bool {
	i, ok := jsontext.LiteralEnd(d.b, d.i, lit)
	if ok {
		d.i = i
	}
	return ok
}

// raw reads any JSON value, validated as encoding/json's scanner
// validates it, and stores a copy of its bytes (null included, as
// json.RawMessage's UnmarshalJSON stores it).
func (d *jsonDecoder) raw(dst *json.RawMessage) bool {
	start := d.i
	if !d.skipValue(0) {
		return false
	}
	*dst = append(json.RawMessage(nil), d.b[start:d.i]...)
	return true
}

// maxRawDepth bounds the nesting the fast path follows (encoding/json
// accepts up to 10 000 levels; deeper values are left to it).
const maxRawDepth = 512

// skipValue consumes one JSON value with its inner whitespace (the value
// starts at d.i: the caller is in the canonical form, without whitespace
// before it).
func (d *jsonDecoder) skipValue(depth int) bool {
	if d.i >= len(d.b) || depth > maxRawDepth {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '{':
		d.i++
		d.ws()
		if d.byte('}') {
			return true
		}
		for {
			if !d.skipString() {
				return false
			}
			d.ws()
			if !d.byte(':') {
				return false
			}
			d.ws()
			if !d.skipValue(depth + 1) {
				return false
			}
			d.ws()
			if d.byte('}') {
				return true
			}
			if !d.byte(',') {
				return false
			}
			d.ws()
		}
	case c == '[':
		d.i++
		d.ws()
		if d.byte(']') {
			return true
		}
		for {
			if !d.skipValue(depth + 1) {
				return false
			}
			d.ws()
			if d.byte(']') {
				return true
			}
			if !d.byte(',') {
				return false
			}
			d.ws()
		}
	case c == '"':
		return d.skipString()
	case c == '-' || c >= '0' && c <= '9':
		return d.skipNumber()
	default:
		return d.literal("true") || d.literal("false") || d.literal("null")
	}
}

// ws skips JSON whitespace (inside raw values only).
func (d *jsonDecoder) ws() { d.i = jsontext.SkipSpace(d.b, d.i) }

// skipString consumes a string with valid escapes (encoding/json's
// scanner accepts any other byte from 0x20 up, invalid UTF-8 included).
func (d *jsonDecoder) skipString() bool {
	if !d.byte('"') {
		return false
	}
	for d.i < len(d.b) {
		if d.i += jsontext.PlainPrefix(d.b[d.i:]); d.i >= len(d.b) {
			break
		}
		c := d.b[d.i]
		d.i++
		switch {
		case c == '"':
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if d.i >= len(d.b) {
				return false
			}
			e := d.b[d.i]
			d.i++
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					if d.i >= len(d.b) || !isHex(d.b[d.i]) {
						return false
					}
					d.i++
				}
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// skipNumber consumes a number of JSON's grammar.
func (d *jsonDecoder) skipNumber() bool {
	i, ok := jsontext.NumberEnd(d.b, d.i)
	if ok {
		d.i = i
	}
	return ok
}

// once marks a member as read and reports whether it was the first time
// (a repeated member goes to encoding/json).
func once(seen *uint32, bit uint) bool {
	if *seen&(1<<bit) != 0 {
		return false
	}
	*seen |= 1 << bit
	return true
}

// logEntry reads a log entry in encode's form (topology events, rare,
// go to encoding/json).
func (d *jsonDecoder) logEntry(e *logEntry) bool {
	var seen uint32
	return d.members(func(name []byte) bool {
		switch string(name) {
		case "k":
			return once(&seen, 0) && d.istr(&e.Kind)
		case "o":
			return once(&seen, 1) && d.int64(&e.Offset)
		case "u":
			return once(&seen, 2) && d.str(&e.UpdateID)
		case "c":
			return once(&seen, 3) && d.str(&e.CommandID)
		case "w":
			return once(&seen, 4) && d.str(&e.WorkflowID)
		case "e":
			return once(&seen, 5) && d.str(&e.EffectiveAt)
		case "r":
			return once(&seen, 6) && d.str(&e.RecordTime)
		case "s":
			return once(&seen, 7) && d.istr(&e.SynchronizerID)
		case "n":
			return once(&seen, 8) && d.nodes(&e.Nodes)
		case "a":
			if !once(&seen, 9) {
				return false
			}
			e.Reassign = new(reassignNode)
			return d.reassignNode(e.Reassign)
		case "user":
			return once(&seen, 10) && d.istr(&e.UserID)
		case "actAs":
			return once(&seen, 11) && d.istrs(&e.ActAs)
		case "sub":
			return once(&seen, 12) && d.str(&e.SubmissionID)
		}
		return false
	})
}

// nodes reads a non-empty array of nodes.
func (d *jsonDecoder) nodes(dst *[]txNode) bool {
	if !d.byte('[') {
		return false
	}
	out := make([]txNode, 0, 2)
	for {
		out = append(out, txNode{})
		if !d.txNode(&out[len(out)-1]) {
			return false
		}
		if d.byte(']') {
			*dst = out
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// txNode reads a node in appendTxNode's form.
func (d *jsonDecoder) txNode(n *txNode) bool {
	var seen uint32
	return d.members(func(name []byte) bool {
		switch string(name) {
		case "id":
			return once(&seen, 0) && d.int32(&n.ID)
		case "x":
			return once(&seen, 1) && d.bool(&n.Exercise)
		case "cid":
			return once(&seen, 2) && d.str(&n.ContractID)
		case "tid":
			return once(&seen, 3) && d.istr(&n.TemplateID)
		case "pn":
			return once(&seen, 4) && d.istr(&n.PackageName)
		case "arg":
			return once(&seen, 5) && d.raw(&n.Argument)
		case "sig":
			return once(&seen, 6) && d.istrs(&n.Signatories)
		case "obs":
			return once(&seen, 7) && d.istrs(&n.Observers)
		case "at":
			return once(&seen, 8) && d.str(&n.CreatedAt)
		case "stk":
			return once(&seen, 9) && d.istrs(&n.Stakeholders)
		case "ch":
			return once(&seen, 10) && d.istr(&n.Choice)
		case "cons":
			return once(&seen, 11) && d.bool(&n.Consuming)
		case "act":
			return once(&seen, 12) && d.istrs(&n.Acting)
		case "tr":
			return once(&seen, 13) && d.bool(&n.Transient)
		case "w":
			return once(&seen, 14) && d.istrs(&n.Witnesses)
		case "ld":
			return once(&seen, 15) && d.int32(&n.LastDescendant)
		case "key":
			return once(&seen, 16) && d.raw(&n.Key)
		case "km":
			return once(&seen, 17) && d.istrs(&n.Maintainers)
		case "res":
			return once(&seen, 18) && d.raw(&n.Result)
		case "cobs":
			return once(&seen, 19) && d.istrs(&n.ChoiceObservers)
		case "iid":
			return once(&seen, 20) && d.istr(&n.InterfaceID)
		case "arc":
			return once(&seen, 21) && d.bool(&n.Archives)
		case "eng":
			return once(&seen, 22) && d.bool(&n.Engine)
		}
		return false
	})
}

// reassignNode reads a reassignment event in appendReassignNode's form.
func (d *jsonDecoder) reassignNode(r *reassignNode) bool {
	var seen uint32
	return d.members(func(name []byte) bool {
		switch string(name) {
		case "un":
			return once(&seen, 0) && d.bool(&r.Unassign)
		case "rid":
			return once(&seen, 1) && d.str(&r.ReassignmentID)
		case "src":
			return once(&seen, 2) && d.istr(&r.Source)
		case "dst":
			return once(&seen, 3) && d.istr(&r.Target)
		case "by":
			return once(&seen, 4) && d.istr(&r.Submitter)
		case "cnt":
			return once(&seen, 5) && d.int64(&r.Counter)
		case "contract":
			return once(&seen, 6) && d.txNode(&r.Contract)
		}
		return false
	})
}

// contractRecord reads a contract record in encodeContractRecord's (or
// encodeContractRecordJSON's) form.
func (d *jsonDecoder) contractRecord(c *contractRecord) bool {
	var seen uint32
	return d.members(func(name []byte) bool {
		switch string(name) {
		case "create":
			return once(&seen, 0) && d.txNode(&c.Create)
		case "sync":
			return once(&seen, 1) && d.str(&c.SynchronizerID)
		case "state":
			return once(&seen, 2) && d.str(&c.State)
		case "counter":
			return once(&seen, 3) && d.int64(&c.Counter)
		case "rid":
			return once(&seen, 4) && d.str(&c.ReassignmentID)
		case "co":
			return once(&seen, 5) && d.int64(&c.CreatedOffset)
		case "ao":
			return once(&seen, 6) && d.int64(&c.ArchivedOffset)
		case "wf":
			return once(&seen, 7) && d.str(&c.WorkflowID)
		case "dst":
			return once(&seen, 8) && d.str(&c.Target)
		case "uo":
			return once(&seen, 9) && d.int64(&c.UnassignedOffset)
		case "ub":
			return once(&seen, 10) && d.str(&c.UnassignedBy)
		}
		return false
	})
}
