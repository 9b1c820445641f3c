package console

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browserPath finds a Chromium (Debian's chromium, which .ci/run
// installs) or Chrome.
func browserPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowser drives the console in headless Chromium: every page loads
// and shows what a user looks for, a Ping is created and answered through
// the forms, and the browser logs no JavaScript error (nor a violation of
// the pages' content security policy). Screenshots go to
// testdata/screenshots (ignored by git).
func TestBrowser(t *testing.T) {
	exe := browserPath()
	if exe == "" {
		t.Skip("no Chromium or Chrome found (Debian: apt-get install chromium)")
	}
	w := newWorld(t)
	srv := serve(t, w, false, "")
	shots := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.WindowSize(1400, 1000), chromedp.Flag("headless", "new"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, time.Minute)
	defer cancel()

	var mu sync.Mutex
	var jsErrors []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			jsErrors = append(jsErrors, "exception: "+e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeWarning {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				jsErrors = append(jsErrors, "console."+string(e.Type)+": "+strings.Join(args, " "))
			}
		case *log.EventEntryAdded:
			// A failed load of /favicon.ico counts: the pages name
			// their icon, so the browser asks for nothing outside the
			// console.
			if e.Entry.Level == log.LevelError {
				jsErrors = append(jsErrors, "log: "+e.Entry.Text+" "+e.Entry.URL)
			}
		}
	})
	if err := chromedp.Run(ctx, log.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}

	// visit loads a page, saves its screenshot and returns the text of
	// its main element.
	visit := func(name, path string) string {
		t.Helper()
		var text string
		var png []byte
		if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+path), chromedp.WaitVisible("main h1", chromedp.ByQuery),
			chromedp.Text("main", &text, chromedp.ByQuery), chromedp.FullScreenshot(&png, 100)); err != nil {
			t.Fatalf("%s (%s): %v", name, path, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		return text
	}
	q := url.QueryEscape
	pages := []struct {
		name, path string
		want       []string
	}{
		{"overview", "/console/", []string{"Participant id", w.node.ParticipantIDString(), "Ledger end"}},
		{"parties", "/console/parties", []string{w.alice, w.bob, "participant_admin"}},
		{"packages", "/console/packages", []string{"canton-builtin-admin-workflow-ping", "3.4.0"}},
		{"package", "/console/packages/" + w.pkg, []string{"template Ping", "choice ProcessMerge", "ContractId Canton.Internal.Bong:Collapse"}},
		{"contracts-alice", "/console/contracts?party=" + q(w.alice), []string{"ping-dave", "Canton.Internal.Bong:Bong", w.bong[:16]}},
		{"contract", "/console/contracts/" + w.ping + "?party=" + q(w.alice), []string{"ping-dave", "Respond", "active"}},
		{"contract-archived", "/console/contracts/" + w.collapsesL[0], []string{"archived", w.mergeL}},
		{"updates-carol", "/console/updates?party=" + q(w.carol), []string{"exercise ProcessMerge on Canton.Internal.Bong:Merge"}},
		{"update-explode", "/console/updates/" + w.explodeUpdate + "?party=" + q(w.carol), []string{"ProcessExplode", "Merge", "Explode"}},
		{"update-processmerge", "/console/updates/" + w.mergeRoot, []string{"ProcessMerge", "fetch", "ProcessCollapse", "Bong"}},
		{"create-form", "/console/create?template=" + q(w.pkg+":Canton.Internal.Bong:BongProposal"), []string{"candidates", "maxLevel", "timeout"}},
	}
	for _, p := range pages {
		text := visit(p.name, p.path)
		for _, s := range p.want {
			if !strings.Contains(strings.ToLower(text), strings.ToLower(s)) {
				t.Errorf("%s: the page does not show %q", p.name, s)
			}
		}
	}

	// The tree of the last ProcessMerge: under the exercise, two fetches
	// and two consuming ProcessCollapse exercises (archiving their
	// Collapses), drawn as nested list items.
	visit("update-processmerge", "/console/updates/"+w.mergeRoot)
	var fetches, consuming int
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelectorAll("#tree > li.exercise > ul.children > li.fetch").length`, &fetches),
		chromedp.Evaluate(`[...document.querySelectorAll("#tree > li.exercise > ul.children > li.exercise")].filter(n => n.querySelector(".head .choice").textContent === "ProcessCollapse" && n.querySelector(".head .consuming") && n.querySelector(".head .archived")).length`, &consuming),
	); err != nil {
		t.Fatal(err)
	}
	if fetches != 2 || consuming != 2 {
		t.Errorf("ProcessMerge tree: %d fetches and %d consuming ProcessCollapse exercises under it, want 2 and 2", fetches, consuming)
	}
	// The fold buttons (the console's JavaScript).
	var collapsed int
	if err := chromedp.Run(ctx, chromedp.Click("#collapse-all", chromedp.ByID),
		chromedp.Evaluate(`document.querySelectorAll("#tree li.node.collapsed").length`, &collapsed)); err != nil {
		t.Fatal(err)
	}
	if collapsed == 0 {
		t.Errorf("collapse all folded no node")
	}

	// Bob's contracts page lists bob's active contracts, and nothing else.
	visit("contracts-bob", "/console/contracts?party="+q(w.bob))
	var shown []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll("#contracts tr.contract a.cid")].map(a => a.title)`, &shown)); err != nil {
		t.Fatal(err)
	}
	want := activeContractIDs(t, w.node, w.bob)
	slices.Sort(shown)
	slices.Sort(want)
	if !slices.Equal(shown, want) || slices.Contains(shown, w.ping) {
		t.Errorf("bob's contracts page shows %v, bob's active contracts are %v", shown, want)
	}

	// Create a Ping through the form, then answer it with Respond.
	visit("create-ping", "/console/create?template="+q(w.pkg+":Canton.Internal.Ping:Ping"))
	var cid string
	if err := chromedp.Run(ctx,
		chromedp.SetValue(`input[name="party"]`, w.alice, chromedp.ByQuery),
		chromedp.SetValue(`input[name="f.id"]`, "browser-ping", chromedp.ByQuery),
		chromedp.SetValue(`input[name="f.initiator"]`, w.alice, chromedp.ByQuery),
		chromedp.SetValue(`input[name="f.responder"]`, w.bob, chromedp.ByQuery),
		chromedp.Click("#submit", chromedp.ByID),
		chromedp.WaitVisible("#form-result", chromedp.ByID),
		chromedp.AttributeValue("#result-contract", "title", &cid, nil, chromedp.ByID),
	); err != nil {
		t.Fatalf("creating a Ping through the form: %v", err)
	}
	shot(t, ctx, shots, "create-ping-result")
	var result string
	steps := []struct {
		what string
		act  chromedp.Action
	}{
		{"open the contract", chromedp.Click("#result-contract", chromedp.ByID)},
		{"wait for the contract page", chromedp.WaitVisible("#argument", chromedp.ByID)},
		{"follow Respond", chromedp.Click(`a.exercise[href*="choice=Respond"]`, chromedp.ByQuery)},
		{"wait for the form", chromedp.WaitVisible("#lf-form", chromedp.ByID)},
		{"act as bob", chromedp.SetValue(`input[name="party"]`, w.bob, chromedp.ByQuery)},
		{"submit", chromedp.Click("#submit", chromedp.ByID)},
		{"wait for the result", chromedp.WaitVisible("#form-result", chromedp.ByID)},
		{"read the result", chromedp.Text("#form-result", &result, chromedp.ByID)},
	}
	for _, st := range steps {
		sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		err := chromedp.Run(sctx, st.act)
		cancel()
		if err != nil {
			shot(t, ctx, shots, "exercise-respond-failed")
			t.Fatalf("exercising Respond through the form: %s: %v", st.what, err)
		}
	}
	shot(t, ctx, shots, "exercise-respond-result")
	if !strings.Contains(result, "Committed at offset") {
		t.Errorf("Respond: %q", result)
	}
	if text := visit("contract-responded", "/console/contracts/"+strings.TrimSpace(cid)); !strings.Contains(text, "archived") {
		t.Errorf("the answered Ping is not shown archived")
	}

	mu.Lock()
	defer mu.Unlock()
	if len(jsErrors) > 0 {
		t.Errorf("the browser logged errors:\n%s", strings.Join(jsErrors, "\n"))
	}
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(fmt.Errorf("screenshot %s: %w", name, err))
	}
}
