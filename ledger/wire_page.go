package ledger

import (
	"errors"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/internal/wirepage"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
)

// The JSON page's plain transactions, written from their stored entries
// (ledger/internal/wirepage says why and when). This is the one place
// package ledger writes the JSON Ledger API's text: the JSON of a
// transaction and of its events as ledger/jsonapi's emitters
// (AppendUpdateResponse, AppendTransaction, AppendCreatedEvent,
// AppendArchivedEvent, AppendExercisedEvent) write the typed transaction
// the typed renderer (render.go) makes of the same entry, for the same
// events (visibleEvents). Those emitters are the reference:
// TestWirePageSameAsTyped compares the two byte for byte for every
// format, shape and order of the emit fixture.

// wirePage writes the plain transactions of one page read.
type wirePage struct {
	p *wirepage.Page
	// stakeholders is visibleEvents' scratch.
	stakeholders []string
	// The page's entries are read with their names lent
	// (scanRawNames); one the typed renderer is to write is decoded
	// again into entry, its names interned in names (the renderer's
	// caches keep them), its other strings lent.
	entry logEntry
	names internTable
	lent  lentEntries
}

// interned decodes a stored entry again with interned names, for the
// typed renderer; the entry is valid until the next call.
func (wp *wirePage) interned(raw []byte) (*logEntry, error) {
	wp.entry = logEntry{}
	err := decodeLogEntryLent(raw, &wp.entry, &wp.names, &wp.lent)
	return &wp.entry, err
}

// wireDone is what wirePage.transaction did with an entry.
type wireDone uint8

const (
	// wireTyped: left to the typed renderer, the page unchanged.
	wireTyped wireDone = iota
	// wireWritten: written to the page.
	wireWritten
	// wireInvisible: nothing of it is visible (the typed renderer would
	// render nothing either), the page unchanged.
	wireInvisible
)

// transaction appends e to the page as it shows it, when no event the
// format shows of it has a blob or interface views (nor implements an
// interface a filter names), each stored time is in its wire form and
// each template and interface id in the form appendTypeCon writes.
func (wp *wirePage) transaction(e *logEntry, effects bool, ef *eventFilter) wireDone {
	p := wp.p
	// A plain entry's times and ids are in the forms copied (wireForms,
	// checked when it was written); another's are checked here.
	if !e.plain && (!wireTime(e.EffectiveAt) || !wireTime(e.RecordTime)) {
		return wireTyped
	}
	start, n := len(p.Out), p.N
	p.Sep()
	out := append(p.Out, `{"update":{"Transaction":{"value":{"updateId":`...)
	out = appendWireString(out, e.UpdateID, e.plain)
	out = append(out, `,"commandId":`...)
	out = appendWireString(out, e.CommandID, e.plain)
	out = append(out, `,"workflowId":`...)
	out = appendWireString(out, e.WorkflowID, e.plain)
	out = append(out, `,"effectiveAt":"`...)
	out = append(out, e.EffectiveAt...)
	out = append(out, `","events":[`...)
	events := 0
	err := visibleEvents(e, effects, ef, &wp.stakeholders, func(k eventKind, nd *txNode, w []string, m filterMatch, acs bool) error {
		if m.blob || len(m.ifaces) > 0 || !e.plain && !nd.wireForms(e.EffectiveAt) {
			return errNotWire
		}
		sep := events > 0
		switch k {
		case evCreated:
			out = appendWireCreated(appendSep(out, sep), e, nd, w, acs)
		case evArchived:
			out = appendWireArchived(appendSep(out, sep), e, nd, w)
		default:
			out = appendWireExercised(appendSep(out, sep), e, nd, w, acs)
		}
		events++
		return nil
	})
	if err != nil || events == 0 {
		p.Out, p.N = out[:start], n
		if err == nil {
			return wireInvisible
		}
		return wireTyped
	}
	out = append(out, `],"offset":`...)
	out = strconv.AppendInt(out, e.Offset, 10)
	out = append(out, `,"synchronizerId":`...)
	out = appendWireString(out, e.SynchronizerID, e.plain)
	out = append(out, `,"traceContext":null,"recordTime":"`...)
	out = append(out, e.RecordTime...)
	p.Out = append(out, `","externalTransactionHash":null,"paidTrafficCost":null}}}}`...)
	p.Direct++
	p.Done(e.Offset)
	return wireWritten
}

// errNotWire stops visibleEvents at an event wirePage.transaction leaves to
// the typed renderer.
var errNotWire = errors.New("an event the wire page does not write")

// appendSep appends a comma when sep.
func appendSep(out []byte, sep bool) []byte {
	if sep {
		return append(out, ',')
	}
	return out
}

// appendWireHead opens an event (appendEventHead): its offset, node id,
// contract id and template id.
func appendWireHead(out []byte, kind string, e *logEntry, nd *txNode) []byte {
	out = append(out, kind...)
	out = append(out, `{"offset":`...)
	out = strconv.AppendInt(out, e.Offset, 10)
	out = append(out, `,"nodeId":`...)
	out = strconv.AppendInt(out, int64(nd.ID), 10)
	out = append(out, `,"contractId":`...)
	out = appendWireString(out, nd.ContractID, e.plain)
	out = append(out, `,"templateId":`...)
	return appendWireString(out, nd.TemplateID, e.plain)
}

// appendWireArchived appends an exercise node that archives its contract
// as the archived event of its witnesses w (AppendArchivedEvent; no
// interface filter matched it: no implemented interfaces).
func appendWireArchived(out []byte, e *logEntry, nd *txNode, w []string) []byte {
	out = appendWireHead(out, `{"ArchivedEvent":`, e, nd)
	out = append(out, `,"witnessParties":`...)
	out = appendWireStrings(out, w, e.plain)
	out = append(out, `,"packageName":`...)
	out = appendWireString(out, nd.PackageName, e.plain)
	return append(out, `,"implementedInterfaces":[]}}`...)
}

// appendWireExercised appends an exercise node as the exercised event of
// its witnesses w (AppendExercisedEvent; the stored choice argument and
// result as they are; no interface filter matched it).
func appendWireExercised(out []byte, e *logEntry, nd *txNode, w []string, acs bool) []byte {
	out = appendWireHead(out, `{"ExercisedEvent":`, e, nd)
	out = append(out, `,"interfaceId":`...)
	if nd.InterfaceID != "" {
		out = appendWireString(out, nd.InterfaceID, e.plain)
	} else {
		out = append(out, "null"...)
	}
	out = append(out, `,"choice":`...)
	out = appendWireString(out, nd.Choice, e.plain)
	out = append(out, `,"choiceArgument":`...)
	out = appendStoredValue(out, nd.Argument)
	out = append(out, `,"actingParties":`...)
	out = appendWireStrings(out, nd.Acting, e.plain)
	out = append(out, `,"consuming":`...)
	out = strconv.AppendBool(out, nd.Consuming)
	out = append(out, `,"witnessParties":`...)
	out = appendWireStrings(out, w, e.plain)
	out = append(out, `,"lastDescendantNodeId":`...)
	out = strconv.AppendInt(out, int64(nd.lastDescendant()), 10)
	out = append(out, `,"exerciseResult":`...)
	out = appendStoredValue(out, nd.Result)
	out = append(out, `,"packageName":`...)
	out = appendWireString(out, nd.PackageName, e.plain)
	out = append(out, `,"implementedInterfaces":[],"acsDelta":`...)
	out = strconv.AppendBool(out, acs)
	return append(out, "}}"...)
}

// appendStoredValue appends a stored Daml value as a read of stored
// values has it: its bytes, null for none.
func appendStoredValue(out []byte, raw []byte) []byte {
	if len(raw) == 0 {
		return append(out, "null"...)
	}
	return append(out, raw...)
}

// appendWireCreated appends a create node of e as the created event of
// its witnesses w (AppendCreatedEvent's fields, with no blob and no
// interface views; the stored argument and key as they are, as a read of
// stored values has them).
func appendWireCreated(out []byte, e *logEntry, nd *txNode, w []string, acs bool) []byte {
	out = appendWireHead(out, `{"CreatedEvent":`, e, nd)
	out = append(out, `,"contractKey":`...)
	if len(nd.Key) == 0 || string(nd.Key) == "null" {
		out = append(out, "null"...)
	} else {
		out = append(out, nd.Key...)
	}
	out = append(out, `,"contractKeyHash":"","createArgument":`...)
	out = appendStoredValue(out, nd.Argument)
	out = append(out, `,"createdEventBlob":"","interfaceViews":[],"witnessParties":`...)
	out = appendWireStrings(out, w, e.plain)
	out = append(out, `,"signatories":`...)
	out = appendWireStrings(out, nd.Signatories, e.plain)
	out = append(out, `,"observers":`...)
	out = appendWireStrings(out, nd.Observers, e.plain)
	out = append(out, `,"createdAt":"`...)
	out = append(out, nd.CreatedAt...)
	out = append(out, `","packageName":`...)
	out = appendWireString(out, nd.PackageName, e.plain)
	// The representative package is the template's (AppendCreatedEvent).
	pkg, _, _ := strings.Cut(nd.TemplateID, ":")
	out = append(out, `,"representativePackageId":`...)
	out = appendWireString(out, pkg, e.plain)
	out = append(out, `,"acsDelta":`...)
	out = strconv.AppendBool(out, acs)
	return append(out, "}}"...)
}

// wireForms reports whether the entry's times are in their wire form and
// its nodes' template and interface ids in the form appendTypeCon writes
// (the binary form's entPlain says so of an entry with plain strings).
func (e *logEntry) wireForms() bool {
	if !wireTime(e.EffectiveAt) || !wireTime(e.RecordTime) {
		return false
	}
	for i := range e.Nodes {
		if !e.Nodes[i].wireForms(e.EffectiveAt) {
			return false
		}
	}
	return e.Reassign == nil || e.Reassign.Contract.wireForms(e.EffectiveAt)
}

// wireForms is logEntry.wireForms for one node of an entry whose
// effective time, checked already, is effectiveAt (a create's time most
// often is).
func (n *txNode) wireForms(effectiveAt string) bool {
	return (n.CreatedAt == effectiveAt || wireTime(n.CreatedAt)) && wireTemplateID(n.TemplateID) &&
		(n.InterfaceID == "" || wireTemplateID(n.InterfaceID))
}

// wireTime reports whether a stored time is written as it is: it is the
// wire form (wiretime.Append) of the time the typed renderer reads it as
// (parseStoredTime), as the node stores its times (formatTime), or none
// (""). The zero time's wire form is not: the typed renderer writes "" for
// it. Any other text is left to the typed renderer, which parses it.
func wireTime(s string) bool {
	if s == "" {
		return true
	}
	t, ok := parseStoredTime(s)
	var buf [32]byte
	return ok && !t.IsZero() && string(wiretime.Append(buf[:0], t)) == s
}

// wireTemplateID reports whether a stored template id is written as it
// is: "<packageId>:<Module>:<Entity>" as appendTypeCon writes what
// splitTypeCon reads of it (no package-name reference, no colon more or
// at the end, which the typed renderer reads otherwise or refuses).
func wireTemplateID(s string) bool {
	return s != "" && s[0] != '#' && s[len(s)-1] != ':' && strings.Count(s, ":") == 2
}

// appendWireString appends s as a JSON string; plain says it needs no
// escaping (the entry's entPlain).
func appendWireString(out []byte, s string, plain bool) []byte {
	if !plain {
		return jsontext.AppendString(out, s, false)
	}
	out = append(out, '"')
	out = append(out, s...)
	return append(out, '"')
}

// appendWireStrings appends a list of strings ([] when empty).
func appendWireStrings(out []byte, l []string, plain bool) []byte {
	out = append(out, '[')
	for i, s := range l {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendWireString(out, s, plain)
	}
	return append(out, ']')
}
