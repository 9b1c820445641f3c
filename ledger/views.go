package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// Reads that need Daml: interface filters match the templates that
// implement an interface, and includeInterfaceView computes the view of
// each matched contract through the engine. Readers share one engine over
// every package the node stores (packages are immutable, so its compiled
// definitions stay valid as packages are added).

// viewEngine is the engine of reads: the node's own (engines.go).
func (n *Node) viewEngine() *engine.Engine { return n.eng }

// interfaceView computes the view of a created contract for an
// interface its template implements, as Daml JSON of the view type, with
// the implementation of package impl (viewImplementation): the contract's
// argument is upgraded (or downgraded) to it.
func (n *Node) interfaceView(iface lf.TypeConID, c *txNode, impl string) (json.RawMessage, error) {
	ipkg := n.cachedPackage(iface.PackageID)
	if ipkg == nil {
		return nil, apierr.PackageNotFound.New("Package %s is not known", apierr.Quote(iface.PackageID)).WithResource("PACKAGE", iface.PackageID)
	}
	idef := ipkg.Interface(iface.Module, iface.Name)
	if idef == nil {
		return nil, apierr.TemplatesOrInterfacesNotFound.New("The following templates or interfaces were not found: %s", apierr.Quote(iface.String()))
	}
	ec, err := storedContract(n.cachedPackage, c)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "reading a contract for its view")
	}
	v, err := n.viewEngine().InterfaceView(context.Background(), iface, ec, engine.PackagePreference{c.PackageName: impl})
	if err != nil {
		return nil, damlError(err)
	}
	return value.AppendJSONAs(nil, v, idef.View, n.cachedPackage), nil
}

// viewImplementation picks the package whose template implements the
// interface for a contract's view, as Canton's Ledger API does: the newest
// version of the contract's package name vetted on the synchronizer whose
// template of the same qualified name implements the interface. With no
// such package the view fails with
// NO_VETTED_INTERFACE_IMPLEMENTATION_PACKAGE.
func (n *Node) viewImplementation(iface, tc lf.TypeConID, pkgName, sync string) (string, error) {
	var v *pkgView
	if err := n.st.View(func(r *store.Reader) error {
		var err error
		v, err = n.snapshotPkgView(store.ReadOnlyTx(r), sync)
		return err
	}); err != nil {
		return "", storeErr(err)
	}
	var best *lf.Package
	for pid := range v.vetted {
		p := v.byID[pid]
		if p == nil || p.Name != pkgName {
			continue
		}
		t := p.Template(tc.Module, tc.Name)
		if t == nil || !slices.Contains(t.Implements, iface) {
			continue
		}
		if best == nil || lf.CompareVersions(p.Version, best.Version) > 0 {
			best = p
		}
	}
	if best == nil {
		return "", noVettedInterfaceImplementation.New("No vetted package for rendering the interface view for package-name %s. Reason: no vetted package of that name implements %s",
			apierr.Quote(pkgName), iface)
	}
	return best.ID, nil
}

// noVettedInterfaceImplementation is Canton's view error when no vetted
// package implements the interface for the contract's package name.
var noVettedInterfaceImplementation = apierr.Code{Name: "NO_VETTED_INTERFACE_IMPLEMENTATION_PACKAGE", Category: apierr.InvalidGivenCurrentSystemStateOther}

// statusOf renders an error as the status of a view that could not be
// computed: Canton's error code (the gRPC code) and message.
func statusOf(err error) *update.ViewError {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		ae = apierr.InternalError.Wrap(err, "%v", err)
	}
	return &update.ViewError{Code: int32(ae.GRPCCode()), Message: ae.Error()}
}

// checkFilterIDs refuses event formats whose template or interface
// filters name what the node does not know, as Canton does: an unknown
// package name is PACKAGE_NAMES_NOT_FOUND, an unknown package id or an
// entity that is not a template (template filter) or not an interface
// (interface filter) of the named package(s) TEMPLATES_OR_INTERFACES_NOT_FOUND.
func (n *Node) checkFilterIDs(formats ...*eventSpec) error {
	type ref struct {
		id    string
		iface bool
	}
	var refs []ref
	each := func(fs []filterSpec) {
		for _, c := range fs {
			switch c.Kind {
			case specTemplate:
				refs = append(refs, ref{c.ID, false})
			case specInterface:
				refs = append(refs, ref{c.ID, true})
			}
		}
	}
	for _, f := range formats {
		if f == nil {
			continue
		}
		for _, fs := range f.ByParty {
			each(fs)
		}
		if f.HasAny {
			each(f.AnyParty)
		}
	}
	if len(refs) == 0 {
		return nil
	}
	// Every stored package is in a package view (byID), cached between
	// commits: a filtered read does not rescan the package records.
	var known map[string]*lf.Package
	if err := n.st.View(func(r *store.Reader) error {
		v, err := n.snapshotPkgView(store.ReadOnlyTx(r), n.syncs[0])
		if v != nil {
			known = v.byID
		}
		return err
	}); err != nil {
		return storeErr(err)
	}
	var missing []string
	for _, r := range refs {
		id, err := lf.SplitIdentifier(r.id)
		if err != nil {
			return apierr.InvalidArgument.New("Invalid identifier format (%s) not matching the expected format (<package>:<moduleName>:<entityName>)", apierr.Quote(r.id))
		}
		found, named := false, false
		for _, p := range known {
			if id.ByName() && p.Name != id.PackageName || !id.ByName() && p.ID != id.PackageID {
				continue
			}
			named = true
			if r.iface && p.Interface(id.Module, id.Entity) != nil || !r.iface && p.Template(id.Module, id.Entity) != nil {
				found = true
				break
			}
		}
		switch {
		case id.ByName() && !named:
			return apierr.PackageNamesNotFound.New("The following package names do not match upgradable packages: %s", apierr.Quote(id.PackageName)).
				WithResource("PACKAGE_NAME", id.PackageName)
		case !found:
			missing = append(missing, r.id)
		}
	}
	if len(missing) > 0 {
		return apierr.TemplatesOrInterfacesNotFound.New("The following templates or interfaces were not found: %s", apierr.Quote(strings.Join(missing, ", "))).
			WithResource("TEMPLATE_ID", missing[0])
	}
	return nil
}

// checkSpec checks and authorizes a compiled update format
// (checkUpdateSpec) and refuses filters naming unknown templates or
// interfaces.
func (n *Node) checkSpec(ctx context.Context, f *updateSpec) error {
	if err := checkUpdateSpec(ctx, f); err != nil {
		return err
	}
	var tf *eventSpec
	if f.Tx != nil {
		tf = &f.Tx.Events
	}
	return n.checkFilterIDs(tf, f.Ra)
}
