package console

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

func mint(t *testing.T, user string) string {
	t.Helper()
	tok, err := identity.MintHS256([]byte(testSecret), user, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// login logs c in with token through the login form.
func login(t *testing.T, c *http.Client, base, token string) (int, string) {
	t.Helper()
	_, page := get(t, c, base+"/console/login")
	status, body, _ := post(t, c, base+"/console/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {token}, "next": {"/console/parties"}})
	return status, body
}

// TestAuthRequired: with a verifier, nothing is readable without a
// token; a refused token is not kept; an accepted one opens the pages
// with the node's authorization of its user.
func TestAuthRequired(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := serve(t, w, true, "")
	pages := []string{"/console/", "/console/parties", "/console/packages", "/console/packages/" + w.pkg,
		"/console/contracts?party=" + url.QueryEscape(w.alice), "/console/contracts/" + w.ping,
		"/console/updates?party=" + url.QueryEscape(w.alice), "/console/updates/" + w.mergeRoot,
		"/console/create?template=" + url.QueryEscape(w.pkg+":Canton.Internal.Ping:Ping")}
	anon := client(t)
	for _, p := range pages {
		res, err := anon.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/console/login?") {
			t.Errorf("GET %s without a token: %d %s, want a redirect to the login page", p, res.StatusCode, res.Header.Get("Location"))
		}
	}
	before := ledgerEnd(t, w.node)
	if status, _, _ := post(t, anon, srv.URL+"/console/time", url.Values{"by": {"1h"}}); status != http.StatusUnauthorized {
		t.Errorf("POST without a token: %d, want 401", status)
	}
	// A refused token: the login page says so, and the pages stay closed.
	bad := client(t)
	status, body := login(t, bad, srv.URL, mint(t, "participant_admin")+"x")
	if status != http.StatusUnauthorized || !strings.Contains(body, "The token was refused") {
		t.Errorf("bad token: %d\n%s", status, body)
	}
	if status, _ := get(t, bad, srv.URL+"/console/parties"); status != http.StatusSeeOther {
		t.Errorf("after a refused login: %d, want 303", status)
	}
	// The admin's token opens every page once the admin may read as any
	// party (the console has the rights of its token's user).
	if _, err := jsonapi.New(w.node).GrantUserRights(context.Background(), jsonapi.UserRightsRequest{UserID: "participant_admin",
		Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}}); err != nil {
		t.Fatal(err)
	}
	admin := client(t)
	if status, _ := login(t, admin, srv.URL, mint(t, "participant_admin")); status != http.StatusSeeOther {
		t.Fatalf("admin login: %d", status)
	}
	for _, p := range pages {
		if status, body := get(t, admin, srv.URL+p); status != http.StatusOK {
			t.Errorf("GET %s as admin: %d\n%s", p, status, body)
		}
	}
	// A user who may read as bob only: the node refuses alice's contracts.
	if _, err := jsonapi.New(w.node).CreateUser(context.Background(), jsonapi.CreateUserRequest{User: identity.User{ID: "bobreader"},
		Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: w.bob}}}); err != nil {
		t.Fatal(err)
	}
	reader := client(t)
	if status, _ := login(t, reader, srv.URL, mint(t, "bobreader")); status != http.StatusSeeOther {
		t.Fatalf("bobreader login: %d", status)
	}
	if status, body := get(t, reader, srv.URL+"/console/contracts?party="+url.QueryEscape(w.bob)); status != http.StatusOK || !strings.Contains(body, w.bong) {
		t.Errorf("bobreader, bob's contracts: %d", status)
	}
	if status, body := get(t, reader, srv.URL+"/console/contracts?party="+url.QueryEscape(w.alice)); status != http.StatusForbidden || strings.Contains(body, w.ping) {
		t.Errorf("bobreader, alice's contracts: %d, want 403 without them", status)
	}
	// Neither the participant page, where a user lands after logging in,
	// nor the parties page is an error for a user who may not list
	// parties and users: they show what it may read (its own user and
	// rights) and say what it may not.
	if status, body := get(t, reader, srv.URL+"/console/"); status != http.StatusOK || !strings.Contains(body, w.node.ParticipantIDString()) ||
		strings.Count(body, "not visible to this user") != 2 {
		t.Errorf("bobreader, the participant page: %d\n%s", status, body)
	}
	if status, body := get(t, reader, srv.URL+"/console/parties"); status != http.StatusOK || !strings.Contains(body, `id="parties-error"`) ||
		!strings.Contains(body, `id="users-error"`) || !strings.Contains(body, "bobreader") || !strings.Contains(body, "CanReadAs "+w.bob) {
		t.Errorf("bobreader, the parties page: %d\n%s", status, body)
	}
	// Logging out closes the pages again.
	_, page := get(t, admin, srv.URL+"/console/")
	post(t, admin, srv.URL+"/console/logout", url.Values{"csrf": {csrfOf(t, page)}})
	if status, _ := get(t, admin, srv.URL+"/console/"); status != http.StatusSeeOther {
		t.Errorf("after logout: %d, want 303", status)
	}
	if after := ledgerEnd(t, w.node); after != before {
		t.Errorf("ledger end moved from %d to %d", before, after)
	}
}

// TestConsoleToken: Options.Token authorizes browsers that have not
// logged in, and is verified like any token.
func TestConsoleToken(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	good := serve(t, w, true, mint(t, "participant_admin"))
	if status, body := get(t, client(t), good.URL+"/console/parties"); status != http.StatusOK || !strings.Contains(body, w.alice) {
		t.Errorf("with the console token: %d", status)
	}
	bad := serve(t, w, true, "not-a-token")
	if status, _ := get(t, client(t), bad.URL+"/console/parties"); status != http.StatusSeeOther {
		t.Errorf("with a bad console token: %d, want a redirect to the login page", status)
	}
}

// TestCSRF: a form posted without the session's CSRF token, or with
// another session's, is refused and changes nothing.
func TestCSRF(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := serve(t, w, false, "")
	c := client(t)
	form := url.Values{"template": {w.pkg + ":Canton.Internal.Ping:Ping"}, "party": {w.alice},
		"f.id": {"csrf"}, "f.initiator": {w.alice}, "f.responder": {w.bob}}
	other := client(t)
	_, otherPage := get(t, other, srv.URL+"/console/create?template="+url.QueryEscape(w.pkg+":Canton.Internal.Ping:Ping"))
	_, page := get(t, c, srv.URL+"/console/create?template="+url.QueryEscape(w.pkg+":Canton.Internal.Ping:Ping"))
	before := ledgerEnd(t, w.node)
	for name, token := range map[string]string{"none": "", "wrong": strings.Repeat("0", 64), "another session's": csrfOf(t, otherPage)} {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		if token != "" {
			f.Set("csrf", token)
		}
		status, _, _ := post(t, c, srv.URL+"/console/create", f)
		if status != http.StatusForbidden {
			t.Errorf("CSRF token %s: %d, want 403", name, status)
		}
		if after := ledgerEnd(t, w.node); after != before {
			t.Fatalf("CSRF token %s: the ledger end moved from %d to %d", name, before, after)
		}
	}
	form.Set("csrf", csrfOf(t, page))
	if status, body, _ := post(t, c, srv.URL+"/console/create", form); status != http.StatusOK || !strings.Contains(body, `id="form-result"`) {
		t.Errorf("with the CSRF token: %d\n%s", status, body)
	}
	if after := ledgerEnd(t, w.node); after != before+1 {
		t.Errorf("ledger end %d after the create, want %d", after, before+1)
	}
}

// TestEscaping: a Text argument holding markup is shown as text on every
// page that shows it, never as markup.
func TestEscaping(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := serve(t, w, false, "")
	c := client(t)
	evil := `<script>alert("x")</script><img src=x onerror=alert(1)>`
	_, page := get(t, c, srv.URL+"/console/create?template="+url.QueryEscape(w.pkg+":Canton.Internal.Ping:Ping"))
	status, body, _ := post(t, c, srv.URL+"/console/create", url.Values{"csrf": {csrfOf(t, page)}, "template": {w.pkg + ":Canton.Internal.Ping:Ping"},
		"party": {w.alice}, "f.id": {evil}, "f.initiator": {w.alice}, "f.responder": {w.bob}})
	if status != http.StatusOK {
		t.Fatalf("create: %d\n%s", status, body)
	}
	cid := regexpFind(t, `id="result-contract" href="[^"]*/contracts/([0-9a-f]+)`, body)
	for _, p := range []string{"/console/contracts/" + cid, "/console/contracts?party=" + url.QueryEscape(w.bob)} {
		_, body := get(t, c, srv.URL+p)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("%s: the markup is in the page unescaped", p)
		}
		if !strings.Contains(body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
			t.Errorf("%s: the escaped text is not shown", p)
		}
	}
}

// TestForms: create a Ping and exercise Respond through the forms; a
// choice exercised by a party that is not its controller shows Canton's
// error and commits nothing.
func TestForms(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := serve(t, w, false, "")
	c := client(t)
	tid := w.pkg + ":Canton.Internal.Ping:Ping"
	_, page := get(t, c, srv.URL+"/console/create?template="+url.QueryEscape(tid))
	csrf := csrfOf(t, page)
	_, body, _ := post(t, c, srv.URL+"/console/create", url.Values{"csrf": {csrf}, "template": {tid}, "party": {w.alice},
		"f.id": {"form-ping"}, "f.initiator": {w.alice}, "f.responder": {w.bob}})
	cid := regexpFind(t, `id="result-contract" href="[^"]*/contracts/([0-9a-f]+)`, body)

	before := ledgerEnd(t, w.node)
	status, body, _ := post(t, c, srv.URL+"/console/exercise", url.Values{"csrf": {csrf}, "cid": {cid}, "choice": {"Respond"}, "party": {w.alice}})
	if status == http.StatusOK || !strings.Contains(body, `id="form-error"`) || !strings.Contains(body, "DAML_AUTHORIZATION_ERROR") {
		t.Errorf("Respond as alice: %d, want Canton's authorization error\n%s", status, body)
	}
	if after := ledgerEnd(t, w.node); after != before {
		t.Errorf("a refused exercise moved the ledger end from %d to %d", before, after)
	}
	status, body, _ = post(t, c, srv.URL+"/console/exercise", url.Values{"csrf": {csrf}, "cid": {cid}, "choice": {"Respond"}, "party": {w.bob}})
	if status != http.StatusOK || !strings.Contains(body, `id="form-result"`) {
		t.Fatalf("Respond as bob: %d\n%s", status, body)
	}
	if _, page := get(t, c, srv.URL+"/console/contracts/"+cid); !strings.Contains(page, `id="state">archived`) {
		t.Errorf("the Ping is not shown archived after Respond")
	}
	// A form value that does not type-check is refused before the node.
	status, body, _ = post(t, c, srv.URL+"/console/exercise", url.Values{"csrf": {csrf}, "cid": {w.ping}, "choice": {"AbortPing"}, "party": {w.alice}, "f.anyone": {"not a party!"}})
	if status == http.StatusOK || !strings.Contains(body, `id="form-error"`) {
		t.Errorf("AbortPing with a bad party: %d", status)
	}
}
