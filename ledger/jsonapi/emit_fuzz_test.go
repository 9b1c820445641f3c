package jsonapi_test

import (
	"encoding/base64"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/wiretime"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// FuzzEmitTransaction: for any strings in the ids, parties, names and
// Daml texts of a transaction, any offsets and times, the emitter writes
// the bytes encoding/json writes (HTML escaping off) for the JSON read's
// structs holding the same transaction: string escapes (quotes,
// backslashes, control characters, U+2028/U+2029, invalid UTF-8), numbers
// and times. The structs are filled here the way package ledger's JSON
// renderer fills them.
func FuzzEmitTransaction(f *testing.F) {
	f.Add("upd", "alice::1220", "<b>&</b>", "ctl\x00\x1f\x7f", int64(7), int32(3), int64(1700000000123456789), true)
	f.Add("", "", "line\u2028sep\u2029", "bad\xff\xfeutf8", int64(0), int32(0), int64(0), false)
	f.Add(`q"\`, "日本", "é€😀", "\t\n\r\b\f", int64(-1), int32(-5), int64(-62135596800000000), true)
	f.Fuzz(func(t *testing.T, s1, s2, s3, s4 string, off int64, node int32, nanos int64, flag bool) {
		at := time.Unix(0, nanos).UTC()
		tid := lf.TypeConID{PackageID: s1, Module: s2, Name: s3}
		iid := lf.TypeConID{PackageID: s4, Module: "M", Name: s1}
		arg := value.Record{Fields: []value.RecordField{{Label: "a", Value: value.Text(s3)}, {Label: "b", Value: value.Text(s4)}}}
		created := &update.CreatedEvent{Offset: off, NodeID: node, ContractID: value.ContractID(s1), TemplateID: tid, PackageName: s2,
			Argument: arg, Blob: []byte(s4), Signatories: []string{s1, s2}, Observers: nil, WitnessParties: []string{s3},
			CreatedAt: at, ACSDelta: flag, InterfaceViews: []update.InterfaceView{
				{InterfaceID: iid, Value: value.Text(s1), ImplementationPackageID: s2},
				{InterfaceID: iid, Err: &update.ViewError{Code: node, Message: s3}}}}
		exercised := &update.ExercisedEvent{Offset: off, NodeID: node + 1, ContractID: value.ContractID(s2), TemplateID: tid, PackageName: s3,
			InterfaceID: &iid, Choice: s4, Argument: value.Text(s1), ActingParties: []string{s4}, Consuming: flag, WitnessParties: []string{s1},
			LastDescendantNodeID: node + 2, ImplementedInterfaces: []lf.TypeConID{iid}, ACSDelta: !flag}
		archived := &update.ArchivedEvent{Offset: off, NodeID: node, ContractID: value.ContractID(s3), TemplateID: tid, PackageName: s4,
			WitnessParties: []string{s2}}
		tx := &update.Transaction{UpdateID: s1, Offset: off, CommandID: s2, WorkflowID: s3, EffectiveAt: at, RecordTime: at,
			SynchronizerID: s4, Events: []update.Event{created, exercised, archived}}

		wt := wiretime.Format(at)
		want := jsonapi.JsTransaction{UpdateID: s1, CommandID: s2, WorkflowID: s3, EffectiveAt: wt, Offset: off, SynchronizerID: s4, RecordTime: wt,
			Events: []jsonapi.JsEvent{
				{CreatedEvent: &jsonapi.JsCreatedEvent{Offset: off, NodeID: node, ContractID: s1, TemplateID: tid.String(),
					ContractKey: []byte("null"), CreateArgument: value.AppendJSON(nil, arg), CreatedEventBlob: b64(s4),
					InterfaceViews: []any{
						jsonapi.JsInterfaceView{InterfaceID: iid.String(), ViewStatus: jsonapi.JsStatus{Details: []any{}},
							ViewValue: value.AppendJSON(nil, value.Text(s1)), ImplementationPackageID: s2},
						jsonapi.JsInterfaceView{InterfaceID: iid.String(), ViewStatus: jsonapi.JsStatus{Code: node, Message: s3, Details: []any{}}},
					},
					WitnessParties: []string{s3}, Signatories: []string{s1, s2}, Observers: []string{}, CreatedAt: wt, PackageName: s2,
					RepresentativePackageID: s1, ACSDelta: flag}},
				{ExercisedEvent: &jsonapi.JsExercisedEvent{Offset: off, NodeID: node + 1, ContractID: s2, TemplateID: tid.String(),
					InterfaceID: ptr(iid.String()), Choice: s4, ChoiceArgument: value.AppendJSON(nil, value.Text(s1)), ActingParties: []string{s4},
					Consuming: flag, WitnessParties: []string{s1}, LastDescendantNodeID: node + 2, ExerciseResult: []byte("null"), PackageName: s3,
					ImplementedInterfaces: []string{iid.String()}, ACSDelta: !flag}},
				{ArchivedEvent: &jsonapi.JsArchivedEvent{Offset: off, NodeID: node, ContractID: s3, TemplateID: tid.String(), WitnessParties: []string{s2},
					PackageName: s4, ImplementedInterfaces: []string{}}},
			}}
		sameWire(t, "transaction", wire(t, jsonapi.GetTransactionResponse{Transaction: want}), jsonapi.AppendTransactionResponse(nil, tx))
	})
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func ptr[T any](v T) *T { return &v }
