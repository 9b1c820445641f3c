package grpcadapter

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestCommandsFromProto: a proto Commands becomes the ledger.Commands it
// stands for: every field, each command variant, references by package
// id and by "#name", labelled values, the one-ofs and well-known types.
func TestCommandsFromProto(t *testing.T) {
	pkg := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	cid := "00" + strings.Repeat("ab", 32) + "ca12"
	byID := &ledgerv2.Identifier{PackageId: pkg, ModuleName: "M", EntityName: "T"}
	byName := &ledgerv2.Identifier{PackageId: "#my-pkg", ModuleName: "M", EntityName: "T"}
	rec := &ledgerv2.Record{Fields: []*ledgerv2.RecordField{{Label: "owner", Value: &ledgerv2.Value{Sum: &ledgerv2.Value_Party{Party: "alice"}}}}}
	unit := &ledgerv2.Value{Sum: &ledgerv2.Value_Unit{}}
	key := &ledgerv2.Value{Sum: &ledgerv2.Value_Text{Text: "k"}}
	taps := uint32(3)
	limit := uint32(2)
	at := time.Date(2026, 11, 27, 12, 0, 0, 123456000, time.UTC)
	in := &ledgerv2.Commands{
		WorkflowId: "w", UserId: "u", CommandId: "c", SubmissionId: "s", SynchronizerId: "sync::ns",
		ActAs: []string{"alice"}, ReadAs: []string{"bob"}, PackageIdSelectionPreference: []string{pkg},
		Commands: []*ledgerv2.Command{
			{Command: &ledgerv2.Command_Create{Create: &ledgerv2.CreateCommand{TemplateId: byID, CreateArguments: rec}}},
			{Command: &ledgerv2.Command_Exercise{Exercise: &ledgerv2.ExerciseCommand{TemplateId: byName, ContractId: cid, Choice: "Go", ChoiceArgument: unit}}},
			{Command: &ledgerv2.Command_ExerciseByKey{ExerciseByKey: &ledgerv2.ExerciseByKeyCommand{TemplateId: byName, ContractKey: key, Choice: "Go", ChoiceArgument: unit}}},
			{Command: &ledgerv2.Command_CreateAndExercise{CreateAndExercise: &ledgerv2.CreateAndExerciseCommand{TemplateId: byID, CreateArguments: rec, Choice: "Go", ChoiceArgument: unit}}},
		},
		DeduplicationPeriod:  &ledgerv2.Commands_DeduplicationDuration{DeduplicationDuration: durationpb.New(90 * time.Second)},
		MinLedgerTimeAbs:     timestamppb.New(at),
		DisclosedContracts:   []*ledgerv2.DisclosedContract{{TemplateId: byID, ContractId: "00cd", CreatedEventBlob: []byte{1, 2}, SynchronizerId: "sync::ns"}},
		PrefetchContractKeys: []*ledgerv2.PrefetchContractKey{{TemplateId: byName, ContractKey: key, Limit: &limit}},
		TapsMaxPasses:        &taps,
	}
	tid := lf.TypeConID{PackageID: pkg, Module: "M", Name: "T"}
	owner := value.Record{Fields: []value.RecordField{{Label: "owner", Value: value.Party("alice")}}}
	three := 3
	want := ledger.Commands{
		WorkflowID: "w", UserID: "u", CommandID: "c", SubmissionID: "s", SynchronizerID: "sync::ns",
		ActAs: []string{"alice"}, ReadAs: []string{"bob"}, PackageIDSelectionPreference: []string{pkg},
		Commands: []ledger.Command{
			ledger.CreateCommand{Template: ledger.TemplateByID(tid), Arguments: owner},
			ledger.ExerciseCommand{Template: ledger.TemplateByName("my-pkg", "M", "T"), ContractID: value.ContractID(cid), Choice: "Go", Argument: value.Unit{}},
			ledger.ExerciseByKeyCommand{Template: ledger.TemplateByName("my-pkg", "M", "T"), Key: value.Text("k"), Choice: "Go", Argument: value.Unit{}},
			ledger.CreateAndExerciseCommand{Template: ledger.TemplateByID(tid), Arguments: owner, Choice: "Go", Argument: value.Unit{}},
		},
		Deduplication:        ledger.DeduplicationDuration(90 * time.Second),
		MinLedgerTime:        at,
		DisclosedContracts:   []ledger.DisclosedContract{{Template: ledger.TemplateByID(tid), ContractID: "00cd", CreatedEventBlob: []byte{1, 2}, SynchronizerID: "sync::ns"}},
		PrefetchContractKeys: []ledger.PrefetchContractKey{{Template: ledger.TemplateByName("my-pkg", "M", "T"), Key: value.Text("k"), Limit: 2}},
		TapsMaxPasses:        &three,
	}
	got, err := commandsFromProto(in)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	in.DeduplicationPeriod = &ledgerv2.Commands_DeduplicationOffset{DeduplicationOffset: 7}
	in.MinLedgerTimeAbs, in.MinLedgerTimeRel = nil, durationpb.New(time.Minute)
	in.PrefetchContractKeys[0].Limit = nil
	got, err = commandsFromProto(in)
	if err != nil {
		t.Fatal(err)
	}
	if got.PrefetchContractKeys[0].Limit != 1 {
		t.Errorf("an absent prefetch limit is %d, want Canton's 1", got.PrefetchContractKeys[0].Limit)
	}
	if got.Deduplication != ledger.DeduplicationOffset(7) || got.MinLedgerTimeRel != time.Minute || !got.MinLedgerTime.IsZero() {
		t.Errorf("deduplication %v, min ledger time %v / %v", got.Deduplication, got.MinLedgerTime, got.MinLedgerTimeRel)
	}
}

// TestCommandsFromProtoRefusals: the wire's shape is checked as Canton's
// CommandsValidator checks it: absent messages and empty contract ids
// and choices are MISSING_FIELD with their proto field names, a Value
// without its sum MISSING_FIELD value, a contract id or choice that does
// not parse INVALID_FIELD, in Canton's order of the fields.
func TestCommandsFromProtoRefusals(t *testing.T) {
	id := &ledgerv2.Identifier{PackageId: "#p", ModuleName: "M", EntityName: "T"}
	cid := "00" + strings.Repeat("ab", 32) + "ca12"
	unit := &ledgerv2.Value{Sum: &ledgerv2.Value_Unit{}}
	with := func(cmds ...*ledgerv2.Command) *ledgerv2.Commands {
		return &ledgerv2.Commands{CommandId: "c", ActAs: []string{"alice"}, Commands: cmds}
	}
	create := func(c *ledgerv2.CreateCommand) *ledgerv2.Command {
		return &ledgerv2.Command{Command: &ledgerv2.Command_Create{Create: c}}
	}
	exercise := func(e *ledgerv2.ExerciseCommand) *ledgerv2.Command {
		return &ledgerv2.Command{Command: &ledgerv2.Command_Exercise{Exercise: e}}
	}
	for _, tc := range []struct {
		name string
		in   *ledgerv2.Commands
		code apierr.Code
		text string
	}{
		{"no commands message", nil, apierr.MissingField, "commands"},
		{"a command without its variant", with(&ledgerv2.Command{}), apierr.MissingField, "command"},
		{"a create without template_id", with(create(&ledgerv2.CreateCommand{CreateArguments: &ledgerv2.Record{}})), apierr.MissingField, "template_id"},
		{"a create without create_arguments", with(create(&ledgerv2.CreateCommand{TemplateId: id})), apierr.MissingField, "create_arguments"},
		{"an exercise without its argument", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: id, ContractId: cid, Choice: "Go"})), apierr.MissingField, "value"},
		{"an argument without its sum", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: id, ContractId: cid, Choice: "Go", ChoiceArgument: &ledgerv2.Value{}})), apierr.MissingField, "value"},
		{"a malformed template id", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: &ledgerv2.Identifier{PackageId: "#p"}, ContractId: cid, Choice: "Go", ChoiceArgument: unit})), apierr.InvalidField, "template_id"},
		{"an exercise without contract_id", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: id, Choice: "Go", ChoiceArgument: unit})), apierr.MissingField, "contract_id"},
		{"a contract id that does not parse", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: id, ContractId: "zz", ChoiceArgument: unit})), apierr.InvalidField, `Invalid field contract_id: cannot parse ContractId "zz"`},
		{"an exercise without choice", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: id, ContractId: cid})), apierr.MissingField, "choice"},
		{"a choice that is no name", with(exercise(&ledgerv2.ExerciseCommand{TemplateId: id, ContractId: cid, Choice: "a b", ChoiceArgument: unit})), apierr.InvalidField, "Invalid field choice"},
		{"an exercise by key without choice", with(&ledgerv2.Command{Command: &ledgerv2.Command_ExerciseByKey{ExerciseByKey: &ledgerv2.ExerciseByKeyCommand{TemplateId: id, ContractKey: unit, ChoiceArgument: unit}}}),
			apierr.MissingField, "choice"},
		{"a create and exercise without choice", with(&ledgerv2.Command{Command: &ledgerv2.Command_CreateAndExercise{CreateAndExercise: &ledgerv2.CreateAndExerciseCommand{TemplateId: id, CreateArguments: &ledgerv2.Record{}, ChoiceArgument: unit}}}),
			apierr.MissingField, "choice"},
		{"a prefetch limit of 0", &ledgerv2.Commands{CommandId: "c", PrefetchContractKeys: []*ledgerv2.PrefetchContractKey{{TemplateId: id, ContractKey: unit, Limit: new(uint32)}}},
			apierr.InvalidArgument, "limit must be a positive integer"},
		{"a prefetch key without its key", &ledgerv2.Commands{CommandId: "c", PrefetchContractKeys: []*ledgerv2.PrefetchContractKey{{TemplateId: id}}},
			apierr.MissingField, "contract_key"},
		{"a minimum ledger time out of range", &ledgerv2.Commands{CommandId: "c", MinLedgerTimeAbs: &timestamppb.Timestamp{Seconds: -1 << 40}}, apierr.InvalidField, "min_ledger_time_abs"},
		{"both minimum ledger times", &ledgerv2.Commands{CommandId: "c", MinLedgerTimeAbs: timestamppb.Now(), MinLedgerTimeRel: durationpb.New(0)}, apierr.InvalidArgument, "exclusive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := commandsFromProto(tc.in)
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code.Name != tc.code.Name {
				t.Fatalf("%v, want %s", err, tc.code.Name)
			}
			if !strings.Contains(e.Cause, tc.text) {
				t.Errorf("cause %q, want it to name %q", e.Cause, tc.text)
			}
		})
	}
}
