package engine

import "github.com/ledgernode/ledgernode/daml/lf"

// CreateAndExerciseCommand returns the update of a create-and-exercise
// command: it creates a contract of template t with arg, then exercises
// choice on the new contract with choiceArg, as two roots of the
// transaction (Canton's CreateAndExerciseCommand). Its result is the
// choice's result.
func CreateAndExerciseCommand(t lf.TypeConID, arg Value, choice string, choiceArg Value) Value {
	return updatePAP("create_and_exercise", 3, func(m *Machine, a []Value) {
		choiceArg := a[1]
		m.then(func(m *Machine, cid Value) { m.exercise(t, choice, cid, choiceArg) })
		m.create(t, a[0], nil)
	}, arg, choiceArg)
}
