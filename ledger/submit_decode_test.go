package ledger_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// textDecoder decodes arguments from Daml JSON texts, keyed by
// "i/field", and records the calls.
type textDecoder struct {
	args  map[string]string
	calls []string
}

func (d *textDecoder) DecodeArgument(i int, field string, t lf.Type, lookup func(string) *lf.Package, path string) (value.Value, error) {
	d.calls = append(d.calls, fmt.Sprintf("%d/%s at %s", i, field, path))
	return value.FromJSONAt([]byte(d.args[fmt.Sprintf("%d/%s", i, field)]), t, path, lookup)
}

// TestSubmitDecodeArguments: with DecodeArguments, Submit resolves each
// command and asks the decoder for its arguments, in the order of the
// command's fields, with the resolved types and the paths of errors; a
// value the decoder refuses is COMMAND_PREPROCESSING_FAILED at its path,
// and a duplicate command is DUPLICATE_COMMAND rather than its decoding
// error.
func TestSubmitDecodeArguments(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := ledgertest.Open(t, ledger.Options{})
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, n, dar)
	alice, bob := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob")
	byName := ledger.TemplateByName("iou", "Main", "Iou")

	d := &textDecoder{args: map[string]string{
		"0/createArguments": `{"owner": "` + alice + `", "amount": "5"}`,
		"1/createArguments": `{"owner": "` + alice + `", "amount": "6"}`,
		"1/choiceArgument":  `{"newOwner": "` + bob + `"}`,
	}}
	// The commands' own arguments are ignored.
	cmds := ledger.Commands{ActAs: []string{alice}, CommandID: "c1", Commands: []ledger.Command{
		ledger.CreateCommand{Template: byName, Arguments: value.Unit{}},
		ledger.CreateAndExerciseCommand{Template: byName, Choice: "Transfer"},
	}}
	res, err := n.Submit(ctx, cmds, ledger.DecodeArguments(d))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0/createArguments at commands[0].CreateCommand.createArguments",
		"1/createArguments at commands[1].CreateAndExerciseCommand.createArguments",
		"1/choiceArgument at commands[1].CreateAndExerciseCommand.choiceArgument",
	}
	if diff := cmp.Diff(want, d.calls); diff != "" {
		t.Errorf("decoder calls (-want +got):\n%s", diff)
	}
	if _, ok := cmds.Commands[0].(ledger.CreateCommand).Arguments.(value.Unit); !ok {
		t.Errorf("the caller's commands changed: %+v", cmds.Commands[0])
	}
	created := res.Created()
	iou := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"}
	if len(created) != 2 || created[0].TemplateID != iou {
		t.Fatalf("created %+v, want two Ious of %s", created, iou)
	}
	wantArg := value.Record{RecordID: &iou, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(5)}}}
	if diff := cmp.Diff(value.Value(wantArg), created[0].Arg); diff != "" {
		t.Errorf("decoded argument (-want +got):\n%s", diff)
	}

	bad := &textDecoder{args: map[string]string{"0/createArguments": `{"owner": "` + alice + `", "amount": true}`}}
	for _, tc := range []struct {
		name, cmdID string
		code        apierr.Code
		cause       string
	}{
		{"a value the decoder refuses", "c2", apierr.InvalidArgument, "at 'commands[0].CreateCommand.createArguments.amount'"},
		{"a duplicate", "c1", apierr.DuplicateCommand, ""},
	} {
		before := ledger.StoreDumpForTest(t, n)
		_, err := n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: tc.cmdID,
			Commands: []ledger.Command{ledger.CreateCommand{Template: byName}}}, ledger.DecodeArguments(bad))
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code.Name != tc.code.Name || !strings.Contains(ae.Cause, tc.cause) {
			t.Errorf("%s: %v, want %s with %q", tc.name, err, tc.code.Name, tc.cause)
		}
		if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
			t.Errorf("%s changed the store (-before +after):\n%s", tc.name, diff)
		}
	}

	// "#:Main:Iou" names no package: refused quoting it as written.
	_, err = n.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "c3",
		Commands: []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateRef{ID: lf.TypeConID{Module: "Main", Name: "Iou"}, ByPackageName: true}}}})
	if !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(err.Error(), "Invalid identifier format (#:Main:Iou)") {
		t.Errorf("a reference by an empty package name: %v, want INVALID_ARGUMENT quoting #:Main:Iou", err)
	}
}

// TestDisclosedContractCheck: Check decodes the blob and matches it
// against the entry, its errors at the path given.
func TestDisclosedContractCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		d     ledger.DisclosedContract
		code  apierr.Code
		cause string
	}{
		{"no blob", ledger.DisclosedContract{}, apierr.MissingField, "x.disclosedContracts[3].createdEventBlob"},
		{"a blob that does not decode", ledger.DisclosedContract{CreatedEventBlob: []byte{0xff, 0x01}}, apierr.InvalidArgument,
			"x.disclosedContracts[3].createdEventBlob: Unable to decode disclosed contract event payload"},
	}
	for _, tc := range cases {
		err := tc.d.Check("x.disclosedContracts[3]")
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code.Name != tc.code.Name || !strings.Contains(ae.Cause, tc.cause) {
			t.Errorf("%s: %v, want %s with %q", tc.name, err, tc.code.Name, tc.cause)
		}
	}
}

// TestPrepareDecodeArgumentsKeepsCommands: Prepare with DecodeArguments
// prepares the decoded arguments and leaves the caller's commands as
// they were, as Submit does.
func TestPrepareDecodeArgumentsKeepsCommands(t *testing.T) {
	t.Parallel()
	f := newExternalFixture(t, ed25519Key)
	d := &textDecoder{args: map[string]string{"0/createArguments": `{"owner": "` + f.ext + `", "amount": "7"}`}}
	cmds := []ledger.Command{ledger.CreateCommand{Template: ledger.TemplateByName("iou", "Main", "Iou"), Arguments: value.Unit{}}}
	p, err := f.n.Prepare(f.ctx, ledger.PrepareRequest{Commands: ledger.Commands{CommandID: "dec-1", ActAs: []string{f.ext}, Commands: cmds}},
		ledger.DecodeArguments(d))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Transaction.Transaction.Nodes) == 0 {
		t.Fatal("prepared no nodes")
	}
	if _, ok := cmds[0].(ledger.CreateCommand).Arguments.(value.Unit); !ok {
		t.Errorf("the caller's commands changed: %+v", cmds[0])
	}
}
