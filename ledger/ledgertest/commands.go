package ledgertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
)

// Commands with typed values: Submit, Create and Exercise run
// ledger.Node.Submit as a trusted in-process caller and fail the test on
// a refusal; Record builds a Daml record by field names.
//
//	ping := ledger.MustParseTemplateRef("#ping:Ping:Ping")
//	cid := ledgertest.Create(t, node, alice, ping, ledgertest.Record(map[string]value.Value{
//		"id": value.Text("1"), "initiator": value.Party(alice), "responder": value.Party(bob)}))
//	ledgertest.Exercise(t, node, bob, ping, cid, "Respond", nil)

// Submit submits c (with a fresh command id when it names none) and returns
// the committed transaction; a refusal fails tb at once.
func Submit(tb testing.TB, node *ledger.Node, c ledger.Commands, opts ...ledger.SubmitOption) *ledger.Committed {
	tb.Helper()
	if c.CommandID == "" {
		c.CommandID = freshCommandID()
	}
	res, err := node.Submit(context.Background(), c, opts...)
	if err != nil {
		tb.Fatalf("ledgertest: submitting %s: %v", describe(c), err)
	}
	return res
}

// Create creates a contract of template with args as party and returns its
// contract id; a refusal fails tb at once.
func Create(tb testing.TB, node *ledger.Node, party string, template ledger.TemplateRef, args value.Value) value.ContractID {
	tb.Helper()
	res := Submit(tb, node, ledger.Commands{ActAs: []string{party},
		Commands: []ledger.Command{ledger.CreateCommand{Template: template, Arguments: args}}})
	root, ok := res.Transaction.Node(res.Transaction.Roots[0]).(*tx.Create)
	if !ok {
		tb.Fatalf("ledgertest: creating %s: the transaction's root is %T", template, res.Transaction.Node(res.Transaction.Roots[0]))
	}
	return root.ContractID
}

// Exercise exercises choice with arg (nil: {}) on the contract cid of
// template (or of an interface it implements) as party and returns the
// committed transaction; a refusal fails tb at once.
func Exercise(tb testing.TB, node *ledger.Node, party string, template ledger.TemplateRef, cid value.ContractID, choice string, arg value.Value) *ledger.Committed {
	tb.Helper()
	return Submit(tb, node, ledger.Commands{ActAs: []string{party},
		Commands: []ledger.Command{ledger.ExerciseCommand{Template: template, ContractID: cid, Choice: choice, Argument: arg}}})
}

// Record is a record of the named fields (in name order: the node types a
// record by its labels), for a command's argument.
func Record(fields map[string]value.Value) value.Record {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	out := value.Record{Fields: make([]value.RecordField, len(names))}
	for i, name := range names {
		out.Fields[i] = value.RecordField{Label: name, Value: fields[name]}
	}
	return out
}

// freshCommandID returns a command id no other submission has.
func freshCommandID() string {
	var b [12]byte
	rand.Read(b[:])
	return "ledgertest-" + hex.EncodeToString(b[:])
}

// describe names a submission's commands in a failure.
func describe(c ledger.Commands) string {
	var parts []string
	for _, cmd := range c.Commands {
		switch x := cmd.(type) {
		case ledger.CreateCommand:
			parts = append(parts, "create "+x.Template.String())
		case ledger.ExerciseCommand:
			parts = append(parts, x.Choice+" on "+string(x.ContractID))
		default:
			parts = append(parts, "a command")
		}
	}
	return strings.Join(parts, ", ")
}
