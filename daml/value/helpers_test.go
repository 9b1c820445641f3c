package value

import (
	"errors"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/apierr"
)

// code returns the apierr code name of err ("" for nil, "?" for a foreign
// error).
func code(err error) string {
	if err == nil {
		return ""
	}
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Code.Name
	}
	return "?"
}

// cause returns the apierr cause of err.
func cause(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Cause
	}
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
