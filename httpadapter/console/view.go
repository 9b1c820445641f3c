package console

// The console's view-model: what each page shows, built from the node's
// answers by source. Only this file (with tree.go, which orders a
// transaction's nodes) knows the shapes of the ledger package's results,
// so that the data source can change (the Node's typed API) without
// touching the templates or the handlers.

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// source reads the node for the pages: the typed Node API, and the
// JSON API (package jsonapi) for what the pages show as the JSON reads
// write it (arguments, keys and results as Daml JSON).
type source struct {
	node     *ledger.Node
	pageSize int
}

// api is the JSON API over the source's node.
func (s *source) api() *jsonapi.API { return jsonapi.New(s.node) }

// contractEvents is the JSON API's answer to events-by-contract-id, its
// interface views decoded as such (jsonapi.JsCreatedEvent carries them as
// any).
type contractEvents struct {
	Created *struct {
		CreatedEvent struct {
			jsonapi.JsCreatedEvent
			InterfaceViews []jsonapi.JsInterfaceView `json:"interfaceViews"`
		} `json:"createdEvent"`
	} `json:"created"`
	Archived *jsonapi.ArchivedWithSynchronizer `json:"archived"`
}

// overviewView is the participant page.
type overviewView struct {
	ParticipantID string
	Synchronizers []string
	LedgerEnd     int64
	Static        bool
	Time          string
	// Parties and Users are the numbers of parties and users, -1 when the
	// caller may not list them (a user who is no admin).
	Parties   int
	Users     int
	Packages  int
	Principal string
}

// denied reports whether err is the node's refusal for the caller's lack
// of rights, which a page shows as such and goes on without what it
// could not read.
func denied(err error) bool { return errors.Is(err, apierr.PermissionDenied) }

func (s *source) overview(ctx context.Context) (overviewView, error) {
	v := overviewView{ParticipantID: s.node.ParticipantIDString(), Static: s.node.StaticTime()}
	cs, err := s.node.ConnectedSynchronizers(ctx, "", "")
	if err != nil {
		return v, err
	}
	for _, c := range cs {
		v.Synchronizers = append(v.Synchronizers, c.ID)
	}
	if v.LedgerEnd, err = s.node.LedgerEnd(ctx); err != nil {
		return v, err
	}
	now, err := s.node.Time(ctx)
	if err != nil {
		return v, err
	}
	v.Time = now.UTC().Format(time.RFC3339Nano)
	switch parties, err := s.allParties(ctx); {
	case denied(err):
		v.Parties = -1
	case err != nil:
		return v, err
	default:
		v.Parties = len(parties)
	}
	v.Users = -1
	if n, err := s.userCount(ctx); err == nil {
		v.Users = n
	} else if !denied(err) {
		return v, err
	}
	pkgs, err := s.node.ListPackages(ctx)
	if err != nil {
		return v, err
	}
	v.Packages = len(pkgs)
	if p, ok := ledger.PrincipalFrom(ctx); ok {
		v.Principal = p.UserID
	}
	return v, nil
}

// userCount counts the users of every page.
func (s *source) userCount(ctx context.Context) (int, error) {
	n, token := 0, ""
	for {
		users, next, err := s.node.ListUsers(ctx, 0, token, "")
		if err != nil {
			return 0, err
		}
		n += len(users)
		if next == "" {
			return n, nil
		}
		token = next
	}
}

// partyRow is a party of the parties page.
type partyRow struct {
	ID          string
	Local       bool
	IDP         string
	Annotations []keyValue
}

type keyValue struct{ Key, Value string }

// userRow is a user with its rights.
type userRow struct {
	ID, PrimaryParty, IDP string
	Deactivated           bool
	Rights                []string
}

// partiesView is the parties page.
type partiesView struct {
	Parties []partyRow
	// PartiesError says why the parties are not shown (a caller without
	// the right to list them).
	PartiesError string
	Users        []userRow
	// UsersError says why the users are not all shown (a caller without
	// the right to list them, who sees its own user only).
	UsersError string
}

// allParties reads every page of the known parties.
func (s *source) allParties(ctx context.Context) ([]identity.Party, error) {
	var out []identity.Party
	token := ""
	for {
		page, next, err := s.node.ListParties(ctx, ledger.ListPartiesRequest{PageToken: token})
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if next == "" {
			return out, nil
		}
		token = next
	}
}

// partyIDs lists the known parties' ids (for the forms' pickers).
func (s *source) partyIDs(ctx context.Context) []string {
	ps, err := s.allParties(ctx)
	if err != nil {
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Party
	}
	return out
}

func (s *source) parties(ctx context.Context) (partiesView, error) {
	var v partiesView
	ps, err := s.allParties(ctx)
	if denied(err) {
		v.PartiesError = errorText(err)
	} else if err != nil {
		return v, err
	}
	for _, p := range ps {
		row := partyRow{ID: p.Party, Local: p.IsLocal, IDP: p.IdentityProviderID}
		for k, val := range p.LocalMetadata.Annotations {
			row.Annotations = append(row.Annotations, keyValue{k, val})
		}
		slices.SortFunc(row.Annotations, func(a, b keyValue) int { return cmp.Compare(a.Key, b.Key) })
		v.Parties = append(v.Parties, row)
	}
	token := ""
	for {
		users, next, err := s.node.ListUsers(ctx, 0, token, "")
		if err != nil {
			v.UsersError = errorText(err)
			if denied(err) {
				// The caller's own user, which any user may read.
				if u, err := s.node.GetUser(ctx, "", ""); err == nil {
					users, next = []identity.User{u}, ""
				}
			}
		}
		for _, u := range users {
			row := userRow{ID: u.ID, PrimaryParty: u.PrimaryParty, IDP: u.IdentityProviderID, Deactivated: u.IsDeactivated}
			if rights, err := s.node.ListUserRights(ctx, u.ID, u.IdentityProviderID); err == nil {
				for _, r := range rights {
					row.Rights = append(row.Rights, rightText(r))
				}
			}
			v.Users = append(v.Users, row)
		}
		if next == "" {
			return v, nil
		}
		token = next
	}
}

func rightText(r identity.Right) string {
	if r.Kind.HasParty() {
		return string(r.Kind) + " " + r.Party
	}
	return string(r.Kind)
}

// packageRow is a package of the packages page.
type packageRow struct {
	ID, Name, Version, LF string
	Vetted                bool
	Templates, Interfaces int
	Utility               bool
}

// packagesView is the packages page.
type packagesView struct {
	Packages []packageRow
}

// vetted returns the package ids vetted on any synchronizer.
func (s *source) vetted(ctx context.Context) map[string]bool {
	out := map[string]bool{}
	states, _, err := s.node.ListVettedPackages(ctx, ledger.ListVettedPackagesRequest{})
	if err != nil {
		return out
	}
	for _, st := range states {
		for _, p := range st.Packages {
			out[p.PackageID] = true
		}
	}
	return out
}

func (s *source) packages(ctx context.Context) (packagesView, error) {
	var v packagesView
	pm, err := s.node.PackageSource(ctx)
	if err != nil {
		return v, err
	}
	vetted := s.vetted(ctx)
	for id, p := range pm {
		row := packageRow{ID: id, Name: p.Name, Version: p.Version, LF: p.LanguageVersion.String(), Vetted: vetted[id], Utility: p.IsUtility() || p.IsStable()}
		for _, m := range p.Modules {
			row.Templates += len(m.Templates)
			row.Interfaces += len(m.Interfaces)
		}
		v.Packages = append(v.Packages, row)
	}
	slices.SortFunc(v.Packages, func(a, b packageRow) int {
		return cmp.Or(cmp.Compare(boolRank(a.Utility), boolRank(b.Utility)), cmp.Compare(a.Name, b.Name),
			lf.CompareVersions(a.Version, b.Version), cmp.Compare(a.ID, b.ID))
	})
	return v, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fieldView is a record field with its type.
type fieldView struct{ Name, Type string }

// choiceView is a choice of a template or interface.
type choiceView struct {
	Name       string
	Consuming  bool
	ArgType    string
	ArgFields  []fieldView
	ResultType string
}

// templateView is a template of a package.
type templateView struct {
	ID         string
	Name       string
	Fields     []fieldView
	Key        string
	Choices    []choiceView
	Implements []string
}

// interfaceView is an interface of a package with its implementations.
type interfaceView struct {
	ID, Name        string
	View            string
	Methods         []fieldView
	Choices         []choiceView
	Requires        []string
	Implementations []string
}

// moduleView is a module of a package.
type moduleView struct {
	Name       string
	Templates  []templateView
	Interfaces []interfaceView
	DataTypes  []dataTypeView
}

// dataTypeView is a serializable data type that is not a template.
type dataTypeView struct {
	Name, Variety string
	Fields        []fieldView
}

// packageView is the page of one package.
type packageView struct {
	ID, Name, Version, LF string
	Vetted                bool
	Deps                  []packageRow
	Modules               []moduleView
}

func (s *source) pkg(ctx context.Context, id string) (packageView, error) {
	pm, err := s.node.PackageSource(ctx)
	if err != nil {
		return packageView{}, err
	}
	p := pm[id]
	if p == nil {
		// The node's own answer for an unknown package.
		_, err := s.node.GetPackage(ctx, id)
		if err == nil {
			err = errNotFound("package " + id)
		}
		return packageView{}, err
	}
	v := packageView{ID: id, Name: p.Name, Version: p.Version, LF: p.LanguageVersion.String(), Vetted: s.vetted(ctx)[id]}
	for _, d := range p.DirectDeps {
		row := packageRow{ID: d}
		if dp := pm[d]; dp != nil {
			row.Name, row.Version = dp.Name, dp.Version
		}
		v.Deps = append(v.Deps, row)
	}
	for _, m := range p.Modules {
		mv := moduleView{Name: m.Name}
		tmpl := map[string]bool{}
		for _, t := range m.Templates {
			tmpl[t.Name] = true
			tv := templateView{ID: lf.TypeConID{PackageID: id, Module: m.Name, Name: t.Name}.String(), Name: t.Name,
				Fields: recordFields(m.DataType(t.Name))}
			if t.Key != nil {
				tv.Key = typeText(t.Key.Type)
			}
			for _, ch := range t.Choices {
				tv.Choices = append(tv.Choices, choiceOf(pm, ch))
			}
			for _, i := range t.Implements {
				tv.Implements = append(tv.Implements, i.String())
			}
			mv.Templates = append(mv.Templates, tv)
		}
		for _, i := range m.Interfaces {
			tmpl[i.Name] = true
			iid := lf.TypeConID{PackageID: id, Module: m.Name, Name: i.Name}
			iv := interfaceView{ID: iid.String(), Name: i.Name, View: typeText(i.View)}
			for _, meth := range i.Methods {
				iv.Methods = append(iv.Methods, fieldView{meth.Name, typeText(meth.Type)})
			}
			for _, ch := range i.Choices {
				iv.Choices = append(iv.Choices, choiceOf(pm, ch))
			}
			for _, r := range i.Requires {
				iv.Requires = append(iv.Requires, r.String())
			}
			iv.Implementations = implementations(pm, iid)
			mv.Interfaces = append(mv.Interfaces, iv)
		}
		for _, d := range m.DataTypes {
			if tmpl[d.Name] || !d.Serializable {
				continue
			}
			dv := dataTypeView{Name: d.Name, Variety: varietyText(d)}
			if len(d.Constructors) > 0 {
				for _, c := range d.Constructors {
					dv.Fields = append(dv.Fields, fieldView{Name: c})
				}
			} else {
				dv.Fields = recordFields(d)
			}
			mv.DataTypes = append(mv.DataTypes, dv)
		}
		v.Modules = append(v.Modules, mv)
	}
	return v, nil
}

// implementations lists the templates of every package that implement
// an interface.
func implementations(pm map[string]*lf.Package, iid lf.TypeConID) []string {
	var out []string
	for pid, p := range pm {
		for _, m := range p.Modules {
			for _, t := range m.Templates {
				if slices.Contains(t.Implements, iid) {
					out = append(out, lf.TypeConID{PackageID: pid, Module: m.Name, Name: t.Name}.String())
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func choiceOf(pm map[string]*lf.Package, ch *lf.Choice) choiceView {
	cv := choiceView{Name: ch.Name, Consuming: ch.Consuming, ArgType: typeText(ch.ArgType), ResultType: typeText(ch.ReturnType)}
	if tc, ok := ch.ArgType.(*lf.TCon); ok {
		if p := pm[tc.ID.PackageID]; p != nil {
			cv.ArgFields = recordFields(p.DataType(tc.ID.Module, tc.ID.Name))
		}
	}
	return cv
}

func recordFields(d *lf.DataType) []fieldView {
	if d == nil || len(d.Constructors) > 0 {
		return nil
	}
	out := make([]fieldView, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = fieldView{f.Name, typeText(f.Type)}
	}
	return out
}

func varietyText(d *lf.DataType) string {
	switch {
	case len(d.Constructors) > 0:
		return "enum"
	case d.Variety == lf.VariantVariety:
		return "variant"
	}
	return "record"
}

// typeText prints a type with the package ids of its type constructors
// left out (the page names the package).
func typeText(t lf.Type) string {
	if t == nil {
		return ""
	}
	s := t.String()
	// "pkgid:Module:Name" -> "Module:Name"
	var b strings.Builder
	for _, tok := range strings.Fields(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		lead := strings.TrimLeft(tok, "(")
		b.WriteString(tok[:len(tok)-len(lead)])
		if i := strings.IndexByte(lead, ':'); i == 64 && lf.IsPackageID(lead[:i]) {
			lead = lead[i+1:]
		}
		b.WriteString(lead)
	}
	return b.String()
}

// contractRow is an active contract of a party.
type contractRow struct {
	ContractID  string
	TemplateID  string
	Template    string
	Arg         Val
	Signatories []string
	Observers   []string
	CreatedAt   string
	Offset      int64
}

// contractsView is a page of a party's active contracts.
type contractsView struct {
	Party, Template string
	Parties         []string
	Templates       []string
	Rows            []contractRow
	ActiveAt        int64
	Page, Next      string
}

// party filter of a read: the party's contracts (of one template when
// template is set).
func partyFormat(party, template string, views []string) jsonapi.EventFormat {
	var f jsonapi.Filters
	if template != "" {
		f.Cumulative = append(f.Cumulative, jsonapi.CumulativeFilter{IdentifierFilter: jsonapi.IdentifierFilter{
			TemplateFilter: &jsonapi.Wrapped[jsonapi.TemplateFilterValue]{Value: jsonapi.TemplateFilterValue{TemplateID: template}}}})
	}
	for _, i := range views {
		f.Cumulative = append(f.Cumulative, jsonapi.CumulativeFilter{IdentifierFilter: jsonapi.IdentifierFilter{
			InterfaceFilter: &jsonapi.Wrapped[jsonapi.InterfaceFilterValue]{Value: jsonapi.InterfaceFilterValue{InterfaceID: i, IncludeInterfaceView: true}}}})
	}
	if template == "" && len(views) > 0 {
		f.Cumulative = append(f.Cumulative, jsonapi.CumulativeFilter{IdentifierFilter: jsonapi.IdentifierFilter{
			WildcardFilter: &jsonapi.Wrapped[jsonapi.WildcardFilterValue]{}}})
	}
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{party: f}, Verbose: true}
}

func (s *source) contracts(ctx context.Context, party, template, page string) (contractsView, error) {
	v := contractsView{Party: party, Template: template, Page: page}
	pm, err := s.node.PackageSource(ctx)
	if err != nil {
		return v, err
	}
	for pid, p := range pm {
		if p.IsUtility() || p.IsStable() {
			continue
		}
		for _, m := range p.Modules {
			for _, t := range m.Templates {
				v.Templates = append(v.Templates, lf.TypeConID{PackageID: pid, Module: m.Name, Name: t.Name}.String())
			}
		}
	}
	sort.Strings(v.Templates)
	if party == "" {
		v.Parties = s.partyIDs(ctx)
		return v, nil
	}
	size := int32(s.pageSize)
	res, err := jsonapi.DecodeAnswer[jsonapi.GetActiveContractsPageResponse](s.api().ActiveContractsPage(ctx, jsonapi.GetActiveContractsPageRequest{EventFormat: partyFormat(party, template, nil),
		MaxPageSize: &size, PageToken: page}))
	if err != nil {
		return v, err
	}
	v.ActiveAt = res.ActiveAtOffset
	if res.NextPageToken != nil {
		v.Next = *res.NextPageToken
	}
	lookup := lookupIn(pm)
	for _, ac := range res.ActiveContracts {
		a := ac.ContractEntry.JsActiveContract
		if a == nil {
			continue
		}
		ev := &a.CreatedEvent
		v.Rows = append(v.Rows, contractRow{ContractID: ev.ContractID, TemplateID: ev.TemplateID, Template: shortID(ev.TemplateID),
			Arg: renderJSON(ev.CreateArgument, templateType(ev.TemplateID), lookup), Signatories: ev.Signatories,
			Observers: ev.Observers, CreatedAt: ev.CreatedAt, Offset: ev.Offset})
	}
	return v, nil
}

// eventRef points at the update of an event.
type eventRef struct {
	UpdateID string
	Offset   int64
}

// interfaceViewRow is the view of a contract through one interface.
type interfaceViewRow struct {
	Interface string
	Value     Val
	Error     string
}

// contractView is the page of one contract.
type contractView struct {
	ContractID  string
	TemplateID  string
	Party       string
	Arg         Val
	Key         *Val
	Signatories []string
	Observers   []string
	Witnesses   []string
	CreatedAt   string
	Created     *eventRef
	Archived    *eventRef
	Views       []interfaceViewRow
	Choices     []choiceView
}

func (s *source) contract(ctx context.Context, cid, party string) (contractView, error) {
	v := contractView{ContractID: cid, Party: party}
	pm, err := s.node.PackageSource(ctx)
	if err != nil {
		return v, err
	}
	format := partyEvents(party)
	format.Verbose = true
	evs, err := jsonapi.DecodeAnswer[contractEvents](s.api().EventsByContractID(ctx, jsonapi.GetEventsByContractIDRequest{ContractID: cid, EventFormat: format}))
	if err != nil {
		return v, err
	}
	if evs.Created == nil {
		return v, errNotFound("contract " + cid)
	}
	ce := &evs.Created.CreatedEvent
	v.TemplateID, v.Signatories, v.Observers, v.Witnesses, v.CreatedAt = ce.TemplateID, ce.Signatories, ce.Observers, ce.WitnessParties, ce.CreatedAt
	lookup := lookupIn(pm)
	v.Arg = renderJSON(ce.CreateArgument, templateType(ce.TemplateID), lookup)
	_, tmpl := templateOf(pm, ce.TemplateID)
	if tmpl != nil && tmpl.Key != nil && len(ce.ContractKey) > 0 && string(ce.ContractKey) != "null" {
		k := renderJSON(ce.ContractKey, tmpl.Key.Type, lookup)
		v.Key = &k
	}
	if ref, err := s.updateAt(ctx, ce.Offset, party); err == nil {
		v.Created = ref
	}
	if evs.Archived != nil {
		if ref, err := s.updateAt(ctx, evs.Archived.ArchivedEvent.Offset, party); err == nil {
			v.Archived = ref
		}
	}
	if tmpl == nil {
		return v, nil
	}
	if evs.Archived == nil {
		for _, ch := range tmpl.Choices {
			v.Choices = append(v.Choices, choiceOf(pm, ch))
		}
	}
	// Interface views: the node computes them for an interface filter.
	if len(tmpl.Implements) > 0 && evs.Archived == nil {
		viewer := party
		if viewer == "" && len(ce.Signatories) > 0 {
			viewer = ce.Signatories[0]
		}
		var ifaces []string
		for _, i := range tmpl.Implements {
			ifaces = append(ifaces, i.String())
		}
		withViews, err := jsonapi.DecodeAnswer[contractEvents](s.api().EventsByContractID(ctx, jsonapi.GetEventsByContractIDRequest{ContractID: cid,
			EventFormat: partyFormat(viewer, "", ifaces)}))
		if err == nil && withViews.Created != nil {
			for _, iv := range withViews.Created.CreatedEvent.InterfaceViews {
				v.Views = append(v.Views, interfaceViewOf(iv, pm))
			}
		}
	}
	return v, nil
}

// interfaceViewOf renders an interface view of a contract's events.
func interfaceViewOf(jv jsonapi.JsInterfaceView, pm map[string]*lf.Package) interfaceViewRow {
	row := interfaceViewRow{Interface: jv.InterfaceID}
	if len(jv.ViewValue) == 0 {
		row.Error = jv.ViewStatus.Message
		if row.Error == "" {
			row.Error = "no view"
		}
		return row
	}
	var t lf.Type
	if id, err := lf.SplitIdentifier(jv.InterfaceID); err == nil {
		if p := pm[id.PackageID]; p != nil {
			if i := p.Interface(id.Module, id.Entity); i != nil {
				t = i.View
			}
		}
	}
	row.Value = renderJSON(jv.ViewValue, t, lookupIn(pm))
	return row
}

// updateAt locates the update at an offset.
func (s *source) updateAt(ctx context.Context, off int64, party string) (*eventRef, error) {
	res, err := jsonapi.DecodeAnswer[jsonapi.GetUpdateResponse](s.api().UpdateByOffset(ctx, jsonapi.GetUpdateByOffsetRequest{Offset: off, UpdateFormat: updateFormat(party)}))
	if err != nil {
		return nil, err
	}
	u := res.Update
	switch {
	case u.Transaction != nil:
		return &eventRef{UpdateID: u.Transaction.Value.UpdateID, Offset: off}, nil
	case u.Reassignment != nil:
		return &eventRef{UpdateID: u.Reassignment.Value.UpdateID, Offset: off}, nil
	}
	return &eventRef{Offset: off}, nil
}

// partyEvents reads a party's events (every party's with party empty).
func partyEvents(party string) jsonapi.EventFormat {
	if party == "" {
		return jsonapi.EventFormat{FiltersForAnyParty: &jsonapi.Filters{}}
	}
	return jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{party: {}}}
}

// updateFormat reads a party's view of every kind of update (every
// party's with party empty), transactions in the ledger-effects shape.
func updateFormat(party string) *jsonapi.UpdateFormat {
	ef := partyEvents(party)
	ef.Verbose = true
	topo := &jsonapi.ParticipantAuthorizationTopologyFormat{}
	if party != "" {
		topo.Parties = []string{party}
	}
	return &jsonapi.UpdateFormat{
		IncludeTransactions:   &jsonapi.TransactionFormat{EventFormat: ef, TransactionShape: jsonapi.ShapeLedgerEffects},
		IncludeReassignments:  &ef,
		IncludeTopologyEvents: &jsonapi.TopologyFormat{IncludeParticipantAuthorizationEvents: topo},
	}
}

// updateRow is an update of the update stream.
type updateRow struct {
	Kind       string
	UpdateID   string
	Offset     int64
	RecordTime string
	CommandID  string
	Summary    []string
}

// updatesView is a page of a party's update stream.
type updatesView struct {
	Party   string
	Parties []string
	Rows    []updateRow
	Page    string
	Next    string
}

func (s *source) updates(ctx context.Context, party, page string) (updatesView, error) {
	v := updatesView{Party: party, Page: page}
	if party == "" {
		v.Parties = s.partyIDs(ctx)
		return v, nil
	}
	size := int32(s.pageSize)
	res, err := jsonapi.DecodeAnswer[jsonapi.GetUpdatesPageResponse](s.api().UpdatesPage(ctx, jsonapi.GetUpdatesPageRequest{UpdateFormat: updateFormat(party), DescendingOrder: true,
		MaxPageSize: &size, PageToken: page}))
	if err != nil {
		return v, err
	}
	if res.NextPageToken != nil && len(res.Updates) > 0 {
		v.Next = *res.NextPageToken
	}
	for _, ur := range res.Updates {
		u := ur.Update
		switch {
		case u.Transaction != nil:
			t := &u.Transaction.Value
			row := updateRow{Kind: "transaction", UpdateID: t.UpdateID, Offset: t.Offset, RecordTime: t.RecordTime, CommandID: t.CommandID}
			row.Summary = summarize(t.Events)
			v.Rows = append(v.Rows, row)
		case u.Reassignment != nil:
			r := &u.Reassignment.Value
			row := updateRow{Kind: "reassignment", UpdateID: r.UpdateID, Offset: r.Offset, RecordTime: r.RecordTime, CommandID: r.CommandID}
			for _, e := range r.Events {
				switch {
				case e.JsAssignmentEvent != nil:
					row.Summary = append(row.Summary, "assigned "+shortID(e.JsAssignmentEvent.CreatedEvent.TemplateID)+" "+e.JsAssignmentEvent.CreatedEvent.ContractID)
				case e.JsUnassignedEvent != nil:
					row.Summary = append(row.Summary, "unassigned "+shortID(e.JsUnassignedEvent.Value.TemplateID)+" "+e.JsUnassignedEvent.Value.ContractID)
				}
			}
			v.Rows = append(v.Rows, row)
		case u.TopologyTransaction != nil:
			t := &u.TopologyTransaction.Value
			row := updateRow{Kind: "topology", UpdateID: t.UpdateID, Offset: t.Offset, RecordTime: t.RecordTime}
			for _, e := range t.Events {
				row.Summary = append(row.Summary, topologyText(e))
			}
			v.Rows = append(v.Rows, row)
		}
	}
	return v, nil
}

// summarize lists a transaction's root actions and counts.
func summarize(evs []jsonapi.JsEvent) []string {
	var out []string
	created, exercised := 0, 0
	var last int32 = -1
	for _, e := range evs {
		switch {
		case e.CreatedEvent != nil:
			created++
			if e.CreatedEvent.NodeID > last {
				out = append(out, "create "+shortID(e.CreatedEvent.TemplateID))
			}
		case e.ExercisedEvent != nil:
			exercised++
			x := e.ExercisedEvent
			if x.NodeID > last {
				out = append(out, "exercise "+x.Choice+" on "+shortID(x.TemplateID))
				last = x.LastDescendantNodeID
			}
		}
	}
	if len(out) > 3 {
		out = append(out[:3], "…")
	}
	out = append(out, strconv.Itoa(created)+" created, "+strconv.Itoa(exercised)+" exercised")
	return out
}

func topologyText(e jsonapi.TopologyEvent) string {
	k := e.Event
	switch {
	case k.ParticipantAuthorizationAdded != nil:
		a := k.ParticipantAuthorizationAdded.Value
		return "authorization added: " + a.PartyID + " on " + a.ParticipantID + " (" + string(a.ParticipantPermission) + ")"
	case k.ParticipantAuthorizationChanged != nil:
		a := k.ParticipantAuthorizationChanged.Value
		return "authorization changed: " + a.PartyID + " on " + a.ParticipantID + " (" + string(a.ParticipantPermission) + ")"
	case k.ParticipantAuthorizationRevoked != nil:
		a := k.ParticipantAuthorizationRevoked.Value
		return "authorization revoked: " + a.PartyID + " on " + a.ParticipantID
	}
	return "topology event"
}

// updateView is the page of one update.
type updateView struct {
	Kind        string
	UpdateID    string
	Offset      int64
	Party       string
	CommandID   string
	WorkflowID  string
	EffectiveAt string
	RecordTime  string
	Sync        string
	Roots       []*treeNode
	// Replayed says whether the fetches and rollbacks are shown (the
	// transaction was re-interpreted), else why not.
	Replayed   bool
	ReplayNote string
	Events     []string
	Reassigned []updateRow
}

func (s *source) update(ctx context.Context, id, party string) (updateView, error) {
	v := updateView{UpdateID: id, Party: party}
	res, err := jsonapi.DecodeAnswer[jsonapi.GetUpdateResponse](s.api().UpdateByID(ctx, jsonapi.GetUpdateByIDRequest{UpdateID: id, UpdateFormat: updateFormat(party)}))
	if err != nil {
		return v, err
	}
	u := res.Update
	switch {
	case u.Transaction != nil:
		t := &u.Transaction.Value
		v.Kind, v.Offset, v.CommandID, v.WorkflowID, v.EffectiveAt, v.RecordTime, v.Sync =
			"transaction", t.Offset, t.CommandID, t.WorkflowID, t.EffectiveAt, t.RecordTime, t.SynchronizerID
		pm, err := s.node.PackageSource(ctx)
		if err != nil {
			return v, err
		}
		var parties []string
		if party != "" {
			parties = []string{party}
		}
		full, ferr := s.node.TransactionNodes(ctx, id, parties)
		v.Roots = buildTree(t.Events, full, lookupIn(pm))
		if ferr != nil {
			v.ReplayNote = "Fetches and rollbacks are not shown: " + errorText(ferr)
		} else {
			v.Replayed = true
		}
	case u.Reassignment != nil:
		r := &u.Reassignment.Value
		v.Kind, v.Offset, v.CommandID, v.WorkflowID, v.RecordTime, v.Sync = "reassignment", r.Offset, r.CommandID, r.WorkflowID, r.RecordTime, r.SynchronizerID
		for _, e := range r.Events {
			switch {
			case e.JsAssignmentEvent != nil:
				a := e.JsAssignmentEvent
				v.Events = append(v.Events, "assigned "+a.CreatedEvent.ContractID+" ("+shortID(a.CreatedEvent.TemplateID)+") from "+a.Source+" to "+a.Target+", counter "+strconv.FormatInt(a.ReassignmentCounter, 10))
			case e.JsUnassignedEvent != nil:
				a := e.JsUnassignedEvent.Value
				v.Events = append(v.Events, "unassigned "+a.ContractID+" ("+shortID(a.TemplateID)+") from "+a.Source+" to "+a.Target+", counter "+strconv.FormatInt(a.ReassignmentCounter, 10))
			}
		}
	case u.TopologyTransaction != nil:
		t := &u.TopologyTransaction.Value
		v.Kind, v.Offset, v.RecordTime, v.Sync = "topology", t.Offset, t.RecordTime, t.SynchronizerID
		for _, e := range t.Events {
			v.Events = append(v.Events, topologyText(e))
		}
	}
	return v, nil
}

// lookupIn is a package lookup over a package map.
func lookupIn(pm map[string]*lf.Package) func(string) *lf.Package {
	return func(id string) *lf.Package { return pm[id] }
}

// templateType is the type of a template's argument, from its
// "pkg:Module:Name" id (nil when it does not parse).
func templateType(tid string) lf.Type {
	id, err := lf.SplitIdentifier(tid)
	if err != nil || id.PackageID == "" {
		return nil
	}
	return value.TypeOf(id.PackageID, id.Module, id.Entity)
}

// templateOf returns a template's definition from its id.
func templateOf(pm map[string]*lf.Package, tid string) (lf.TypeConID, *lf.Template) {
	id, err := lf.SplitIdentifier(tid)
	if err != nil {
		return lf.TypeConID{}, nil
	}
	tc := lf.TypeConID{PackageID: id.PackageID, Module: id.Module, Name: id.Entity}
	p := pm[id.PackageID]
	if p == nil {
		return tc, nil
	}
	return tc, p.Template(id.Module, id.Entity)
}

// shortID is a template id without its package id.
func shortID(tid string) string {
	if i := strings.IndexByte(tid, ':'); i > 0 {
		return tid[i+1:]
	}
	return tid
}

// submit commits one command as the parties and returns what the form shows:
// the update, the created contract or the choice's result.
func (s *source) submit(ctx context.Context, actAs []string, cmd ledger.Command, resT lf.Type, lookup func(string) *lf.Package) (*submitResult, error) {
	// Each form submission is a new command (a fresh command id), so a
	// resubmitted form is a second command, as it would be from a client.
	res, err := s.node.Submit(ctx, ledger.Commands{ActAs: actAs, CommandID: "console-" + rand.Text(), Commands: []ledger.Command{cmd}})
	if err != nil {
		return nil, err
	}
	out := &submitResult{UpdateID: res.UpdateID, Offset: res.Offset}
	if t := res.Transaction; t != nil && len(t.Roots) > 0 {
		switch x := t.Node(t.Roots[0]).(type) {
		case *tx.Create:
			out.ContractID = string(x.ContractID)
		case *tx.Exercise:
			if x.Result != nil {
				v := renderValue(x.Result, resT, lookup)
				out.Value = &v
			}
		}
	}
	return out, nil
}
