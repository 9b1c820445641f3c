package pb

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// protocVersionLine matches the line in which the generators print
// protoc's version: the only part of the output that depends on the
// Debian release rather than on the protos and the pinned plugins.
var protocVersionLine = regexp.MustCompile(`(?m)^// (\t|- )protoc +v[0-9.]+$`)

// TestGeneratedCodeIsCurrent regenerates the code with gen.sh into a
// temporary directory and compares it, file by file, with the committed
// code under grpcadapter/pb. It skips when protoc, go or the protos in
// ../shared are absent, or when the pinned plugins cannot be installed
// (no module proxy); protoc's own version line is not compared.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not regenerating the protobuf code")
	}
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Skip("protoc is not installed (apt-get install protobuf-compiler): not checking the generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: cannot install the protoc plugins")
	}
	if _, err := os.Stat("../../../shared/reference/proto-3.5/com"); err != nil {
		t.Skip("../shared/reference/proto-3.5 is absent beside the module: not checking the generated code")
	}
	gobin := t.TempDir()
	for _, pkg := range []string{
		"google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12",
		"google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2",
	} {
		cmd := exec.Command("go", "install", pkg)
		cmd.Env = append(os.Environ(), "GOBIN="+gobin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("cannot install %s (no module proxy?): %v\n%s", pkg, err, out)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "gen.sh")
	cmd.Env = append(os.Environ(),
		"OUT="+out,
		"PROTOC_GEN_GO="+filepath.Join(gobin, "protoc-gen-go"),
		"PROTOC_GEN_GO_GRPC="+filepath.Join(gobin, "protoc-gen-go-grpc"),
	)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, b)
	}
	want := generatedFiles(t, filepath.Join(out, "grpcadapter", "pb"))
	got := generatedFiles(t, ".")
	if len(want) == 0 {
		t.Fatal("gen.sh produced no file")
	}
	for _, name := range sortedKeys(want) {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: generated but not committed (run go generate ./grpcadapter/pb)", name)
		case !bytes.Equal(normalize(g), normalize(want[name])):
			t.Errorf("%s: differs from what gen.sh generates (run go generate ./grpcadapter/pb)", name)
		}
	}
	for _, name := range sortedKeys(got) {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: committed but no longer generated (remove it)", name)
		}
	}
}

// generatedFiles reads the *.pb.go files under dir, by slash path
// relative to dir.
func generatedFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".pb.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func normalize(b []byte) []byte { return protocVersionLine.ReplaceAll(b, []byte("// protoc")) }

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
