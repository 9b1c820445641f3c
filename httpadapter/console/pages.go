package console

import (
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pageData is what every page template gets.
type pageData struct {
	Title    string
	Base     string
	CSRF     string
	User     string
	AuthNone bool
	Nav      string
	Page     any
}

// valCtx carries a value to the recursive "val" template with the base
// path of its links.
type valCtx struct {
	Base string
	V    Val
}

var funcs = template.FuncMap{
	"wrap":  func(base string, v Val) valCtx { return valCtx{base, v} },
	"p":     url.PathEscape,
	"short": shortID,
	"abbr":  abbreviate,
	"join":  func(xs []string) string { return strings.Join(xs, ", ") },
	"deref": func(v *Val) Val { return *v },
	"plist": func(base string, xs []string) partyList { return partyList{base, xs} },
	"nwrap": func(base string, n *treeNode) nodeCtx { return nodeCtx{base, n} },
	"fwrap": func(values map[string]string, f formField) fieldCtx { return fieldCtx{values, f} },
}

// fieldCtx carries a form field and the submitted values to the
// recursive "field" template.
type fieldCtx struct {
	Values map[string]string
	F      formField
}

// partyList carries parties to the "parties" template.
type partyList struct {
	Base string
	List []string
}

// nodeCtx carries a tree node to the recursive "node" template.
type nodeCtx struct {
	Base string
	N    *treeNode
}

// pages returns one template set per page: the layout, the shared
// definitions and the page's own file. They are parsed at the first
// page, not at package init: a process that imports the console (as
// ledgerd does) but serves no page pays nothing at start (~7 ms of CPU,
// measured in ledgerd's restart).
var pages = sync.OnceValue(func() map[string]*template.Template {
	out := map[string]*template.Template{}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	for _, n := range names {
		base := path.Base(n)
		if base == "layout.html" || base == "shared.html" {
			continue
		}
		t := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/shared.html", n))
		out[strings.TrimSuffix(base, ".html")] = t
	}
	return out
})

// render writes a page.
func (c *Console) render(w http.ResponseWriter, r *request, status int, name, title string, page any) {
	d := pageData{Title: title, Base: r.base, AuthNone: c.opts.Authenticate == nil, Nav: name, Page: page}
	if r.sess != nil {
		d.CSRF = r.sess.csrf
	}
	if r.ctx != nil {
		if p, ok := ledger.PrincipalFrom(r.ctx); ok {
			d.User = p.UserID
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := pages()[name].ExecuteTemplate(w, "layout.html", d); err != nil {
		c.log.Error("console: rendering a page", "page", name, "err", err)
	}
}

// errorView is the error page.
type errorView struct {
	Message string
	Code    string
	// Hint explains a refusal of the node's authorization.
	Hint string
}

// renderError shows an error: Canton's code and cause for a node error,
// with the HTTP status of its category.
func (c *Console) renderError(w http.ResponseWriter, r *request, status int, err error) {
	v := errorView{Message: err.Error()}
	var e *apierr.Error
	if errors.As(err, &e) {
		v.Code, v.Message = e.Code.Name, e.Cause
		if e.Code.Name == "PERMISSION_DENIED" {
			v.Hint = "The console reads and acts with the rights of its token's user: reading a party needs CanReadAs (or CanReadAsAnyParty), acting as one CanActAs."
		}
		if status == 0 {
			status = e.HTTPStatus()
		}
	}
	if status == 0 {
		status = http.StatusInternalServerError
	}
	c.render(w, r, status, "error", "Error", v)
}

// notFoundError is a console-side "not found" (a 404 page): what is
// missing.
type notFoundError string

// Error says what was not found.
func (e notFoundError) Error() string { return string(e) + " not found" }

// errNotFound is the error for a missing thing, "template pkg:M:T".
func errNotFound(what string) error { return notFoundError(what) }

// fail renders a handler's error.
func (c *Console) fail(w http.ResponseWriter, r *request, err error) {
	status := 0
	var nf notFoundError
	if errors.As(err, &nf) {
		status = http.StatusNotFound
	}
	c.renderError(w, r, status, err)
}

func serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	data, err := staticFS.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	switch path.Ext(name) {
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(data)
}

// loginView is the login page.
type loginView struct {
	Next, Error string
	AuthNone    bool
}

func (c *Console) overview(w http.ResponseWriter, r *request) {
	v, err := c.src.overview(r.ctx)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "overview", "Participant", v)
}

// advanceTime moves the static clock forward.
func (c *Console) advanceTime(w http.ResponseWriter, r *request) {
	d, err := time.ParseDuration(strings.TrimSpace(r.PostFormValue("by")))
	if err != nil || d <= 0 {
		c.renderError(w, r, http.StatusBadRequest, errors.New("advance by: a positive Go duration is expected, such as 1h30m"))
		return
	}
	if err := c.node.AdvanceTime(r.ctx, d); err != nil {
		c.fail(w, r, err)
		return
	}
	http.Redirect(w, r.Request, r.base+"/", http.StatusSeeOther)
}

func (c *Console) parties(w http.ResponseWriter, r *request) {
	v, err := c.src.parties(r.ctx)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "parties", "Parties and users", v)
}

func (c *Console) packages(w http.ResponseWriter, r *request) {
	v, err := c.src.packages(r.ctx)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "packages", "Packages", v)
}

func (c *Console) pkg(w http.ResponseWriter, r *request) {
	v, err := c.src.pkg(r.ctx, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "package", "Package "+v.Name, v)
}

func (c *Console) contracts(w http.ResponseWriter, r *request) {
	q := r.URL.Query()
	v, err := c.src.contracts(r.ctx, q.Get("party"), q.Get("template"), q.Get("page"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "contracts", "Contracts", v)
}

func (c *Console) contract(w http.ResponseWriter, r *request) {
	v, err := c.src.contract(r.ctx, r.PathValue("cid"), r.URL.Query().Get("party"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "contract", "Contract", v)
}

func (c *Console) updates(w http.ResponseWriter, r *request) {
	q := r.URL.Query()
	v, err := c.src.updates(r.ctx, q.Get("party"), q.Get("page"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "updates", "Updates", v)
}

func (c *Console) update(w http.ResponseWriter, r *request) {
	v, err := c.src.update(r.ctx, r.PathValue("id"), r.URL.Query().Get("party"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "update", "Update", v)
}

// formView is a create or exercise form, and its outcome.
type formView struct {
	// Action is create or exercise.
	Action     string
	TemplateID string
	ContractID string
	Choice     string
	ArgType    string
	ResultType string
	Party      string
	Parties    []string
	Fields     []formField
	Values     map[string]string
	Error      string
	Result     *submitResult
}

// submitResult is a committed command.
type submitResult struct {
	UpdateID   string
	Offset     int64
	ContractID string
	Value      *Val
}

// createForm shows the form of a template's create argument.
func (c *Console) createForm(w http.ResponseWriter, r *request) {
	v, _, err := c.createView(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "form", "Create "+shortID(v.TemplateID), v)
}

// formTypes are the LF types of a form's argument and result (nil for a
// create), with the package lookup they resolve in.
type formTypes struct {
	arg, res lf.Type
	lookup   func(string) *lf.Package
}

func (c *Console) createView(r *request) (formView, formTypes, error) {
	tid := r.FormValue("template")
	v := formView{Action: "create", TemplateID: tid, Party: r.FormValue("party"), Values: map[string]string{}}
	pm, err := c.node.PackageSource(r.ctx)
	if err != nil {
		return v, formTypes{}, err
	}
	if _, tmpl := templateOf(pm, tid); tmpl == nil {
		return v, formTypes{}, errNotFound("template " + tid)
	}
	ft := formTypes{arg: templateType(tid), lookup: lookupIn(pm)}
	v.Fields = formFields("f", ft.arg, ft.lookup, 0)
	v.ArgType = shortID(tid)
	v.Parties = c.src.partyIDs(r.ctx)
	return v, ft, nil
}

// create submits a create command built from the form.
func (c *Console) create(w http.ResponseWriter, r *request) {
	v, ft, err := c.createView(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	keepValues(r, &v)
	res, err := c.submitForm(r, v.Party, ft, func(arg value.Value) ledger.Command {
		id, _ := templateOf(nil, v.TemplateID)
		return ledger.CreateCommand{Template: ledger.TemplateByID(id), Arguments: arg}
	})
	c.formOutcome(w, r, v, res, err)
}

// exerciseView is the form of a choice on a contract.
func (c *Console) exerciseView(r *request) (formView, formTypes, error) {
	v := formView{Action: "exercise", ContractID: r.FormValue("cid"), Choice: r.FormValue("choice"), Party: r.FormValue("party"), Values: map[string]string{}}
	pm, err := c.node.PackageSource(r.ctx)
	if err != nil {
		return v, formTypes{}, err
	}
	evs, err := jsonapi.DecodeAnswer[contractEvents](jsonapi.New(c.node).EventsByContractID(r.ctx, jsonapi.GetEventsByContractIDRequest{ContractID: v.ContractID, EventFormat: partyEvents(v.Party)}))
	if err != nil {
		return v, formTypes{}, err
	}
	if evs.Created == nil {
		return v, formTypes{}, errNotFound("contract " + v.ContractID)
	}
	v.TemplateID = evs.Created.CreatedEvent.TemplateID
	ft := formTypes{lookup: lookupIn(pm)}
	ft.arg, ft.res = choiceTypes(v.TemplateID, "", v.Choice, ft.lookup)
	if ft.arg == nil {
		return v, formTypes{}, errNotFound("choice " + v.Choice + " of " + v.TemplateID)
	}
	v.ArgType, v.ResultType = typeText(ft.arg), typeText(ft.res)
	v.Fields = formFields("f", ft.arg, ft.lookup, 0)
	v.Parties = c.src.partyIDs(r.ctx)
	return v, ft, nil
}

func (c *Console) exerciseForm(w http.ResponseWriter, r *request) {
	v, _, err := c.exerciseView(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "form", "Exercise "+v.Choice, v)
}

// exercise submits an exercise command built from the form.
func (c *Console) exercise(w http.ResponseWriter, r *request) {
	v, ft, err := c.exerciseView(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	keepValues(r, &v)
	res, err := c.submitForm(r, v.Party, ft, func(arg value.Value) ledger.Command {
		id, _ := templateOf(nil, v.TemplateID)
		return ledger.ExerciseCommand{Template: ledger.TemplateByID(id), ContractID: value.ContractID(v.ContractID), Choice: v.Choice, Argument: arg}
	})
	c.formOutcome(w, r, v, res, err)
}

// keepValues puts the submitted values back into the form.
func keepValues(r *request, v *formView) {
	for k, vs := range r.PostForm {
		if strings.HasPrefix(k, "f.") && len(vs) > 0 {
			v.Values[k] = vs[0]
		}
	}
}

// submitForm decodes the form's argument against its LF type and
// submits the command as the chosen parties (party is a comma-separated
// list).
func (c *Console) submitForm(r *request, party string, ft formTypes, cmd func(value.Value) ledger.Command) (*submitResult, error) {
	var actAs []string
	for _, p := range strings.Split(party, ",") {
		if p = strings.TrimSpace(p); p != "" {
			actAs = append(actAs, p)
		}
	}
	if len(actAs) == 0 {
		return nil, errors.New("choose the party that acts")
	}
	raw, err := formJSON("f", ft.arg, r.PostFormValue, func(k string) bool { _, ok := r.PostForm[k]; return ok }, ft.lookup)
	if err != nil {
		return nil, err
	}
	arg, err := value.FromJSON(raw, ft.arg, ft.lookup)
	if err != nil {
		return nil, err
	}
	return c.src.submit(r.ctx, actAs, cmd(arg), ft.res, ft.lookup)
}

func (c *Console) formOutcome(w http.ResponseWriter, r *request, v formView, res *submitResult, err error) {
	title := "Create " + shortID(v.TemplateID)
	if v.Action == "exercise" {
		title = "Exercise " + v.Choice
	}
	status := http.StatusOK
	if err != nil {
		v.Error = errorText(err)
		status = http.StatusBadRequest
		var e *apierr.Error
		if errors.As(err, &e) {
			status = e.HTTPStatus()
		}
	}
	v.Result = res
	c.render(w, r, status, "form", title, v)
}

// abbreviate shortens an id for display (the page keeps the whole id in
// the link and its title): a party to its name and the start of its
// namespace fingerprint, a contract id to its first 16 digits.
func abbreviate(id string) string {
	if name, ns, ok := strings.Cut(id, "::"); ok {
		if len(ns) > 12 {
			return name + "::" + ns[:12] + "…"
		}
		return id
	}
	if len(id) > 20 {
		return id[:16] + "…"
	}
	return id
}
