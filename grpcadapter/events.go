package grpcadapter

import (
	"maps"
	"slices"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/grpcadapter/internal/pbvalue"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// This file converts the formats of the reads (EventFormat,
// TransactionFormat) to the Node's typed ledger.ReadFormat, and the
// Node's typed transactions and events to their proto messages, as
// Canton's Ledger API server writes them (EventOuterClass,
// TransactionOuterClass; LfEngineToApi for the values).

// readFormatFromProto converts an event format. The Node's ReadFormat
// has one filter for all its parties, so the format's filters must be
// the same for every party (and for any party): a format whose parties
// filter differently, or whose filters ask blobs or interface views of
// some identifiers and not others, is refused as not served (its Canton
// answer has no typed read here). The Node checks the rest: parties,
// rights, identifiers. verbose is the format's own flag.
func readFormatFromProto(ef *ledgerv2.EventFormat, field string) (f ledger.ReadFormat, verbose bool, err error) {
	if ef == nil {
		return f, false, missingField(field)
	}
	var first *ledgerv2.Filters
	seen := false
	same := func(fs *ledgerv2.Filters) bool {
		if !seen {
			first, seen = fs, true
			return true
		}
		return proto.Equal(normFilters(first), normFilters(fs))
	}
	for _, p := range slices.Sorted(maps.Keys(ef.GetFiltersByParty())) {
		f.Parties = append(f.Parties, p)
		if !same(ef.GetFiltersByParty()[p]) {
			return f, false, notServed("an event format whose parties have different filters", "the Node's typed reads take one filter for all the parties")
		}
	}
	if ef.FiltersForAnyParty != nil {
		f.AnyParty = true
		if !same(ef.FiltersForAnyParty) {
			return f, false, notServed("an event format whose parties have different filters", "the Node's typed reads take one filter for all the parties")
		}
	}
	if err := filtersInto(&f, first); err != nil {
		return f, false, err
	}
	return f, ef.GetVerbose(), nil
}

// normFilters is fs with a nil filter as an empty one (both are the
// wildcard without blobs).
func normFilters(fs *ledgerv2.Filters) *ledgerv2.Filters {
	if fs == nil {
		return &ledgerv2.Filters{}
	}
	return fs
}

// filtersInto sets f's templates, interfaces and flags from fs. No
// cumulative filter is the wildcard (Canton: all templates, no blobs);
// a wildcard beside template or interface filters is refused as not
// served, as are flags that differ between the filters.
func filtersInto(f *ledger.ReadFormat, fs *ledgerv2.Filters) error {
	var blobs, views []bool
	wildcard := false
	for _, c := range fs.GetCumulative() {
		switch x := c.GetIdentifierFilter().(type) {
		case *ledgerv2.CumulativeFilter_WildcardFilter:
			wildcard = true
			blobs = append(blobs, x.WildcardFilter.GetIncludeCreatedEventBlob())
		case *ledgerv2.CumulativeFilter_TemplateFilter:
			ref, err := filterRef(x.TemplateFilter.GetTemplateId(), "template_id")
			if err != nil {
				return err
			}
			f.Templates = append(f.Templates, ref)
			blobs = append(blobs, x.TemplateFilter.GetIncludeCreatedEventBlob())
		case *ledgerv2.CumulativeFilter_InterfaceFilter:
			ref, err := filterRef(x.InterfaceFilter.GetInterfaceId(), "interface_id")
			if err != nil {
				return err
			}
			f.Interfaces = append(f.Interfaces, ref)
			blobs = append(blobs, x.InterfaceFilter.GetIncludeCreatedEventBlob())
			views = append(views, x.InterfaceFilter.GetIncludeInterfaceView())
		default:
			// Canton's FormatValidator: a cumulative filter with no
			// identifier filter is the wildcard.
			wildcard = true
			blobs = append(blobs, false)
		}
	}
	if wildcard && len(f.Templates)+len(f.Interfaces) > 0 {
		return notServed("a filter with a wildcard beside template or interface filters", "the Node's typed reads take either a wildcard or identifiers")
	}
	if !allSame(blobs) || !allSame(views) {
		return notServed("filters that ask created event blobs or interface views of some identifiers only", "the Node's typed reads take one flag for all the identifiers")
	}
	f.Blobs = len(blobs) > 0 && blobs[0]
	f.InterfaceViews = len(views) > 0 && views[0]
	return nil
}

func allSame(bs []bool) bool {
	for _, b := range bs {
		if b != bs[0] {
			return false
		}
	}
	return true
}

// filterRef converts a filter's identifier (MISSING_FIELD when absent,
// as Canton's FormatValidator requirePresence).
func filterRef(id *ledgerv2.Identifier, field string) (ledger.TemplateRef, error) {
	if id == nil {
		return ledger.TemplateRef{}, missingField(field)
	}
	return templateRefFromProto(id)
}

// transactionFormatFromProto converts a transaction format: its event
// format and shape (Canton's FormatValidator: the shape must be set).
func transactionFormatFromProto(tf *ledgerv2.TransactionFormat, field string) (ledger.ReadFormat, bool, error) {
	if tf == nil {
		return ledger.ReadFormat{}, false, missingField(field)
	}
	f, verbose, err := readFormatFromProto(tf.GetEventFormat(), "event_format")
	if err != nil {
		return f, false, err
	}
	switch tf.GetTransactionShape() {
	case ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA:
		f.Shape = ledger.ACSDelta
	case ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS:
		f.Shape = ledger.LedgerEffects
	default:
		// The Node's words for the JSON twin (ledger/reads.go).
		return f, false, apierr.InvalidField.New("transaction_shape: %q is not %s or %s", apierr.Quote(tf.GetTransactionShape().String()),
			ledgerv2.TransactionShape_TRANSACTION_SHAPE_ACS_DELTA, ledgerv2.TransactionShape_TRANSACTION_SHAPE_LEDGER_EFFECTS)
	}
	return f, verbose, nil
}

// updateFormatFromProto converts an update format. The Node's typed walk
// reads transactions only: a format that asks for reassignments or
// topology events is refused as not served, rather than answered
// without them.
func updateFormatFromProto(uf *ledgerv2.UpdateFormat) (ledger.ReadFormat, bool, error) {
	if uf == nil {
		return ledger.ReadFormat{}, false, missingField("update_format")
	}
	if uf.IncludeReassignments != nil || uf.IncludeTopologyEvents != nil {
		return ledger.ReadFormat{}, false, notServed("an update format with include_reassignments or include_topology_events",
			"the Node's typed reads return transactions only")
	}
	if uf.IncludeTransactions == nil {
		return ledger.ReadFormat{}, false, apierr.InvalidArgument.New("The update_format must specify at least one of include_transactions, include_reassignments or include_topology_events")
	}
	return transactionFormatFromProto(uf.IncludeTransactions, "include_transactions")
}

// transactionToProto converts a transaction.
func transactionToProto(t *ledger.Transaction, verbose bool) (*ledgerv2.Transaction, error) {
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
		case *ledger.CreatedEvent:
			c, err := createdToProto(e, verbose)
			if err != nil {
				return nil, err
			}
			pe = &ledgerv2.Event{Event: &ledgerv2.Event_Created{Created: c}}
		case *ledger.ArchivedEvent:
			pe = &ledgerv2.Event{Event: &ledgerv2.Event_Archived{Archived: archivedToProto(e)}}
		case *ledger.ExercisedEvent:
			pe = &ledgerv2.Event{Event: &ledgerv2.Event_Exercised{Exercised: exercisedToProto(e, verbose)}}
		default:
			return nil, apierr.InternalError.New("transaction %s: event of type %T", t.UpdateID, e)
		}
		out.Events = append(out.Events, pe)
	}
	return out, nil
}

// createdToProto converts a created event. The representative package
// is the template's package, as the Node's JSON events have it.
func createdToProto(e *ledger.CreatedEvent, verbose bool) (*ledgerv2.CreatedEvent, error) {
	args, err := recordToProto(e.Argument, verbose)
	if err != nil {
		return nil, apierr.InternalError.New("contract %s: argument: %v", e.ContractID, err)
	}
	out := &ledgerv2.CreatedEvent{
		Offset:                  e.Offset,
		NodeId:                  e.NodeID,
		ContractId:              string(e.ContractID),
		TemplateId:              pbvalue.IdentifierToProto(e.TemplateID),
		CreateArguments:         args,
		CreatedEventBlob:        e.Blob,
		WitnessParties:          e.WitnessParties,
		Signatories:             e.Signatories,
		Observers:               e.Observers,
		CreatedAt:               timestamp(e.CreatedAt),
		PackageName:             e.PackageName,
		AcsDelta:                e.ACSDelta,
		RepresentativePackageId: e.TemplateID.PackageID,
	}
	if e.Key != nil {
		out.ContractKey = pbvalue.ToProto(e.Key, verbose)
	}
	for _, v := range e.InterfaceViews {
		pv := &ledgerv2.InterfaceView{InterfaceId: pbvalue.IdentifierToProto(v.InterfaceID), ImplementationPackageId: v.ImplementationPackageID}
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

func archivedToProto(e *ledger.ArchivedEvent) *ledgerv2.ArchivedEvent {
	return &ledgerv2.ArchivedEvent{
		Offset:                e.Offset,
		NodeId:                e.NodeID,
		ContractId:            string(e.ContractID),
		TemplateId:            pbvalue.IdentifierToProto(e.TemplateID),
		WitnessParties:        e.WitnessParties,
		PackageName:           e.PackageName,
		ImplementedInterfaces: identifiers(e.ImplementedInterfaces),
	}
}

func exercisedToProto(e *ledger.ExercisedEvent, verbose bool) *ledgerv2.ExercisedEvent {
	out := &ledgerv2.ExercisedEvent{
		Offset:                e.Offset,
		NodeId:                e.NodeID,
		ContractId:            string(e.ContractID),
		TemplateId:            pbvalue.IdentifierToProto(e.TemplateID),
		Choice:                e.Choice,
		ActingParties:         e.ActingParties,
		Consuming:             e.Consuming,
		WitnessParties:        e.WitnessParties,
		LastDescendantNodeId:  e.LastDescendantNodeID,
		PackageName:           e.PackageName,
		ImplementedInterfaces: identifiers(e.ImplementedInterfaces),
		AcsDelta:              e.ACSDelta,
	}
	if e.InterfaceID != nil {
		out.InterfaceId = pbvalue.IdentifierToProto(*e.InterfaceID)
	}
	if e.Argument != nil {
		out.ChoiceArgument = pbvalue.ToProto(e.Argument, verbose)
	}
	if e.Result != nil {
		out.ExerciseResult = pbvalue.ToProto(e.Result, verbose)
	}
	return out
}

func identifiers(ids []lf.TypeConID) []*ledgerv2.Identifier {
	if len(ids) == 0 {
		return nil
	}
	out := make([]*ledgerv2.Identifier, len(ids))
	for i, id := range ids {
		out[i] = pbvalue.IdentifierToProto(id)
	}
	return out
}
