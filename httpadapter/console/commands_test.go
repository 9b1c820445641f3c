package console

import (
	"context"
	"crypto/rand"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
)

// testCommand is the tests' shorthand for one create or exercise.
type testCommand struct {
	Kind           int
	TemplateID     lf.TypeConID
	ContractID     string
	Choice         string
	CreateArgument value.Value
	ChoiceArgument value.Value
}

// The kinds of testCommand.
const (
	testCreate = iota + 1
	testExercise
)

// command is c as a ledger command.
func (c testCommand) command() ledger.Command {
	if c.Kind == testCreate {
		return ledger.CreateCommand{Template: ledger.TemplateByID(c.TemplateID), Arguments: c.CreateArgument}
	}
	return ledger.ExerciseCommand{Template: ledger.TemplateByID(c.TemplateID), ContractID: value.ContractID(c.ContractID), Choice: c.Choice, Argument: c.ChoiceArgument}
}

// submitCommands submits cmds as actAs in one transaction.
func submitCommands(ctx context.Context, n *ledger.Node, actAs []string, cmds []testCommand) (*ledger.Committed, error) {
	c := ledger.Commands{ActAs: actAs, CommandID: "console-test-" + rand.Text()}
	for _, cmd := range cmds {
		c.Commands = append(c.Commands, cmd.command())
	}
	return n.Submit(ctx, c)
}
