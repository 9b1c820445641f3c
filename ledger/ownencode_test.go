package ledger

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// TestOwnEncodingsAreEscaped checks that writing the node's own strings
// without a look (encodeNodesWith with own, dedupRecord.appendTo) gives the escaping
// encoder's bytes: formatTime's times, at the ends of its range too, and
// "1220"+hex ids need no escaping.
func TestOwnEncodingsAreEscaped(t *testing.T) {
	times := []time.Time{time.Unix(0, 0), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), time.Now()}
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i * 29)
	}
	uid := txUpdateID("participant::1220abcd", seed, "user", "cmd", formatTime(time.Now()))
	for _, tm := range times {
		at := formatTime(tm)
		if got := appendJSONString(nil, at); string(got) != `"`+at+`"` {
			t.Errorf("formatTime(%v) = %q needs escaping: %s", tm, at, got)
		}
		d := dedupRecord{Offset: 7, UpdateID: uid, At: at}
		if got, want := d.appendTo(nil, true), d.appendTo(nil, false); !bytes.Equal(got, want) {
			t.Errorf("appendTo(own) = %s, want %s", got, want)
		}
		nodes := []txNode{
			{ID: 0, ContractID: "00" + uid[4:] + "ca121220" + uid[4:], TemplateID: "p:M:T", PackageName: "pkg", Argument: []byte(`{"a":1}`),
				Signatories: []string{"a"}, Observers: []string{"b"}, CreatedAt: at, Engine: true},
			{ID: 1, Exercise: true, ContractID: "00<&>", TemplateID: "p:M:T", PackageName: "pkg", Argument: []byte(`{}`), Result: []byte(`{}`),
				Stakeholders: []string{"a"}, Choice: "C", Acting: []string{"a"}, Engine: true},
		}
		own := func() []txNode {
			c := make([]txNode, len(nodes))
			copy(c, nodes)
			return c
		}
		gotOut, gotEnds, gotAsIs, _ := encodeOwnNodesInto(own(), nil)
		wantOut, wantEnds, wantAsIs := encodeNodesInto(own(), nil)
		if !bytes.Equal(gotOut, wantOut) || gotAsIs != wantAsIs || len(gotEnds) != len(wantEnds) {
			t.Errorf("encodeOwnNodesInto = %s (%v), want %s (%v)", gotOut, gotAsIs, wantOut, wantAsIs)
		}
	}
}

// TestKindCodeIsKindCodes pins kindCode to kindCodes, which the decoder
// reads.
func TestKindCodeIsKindCodes(t *testing.T) {
	for c, k := range kindCodes {
		if c > 0 && kindCode(k) != byte(c) {
			t.Errorf("kindCode(%q) = %d, want %d", k, kindCode(k), c)
		}
	}
	for _, k := range []string{"", "other", "txx"} {
		if kindCode(k) != 0 {
			t.Errorf("kindCode(%q) = %d, want 0", k, kindCode(k))
		}
	}
}

// TestCommittableIDs pins committableIDs, which builds its three strings
// in one, to formatTime, txUpdateID and changeID, and checks that it
// keeps a change key already set.
func TestCommittableIDs(t *testing.T) {
	n := &Node{participantID: "participant::1220" + strings.Repeat("ab", 32)}
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(3 * i)
	}
	for _, let := range []time.Time{time.Date(2026, 11, 29, 12, 0, 0, 123456000, time.UTC), time.Unix(0, 0),
		time.Date(20000, 1, 1, 0, 0, 0, 1, time.UTC)} {
		c := &Commands{UserID: "user", CommandID: "cmd-1", ActAs: []string{"bob", "alice"}}
		s := newSubmission(c, nil)
		at, id, _ := n.committableIDs(s, let, seed, nil)
		if want := formatTime(let); at != want {
			t.Errorf("at = %q, want %q", at, want)
		}
		if want := txUpdateID(n.participantID, seed, c.UserID, c.CommandID, formatTime(let)); id != want {
			t.Errorf("update id = %q, want %q", id, want)
		}
		if want := changeID(c.UserID, c.ActAs, c.CommandID); s.changeKey() != want {
			t.Errorf("change key = %q, want %q", s.changeKey(), want)
		}
		s.change = "kept"
		if n.committableIDs(s, let, seed, nil); s.change != "kept" {
			t.Errorf("committableIDs replaced the change key with %q", s.change)
		}
	}
}

// TestAppendActiveRecordIsContractRecord pins appendActiveRecord, which
// writes the committer's record of a created contract without building
// it, to appendContractRecord of that record, and activeRecordSize to
// contractRecordSize.
func TestAppendActiveRecordIsContractRecord(t *testing.T) {
	create := []byte(`{"id":0,"cid":"00ab"}`)
	for _, sync := range []string{"sync::1220ab", `we"ird<&>`} {
		for _, wf := range []string{"", "wf-1", `w"f`} {
			for _, off := range []int64{0, 1, 1 << 40} {
				rec := contractRecord{SynchronizerID: sync, State: contractActive, CreatedOffset: off, WorkflowID: wf}
				want := appendContractRecord([]byte("x"), &rec, create)
				if got := appendActiveRecord([]byte("x"), sync, jsontext.HTMLPlain(sync), off, wf, create); !bytes.Equal(got, want) {
					t.Errorf("appendActiveRecord = %s, want %s", got, want)
				}
				if got, want := activeRecordSize(sync, wf), contractRecordSize(&rec); got != want {
					t.Errorf("activeRecordSize = %d, want %d", got, want)
				}
			}
		}
	}
}

// TestOwnNodesPlain checks encodeOwnNodesInto's plain against the nodes'
// strings, its bytes against encodeNodesInto's, and that the binary form
// of an entry whose nodes are noted plain (nodesPlain) is the one noting
// them.
func TestOwnNodesPlain(t *testing.T) {
	const alice, bob = "alice::1220abcdef0123456789", "bob::1220abcdef0123456789"
	for _, bad := range []string{"", "a<b", "q\"", "é", "\u2028", "x\n"} {
		node := func(s string) txNode {
			return txNode{ID: 0, ContractID: "00ab", TemplateID: "p:M:T" + s, PackageName: "pkg", Argument: []byte(`{"a":1}`),
				Signatories: []string{alice}, Observers: []string{bob, s + "c"}, Stakeholders: []string{alice, bob, s + "c"},
				Witnesses: []string{bob, alice, s + "c"}, Choice: "C" + s, CreatedAt: "2026-01-01T00:00:00Z"}
		}
		for i := range 5 {
			nodes := []txNode{node(""), node("")}
			switch i {
			case 1:
				nodes[1].TemplateID += bad
				nodes[1].InterfaceID = "p:M:I" + bad
			case 2:
				nodes[0] = node(bad)
			case 3:
				nodes[1].Witnesses = append(nodes[1].Witnesses, bad)
			}
			wantPlain := bad == "" || i == 0 || i == 4
			got, _, _, plain := encodeOwnNodesInto(slices.Clone(nodes), nil)
			want, _, _ := encodeNodesInto(slices.Clone(nodes), nil)
			if !bytes.Equal(got, want) || plain != wantPlain {
				t.Errorf("%q %d: encodeOwnNodesInto = %s, plain %v, want %s, %v", bad, i, got, plain, want, wantPlain)
			}
			e := &logEntry{Kind: kindTransaction, UpdateID: "u", RecordTime: "2026-01-01T00:00:00Z", Nodes: slices.Clone(nodes),
				ActAs: []string{alice, bob}, SynchronizerID: "sync::1220ab"}
			switch i {
			case 0:
				e.SynchronizerID += bad
			case 4:
				e.ActAs = append(e.ActAs, bad+"x")
			}
			wantBin := e.encode()
			e.nodesPlain, e.syncPlain = plain, jsontext.HTMLPlain(e.SynchronizerID)
			gotBin := e.encode()
			if !bytes.Equal(gotBin, wantBin) {
				t.Errorf("%q %d: encode with nodesPlain = %x, want %x", bad, i, gotBin, wantBin)
			}
			// Stored plain (entPlain) when every string is jsontext.Plain:
			// bad is the only string that may not be.
			var d logEntry
			if err := decodeLogEntry(gotBin, &d); err != nil {
				t.Fatal(err)
			} else if want := jsontext.Plain(bad); d.plain != want {
				t.Errorf("%q %d: stored plain %v, want %v", bad, i, d.plain, want)
			}
		}
	}
}

// encodeOwnNodesInto encodes nodes as committable does (encodeNodesWith
// with own), with parties of no earlier encoding known plain.
func encodeOwnNodesInto(nodes []txNode, buf []int) (out json.RawMessage, ends []int, asIs, plain bool) {
	return encodeNodesWith(nodes, buf, true, nil, new(plainParties))
}
