package value

import (
	"errors"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// cantonCode names the Canton code each kind stands for (the ledger's
// mapping, restated so that the tables below read as Canton's answers).
var cantonCode = map[ErrorKind]string{
	KindInvalid:       "INVALID_ARGUMENT",
	KindPreprocessing: "COMMAND_PREPROCESSING_FAILED",
	KindType:          "LEDGER_API_INTERNAL_ERROR",
}

// code returns the Canton code name of err's kind ("" for nil, "?" for a
// foreign error).
func code(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		if c, ok := cantonCode[e.Kind]; ok {
			return c
		}
	}
	return "?"
}

// cause returns the text of err, which is the cause of Canton's error.
func cause(err error) string {
	if err != nil {
		return err.Error()
	}
	return ""
}

// Type constructors for expectations.
func tb(b lf.BuiltinType) lf.Type { return &lf.TBuiltin{Builtin: b} }
func tvar(n string) lf.Type       { return &lf.TVar{Name: n} }
func tnat(n int) lf.Type          { return &lf.TNat{N: n} }
func tapp(f lf.Type, args ...lf.Type) lf.Type {
	for _, a := range args {
		f = &lf.TApp{Fun: f, Arg: a}
	}
	return f
}

var star = &lf.Kind{Sort: lf.KindStar}
