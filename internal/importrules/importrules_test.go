package importrules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// module is the module path.
const module = "github.com/ledgernode/ledgernode"

// forbiddenForDaml are the module packages (with their subpackages) that
// nothing under daml/ may depend on.
var forbiddenForDaml = []string{"ledger", "identity", "vetting", "registry", "interactive", "httpadapter", "grpcadapter"}

// allowed are known violations, as import edges "from -> to" (module-relative
// paths), that the rules let pass until they are fixed.
var allowed = map[[2]string]bool{}

// pkg is what the test needs of "go list -json".
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// rel returns p relative to the module ("" for the module root), and
// whether p is in the module.
func rel(p string) (string, bool) {
	if p == module {
		return "", true
	}
	r, ok := strings.CutPrefix(p, module+"/")
	return r, ok
}

// under reports whether the module-relative path p is dir or inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

var (
	listOnce sync.Once
	listed   map[string]*pkg
	listErr  error
)

// listPackages runs go list over the whole module (once per test run),
// and returns its packages by module-relative path.
func listPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	listOnce.Do(func() { listed, listErr = goList() })
	if errors.Is(listErr, exec.ErrNotFound) {
		t.Skip("the go command is not on PATH")
	}
	if listErr != nil {
		t.Fatal(listErr)
	}
	return listed
}

// goList runs go list -json over the module.
func goList() (map[string]*pkg, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return nil, err
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	if err := touchSources(root); err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("decoding go list output: %v", err)
		}
		if r, ok := rel(p.ImportPath); ok {
			pkgs[r] = &p
		}
	}
	if pkgs["daml/lf"] == nil || pkgs["ledger"] == nil {
		return nil, fmt.Errorf("go list in %s did not list the module's packages", root)
	}
	return pkgs, nil
}

// touchSources lists every directory and stats every Go file of the
// module, so that go test's result cache, which only sees the files a test
// itself opens, is invalidated when an import changes.
func touchSources(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
}

// moduleImports returns the module-relative paths of the module packages
// in imports.
func moduleImports(imports ...[]string) []string {
	var out []string
	for _, list := range imports {
		for _, imp := range list {
			if r, ok := rel(imp); ok && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestDamlImportsNothingAbove: no package under daml/ (nor its tests)
// reaches a forbidden package through the module's import graph.
func TestDamlImportsNothingAbove(t *testing.T) {
	pkgs := listPackages(t)
	forbidden := func(p string) bool {
		return slices.ContainsFunc(forbiddenForDaml, func(dir string) bool { return under(p, dir) })
	}
	for name, p := range pkgs {
		if !under(name, "daml") {
			continue
		}
		// Breadth-first over module imports; path records how each
		// package was reached.
		from := map[string]string{}
		var queue []string
		visit := func(src, dst string) {
			if allowed[[2]string{src, dst}] {
				return
			}
			if _, seen := from[dst]; seen || dst == name {
				return
			}
			from[dst] = src
			queue = append(queue, dst)
		}
		for _, imp := range moduleImports(p.Imports, p.TestImports, p.XTestImports) {
			visit(name, imp)
		}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			if forbidden(cur) {
				chain := []string{cur}
				for at := cur; at != name; {
					at = from[at]
					chain = append([]string{at}, chain...)
				}
				t.Errorf("%s depends on %s: %s", name, cur, strings.Join(chain, " -> "))
				continue
			}
			if q := pkgs[cur]; q != nil {
				for _, imp := range moduleImports(q.Imports) {
					visit(cur, imp)
				}
			}
		}
	}
}

// TestOnlyLedgerImportsStore: ledger/internal/store is imported by ledger,
// ledger's tests and ledger/internal/... only.
func TestOnlyLedgerImportsStore(t *testing.T) {
	const store = "ledger/internal/store"
	for name, p := range listPackages(t) {
		if name == "ledger" || under(name, "ledger/internal") {
			continue
		}
		if slices.Contains(moduleImports(p.Imports, p.TestImports, p.XTestImports), store) {
			t.Errorf("%s imports %s; only ledger may", name, store)
		}
	}
}

// TestOnlyExamplesImportHTTPAdapter: httpadapter is imported by
// examples/..., ledger/ledgertest and httpadapter's own tests only.
func TestOnlyExamplesImportHTTPAdapter(t *testing.T) {
	for name, p := range listPackages(t) {
		if under(name, "examples") || name == "ledger/ledgertest" || name == "httpadapter" {
			continue
		}
		if slices.ContainsFunc(moduleImports(p.Imports, p.TestImports, p.XTestImports), func(imp string) bool { return under(imp, "httpadapter") }) {
			t.Errorf("%s imports httpadapter; only examples and ledger/ledgertest may", name)
		}
	}
}

// TestOnlyExamplesImportGRPCAdapter: grpcadapter is imported by
// examples/..., ledger/ledgertest and grpcadapter's own packages only.
func TestOnlyExamplesImportGRPCAdapter(t *testing.T) {
	for name, p := range listPackages(t) {
		if under(name, "examples") || name == "ledger/ledgertest" || under(name, "grpcadapter") {
			continue
		}
		if slices.ContainsFunc(moduleImports(p.Imports, p.TestImports, p.XTestImports), func(imp string) bool { return under(imp, "grpcadapter") }) {
			t.Errorf("%s imports grpcadapter; only examples and ledger/ledgertest may", name)
		}
	}
}

// TestAPIErrImportsOnlyInternal: apierr, the error model of every package
// outside daml/, sits at the top of the module and imports nothing of it
// but internal/..., so that any package may use it without a cycle.
func TestAPIErrImportsOnlyInternal(t *testing.T) {
	for name, p := range listPackages(t) {
		if !under(name, "apierr") {
			continue
		}
		for _, imp := range moduleImports(p.Imports) {
			if !under(imp, "internal") {
				t.Errorf("%s imports %s; apierr may import only internal/...", name, imp)
			}
		}
	}
}

// TestAllowListIsUsed: every allowed edge still exists, so a fixed
// violation must leave the list.
func TestAllowListIsUsed(t *testing.T) {
	pkgs := listPackages(t)
	for edge := range allowed {
		p := pkgs[edge[0]]
		if p == nil || !slices.Contains(moduleImports(p.Imports, p.TestImports, p.XTestImports), edge[1]) {
			t.Errorf("allowed edge %s -> %s no longer exists: remove it from the allow-list", edge[0], edge[1])
		}
	}
}

// jsonAPIViolations returns the packages of pkgs whose non-test code
// imports ledger/jsonapi (or a package under it) though only httpadapter
// (and its subpackages), examples/..., ledger/ledgertest,
// ledger/scriptledger and jsonapi itself may: the JSON wire is a layer for
// adapters, never a dependency of the typed Node or of the gRPC adapter.
// ledger/scriptledger may because its Remote is a JSON Ledger API client
// (Daml Script against a participant over HTTP): it sends the wire types
// jsonapi defines rather than a copy of them. Tests may import it.
func jsonAPIViolations(pkgs map[string]*pkg) []string {
	const jsonapi = "ledger/jsonapi"
	var out []string
	for name, p := range pkgs {
		if under(name, jsonapi) || under(name, "httpadapter") || under(name, "examples") || name == "ledger/ledgertest" || name == "ledger/scriptledger" {
			continue
		}
		if slices.ContainsFunc(moduleImports(p.Imports), func(imp string) bool { return under(imp, jsonapi) }) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// TestOnlyAdaptersImportJSONAPI: ledger/jsonapi is imported by httpadapter,
// examples/..., ledger/ledgertest, ledger/scriptledger (a JSON API
// client) and tests only.
func TestOnlyAdaptersImportJSONAPI(t *testing.T) {
	for _, name := range jsonAPIViolations(listPackages(t)) {
		t.Errorf("%s imports ledger/jsonapi; only httpadapter, examples, ledger/ledgertest, ledger/scriptledger and tests may", name)
	}
}

// TestJSONAPIRule checks the rule itself on made-up import graphs, so that
// a violation is known to fail TestOnlyAdaptersImportJSONAPI.
func TestJSONAPIRule(t *testing.T) {
	t.Parallel()
	jsonapi := module + "/ledger/jsonapi"
	tests := []struct {
		name string
		pkgs map[string]*pkg
		want []string
	}{
		{"ledger imports it", map[string]*pkg{"ledger": {Imports: []string{jsonapi}}}, []string{"ledger"}},
		{"grpcadapter imports it", map[string]*pkg{"grpcadapter": {Imports: []string{"fmt", jsonapi}}}, []string{"grpcadapter"}},
		{"a subpackage of it is imported", map[string]*pkg{"daml/script": {Imports: []string{jsonapi + "/wire"}}}, []string{"daml/script"}},
		{"scriptledger, a JSON API client", map[string]*pkg{"ledger/scriptledger": {Imports: []string{jsonapi}}}, nil},
		{"a package under scriptledger", map[string]*pkg{"ledger/scriptledger/x": {Imports: []string{jsonapi}}}, []string{"ledger/scriptledger/x"}},
		{"httpadapter and its console", map[string]*pkg{"httpadapter": {Imports: []string{jsonapi}}, "httpadapter/console": {Imports: []string{jsonapi}}}, nil},
		{"examples and ledgertest", map[string]*pkg{"examples/embedded": {Imports: []string{jsonapi}}, "ledger/ledgertest": {Imports: []string{jsonapi}}}, nil},
		{"tests of any package", map[string]*pkg{"ledger": {TestImports: []string{jsonapi}}, "grpcadapter": {XTestImports: []string{jsonapi}}}, nil},
		{"a package named like it", map[string]*pkg{"ledger": {Imports: []string{jsonapi + "x"}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := jsonAPIViolations(tt.pkgs); !slices.Equal(got, tt.want) {
				t.Errorf("jsonAPIViolations = %v, want %v", got, tt.want)
			}
		})
	}
}

// updateAllowed are the module packages ledger/update may import: it is
// pure data (Daml values, identifiers, errors), below ledger and every
// adapter that renders it.
var updateAllowed = []string{"daml/value", "daml/lf", "apierr"}

// updateViolations returns the imports "pkg -> import" of ledger/update
// (and any package under it) that are module packages other than
// updateAllowed: the updates a participant records are values any package
// may hold, so they depend on no part of the node (ledger above all).
// Tests may import more.
func updateViolations(pkgs map[string]*pkg) []string {
	var out []string
	for name, p := range pkgs {
		if !under(name, "ledger/update") {
			continue
		}
		for _, imp := range moduleImports(p.Imports) {
			if !slices.Contains(updateAllowed, imp) {
				out = append(out, name+" -> "+imp)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestUpdateIsPure: ledger/update imports only daml/value, daml/lf and
// apierr of the module.
func TestUpdateIsPure(t *testing.T) {
	pkgs := listPackages(t)
	if pkgs["ledger/update"] == nil {
		t.Fatal("go list did not list ledger/update")
	}
	for _, v := range updateViolations(pkgs) {
		t.Errorf("%s; ledger/update may import only %v", v, updateAllowed)
	}
}

// TestUpdateRule checks the rule itself on made-up import graphs, so that
// a violation is known to fail TestUpdateIsPure.
func TestUpdateRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pkgs map[string]*pkg
		want []string
	}{
		{"values, identifiers, errors and the standard library", map[string]*pkg{"ledger/update": {Imports: []string{"time", module + "/daml/value", module + "/daml/lf", module + "/apierr"}}}, nil},
		{"ledger", map[string]*pkg{"ledger/update": {Imports: []string{module + "/ledger"}}}, []string{"ledger/update -> ledger"}},
		{"the JSON layer", map[string]*pkg{"ledger/update": {Imports: []string{module + "/ledger/jsonapi"}}}, []string{"ledger/update -> ledger/jsonapi"}},
		{"a package under it", map[string]*pkg{"ledger/update/x": {Imports: []string{module + "/identity"}}}, []string{"ledger/update/x -> identity"}},
		{"a subpackage of an allowed one", map[string]*pkg{"ledger/update": {Imports: []string{module + "/daml/lf/lftest"}}}, []string{"ledger/update -> daml/lf/lftest"}},
		{"its tests", map[string]*pkg{"ledger/update": {TestImports: []string{module + "/ledger"}, XTestImports: []string{module + "/ledger/ledgertest"}}}, nil},
		{"a package named like it", map[string]*pkg{"ledger/updates": {Imports: []string{module + "/ledger"}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := updateViolations(tt.pkgs); !slices.Equal(got, tt.want) {
				t.Errorf("updateViolations = %v, want %v", got, tt.want)
			}
		})
	}
}
