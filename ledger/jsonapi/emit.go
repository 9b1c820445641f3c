package jsonapi

import (
	"encoding/base64"
	"slices"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/internal/rawjson"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// The emitters: the typed reads of a *ledger.Node (transactions, events,
// reassignments, topology updates, pages of updates and of active
// contracts) written as the JSON Ledger API v2 (3.5) shows them, straight
// into a byte slice. Canton's JSON API renders these from the gRPC
// messages with its Js* codecs (community/ledger/ledger-json-api,
// http/json/v2/JsSchema.scala, JsUpdateService.scala,
// JsStateService.scala): every field present (null for an absent
// optional, [] for an empty list), one-ofs as {"Variant": …} with or
// without the "value" layer as the codec declares it, Daml values in the
// Daml-LF JSON encoding, times as Java's Instant.toString, bytes as
// padded base64.
//
// The bytes are those httpadapter writes today for the same read through
// the JSON structs of package ledger (encoding/json with HTML escaping
// off, fields in the structs' order), so that the JSON reads can move
// onto the typed reads without a change on the wire; emit_test.go checks
// it read by read.
//
// Daml values: a typed read whose context asks for stored values
// (rawjson.WithStoredValues) holds them as the node stored them
// (rawjson.Value), and the emitters copy those bytes: no decoding, and
// the JSON read's bytes exactly. Any other value — a decoded one, or one
// a caller built — is printed by value.AppendJSON, which prints a
// decoded value as the node stored it (the canonical encoding of
// value.CheckValue) with one difference in escapes only: the node stores
// values HTML-escaped (its log is json.Marshal's encoding), so the JSON
// read serves a Daml text's <, >, &, U+2028 and U+2029 as \u003c …
// \u2029, where value.AppendJSON prints them as they are, as Canton's
// JSON API does (the same JSON; emit_test.go checks that too).

// AppendCreatedEvent appends a created event (Canton's CreatedEvent,
// JsSchema's codec).
func AppendCreatedEvent(dst []byte, e *update.CreatedEvent) []byte {
	dst = appendEventHead(dst, e.Offset, e.NodeID, e.ContractID, e.TemplateID)
	dst = append(dst, `,"contractKey":`...)
	dst = appendValue(dst, e.Key)
	// The node does not compute key hashes: "" as the JSON read has it.
	dst = append(dst, `,"contractKeyHash":"","createArgument":`...)
	dst = appendValue(dst, e.Argument)
	dst = append(dst, `,"createdEventBlob":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, e.Blob)
	dst = append(dst, `","interfaceViews":[`...)
	for i := range e.InterfaceViews {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendInterfaceView(dst, &e.InterfaceViews[i])
	}
	dst = append(dst, `],"witnessParties":`...)
	dst = appendStrings(dst, e.WitnessParties)
	dst = append(dst, `,"signatories":`...)
	dst = appendStrings(dst, e.Signatories)
	dst = append(dst, `,"observers":`...)
	dst = appendStrings(dst, e.Observers)
	dst = append(dst, `,"createdAt":`...)
	dst = appendTime(dst, e.CreatedAt)
	dst = append(dst, `,"packageName":`...)
	dst = appendString(dst, e.PackageName)
	// The representative package is the package the contract was
	// created with (ledgernode does not re-home contracts on upgrades).
	dst = append(dst, `,"representativePackageId":`...)
	dst = appendString(dst, e.TemplateID.PackageID)
	dst = append(dst, `,"acsDelta":`...)
	dst = strconv.AppendBool(dst, e.ACSDelta)
	return append(dst, '}')
}

// appendEventHead opens an event of a transaction with the fields every
// kind starts with: offset, node id, contract id and template id.
func appendEventHead(dst []byte, offset int64, node int32, cid value.ContractID, tid lf.TypeConID) []byte {
	dst = append(dst, `{"offset":`...)
	dst = strconv.AppendInt(dst, offset, 10)
	dst = append(dst, `,"nodeId":`...)
	dst = strconv.AppendInt(dst, int64(node), 10)
	dst = append(dst, `,"contractId":`...)
	dst = appendString(dst, string(cid))
	dst = append(dst, `,"templateId":`...)
	return appendTypeCon(dst, tid)
}

// appendInterfaceView appends an interface view: its status (code 0 and
// the view value, or the error), and the implementing package.
func appendInterfaceView(dst []byte, v *update.InterfaceView) []byte {
	dst = append(dst, `{"interfaceId":`...)
	dst = appendTypeCon(dst, v.InterfaceID)
	dst = append(dst, `,"viewStatus":{"code":`...)
	if v.Err != nil {
		dst = strconv.AppendInt(dst, int64(v.Err.Code), 10)
		dst = append(dst, `,"message":`...)
		dst = appendString(dst, v.Err.Message)
		dst = append(dst, `,"details":[]}`...)
	} else {
		dst = append(dst, `0,"message":"","details":[]}`...)
		if v.Value != nil {
			dst = append(dst, `,"viewValue":`...)
			dst = appendValue(dst, v.Value)
		}
	}
	dst = append(dst, `,"implementationPackageId":`...)
	dst = appendString(dst, v.ImplementationPackageID)
	return append(dst, '}')
}

// AppendArchivedEvent appends an archived event.
func AppendArchivedEvent(dst []byte, e *update.ArchivedEvent) []byte {
	dst = appendEventHead(dst, e.Offset, e.NodeID, e.ContractID, e.TemplateID)
	dst = append(dst, `,"witnessParties":`...)
	dst = appendStrings(dst, e.WitnessParties)
	dst = append(dst, `,"packageName":`...)
	dst = appendString(dst, e.PackageName)
	dst = append(dst, `,"implementedInterfaces":`...)
	dst = appendTypeCons(dst, e.ImplementedInterfaces)
	return append(dst, '}')
}

// AppendExercisedEvent appends an exercised event.
func AppendExercisedEvent(dst []byte, e *update.ExercisedEvent) []byte {
	dst = appendEventHead(dst, e.Offset, e.NodeID, e.ContractID, e.TemplateID)
	dst = append(dst, `,"interfaceId":`...)
	if e.InterfaceID != nil {
		dst = appendTypeCon(dst, *e.InterfaceID)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"choice":`...)
	dst = appendString(dst, e.Choice)
	dst = append(dst, `,"choiceArgument":`...)
	dst = appendValue(dst, e.Argument)
	dst = append(dst, `,"actingParties":`...)
	dst = appendStrings(dst, e.ActingParties)
	dst = append(dst, `,"consuming":`...)
	dst = strconv.AppendBool(dst, e.Consuming)
	dst = append(dst, `,"witnessParties":`...)
	dst = appendStrings(dst, e.WitnessParties)
	dst = append(dst, `,"lastDescendantNodeId":`...)
	dst = strconv.AppendInt(dst, int64(e.LastDescendantNodeID), 10)
	dst = append(dst, `,"exerciseResult":`...)
	dst = appendValue(dst, e.Result)
	dst = append(dst, `,"packageName":`...)
	dst = appendString(dst, e.PackageName)
	dst = append(dst, `,"implementedInterfaces":`...)
	dst = appendTypeCons(dst, e.ImplementedInterfaces)
	dst = append(dst, `,"acsDelta":`...)
	dst = strconv.AppendBool(dst, e.ACSDelta)
	return append(dst, '}')
}

// AppendEvent appends an event of a transaction: {"CreatedEvent": {…}},
// {"ArchivedEvent": {…}} or {"ExercisedEvent": {…}} (JsEvent: no value
// layer).
func AppendEvent(dst []byte, e update.Event) []byte {
	switch x := e.(type) {
	case *update.CreatedEvent:
		dst = append(dst, `{"CreatedEvent":`...)
		dst = AppendCreatedEvent(dst, x)
	case *update.ArchivedEvent:
		dst = append(dst, `{"ArchivedEvent":`...)
		dst = AppendArchivedEvent(dst, x)
	case *update.ExercisedEvent:
		dst = append(dst, `{"ExercisedEvent":`...)
		dst = AppendExercisedEvent(dst, x)
	default:
		return append(dst, "{}"...)
	}
	return append(dst, '}')
}

// AppendTransaction appends a transaction (JsTransaction). The trace
// context, external transaction hash and paid traffic cost, which the
// node does not have, are null.
func AppendTransaction(dst []byte, t *update.Transaction) []byte {
	dst = append(dst, `{"updateId":`...)
	dst = appendString(dst, t.UpdateID)
	dst = append(dst, `,"commandId":`...)
	dst = appendString(dst, t.CommandID)
	dst = append(dst, `,"workflowId":`...)
	dst = appendString(dst, t.WorkflowID)
	dst = append(dst, `,"effectiveAt":`...)
	dst = appendTime(dst, t.EffectiveAt)
	dst = append(dst, `,"events":[`...)
	for i, e := range t.Events {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendEvent(dst, e)
	}
	dst = append(dst, `],"offset":`...)
	dst = strconv.AppendInt(dst, t.Offset, 10)
	dst = append(dst, `,"synchronizerId":`...)
	dst = appendString(dst, t.SynchronizerID)
	dst = append(dst, `,"traceContext":null,"recordTime":`...)
	dst = appendTime(dst, t.RecordTime)
	return append(dst, `,"externalTransactionHash":null,"paidTrafficCost":null}`...)
}

// AppendTransactionTree appends a transaction read in the ledger-effects
// shape as the deprecated tree (JsTransactionTree): its created and
// exercised events keyed by node id, {"CreatedTreeEvent": {"value": …}}
// and {"ExercisedTreeEvent": {"value": …}}. The keys are in the order
// of their text, as the JSON read writes its map; archived events (not
// part of the ledger-effects shape) are left out.
func AppendTransactionTree(dst []byte, t *update.Transaction) []byte {
	dst = append(dst, `{"updateId":`...)
	dst = appendString(dst, t.UpdateID)
	dst = append(dst, `,"commandId":`...)
	dst = appendString(dst, t.CommandID)
	dst = append(dst, `,"workflowId":`...)
	dst = appendString(dst, t.WorkflowID)
	dst = append(dst, `,"effectiveAt":`...)
	dst = appendTime(dst, t.EffectiveAt)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, t.Offset, 10)
	dst = append(dst, `,"eventsById":{`...)
	for i, e := range treeOrder(t.Events) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(e.Node()), 10)
		switch x := e.(type) {
		case *update.CreatedEvent:
			dst = append(dst, `":{"CreatedTreeEvent":{"value":`...)
			dst = AppendCreatedEvent(dst, x)
		case *update.ExercisedEvent:
			dst = append(dst, `":{"ExercisedTreeEvent":{"value":`...)
			dst = AppendExercisedEvent(dst, x)
		}
		dst = append(dst, "}}"...)
	}
	dst = append(dst, `},"synchronizerId":`...)
	dst = appendString(dst, t.SynchronizerID)
	dst = append(dst, `,"traceContext":null,"recordTime":`...)
	dst = appendTime(dst, t.RecordTime)
	return append(dst, '}')
}

// treeOrder returns the created and exercised events in the order of
// their node ids' decimal text (encoding/json's order of map keys), the
// last one kept for a node id met twice.
func treeOrder(events []update.Event) []update.Event {
	out := make([]update.Event, 0, len(events))
	for _, e := range events {
		switch e.(type) {
		case *update.CreatedEvent, *update.ExercisedEvent:
			out = append(out, e)
		}
	}
	// Node ids sort as the JSON API sorts its map keys, by their decimal
	// text (compareDecimalText, on the stack: no allocation).
	slices.SortStableFunc(out, func(a, b update.Event) int { return compareDecimalText(a.Node(), b.Node()) })
	// A map holds one event per key: keep the last of equal ids.
	w := 0
	for i := range out {
		if i+1 < len(out) && out[i+1].Node() == out[i].Node() {
			continue
		}
		out[w] = out[i]
		w++
	}
	return out[:w]
}

// compareDecimalText compares the decimal texts of a and b as strings.
func compareDecimalText(a, b int32) int {
	if a == b {
		return 0
	}
	var ba, bb [12]byte
	sa := strconv.AppendInt(ba[:0], int64(a), 10)
	sb := strconv.AppendInt(bb[:0], int64(b), 10)
	for i := 0; i < len(sa) && i < len(sb); i++ {
		if sa[i] != sb[i] {
			return int(sa[i]) - int(sb[i])
		}
	}
	return len(sa) - len(sb)
}

// AppendReassignment appends a reassignment (JsReassignment): its events
// are {"JsAssignmentEvent": {…}} (no value layer) and
// {"JsUnassignedEvent": {"value": {…}}}.
func AppendReassignment(dst []byte, r *update.Reassignment) []byte {
	dst = append(dst, `{"updateId":`...)
	dst = appendString(dst, r.UpdateID)
	dst = append(dst, `,"commandId":`...)
	dst = appendString(dst, r.CommandID)
	dst = append(dst, `,"workflowId":`...)
	dst = appendString(dst, r.WorkflowID)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, r.Offset, 10)
	dst = append(dst, `,"events":[`...)
	for i, e := range r.Events {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch x := e.(type) {
		case *update.AssignedEvent:
			dst = append(dst, `{"JsAssignmentEvent":{"source":`...)
			dst = appendString(dst, x.Source)
			dst = append(dst, `,"target":`...)
			dst = appendString(dst, x.Target)
			dst = append(dst, `,"reassignmentId":`...)
			dst = appendString(dst, x.ReassignmentID)
			dst = append(dst, `,"submitter":`...)
			dst = appendString(dst, x.Submitter)
			dst = append(dst, `,"reassignmentCounter":`...)
			dst = strconv.AppendInt(dst, x.ReassignmentCounter, 10)
			dst = append(dst, `,"createdEvent":`...)
			dst = AppendCreatedEvent(dst, x.Created)
			dst = append(dst, "}}"...)
		case *update.UnassignedEvent:
			dst = append(dst, `{"JsUnassignedEvent":{"value":`...)
			dst = AppendUnassignedEvent(dst, x)
			dst = append(dst, "}}"...)
		default:
			dst = append(dst, "{}"...)
		}
	}
	dst = append(dst, `],"traceContext":null,"recordTime":`...)
	dst = appendTime(dst, r.RecordTime)
	dst = append(dst, `,"synchronizerId":`...)
	dst = appendString(dst, r.SynchronizerID)
	return append(dst, `,"paidTrafficCost":null}`...)
}

// AppendUnassignedEvent appends an unassigned event (JsUnassignedEvent's
// payload); a zero AssignmentExclusivity is null.
func AppendUnassignedEvent(dst []byte, e *update.UnassignedEvent) []byte {
	dst = append(dst, `{"reassignmentId":`...)
	dst = appendString(dst, e.ReassignmentID)
	dst = append(dst, `,"contractId":`...)
	dst = appendString(dst, string(e.ContractID))
	dst = append(dst, `,"templateId":`...)
	dst = appendTypeCon(dst, e.TemplateID)
	dst = append(dst, `,"source":`...)
	dst = appendString(dst, e.Source)
	dst = append(dst, `,"target":`...)
	dst = appendString(dst, e.Target)
	dst = append(dst, `,"submitter":`...)
	dst = appendString(dst, e.Submitter)
	dst = append(dst, `,"reassignmentCounter":`...)
	dst = strconv.AppendInt(dst, e.ReassignmentCounter, 10)
	dst = append(dst, `,"assignmentExclusivity":`...)
	if e.AssignmentExclusivity.IsZero() {
		dst = append(dst, "null"...)
	} else {
		dst = appendTime(dst, e.AssignmentExclusivity)
	}
	dst = append(dst, `,"witnessParties":`...)
	dst = appendStrings(dst, e.WitnessParties)
	dst = append(dst, `,"packageName":`...)
	dst = appendString(dst, e.PackageName)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, e.Offset, 10)
	dst = append(dst, `,"nodeId":`...)
	dst = strconv.AppendInt(dst, int64(e.NodeID), 10)
	return append(dst, '}')
}

// AppendTopologyTransaction appends a topology update
// (JsTopologyTransaction): each event {"event": {"<Change>": {"value":
// {…}}}}, the permission left out when it is empty.
func AppendTopologyTransaction(dst []byte, t *update.TopologyTransaction) []byte {
	dst = append(dst, `{"updateId":`...)
	dst = appendString(dst, t.UpdateID)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, t.Offset, 10)
	dst = append(dst, `,"synchronizerId":`...)
	dst = appendString(dst, t.SynchronizerID)
	dst = append(dst, `,"recordTime":`...)
	dst = appendTime(dst, t.RecordTime)
	dst = append(dst, `,"events":`...)
	if t.Events == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, e := range t.Events {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"event":{`...)
			switch e.Change {
			case update.AuthorizationAdded:
				dst = append(dst, `"ParticipantAuthorizationAdded"`...)
			case update.AuthorizationChanged:
				dst = append(dst, `"ParticipantAuthorizationChanged"`...)
			default:
				dst = append(dst, `"ParticipantAuthorizationRevoked"`...)
			}
			dst = append(dst, `:{"value":{"partyId":`...)
			dst = appendString(dst, e.PartyID)
			dst = append(dst, `,"participantId":`...)
			dst = appendString(dst, e.ParticipantID)
			if e.Permission != "" {
				dst = append(dst, `,"participantPermission":`...)
				dst = appendString(dst, string(e.Permission))
			}
			dst = append(dst, "}}}}"...)
		}
		dst = append(dst, ']')
	}
	return append(dst, `,"traceContext":null}`...)
}

// AppendCheckpoint appends an offset checkpoint (OffsetCheckpoint).
func AppendCheckpoint(dst []byte, c *update.OffsetCheckpoint) []byte {
	dst = append(dst, `{"offset":`...)
	dst = strconv.AppendInt(dst, c.Offset, 10)
	dst = append(dst, `,"synchronizerTimes":[`...)
	for i, s := range c.SynchronizerTimes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"synchronizerId":`...)
		dst = appendString(dst, s.SynchronizerID)
		// Checkpoints always carry a time (the JSON read prints a zero
		// one too).
		dst = append(dst, `,"recordTime":"`...)
		dst = wiretime.Append(dst, s.RecordTime)
		dst = append(dst, `"}`...)
	}
	return append(dst, "]}"...)
}

// AppendUpdate appends an update as the one-of of the updates stream and
// page (Update): {"Transaction": {"value": …}}, {"Reassignment":
// {"value": …}}, {"TopologyTransaction": {"value": …}} or
// {"OffsetCheckpoint": {"value": …}}.
func AppendUpdate(dst []byte, u update.Update) []byte {
	switch x := u.(type) {
	case *update.Transaction:
		dst = append(dst, `{"Transaction":{"value":`...)
		dst = AppendTransaction(dst, x)
	case *update.Reassignment:
		dst = append(dst, `{"Reassignment":{"value":`...)
		dst = AppendReassignment(dst, x)
	case *update.TopologyTransaction:
		dst = append(dst, `{"TopologyTransaction":{"value":`...)
		dst = AppendTopologyTransaction(dst, x)
	case *update.OffsetCheckpoint:
		dst = append(dst, `{"OffsetCheckpoint":{"value":`...)
		dst = AppendCheckpoint(dst, x)
	default:
		return append(dst, "{}"...)
	}
	return append(dst, "}}"...)
}

// AppendTreeUpdate appends an update as the one-of of the deprecated
// trees stream (Update1): a transaction as {"TransactionTree": {"value":
// …}} (AppendTransactionTree), the others as AppendUpdate writes them
// (the trees stream has no topology transactions: its reads do not ask
// for them).
func AppendTreeUpdate(dst []byte, u update.Update) []byte {
	if t, ok := u.(*update.Transaction); ok {
		dst = append(dst, `{"TransactionTree":{"value":`...)
		dst = AppendTransactionTree(dst, t)
		return append(dst, "}}"...)
	}
	return AppendUpdate(dst, u)
}

// AppendUpdateResponse appends {"update": …}, an element of the updates
// stream and the answer of update-by-id and update-by-offset
// (JsGetUpdatesResponse, JsGetUpdateResponse).
func AppendUpdateResponse(dst []byte, u update.Update) []byte {
	dst = append(dst, `{"update":`...)
	dst = AppendUpdate(dst, u)
	return append(dst, '}')
}

// AppendTreeUpdateResponse appends {"update": …}, an element of the
// deprecated trees stream (JsGetUpdateTreesResponse).
func AppendTreeUpdateResponse(dst []byte, u update.Update) []byte {
	dst = append(dst, `{"update":`...)
	dst = AppendTreeUpdate(dst, u)
	return append(dst, '}')
}

// AppendUpdatesPage appends a page of updates (GetUpdatesPageResponse):
// its updates, bounds and next page token (base64, null on the last
// page).
func AppendUpdatesPage(dst []byte, p *ledger.UpdatePage) []byte {
	dst = append(dst, `{"updates":[`...)
	for i, u := range p.Updates {
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = AppendUpdateResponse(dst, u)
		if i == 0 {
			dst = growFor(dst, len(dst)-start, len(p.Updates)-1)
		}
	}
	return appendUpdatesPageEnd(dst, p)
}

// appendUpdatesPageEnd appends what follows a page's updates: the end
// of the list, the page's bounds and its token, and the closing brace.
func appendUpdatesPageEnd(dst []byte, p *ledger.UpdatePage) []byte {
	dst = append(dst, `],"lowestPageOffsetExclusive":`...)
	dst = strconv.AppendInt(dst, p.Lowest, 10)
	dst = append(dst, `,"highestPageOffsetInclusive":`...)
	dst = strconv.AppendInt(dst, p.Highest, 10)
	dst = append(dst, `,"nextPageToken":`...)
	dst = appendToken(dst, p.NextToken)
	return append(dst, '}')
}

// AppendTransactionResponse appends {"transaction": …}, the answer of
// the deprecated transaction-by-id and -by-offset
// (JsGetTransactionResponse).
func AppendTransactionResponse(dst []byte, t *update.Transaction) []byte {
	dst = append(dst, `{"transaction":`...)
	dst = AppendTransaction(dst, t)
	return append(dst, '}')
}

// AppendTransactionTreeResponse appends {"transaction": …} with the
// tree of t, the answer of the deprecated transaction-tree-by-id and
// -by-offset (JsGetTransactionTreeResponse).
func AppendTransactionTreeResponse(dst []byte, t *update.Transaction) []byte {
	dst = append(dst, `{"transaction":`...)
	dst = AppendTransactionTree(dst, t)
	return append(dst, '}')
}

// AppendActiveContract appends an element of the active contracts
// (JsGetActiveContractsResponse): the contract's workflow id, its entry
// ({"JsActiveContract": {…}} or, in transit, {"JsIncompleteUnassigned":
// {…}}, no value layer) and an empty stream continuation token (the
// node does not resume ACS streams).
func AppendActiveContract(dst []byte, c *ledger.PagedContract) []byte {
	dst = append(dst, `{"workflowId":`...)
	dst = appendString(dst, c.WorkflowID)
	if c.Unassigned != nil {
		dst = append(dst, `,"contractEntry":{"JsIncompleteUnassigned":{"createdEvent":`...)
		dst = AppendCreatedEvent(dst, c.Created)
		dst = append(dst, `,"unassignedEvent":`...)
		dst = AppendUnassignedEvent(dst, c.Unassigned)
	} else {
		dst = append(dst, `,"contractEntry":{"JsActiveContract":{"createdEvent":`...)
		dst = AppendCreatedEvent(dst, c.Created)
		dst = append(dst, `,"synchronizerId":`...)
		dst = appendString(dst, c.SynchronizerID)
		dst = append(dst, `,"reassignmentCounter":`...)
		dst = strconv.AppendInt(dst, c.ReassignmentCounter, 10)
	}
	return append(dst, `}},"streamContinuationToken":""}`...)
}

// AppendContractPage appends a page of active contracts
// (GetActiveContractsPageResponse).
func AppendContractPage(dst []byte, p *ledger.ContractPage) []byte {
	dst = append(dst, `{"activeContracts":[`...)
	for i := range p.Contracts {
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = AppendActiveContract(dst, &p.Contracts[i])
		if i == 0 {
			dst = growFor(dst, len(dst)-start, len(p.Contracts)-1)
		}
	}
	dst = append(dst, `],"activeAtOffset":`...)
	dst = strconv.AppendInt(dst, p.At, 10)
	dst = append(dst, `,"nextPageToken":`...)
	dst = appendToken(dst, p.NextToken)
	return append(dst, '}')
}

// AppendContractEvents appends a contract's events
// (GetEventsByContractIdResponse): {"created": {"createdEvent": …,
// "synchronizerId": …}, "archived": null or {"archivedEvent": …,
// "synchronizerId": …}}.
func AppendContractEvents(dst []byte, e *ledger.ContractEvents) []byte {
	dst = append(dst, `{"created":`...)
	if e.Created == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, `{"createdEvent":`...)
		dst = AppendCreatedEvent(dst, e.Created)
		dst = append(dst, `,"synchronizerId":`...)
		dst = appendString(dst, e.CreatedSynchronizerID)
		dst = append(dst, '}')
	}
	dst = append(dst, `,"archived":`...)
	if e.Archived == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, `{"archivedEvent":`...)
		dst = AppendArchivedEvent(dst, e.Archived)
		dst = append(dst, `,"synchronizerId":`...)
		dst = appendString(dst, e.ArchivedSynchronizerID)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// AppendContractResponse appends {"createdEvent": …}, the answer of
// contract-by-id (GetContractResponse).
func AppendContractResponse(dst []byte, e *update.CreatedEvent) []byte {
	dst = append(dst, `{"createdEvent":`...)
	dst = AppendCreatedEvent(dst, e)
	return append(dst, '}')
}

// growFor makes room in dst for n more elements the size of the first
// one (and an eighth more), so that a page is written with one or two
// allocations rather than a doubling per size class; at most 64 MiB are
// reserved ahead.
func growFor(dst []byte, first, n int) []byte {
	want := min((first+1)*n, 64<<20)
	return slices.Grow(dst, want+want/8+64)
}

// appendToken appends a page token as base64 text, null when there is
// none.
func appendToken(dst, tok []byte) []byte {
	if tok == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, tok)
	return append(dst, '"')
}

// appendValue appends a Daml value in the Daml-LF JSON encoding: a
// stored one as it is, nil (no key, no stored result) as null.
func appendValue(dst []byte, v value.Value) []byte {
	return rawjson.AppendJSON(dst, v)
}

// appendTime appends a time as Java's Instant.toString prints it; the
// zero time (a time the node did not record) is "".
func appendTime(dst []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(dst, `""`...)
	}
	dst = append(dst, '"')
	dst = wiretime.Append(dst, t)
	return append(dst, '"')
}

// appendTypeCon appends an identifier as "<packageId>:<Module>:<Entity>".
func appendTypeCon(dst []byte, id lf.TypeConID) []byte {
	dst = append(dst, '"')
	dst = appendStringBody(dst, id.PackageID)
	dst = append(dst, ':')
	dst = appendStringBody(dst, id.Module)
	dst = append(dst, ':')
	dst = appendStringBody(dst, id.Name)
	return append(dst, '"')
}

// appendTypeCons appends a list of identifiers ([] when empty).
func appendTypeCons(dst []byte, ids []lf.TypeConID) []byte {
	dst = append(dst, '[')
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTypeCon(dst, id)
	}
	return append(dst, ']')
}

// appendStrings appends a list of strings ([] when empty: the wire has
// no null lists).
func appendStrings(dst []byte, l []string) []byte {
	dst = append(dst, '[')
	for i, s := range l {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

// appendString appends s as a JSON string as httpadapter's encoder
// writes it (encoding/json without HTML escaping): ", \ and control
// characters escaped (\b, \f, \n, \r, \t, else \u00XX), U+2028 and
// U+2029 escaped, invalid UTF-8 replaced by \ufffd.
func appendString(dst []byte, s string) []byte { return jsontext.AppendString(dst, s, false) }

// appendStringBody is appendString without the quotes.
func appendStringBody(dst []byte, s string) []byte { return jsontext.AppendStringBody(dst, s, false) }
