package ledger_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// iouRecord is an Iou argument with labels and no type id, as a Go caller
// writes it.
func iouRecord(owner value.Value, amount value.Value) value.Record {
	return value.Record{Fields: []value.RecordField{{Label: "amount", Value: amount}, {Label: "owner", Value: owner}}}
}

// TestSubmit runs the typed submission path: a create by package id with
// a labelled record (fields in any order), the Committed result (offset,
// times, the transaction with its committed contract id), an exercise by
// package name, and deduplication with its two periods.
func TestSubmit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := ledgertest.Open(t, ledger.Options{})
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, dar)
	alice, bob := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob")
	byID := ledger.TemplateByID(lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"})

	before := time.Now().Truncate(time.Microsecond)
	created, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "c1", WorkflowID: "wf",
		Commands: []ledger.Command{ledger.CreateCommand{Template: byID, Arguments: iouRecord(value.Party(alice), value.Int64(7))}}})
	if err != nil {
		t.Fatal(err)
	}
	end, err := n.LedgerEnd(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if created.Offset != end || created.UpdateID == "" || created.CommandID != "c1" || created.WorkflowID != "wf" || created.SynchronizerID == "" {
		t.Errorf("committed %+v, want offset %d, command c1, workflow wf", created, end)
	}
	if created.EffectiveAt.Before(before) || created.RecordTime.Before(created.EffectiveAt) {
		t.Errorf("effective at %v, record time %v; want both after %v, in that order", created.EffectiveAt, created.RecordTime, before)
	}
	cs := created.Created()
	if len(cs) != 1 || tx.IsLocalContractID(cs[0].ContractID) || cs[0].TemplateID != byID.ID {
		t.Fatalf("created %+v, want one committed Iou", cs)
	}
	iou := byID.ID
	want := value.Record{RecordID: &iou, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(7)}}}
	if diff := cmp.Diff(value.Value(want), cs[0].Arg); diff != "" {
		t.Errorf("argument (-want +got):\n%s", diff)
	}
	// The typed read shows the same update.
	effects := ledger.ReadAs(alice)
	effects.Shape = ledger.LedgerEffects
	read, err := n.Transaction(ctx, created.UpdateID, effects)
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Events) != 1 {
		t.Fatalf("the transaction %s: %+v", created.UpdateID, read.Events)
	}
	if ev, ok := read.Events[0].(*update.CreatedEvent); !ok || ev.NodeID != 0 || ev.ContractID != cs[0].ContractID || read.Offset != created.Offset {
		t.Errorf("the transaction %s: %+v", created.UpdateID, read)
	}

	// Transfer by package name, its argument a labelled record.
	transferred, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "c2",
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: ledger.TemplateByName("iou", "Main", "Iou"), ContractID: cs[0].ContractID,
			Choice: "Transfer", Argument: value.Record{Fields: []value.RecordField{{Label: "newOwner", Value: value.Party(bob)}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	x, ok := transferred.Transaction.Node(transferred.Transaction.Roots[0]).(*tx.Exercise)
	if !ok || !x.Consuming || x.TargetID != cs[0].ContractID || x.Choice != "Transfer" {
		t.Errorf("root %#v, want the consuming Transfer of %s", transferred.Transaction.Node(transferred.Transaction.Roots[0]), cs[0].ContractID)
	}

	// c1 again: a duplicate within the default period; accepted again
	// when deduplicated from the offset of its first acceptance on.
	again := ledger.Commands{ActAs: []string{alice}, CommandID: "c1",
		Commands: []ledger.Command{&ledger.CreateCommand{Template: byID, Arguments: iouRecord(value.Party(alice), value.Int64(1))}}}
	for _, d := range []ledger.Deduplication{nil, ledger.DeduplicationDuration(time.Hour), ledger.DeduplicationOffset(created.Offset - 1)} {
		again.Deduplication = d
		if _, err := n.Submit(ctx, again); !errors.Is(err, apierr.DuplicateCommand) {
			t.Errorf("c1 again, deduplication %#v: %v, want DUPLICATE_COMMAND", d, err)
		}
	}
	again.Deduplication = ledger.DeduplicationOffset(created.Offset)
	if _, err := n.Submit(ctx, again); err != nil {
		t.Errorf("c1 again, deduplicated after offset %d: %v", created.Offset, err)
	}
}

// TestSubmitRefusals: the typed path refuses what the JSON path refuses,
// with the same codes and the JSON API's field paths, and leaves the
// ledger as it was.
func TestSubmitRefusals(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := ledgertest.Open(t, ledger.Options{})
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, dar)
	alice := ledgertest.MustAllocate(t, n, "alice")
	iou := ledger.TemplateByID(lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"})
	good := func() ledger.Commands {
		return ledger.Commands{ActAs: []string{alice}, CommandID: "c",
			Commands: []ledger.Command{ledger.CreateCommand{Template: iou, Arguments: iouRecord(value.Party(alice), value.Int64(1))}}}
	}
	zero, negative := 0, -1
	cases := []struct {
		name  string
		edit  func(c *ledger.Commands)
		code  apierr.Code
		cause string
	}{
		{"a field of the wrong type", func(c *ledger.Commands) {
			c.Commands[0] = ledger.CreateCommand{Template: iou, Arguments: iouRecord(value.Party(alice), value.Bool(true))}
		}, apierr.InvalidArgument, "got a boolean at 'commands[0].CreateCommand.createArguments.amount'"},
		{"a Text for an Int64 (alike in JSON)", func(c *ledger.Commands) {
			c.Commands[0] = ledger.CreateCommand{Template: iou, Arguments: iouRecord(value.Party(alice), value.Text("1"))}
		}, apierr.CommandPreprocessingFailed, "the value is Text, its type wants Int64 at 'commands[0].CreateCommand.createArguments.amount'"},
		{"a Text for a Party (alike in JSON)", func(c *ledger.Commands) {
			c.Commands[0] = ledger.CreateCommand{Template: iou, Arguments: iouRecord(value.Text(alice), value.Int64(1))}
		}, apierr.CommandPreprocessingFailed, "createArguments.owner"},
		{"a missing field", func(c *ledger.Commands) {
			c.Commands[0] = ledger.CreateCommand{Template: iou, Arguments: value.Record{Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}}}}
		}, apierr.CommandPreprocessingFailed, "amount"},
		{"no command id", func(c *ledger.Commands) { c.CommandID = "" }, apierr.MissingField, "command_id"},
		{"no actAs", func(c *ledger.Commands) { c.ActAs = nil }, apierr.MissingField, "act_as"},
		{"no commands", func(c *ledger.Commands) { c.Commands = nil }, apierr.MissingField, "commands"},
		{"a nil command", func(c *ledger.Commands) { c.Commands[0] = nil }, apierr.InvalidArgument, "the command is empty at 'commands[0]'"},
		{"a negative deduplication duration", func(c *ledger.Commands) { c.Deduplication = ledger.DeduplicationDuration(-time.Second) },
			apierr.InvalidField, "deduplication_period"},
		{"a negative deduplication offset", func(c *ledger.Commands) { c.Deduplication = ledger.DeduplicationOffset(-1) },
			apierr.NegativeOffset, "Offset -1 in deduplication_period is a negative integer"},
		{"both minimum ledger times", func(c *ledger.Commands) { c.MinLedgerTime, c.MinLedgerTimeRel = time.Now(), time.Second },
			apierr.InvalidArgument, "exclusive"},
		{"a negative minLedgerTimeRel", func(c *ledger.Commands) { c.MinLedgerTimeRel = -time.Second }, apierr.InvalidField, "min_ledger_time_rel"},
		{"a malformed synchronizer id", func(c *ledger.Commands) { c.SynchronizerID = "no namespace" }, apierr.InvalidField, "synchronizer_id"},
		{"a synchronizer the participant is not connected to", func(c *ledger.Commands) { c.SynchronizerID = "other::1220" + strings.Repeat("ab", 32) },
			apierr.SubmissionSynchronizerNotReady, "Trying to submit to a disconnected or not configured synchronizer."},
		{"tapsMaxPasses 0", func(c *ledger.Commands) { c.TapsMaxPasses = &zero }, apierr.InvalidArgument, "taps_max_passes"},
		{"tapsMaxPasses -1", func(c *ledger.Commands) { c.TapsMaxPasses = &negative }, apierr.InvalidArgument, "taps_max_passes"},
		{"a template reference without module", func(c *ledger.Commands) {
			c.Commands[0] = ledger.CreateCommand{Template: ledger.TemplateByName("iou", "", "Iou")}
		}, apierr.InvalidArgument, "commands[0].CreateCommand.templateId"},
		{"an unknown package", func(c *ledger.Commands) {
			c.Commands[0] = ledger.CreateCommand{Template: ledger.TemplateByID(lf.TypeConID{PackageID: strings.Repeat("ab", 32), Module: "Main", Name: "Iou"})}
		}, apierr.PackageNotFound, ""},
		{"an unknown choice", func(c *ledger.Commands) {
			c.Commands[0] = ledger.ExerciseCommand{Template: iou, ContractID: value.ContractID("00" + strings.Repeat("1", 64) + "ca121220" + strings.Repeat("ab", 32)), Choice: "Nope"}
		}, apierr.CommandPreprocessingFailed, "commands[0].ExerciseCommand.choice"},
		{"a local contract id", func(c *ledger.Commands) {
			c.Commands[0] = ledger.ExerciseCommand{Template: iou, ContractID: value.ContractID("00" + strings.Repeat("1", 64)), Choice: "Peek"}
		}, apierr.CommandPreprocessingFailed, "commands[0].ExerciseCommand.contractId"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := ledger.StoreDumpForTest(t, n)
			c := good()
			c.CommandID = fmt.Sprint("c", i)
			tc.edit(&c)
			_, err := n.Submit(ctx, c)
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != tc.code.Name || !strings.Contains(ae.Cause, tc.cause) {
				t.Fatalf("Submit: %v, want %s with %q", err, tc.code.Name, tc.cause)
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
				t.Errorf("the refused submission changed the store (-before +after):\n%s", diff)
			}
		})
	}
	// The JSON path gives the same error for the same wrong value.
	_, jsonErr := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{ActAs: []string{alice}, CommandID: "c", Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{
		TemplateID: iou.String(), CreateArguments: json.RawMessage(`{"owner": "` + alice + `", "amount": true}`)}}}})
	c := good()
	c.Commands[0] = ledger.CreateCommand{Template: iou, Arguments: iouRecord(value.Party(alice), value.Bool(true))}
	_, typedErr := n.Submit(ctx, c)
	if jsonErr == nil || typedErr == nil || jsonErr.Error() != typedErr.Error() {
		t.Errorf("the same wrong value: JSON %v, typed %v; want the same error", jsonErr, typedErr)
	}
}

// TestSubmitUpgradesByFieldName: a value built for version 1 of a package
// creates a contract of version 2 (the newest vetted) by package name,
// typed by field names (its new optional field None); a version 2 value
// with the new field set is refused by version 1 (pinned by preference).
func TestSubmitUpgradesByFieldName(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := ledgertest.Open(t, ledger.Options{})
	d1, ids1 := lftest.DAR(lftest.IouPackage("1.0.0"))
	d2, ids2 := lftest.DAR(upgradedIou(ids1[0]))
	for _, d := range [][]byte{d1, d2} {
		ledgertest.MustUploadDAR(t, n, d)
	}
	alice := ledgertest.MustAllocate(t, n, "alice")
	v1 := lf.TypeConID{PackageID: ids1[0], Module: "Main", Name: "Iou"}
	v1Arg := value.Record{RecordID: &v1, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(3)}}}
	res, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "up",
		Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateRef{ID: v1, ByPackageName: true}, Arguments: v1Arg}}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Created()[0]
	v2 := lf.TypeConID{PackageID: ids2[0], Module: "Main", Name: "Iou"}
	if c.TemplateID != v2 {
		t.Fatalf("created %s, want v2 %s", c.TemplateID, v2)
	}
	want := value.Record{RecordID: &v2, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(3)}}}
	if diff := cmp.Diff(value.Value(want), c.Arg); diff != "" {
		t.Errorf("v2 argument (-want +got):\n%s", diff)
	}

	v2Arg := value.Record{Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(3)},
		{Label: "note", Value: value.Optional{Value: value.Text("hi")}}}}
	_, err = n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "down", PackageIDSelectionPreference: []string{ids1[0]},
		Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByName("iou", "Main", "Iou"), Arguments: v2Arg}}})
	if !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(err.Error(), "Unexpected fields: note at 'commands[0].CreateCommand.createArguments'") {
		t.Errorf("a v2 value for v1: %v, want INVALID_ARGUMENT naming note", err)
	}
}

// TestParseTemplateRef: the text forms of a reference, by id and by name.
func TestParseTemplateRef(t *testing.T) {
	t.Parallel()
	pkg := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		in   string
		want ledger.TemplateRef
	}{
		{pkg + ":Main:Iou", ledger.TemplateByID(lf.TypeConID{PackageID: pkg, Module: "Main", Name: "Iou"})},
		{"#iou:A.B:C.D", ledger.TemplateByName("iou", "A.B", "C.D")},
	} {
		got, err := ledger.ParseTemplateRef(tc.in)
		if err != nil {
			t.Fatalf("ParseTemplateRef(%q): %v", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" || got.String() != tc.in {
			t.Errorf("ParseTemplateRef(%q) = %v (-want +got):\n%s", tc.in, got, diff)
		}
	}
	for _, bad := range []string{"", "Main:Iou", "#iou:Main", pkg + ":Main:Iou:x"} {
		if _, err := ledger.ParseTemplateRef(bad); err == nil {
			t.Errorf("ParseTemplateRef(%q) succeeded", bad)
		}
	}
}
