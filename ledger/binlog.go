package ledger

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// The binary stored form of log entries. Every update read decodes the
// entries it visits, and reading the canonical JSON of encode.go was
// about a third of a page's CPU (a page of 1000 Ping creates: ~3 ms of
// ~8.6 ms): member names, quotes and escapes to scan. The binary
// form is length-prefixed fields and varints, which a reader copies
// without scanning. Each decoded string and raw JSON member
// (arguments, keys, results) is a copy of its own, or the scan's interned
// name, as the JSON decoder's are, not a slice of one copy of the entry:
// caches keep single strings and arguments of entries, and such a slice
// would keep the whole entry alive (TestBinaryLogEntryRetention). Raw
// members are stored as they are in the JSON form (the reads pass them
// through as stored values).
//
// The raw members and strings are not validated when read: the encoder
// wrote them valid (compacted JSON, valid UTF-8), and a CRC-32C of the
// entry, its last 4 bytes, refuses any change since, checked before
// anything else is decoded (Badger's value checksums are off, and an
// in-memory store has none). Damaged bytes are refused, never a panic.
//
// No migration: a stored JSON entry always starts with '{' (json.Marshal
// and encode.go write no leading whitespace), and binlogV1 can start no
// JSON text (whitespace, '{', '[', '"', '-', a digit, t, f or n), so
// decodeLogEntryWith tells the forms apart by the first byte. Entries
// written before stay JSON and are read by the JSON decoder, in a store
// or in a snapshot written before (snapshots restore values as they are;
// TestJSONEntriesWrittenBefore). Entries with topology events (party
// allocations, rare) are still written as JSON. (The other way does not
// hold: a node built before this form cannot read a store written since.)
//
// The form of a value (v for a varint, zigzag-encoded when signed; s for a
// string: its length as a varint, then its bytes):
//
//	binlogV1 v(len(raws)) v(number of strings in lists) raws head crc
//
// crc is the CRC-32C (Castagnoli) of all the bytes before it, little
// endian.
// raws are the raw JSON members, one after the other, in the order head
// names their lengths; head is the entry:
//
//	kind: a byte, kindCodes' index (0: s(kind) follows)
//	v(entry flags) v(offset) s(update id) [s(command id)] [s(workflow id)]
//	[s(effective at)] s(record time) s(synchronizer id)
//	[v(number of nodes) node...] [reassignment]
//	[s(user id)] [list(act as)] [s(submission id)]
//
// the members in brackets present when their flag is set (one flag,
// entPlain, says instead that the entry's strings are written in JSON
// as they are). A list is
// v(length) then its strings, a node
//
//	v(node flags) v(id) s(contract id) s(template id) s(package name)
//	v(len(argument)) [list(signatories)] [list(observers)] [s(created at)]
//	[list(stakeholders)] [s(choice)] [list(acting)] [list(witnesses)]
//	[v(last descendant)] [v(len(key))] [list(maintainers)] [v(len(result))]
//	[list(choice observers)] [s(interface id)]
//
// and a reassignment v(its flags) s(reassignment id) s(source)
// s(target) s(submitter) v(counter) node(contract).
//
// Decoding gives exactly the logEntry the JSON decoder gives for the JSON
// form of the same entry (TestBinaryLogEntryMatchesJSON): what the JSON
// form would change, the encoder changes alike (invalid UTF-8 in strings,
// raw members compacted and HTML-escaped, a nil argument as null).

// binlogV1 is the first byte of a log entry in the binary form.
const binlogV1 = 0x01

// kindCodes are the entry kinds the binary form writes as one byte (their
// index; 0 is any other kind, written as a string).
var kindCodes = [...]string{1: kindTransaction, 2: kindReassignment, 3: kindTopology}

// kindCode is the index of kind in kindCodes (0 when it has none), by a
// switch rather than a search of the list.
func kindCode(kind string) byte {
	switch kind {
	case kindTransaction:
		return 1
	case kindReassignment:
		return 2
	case kindTopology:
		return 3
	}
	return 0
}

// Entry flags: which optional members are present.
const (
	entCommandID = 1 << iota
	entWorkflowID
	entEffectiveAt
	entNodes
	entReassign
	entUserID
	entActAs
	entSubmissionID
	// entPlain says the entry is written in a JSON answer as it is
	// stored: every string of it (its raw members aside) needs no
	// escaping (jsontext.Plain), its times are their wire form and its
	// template and interface ids "<packageId>:<Module>:<Entity>"
	// (logEntry.wireForms). The JSON page copies such an entry's strings
	// without looking at them (wire_page.go); an entry written before the
	// flag has none, and is checked and escaped as it is read.
	entPlain
	entAll = 1<<iota - 1
)

// Node flags: its booleans and which optional members are present.
const (
	ndExercise = 1 << iota
	ndConsuming
	ndTransient
	ndArchives
	ndEngine
	ndSignatories
	ndObservers
	ndCreatedAt
	ndStakeholders
	ndChoice
	ndActing
	ndWitnesses
	ndLastDescendant
	ndKey
	ndMaintainers
	ndResult
	ndChoiceObservers
	ndInterfaceID
	ndAll = 1<<iota - 1
)

// Reassignment flags.
const (
	raUnassign = 1 << iota
	raAll      = 1<<iota - 1
)

// storesNodes reports whether the entry's stored form has its nodes, as
// the JSON form has them: when there are any, and whenever they were
// encoded ahead (the submission path's entries, "n":[] when there are
// none).
func (e *logEntry) storesNodes() bool {
	return len(e.Nodes) > 0 || e.nodesAhead
}

// binEncoder writes the binary form.
type binEncoder struct {
	b     []byte
	lists int // strings in lists
	size  int // an estimate of the head's size
	// notPlain is set once a string that is not jsontext.Plain is noted.
	notPlain bool
	// ascii says every string written is noted and plain: printable
	// ASCII, valid UTF-8 (str need not check it again).
	ascii bool
}

// note notes strings of the entry for its size and entPlain.
func (w *binEncoder) note(ss ...string) {
	for _, s := range ss {
		w.size += len(s)
		if !w.notPlain && !jsontext.Plain(s) {
			w.notPlain = true
		}
	}
}

// notePlainIf notes s, known to be plain when plain: its size alone.
func (w *binEncoder) notePlainIf(plain bool, s string) {
	if plain {
		w.size += len(s)
		return
	}
	w.note(s)
}

// encode returns the stored form of an entry: the binary form, or the
// JSON one (encodeJSON) for an entry with topology events. The nodes are
// encoded from e.Nodes.
func (e *logEntry) encode() []byte { return e.encodeWith(newBuffer) }

// newBuffer is make([]byte, 0, n).
func newBuffer(n int) []byte { return make([]byte, 0, n) }

// encodeWith is encode with the buffer of the binary form from alloc
// (store.ValueBuffer: appendEntry).
func (e *logEntry) encodeWith(alloc func(n int) []byte) []byte {
	if len(e.Topology) > 0 {
		return e.encodeJSON()
	}
	// The raw members' stored forms, in head order, are collected first:
	// the value starts with them.
	var rawsBuf [8][]byte
	raws := rawsBuf[:0]
	var w binEncoder
	w.size = 32
	w.note(e.CommandID, e.WorkflowID, e.UserID, e.SubmissionID, e.Kind)
	w.notePlainIf(e.syncPlain, e.SynchronizerID)
	// The strings the submission path made (ownIDs, wireTimes) or
	// checked (syncPlain) are plain: only their sizes are noted.
	w.notePlainIf(e.ownIDs, e.UpdateID)
	w.notePlainIf(e.wireTimes, e.EffectiveAt)
	w.notePlainIf(e.wireTimes, e.RecordTime)
	var known *txNode
	if e.nodesPlain && len(e.Nodes) > 0 {
		known = &e.Nodes[0]
	}
	w.countActAs(e.ActAs, known)
	for i := range e.Nodes {
		n := &e.Nodes[i]
		raws = w.countNode(raws, n, e.rawsStored, e.nodesPlain, e.ownIDs && !n.Exercise, e.wireTimes && n.CreatedAt == e.EffectiveAt)
	}
	if e.Reassign != nil {
		w.size += 32
		w.note(e.Reassign.ReassignmentID, e.Reassign.Source, e.Reassign.Target, e.Reassign.Submitter)
		raws = w.countNode(raws, &e.Reassign.Contract, false, false, false, false)
	}
	w.ascii = !w.notPlain // every string str writes was noted above
	rawLen := 0
	for _, r := range raws {
		rawLen += len(r)
	}
	w.b = alloc(1 + 2*binaryMaxVarint + rawLen + w.size + crcSize)
	w.b = append(w.b, binlogV1)
	w.uint(uint64(rawLen))
	w.uint(uint64(w.lists))
	for _, r := range raws {
		w.b = append(w.b, r...)
	}

	code := kindCode(e.Kind)
	w.b = append(w.b, code)
	if code == 0 {
		w.str(e.Kind)
	}
	flags := flagIf(e.CommandID != "", entCommandID) | flagIf(e.WorkflowID != "", entWorkflowID) |
		flagIf(e.EffectiveAt != "", entEffectiveAt) | flagIf(e.storesNodes(), entNodes) |
		flagIf(e.Reassign != nil, entReassign) | flagIf(e.UserID != "", entUserID) |
		flagIf(len(e.ActAs) > 0, entActAs) | flagIf(e.SubmissionID != "", entSubmissionID) |
		flagIf(!w.notPlain && e.plainForms(), entPlain)
	w.uint(flags)
	w.int(e.Offset)
	w.str(e.UpdateID)
	w.strIf(flags&entCommandID != 0, e.CommandID)
	w.strIf(flags&entWorkflowID != 0, e.WorkflowID)
	w.strIf(flags&entEffectiveAt != 0, e.EffectiveAt)
	w.str(e.RecordTime)
	w.str(e.SynchronizerID)
	if flags&entNodes != 0 {
		w.uint(uint64(len(e.Nodes)))
		for i := range e.Nodes {
			raws = w.node(&e.Nodes[i], raws)
		}
	}
	if r := e.Reassign; r != nil {
		var rf uint64
		if r.Unassign {
			rf |= raUnassign
		}
		w.uint(rf)
		w.str(r.ReassignmentID)
		w.str(r.Source)
		w.str(r.Target)
		w.str(r.Submitter)
		w.int(r.Counter)
		w.node(&r.Contract, raws)
	}
	w.strIf(flags&entUserID != 0, e.UserID)
	if flags&entActAs != 0 {
		w.list(e.ActAs)
	}
	w.strIf(flags&entSubmissionID != 0, e.SubmissionID)
	return binary.LittleEndian.AppendUint32(w.b, crc32.Checksum(w.b, castagnoli))
}

// plainForms is wireForms, which the committer's entries spare parsing
// their times again (wireTimes).
func (e *logEntry) plainForms() bool {
	if !e.wireTimes {
		return e.wireForms()
	}
	for i := range e.Nodes {
		if !e.Nodes[i].wireForms(e.EffectiveAt) {
			return false
		}
	}
	return e.Reassign == nil || e.Reassign.Contract.wireForms(e.EffectiveAt)
}

// wireInstant reports whether formatTime(t) is a time wireTime accepts:
// it is when t is after the zero time and its year at most 9999
// (wiretime.Append's form, which parseStoredTime reads back as t).
func wireInstant(t time.Time) bool { return t.After(time.Time{}) && t.Before(wireEnd) }

// wireEnd is the first instant of year 10000.
var wireEnd = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)

// castagnoli is the CRC-32C table (hardware-accelerated by hash/crc32).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcSize is the size of the binary form's checksum.
const crcSize = 4

// binaryMaxVarint is the longest varint.
const binaryMaxVarint = 10

// countList notes a list's strings (a present one: non-empty).
func (w *binEncoder) countList(l []string) {
	w.lists += len(l)
	w.note(l...)
	w.size += 2 + 2*len(l)
}

// countActAs is countList of an entry's actAs parties, those among the
// signatories or stakeholders of node known, whose strings are plain
// (logEntry.nodesPlain; a create's submitters are its signatories),
// noted by their sizes alone.
func (w *binEncoder) countActAs(l []string, known *txNode) {
	if known == nil {
		w.countList(l)
		return
	}
	w.lists += len(l)
	w.size += 2 + 2*len(l)
	for _, s := range l {
		w.notePlainIf(slices.Contains(known.Signatories, s) || slices.Contains(known.Stakeholders, s), s)
	}
}

// countNode notes a node's lists and size and appends its raw members'
// stored forms to raws, ahead of its encoding; stored says they are
// (logEntry.rawsStored), plain that its other strings are plain
// (logEntry.nodesPlain), plainCID and plainAt that its ContractID and
// CreatedAt are (logEntry.ownIDs, wireTimes).
func (w *binEncoder) countNode(raws [][]byte, n *txNode, stored, plain, plainCID, plainAt bool) [][]byte {
	w.size += 48
	lists := [...][]string{n.Signatories, n.Observers, n.Stakeholders, n.Acting, n.Witnesses, n.Maintainers, n.ChoiceObservers}
	if plain {
		w.size += len(n.TemplateID) + len(n.PackageName) + len(n.Choice) + len(n.InterfaceID)
		for _, l := range lists {
			w.lists += len(l)
			w.size += 2 + 2*len(l)
			for _, s := range l {
				w.size += len(s)
			}
		}
	} else {
		w.note(n.TemplateID, n.PackageName, n.Choice, n.InterfaceID)
		for _, l := range lists {
			w.countList(l)
		}
	}
	w.notePlainIf(plainCID, n.ContractID)
	w.notePlainIf(plainAt, n.CreatedAt)
	if stored {
		raws = append(raws, n.Argument)
		for _, r := range [...][]byte{n.Key, n.Result} {
			if len(r) > 0 {
				raws = append(raws, r)
			}
		}
	} else {
		raws = appendStoredRaw(raws, n.Argument, false)
		raws = appendStoredRaw(raws, n.Key, true)
		raws = appendStoredRaw(raws, n.Result, true)
	}
	return raws
}

// appendStoredRaw appends a raw member's stored form, the bytes the JSON
// form holds: compacted and HTML-escaped as json.Marshal writes it
// (appendRawJSON), null for a nil one unless omitempty drops it.
func appendStoredRaw(raws [][]byte, raw []byte, omitEmpty bool) [][]byte {
	if omitEmpty && len(raw) == 0 {
		return raws
	}
	if raw == nil || rawNeedsRewrite(raw) {
		raw = appendRawJSON(nil, raw)
	}
	return append(raws, raw)
}

// node writes a node, its raw members' lengths those of raws, in the
// order countNode noted them, and returns the raws of the nodes after.
func (w *binEncoder) node(n *txNode, raws [][]byte) [][]byte {
	flags := flagIf(n.Exercise, ndExercise) | flagIf(n.Consuming, ndConsuming) | flagIf(n.Transient, ndTransient) |
		flagIf(n.Archives, ndArchives) | flagIf(n.Engine, ndEngine) | flagIf(len(n.Signatories) > 0, ndSignatories) |
		flagIf(len(n.Observers) > 0, ndObservers) | flagIf(n.CreatedAt != "", ndCreatedAt) |
		flagIf(len(n.Stakeholders) > 0, ndStakeholders) | flagIf(n.Choice != "", ndChoice) |
		flagIf(len(n.Acting) > 0, ndActing) | flagIf(len(n.Witnesses) > 0, ndWitnesses) |
		flagIf(n.LastDescendant != 0, ndLastDescendant) | flagIf(len(n.Key) > 0, ndKey) |
		flagIf(len(n.Maintainers) > 0, ndMaintainers) | flagIf(len(n.Result) > 0, ndResult) |
		flagIf(len(n.ChoiceObservers) > 0, ndChoiceObservers) | flagIf(n.InterfaceID != "", ndInterfaceID)
	w.uint(flags)
	w.int(int64(n.ID))
	w.str(n.ContractID)
	w.str(n.TemplateID)
	w.str(n.PackageName)
	w.uint(uint64(len(raws[0])))
	raws = raws[1:]
	w.listIf(flags&ndSignatories != 0, n.Signatories)
	w.listIf(flags&ndObservers != 0, n.Observers)
	w.strIf(flags&ndCreatedAt != 0, n.CreatedAt)
	w.listIf(flags&ndStakeholders != 0, n.Stakeholders)
	w.strIf(flags&ndChoice != 0, n.Choice)
	w.listIf(flags&ndActing != 0, n.Acting)
	w.listIf(flags&ndWitnesses != 0, n.Witnesses)
	if flags&ndLastDescendant != 0 {
		w.int(int64(n.LastDescendant))
	}
	if flags&ndKey != 0 {
		w.uint(uint64(len(raws[0])))
		raws = raws[1:]
	}
	w.listIf(flags&ndMaintainers != 0, n.Maintainers)
	if flags&ndResult != 0 {
		w.uint(uint64(len(raws[0])))
		raws = raws[1:]
	}
	w.listIf(flags&ndChoiceObservers != 0, n.ChoiceObservers)
	w.strIf(flags&ndInterfaceID != 0, n.InterfaceID)
	return raws
}

// flagIf is flag when on, else 0.
func flagIf(on bool, flag uint64) uint64 {
	if on {
		return flag
	}
	return 0
}

// uint writes an unsigned varint (encoding/binary's form, which the
// decoder reads only in its shortest form).
func (w *binEncoder) uint(v uint64) {
	for v >= 0x80 {
		w.b = append(w.b, byte(v)|0x80)
		v >>= 7
	}
	w.b = append(w.b, byte(v))
}

// int writes a signed integer zigzag-encoded (small negative numbers
// short too).
func (w *binEncoder) int(v int64) { w.uint(uint64(v<<1) ^ uint64(v>>63)) }

// str writes a string as the JSON form's reader gets it back: invalid
// UTF-8 replaced by U+FFFD, byte by byte, as json.Marshal writes it.
func (w *binEncoder) str(s string) {
	if !w.ascii && !utf8.ValidString(s) {
		s = validUTF8(s)
	}
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// strIf writes an optional string when its flag is set.
func (w *binEncoder) strIf(on bool, s string) {
	if on {
		w.str(s)
	}
}

// list writes a list of strings: its length, then its strings.
func (w *binEncoder) list(l []string) {
	w.uint(uint64(len(l)))
	for _, s := range l {
		w.str(s)
	}
}

// listIf writes an optional list when its flag is set.
func (w *binEncoder) listIf(on bool, l []string) {
	if on {
		w.list(l)
	}
}

// validUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD (as json.Marshal's \ufffd does, and unlike
// strings.ToValidUTF8, which replaces runs).
func validUTF8(s string) string {
	out := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return string(out)
}

// errBadBinaryEntry is the error of a damaged binary entry.
var errBadBinaryEntry = errors.New("damaged binary log entry")

// errBinaryChecksum is the error of a binary entry whose bytes do not
// match its checksum.
var errBinaryChecksum = fmt.Errorf("%w: checksum mismatch", errBadBinaryEntry)

// binDecoder reads the binary form. Its methods return false on damaged
// input; every length is checked against the bytes left before anything
// is allocated for it.
type binDecoder struct {
	b []byte // the head
	i int
	// raws are the entry's raw members, which each get their own copy.
	raws []byte
	// lists is how many strings the lists have left.
	lists uint64
	// listBuf, when set, holds the strings of all the entry's lists, which
	// the lists are carved out of (sharedLists).
	listBuf []string
	// names, when set, shares the names that repeat between entries, as
	// the JSON decoder's istr does.
	names *internTable
	// effectiveAt is the entry's, which its creates' times mostly are.
	effectiveAt string
	// lent, when set, has the strings and raw members point into b
	// instead of being copies, and the nodes and lists reuse its memory
	// (a lent read: decodeBinaryLogEntry).
	lent *lentEntries
}

// lentEntries is what a scan lending its entries reuses from one entry to
// the next: the memory of the last entry's nodes and list strings, which
// the next entry's decoding overwrites.
type lentEntries struct {
	nodes []txNode
	lists []string
}

// lentString is b as a string without a copy: valid while b's bytes are.
func lentString(b []byte) string {
	if len(b) == 0 {
		return "" // not a pointer past the end of b's array
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// decodeBinaryLogEntry decodes an entry in the binary form (b[0] is
// binlogV1), sharing repeated names through names (nil: none).
//
// With lent nil, b is not kept, and every string and raw member decoded
// has its own memory (or is the intern table's), as the JSON decoder's
// outputs do: caches keep single strings and arguments of entries
// (storedArgs keeps a template id and the value decoded from an
// argument), and a substring of one copy of the entry would keep all of
// the entry alive (TestBinaryLogEntryRetention).
//
// With lent set, the entry is lent: its strings (but the intern table's)
// and raw members are b's bytes, and its nodes and list slices are lent's
// memory, which the next entry decoded with lent reuses. Such an entry is
// valid only while b is and until the next decoding: a read that uses
// each entry at once and keeps nothing of it (a page written out as it is
// read) skips copying it.
func decodeBinaryLogEntry(b []byte, e *logEntry, names *internTable, lent *lentEntries) error {
	*e = logEntry{}
	if len(b) < 1+crcSize {
		return errBadBinaryEntry
	}
	sum := binary.LittleEndian.Uint32(b[len(b)-crcSize:])
	if b = b[:len(b)-crcSize]; crc32.Checksum(b, castagnoli) != sum {
		return errBinaryChecksum
	}
	d := binDecoder{b: b, i: 1, names: names, lent: lent}
	rawLen, ok1 := d.uint()
	nLists, ok2 := d.uint()
	if !ok1 || !ok2 || rawLen > uint64(len(b)-d.i) {
		return errBadBinaryEntry
	}
	head := d.i + int(rawLen)
	if nLists > uint64(len(b)-head) { // each string takes a byte at least
		return errBadBinaryEntry
	}
	d.raws, d.lists = b[d.i:head], nLists
	switch {
	case lent != nil:
		lent.lists = slices.Grow(lent.lists[:0], int(nLists))[:nLists]
		d.listBuf = lent.lists
	case nLists > 1 && nLists <= sharedLists:
		d.listBuf = make([]string, nLists)
	}
	d.b, d.i = b[head:], 0
	if !d.logEntry(e) || d.i != len(d.b) || len(d.raws) != 0 || d.lists != 0 {
		*e = logEntry{}
		return fmt.Errorf("%w (at byte %d of %d)", errBadBinaryEntry, head+d.i, len(b))
	}
	return nil
}

// uint reads a varint in its shortest form.
func (d *binDecoder) uint() (uint64, bool) {
	if d.i < len(d.b) && d.b[d.i] < 0x80 {
		d.i++
		return uint64(d.b[d.i-1]), true
	}
	var v uint64
	for shift := uint(0); shift < 64 && d.i < len(d.b); shift += 7 {
		c := d.b[d.i]
		d.i++
		if shift == 63 && c > 1 {
			return 0, false // overflows
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, c != 0 || shift == 0 // not in its shortest form: damaged
		}
	}
	return 0, false
}

// int reads a zigzag-encoded integer.
func (d *binDecoder) int() (int64, bool) {
	u, ok := d.uint()
	return int64(u>>1) ^ -int64(u&1), ok
}

// int32 reads an integer in int32's range.
func (d *binDecoder) int32(dst *int32) bool {
	v, ok := d.int()
	if !ok || v != int64(int32(v)) {
		return false
	}
	*dst = int32(v)
	return true
}

// span reads a string's length and returns where its bytes lie.
func (d *binDecoder) span() (start, end int, ok bool) {
	n, ok := d.uint()
	if !ok || n > uint64(len(d.b)-d.i) {
		return 0, 0, false
	}
	start = d.i
	d.i += int(n)
	return start, d.i, true
}

// str reads a string, a copy of its own (lent: the entry's bytes).
func (d *binDecoder) str(dst *string) bool {
	start, end, ok := d.span()
	if !ok {
		return false
	}
	if d.lent != nil {
		*dst = lentString(d.b[start:end])
	} else {
		*dst = string(d.b[start:end])
	}
	return true
}

// istr is str through the intern table, for the names that repeat
// between entries (as the JSON decoder's istr, and with its bound).
func (d *binDecoder) istr(dst *string) bool {
	if d.names == nil {
		return d.str(dst)
	}
	start, end, ok := d.span()
	if !ok {
		return false
	}
	*dst = d.names.intern(d.b[start:end])
	return true
}

// createdAt is ostr for a node's time: the entry's effective time itself
// when it is the same text (one string, as long as either is kept, not
// two).
func (d *binDecoder) createdAt(dst *string) bool {
	start, end, ok := d.span()
	if !ok || start == end {
		return false
	}
	switch {
	case string(d.b[start:end]) == d.effectiveAt:
		*dst = d.effectiveAt
	case d.lent != nil:
		*dst = lentString(d.b[start:end])
	default:
		*dst = string(d.b[start:end])
	}
	return true
}

// ostr reads an optional string, present when not empty.
func (d *binDecoder) ostr(dst *string) bool { return d.str(dst) && *dst != "" }

// oistr is ostr through the intern table.
func (d *binDecoder) oistr(dst *string) bool { return d.istr(dst) && *dst != "" }

// list reads a non-empty list of names (through the intern table), in a
// slice of its own or, for an entry with few list strings, carved
// (capacity capped) out of the entry's one slice for them.
func (d *binDecoder) list(dst *[]string) bool {
	n, ok := d.uint()
	if !ok || n == 0 || n > d.lists {
		return false
	}
	d.lists -= n
	var out []string
	if d.listBuf != nil {
		out, d.listBuf = d.listBuf[:n:n], d.listBuf[n:]
	} else {
		out = make([]string, n)
	}
	for i := range out {
		if !d.istr(&out[i]) {
			return false
		}
	}
	*dst = out
	return true
}

// sharedLists is the most strings an entry's lists may have for them to
// share one allocation (an entry with a few nodes: one list kept keeps
// the others' few names alive, no more).
const sharedLists = 32

// raw reads a raw member, copied to memory of its own (lent: the
// entry's bytes, capacity capped).
func (d *binDecoder) raw(dst *json.RawMessage) bool {
	n, ok := d.uint()
	if !ok || n == 0 || n > uint64(len(d.raws)) {
		return false
	}
	if d.lent != nil {
		*dst = json.RawMessage(d.raws[:n:n])
	} else {
		r := make(json.RawMessage, n)
		copy(r, d.raws)
		*dst = r
	}
	d.raws = d.raws[n:]
	return true
}

// flags reads a set of flags, none outside all.
func (d *binDecoder) flags(all uint64) (uint64, bool) {
	f, ok := d.uint()
	return f, ok && f&^all == 0
}

// minNodeSize is the fewest bytes a node takes (flags, id, three empty
// strings, an argument's length).
const minNodeSize = 6

// nodesAhead is how many nodes an entry's decoding allocates before
// reading them (most entries have fewer).
const nodesAhead = 16

// logEntry reads the head (binlog.go's format comment) into e.
func (d *binDecoder) logEntry(e *logEntry) bool {
	if d.i >= len(d.b) {
		return false
	}
	code := d.b[d.i]
	d.i++
	switch {
	case code == 0:
		if !d.istr(&e.Kind) || slices.Contains(kindCodes[:], e.Kind) && e.Kind != "" {
			return false // a known kind is written as its code
		}
	case int(code) < len(kindCodes):
		e.Kind = kindCodes[code]
	default:
		return false
	}
	flags, ok := d.flags(entAll)
	if !ok {
		return false
	}
	if e.Offset, ok = d.int(); !ok || !d.str(&e.UpdateID) ||
		flags&entCommandID != 0 && !d.ostr(&e.CommandID) ||
		flags&entWorkflowID != 0 && !d.ostr(&e.WorkflowID) ||
		flags&entEffectiveAt != 0 && !d.ostr(&e.EffectiveAt) ||
		!d.str(&e.RecordTime) || !d.istr(&e.SynchronizerID) {
		return false
	}
	d.effectiveAt = e.EffectiveAt
	e.plain = flags&entPlain != 0
	if flags&entNodes != 0 {
		// Each node takes minNodeSize bytes of the head and a byte of the
		// raw members (its argument) at least, but a txNode hundreds of
		// bytes: a count that the bytes could hold still gets only
		// nodesAhead nodes allocated ahead, the others as they decode
		// (TestBinaryLogEntryNodesAllocation).
		n, ok := d.uint()
		if !ok || n > uint64(len(d.b)-d.i)/minNodeSize || n > uint64(len(d.raws)) {
			return false
		}
		if d.lent != nil {
			e.Nodes = d.lent.nodes[:0]
		} else {
			e.Nodes = make([]txNode, 0, min(n, nodesAhead))
		}
		for range n {
			e.Nodes = append(e.Nodes, txNode{})
			if !d.txNode(&e.Nodes[len(e.Nodes)-1]) {
				return false
			}
		}
		if d.lent != nil {
			d.lent.nodes = e.Nodes
		}
	}
	if flags&entReassign != 0 {
		e.Reassign = new(reassignNode)
		if !d.reassignNode(e.Reassign) {
			return false
		}
	}
	return (flags&entUserID == 0 || d.oistr(&e.UserID)) &&
		(flags&entActAs == 0 || d.list(&e.ActAs)) &&
		(flags&entSubmissionID == 0 || d.ostr(&e.SubmissionID))
}

// txNode reads a node: its flags, then the members they say are present.
func (d *binDecoder) txNode(n *txNode) bool {
	flags, ok := d.flags(ndAll)
	if !ok || !d.int32(&n.ID) || !d.str(&n.ContractID) || !d.istr(&n.TemplateID) || !d.istr(&n.PackageName) || !d.raw(&n.Argument) {
		return false
	}
	n.Exercise = flags&ndExercise != 0
	n.Consuming = flags&ndConsuming != 0
	n.Transient = flags&ndTransient != 0
	n.Archives = flags&ndArchives != 0
	n.Engine = flags&ndEngine != 0
	return (flags&ndSignatories == 0 || d.list(&n.Signatories)) &&
		(flags&ndObservers == 0 || d.list(&n.Observers)) &&
		(flags&ndCreatedAt == 0 || d.createdAt(&n.CreatedAt)) &&
		(flags&ndStakeholders == 0 || d.list(&n.Stakeholders)) &&
		(flags&ndChoice == 0 || d.oistr(&n.Choice)) &&
		(flags&ndActing == 0 || d.list(&n.Acting)) &&
		(flags&ndWitnesses == 0 || d.list(&n.Witnesses)) &&
		(flags&ndLastDescendant == 0 || d.int32(&n.LastDescendant) && n.LastDescendant != 0) &&
		(flags&ndKey == 0 || d.raw(&n.Key)) &&
		(flags&ndMaintainers == 0 || d.list(&n.Maintainers)) &&
		(flags&ndResult == 0 || d.raw(&n.Result)) &&
		(flags&ndChoiceObservers == 0 || d.list(&n.ChoiceObservers)) &&
		(flags&ndInterfaceID == 0 || d.oistr(&n.InterfaceID))
}

// reassignNode reads a reassignment and its contract's node.
func (d *binDecoder) reassignNode(r *reassignNode) bool {
	flags, ok := d.flags(raAll)
	if !ok {
		return false
	}
	r.Unassign = flags&raUnassign != 0
	if !d.str(&r.ReassignmentID) || !d.istr(&r.Source) || !d.istr(&r.Target) || !d.istr(&r.Submitter) {
		return false
	}
	if r.Counter, ok = d.int(); !ok {
		return false
	}
	return d.txNode(&r.Contract)
}
