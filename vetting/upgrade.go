package vetting

import (
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// CheckUpgrade checks that newPkg is a valid upgrade of oldPkg under the
// upgrade type-checking rules of Canton 3.5 (TypecheckUpgrades in
// daml-lf/validation/.../Upgrading.scala): LF version not decreasing;
// every module, template, choice, serializable data type and interface
// instance kept; template keys and choice return types unchanged; records
// only gaining Optional fields at their end; variants and enums only
// gaining constructors at their end; type parameters, serializability,
// variety and record origin unchanged. As in Canton 3.5, dependency
// versions are not compared (DependencyHasLowerVersionDespiteUpgrade is
// never raised), interfaces and exceptions may be kept (the
// TriedToUpgradeIface/TriedToUpgradeException checks are commented out),
// new interface instances are allowed, and a choice may change its
// consuming flag. An interface instance is matched by template name and
// the interface's full id, package id included: an instance of an
// interface of another package, even a later version of the same one (or
// of an interface of the upgraded package itself), is missing.
//
// Types are compared structurally, as Canton's checker does: type variables
// by their position among the data type's parameters; a reference to a data
// type matches another when module and entity names are equal and either
// both ids are the same or both packages are known (oldPkg, newPkg, or
// through lookup) with the same package name and the old reference's
// version ≤ the new one's. So Mod:T of the old package matches Mod:T of the
// new one, and a dependency may move to a newer version of itself. lookup
// may be nil; unknown packages only match themselves. Where several rules
// are broken, the first is reported in Canton's order of checks (every
// module looked for before any is compared, and so on); among several
// breaks of one kind, the first in archive order.
//
// A package is always a valid upgrade of itself (same id).
//
// The error is NOT_VALID_UPGRADE_PACKAGE, as Canton's
// Upgradeability.Error: the cause is "Upgrade checks indicate that ⟨new⟩
// cannot be an upgrade of ⟨old⟩. Reason: ⟨message⟩" with the first
// violation's message alone (no rule name), a package printed as
// "⟨id⟩ (⟨name⟩ v⟨version⟩)", and the context keys are Canton's
// (oldPackage, newPackage, upgradeError). It wraps the
// KindNotValidUpgrade *Error, which carries the rule name.
func CheckUpgrade(oldPkg, newPkg *lf.Package, lookup func(id string) *lf.Package) error {
	if oldPkg.ID == newPkg.ID {
		return nil
	}
	c := &upgradeChecker{old: oldPkg, new: newPkg, lookup: lookup}
	if ue := c.check(); ue != nil {
		ue.Old, ue.New = oldPkg, newPkg
		return ue.APIError()
	}
	return nil
}

// CheckLineage checks the upgrade compatibility of the lineages a vetting
// change affects, as Canton 3.5's PackageUpgradeValidator.validateUpgrade
// does. added are the ids the change vets that were not vetted before,
// vetted the ids of the resulting vetted set, and lookup resolves the
// packages the participant knows (its store; unknown ids are skipped).
//
// The package names checked are those of added and of their transitive
// dependencies, dependencies first (Canton's topological order; ties in
// id order). A name's lineage is its packages in vetted, sorted by
// (version, id); a name with none is skipped. For each lineage in turn:
//  1. every direct dependency of every member must be known, else
//     TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES;
//  2. a member named daml-prim or daml-stdlib must be a utility package,
//     else DAML_PRIM_NOT_UTILITY_PACKAGE;
//  3. keeping only upgradable members (LF 2, not a utility package), no
//     two consecutive ones may have the same version, else
//     KNOWN_PACKAGE_VERSION;
//  4. each consecutive pair of them must pass CheckUpgrade, else
//     NOT_VALID_UPGRADE_PACKAGE.
//
// Each step runs over the whole lineage before the next starts, and the
// first error is returned.
func CheckLineage(added, vetted []string, lookup func(id string) *lf.Package) error {
	var names []string
	seenName := map[string]bool{}
	visited := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		if visited[id] {
			return
		}
		visited[id] = true
		p := lookup(id)
		if p == nil {
			return // not in the store: a sink, and no lineage of its own
		}
		for _, d := range slices.Sorted(slices.Values(p.DirectDeps)) {
			visit(d)
		}
		if !seenName[p.Name] {
			seenName[p.Name] = true
			names = append(names, p.Name)
		}
	}
	for _, id := range slices.Sorted(slices.Values(added)) {
		visit(id)
	}

	byName := map[string][]*lf.Package{}
	inLineage := map[string]bool{}
	for _, id := range vetted {
		p := lookup(id)
		if p == nil || !seenName[p.Name] || inLineage[p.ID] {
			continue
		}
		inLineage[p.ID] = true
		byName[p.Name] = append(byName[p.Name], p)
	}
	for _, name := range names {
		lineage := byName[name]
		slices.SortFunc(lineage, func(a, b *lf.Package) int {
			if c := lf.CompareVersions(a.Version, b.Version); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		if err := checkLineage(name, lineage, lookup); err != nil {
			return err
		}
	}
	return nil
}

// checkLineage runs the four steps of CheckLineage on one lineage.
func checkLineage(name string, lineage []*lf.Package, lookup func(id string) *lf.Package) error {
	for _, p := range lineage {
		var missing []string
		for _, dep := range p.DirectDeps {
			if lookup(dep) == nil {
				missing = append(missing, dep)
			}
		}
		if len(missing) > 0 {
			e := newError(KindLineageMissingDependencies,
				"Package vetting failed due to packages not existing on the local node: %s (dependencies of %s)",
				strings.Join(missing, ", "), p)
			e.PackageID, e.Packages = p.ID, missing
			return e.APIError()
		}
	}
	for _, p := range lineage {
		if (name == "daml-prim" || name == "daml-stdlib") && !p.IsUtility() {
			e := newError(KindNotUtilityPackage,
				"Tried to vet a package %s, but this package is not a utility package. All packages named `daml-prim` or `daml-stdlib` must be a utility package.", p)
			e.PackageID = p.ID
			return e.APIError()
		}
	}
	var up []*lf.Package
	for _, p := range lineage {
		if p.LanguageVersion.Major >= 2 && !p.IsUtility() {
			up = append(up, p)
		}
	}
	for i := 0; i+1 < len(up); i++ {
		if a, b := up[i], up[i+1]; lf.CompareVersions(a.Version, b.Version) == 0 {
			e := newError(KindKnownPackageVersion,
				"Tried to vet two packages with the same name and version: %s and %s.", a, b)
			e.Packages = []string{a.ID, b.ID}
			return e.APIError()
		}
	}
	for i := 0; i+1 < len(up); i++ {
		if err := CheckUpgrade(up[i], up[i+1], lookup); err != nil {
			return err
		}
	}
	return nil
}

type upgradeChecker struct {
	old, new *lf.Package
	lookup   func(string) *lf.Package
}

func (c *upgradeChecker) pkg(id string) *lf.Package {
	switch {
	case id == c.old.ID:
		return c.old
	case id == c.new.ID:
		return c.new
	case c.lookup != nil:
		return c.lookup(id)
	}
	return nil
}

// fail is the KindNotValidUpgrade *Error of a broken rule (CheckUpgrade
// sets its packages).
func fail(rule, format string, args ...any) *Error {
	e := newError(KindNotValidUpgrade, format, args...)
	e.Rule = rule
	return e
}

func (c *upgradeChecker) check() *Error {
	if c.old.LanguageVersion.Compare(c.new.LanguageVersion) > 0 {
		return fail("DecreasingLfVersion", "The upgraded package uses an older LF version (%s < %s)",
			c.new.LanguageVersion, c.old.LanguageVersion)
	}
	// Every module is looked for before any is compared (Canton's check:
	// checkDeleted on the modules, then checkModule on each kept one).
	for _, om := range c.old.Modules {
		if c.new.Module(om.Name) == nil {
			return fail("MissingModule", "Module %s appears in package that is being upgraded, but does not appear in the upgrading package.", om.Name)
		}
	}
	for _, om := range c.old.Modules {
		if ue := c.checkModule(om, c.new.Module(om.Name)); ue != nil {
			return ue
		}
	}
	return nil
}

// checkModule follows Canton's checkModule: templates (all looked for,
// then each compared), interface instances, then data types (all looked
// for, then each compared). Interfaces and exceptions kept in the new
// version are not refused: Canton 3.5 has that check commented out
// (TriedToUpgradeIface, TriedToUpgradeException).
func (c *upgradeChecker) checkModule(om, nm *lf.Module) *Error {
	for _, ot := range om.Templates {
		if nm.Template(ot.Name) == nil {
			return fail("MissingTemplate", "Template %s appears in package that is being upgraded, but does not appear in the upgrading package.", ot.Name)
		}
	}
	for _, ot := range om.Templates {
		if ue := c.checkTemplate(ot, nm.Template(ot.Name)); ue != nil {
			return ue
		}
	}
	// Interface instances are keyed by template name and the interface's
	// full id, package id included (Canton's flattenInstances): an instance
	// of an interface whose package changed, even to a later version of
	// itself, is missing. New instances are allowed.
	for _, ot := range om.Templates {
		nt := nm.Template(ot.Name)
		for _, id := range ot.Implements {
			if !slices.Contains(nt.Implements, id) {
				return fail("MissingImplementation", "Implementation of interface %s by template %s appears in package that is being upgraded, but does not appear in this package.", id, ot.Name)
			}
		}
	}
	// Data types not owned by an interface or exception: a serializable one
	// must stay (and stay unowned); then each kept one is compared.
	owned := func(m *lf.Module, name string) bool { return m.Interface(name) != nil || m.HasException(name) }
	var kept [][2]*lf.DataType
	for _, od := range om.DataTypes {
		if owned(om, od.Name) {
			continue
		}
		nd := nm.DataType(od.Name)
		if nd == nil || owned(nm, od.Name) {
			if od.Serializable {
				return fail("MissingDataCon", "Data type %s appears in package that is being upgraded, but does not appear in the upgrading package.", od.Name)
			}
			continue
		}
		kept = append(kept, [2]*lf.DataType{od, nd})
	}
	oorig, norig := origins(om), origins(nm)
	for _, k := range kept {
		if ue := c.checkDataType(oorig, norig, k[0], k[1]); ue != nil {
			return ue
		}
	}
	return nil
}

func (c *upgradeChecker) checkTemplate(ot, nt *lf.Template) *Error {
	for _, och := range ot.Choices {
		if nt.Choice(och.Name) == nil {
			return fail("MissingChoice", "Choice %s appears in package that is being upgraded, but does not appear in the upgrading package.", och.Name)
		}
	}
	for _, och := range ot.Choices {
		nch := nt.Choice(och.Name)
		if !c.sameType(nil, nil, och.ReturnType, nch.ReturnType) {
			return fail("ChoiceChangedReturnType", "The upgraded choice %s cannot change its return type.", och.Name)
		}
	}
	switch {
	case ot.Key == nil && nt.Key == nil:
	case ot.Key != nil && nt.Key != nil:
		if !c.sameType(nil, nil, ot.Key.Type, nt.Key.Type) {
			return fail("TemplateChangedKeyType", "The upgraded template %s cannot change its key type.", ot.Name)
		}
	case ot.Key != nil:
		return fail("TemplateRemovedKey", "The upgraded template %s cannot remove its key.", ot.Name)
	default:
		return fail("TemplateAddedKey", "The upgraded template %s cannot add a key.", ot.Name)
	}
	return nil
}

// origin says where a serializable data type comes from (Canton's
// UpgradedRecordOrigin); it may not change across versions.
type origin struct {
	kind string // "template", "choice", "variant", "top"
	a, b string // template / choice; data type / constructor tycon
}

func (o origin) String() string {
	switch o.kind {
	case "template":
		return "template " + o.a
	case "choice":
		return "input type of choice " + o.b + " on template " + o.a
	case "variant":
		name := o.b
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		return "variant constructor " + name + " from variant " + o.a
	}
	return "data type " + o.a
}

// origins computes the origin of every data type name of the module that
// is not a top-level data type.
func origins(m *lf.Module) map[string]origin {
	o := map[string]origin{}
	for _, dt := range m.DataTypes {
		if dt.Variety != lf.VariantVariety {
			continue
		}
		for _, f := range dt.Fields {
			head, _ := lf.SplitApp(f.Type)
			if tc, ok := head.(*lf.TCon); ok {
				// Package ids are unified away: only the qualified name counts.
				n := dt.Name + "." + f.Name
				if _, dup := o[n]; !dup {
					o[n] = origin{kind: "variant", a: dt.Name, b: tc.ID.Module + ":" + tc.ID.Name}
				}
			}
		}
	}
	for _, t := range m.Templates {
		prefix := ""
		if i := strings.LastIndexByte(t.Name, '.'); i >= 0 {
			prefix = t.Name[:i+1]
		}
		for _, ch := range t.Choices {
			o[prefix+ch.Name] = origin{kind: "choice", a: t.Name, b: ch.Name}
		}
	}
	for _, t := range m.Templates {
		o[t.Name] = origin{kind: "template", a: t.Name}
	}
	return o
}

func originOf(o map[string]origin, name string) origin {
	if x, ok := o[name]; ok {
		return x
	}
	return origin{kind: "top", a: name}
}

func (c *upgradeChecker) checkDataType(oorig, norig map[string]origin, od, nd *lf.DataType) *Error {
	oo, no := originOf(oorig, od.Name), originOf(norig, nd.Name)
	switch {
	case od.Serializable && !nd.Serializable:
		return fail("DatatypeBecameUnserializable", "The upgraded %s was serializable and is now unserializable. Datatypes cannot change their serializability via upgrades.", no)
	case !od.Serializable:
		return nil
	}
	if oo != no {
		return fail("RecordChangedOrigin", "The record %s has changed origin from %s to %s", od.Name, oo, no)
	}
	if len(od.Params) != len(nd.Params) {
		return fail("DifferentParamsCount", "The upgraded %s has changed the number of type variables it has.", no)
	}
	for i := range od.Params {
		if !od.Params[i].Kind.Equal(nd.Params[i].Kind) {
			return fail("DifferentParamsKinds", "The upgraded %s has changed the kind of one of its type variables.", no)
		}
	}
	oenv, nenv := paramIndex(od.Params), paramIndex(nd.Params)
	switch {
	case od.Variety == lf.RecordVariety && nd.Variety == lf.RecordVariety:
		return c.checkFields(no, oenv, nenv, od.Fields, nd.Fields)
	case od.Variety == lf.VariantVariety && nd.Variety == lf.VariantVariety:
		for _, of := range od.Fields {
			if _, ok := nd.Field(of.Name); !ok {
				return fail("VariantRemovedVariant", "The upgraded %s has removed an existing variant.", no)
			}
		}
		for _, of := range od.Fields {
			nf, _ := nd.Field(of.Name)
			if !c.sameType(oenv, nenv, of.Type, nf.Type) {
				return fail("VariantChangedVariantType", "The upgraded %s has changed the type of a variant.", no)
			}
		}
		for i := range min(len(od.Fields), len(nd.Fields)) {
			if od.Fields[i].Name != nd.Fields[i].Name {
				return fail("VariantVariantsOrderChanged", "The upgraded %s has changed the order of its variants - any new variant must be added at the end of the variant.", no)
			}
		}
		return nil
	case od.Variety == lf.EnumVariety && nd.Variety == lf.EnumVariety:
		have := map[string]bool{}
		for _, con := range nd.Constructors {
			have[con] = true
		}
		for _, con := range od.Constructors {
			if !have[con] {
				return fail("EnumRemovedVariant", "The upgraded %s has removed an existing variant.", no)
			}
		}
		for i := range min(len(od.Constructors), len(nd.Constructors)) {
			if od.Constructors[i] != nd.Constructors[i] {
				return fail("EnumVariantsOrderChanged", "The upgraded %s has changed the order of its variants - any new variant must be added at the end of the enum.", no)
			}
		}
		return nil
	case od.Variety == lf.InterfaceVariety && nd.Variety == lf.InterfaceVariety:
		return nil
	}
	return fail("MismatchDataConsVariety", "The upgraded data type %s has changed from a %s to a %s. Datatypes cannot change variety via upgrades.", od.Name, od.Variety, nd.Variety)
}

func (c *upgradeChecker) checkFields(o origin, oenv, nenv map[string]int, of, nf []lf.Field) *Error {
	newByName := map[string]lf.Field{}
	for _, f := range nf {
		newByName[f.Name] = f
	}
	oldNames := map[string]bool{}
	for _, f := range of {
		oldNames[f.Name] = true
		if _, ok := newByName[f.Name]; !ok {
			return fail("RecordFieldsMissing", "The upgraded %s is missing some of its original fields.", o)
		}
	}
	for _, f := range of {
		if !c.sameType(oenv, nenv, f.Type, newByName[f.Name].Type) {
			return fail("RecordFieldsExistingChanged", "The upgraded %s has changed the types of some of its original fields.", o)
		}
	}
	for _, f := range nf {
		if oldNames[f.Name] || isOptional(f.Type) {
			continue
		}
		if o.kind == "variant" {
			return fail("VariantAddedVariantField", "The upgraded %s has added a field.", o)
		}
		return fail("RecordFieldsNewNonOptional", "The upgraded %s has added new fields, but those fields are not Optional.", o)
	}
	for i := range min(len(of), len(nf)) {
		if of[i].Name != nf[i].Name {
			return fail("RecordFieldsOrderChanged", "The upgraded %s has changed the order of its fields - any new fields must be added at the end of the record.", o)
		}
	}
	return nil
}

// isOptional reports whether t is syntactically Optional x.
func isOptional(t lf.Type) bool {
	a, ok := t.(*lf.TApp)
	if !ok {
		return false
	}
	b, ok := a.Fun.(*lf.TBuiltin)
	return ok && b.Builtin == lf.BuiltinOptional
}

func paramIndex(ps []lf.TypeParam) map[string]int {
	m := make(map[string]int, len(ps))
	for i, p := range ps {
		m[p.Name] = i
	}
	return m
}

// sameType compares an old and a new type (see CheckUpgrade): variables by
// binder position, data type references with sameTypeCon, builtins,
// naturals and applications structurally; anything else does not match.
func (c *upgradeChecker) sameType(oenv, nenv map[string]int, a, b lf.Type) bool {
	switch a := a.(type) {
	case *lf.TVar:
		b, ok := b.(*lf.TVar)
		if !ok {
			return false
		}
		i, oki := oenv[a.Name]
		j, okj := nenv[b.Name]
		return oki && okj && i == j
	case *lf.TNat:
		b, ok := b.(*lf.TNat)
		return ok && a.N == b.N
	case *lf.TBuiltin:
		b, ok := b.(*lf.TBuiltin)
		return ok && a.Builtin == b.Builtin
	case *lf.TCon:
		b, ok := b.(*lf.TCon)
		return ok && c.sameTypeCon(a.ID, b.ID)
	case *lf.TApp:
		b, ok := b.(*lf.TApp)
		return ok && c.sameType(oenv, nenv, a.Fun, b.Fun) && c.sameType(oenv, nenv, a.Arg, b.Arg)
	}
	return false
}

// sameTypeCon: same module and entity, and either the same package id or
// two known packages of the same name with old version ≤ new version.
func (c *upgradeChecker) sameTypeCon(a, b lf.TypeConID) bool {
	if a.Module != b.Module || a.Name != b.Name {
		return false
	}
	if a.PackageID == b.PackageID {
		return true
	}
	pa, pb := c.pkg(a.PackageID), c.pkg(b.PackageID)
	if pa == nil || pb == nil || pa.LanguageVersion.Major < 2 || pb.LanguageVersion.Major < 2 {
		return false
	}
	return pa.Name == pb.Name && lf.CompareVersions(pa.Version, pb.Version) <= 0
}
