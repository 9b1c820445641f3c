// Package examples holds no code of its own: its test checks that every
// example under it builds from a copy in a module of its own, as an
// application that copies one gets it.
package examples

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// copiedExamples are the examples the README offers to copy out; each must
// be here (any other example found is checked as well).
var copiedExamples = []string{"damlscript", "embedded", "ledgerd", "mount", "tail"}

// testedOutside are the examples whose own tests also run in the copy: they
// use only ledgernode's exported API (the embedded example creates a Ping,
// has bob respond and reads the tree with typed values), so a test that
// passes there passes for any Go module that depends on ledgernode.
var testedOutside = []string{"embedded"}

// TestExamplesBuildOutsideModule copies each example's non-test Go files
// into a fresh module that requires ledgernode (replaced by this checkout),
// then runs `go mod tidy` and `go build` there (and, for testedOutside, copies
// the example's tests too and runs `go test`), with the go command's
// environment as it is: the module proxy and checksum database a user has,
// and whatever module cache the environment uses, empty or not. An example
// that imports a package internal to ledgernode, or that needs a module
// ledgernode's go.sum happens to hold but the proxy would not give, fails.
func TestExamplesBuildOutsideModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	if testing.Short() {
		t.Skip("builds a module per example (-short)")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("no go directive in go.mod")
	}
	if err := touchLibrary(root); err != nil {
		t.Fatal(err)
	}
	examples := exampleSources(t, testedOutside)
	for _, name := range copiedExamples {
		if examples[name] == nil {
			t.Errorf("example %s: no Go files in examples/%s", name, name)
		}
	}
	env := goEnv()
	for name, files := range examples {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, f := range files {
				src, err := os.ReadFile(filepath.Join(name, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			mod := "module example.com/" + name + "\n\ngo " + string(goVersion[1]) + "\n\n" +
				"require github.com/ledgernode/ledgernode v0.0.0\n\n" +
				"replace github.com/ledgernode/ledgernode => " + root + "\n"
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
				t.Fatal(err)
			}
			steps := [][]string{{"mod", "tidy"}, {"build", "-o", os.DevNull, "."}}
			if slices.Contains(testedOutside, name) {
				steps = append(steps, []string{"test", "-count=1", "."})
			}
			for _, args := range steps {
				cmd := exec.Command(goBin, args...)
				cmd.Dir = dir
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("go %s in a copy of examples/%s outside the module: %v\n%s", strings.Join(args, " "), name, err, out)
				}
			}
		})
	}
}

// exampleSources returns the non-test Go files of each example directory,
// by directory name, and the test files too of the examples in withTests.
func exampleSources(t *testing.T, withTests []string) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		files, err := os.ReadDir(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			n := f.Name()
			test := strings.HasSuffix(n, "_test.go")
			if !f.IsDir() && strings.HasSuffix(n, ".go") && (!test || slices.Contains(withTests, e.Name())) {
				out[e.Name()] = append(out[e.Name()], n)
			}
		}
	}
	return out
}

// goEnv is the test's environment for the go commands run in a copy: as
// it is, outside any workspace, without a -mod flag of GOFLAGS (the copy
// is a module of its own, tidied as a user would).
func goEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if flags, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			kept := slices.DeleteFunc(strings.Fields(flags), func(f string) bool { return strings.HasPrefix(f, "-mod=") })
			kv = "GOFLAGS=" + strings.Join(kept, " ")
		}
		if !strings.HasPrefix(kv, "GOWORK=") {
			env = append(env, kv)
		}
	}
	return append(env, "GOWORK=off")
}

// touchLibrary stats go.sum and every Go file of the module, so that go test's result cache, which sees only the files a
// test opens itself, does not keep a result after the library changes.
func touchLibrary(root string) error {
	if _, err := os.Stat(filepath.Join(root, "go.sum")); err != nil {
		return err
	}
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
