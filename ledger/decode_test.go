package ledger

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// cmpStored compares decoded records, unexported fields included (the
// decoders must leave them zero, as json.Unmarshal does), but for
// logEntry.plain, which only the binary form stores
// (TestBinaryLogEntryPlain).
var cmpStored = cmp.Options{cmp.AllowUnexported(logEntry{}, txNode{}), cmpopts.IgnoreFields(logEntry{}, "plain")}

// fullEntry is an exercise entry that sets every member of a node the
// fast path reads, with plain strings.
func fullEntry() *logEntry {
	n := txNode{ID: 3, Exercise: true, ContractID: "00ab", TemplateID: "pkg:M:T", PackageName: "p", Argument: json.RawMessage(`{"a":[1,-2.5e3,true,null,"x\"y\\u00e9"]}`),
		Signatories: []string{"s"}, Observers: []string{"o"}, CreatedAt: "2026-01-01T00:00:00Z", Stakeholders: []string{"s", "o"}, Choice: "Go",
		Consuming: true, Acting: []string{"s"}, Transient: true, Witnesses: []string{"s", "o", "w"}, LastDescendant: 7,
		Key: json.RawMessage(`{"k":"é"}`), Maintainers: []string{"s"}, Result: json.RawMessage(`null`), ChoiceObservers: []string{"c"},
		InterfaceID: "pkg:M:I", Archives: true, Engine: true}
	c := n
	c.Exercise = false
	return &logEntry{Kind: kindTransaction, Offset: 1 << 40, UpdateID: "u", CommandID: "c", WorkflowID: "w", EffectiveAt: "e",
		RecordTime: "r", SynchronizerID: "s", Nodes: []txNode{c, n}, Reassign: &reassignNode{Unassign: true, ReassignmentID: "r",
			Source: "a", Target: "b", Submitter: "s", Counter: -4, Contract: c}, UserID: "user", ActAs: []string{"s", "ü"}, SubmissionID: "sub"}
}

// TestDecodeLogEntry decodes every sample entry as json.Unmarshal does,
// and checks that the canonical ones take the fast path (without it the
// comparison would hold trivially, by the fallback).
func TestDecodeLogEntry(t *testing.T) {
	for i, e := range append(sampleEntries(), pingEntry(), fullEntry()) {
		b := e.encodeJSON()
		var want, got logEntry
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if err := decodeLogEntry(b, &got); err != nil {
			t.Fatalf("entry %d: decodeLogEntry: %v", i, err)
		}
		if diff := cmp.Diff(want, got, cmpStored); diff != "" {
			t.Errorf("entry %d: decodeLogEntry differs from json.Unmarshal (-want +got):\n%s", i, diff)
		}
	}
	for name, e := range map[string]*logEntry{"ping": pingEntry(), "full": fullEntry(), "empty": {}} {
		b := e.encodeJSON()
		d := jsonDecoder{b: b}
		var got logEntry
		if !d.logEntry(&got) || d.i != len(b) {
			t.Errorf("%s: the fast path gave up on the canonical encoding at byte %d of %s", name, d.i, b)
		}
	}
}

// TestDecodeContractRecord is TestDecodeLogEntry for contract records,
// in both stored orders (create first, or spliced last).
func TestDecodeContractRecord(t *testing.T) {
	for i, n := range append(sampleNodes(), fullEntry().Nodes...) {
		s := odd[i%len(odd)]
		rec := &contractRecord{Create: n, SynchronizerID: s, State: contractArchived, Counter: int64(i), ReassignmentID: s,
			CreatedOffset: int64(i), ArchivedOffset: int64(i * 7), WorkflowID: s, Target: s, UnassignedOffset: int64(i % 2)}
		for _, b := range [][]byte{encodeContractRecordJSON(rec), encodeContractRecord(rec, encodeTxNode(&n))} {
			var want, got contractRecord
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			if err := decodeContractRecord(b, &got); err != nil {
				t.Fatalf("record %d: decodeContractRecord: %v", i, err)
			}
			if diff := cmp.Diff(want, got, cmpStored); diff != "" {
				t.Errorf("record %d: decodeContractRecord differs from json.Unmarshal (-want +got):\n%s", i, diff)
			}
		}
	}
	rec := &contractRecord{Create: fullEntry().Nodes[0], SynchronizerID: "s", State: contractActive, CreatedOffset: 9}
	b := encodeContractRecord(rec, encodeTxNode(&rec.Create))
	d := jsonDecoder{b: b}
	var got contractRecord
	if !d.contractRecord(&got) || d.i != len(b) {
		t.Errorf("the fast path gave up on a canonical contract record at byte %d of %s", d.i, b)
	}
}

// TestDecodeOddInput checks inputs off the canonical form against
// json.Unmarshal: they are decoded by the fallback, or refused as it
// refuses them.
func TestDecodeOddInput(t *testing.T) {
	base := string(pingEntry().encodeJSON())
	cases := []string{
		base,
		" " + base,
		base + " ",
		base + "x",
		strings.Replace(base, `"k"`, `"K"`, 1), // encoding/json matches names without case
		strings.Replace(base, `"k":"tx"`, `"k":"t\u0078"`, 1), // an escaped string
		strings.Replace(base, `"o":123456`, `"o":123456.0`, 1),
		strings.Replace(base, `"o":123456`, `"o":1e5`, 1),
		strings.Replace(base, `"o":123456`, `"o":-0`, 1),
		strings.Replace(base, `"o":123456`, `"o":0123`, 1),
		strings.Replace(base, `"o":123456`, `"o":99999999999999999999`, 1),
		strings.Replace(base, `"o":123456`, `"o":null`, 1),
		strings.Replace(base, `"o":123456`, `"o":123456,"o":7`, 1),
		strings.Replace(base, `"id":0`, `"id":4294967296`, 1),
		strings.Replace(base, `"u":"`, `"u":"\xff`, 1),
		strings.Replace(base, `"arg":{`, `"arg": {`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":01,`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":"\q",`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":"\u12G4",`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":[1,],`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":tru,`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":"a`+"\x01"+`",`, 1),
		strings.Replace(base, `"arg":{`, `"arg":{"x":`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`,`, 1),
		strings.Replace(base, `"sig":[`, `"sig":[null,`, 1),
		strings.Replace(base, `"n":[`, `"n":[{},`, 1),
		strings.Replace(base, `"k":"tx"`, `"t":[{"event":{}}],"k":"tx"`, 1),
		`{}`, `[]`, `null`, ``, `{"n":[]}`, `{"n":null}`, `{"a":null}`, `{"actAs":[]}`,
	}
	for _, c := range cases {
		var want, got logEntry
		werr := json.Unmarshal([]byte(c), &want)
		gerr := decodeLogEntry([]byte(c), &got)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%.80q: json.Unmarshal: %v, decodeLogEntry: %v", c, werr, gerr)
			continue
		}
		if diff := cmp.Diff(want, got, cmpStored); werr == nil && diff != "" {
			t.Errorf("%.80q: (-json.Unmarshal +decodeLogEntry):\n%s", c, diff)
		}
	}
}

// FuzzDecodeMatchesJSON checks, on any input, that the decoders of log
// entries and contract records give what json.Unmarshal gives: an error
// where it gives one, and the same value otherwise. Log entries in the
// binary form (first byte binlogV1, which json.Unmarshal always refuses)
// are left out of the log entry check: FuzzDecodeBinaryLogEntry checks
// them.
func FuzzDecodeMatchesJSON(f *testing.F) {
	for _, e := range append(sampleEntries(), pingEntry(), fullEntry()) {
		f.Add(e.encodeJSON())
	}
	n := fullEntry().Nodes[1]
	f.Add(encodeContractRecord(&contractRecord{Create: n, SynchronizerID: "s", State: "active"}, encodeTxNode(&n)))
	f.Fuzz(func(t *testing.T, b []byte) {
		var we, ge logEntry
		werr, gerr := json.Unmarshal(b, &we), decodeLogEntry(b, &ge)
		binary := len(b) > 0 && b[0] == binlogV1 // no JSON: FuzzDecodeBinaryLogEntry's
		if (werr == nil) != (gerr == nil) && !binary {
			t.Fatalf("log entry %q: json.Unmarshal: %v, decodeLogEntry: %v", b, werr, gerr)
		}
		if diff := cmp.Diff(we, ge, cmpStored); werr == nil && diff != "" {
			t.Fatalf("log entry %q (-json.Unmarshal +decodeLogEntry):\n%s", b, diff)
		}
		var wc, gc contractRecord
		werr, gerr = json.Unmarshal(b, &wc), decodeContractRecord(b, &gc)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("contract record %q: json.Unmarshal: %v, decodeContractRecord: %v", b, werr, gerr)
		}
		if diff := cmp.Diff(wc, gc, cmpStored); werr == nil && diff != "" {
			t.Fatalf("contract record %q (-json.Unmarshal +decodeContractRecord):\n%s", b, diff)
		}
	})
}

// BenchmarkDecodeEntry compares the decoding of a Ping create's entry,
// in the JSON form and the binary one, with encoding/json's.
func BenchmarkDecodeEntry(b *testing.B) {
	raw := pingEntry().encodeJSON()
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var e logEntry
			if err := decodeLogEntry(raw, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
	bin := pingEntry().encode()
	b.Run("binary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var e logEntry
			if err := decodeLogEntry(bin, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var e logEntry
			if err := json.Unmarshal(raw, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
