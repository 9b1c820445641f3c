// Package console is ledgernode's browser console: server-rendered HTML
// pages (html/template, embedded assets, no external script or style) over
// a *ledger.Node, mounted by httpadapter under /console.
//
// The pages show the participant, its parties and users, its packages and
// their types, a party's contracts, the update stream and each transaction
// drawn as its tree, and offer forms, generated from the Daml-LF types, that
// create a contract or exercise a choice. Like the adapter it lives in, the
// console holds no business rule: it decodes a request, calls Node methods
// with the caller's identity.Principal in the context (so the node applies
// its authorization), and renders the result (view.go builds the pages'
// view-model from the node's answers).
//
// It is an admin tool: a request is authorized with an access token, taken
// from the console's login form (kept server-side, the browser holds a
// session cookie) or from Options.Token; without either nothing is shown,
// unless the adapter runs in auth mode none. Every form carries a CSRF token
// bound to the session, and html/template escapes every ledger value.
package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// Options configures the console.
type Options struct {
	// Authenticate verifies an access token and resolves it to the
	// caller's Principal, as the JSON API does for a bearer token. Nil
	// means auth mode none: every request acts as the participant admin.
	Authenticate func(ctx context.Context, token string) (identity.Principal, error)
	// Token, when set, authorizes the requests of browsers that have not
	// logged in (ledgerd -console-token). It is verified by Authenticate
	// on every request, like a token given at the login form.
	Token string
	// Logger receives the console's logs; nil means slog.Default().
	Logger *slog.Logger
	// PageSize is the number of contracts and updates per page (default
	// 50, at most 500).
	PageSize int
}

// Prefix is the path the console answers under.
const Prefix = "/console"

// cookieName is the session cookie.
const cookieName = "ledgernode_console"

// maxSessions bounds the sessions kept in memory: beyond it the least
// recently used one is dropped.
const maxSessions = 10000

// sessionTTL is how long an unused session lives.
const sessionTTL = 12 * time.Hour

// Console is the console's http.Handler.
type Console struct {
	node     *ledger.Node
	opts     Options
	log      *slog.Logger
	mux      *http.ServeMux
	sessions sessionStore
	src      *source
}

// New returns the console of node. It serves the paths under Prefix
// ("/console/…"); the adapter may itself be mounted under a prefix (links
// follow the request's own path).
func New(node *ledger.Node, opts Options) *Console {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 50
	}
	opts.PageSize = min(opts.PageSize, 500)
	c := &Console{node: node, opts: opts, log: opts.Logger, sessions: sessionStore{m: map[string]*session{}},
		src: &source{node: node, pageSize: opts.PageSize}}
	m := http.NewServeMux()
	c.mux = m
	m.HandleFunc("GET "+Prefix, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, baseOf(r)+"/", http.StatusSeeOther)
	})
	m.HandleFunc("GET "+Prefix+"/static/{file}", serveStatic)
	m.HandleFunc("GET "+Prefix+"/login", c.loginPage)
	m.HandleFunc("POST "+Prefix+"/login", c.login)
	m.HandleFunc("POST "+Prefix+"/logout", c.logout)
	c.page("GET", "/{$}", c.overview)
	c.page("POST", "/time", c.advanceTime)
	c.page("GET", "/parties", c.parties)
	c.page("GET", "/packages", c.packages)
	c.page("GET", "/packages/{id}", c.pkg)
	c.page("GET", "/contracts", c.contracts)
	c.page("GET", "/contracts/{cid}", c.contract)
	c.page("GET", "/updates", c.updates)
	c.page("GET", "/updates/{id}", c.update)
	c.page("GET", "/create", c.createForm)
	c.page("POST", "/create", c.create)
	c.page("GET", "/exercise", c.exerciseForm)
	c.page("POST", "/exercise", c.exercise)
	return c
}

// ServeHTTP serves a console request.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Nothing from elsewhere: no external script, style, frame or form
	// target; the pages are not cached (they hold ledger data).
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	c.mux.ServeHTTP(w, r)
}

// request is what a page handler gets: the request, its context carrying
// the caller's Principal, its session (for the CSRF token) and the base
// path of the links.
type request struct {
	*http.Request
	ctx  context.Context
	sess *session
	base string
}

// page registers an authorized page: authenticate, check the CSRF token
// of a POST, run the handler.
func (c *Console) page(method, path string, fn func(w http.ResponseWriter, r *request)) {
	c.mux.HandleFunc(method+" "+Prefix+path, func(w http.ResponseWriter, hr *http.Request) {
		r := &request{Request: hr, base: baseOf(hr)}
		sess := c.sessions.get(hr)
		token := c.opts.Token
		if sess != nil && sess.token != "" {
			token = sess.token
		}
		ctx := hr.Context()
		if c.opts.Authenticate == nil {
			ctx = ledger.WithPrincipal(ctx, identity.Principal{UserID: identity.DefaultParticipantAdmin, Wildcard: true})
		} else {
			if token == "" {
				c.needLogin(w, r, "")
				return
			}
			p, err := c.opts.Authenticate(ctx, token)
			if err != nil {
				c.needLogin(w, r, "The token was refused: "+errorText(err))
				return
			}
			ctx = ledger.WithPrincipal(ctx, p)
		}
		r.ctx = ctx
		if method == http.MethodPost {
			if sess == nil || !sess.validCSRF(hr.PostFormValue("csrf")) {
				c.renderError(w, r, http.StatusForbidden, errors.New("the form's CSRF token is missing or does not match this session: reload the page and submit again"))
				return
			}
		} else if sess == nil {
			// Forms need a session for their CSRF token.
			sess = c.sessions.create(w, r, "")
		}
		r.sess = sess
		fn(w, r)
	})
}

// needLogin answers a request without a usable token: a GET is sent to
// the login page, anything else is refused.
func (c *Console) needLogin(w http.ResponseWriter, r *request, msg string) {
	if r.Method == http.MethodGet {
		q := url.Values{"next": {r.URL.RequestURI()}}
		if msg != "" {
			q.Set("error", msg)
		}
		http.Redirect(w, r.Request, r.base+"/login?"+q.Encode(), http.StatusSeeOther)
		return
	}
	c.renderError(w, r, http.StatusUnauthorized, errors.New("not logged in"))
}

// loginPage shows the token field (and creates the session whose CSRF
// token the form carries).
func (c *Console) loginPage(w http.ResponseWriter, hr *http.Request) {
	r := &request{Request: hr, ctx: hr.Context(), base: baseOf(hr)}
	r.sess = c.sessions.get(hr)
	if r.sess == nil {
		r.sess = c.sessions.create(w, r, "")
	}
	c.render(w, r, http.StatusOK, "login", "Log in", loginView{Next: safeNext(r.base, hr.URL.Query().Get("next")),
		Error: hr.URL.Query().Get("error"), AuthNone: c.opts.Authenticate == nil})
}

// login checks the form's token with Authenticate and, when it is
// accepted, keeps it in a new session (the session id changes at login).
func (c *Console) login(w http.ResponseWriter, hr *http.Request) {
	r := &request{Request: hr, ctx: hr.Context(), base: baseOf(hr)}
	r.sess = c.sessions.get(hr)
	if r.sess == nil || !r.sess.validCSRF(hr.PostFormValue("csrf")) {
		c.renderError(w, r, http.StatusForbidden, errors.New("the form's CSRF token is missing or does not match this session: reload the page and submit again"))
		return
	}
	token := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(hr.PostFormValue("token")), "Bearer "))
	next := safeNext(r.base, hr.PostFormValue("next"))
	if c.opts.Authenticate != nil {
		if token == "" {
			c.render(w, r, http.StatusUnauthorized, "login", "Log in", loginView{Next: next, Error: "Enter an access token."})
			return
		}
		if _, err := c.opts.Authenticate(hr.Context(), token); err != nil {
			c.render(w, r, http.StatusUnauthorized, "login", "Log in", loginView{Next: next, Error: "The token was refused: " + errorText(err)})
			return
		}
	}
	c.sessions.drop(r.sess.id)
	c.sessions.create(w, r, token)
	http.Redirect(w, hr, next, http.StatusSeeOther)
}

// logout forgets the session.
func (c *Console) logout(w http.ResponseWriter, hr *http.Request) {
	r := &request{Request: hr, ctx: hr.Context(), base: baseOf(hr)}
	sess := c.sessions.get(hr)
	if sess == nil || !sess.validCSRF(hr.PostFormValue("csrf")) {
		c.renderError(w, r, http.StatusForbidden, errors.New("the form's CSRF token is missing or does not match this session"))
		return
	}
	c.sessions.drop(sess.id)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: r.base, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, hr, r.base+"/login", http.StatusSeeOther)
}

// safeNext keeps a post-login destination inside the console.
func safeNext(base, next string) string {
	if strings.HasPrefix(next, base+"/") && !strings.Contains(next, "//") && !strings.Contains(next, `\`) {
		return next
	}
	return base + "/"
}

// baseOf is the console's path as the browser sees it: Prefix, behind
// whatever prefix http.StripPrefix removed before the adapter.
func baseOf(r *http.Request) string {
	p := r.URL.Path
	orig := r.URL.Path
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
		orig = u.Path
	}
	i := strings.Index(p, Prefix)
	if i < 0 {
		return Prefix
	}
	outer := ""
	if strings.HasSuffix(orig, p) {
		outer = strings.TrimSuffix(orig[:len(orig)-len(p)], "/")
	}
	return outer + p[:i] + Prefix
}

// errorText is an error as the console shows it: Canton's code and cause
// for a node error.
func errorText(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Code.Name + ": " + e.Cause
	}
	return err.Error()
}

// session is a browser's session: the token it logged in with (empty in
// auth mode none, or before login) and its CSRF token.
type session struct {
	id, token, csrf string
	seen            time.Time
}

func (s *session) validCSRF(v string) bool {
	return v != "" && subtle.ConstantTimeCompare([]byte(v), []byte(s.csrf)) == 1
}

// sessionStore keeps sessions in memory (a restart logs everyone out).
type sessionStore struct {
	mu sync.Mutex
	m  map[string]*session
}

func randomID() string {
	var b [32]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// get returns the request's live session, or nil.
func (st *sessionStore) get(r *http.Request) *session {
	ck, err := r.Cookie(cookieName)
	if err != nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	s := st.m[ck.Value]
	if s == nil {
		return nil
	}
	if time.Since(s.seen) > sessionTTL {
		delete(st.m, s.id)
		return nil
	}
	s.seen = time.Now()
	return s
}

// create starts a session and sets its cookie.
func (st *sessionStore) create(w http.ResponseWriter, r *request, token string) *session {
	s := &session{id: randomID(), token: token, csrf: randomID(), seen: time.Now()}
	st.mu.Lock()
	if len(st.m) >= maxSessions {
		var oldest *session
		for _, o := range st.m {
			if oldest == nil || o.seen.Before(oldest.seen) {
				oldest = o
			}
		}
		delete(st.m, oldest.id)
	}
	st.m[s.id] = s
	st.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.id, Path: r.base, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	return s
}

func (st *sessionStore) drop(id string) {
	st.mu.Lock()
	delete(st.m, id)
	st.mu.Unlock()
}
