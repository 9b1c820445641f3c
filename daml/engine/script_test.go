package engine

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestExceptionMessage: the message of an exception value, as an
// unhandled exception reports it (the message function of a Daml
// exception, the message field of ArithmeticError).
func TestExceptionMessage(t *testing.T) {
	d := realPing(t)
	e := New(d, Options{})
	ctx := context.Background()
	var gen lf.TypeConID
	for _, p := range d.Packages {
		if p.DataType("DA.Exception.GeneralError", "GeneralError") != nil {
			gen = lf.TypeConID{PackageID: p.ID, Module: "DA.Exception.GeneralError", Name: "GeneralError"}
		}
	}
	tests := []struct {
		name string
		id   lf.TypeConID
		msg  string
	}{
		{"GeneralError", gen, "boom"},
		{"ArithmeticError", ArithmeticErrorID, "ArithmeticError while evaluating (DIV_INT64 1 0)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := e.NewRecord(tc.id, Text(tc.msg))
			if err != nil {
				t.Fatalf("NewRecord(%s) over the ping DAR: %v", tc.id, err)
			}
			got, err := e.ExceptionMessage(ctx, &Any{Type: &lf.TCon{ID: tc.id}, Value: r})
			if err != nil || got != tc.msg {
				t.Errorf("ExceptionMessage = %q, %v; want %q", got, err, tc.msg)
			}
		})
	}
	if _, err := e.ExceptionMessage(ctx, &Any{Type: &lf.TBuiltin{Builtin: lf.BuiltinText}, Value: Text("x")}); err == nil {
		t.Error("ExceptionMessage of a Text: no error")
	}
}
