package ledger

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// The event filter: a compiled event format (eventSpec) prepared for
// matching the events of stored updates (parties, templates, interfaces,
// package names).

// eventFilter is an eventSpec prepared for matching.
type eventFilter struct {
	byParty map[string][]filterSpec
	// one is the party of byParty when it has one party, the most
	// common read: compared with each candidate instead of hashed
	// (oneFilters are its filters).
	one        string
	oneFilters []filterSpec
	anyParty   []filterSpec
	hasAny     bool
	// impls memoizes the view implementations of this read (a filter is
	// used by one goroutine), as Canton picks them once per stream.
	impls map[implKey]implChoice
	// pk resolves package ids to names and packages (package-id template
	// filters match every version of the package; interface filters
	// match the templates that implement the interface) and computes
	// interface views.
	pk readPackages
	// ids holds the filters' template and interface ids split once per
	// read, not once per event (a filter id that does not split is
	// absent and matches nothing).
	ids map[string]lf.Identifier
}

// readPackages is what an event filter needs of the node.
type readPackages interface {
	// pkgNameOf returns the name of a package, "" when unknown.
	pkgNameOf(id string) string
	// cachedPackage returns a decoded package, nil when unknown.
	cachedPackage(id string) *lf.Package
	// contractBlob returns a created contract's createdEventBlob
	// (base64), "" when it has none.
	contractBlob(c *txNode) string
	// viewImplementation picks the package whose implementation of an
	// interface computes the views of a template's contracts of a
	// package name on a synchronizer.
	viewImplementation(iface, template lf.TypeConID, pkgName, sync string) (string, error)
	// interfaceView computes the view of a created contract with the
	// implementation of package impl.
	interfaceView(iface lf.TypeConID, c *txNode, impl string) (json.RawMessage, error)
}

// newSpecFilter prepares a compiled event format for matching (nil:
// nil).
func newSpecFilter(f *eventSpec, pk readPackages) *eventFilter {
	if f == nil {
		return nil
	}
	ef := &eventFilter{byParty: make(map[string][]filterSpec, len(f.ByParty)), anyParty: f.AnyParty, hasAny: f.HasAny, pk: pk}
	for p, fs := range f.ByParty {
		ef.byParty[p] = fs
		ef.splitIDs(fs)
		if len(f.ByParty) == 1 {
			ef.one, ef.oneFilters = p, fs
		}
	}
	if ef.hasAny {
		ef.splitIDs(ef.anyParty)
	}
	return ef
}

// splitIDs splits the template and interface ids of filters into ef.ids.
func (ef *eventFilter) splitIDs(fs []filterSpec) {
	for _, c := range fs {
		if c.Kind != specTemplate && c.Kind != specInterface {
			continue
		}
		s := c.ID
		if _, done := ef.ids[s]; done {
			continue
		}
		if id, err := lf.SplitIdentifier(s); err == nil {
			if ef.ids == nil {
				ef.ids = map[string]lf.Identifier{}
			}
			ef.ids[s] = id
		}
	}
}

// filterMatch is what a party's filters select of an event: whether it is
// shown, with its created-event blob, and the interfaces matched by
// interface filters (with whether their views are asked for).
type filterMatch struct {
	ok, blob bool
	ifaces   []ifaceMatch
}

type ifaceMatch struct {
	id   lf.TypeConID
	view bool
}

// add merges another match.
func (m *filterMatch) add(o filterMatch) {
	m.ok, m.blob = m.ok || o.ok, m.blob || o.blob
	for _, i := range o.ifaces {
		m.addIface(i)
	}
}

func (m *filterMatch) addIface(i ifaceMatch) {
	for k := range m.ifaces {
		if m.ifaces[k].id == i.id {
			m.ifaces[k].view = m.ifaces[k].view || i.view
			return
		}
	}
	m.ifaces = append(m.ifaces, i)
}

// implementedIDs is implemented as ids (the typed events'), nil when
// none.
func (m filterMatch) implementedIDs() []lf.TypeConID {
	var out []lf.TypeConID
	for _, i := range m.ifaces {
		if i.view {
			out = append(out, i.id)
		}
	}
	slices.SortFunc(out, func(a, b lf.TypeConID) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// matches reports what a party's filters select of an event of a
// template.
func (ef *eventFilter) matches(fs []filterSpec, templateID, pkgName string) filterMatch {
	if len(fs) == 0 {
		return filterMatch{ok: true}
	}
	var m filterMatch
	for _, f := range fs {
		switch f.Kind {
		case specWildcard:
			m.ok, m.blob = true, m.blob || f.Blobs
		case specTemplate:
			if ef.templateMatches(f.ID, templateID, pkgName) {
				m.ok, m.blob = true, m.blob || f.Blobs
			}
		case specInterface:
			if id, ok := ef.implements(templateID, f.ID); ok {
				m.ok, m.blob = true, m.blob || f.Blobs
				m.addIface(ifaceMatch{id: id, view: f.Views})
			}
		}
	}
	return m
}

// templateMatches compares a filter's template id ("pkg:M:E" or
// "#name:M:E") with an event's: the qualified names must be equal and the
// package must be the same package name.
func (ef *eventFilter) templateMatches(filter, templateID, pkgName string) bool {
	f, ok := ef.ids[filter]
	if !ok {
		return false
	}
	// The event's id is "pkg:M:E" as stored: cut, not split (which
	// allocates), per event and filter.
	pkgID, rest, ok1 := strings.Cut(templateID, ":")
	module, entity, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || module != f.Module || entity != f.Entity {
		return false
	}
	if f.ByName() {
		return f.PackageName == pkgName
	}
	return f.PackageID == pkgID || (ef.pk != nil && ef.pk.pkgNameOf(f.PackageID) == pkgName)
}

// implements reports whether the template of an event implements the
// interface a filter names ("pkg:M:I" or "#name:M:I"), and which
// interface (by package id) it is.
func (ef *eventFilter) implements(templateID, filter string) (lf.TypeConID, bool) {
	if ef.pk == nil {
		return lf.TypeConID{}, false
	}
	f, ok := ef.ids[filter]
	if !ok {
		return lf.TypeConID{}, false
	}
	t, err := splitTypeCon(templateID)
	if err != nil {
		return lf.TypeConID{}, false
	}
	pkg := ef.pk.cachedPackage(t.PackageID)
	if pkg == nil {
		return lf.TypeConID{}, false
	}
	tmpl := pkg.Template(t.Module, t.Name)
	if tmpl == nil {
		return lf.TypeConID{}, false
	}
	for _, i := range tmpl.Implements {
		if i.Module != f.Module || i.Name != f.Entity {
			continue
		}
		if f.ByName() && ef.pk.pkgNameOf(i.PackageID) == f.PackageName || !f.ByName() && i.PackageID == f.PackageID {
			return i, true
		}
	}
	return lf.TypeConID{}, false
}

// witnesses returns the parties among candidates whose filters select the
// template, and what their filters ask for. When they are a run of the
// candidates (most often all of them) they are that run of candidates,
// its capacity capped, not a copy.
func (ef *eventFilter) witnesses(candidates []string, templateID, pkgName string) ([]string, filterMatch) {
	var out []string // set once the witnesses are not a run of candidates
	lo, hi := -1, -1 // the run candidates[lo:hi] selected so far
	var all filterMatch
	// The filters for any party select the same for every candidate:
	// matched once per event, when a candidate needs them.
	var anyMatch filterMatch
	anyDone := false
	for i, p := range candidates {
		var fs []filterSpec
		var listed bool
		if len(ef.byParty) == 1 {
			fs, listed = ef.oneFilters, p == ef.one
		} else {
			fs, listed = ef.byParty[p]
		}
		var m filterMatch
		if listed {
			m = ef.matches(fs, templateID, pkgName)
		}
		if !m.ok && ef.hasAny {
			if !anyDone {
				anyMatch, anyDone = ef.matches(ef.anyParty, templateID, pkgName), true
			}
			m = anyMatch
		}
		if !m.ok {
			continue
		}
		all.add(m)
		switch {
		case out != nil:
			out = append(out, p)
		case lo < 0:
			lo, hi = i, i+1
		case hi == i:
			hi++
		default:
			out = append(make([]string, 0, hi-lo+len(candidates)-i), candidates[lo:hi]...)
			out = append(out, p)
		}
	}
	if out == nil && lo >= 0 {
		out = candidates[lo:hi:hi]
	}
	return out, all
}

// viewResult is a computed interface view: the view value (stored Daml
// JSON) and its implementation package, or why it could not be computed.
type viewResult struct {
	iface lf.TypeConID
	impl  string
	value json.RawMessage
	err   error
}

// views computes the interface views an event's filters ask for.
func (ef *eventFilter) views(n *txNode, m filterMatch, sync string) []viewResult {
	var out []viewResult
	for _, i := range m.ifaces {
		if !i.view {
			continue
		}
		impl, err := ef.implementation(i.id, n, sync)
		var val json.RawMessage
		if err == nil {
			val, err = ef.pk.interfaceView(i.id, n, impl)
		}
		out = append(out, viewResult{iface: i.id, impl: impl, value: val, err: err})
	}
	return out
}

type implKey struct {
	iface, template lf.TypeConID
	pkgName, sync   string
}

type implChoice struct {
	id  string
	err error
}

// implementation returns the view implementation for a created node,
// memoized for the read.
func (ef *eventFilter) implementation(iface lf.TypeConID, n *txNode, sync string) (string, error) {
	tc, err := splitTypeCon(n.TemplateID)
	if err != nil {
		return "", err
	}
	// Any version of the template: the implementation depends on the
	// package name and the qualified name only.
	k := implKey{iface: iface, template: lf.TypeConID{Module: tc.Module, Name: tc.Name}, pkgName: n.PackageName, sync: sync}
	if c, ok := ef.impls[k]; ok {
		return c.id, c.err
	}
	id, err := ef.pk.viewImplementation(iface, tc, n.PackageName, sync)
	if ef.impls == nil {
		ef.impls = map[implKey]implChoice{}
	}
	ef.impls[k] = implChoice{id, err}
	return id, err
}
