package ledger

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
)

// TestWireTransactionUnflaggedEntries: an entry stored before entPlain
// (plain false) has its strings escaped as the JSON answer writes them:
// the bytes of the flagged entry when its strings are plain, and JSON
// that reads back to the strings themselves when they are not. An entry
// with a stored time that is not its wire form, or a template id the
// typed renderer reads otherwise (never flagged plain), is left to the
// typed renderer, the page unchanged, and so is a transaction with any
// such event.
func TestWireTransactionUnflaggedEntries(t *testing.T) {
	t.Parallel()
	sig, obs := "alice::1220ab", "bob::1220cd"
	entry := func() *logEntry {
		return &logEntry{Kind: kindTransaction, Offset: 7, UpdateID: "1220ff", CommandID: "c1", WorkflowID: "wf",
			EffectiveAt: "2026-11-28T23:10:17.500Z", RecordTime: "2026-11-28T23:10:17.500001Z", SynchronizerID: "s::1220",
			Nodes: []txNode{{ID: 0, ContractID: "00aa", TemplateID: "pkg:M:T", PackageName: "p", Argument: json.RawMessage(`{"a":1}`),
				Signatories: []string{sig}, Observers: []string{obs}, CreatedAt: "2026-11-28T23:10:17.500Z"}}}
	}
	ef := newSpecFilter(&eventSpec{ByParty: map[string][]filterSpec{sig: nil}}, nil)
	write := func(e *logEntry) ([]byte, bool) {
		p := wirepage.Page{Out: []byte("[")}
		ok := (&wirePage{p: &p}).transaction(e, false, ef)
		if !ok && (string(p.Out) != "[" || p.N != 0 || p.Direct != 0) {
			t.Errorf("a refused entry left %q, %d updates", p.Out, p.N)
		}
		return p.Out, ok
	}
	e := entry()
	e.plain = true
	flagged, ok1 := write(e)
	e.plain = false
	unflagged, ok2 := write(e)
	if !ok1 || !ok2 || string(flagged) != string(unflagged) {
		t.Errorf("plain strings: flagged %v %s, unflagged %v %s", ok1, flagged, ok2, unflagged)
	}

	e.WorkflowID, e.CommandID, e.Nodes[0].Signatories = "w\"<\u2028>\n\\", "é", []string{sig, "x\x01y"}
	b, ok := write(e)
	var got struct {
		Update struct {
			Transaction struct {
				Value struct {
					CommandID, WorkflowID string
					Events                []struct {
						CreatedEvent struct{ Signatories []string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b[1:], &got); !ok || err != nil {
		t.Fatalf("strings to escape: written %v, %v: %s", ok, err, b)
	}
	v := got.Update.Transaction.Value
	if v.CommandID != e.CommandID || v.WorkflowID != e.WorkflowID || len(v.Events) != 1 ||
		!cmp.Equal(v.Events[0].CreatedEvent.Signatories, e.Nodes[0].Signatories) {
		t.Errorf("strings to escape read back as %+v", v)
	}

	for name, change := range map[string]func(e *logEntry){
		"effective time not in wire form": func(e *logEntry) { e.EffectiveAt = "2026-11-28T23:10:17.5Z" },
		"record time not in wire form":    func(e *logEntry) { e.RecordTime = "2026-11-28T23:10:17+00:00" },
		"created at not in wire form":     func(e *logEntry) { e.Nodes[0].CreatedAt = "2026-11-28T23:10:17.500000Z" },
		"the zero time":                   func(e *logEntry) { e.Nodes[0].CreatedAt = "0001-01-01T00:00:00Z" },
		"a package-name template id":      func(e *logEntry) { e.Nodes[0].TemplateID = "#p:M:T" },
		"a template id's trailing colon":  func(e *logEntry) { e.Nodes[0].TemplateID = "pkg:M:T:" },
		"an archive of a package-name id": func(e *logEntry) {
			e.Nodes = append(e.Nodes, txNode{ID: 1, Exercise: true, Consuming: true, ContractID: "00bb", TemplateID: "#p:M:T", Stakeholders: []string{sig}})
		},
		"nothing visible": func(e *logEntry) { e.Nodes[0].Signatories = []string{obs} },
	} {
		e := entry()
		change(e)
		// As the entry is stored (not plain: TestBinaryLogEntryPlain),
		// and as an entry written before the flag.
		var stored logEntry
		if err := decodeLogEntry(e.encode(), &stored); err != nil || stored.plain != (name == "nothing visible") {
			t.Fatalf("%s: decoded plain %v, %v", name, stored.plain, err)
		}
		if b, ok := write(&stored); ok {
			t.Errorf("%s: written by the wire page: %s", name, b)
		}
		if b, ok := write(e); ok {
			t.Errorf("%s, not stored: written by the wire page: %s", name, b)
		}
	}
}
