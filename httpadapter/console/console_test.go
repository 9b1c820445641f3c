package console

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

const testSecret = "console-test-secret"

// serve serves the world's console; with auth, tokens are HS256 tokens
// of testSecret.
func serve(t *testing.T, w *world, auth bool, token string) *httptest.Server {
	t.Helper()
	opts := Options{Token: token}
	if auth {
		v, err := identity.ParseAuthSpec("hs256:"+testSecret, identity.VerifyOptions{ParticipantID: w.node.ParticipantIDString()})
		if err != nil {
			t.Fatal(err)
		}
		opts.Authenticate = func(ctx context.Context, tok string) (identity.Principal, error) {
			c, err := v.Verify(ctx, tok)
			if err != nil {
				return identity.Principal{}, err
			}
			return w.node.Authenticate(ctx, c)
		}
	}
	mux := http.NewServeMux()
	c := New(w.node, opts)
	mux.Handle(Prefix+"/", c)
	mux.Handle(Prefix, c)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// client is a browser-like client: cookies, no redirects followed.
func client(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func post(t *testing.T, c *http.Client, u string, form url.Values) (int, string, *http.Response) {
	t.Helper()
	res, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrfOf returns the CSRF token of a page's forms.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token in the page")
	}
	return m[1]
}

func ledgerEnd(t *testing.T, n *ledger.Node) int64 {
	end, err := n.LedgerEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return end
}

// TestPages loads every page and checks what it shows.
func TestPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := serve(t, w, false, "")
	c := client(t)
	q := url.QueryEscape
	pages := []struct {
		name, path string
		want       []string
	}{
		{"overview", "/console/", []string{w.node.ParticipantIDString(), w.node.Synchronizers()[0], `id="ledger-end"`}},
		{"parties", "/console/parties", []string{w.alice, w.bob, w.carol, w.dave, "participant_admin", "ParticipantAdmin"}},
		{"packages", "/console/packages", []string{"canton-builtin-admin-workflow-ping", w.pkg}},
		{"package", "/console/packages/" + w.pkg, []string{"template Ping", "choice Respond", "choice ProcessMerge", "leftId", "ContractId Canton.Internal.Bong:Collapse", "Either (ContractId Canton.Internal.Bong:Bong) (ContractId Canton.Internal.Bong:Collapse)"}},
		{"contracts", "/console/contracts?party=" + q(w.alice), []string{w.ping, w.bong, "ping-dave"}},
		{"contracts of a template", "/console/contracts?party=" + q(w.alice) + "&template=" + q(w.pkg+":Canton.Internal.Ping:Ping"), []string{w.ping}},
		{"contract", "/console/contracts/" + w.ping, []string{"ping-dave", "Respond", "AbortPing", "active"}},
		{"archived contract", "/console/contracts/" + w.collapsesL[0], []string{"archived", w.mergeL}},
		{"updates", "/console/updates?party=" + q(w.carol), []string{w.mergeRoot, "exercise ProcessMerge on Canton.Internal.Bong:Merge", "topology"}},
		{"update", "/console/updates/" + w.mergeRoot, []string{"ProcessMerge", "ProcessCollapse", `class="node fetch`}},
		{"create form", "/console/create?template=" + q(w.pkg+":Canton.Internal.Ping:Ping"), []string{`name="f.id"`, `name="f.initiator"`, `list="known-parties"`}},
		{"exercise form", "/console/exercise?cid=" + q(w.ping) + "&choice=AbortPing", []string{`name="f.anyone"`}},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			status, body := get(t, c, srv.URL+p.path)
			if status != http.StatusOK {
				t.Fatalf("GET %s: %d\n%s", p.path, status, body)
			}
			for _, s := range p.want {
				if !strings.Contains(body, s) {
					t.Errorf("GET %s: %q is not on the page", p.path, s)
				}
			}
		})
	}
	// Links carry a party id encoded once (a link that encodes it twice
	// names another party).
	if _, body := get(t, c, srv.URL+"/console/parties"); !strings.Contains(strings.ToLower(body), strings.ToLower(`href="/console/contracts?party=`+url.QueryEscape(w.alice)+`"`)) {
		t.Errorf("the parties page does not link alice's contracts with her id encoded once")
	}
	if status, _ := get(t, c, srv.URL+"/console/contracts/00"+strings.Repeat("de", 32)); status != http.StatusNotFound {
		t.Errorf("unknown contract: %d, want 404", status)
	}
	// An id that is no contract id is refused (INVALID_FIELD), as Canton's
	// contract reads refuse it.
	if status, _ := get(t, c, srv.URL+"/console/contracts/00deadbeef"); status != http.StatusBadRequest {
		t.Errorf("a contract id that does not parse: %d, want 400", status)
	}
	if status, body := get(t, c, srv.URL+"/console/packages/nope"); status == http.StatusOK {
		t.Errorf("unknown package: 200\n%s", body)
	}
}

// TestProcessMergeTree: the tree of the last ProcessMerge holds, under the
// exercise, its two fetches and two nested consuming ProcessCollapse
// exercises, then the Bong it creates; the Collapses are archived.
func TestProcessMergeTree(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := &source{node: w.node, pageSize: 50}
	for _, party := range []string{"", w.carol} {
		v, err := s.update(context.Background(), w.mergeRoot, party)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Replayed {
			t.Fatalf("party %q: not re-interpreted: %s", party, v.ReplayNote)
		}
		if len(v.Roots) != 1 || v.Roots[0].Choice != "ProcessMerge" || !v.Roots[0].Consuming {
			t.Fatalf("party %q: roots %+v", party, v.Roots)
		}
		var kinds []string
		for _, ch := range v.Roots[0].Children {
			k := ch.Kind
			if ch.Kind == "exercise" {
				k += " " + ch.Choice
				if ch.Consuming && ch.Archives {
					k += " consuming"
				}
			}
			kinds = append(kinds, k)
		}
		want := []string{"fetch", "fetch", "exercise ProcessCollapse consuming", "exercise ProcessCollapse consuming", "create"}
		if !slices.Equal(kinds, want) {
			t.Errorf("party %q: children %v, want %v", party, kinds, want)
		}
		if r := v.Roots[0].Result; r == nil || r.Kind != "variant" || r.Text != "Left" {
			t.Errorf("party %q: result %+v, want Left (the Bong)", party, r)
		}
	}
}

// TestContractsOfBob: bob's contracts page lists the contracts bob is a
// stakeholder of (the node's own answer), and not dave's Ping.
func TestContractsOfBob(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := serve(t, w, false, "")
	_, body := get(t, client(t), srv.URL+"/console/contracts?party="+url.QueryEscape(w.bob))
	want := activeContractIDs(t, w.node, w.bob)
	got := regexp.MustCompile(`<tr class="contract"><td><a class="cid" href="[^"]*" title="([0-9a-f]+)">`).FindAllStringSubmatch(body, -1)
	var ids []string
	for _, m := range got {
		ids = append(ids, m[1])
	}
	slices.Sort(ids)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(ids, want) {
		t.Errorf("bob's page lists %v, bob's active contracts are %v", ids, want)
	}
	if strings.Contains(body, w.ping) {
		t.Errorf("bob's page shows dave's Ping %s", w.ping)
	}
}

// activeContractIDs reads the ids of the contracts active at the ledger
// end that party is a stakeholder of, through the node's typed read.
func activeContractIDs(t *testing.T, n *ledger.Node, party string) []string {
	t.Helper()
	var ids []string
	for c, err := range n.ActiveContractEvents(context.Background(), ledger.ReadAs(party), ledgerEnd(t, n)) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, string(c.ContractID))
	}
	return ids
}

// regexpFind returns the first group of re in s.
func regexpFind(t *testing.T, re, s string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%s: not found in\n%s", re, s)
	}
	return m[1]
}
