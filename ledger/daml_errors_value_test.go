package ledger

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestValueErr: each daml/value error kind becomes one Canton code, with
// the code's prefix before the value's message and path.
func TestValueErr(t *testing.T) {
	i64 := &lf.TBuiltin{Builtin: lf.BuiltinInt64}
	num := &lf.TApp{Fun: &lf.TBuiltin{Builtin: lf.BuiltinNumeric}, Arg: &lf.TNat{N: 2}}
	for _, tc := range []struct {
		name, in string
		typ      lf.Type
		code     apierr.Code
		cause    string
		status   int
	}{
		{"invalid", `"x"`, i64, apierr.InvalidArgument,
			`The submitted request has invalid arguments: could not read Int64 string "x": not a 64-bit integer at 'arg'`, 400},
		{"preprocessing", `"1.234"`, num, apierr.CommandPreprocessingFailed,
			`Cannot represent "1.234" as (Numeric 2) without loss of precision at 'arg'`, 400},
		{"type", `1`, &lf.TBuiltin{Builtin: lf.BuiltinAny}, apierr.InternalError, "type Any is not serializable at 'arg'", 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := value.CheckValue(json.RawMessage(tc.in), tc.typ, "arg", nil)
			err = damlError(err)
			var ae *apierr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("%v is not an *apierr.Error", err)
			}
			if ae.Code.Name != tc.code.Name || ae.Cause != tc.cause || ae.HTTPStatus() != tc.status {
				t.Errorf("got %s %q %d, want %s %q %d", ae.Code.Name, ae.Cause, ae.HTTPStatus(), tc.code.Name, tc.cause, tc.status)
			}
		})
	}
	other := errors.New("other")
	if damlError(other) != other {
		t.Error("a foreign error is not passed through")
	}
}
