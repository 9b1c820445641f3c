package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Reads that need Daml: interface filters match the templates that
// implement an interface, and includeInterfaceView computes the view of
// each matched contract through the engine. Readers share one engine over
// every package the node stores (packages are immutable, so its compiled
// definitions stay valid as packages are added).

// readEngine is the engine of the node's reads.
type readEngine struct {
	once sync.Once
	eng  *engine.Engine
}

// nodePackages is the engine's PackageSource over the node's stored
// packages, decoded once.
type nodePackages struct{ n *Node }

// Package returns a stored package, or nil.
func (p nodePackages) Package(id string) *lf.Package { return p.n.cachedPackage(id) }

func (n *Node) viewEngine() *engine.Engine {
	n.reads.once.Do(func() { n.reads.eng = engine.New(nodePackages{n}, engine.Options{}) })
	return n.reads.eng
}

// cachedPackage returns a stored package, decoding it on first use; nil
// when the node does not store it.
func (n *Node) cachedPackage(id string) *lf.Package {
	n.pkgCache.mu.Lock()
	p := n.pkgCache.pkgs[id]
	n.pkgCache.mu.Unlock()
	if p != nil {
		return p
	}
	_ = n.st.View(func(r *store.Reader) error {
		var err error
		p, err = n.decodedPackage(r, id)
		return err
	})
	return p
}

// interfaceView computes the view of a created contract for an
// interface its template implements, as Daml JSON of the view type.
func (n *Node) interfaceView(iface lf.TypeConID, c *txNode) (json.RawMessage, error) {
	ipkg := n.cachedPackage(iface.PackageID)
	if ipkg == nil {
		return nil, apierr.PackageNotFound.New("Package %s is not known", apierr.Quote(iface.PackageID)).WithResource("PACKAGE", iface.PackageID)
	}
	idef := ipkg.Interface(iface.Module, iface.Name)
	if idef == nil {
		return nil, apierr.TemplatesOrInterfacesNotFound.New("The following templates or interfaces were not found: %s", apierr.Quote(iface.String()))
	}
	tc, err := splitTypeCon(c.TemplateID)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "stored template id %s", c.TemplateID)
	}
	if n.cachedPackage(tc.PackageID) == nil {
		return nil, apierr.PackageNotFound.New("Package %s is not known", apierr.Quote(tc.PackageID)).WithResource("PACKAGE", tc.PackageID)
	}
	arg, err := value.FromJSON(c.Argument, value.TypeOf(tc.PackageID, tc.Module, tc.Name), nodePackages{n}.lookup)
	if err != nil {
		return nil, damlError(err)
	}
	eng := n.viewEngine()
	ctx := context.Background()
	rv, err := eng.FromValue(arg)
	if err != nil {
		return nil, engineError(err)
	}
	fn, err := eng.Eval(ctx, &lf.EAbs{Params: []lf.VarWithType{{Name: "x"}}, Body: &lf.EViewInterface{Interface: iface,
		Expr: &lf.EToInterface{Interface: iface, Template: tc, Expr: &lf.EVar{Name: "x"}}}})
	if err != nil {
		return nil, engineError(err)
	}
	v, err := eng.Apply(ctx, fn, rv)
	if err != nil {
		return nil, engineError(err)
	}
	lv, err := engine.ToValue(v)
	if err != nil {
		return nil, engineError(err)
	}
	return value.AppendJSONAs(nil, lv, idef.View, nodePackages{n}.lookup), nil
}

func (p nodePackages) lookup(id string) *lf.Package { return p.Package(id) }

// statusOf renders an error as the status of a view that could not be
// computed: Canton's error code and message.
func statusOf(err error) JsStatus {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		ae = apierr.InternalError.Wrap(err, "%v", err)
	}
	return JsStatus{Code: int32(ae.GRPCCode()), Message: ae.Error(), Details: []any{}}
}

// checkFilterIDs refuses event formats whose template or interface
// filters name what the node does not know, as Canton does: an unknown
// package name is PACKAGE_NAMES_NOT_FOUND, an unknown package id or an
// entity that is not a template (template filter) or not an interface
// (interface filter) of the named package(s) TEMPLATES_OR_INTERFACES_NOT_FOUND.
func (n *Node) checkFilterIDs(formats ...*EventFormat) error {
	type ref struct {
		id    string
		iface bool
	}
	var refs []ref
	each := func(fs []CumulativeFilter) {
		for _, c := range fs {
			switch f := c.IdentifierFilter; {
			case f.TemplateFilter != nil:
				refs = append(refs, ref{f.TemplateFilter.Value.TemplateID, false})
			case f.InterfaceFilter != nil:
				refs = append(refs, ref{f.InterfaceFilter.Value.InterfaceID, true})
			}
		}
	}
	for _, f := range formats {
		if f == nil {
			continue
		}
		for _, fs := range f.FiltersByParty {
			each(fs.Cumulative)
		}
		if f.FiltersForAnyParty != nil {
			each(f.FiltersForAnyParty.Cumulative)
		}
	}
	if len(refs) == 0 {
		return nil
	}
	var known []*lf.Package
	if err := n.st.View(func(r *store.Reader) error {
		var err error
		known, err = n.knownPackages(r)
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

// validateFormat checks an update format (validateFormat), authorizes
// reading it and refuses filters naming unknown templates or interfaces.
func (n *Node) validateFormat(ctx context.Context, f UpdateFormat) error {
	if err := validateFormat(ctx, f); err != nil {
		return err
	}
	var tf *EventFormat
	if f.IncludeTransactions != nil {
		tf = &f.IncludeTransactions.EventFormat
	}
	return n.checkFilterIDs(tf, f.IncludeReassignments)
}
