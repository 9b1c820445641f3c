package grpcadapter

import (
	"maps"
	"slices"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter/internal/pbvalue"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// This file converts the formats of the reads (EventFormat,
// TransactionFormat, UpdateFormat) to the Node's typed ledger.ReadFormat
// and ledger.UpdateReadFormat, and the Node's typed updates and events to
// their proto messages, as Canton's Ledger API server writes them
// (EventOuterClass, TransactionOuterClass; LfEngineToApi for the values).

// readFormatFromProto converts an event format: each party's filters,
// the filters for any party, each cumulative filter with its own flags.
// The Node checks the rest: parties, rights, identifiers. verbose is the
// format's own flag.
func readFormatFromProto(ef *ledgerv2.EventFormat, field string) (f ledger.ReadFormat, verbose bool, err error) {
	if ef == nil {
		return f, false, missingField(field)
	}
	f.Parties = make(map[string][]ledger.Filter, len(ef.GetFiltersByParty()))
	for _, p := range slices.Sorted(maps.Keys(ef.GetFiltersByParty())) {
		if f.Parties[p], err = filtersFromProto(ef.GetFiltersByParty()[p]); err != nil {
			return f, false, err
		}
	}
	if ef.FiltersForAnyParty != nil {
		fs, err := filtersFromProto(ef.FiltersForAnyParty)
		if err != nil {
			return f, false, err
		}
		f.AnyParty = append([]ledger.Filter{}, fs...)
	}
	f.Verbose = ef.GetVerbose()
	return f, f.Verbose, nil
}

// filtersFromProto converts a party's cumulative filters. A cumulative
// filter with no identifier filter is ledger.NoneFilter, which the node
// reads as Canton's FormatValidator does: every template when all of a
// party's filters are such, else dropped.
func filtersFromProto(fs *ledgerv2.Filters) ([]ledger.Filter, error) {
	var out []ledger.Filter
	for _, c := range fs.GetCumulative() {
		switch x := c.GetIdentifierFilter().(type) {
		case *ledgerv2.CumulativeFilter_WildcardFilter:
			out = append(out, ledger.WildcardFilter(x.WildcardFilter.GetIncludeCreatedEventBlob()))
		case *ledgerv2.CumulativeFilter_TemplateFilter:
			ref, err := filterRef(x.TemplateFilter.GetTemplateId(), "template_id")
			if err != nil {
				return nil, err
			}
			out = append(out, ledger.TemplateFilter(ref, x.TemplateFilter.GetIncludeCreatedEventBlob()))
		case *ledgerv2.CumulativeFilter_InterfaceFilter:
			ref, err := filterRef(x.InterfaceFilter.GetInterfaceId(), "interface_id")
			if err != nil {
				return nil, err
			}
			out = append(out, ledger.InterfaceFilter(ref, x.InterfaceFilter.GetIncludeInterfaceView(), x.InterfaceFilter.GetIncludeCreatedEventBlob()))
		default:
			out = append(out, ledger.NoneFilter())
		}
	}
	return out, nil
}

// filterRef converts a filter's identifier (MISSING_FIELD when absent,
// as Canton's FormatValidator requirePresence).
func filterRef(id *ledgerv2.Identifier, field string) (ledger.TemplateRef, error) {
	if id == nil {
		return ledger.TemplateRef{}, missingField(field)
	}
	return templateRefFromProto(id)
}

// transactionFormatFromProto converts a transaction format: its shape,
// then its event format, as Canton's FormatValidator reads them (an unset
// shape is MISSING_FIELD transaction_shape, a value the enum does not
// have INVALID_ARGUMENT).
func transactionFormatFromProto(tf *ledgerv2.TransactionFormat, field string) (ledger.ReadFormat, bool, error) {
	if tf == nil {
		return ledger.ReadFormat{}, false, missingField(field)
	}
	var shape ledger.Shape
	switch sh := tf.GetTransactionShape(); sh {
	case ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA:
		shape = ledger.ACSDelta
	case ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS:
		shape = ledger.LedgerEffects
	case ledgerv2.TransactionShape_TRANSACTION_SHAPE_UNSPECIFIED:
		return ledger.ReadFormat{}, false, missingField("transaction_shape")
	default:
		return ledger.ReadFormat{}, false, apierr.InvalidArgument.New("transaction_shape is defined with invalid value %d", int32(sh))
	}
	f, verbose, err := readFormatFromProto(tf.GetEventFormat(), "event_format")
	if err != nil {
		return f, false, err
	}
	f.Shape = shape
	return f, verbose, nil
}

// updateFormatFromProto converts an update format: transactions,
// reassignments and topology events, each in its own format (Canton's
// FormatValidator: each optional; none selects nothing, and the reads
// show nothing). verbose is the flag of the transaction
// format's events, else of the reassignments'.
func updateFormatFromProto(uf *ledgerv2.UpdateFormat) (ledger.UpdateReadFormat, updateVerbose, error) {
	var out ledger.UpdateReadFormat
	var v updateVerbose
	if uf == nil {
		return out, v, missingField("update_format")
	}
	if uf.IncludeTransactions != nil {
		f, verbose, err := transactionFormatFromProto(uf.IncludeTransactions, "include_transactions")
		if err != nil {
			return out, v, err
		}
		out.Transactions, v.transactions = &f, verbose
	}
	if uf.IncludeReassignments != nil {
		f, verbose, err := readFormatFromProto(uf.IncludeReassignments, "include_reassignments")
		if err != nil {
			return out, v, err
		}
		out.Reassignments, v.reassignments = &f, verbose
	}
	if t := uf.IncludeTopologyEvents; t != nil {
		out.Topology = &ledger.TopologyReadFormat{}
		if a := t.IncludeParticipantAuthorizationEvents; a != nil {
			out.Topology.ParticipantAuthorizations = append([]string{}, a.GetParties()...)
		}
	}
	return out, v, nil
}

// updateVerbose is the verbose flag of each kind of update of a format.
type updateVerbose struct{ transactions, reassignments bool }

// protoConverter converts the typed events of one read to their proto
// messages, converting each identifier once (the messages share them:
// they are only marshalled).
type protoConverter struct {
	ids map[lf.TypeConID]*ledgerv2.Identifier
}

func (c *protoConverter) id(id lf.TypeConID) *ledgerv2.Identifier {
	if p, ok := c.ids[id]; ok {
		return p
	}
	p := pbvalue.IdentifierToProto(id)
	if c.ids == nil {
		c.ids = map[lf.TypeConID]*ledgerv2.Identifier{}
	}
	if len(c.ids) < 4096 {
		c.ids[id] = p
	}
	return p
}

func (c *protoConverter) idList(ids []lf.TypeConID) []*ledgerv2.Identifier {
	if len(ids) == 0 {
		return nil
	}
	out := make([]*ledgerv2.Identifier, len(ids))
	for i, id := range ids {
		out[i] = c.id(id)
	}
	return out
}

// transactionToProto converts a transaction.
func transactionToProto(t *update.Transaction, verbose bool) (*ledgerv2.Transaction, error) {
	var c protoConverter
	return c.transaction(t, verbose)
}

// createdToProto converts a created event.
func createdToProto(e *update.CreatedEvent, verbose bool) (*ledgerv2.CreatedEvent, error) {
	var c protoConverter
	return c.created(e, verbose)
}

func archivedToProto(e *update.ArchivedEvent) *ledgerv2.ArchivedEvent {
	var c protoConverter
	return c.archived(e)
}

// transaction converts a transaction.
func (c *protoConverter) transaction(t *update.Transaction, verbose bool) (*ledgerv2.Transaction, error) {
	out := &ledgerv2.Transaction{
		UpdateId:       t.UpdateID,
		CommandId:      t.CommandID,
		WorkflowId:     t.WorkflowID,
		EffectiveAt:    timestamp(t.EffectiveAt),
		Offset:         t.Offset,
		SynchronizerId: t.SynchronizerID,
		RecordTime:     timestamp(t.RecordTime),
		Events:         make([]*ledgerv2.Event, 0, len(t.Events)),
	}
	for _, e := range t.Events {
		var pe *ledgerv2.Event
		switch e := e.(type) {
		case *update.CreatedEvent:
			ce, err := c.created(e, verbose)
			if err != nil {
				return nil, err
			}
			b := new(struct {
				ev      ledgerv2.Event
				created ledgerv2.Event_Created
			})
			b.created.Created = ce
			b.ev.Event = &b.created
			pe = &b.ev
		case *update.ArchivedEvent:
			pe = &ledgerv2.Event{Event: &ledgerv2.Event_Archived{Archived: c.archived(e)}}
		case *update.ExercisedEvent:
			pe = &ledgerv2.Event{Event: &ledgerv2.Event_Exercised{Exercised: c.exercised(e, verbose)}}
		default:
			return nil, apierr.InternalError.New("transaction %s: event of type %T", t.UpdateID, e)
		}
		out.Events = append(out.Events, pe)
	}
	return out, nil
}

// created converts a created event. The representative package is the
// template's package, as the Node's JSON events have it.
func (c *protoConverter) created(e *update.CreatedEvent, verbose bool) (*ledgerv2.CreatedEvent, error) {
	args, err := recordToProto(e.Argument, verbose)
	if err != nil {
		return nil, apierr.InternalError.New("contract %s: argument: %v", e.ContractID, err)
	}
	// One allocation for the messages of the event.
	b := new(struct {
		ev      ledgerv2.CreatedEvent
		created timestamppb.Timestamp
	})
	out := &b.ev
	*out = ledgerv2.CreatedEvent{
		Offset:                  e.Offset,
		NodeId:                  e.NodeID,
		ContractId:              string(e.ContractID),
		TemplateId:              c.id(e.TemplateID),
		CreateArguments:         args,
		CreatedEventBlob:        e.Blob,
		WitnessParties:          e.WitnessParties,
		Signatories:             e.Signatories,
		Observers:               e.Observers,
		PackageName:             e.PackageName,
		AcsDelta:                e.ACSDelta,
		RepresentativePackageId: e.TemplateID.PackageID,
	}
	if !e.CreatedAt.IsZero() {
		b.created = timestamppb.Timestamp{Seconds: e.CreatedAt.Unix(), Nanos: int32(e.CreatedAt.Nanosecond())}
		out.CreatedAt = &b.created
	}
	if e.Key != nil {
		out.ContractKey = pbvalue.ToProto(e.Key, verbose)
	}
	for _, v := range e.InterfaceViews {
		pv := &ledgerv2.InterfaceView{InterfaceId: c.id(v.InterfaceID), ImplementationPackageId: v.ImplementationPackageID}
		if v.Err != nil {
			pv.ViewStatus = &spb.Status{Code: v.Err.Code, Message: v.Err.Message}
		} else {
			pv.ViewStatus = &spb.Status{}
			if pv.ViewValue, err = recordToProto(v.Value, verbose); err != nil {
				return nil, apierr.InternalError.New("contract %s: view: %v", e.ContractID, err)
			}
		}
		out.InterfaceViews = append(out.InterfaceViews, pv)
	}
	return out, nil
}

// recordToProto converts a value that must be a record.
func recordToProto(v value.Value, verbose bool) (*ledgerv2.Record, error) {
	switch r := v.(type) {
	case value.Record:
		return pbvalue.RecordToProto(r, verbose), nil
	case *value.Record:
		return pbvalue.RecordToProto(*r, verbose), nil
	}
	return nil, apierr.InternalError.New("%T is not a record", v)
}

func (c *protoConverter) archived(e *update.ArchivedEvent) *ledgerv2.ArchivedEvent {
	return &ledgerv2.ArchivedEvent{
		Offset:                e.Offset,
		NodeId:                e.NodeID,
		ContractId:            string(e.ContractID),
		TemplateId:            c.id(e.TemplateID),
		WitnessParties:        e.WitnessParties,
		PackageName:           e.PackageName,
		ImplementedInterfaces: c.idList(e.ImplementedInterfaces),
	}
}

func (c *protoConverter) exercised(e *update.ExercisedEvent, verbose bool) *ledgerv2.ExercisedEvent {
	out := &ledgerv2.ExercisedEvent{
		Offset:                e.Offset,
		NodeId:                e.NodeID,
		ContractId:            string(e.ContractID),
		TemplateId:            c.id(e.TemplateID),
		Choice:                e.Choice,
		ActingParties:         e.ActingParties,
		Consuming:             e.Consuming,
		WitnessParties:        e.WitnessParties,
		LastDescendantNodeId:  e.LastDescendantNodeID,
		PackageName:           e.PackageName,
		ImplementedInterfaces: c.idList(e.ImplementedInterfaces),
		AcsDelta:              e.ACSDelta,
	}
	if e.InterfaceID != nil {
		out.InterfaceId = c.id(*e.InterfaceID)
	}
	if e.Argument != nil {
		out.ChoiceArgument = pbvalue.ToProto(e.Argument, verbose)
	}
	if e.Result != nil {
		out.ExerciseResult = pbvalue.ToProto(e.Result, verbose)
	}
	return out
}
