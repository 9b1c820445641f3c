package jsonapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// emitCoverage counts what the differential test compared, so that it
// fails when the fixture stops producing a kind of event.
type emitCoverage map[string]int

func (c emitCoverage) update(u update.Update) {
	switch x := u.(type) {
	case *update.Transaction:
		c["transaction"]++
		for _, e := range x.Events {
			switch e := e.(type) {
			case *update.CreatedEvent:
				c.created(e)
			case *update.ArchivedEvent:
				c["archived"]++
				if len(e.ImplementedInterfaces) > 0 {
					c["archived with interfaces"]++
				}
			case *update.ExercisedEvent:
				c["exercised"]++
				c.value(e.Argument)
				if e.Result != nil {
					c.value(e.Result)
				}
				if e.Consuming {
					c["consuming exercise"]++
				} else {
					c["non-consuming exercise"]++
				}
				if e.LastDescendantNodeID > e.NodeID {
					c["exercise with children"]++
				}
			}
		}
		if len(x.Events) > 10 {
			c["wide transaction"]++
		}
	case *update.Reassignment:
		for _, e := range x.Events {
			switch e := e.(type) {
			case *update.AssignedEvent:
				c["assigned"]++
				c.created(e.Created)
			case *update.UnassignedEvent:
				c["unassigned"]++
			}
		}
	case *update.TopologyTransaction:
		c["topology"]++
	}
}

// value counts a Daml value of an event as stored (rawjson.Value, the
// stored bytes) or decoded.
func (c emitCoverage) value(v value.Value) {
	switch v.(type) {
	case rawjson.Value, *rawjson.Value:
		c["stored value"]++
	default:
		c["decoded value"]++
	}
}

func (c emitCoverage) created(e *update.CreatedEvent) {
	c["created"]++
	c.value(e.Argument)
	if e.Key != nil {
		c["keyed create"]++
		c.value(e.Key)
	}
	if len(e.Blob) > 0 {
		c["blob"]++
	}
	for _, v := range e.InterfaceViews {
		if v.Err == nil && v.Value != nil {
			c["interface view"]++
			c.value(v.Value)
		}
	}
	if !e.ACSDelta {
		c["created, no ACS delta"]++
	}
}

// emitNotes are the Daml texts of the fixture: plain ones only, so that
// the JSON read's stored bytes are the emitter's byte for byte.
var emitNotes = []string{"plain", "with spaces and ünïcödé", `quote " and backslash \ and tab	`}

// emitMode is a way of reading the typed reads the emitters write: with
// their values decoded (what a Go caller gets), or stored (the stored
// JSON, rawjson.WithStoredValues: what the JSON layer asks for).
type emitMode struct {
	name string
	ctx  func(context.Context) context.Context
	// kind is the kind of value (emitCoverage.value) the mode's reads
	// hold, other the kind they must not.
	kind, other string
}

var emitModes = []emitMode{
	{name: "stored", ctx: rawjson.WithStoredValues, kind: "stored value", other: "decoded value"},
	{name: "decoded", ctx: func(ctx context.Context) context.Context { return ctx }, kind: "decoded value", other: "stored value"},
}

// in returns the ledger read in a mode, for a subtest.
func (l *emitLedger) in(m emitMode) *emitLedger {
	c := *l
	c.typedCtx = m.ctx(l.ctx)
	return &c
}

// checkValues checks that the reads of a mode held that mode's values
// only.
func (m emitMode) checkValues(t *testing.T, cov emitCoverage) {
	t.Helper()
	if cov[m.kind] == 0 || cov[m.other] != 0 {
		t.Errorf("%s reads: %d %ss, %d %ss", m.name, cov[m.kind], m.kind, cov[m.other], m.other)
	}
}

// TestEmitMatchesJSONReads is the differential test of the emitters: on a
// ledger with creates, consuming and non-consuming exercises with
// children, archives, transients, interface views, blobs, several parties
// and filters, reassignments, contracts in transit and topology updates,
// the typed reads written by the emitters are, byte for byte, the bodies
// the JSON reads give httpadapter: pages of updates (both directions,
// several pages, their tokens), the updates stream, update by id,
// transaction (and tree) by id, pages of active contracts at several
// offsets, events by contract id and contract by id — and their refusals
// are the same. Both modes: typed reads with decoded values (as a Go
// caller reads them) and with stored values (as the JSON layer does).
func TestEmitMatchesJSONReads(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	fixture := newEmitLedger(t, emitNotes)
	fixture.same = sameWire
	for _, m := range emitModes {
		t.Run(m.name, func(t *testing.T) {
			l := fixture.in(m)
			cov := emitCoverage{}
			for _, f := range emitFormats {
				t.Run(f.name, func(t *testing.T) {
					l.compareReads(t, f, cov)
				})
			}
			t.Logf("compared: %v", cov)
			for _, k := range []string{"transaction", "created", "archived", "archived with interfaces", "exercised", "consuming exercise",
				"non-consuming exercise", "exercise with children", "wide transaction", "assigned", "unassigned", "topology", "blob",
				"interface view", "created, no ACS delta", "tree", "acs in transit", "acs active", "contract events archived", "contract by id",
				"refusal", "keyed create", "tree stream", "acs list"} {
				if cov[k] == 0 {
					t.Errorf("the fixture compared no %s (coverage %v)", k, cov)
				}
			}
			m.checkValues(t, cov)
		})
	}
}

func (l *emitLedger) compareReads(t *testing.T, f format, cov emitCoverage) {
	end, err := l.n.LedgerEnd(l.ctx)
	if err != nil {
		t.Fatal(err)
	}
	topo := l.partyIDs(f)
	if f.anyParty {
		topo = []string{}
	}
	for _, shape := range []ledger.Shape{ledger.ACSDelta, ledger.LedgerEffects} {
		wshape := map[ledger.Shape]string{ledger.ACSDelta: jsonapi.ShapeACSDelta, ledger.LedgerEffects: jsonapi.ShapeLedgerEffects}[shape]
		tf := l.typed(f, shape)
		rf := l.typed(f, shape)
		urf := ledger.UpdateReadFormat{Transactions: &tf, Reassignments: &rf, Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: topo}}

		// Pages of updates, ascending and descending, four at a time.
		for _, desc := range []bool{false, true} {
			size := int32(4)
			var token []byte
			for page := 0; ; page++ {
				what := fmt.Sprintf("%s page %d (descending %v)", wshape, page, desc)
				tp, terr := l.n.UpdatesPage(l.typedCtx, urf, ledger.OffsetRange{Through: new(end), Descending: desc}, &size, token)
				if terr != nil {
					t.Fatalf("%s: typed read %v", what, terr)
				}
				for _, u := range tp.Updates {
					cov.update(u)
				}
				if !l.check(t, what, jsonapi.AppendUpdatesPage(nil, tp)) || tp.NextToken == nil {
					break
				}
				token = tp.NextToken
			}
		}

		// The updates stream (one list).
		n := 0
		for u, err := range l.n.Updates(l.typedCtx, urf, ledger.OffsetRange{Through: new(end)}) {
			if err != nil {
				t.Fatal(err)
			}
			l.check(t, fmt.Sprintf("%s stream element %d", wshape, n), jsonapi.AppendUpdateResponse(nil, u))
			n++
		}
		checkGolden(t, fmt.Sprintf("%s stream count", wshape), []byte(fmt.Sprint(n)))

		// The deprecated trees stream, with the legacy filter (ledger
		// effects, transactions and reassignments).
		if shape == ledger.LedgerEffects {
			n := 0
			for u, err := range l.n.Updates(l.typedCtx, ledger.UpdateReadFormat{Transactions: &tf, Reassignments: &rf}, ledger.OffsetRange{Through: new(end)}) {
				if err != nil {
					t.Fatal(err)
				}
				cov["tree stream"]++
				l.check(t, fmt.Sprintf("trees stream element %d", n), jsonapi.AppendTreeUpdateResponse(nil, u))
				n++
			}
			checkGolden(t, "trees stream count", []byte(fmt.Sprint(n)))
		}

		// Each update by id and by offset; transactions by id.
		for off := int64(1); off <= end; off++ {
			tu, terr := l.n.UpdateByOffset(l.typedCtx, off, urf)
			what := fmt.Sprintf("%s update at %d", wshape, off)
			checkGolden(t, what+" refusal", []byte(codeOf(terr)))
			if terr != nil {
				cov["refusal"]++
				continue
			}
			l.check(t, what, jsonapi.AppendUpdateResponse(nil, tu))
			tu, terr = l.n.UpdateByID(l.typedCtx, updateID(tu), urf)
			if terr != nil {
				t.Fatalf("%s by id: typed read %v", what, terr)
			}
			l.check(t, what+" by id", jsonapi.AppendUpdateResponse(nil, tu))
		}
		for _, id := range l.updates {
			tt, terr := l.n.Transaction(l.typedCtx, id, tf)
			what := fmt.Sprintf("%s transaction %s", wshape, id)
			checkGolden(t, what+" refusal", []byte(codeOf(terr)))
			if terr == nil {
				l.check(t, what, jsonapi.AppendTransactionResponse(nil, tt))
			}
		}
	}

	// Transaction trees by id: the deprecated lookup reads as the parties
	// with wildcards, verbose, in the ledger-effects shape.
	if parties := l.partyIDs(f); len(parties) > 0 {
		tf := ledger.ReadFormat{Parties: map[string][]ledger.Filter{}, Verbose: true, Shape: ledger.LedgerEffects}
		for _, p := range parties {
			tf.Parties[p] = nil
		}
		for _, id := range l.updates {
			tt, terr := l.n.Transaction(l.typedCtx, id, tf)
			checkGolden(t, "tree "+id+" refusal", []byte(codeOf(terr)))
			if terr == nil {
				cov["tree"]++
				l.check(t, "tree "+id, jsonapi.AppendTransactionTreeResponse(nil, tt))
			}
		}
	}

	// Pages of active contracts, three at a time, at several offsets.
	for _, at := range []int64{end, end - 2, end / 2} {
		size := int32(3)
		treq := ledger.PageRequest{At: &at, Size: &size}
		for page := 0; ; page++ {
			what := fmt.Sprintf("ACS at %d page %d", at, page)
			tp, terr := l.n.ActiveContractEventsPage(l.typedCtx, l.typed(f, ledger.ACSDelta), treq)
			if terr != nil {
				t.Fatalf("%s: typed read %v", what, terr)
			}
			for _, c := range tp.Contracts {
				if c.Unassigned != nil {
					cov["acs in transit"]++
				} else {
					cov["acs active"]++
				}
				cov.created(c.Created)
			}
			if !l.check(t, what, jsonapi.AppendContractPage(nil, tp)) || tp.NextToken == nil {
				break
			}
			treq.Token = tp.NextToken
		}
	}

	// The active contracts as one list (the state stream), as the
	// elements of one typed page.
	for _, at := range []int64{end, end / 2} {
		size := int32(ledger.MaxACSPageSize)
		tp, terr := l.n.ActiveContractEventsPage(l.typedCtx, l.typed(f, ledger.ACSDelta), ledger.PageRequest{At: &at, Size: &size})
		if terr != nil {
			t.Fatalf("ACS list at %d: typed read %v", at, terr)
		}
		checkGolden(t, fmt.Sprintf("ACS list at %d count", at), []byte(fmt.Sprint(len(tp.Contracts))))
		for i := range tp.Contracts {
			cov["acs list"]++
			l.check(t, fmt.Sprintf("ACS list at %d element %d", at, i), jsonapi.AppendActiveContract(nil, &tp.Contracts[i]))
		}
	}

	// Each contract's events, and the contract by id.
	for _, cid := range l.cids {
		te, terr := l.n.ContractEvents(l.typedCtx, value.ContractID(cid), l.typed(f, ledger.ACSDelta))
		checkGolden(t, "events of "+cid+" refusal", []byte(codeOf(terr)))
		if terr == nil {
			if te.Archived != nil {
				cov["contract events archived"]++
			}
			l.check(t, "events of "+cid, jsonapi.AppendContractEvents(nil, te))
		}
		parties := l.partyIDs(f)
		tc, terr := l.n.Contract(l.typedCtx, value.ContractID(cid), parties)
		checkGolden(t, "contract "+cid+" refusal", []byte(codeOf(terr)))
		if terr == nil {
			cov["contract by id"]++
			l.check(t, "contract "+cid, jsonapi.AppendContractResponse(nil, tc))
		}
	}
}

// check compares an emitter's answer with the golden answer named what
// (the Node's JSON read's, recorded) with l.same.
func (l *emitLedger) check(t *testing.T, what string, got []byte) bool {
	t.Helper()
	want, ok := goldenWant(t, goldenKey(t, what), got)
	return ok && l.same(t, what, want, got)
}

func updateID(u update.Update) string {
	switch x := u.(type) {
	case *update.Transaction:
		return x.UpdateID
	case *update.Reassignment:
		return x.UpdateID
	case *update.TopologyTransaction:
		return x.UpdateID
	}
	return ""
}

// TestEmitCheckpoint: an offset checkpoint as the JSON read's
// OffsetCheckpoint update.
func TestEmitCheckpoint(t *testing.T) {
	t.Parallel()
	c := &update.OffsetCheckpoint{Offset: 42, SynchronizerTimes: []update.SynchronizerTime{
		{SynchronizerID: emitSyncs[0], RecordTime: mustTime(t, "2025-01-28T14:49:33.525551Z")},
		{SynchronizerID: emitSyncs[1], RecordTime: mustTime(t, "2025-01-28T14:49:33Z")}}}
	want := jsonapi.GetUpdatesResponse{Update: jsonapi.Update{OffsetCheckpoint: &jsonapi.Wrapped[jsonapi.OffsetCheckpoint]{Value: jsonapi.OffsetCheckpoint{
		Offset: 42, SynchronizerTimes: []jsonapi.SynchronizerTime{{SynchronizerID: emitSyncs[0], RecordTime: "2025-01-28T14:49:33.525551Z"},
			{SynchronizerID: emitSyncs[1], RecordTime: "2025-01-28T14:49:33Z"}}}}}}
	sameWire(t, "checkpoint", wire(t, want), jsonapi.AppendUpdateResponse(nil, c))
	empty := &update.OffsetCheckpoint{Offset: 1, SynchronizerTimes: []update.SynchronizerTime{}}
	sameWire(t, "checkpoint without synchronizers", wire(t, jsonapi.Update{OffsetCheckpoint: &jsonapi.Wrapped[jsonapi.OffsetCheckpoint]{
		Value: jsonapi.OffsetCheckpoint{Offset: 1, SynchronizerTimes: []jsonapi.SynchronizerTime{}}}}), jsonapi.AppendUpdate(nil, empty))
}

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestEmitMatchesJSONReadsEscapes: with Daml texts holding <, >, &,
// U+2028 and control characters, the emitters write the JSON read's
// bytes from stored values; from decoded values they write the same JSON
// (the same tokens in the same order) but not the same bytes: the node
// stores Daml values HTML-escaped (its log encoding is json.Marshal's)
// and the JSON read serves them as stored ("\u003c"), while
// value.AppendJSON prints a decoded text as Canton's JSON API does ("<";
// only ", \\ and control characters are escaped in Daml values).
func TestEmitMatchesJSONReadsEscapes(t *testing.T) {
	useGolden(t)
	deterministicRandom(t)
	fixture := newEmitLedger(t, []string{"<b>&amp;</b>", "line\u2028sep\u2029par", "ctl\x01\x1f\x7f", `q"b\\`})
	for _, m := range emitModes {
		t.Run(m.name, func(t *testing.T) {
			l := fixture.in(m)
			differs := 0
			l.same = func(t testing.TB, what string, want, got []byte) bool {
				t.Helper()
				if m.name == "stored" {
					return sameWire(t, what, want, got)
				}
				if !bytes.Equal(want, got) {
					differs++
				}
				return sameTokens(t, what, want, got)
			}
			cov := emitCoverage{}
			for _, f := range []format{emitFormats[0], emitFormats[len(emitFormats)-1]} {
				t.Run(f.name, func(t *testing.T) {
					l.compareReads(t, f, cov)
				})
			}
			m.checkValues(t, cov)
			if m.name == "decoded" && differs == 0 {
				t.Errorf("no answer differs in bytes: the fixture's texts no longer need escaping")
			}
		})
	}
}

// sameTokens reports whether two JSON texts are the same tokens in the
// same order (strings compared unescaped, numbers as written).
func sameTokens(t testing.TB, what string, want, got []byte) bool {
	t.Helper()
	dw, dg := json.NewDecoder(bytes.NewReader(want)), json.NewDecoder(bytes.NewReader(got))
	dw.UseNumber()
	dg.UseNumber()
	for i := 0; ; i++ {
		tw, ew := dw.Token()
		tg, eg := dg.Token()
		if ew == io.EOF && eg == io.EOF {
			return true
		}
		if ew != nil || eg != nil || tw != tg {
			t.Errorf("%s: token %d: JSON read %v (%v), emitter %v (%v)\nJSON read: %s\nemitter:   %s", what, i, tw, ew, tg, eg, want, got)
			return false
		}
	}
}
