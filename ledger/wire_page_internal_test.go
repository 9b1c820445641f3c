package ledger

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
	"github.com/ledgernode/ledgernode/ledger/update"
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
		ok := (&wirePage{p: &p}).transaction(e, false, ef) == wireWritten
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
	// Nothing visible is told apart: the typed renderer is not asked.
	e = entry()
	e.Nodes[0].Signatories = []string{obs}
	if got := (&wirePage{p: &wirepage.Page{}}).transaction(e, false, ef); got != wireInvisible {
		t.Errorf("an entry with nothing visible: %d, want wireInvisible", got)
	}
}

// TestWirePageEntriesWrittenBefore: a JSON page of a store whose entries
// were written before entPlain (the binary form without the flag) or
// before the binary form (JSON entries) is the page of the same entries
// written today: the wire page checks and escapes what the flag would
// have vouched for, and the updates it leaves to the typed renderer are
// the same.
func TestWirePageEntriesWrittenBefore(t *testing.T) {
	t.Parallel()
	ctx := rawjson.WithStoredValues(context.Background())
	in := openIouNode(t)
	n, alice, iouT, iou, transfer := in.Node, in.alice, in.iouT, in.iou, in.transfer()
	for i, c := range []Command{
		CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 3)},
		CreateAndExerciseCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 5), Choice: "Transfer", Argument: transfer},
		CreateCommand{Template: TemplateRef{ID: iouT}, Arguments: iou(alice, 4)},
	} {
		if _, err := n.Submit(ctx, Commands{ActAs: []string{alice}, CommandID: "c" + strconv.Itoa(i), WorkflowID: "w", Commands: []Command{c}}); err != nil {
			t.Fatal(err)
		}
	}
	// page is what the JSON pages of alice and of any party, in both
	// shapes, hold: the node's own writing, and each visited update
	// marshalled.
	page := func() (string, int) {
		t.Helper()
		var out []byte
		direct := 0
		for _, f := range []ReadFormat{ReadAs(alice), {AnyParty: []Filter{}}} {
			for _, shape := range []Shape{ACSDelta, LedgerEffects} {
				f.Shape = shape
				wp := &wirepage.Page{}
				_, err := n.VisitUpdatesPage(wirepage.With(ctx, wp), UpdateReadFormat{Transactions: &f}, OffsetRange{Tail: true}, nil, nil, func(u update.Update) error {
					b, err := json.Marshal(u)
					wp.Sep()
					wp.Out = append(wp.Out, b...)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				out, direct = append(append(out, wp.Out...), '\n'), direct+wp.Direct
			}
		}
		return string(out), direct
	}
	want, direct := page()
	if direct < 10 {
		t.Fatalf("the node wrote %d updates of the pages itself: %s", direct, want)
	}
	// rewrite stores every transaction entry again with write.
	rewrite := func(write func(e *logEntry) []byte) {
		t.Helper()
		_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
			return nil, tx.Scan([]byte(store.PrefixUpdate), nil, func(k, v []byte) (bool, error) {
				var e logEntry
				if err := decodeLogEntry(v, &e); err != nil || e.Kind != kindTransaction {
					return err == nil, err
				}
				tx.Set(k, write(&e))
				return true, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	rewrite(func(e *logEntry) []byte { return withoutPlain(t, e.encode()) })
	if got, direct := page(); got != want || direct < 10 {
		t.Errorf("entries without the plain flag: the node wrote %d updates; pages (-today +before):\n%s", direct, cmp.Diff(want, got))
	}
	rewrite(func(e *logEntry) []byte {
		e.nodesAhead = e.Nodes != nil
		return e.encodeJSON()
	})
	if got, direct := page(); got != want || direct < 10 {
		t.Errorf("JSON entries: the node wrote %d updates; pages (-today +JSON):\n%s", direct, cmp.Diff(want, got))
	}
}

// withoutPlain returns a binary entry without its entPlain flag, its
// checksum made again: the entry as the node wrote it before the flag.
func withoutPlain(t *testing.T, b []byte) []byte {
	t.Helper()
	d := binDecoder{b: b[:len(b)-crcSize], i: 1}
	rawLen, _ := d.uint()
	d.uint()
	d.i += int(rawLen) + 1 // the raw members, the kind's code
	at := d.i
	flags, ok := d.uint()
	if !ok || flags&entPlain == 0 || b[at-1] == 0 {
		t.Fatalf("an entry with flags %#x, kind code %d", flags, b[at-1])
	}
	out := append(slices.Clone(b[:at]), binary.AppendUvarint(nil, flags&^entPlain)...)
	out = append(out, b[d.i:len(b)-crcSize]...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// TestWireTime: the wire page copies a stored time exactly when the typed
// renderer would write that very text: every time formatTime writes
// (random ones of every fraction precision), and none of the other texts
// of the same time or of none.
func TestWireTime(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		const span = 400 * 365 * 24 * 3600
		at := time.Unix(r.Int64N(span)-span/2, r.Int64N(1e9)).Truncate([]time.Duration{time.Second, time.Millisecond, time.Microsecond, 1}[r.IntN(4)])
		if s := formatTime(at); !wireTime(s) {
			t.Fatalf("wireTime(%q) = false for formatTime's text", s)
		}
	}
	for s, want := range map[string]bool{"": true, "2026-11-28T23:10:17.500Z": true, "2026-11-28T23:10:17.5Z": false,
		"2026-11-28T23:10:17.500000Z": false, "2026-11-28T23:10:17.000Z": false, "2026-11-28T23:10:17+00:00": false,
		"0001-01-01T00:00:00Z": false, "2026-02-29T00:00:00Z": false, "2024-02-29T00:00:00.000000001Z": true} {
		if got := wireTime(s); got != want {
			t.Errorf("wireTime(%q) = %v, want %v", s, got, want)
		}
		if tm, err := parseTime(s); want && (err != nil || tm.IsZero() && s != "" || !tm.IsZero() && formatTime(tm) != s) {
			t.Errorf("%q is copied, but the typed renderer reads %v (%v)", s, tm, err)
		}
	}
}
