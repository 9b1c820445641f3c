package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The encoders of encode.go against encoding/json: json.Marshal for the
// plain forms, and the code path they replace for the forms with a part
// encoded ahead and spliced in (oldEncodeEntry, oldEncodeContractRecord).

// oldSpliceJSON is the splice the stored forms were written with.
func oldSpliceJSON(obj []byte, key string, raw []byte) []byte {
	out := append([]byte(nil), obj[:len(obj)-1]...)
	if len(obj) > 2 {
		out = append(out, ',')
	}
	out = append(out, '"')
	out = append(out, key...)
	out = append(out, '"', ':')
	out = append(out, raw...)
	return append(out, '}')
}

// oldEncodeEntry is logEntry.encodeJSON (the stored form before
// binlog.go) as it was, through encoding/json.
func oldEncodeEntry(e *logEntry) []byte {
	if !e.nodesAhead {
		return mustJSON(e)
	}
	type plain logEntry
	head := mustJSON(struct {
		*plain
		Nodes json.RawMessage `json:"n,omitempty"`
	}{(*plain)(e), nil})
	nodes, _ := encodeNodes(e.Nodes)
	return oldSpliceJSON(head, "n", nodes)
}

// oldEncodeContractRecord is encodeContractRecord as it was.
func oldEncodeContractRecord(rec *contractRecord, create json.RawMessage) []byte {
	type plain contractRecord
	head := mustJSON(struct {
		*plain
		Create json.RawMessage `json:"create,omitempty"`
	}{(*plain)(rec), nil})
	return oldSpliceJSON(head, "create", create)
}

// oldChangeID is changeID as it was.
func oldChangeID(c *Commands) string {
	acts := slices.Clone(c.ActAs)
	slices.Sort(acts)
	h := sha256.Sum256(mustJSON([]any{c.UserID, acts, c.CommandID}))
	return hex.EncodeToString(h[:])
}

// oldNewUpdateID is newUpdateID as it was.
func oldNewUpdateID(parts ...string) string {
	var b []byte
	for _, p := range parts {
		b = fmt.Appendf(b, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(identity.CantonHash(purposeUpdateID, b))
}

// oldParties is logEntry.parties as it was.
func oldParties(e *logEntry) []string {
	var out []string
	for i := range e.Nodes {
		out = union(out, e.Nodes[i].stakeholders(), e.Nodes[i].witnesses())
	}
	if e.Reassign != nil {
		out = union(out, e.Reassign.Contract.stakeholders())
	}
	for _, t := range e.Topology {
		for _, v := range []*wrapped[participantAuthorization]{t.Event.ParticipantAuthorizationAdded,
			t.Event.ParticipantAuthorizationChanged, t.Event.ParticipantAuthorizationRevoked} {
			if v != nil {
				out = union(out, []string{v.Value.PartyID})
			}
		}
	}
	return out
}

// odd are strings json.Marshal escapes in every way it can.
var odd = []string{"", "plain", `quo"te\back`, "<script>&amp;</script>", "line\u2028sep\u2029par", "ctl\x00\x01\b\f\n\r\t\x1f\x7f",
	"bad\xffutf8\xc3", "ünïcödé 日本 🎉", "\ufffd", "Alice::1220abcd"}

// rawCases are raw JSON values: compact, with whitespace, with
// characters json.Marshal escapes inside strings (as literal bytes).
var rawCases = []json.RawMessage{
	nil,
	json.RawMessage(`{"owner":"Alice::12","amount":"10.0"}`),
	json.RawMessage("{ \"a\" : [ 1 , 2 ],\n\t\"b\" : null }"),
	json.RawMessage(`{"t":"<b>&</b>"}`),
	json.RawMessage("\"sep\u2028\u2029\""),
	json.RawMessage("\"bad\xff utf8\""),
	json.RawMessage(`"ünïcödé"`),
	json.RawMessage(`[]`),
	json.RawMessage(`null`),
	json.RawMessage(`{"text":"spaces inside \" a string","dash":"€ — … \u2028"}`),
	json.RawMessage(`["a\\", "b"]`),
	json.RawMessage(`["a\\",  "b \\" ]`),
	json.RawMessage("[\"\xe2\x80\"]"),
}

func sampleNodes() []txNode {
	var out []txNode
	for i, s := range odd {
		raw := rawCases[i%len(rawCases)]
		out = append(out,
			txNode{ID: int32(i), ContractID: s, TemplateID: "pkg:M:" + s, PackageName: s, Argument: raw,
				Signatories: []string{s, "a"}, Observers: []string{}, CreatedAt: s, Transient: i%2 == 0,
				Key: rawCases[(i+1)%len(rawCases)], Maintainers: []string{s}, Engine: true, Witnesses: nil},
			txNode{ID: -int32(i), Exercise: true, ContractID: s, TemplateID: s, PackageName: "p", Argument: raw,
				Stakeholders: []string{s}, Choice: s, Consuming: i%2 == 1, Acting: []string{"x", s}, Witnesses: []string{s},
				LastDescendant: int32(i * 1000), Result: rawCases[(i+2)%len(rawCases)], ChoiceObservers: []string{s},
				InterfaceID: s, Archives: i%3 == 0, Engine: i%2 == 0})
	}
	out = append(out, txNode{}, txNode{Exercise: true, Argument: json.RawMessage(`{}`), Witnesses: []string{}})
	return out
}

// TestAppendJSONString compares every byte alone and in context, and odd
// runes, with json.Marshal.
func TestAppendJSONString(t *testing.T) {
	cases := slices.Clone(odd)
	for b := range 256 {
		cases = append(cases, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	for _, r := range []rune{0x7f, 0x80, 0x2027, 0x2028, 0x2029, 0x202a, 0xfffd, 0x10ffff} {
		cases = append(cases, string(r), "x"+string(r)+"y")
	}
	for _, s := range cases {
		if diff := cmp.Diff(string(mustJSON(s)), string(appendJSONString(nil, s))); diff != "" {
			t.Errorf("%q (-json.Marshal +appendJSONString):\n%s", s, diff)
		}
	}
}

func TestAppendRawJSON(t *testing.T) {
	for _, raw := range rawCases {
		want, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(appendRawJSON(nil, raw))); diff != "" {
			t.Errorf("%q (-json.Marshal +appendRawJSON):\n%s", raw, diff)
		}
	}
}

func TestEncodeTxNode(t *testing.T) {
	for i, n := range sampleNodes() {
		want, err := json.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(encodeTxNode(&n))); diff != "" {
			t.Errorf("node %d: encodeTxNode differs from json.Marshal (-want +got):\n%s", i, diff)
		}
	}
}

func TestEncodeNodes(t *testing.T) {
	nodes := sampleNodes()
	for _, l := range [][]txNode{nil, nodes[:1], nodes} {
		got, ends := encodeNodes(l)
		want := mustJSON(l)
		if l == nil {
			want = []byte("[]")
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%d nodes: encodeNodes differs from json.Marshal (-want +got):\n%s", len(l), diff)
		}
		start := 1
		for i := range l {
			if diff := cmp.Diff(string(mustJSON(&l[i])), string(got[start:ends[i]])); diff != "" {
				t.Errorf("element %d of %d (-want +got):\n%s", i, len(l), diff)
			}
			start = ends[i] + 1
		}
	}
}

// TestEncodeNodesDetaches: after encodeNodes, the nodes' raw values no
// longer refer to the buffer they were rendered into (eventNodes reuses
// it): overwriting it leaves them and the encoding as they were, and the
// values the encoding escapes keep their own form.
func TestEncodeNodesDetaches(t *testing.T) {
	nodes := sampleNodes()
	var buf []byte
	put := func(raw json.RawMessage) json.RawMessage {
		if raw == nil {
			return nil
		}
		start := len(buf)
		buf = append(buf, raw...)
		return buf[start:len(buf):len(buf)]
	}
	want := make([]txNode, len(nodes))
	copy(want, nodes)
	buf = make([]byte, 0, 1<<16) // not grown: every value in one buffer
	for i := range nodes {
		n := &nodes[i]
		n.Argument, n.Key, n.Result = put(n.Argument), put(n.Key), put(n.Result)
	}
	wantJSON := mustJSON(want)
	got, _ := encodeNodes(nodes)
	for i := range buf {
		buf[i] = 'X'
	}
	if diff := cmp.Diff(string(wantJSON), string(got)); diff != "" {
		t.Errorf("encoding (-want +got):\n%s", diff)
	}
	for i := range nodes {
		for _, f := range []struct {
			name      string
			want, got json.RawMessage
		}{{"argument", want[i].Argument, nodes[i].Argument}, {"key", want[i].Key, nodes[i].Key}, {"result", want[i].Result, nodes[i].Result}} {
			if string(f.got) != string(f.want) {
				t.Errorf("node %d: %s %q after the buffer changed, want %q", i, f.name, f.got, f.want)
			}
		}
	}
}

func sampleEntries() []*logEntry {
	nodes := sampleNodes()
	auth := &wrapped[participantAuthorization]{Value: participantAuthorization{PartyID: "<p>&", ParticipantID: "pa", ParticipantPermission: update.PermissionSubmission}}
	var out []*logEntry
	for i, s := range odd {
		out = append(out,
			&logEntry{Kind: kindTransaction, Offset: int64(i), UpdateID: s, CommandID: s, WorkflowID: s, EffectiveAt: s, RecordTime: s,
				SynchronizerID: s, Nodes: nodes[i : i+2], UserID: s, ActAs: []string{s, "b"}, SubmissionID: s},
			&logEntry{Kind: kindTransaction, Offset: -int64(i) << 40, UpdateID: s, RecordTime: s, SynchronizerID: s,
				Nodes: nodes[:3], nodesAhead: true, readers: []string{s}},
			&logEntry{Kind: kindReassignment, UpdateID: s, Reassign: &reassignNode{Unassign: i%2 == 0, ReassignmentID: s, Source: s,
				Target: s, Submitter: s, Counter: int64(i), Contract: nodes[2*i]}},
			&logEntry{Kind: kindTopology, UpdateID: s, ActAs: []string{}, Topology: []topologyEvent{
				{Event: topologyEventKind{ParticipantAuthorizationAdded: auth}},
				{Event: topologyEventKind{ParticipantAuthorizationRevoked: auth}}}},
		)
	}
	return append(out, &logEntry{}, &logEntry{Nodes: []txNode{}, nodesAhead: true},
		// An exercise's signatories are not its parties: none here.
		&logEntry{Nodes: []txNode{{Exercise: true, Signatories: []string{"s"}, Observers: []string{"o"}}}})
}

func TestLogEntryEncode(t *testing.T) {
	for i, e := range sampleEntries() {
		if diff := cmp.Diff(string(oldEncodeEntry(e)), string(e.encodeJSON())); diff != "" {
			t.Errorf("entry %d: encode differs from encoding/json (-want +got):\n%s", i, diff)
		}
	}
}

func TestLogEntryParties(t *testing.T) {
	for i, e := range sampleEntries() {
		if diff := cmp.Diff(oldParties(e), e.parties()); diff != "" {
			t.Errorf("entry %d: parties (-old +new):\n%s", i, diff)
		}
	}
}

func TestEncodeContractRecord(t *testing.T) {
	for i, n := range sampleNodes() {
		s := odd[i%len(odd)]
		rec := &contractRecord{Create: n, SynchronizerID: s, State: contractArchived, Counter: int64(i), ReassignmentID: s,
			CreatedOffset: int64(i), ArchivedOffset: int64(i * 7), WorkflowID: s, Target: s, UnassignedOffset: int64(i % 2)}
		if diff := cmp.Diff(string(mustJSON(rec)), string(encodeContractRecordJSON(rec))); diff != "" {
			t.Errorf("record %d: encodeContractRecordJSON differs from json.Marshal (-want +got):\n%s", i, diff)
		}
		create := encodeTxNode(&n)
		head := *rec
		head.Create = txNode{}
		if diff := cmp.Diff(string(oldEncodeContractRecord(&head, create)), string(encodeContractRecord(&head, create))); diff != "" {
			t.Errorf("record %d: encodeContractRecord differs from the spliced encoding/json form (-want +got):\n%s", i, diff)
		}
		empty := &contractRecord{Create: n}
		if diff := cmp.Diff(string(mustJSON(empty)), string(encodeContractRecordJSON(empty))); diff != "" {
			t.Errorf("record %d with zero fields (-want +got):\n%s", i, diff)
		}
	}
}

func TestDedupRecordEncode(t *testing.T) {
	for i, s := range odd {
		d := dedupRecord{Offset: int64(i) - 3, UpdateID: s, At: s}
		if diff := cmp.Diff(string(mustJSON(d)), string(d.encode())); diff != "" {
			t.Errorf("record %d: encode differs from json.Marshal (-want +got):\n%s", i, diff)
		}
	}
}

func TestChangeIDUnchanged(t *testing.T) {
	cases := []*Commands{
		{UserID: "u1", ActAs: []string{"alice::1220"}, CommandID: "c1"},
		{UserID: `u"1\`, ActAs: []string{"z", "a", "m"}, CommandID: "<c>&"},
		{UserID: "üser", ActAs: []string{"b\u2028", "a\xff"}, CommandID: "日本\x00"},
		{UserID: "", ActAs: nil, CommandID: ""},
		{UserID: "u", ActAs: []string{}, CommandID: "c"},
		{UserID: "u", ActAs: []string{"a", "a"}, CommandID: "c"},
	}
	for _, s := range odd {
		cases = append(cases, &Commands{UserID: s, ActAs: []string{s, "x"}, CommandID: s})
	}
	for i, c := range cases {
		acts := slices.Clone(c.ActAs)
		if got, want := changeID(c.UserID, c.ActAs, c.CommandID), oldChangeID(c); got != want {
			t.Errorf("case %d %+v: changeID %s, want %s", i, c, got, want)
		}
		if !slices.Equal(acts, c.ActAs) || (acts == nil) != (c.ActAs == nil) {
			t.Errorf("case %d: changeID changed actAs to %q", i, c.ActAs)
		}
	}
}

func TestUpdateIDUnchanged(t *testing.T) {
	cases := [][]string{nil, {""}, {"tx", "p", "u", "c", "t"}, odd, {strings.Repeat("x", 1000), "é"}}
	for i, parts := range cases {
		if got, want := newUpdateID(parts...), oldNewUpdateID(parts...); got != want {
			t.Errorf("case %d: newUpdateID %s, want %s", i, got, want)
		}
	}
	var seed [32]byte
	for i, s := range odd {
		seed[i] = byte(i * 37)
		if got, want := txUpdateID(s, seed, s+"u", "c"+s, s), oldNewUpdateID("tx", s, hex.EncodeToString(seed[:]), s+"u", "c"+s, s); got != want {
			t.Errorf("case %q: txUpdateID %s, want %s", s, got, want)
		}
	}
}

// rawString writes s as a JSON string escaping only what JSON requires
// (quote, backslash, control bytes): <, >, &, U+2028 and invalid UTF-8
// stay literal, as they may in stored raw JSON.
func rawString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzEncodeMatchesJSON checks the hand-written encoders against
// encoding/json on nodes, entries, contract and deduplication records
// built from random strings and flags.
func FuzzEncodeMatchesJSON(f *testing.F) {
	for i, s := range odd {
		f.Add(s, odd[(i+1)%len(odd)], uint16(i*4099), int64(i)-5)
	}
	f.Fuzz(func(t *testing.T, a, b string, flags uint16, num int64) {
		bit := func(i int) bool { return flags&(1<<i) != 0 }
		list := func(i int) []string {
			switch {
			case bit(i) && bit(i+1):
				return []string{a, b, a}
			case bit(i):
				return []string{}
			case bit(i + 1):
				return []string{b}
			}
			return nil
		}
		sp := ""
		if bit(0) {
			sp = " \n\t"
		}
		raw := func(i int) json.RawMessage {
			switch {
			case bit(i) && bit(i+1):
				return json.RawMessage(sp + "{" + sp + rawString(a) + sp + ":" + sp + "[" + rawString(b) + sp + "," + sp + "1.5e3]}" + sp)
			case bit(i):
				return mustJSON(a)
			case bit(i + 1):
				return json.RawMessage(rawString(b))
			}
			return nil
		}
		n := txNode{ID: int32(num), Exercise: bit(1), ContractID: a, TemplateID: b, PackageName: a + b, Argument: raw(2),
			Signatories: list(3), Observers: list(4), CreatedAt: b, Stakeholders: list(5), Choice: a, Consuming: bit(6),
			Acting: list(7), Transient: bit(8), Witnesses: list(9), LastDescendant: int32(num >> 32), Key: raw(10),
			Maintainers: list(11), Result: raw(12), ChoiceObservers: list(13), InterfaceID: b, Archives: bit(14), Engine: bit(15)}
		if diff := cmp.Diff(string(mustJSON(&n)), string(encodeTxNode(&n))); diff != "" {
			t.Fatalf("node %+v (-json.Marshal +encodeTxNode):\n%s", n, diff)
		}
		e := &logEntry{Kind: a, Offset: num, UpdateID: b, CommandID: a, WorkflowID: b, EffectiveAt: a, RecordTime: b,
			SynchronizerID: a, Nodes: []txNode{n, n}, UserID: b, ActAs: list(2), SubmissionID: a}
		if bit(3) {
			e.Reassign = &reassignNode{Unassign: bit(4), ReassignmentID: a, Source: b, Target: a, Submitter: b, Counter: num, Contract: n}
		}
		if diff := cmp.Diff(string(oldEncodeEntry(e)), string(e.encodeJSON())); diff != "" {
			t.Fatalf("entry (-encoding/json +encode):\n%s", diff)
		}
		if diff := cmp.Diff(oldParties(e), e.parties()); diff != "" {
			t.Fatalf("entry parties (-old +new):\n%s", diff)
		}
		e.nodesAhead = true
		if diff := cmp.Diff(string(oldEncodeEntry(e)), string(e.encodeJSON())); diff != "" {
			t.Fatalf("entry with nodes encoded ahead (-encoding/json +encode):\n%s", diff)
		}
		checkBinaryMatchesJSON(t, "entry", e) // binlog_test.go
		rid := ""
		if bit(5) {
			rid = b
		}
		rec := &contractRecord{Create: n, SynchronizerID: a, State: b, Counter: num, ReassignmentID: rid,
			CreatedOffset: num >> 3, ArchivedOffset: num & 7, WorkflowID: a, Target: rid, UnassignedOffset: num & 1}
		if diff := cmp.Diff(string(mustJSON(rec)), string(encodeContractRecordJSON(rec))); diff != "" {
			t.Fatalf("contract record (-json.Marshal +encodeContractRecordJSON):\n%s", diff)
		}
		head := *rec
		head.Create = txNode{}
		create := encodeTxNode(&n)
		if diff := cmp.Diff(string(oldEncodeContractRecord(&head, create)), string(encodeContractRecord(&head, create))); diff != "" {
			t.Fatalf("contract record with its create node encoded ahead (-encoding/json +encodeContractRecord):\n%s", diff)
		}
		d := dedupRecord{Offset: num, UpdateID: a, At: b}
		if diff := cmp.Diff(string(mustJSON(d)), string(d.encode())); diff != "" {
			t.Fatalf("dedup record (-json.Marshal +encode):\n%s", diff)
		}
		c := &Commands{UserID: a, ActAs: list(6), CommandID: b}
		if got, want := changeID(c.UserID, c.ActAs, c.CommandID), oldChangeID(c); got != want {
			t.Fatalf("changeID(%+v) = %s, want %s", c, got, want)
		}
		if got, want := newUpdateID(a, b), oldNewUpdateID(a, b); got != want {
			t.Fatalf("newUpdateID(%q, %q) = %s, want %s", a, b, got, want)
		}
	})
}

// pingEntry is the entry of a Ping create as the engine path stores it.
func pingEntry() *logEntry {
	alice, bob := "alice::1220"+strings.Repeat("a1", 32), "bob::1220"+strings.Repeat("b2", 32)
	n := txNode{ID: 0, ContractID: "00" + strings.Repeat("c3", 32) + "ca11" + strings.Repeat("0d", 32),
		TemplateID: strings.Repeat("9f", 32) + ":Canton.Internal.Ping:Ping", PackageName: "canton-builtin-admin-workflow-ping",
		Argument:    json.RawMessage(`{"id":"12345","initiator":"` + alice + `","responder":"` + bob + `"}`),
		Signatories: []string{alice}, Observers: []string{bob}, CreatedAt: "2026-11-24T00:00:00.123456Z", Engine: true}
	e := &logEntry{Kind: kindTransaction, Offset: 123456, UpdateID: "1220" + strings.Repeat("e4", 32), CommandID: "ping-12345",
		EffectiveAt: n.CreatedAt, RecordTime: "2026-11-24T00:00:00.234567Z", SynchronizerID: "synchronizer::1220" + strings.Repeat("5f", 32),
		Nodes: []txNode{n}, UserID: "u1", ActAs: []string{alice}, nodesAhead: true}
	return e
}

// BenchmarkEncodeEntry compares the stored encoding of a Ping create's
// entry, node and contract record with encoding/json's.
func BenchmarkEncodeEntry(b *testing.B) {
	e := pingEntry()
	rec := &contractRecord{SynchronizerID: e.SynchronizerID, State: contractActive, CreatedOffset: e.Offset}
	nodes, _ := encodeNodes(e.Nodes)
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nodes, _ := encodeNodes(e.Nodes)
			e.encode()
			encodeContractRecord(rec, nodes[1:len(nodes)-1])
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustJSON(&e.Nodes[0])
			oldEncodeEntry(e)
			oldEncodeContractRecord(rec, nodes[1:len(nodes)-1])
		}
	})
}
