package ledger

import "testing"

// TestArgPathIsAt checks the precomputed argument paths (argPaths)
// against the paths they stand for, within the table and beyond it.
func TestArgPathIsAt(t *testing.T) {
	for i := range len(argPaths) + 2 {
		for _, variant := range []string{"", "CreateCommand", "ExerciseCommand", "CreateAndExerciseCommand", "ExerciseByKeyCommand"} {
			for _, field := range []string{"createArguments", "choiceArgument", "contractKey", "templateId"} {
				p := cmdPath{i: i, variant: variant}
				if got, want := p.argPath(field), p.at(field); got != want {
					t.Errorf("cmdPath{%d, %q}.argPath(%q) = %q, want %q", i, variant, field, got, want)
				}
			}
		}
	}
}
