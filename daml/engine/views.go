package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// preferredTemplate returns the template a contract of template ct is used
// as by an interface fetch or exercise under pref
// (SBuiltinFun.fetchInterface resolves the package name): the same module
// and name in pref's package for ct's package name; ct itself when pref is
// nil. A non-nil pref without an entry for the name is
// ErrUnresolvedPackageName.
func (e *Engine) preferredTemplate(ct lf.TypeConID, pref PackagePreference) (lf.TypeConID, *Error) {
	if pref == nil {
		return ct, nil
	}
	name := e.packageName(ct)
	pid, ok := pref[name]
	if !ok {
		return lf.TypeConID{}, errorf(ErrUnresolvedPackageName, "Update failed due to a failed package name resolution: %s", name)
	}
	ct.PackageID = pid
	return ct, nil
}

// Implements reports whether template has an instance of the interface
// iface. In Daml-LF 2.x the instance is always declared by the template
// (DefTemplate.implements); the interface-side instances of LF 1
// ("co-implements") do not exist in the LF 2 archive format. Unknown
// templates implement nothing.
func (e *Engine) Implements(template, iface lf.TypeConID) bool {
	tp, err := e.template(template)
	return err == nil && tp.Instance(iface) != nil
}

// Interfaces returns the interfaces template implements, sorted by
// package id, module and name (the Ledger API's implementedInterfaces);
// nil for an unknown template or one that implements none.
func (e *Engine) Interfaces(template lf.TypeConID) []lf.TypeConID {
	tp, err := e.template(template)
	if err != nil || len(tp.Instances) == 0 {
		return nil
	}
	out := make([]lf.TypeConID, 0, len(tp.Instances))
	for _, in := range tp.Instances {
		out = append(out, in.Interface)
	}
	slices.SortFunc(out, compareTypeConID)
	return slices.Compact(out)
}

func compareTypeConID(a, b lf.TypeConID) int {
	return cmp.Or(cmp.Compare(a.PackageID, b.PackageID), cmp.Compare(a.Module, b.Module), cmp.Compare(a.Name, b.Name))
}

// InterfaceView computes the view of interface iface of the stored
// contract c, as Canton's Ledger API does for an InterfaceFilter with
// includeInterfaceView (Engine.computeInterfaceView): the template used is
// the one of c's module and name in the package pref gives for c's package
// name, or c.TemplateID when pref has no entry (or is nil); when it
// differs from the creation package, c.Arg is translated to it (Speedy's
// ValueTranslator). Nothing else is checked: no precondition, no metadata
// validation, no ledger access. The result is the view in normalized
// ledger form, like Result values: records keep their type ids and field
// labels, trailing None fields are dropped.
//
// Errors are *Error values: ErrPackage for an unknown package, template
// or interface; ErrContractDoesNotImplementInterface when the template
// used has no instance of iface; ErrUpgradeTranslationFailed when c.Arg
// does not translate; whatever the view's code raises (ErrUserError,
// ErrFailureStatus for an unhandled exception, ErrStepLimit,
// ErrCanceled …); ErrValueNesting or ErrMalformedText when the view is
// not serializable. The Ledger API renders any of them as the view's
// error status.
func (e *Engine) InterfaceView(ctx context.Context, iface lf.TypeConID, c *Contract, pref PackagePreference) (value.Value, error) {
	if c == nil {
		return nil, crash("InterfaceView: nil contract")
	}
	ct := c.TemplateID
	t := ct
	if pid, ok := pref[e.packageName(ct)]; ok {
		t.PackageID = pid
	}
	tpl, terr := e.template(t)
	if terr != nil {
		return nil, terr
	}
	if m, err := e.module(iface); err != nil {
		return nil, err
	} else if m.Interface(iface.Name) == nil {
		return nil, errorf(ErrPackage, "unknown interface %s", iface)
	}
	if tpl.Instance(iface) == nil {
		return nil, errorf(ErrContractDoesNotImplementInterface, "contract %s of type %s does not implement interface %s", c.ID, t, iface)
	}
	arg, err := e.contractArg(c)
	if err != nil {
		err.Message = fmt.Sprintf("stored contract %s: %s", c.ID, err.Message)
		return nil, err
	}
	if ct.PackageID != t.PackageID {
		if arg, err = e.translate(arg, ct.PackageID, t.PackageID); err != nil {
			err.Message = fmt.Sprintf("Translation of contract %s to a value of type %s fails.\nReason: %s", c.ID, t, err.Message)
			return nil, err
		}
	}
	m := e.newMachine(ctx)
	m.ctrl = &nCallDef{def: e.templateFn(defKey{kind: defView, id: t, iface: iface}), args: []Value{arg}}
	v, rerr := e.runOnce(m)
	if rerr != nil {
		return nil, rerr
	}
	lv, lerr := toLedgerValue(v)
	if lerr != nil {
		return nil, lerr
	}
	return lv, nil
}

// nCallDef applies a top-level definition to argument values.
type nCallDef struct {
	def  *topDef
	args []Value
}

func (n *nCallDef) eval(m *Machine) { m.callDef(n.def, n.args...) }
