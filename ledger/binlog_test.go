package ledger

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// binarySamples are entries of every shape the tests build: the encoders'
// samples (odd strings, raw members that need compacting and escaping,
// empty and nil lists, topology entries, an empty node list encoded
// ahead), a Ping create as the engine path stores it, every member set.
func binarySamples() []*logEntry {
	out := append(sampleEntries(), pingEntry(), fullEntry())
	none := &logEntry{Kind: "other", Nodes: []txNode{}, nodesAhead: true}
	nilArg := &logEntry{Kind: kindTransaction, Nodes: []txNode{{ID: 1 << 30, LastDescendant: -1 << 31, Key: json.RawMessage(`null`)}}}
	return append(out, none, nilArg, &logEntry{Nodes: []txNode{}})
}

// checkBinaryMatchesJSON checks that the binary form of e decodes to what
// the JSON form decodes to (json.Unmarshal, and the JSON decoder), with
// and without an intern table: without one, each decoding copies its
// names; with one, a second decoding shares the first's.
func checkBinaryMatchesJSON(t *testing.T, name string, e *logEntry) {
	t.Helper()
	js, bin := e.encodeJSON(), e.encode()
	var want, fast, got, interned logEntry
	if err := json.Unmarshal(js, &want); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := decodeLogEntry(js, &fast); err != nil {
		t.Fatalf("%s: decoding the JSON form: %v", name, err)
	}
	if diff := cmp.Diff(want, fast, cmpStored); diff != "" {
		t.Fatalf("%s: the JSON decoder differs from json.Unmarshal (-want +got):\n%s", name, diff)
	}
	if len(e.Topology) == 0 && (len(bin) == 0 || bin[0] != binlogV1) {
		t.Fatalf("%s: encode wrote %q, not the binary form", name, bin)
	}
	if err := decodeLogEntry(bin, &got); err != nil {
		t.Fatalf("%s: decoding the binary form: %v", name, err)
	}
	if diff := cmp.Diff(want, got, cmpStored); diff != "" {
		t.Fatalf("%s: the binary form decodes to (-JSON form's +binary form's):\n%s", name, diff)
	}
	var again logEntry
	if err := decodeLogEntry(bin, &again); err != nil {
		t.Fatalf("%s: decoding the binary form again: %v", name, err)
	}
	names := &internTable{}
	var interned2 logEntry
	for _, into := range []*logEntry{&interned, &interned2} {
		if err := decodeLogEntryWith(bin, into, names); err != nil {
			t.Fatalf("%s: decoding the binary form through an intern table: %v", name, err)
		}
		if diff := cmp.Diff(want, *into, cmpStored); diff != "" {
			t.Fatalf("%s: the binary form decodes through an intern table to (-JSON form's +binary form's):\n%s", name, diff)
		}
	}
	if len(e.Topology) > 0 || len(got.SynchronizerID) < 2 { // a one-byte string is static
		return
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	if same(got.SynchronizerID, again.SynchronizerID) {
		t.Errorf("%s: two decodings without a table share the synchronizer id", name)
	}
	if !same(interned.SynchronizerID, interned2.SynchronizerID) {
		t.Errorf("%s: two decodings through one table do not share the synchronizer id", name)
	}
}

// TestBinaryLogEntryMatchesJSON: every sample entry's binary form
// decodes to the logEntry its JSON form decodes to.
func TestBinaryLogEntryMatchesJSON(t *testing.T) {
	for i, e := range binarySamples() {
		checkBinaryMatchesJSON(t, fmt.Sprint("entry ", i), e)
	}
}

// TestBinaryLogEntryOwnsItsBytes: a decoded entry refers to none of the
// value's bytes (a Badger value is only valid during its callback, and its
// buffer is reused).
func TestBinaryLogEntryOwnsItsBytes(t *testing.T) {
	for i, e := range binarySamples() {
		b := e.encode()
		var want, got logEntry
		if err := decodeLogEntry(bytes.Clone(b), &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeLogEntryWith(b, &got, &internTable{}); err != nil {
			t.Fatal(err)
		}
		for j := range b {
			b[j] = 'X'
		}
		if diff := cmp.Diff(want, got, cmpStored); diff != "" {
			t.Errorf("entry %d changed with the bytes it was decoded from (-before +after):\n%s", i, diff)
		}
	}
}

// withChecksum returns b (a binary entry without its checksum) with the
// checksum the encoder appends: damaged structure that the checksum does
// not refuse, for the structure decoder.
func withChecksum(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(bytes.Clone(b), crc32.Checksum(b, castagnoli))
}

// TestBinaryLogEntryChecksum: changing any byte of a binary entry, or
// cutting it short, is refused as a checksum mismatch.
func TestBinaryLogEntryChecksum(t *testing.T) {
	for i, e := range binarySamples() {
		b := e.encode()
		if b[0] != binlogV1 {
			continue
		}
		for j := range b {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				c := bytes.Clone(b)
				c[j] ^= x
				var got logEntry
				if err := decodeLogEntry(c, &got); j > 0 && !errors.Is(err, errBinaryChecksum) || j == 0 && err == nil {
					t.Errorf("entry %d, byte %d of %d xor %#x: %v", i, j, len(b), x, err)
				}
			}
		}
		for n := 1 + crcSize; n < len(b); n++ {
			var got logEntry
			if err := decodeLogEntry(b[:n], &got); !errors.Is(err, errBinaryChecksum) {
				t.Errorf("entry %d cut to %d of %d bytes: %v", i, n, len(b), err)
			}
		}
	}
}

// TestBinaryLogEntryDamaged: a binary entry cut short anywhere, or with a
// byte appended, with a matching checksum, is refused; so are lengths and
// counts past the end of the value, without allocating for them.
func TestBinaryLogEntryDamaged(t *testing.T) {
	for i, e := range binarySamples() {
		b := e.encode()
		if b[0] != binlogV1 {
			continue
		}
		b = b[:len(b)-crcSize]
		for n := 0; n < len(b); n++ {
			var got logEntry
			if err := decodeLogEntry(withChecksum(b[:n]), &got); err == nil {
				t.Errorf("entry %d cut to %d of %d bytes: no error", i, n, len(b))
			}
		}
		var got logEntry
		if err := decodeLogEntry(withChecksum(append(bytes.Clone(b), 0)), &got); err == nil {
			t.Errorf("entry %d with a byte appended: no error", i)
		}
	}
	huge := []byte{binlogV1, 0x80, 0x80, 0x80, 0x80, 0x10} // 1<<32 bytes of raw members
	lists := []byte{binlogV1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 0, 0, 0, 0, 0}
	nodes := append([]byte{binlogV1, 0, 0, 1, entNodes, 0, 0, 0, 0}, 0xff, 0xff, 0xff, 0xff, 0x0f)
	nodes = append(nodes, make([]byte, 64)...)
	long := []byte{binlogV1, 0, 0, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}
	overlong := []byte{binlogV1, 0, 0, 1, 0, 0x80, 0x00, 0, 0, 0}
	for name, b := range map[string][]byte{"raws": huge, "lists": lists, "nodes": nodes, "string": long, "overlong varint": overlong,
		"kind": {binlogV1, 0, 0, 9, 0, 0, 0, 0, 0}, "flags": {binlogV1, 0, 0, 1, 0x80, 0x04, 0, 0, 0, 0}} {
		var before, after runtime.MemStats
		b = withChecksum(b)
		runtime.ReadMemStats(&before)
		var got logEntry
		err := decodeLogEntry(b, &got)
		runtime.ReadMemStats(&after)
		if err == nil || errors.Is(err, errBinaryChecksum) {
			t.Errorf("%s: no error", name)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<16 {
			t.Errorf("%s: %d bytes allocated for a %d-byte value", name, n, len(b))
		}
	}
}

// TestBinaryLogEntryNodesAllocation: a damaged 1 MiB entry claiming as
// many nodes as its bytes could hold (a node takes 6 bytes of the head and
// one of the raw members at least, a decoded one hundreds) allocates a
// small multiple of its size before it is refused. (A list's strings are
// allocated ahead: 16 bytes for each byte the count could claim.)
func TestBinaryLogEntryNodesAllocation(t *testing.T) {
	const size, raws = 1 << 20, 1 << 19
	nodes := binary.AppendUvarint([]byte{binlogV1}, raws)
	nodes = append(nodes, 0)
	nodes = append(nodes, make([]byte, raws)...)
	nodes = append(nodes, 1, entNodes, 0, 0, 0, 0)
	nodes = binary.AppendUvarint(nodes, uint64(size-len(nodes)-binary.MaxVarintLen64)/minNodeSize)
	b := withChecksum(append(nodes, make([]byte, size-len(nodes))...))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got logEntry
	err := decodeLogEntry(b, &got)
	runtime.ReadMemStats(&after)
	if err == nil || errors.Is(err, errBinaryChecksum) {
		t.Fatalf("damaged nodes: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8*uint64(len(b)) {
		t.Errorf("%d bytes allocated for a %d-byte value", n, len(b))
	}
}

// FuzzDecodeBinaryLogEntry decodes arbitrary bytes as a binary entry, as
// they are and with their checksum appended (the structure decoder's
// input): it never panics, and what it accepts with valid strings and
// canonical raw members (as the encoder writes them) encodes back to the
// same bytes (or, when its entPlain flag is not the one the encoder
// derives, to the same entry with that flag): a damaged value is refused, not
// read as another entry. (It
// does not measure allocation: TestBinaryLogEntryDamaged and
// TestBinaryLogEntryNodesAllocation do.)
func FuzzDecodeBinaryLogEntry(f *testing.F) {
	for _, e := range binarySamples() {
		if b := e.encode(); b[0] == binlogV1 {
			f.Add(b[1 : len(b)-crcSize])
			var into logEntry
			if err := decodeLogEntryLent(b, &into, &internTable{}, fuzzLent); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		b = append([]byte{binlogV1}, b...)
		// The input as it is (its checksum mostly wrong), and with its
		// checksum, for the structure decoder.
		for _, b := range [][]byte{b, withChecksum(b)} {
			var e, lentE logEntry
			err := decodeLogEntryWith(b, &e, &internTable{})
			// The lent decoding, over memory a sample entry used
			// before, accepts and decodes the same.
			lentErr := decodeLogEntryLent(b, &lentE, &internTable{}, fuzzLent)
			if (err == nil) != (lentErr == nil) {
				t.Fatalf("%q: decoded with error %v, lent with %v", b, err, lentErr)
			}
			if err != nil {
				continue
			}
			if diff := cmp.Diff(e, lentE, cmpStored); diff != "" {
				t.Fatalf("%q: the lent decoding differs (-owned +lent):\n%s", b, diff)
			}
			if !encodable(&e) {
				continue
			}
			enc := e.encode()
			// entPlain is derived: the encoder sets it when the entry
			// qualifies. An input without it (as the entries written
			// before it) or with it where the entry does not qualify is
			// read as it is; it encodes to the same entry, flagged as
			// the encoder flags it.
			var back logEntry
			if err := decodeLogEntryWith(enc, &back, &internTable{}); err != nil {
				t.Fatalf("%q: its encoding does not decode: %v", b, err)
			}
			if back.plain != e.plain {
				if diff := cmp.Diff(e, back, cmpStored); diff != "" {
					t.Fatalf("%q decodes to an entry that encodes to another (-input +encoded):\n%s", b, diff)
				}
				continue
			}
			if diff := cmp.Diff(b, enc); diff != "" {
				t.Fatalf("%q decodes to an entry that encodes to other bytes (-input +encoded):\n%s", b, diff)
			}
		}
	})
}

// fuzzLent is the lent decodings' memory in FuzzDecodeBinaryLogEntry,
// reused from input to input as a scan reuses it from entry to entry.
var fuzzLent = new(lentEntries)

// TestBinaryLogEntryLent: a lent decoding (decodeBinaryLogEntry with
// lent, as a lent scan does one entry after another with one intern
// table and one lentEntries) decodes every sample entry to what the owned
// decoding gives, its strings are the value's bytes and not copies, and
// a transaction's decoding allocates nothing once the names are interned
// and the memory grown.
func TestBinaryLogEntryLent(t *testing.T) {
	names, lent := &internTable{}, new(lentEntries)
	var e logEntry
	for i, s := range binarySamples() {
		b := s.encode()
		if b[0] != binlogV1 {
			continue
		}
		var want logEntry
		if err := decodeLogEntry(b, &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeLogEntryLent(b, &e, names, lent); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if diff := cmp.Diff(want, e, cmpStored); diff != "" {
			t.Fatalf("entry %d: the lent decoding differs (-owned +lent):\n%s", i, diff)
		}
		inB := func(s string) bool {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			return p >= uintptr(unsafe.Pointer(&b[0])) && p < uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b))
		}
		if len(e.UpdateID) > 1 && !inB(e.UpdateID) {
			t.Errorf("entry %d: the lent update id is a copy, not the value's bytes", i)
		}
		// The names that repeat are the intern table's, which the read
		// keeps from entry to entry: never the value's bytes.
		for _, n := range e.Nodes {
			for _, s := range append([]string{n.TemplateID, n.PackageName}, append(n.Signatories, n.Observers...)...) {
				if inB(s) {
					t.Errorf("entry %d: the interned name %q is the value's bytes", i, s)
				}
			}
		}
		if e.Reassign != nil {
			continue
		}
		if n := testing.AllocsPerRun(20, func() {
			if err := decodeLogEntryLent(b, &e, names, lent); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("entry %d: a lent decoding allocates %v times, want 0", i, n)
		}
	}
}

// encodable reports whether the encoder writes the entry's strings and
// raw members as they are (valid UTF-8, canonical JSON).
func encodable(e *logEntry) bool {
	ok := true
	str := func(ss ...string) {
		for _, s := range ss {
			ok = ok && utf8.ValidString(s)
		}
	}
	raw := func(rs ...json.RawMessage) {
		for _, r := range rs {
			ok = ok && (r == nil || json.Valid(r) && !rawNeedsRewrite(r))
		}
	}
	node := func(n *txNode) {
		str(n.ContractID, n.TemplateID, n.PackageName, n.CreatedAt, n.Choice, n.InterfaceID)
		for _, l := range [][]string{n.Signatories, n.Observers, n.Stakeholders, n.Acting, n.Witnesses, n.Maintainers, n.ChoiceObservers} {
			str(l...)
		}
		raw(n.Argument, n.Key, n.Result)
	}
	str(e.Kind, e.UpdateID, e.CommandID, e.WorkflowID, e.EffectiveAt, e.RecordTime, e.SynchronizerID, e.UserID, e.SubmissionID)
	str(e.ActAs...)
	for i := range e.Nodes {
		node(&e.Nodes[i])
	}
	if e.Reassign != nil {
		str(e.Reassign.ReassignmentID, e.Reassign.Source, e.Reassign.Target, e.Reassign.Submitter)
		node(&e.Reassign.Contract)
	}
	// A present empty list of nodes is read (the submission path's
	// entries store it), but only encoded again with nodesAhead.
	return ok && (e.Nodes == nil || len(e.Nodes) > 0)
}

// BenchmarkEncodeStoredEntry is the committer's encoding of a Ping
// create's entry, its nodes encoded ahead (nodesAhead): in the binary
// form, and in the JSON form, which has them last.
func BenchmarkEncodeStoredEntry(b *testing.B) {
	e := pingEntry()
	b.Run("binary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.encode()
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.encodeJSON()
		}
	})
}

// TestBinaryLogEntryRetention: a string or a raw member kept from a
// decoded entry (as the argument cache keeps a template id and an
// argument) does not keep the rest of the entry alive: the entry below
// has an 8 MiB workflow id and an 8 MiB argument in its second node.
func TestBinaryLogEntryRetention(t *testing.T) {
	const big = 8 << 20
	e := pingEntry()
	e.WorkflowID = strings.Repeat("w", big)
	second := e.Nodes[0]
	second.ID++
	second.Argument = json.RawMessage(`"` + strings.Repeat("a", big) + `"`)
	e.Nodes = append(e.Nodes, second)
	b := e.encode()
	for _, names := range []*internTable{nil, {}} {
		for _, keep := range []struct {
			name string
			keep func(*logEntry) any
		}{
			{"template id", func(e *logEntry) any { return e.Nodes[0].TemplateID }},
			{"package name", func(e *logEntry) any { return e.Nodes[0].PackageName }},
			{"update id", func(e *logEntry) any { return e.UpdateID }},
			{"argument", func(e *logEntry) any { return e.Nodes[0].Argument }},
		} {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var got logEntry
			if err := decodeLogEntryWith(b, &got, names); err != nil {
				t.Fatal(err)
			}
			kept := keep.keep(&got)
			got = logEntry{}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(kept)
			runtime.KeepAlive(b) // live in both counts, the last time round too
			if n := int64(after.HeapAlloc) - int64(before.HeapAlloc); n > 1<<20 {
				t.Errorf("table %v: keeping the %s keeps %d bytes", names != nil, keep.name, n)
			}
		}
	}
}

// TestBinaryLogEntryManyNodesRetention is TestBinaryLogEntryRetention for
// an entry of many short strings: keeping one contract id of an entry
// with many nodes must not keep the ids of all its nodes alive (as it
// would if the decoder put them in one shared allocation).
func TestBinaryLogEntryManyNodesRetention(t *testing.T) {
	b := func() []byte { // the entry itself is garbage before the first GC
		e := pingEntry()
		node := e.Nodes[0]
		e.Nodes = nil
		for i := range 20000 {
			n := node
			n.ID = int32(i)
			n.ContractID = fmt.Sprintf("00%0136x", i)
			e.Nodes = append(e.Nodes, n)
		}
		return e.encode()
	}()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var got logEntry
	if err := decodeLogEntryWith(b, &got, &internTable{}); err != nil {
		t.Fatal(err)
	}
	if got.Nodes[7].ContractID != fmt.Sprintf("00%0136x", 7) {
		t.Fatalf("contract id %q", got.Nodes[7].ContractID)
	}
	kept := got.Nodes[7].ContractID
	got = logEntry{}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	runtime.KeepAlive(b) // live in both counts
	// 20 000 ids are 2.8 MB.
	if n := int64(after.HeapAlloc) - int64(before.HeapAlloc); n > 1<<20 {
		t.Errorf("keeping one contract id keeps %d bytes", n)
	}
}

// TestBinaryLogEntryPlain: the binary form says an entry is plain
// (entPlain) exactly when every string of it is jsontext.Plain, its times
// are their wire form and its template and interface ids
// "<packageId>:<Module>:<Entity>". Each string of the sample entries is
// made wrong in turn (a quote, a control byte, a non-ASCII letter; a time
// not in its wire form; a package-name template id), and the entry must
// then decode as not plain; with every string right it decodes as plain.
func TestBinaryLogEntryPlain(t *testing.T) {
	t.Parallel()
	for i, e := range sampleEntries() {
		if len(e.Topology) > 0 {
			continue // written as JSON
		}
		eachString(reflect.ValueOf(e).Elem(), "", func(field string, s *string) {
			switch {
			case field == "EffectiveAt" || field == "RecordTime" || field == "CreatedAt":
				if *s != "" {
					*s = "2026-11-28T23:10:17.500Z"
				}
			case field == "TemplateID" || field == "InterfaceID" && *s != "":
				*s = "pkg:M.N:T"
			case *s != "":
				*s = "p" + strconv.Itoa(len(*s))
			}
		})
		var got logEntry
		if err := decodeLogEntry(e.encode(), &got); err != nil || !got.plain {
			t.Fatalf("entry %d, all plain: plain %v, %v", i, got.plain, err)
		}
		n := 0
		eachString(reflect.ValueOf(e).Elem(), "", func(string, *string) { n++ })
		for k := range n {
			bads := []string{`a"b`, "a\nb", "é", `a\b`}
			j := 0
			eachString(reflect.ValueOf(e).Elem(), "", func(field string, s *string) {
				if j++; j-1 != k {
					return
				}
				switch field {
				case "EffectiveAt", "RecordTime", "CreatedAt":
					bads = append(bads, "2026-11-28T23:10:17.5Z", "0001-01-01T00:00:00Z")
				case "TemplateID", "InterfaceID":
					bads = append(bads, "#p:M:T", "p:M:T:", "p:M")
				}
			})
			for _, bad := range bads {
				j := 0
				var saved string
				eachString(reflect.ValueOf(e).Elem(), "", func(_ string, s *string) {
					if j == k {
						saved, *s = *s, bad
					}
					j++
				})
				var got logEntry
				if err := decodeLogEntry(e.encode(), &got); err != nil || got.plain {
					t.Errorf("entry %d, string %d set to %q: plain %v, %v", i, k, bad, got.plain, err)
				}
				j = 0
				eachString(reflect.ValueOf(e).Elem(), "", func(_ string, s *string) {
					if j == k {
						*s = saved
					}
					j++
				})
			}
		}
	}
}

// eachString calls fn with every string a stored entry holds (exported
// fields, lists, nodes and the reassignment), in a fixed order, and the
// name of the field that holds it.
func eachString(v reflect.Value, field string, fn func(field string, s *string)) {
	switch v.Kind() {
	case reflect.String:
		fn(field, v.Addr().Interface().(*string))
	case reflect.Pointer:
		if !v.IsNil() {
			eachString(v.Elem(), field, fn)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw JSON members
		}
		for i := range v.Len() {
			eachString(v.Index(i), field, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				eachString(v.Field(i), f.Name, fn)
			}
		}
	}
}
