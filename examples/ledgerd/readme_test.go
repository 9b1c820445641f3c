package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The README's curl walk-through is run by TestREADMEWalkthrough, so that
// it cannot drift from what ledgerd answers. The test reads the ```sh
// blocks between the markers below, and substitutes only what it must:
//
//   - the first block must be `go run ./examples/ledgerd FLAGS`: the test
//     runs ledgerd in process (run, the code main runs) with those flags
//     on a free port instead of 127.0.0.1:7575;
//   - `localhost:7575` in the other blocks becomes the address of a
//     recording proxy in front of that ledgerd;
//   - in the Go run, `go run ./examples/ledgerd token ARGS` is ledgerd's
//     token command called in process (runToken, what that command runs);
//     the bash run runs it as written.
//
// Paths (the DAR) are relative to the repository root, where both runs
// work; without ../shared the test skips.
const (
	walkthroughStart = "<!-- walkthrough"
	walkthroughEnd   = "<!-- end of the walkthrough -->"
	readmeAddr       = "localhost:7575"
	repoRoot         = "../.."
	walkthroughDAR   = "../shared/testdata/dars/canton-builtin-admin-workflow-ping.dar"
)

// exchange is one HTTP request of the walk-through and its answer.
type exchange struct {
	method string
	path   string // the request path as sent; a trailing * matches a prefix
	status int
	body   string   // the whole answer (trimmed), when set
	has    []string // parts of the answer
}

// walkthroughExchanges are the requests the walk-through makes, in order,
// with the status and the key parts of each answer.
var walkthroughExchanges = []exchange{
	{method: "GET", path: "/livez", status: 200, body: "{}"},
	{method: "POST", path: "/v2/parties", status: 200, has: []string{`"party":"alice::1220`, `"isLocal":true`}},
	{method: "POST", path: "/v2/parties", status: 200, has: []string{`"party":"bob::1220`}},
	{method: "GET", path: "/v2/parties/alice%3A%3A1220*", status: 200, has: []string{`"party":"alice::1220`, `"isLocal":true`}},
	{method: "POST", path: "/v2/dars", status: 200, body: "{}"},
	{method: "POST", path: "/v2/commands/submit-and-wait-for-transaction", status: 200,
		has: []string{`"CreatedEvent"`, `:Canton.Internal.Ping:Ping"`, `"initiator":"alice::`, `"responder":"bob::`, `"offset":3`}},
	{method: "POST", path: "/v2/commands/submit-and-wait", status: 200, has: []string{`"updateId":"`}},
	{method: "POST", path: "/v2/updates/update-by-id", status: 200,
		has: []string{`"ExercisedEvent"`, `"choice":"Respond"`, `"actingParties":["bob::`, `"consuming":true`}},
	{method: "GET", path: "/v2/state/ledger-end", status: 200, body: `{"offset":4}`},
	{method: "POST", path: "/v2/state/active-contracts", status: 200, body: "[]"},
	{method: "POST", path: "/v2/state/active-contracts", status: 200, has: []string{`"JsActiveContract"`, `"id":"ping-1"`, `"witnessParties":["bob::`}},
	{method: "POST", path: "/v2/state/active-contracts", status: 200, body: "[]"},
}

// TestREADMEWalkthrough runs the README's walk-through against ledgerd:
// interpreted in Go (its commands are a small shell subset: assignments,
// $(…), pipes, curl, jq -r PATH, echo), and, when bash, curl and jq are
// installed, literally in bash. Each run checks every request's status
// and the key parts of its answer.
func TestREADMEWalkthrough(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(filepath.Join(repoRoot, walkthroughDAR)); err != nil {
		t.Skipf("the walk-through uploads %s: %v", walkthroughDAR, err)
	}
	blocks := readWalkthrough(t)
	if len(blocks) < 2 {
		t.Fatalf("the README's walk-through has %d sh blocks", len(blocks))
	}
	flags, ok := strings.CutPrefix(strings.TrimSpace(blocks[0]), "go run ./examples/ledgerd ")
	if !ok || strings.Contains(flags, "\n") {
		t.Fatalf("the walk-through's first block is %q, want `go run ./examples/ledgerd FLAGS`", blocks[0])
	}
	args := strings.Fields(flags)
	script := strings.Join(blocks[1:], "\n")

	t.Run("go", func(t *testing.T) {
		t.Parallel()
		proxy := startRecorded(t, args)
		sh := &shell{t: t, vars: map[string]string{}, addr: proxy.addr}
		sh.run(script)
		proxy.check(t)
	})
	t.Run("bash", func(t *testing.T) {
		t.Parallel()
		if testing.Short() {
			t.Skip("-short: the bash run builds ledgerd with go run")
		}
		for _, tool := range []string{"bash", "curl", "jq", "go"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("%s is not installed: %v", tool, err)
			}
		}
		proxy := startRecorded(t, args)
		cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+strings.ReplaceAll(script, readmeAddr, proxy.addr))
		cmd.Dir = repoRoot
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		proxy.check(t)
	})
}

// readWalkthrough returns the sh blocks of the README's walk-through,
// without their indentation.
func readWalkthrough(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	start, end := strings.Index(s, walkthroughStart), strings.Index(s, walkthroughEnd)
	if start < 0 || end < start {
		t.Fatalf("README.md has no walk-through between %q and %q", walkthroughStart, walkthroughEnd)
	}
	var blocks []string
	lines := strings.Split(s[start:end], "\n")
	for i := 0; i < len(lines); i++ {
		indent, ok := strings.CutSuffix(lines[i], "```sh")
		if !ok || strings.TrimSpace(indent) != "" {
			continue
		}
		var b []string
		for i++; i < len(lines) && lines[i] != indent+"```"; i++ {
			b = append(b, strings.TrimPrefix(lines[i], indent))
		}
		blocks = append(blocks, strings.Join(b, "\n"))
	}
	return blocks
}

// recorder is a proxy in front of a ledgerd that records every exchange.
type recorder struct {
	addr string
	mu   sync.Mutex
	got  []exchange
}

// startRecorded runs ledgerd with args and a recording proxy in front of
// it, until the end of the test.
func startRecorded(t *testing.T, args []string) *recorder {
	s := startServer(t, discard(), args...)
	target, _ := url.Parse(s.base)
	r := &recorder{}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got = append(r.got, exchange{method: resp.Request.Method, path: resp.Request.URL.EscapedPath(), status: resp.StatusCode,
			body: strings.TrimSpace(string(body))})
		return err
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	r.addr = strings.TrimPrefix(srv.URL, "http://")
	return r
}

// check compares the recorded exchanges with walkthroughExchanges.
func (r *recorder) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, w := range walkthroughExchanges {
		if i >= len(r.got) {
			t.Errorf("request %d (%s %s) was not made", i+1, w.method, w.path)
			continue
		}
		g := r.got[i]
		pathOK := g.path == w.path
		if p, ok := strings.CutSuffix(w.path, "*"); ok {
			pathOK = strings.HasPrefix(g.path, p)
		}
		if g.method != w.method || !pathOK || g.status != w.status {
			t.Errorf("request %d: %s %s answered %d %s, want %s %s answered %d", i+1, g.method, g.path, g.status, cut(g.body), w.method, w.path, w.status)
			continue
		}
		if w.body != "" && g.body != w.body {
			t.Errorf("request %d (%s %s): answer %s, want %s", i+1, g.method, g.path, cut(g.body), w.body)
		}
		for _, h := range w.has {
			if !strings.Contains(g.body, h) {
				t.Errorf("request %d (%s %s): answer %s lacks %s", i+1, g.method, g.path, cut(g.body), h)
			}
		}
	}
	for _, g := range r.got[min(len(r.got), len(walkthroughExchanges)):] {
		t.Errorf("an unexpected request: %s %s answered %d %s", g.method, g.path, g.status, cut(g.body))
	}
}

func cut(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// shell interprets the subset of sh the walk-through uses: statements
// (one per line; a line ending in | or \, an open quote or an open $(
// continue it), NAME=WORD assignments, pipelines, words with '…', "…",
// $NAME, ${NAME} and ${NAME//PATTERN/REPLACEMENT} (a plain PATTERN),
// $(…) substitution, # comments, and the commands curl, jq -r, echo and
// go run ./examples/ledgerd token. Anything else fails the test.
type shell struct {
	t    *testing.T
	vars map[string]string
	addr string // what localhost:7575 becomes
}

// run runs the statements of src.
func (sh *shell) run(src string) string {
	var out strings.Builder
	p := &parser{sh: sh, src: src}
	for {
		assign, pipeline, ok := p.statement()
		if !ok {
			return out.String()
		}
		switch {
		case assign != "":
			sh.vars[assign] = pipeline[0][0]
		case len(pipeline) > 0:
			out.WriteString(sh.pipeline(pipeline))
		}
	}
}

// pipeline runs commands, each reading the previous one's output, and
// returns the last one's.
func (sh *shell) pipeline(cmds [][]string) string {
	in := ""
	for _, c := range cmds {
		in = sh.command(c, in)
	}
	return in
}

func (sh *shell) command(args []string, stdin string) string {
	t := sh.t
	t.Helper()
	switch {
	case args[0] == "echo":
		return strings.Join(args[1:], " ") + "\n"
	case args[0] == "curl":
		return sh.curl(args[1:])
	case args[0] == "jq" && len(args) == 3 && args[1] == "-r":
		return jq(t, args[2], stdin)
	case len(args) > 3 && args[0] == "go" && args[1] == "run" && args[2] == "./examples/ledgerd" && args[3] == "token":
		var stdout, stderr bytes.Buffer
		if err := runToken(args[4:], &stdout, &stderr); err != nil {
			t.Fatalf("ledgerd token %q: %v\n%s", args[4:], err, stderr.String())
		}
		return stdout.String()
	}
	t.Fatalf("the walk-through runs %q, which the test does not interpret", args)
	return ""
}

// curl makes the request of a curl command line (-s, -H, -d,
// --data-binary [@FILE], -X, one URL) and returns the answer's body.
func (sh *shell) curl(args []string) string {
	t := sh.t
	t.Helper()
	method, target := "", ""
	var body *string
	header := http.Header{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		need := func() string {
			if i+1 >= len(args) {
				t.Fatalf("curl %s: no value", a)
			}
			i++
			return args[i]
		}
		switch a {
		case "-s", "--silent":
		case "-H", "--header":
			k, v, ok := strings.Cut(need(), ":")
			if !ok {
				t.Fatalf("curl -H %q: not a header", args[i])
			}
			header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		case "-d", "--data", "--data-binary":
			d := need()
			if file, ok := strings.CutPrefix(d, "@"); ok {
				data, err := os.ReadFile(filepath.Join(repoRoot, file))
				if err != nil {
					t.Fatalf("curl %s @%s: %v", a, file, err)
				}
				d = string(data)
			}
			body = &d
		case "-X", "--request":
			method = need()
		default:
			if strings.HasPrefix(a, "-") || target != "" {
				t.Fatalf("curl argument %q: the test interprets -s, -H, -d, --data-binary, -X and one URL", a)
			}
			target = a
		}
	}
	host, rest, _ := strings.Cut(strings.TrimPrefix(target, "http://"), "/")
	if host != readmeAddr {
		t.Fatalf("curl %s: not a request to %s", target, readmeAddr)
	}
	var r io.Reader
	if method == "" {
		method = "GET"
	}
	if body != nil {
		if method == "GET" {
			method = "POST"
		}
		r = strings.NewReader(*body)
		header.Set("Content-Type", "application/x-www-form-urlencoded") // as curl sends -d
	}
	req, err := http.NewRequest(method, "http://"+sh.addr+"/"+rest, r)
	if err != nil {
		t.Fatalf("curl %s: %v", target, err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("curl %s: %v", target, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return string(out)
}

var jqStep = regexp.MustCompile(`^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\])`)

// jq evaluates a path filter (.a.b[0].c) on the JSON input, printing a
// string raw and anything else as JSON, as jq -r does.
func jq(t *testing.T, filter, input string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(input), &v); err != nil {
		t.Fatalf("jq -r %s: the input is not JSON: %v: %s", filter, err, cut(input))
	}
	rest := filter
	if rest == "." {
		rest = ""
	}
	for rest != "" {
		m := jqStep.FindStringSubmatch(rest)
		if m == nil {
			t.Fatalf("jq filter %q: the test interprets paths of .name and [n]", filter)
		}
		rest = rest[len(m[0]):]
		switch {
		case m[1] != "":
			obj, _ := v.(map[string]any)
			v = obj[m[1]]
		default:
			n, _ := strconv.Atoi(m[2])
			arr, _ := v.([]any)
			if n >= len(arr) {
				v = nil
				continue
			}
			v = arr[n]
		}
	}
	if s, ok := v.(string); ok {
		return s + "\n"
	}
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

// parser reads statements from src, expanding words as it goes (so that
// a statement sees the assignments of the ones before it).
type parser struct {
	sh  *shell
	src string
	pos int
}

func (p *parser) fail(format string, args ...any) {
	p.sh.t.Helper()
	p.sh.t.Fatalf("walk-through, at %q: %s", cut(p.src[p.pos:]), fmt.Sprintf(format, args...))
}

// statement returns the next statement: an assignment (its name, and its
// value as pipeline[0][0]) or a pipeline; ok is false at the end.
func (p *parser) statement() (assign string, pipeline [][]string, ok bool) {
	var cmd []string
	for {
		p.skipBlanks()
		if p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		if c == '#' {
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
			continue
		}
		if c == '\n' {
			p.pos++
			if len(cmd) == 0 && len(pipeline) > 0 {
				continue // a line ending in | goes on
			}
			if len(cmd) == 0 {
				continue
			}
			break
		}
		if c == '|' {
			if len(cmd) == 0 {
				p.fail("an empty command in a pipeline")
			}
			pipeline = append(pipeline, cmd)
			cmd = nil
			p.pos++
			continue
		}
		if len(cmd) == 0 && len(pipeline) == 0 {
			if m := assignPrefix.FindString(p.src[p.pos:]); m != "" {
				p.pos += len(m)
				value := p.word()
				p.skipBlanks()
				if p.pos < len(p.src) && p.src[p.pos] != '\n' && p.src[p.pos] != '#' {
					p.fail("an assignment followed by a command")
				}
				return m[:len(m)-1], [][]string{{value}}, true
			}
		}
		cmd = append(cmd, p.word())
	}
	if len(cmd) > 0 {
		pipeline = append(pipeline, cmd)
	}
	return "", pipeline, len(pipeline) > 0
}

var assignPrefix = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// skipBlanks skips spaces, tabs and backslash-newlines.
func (p *parser) skipBlanks() {
	for p.pos < len(p.src) {
		switch {
		case p.src[p.pos] == ' ' || p.src[p.pos] == '\t':
			p.pos++
		case strings.HasPrefix(p.src[p.pos:], "\\\n"):
			p.pos += 2
		default:
			return
		}
	}
}

// word reads one word and returns it expanded.
func (p *parser) word() string {
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '|':
			return b.String()
		case c == '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.fail("an unterminated '")
			}
			b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
		case c == '"':
			p.pos++
			for {
				if p.pos >= len(p.src) {
					p.fail(`an unterminated "`)
				}
				d := p.src[p.pos]
				if d == '"' {
					p.pos++
					break
				}
				if d == '\\' && p.pos+1 < len(p.src) && strings.IndexByte("\"\\$`", p.src[p.pos+1]) >= 0 {
					b.WriteByte(p.src[p.pos+1])
					p.pos += 2
					continue
				}
				if d == '$' {
					b.WriteString(p.dollar())
					continue
				}
				if d == '`' {
					p.fail("backquotes")
				}
				b.WriteByte(d)
				p.pos++
			}
		case c == '$':
			b.WriteString(p.dollar())
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				p.fail("a trailing backslash")
			}
			b.WriteByte(p.src[p.pos+1])
			p.pos += 2
		case strings.IndexByte("`;&<>(){}*?[", c) >= 0:
			p.fail("%q outside quotes", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return b.String()
}

var (
	nameRe  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)
	braceRe = regexp.MustCompile(`^\{([A-Za-z_][A-Za-z0-9_]*)(?://([^/}]*)/([^}]*))?\}`)
)

// dollar expands $NAME, ${NAME}, ${NAME//P/R} or $(…) at p.pos.
func (p *parser) dollar() string {
	p.pos++ // $
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "("):
		inner := p.substitution()
		sub := &shell{t: p.sh.t, vars: p.sh.vars, addr: p.sh.addr}
		return strings.TrimRight(sub.run(inner), "\n")
	case braceRe.MatchString(rest):
		m := braceRe.FindStringSubmatch(rest)
		p.pos += len(m[0])
		v, ok := p.sh.vars[m[1]]
		if !ok {
			p.fail("$%s is not set", m[1])
		}
		if strings.Contains(m[0], "//") {
			if strings.ContainsAny(m[2], "*?[") {
				p.fail("a pattern substitution with a glob")
			}
			v = strings.ReplaceAll(v, m[2], m[3])
		}
		return v
	case nameRe.MatchString(rest):
		name := nameRe.FindString(rest)
		p.pos += len(name)
		v, ok := p.sh.vars[name]
		if !ok {
			p.fail("$%s is not set", name)
		}
		return v
	}
	p.fail("a $ the test does not interpret")
	return ""
}

// substitution returns the text of the $(…) at p.pos (at its "(") and
// moves past its ")": the matching one outside quotes.
func (p *parser) substitution() string {
	start := p.pos + 1
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '\'':
			end := strings.IndexByte(p.src[i+1:], '\'')
			if end < 0 {
				p.fail("an unterminated ' in $(…)")
			}
			i += end + 1
		case '"':
			for i++; i < len(p.src) && p.src[i] != '"'; i++ {
				if p.src[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				p.pos = i + 1
				return p.src[start:i]
			}
		}
	}
	p.fail("an unterminated $(")
	return ""
}
