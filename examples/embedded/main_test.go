package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

func TestRun(t *testing.T) {
	if err := run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestBuildsOutsideModule: the example builds from a copy in a module of
// its own, so it uses nothing internal to ledgernode (what an application
// that copies it gets).
func TestBuildsOutsideModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	if testing.Short() {
		t.Skip("builds a module (-short)")
	}
	root, err := filepath.Abs("../..")
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
	dir := t.TempDir()
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	files := map[string][]byte{
		"main.go": src,
		"go.sum":  sum,
		"go.mod": []byte("module example.com/embedded\n\ngo " + string(goVersion[1]) + "\n\n" +
			"require github.com/ledgernode/ledgernode v0.0.0\n\n" +
			"replace github.com/ledgernode/ledgernode => " + root + "\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "build", "-mod=mod", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of a copy outside the module: %v\n%s", err, out)
	}
}
