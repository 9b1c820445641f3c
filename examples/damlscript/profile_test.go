package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestProfiles: --cpuprofile and --memprofile write pprof profiles of the
// run (a CPU profile and an allocation profile with samples); an
// unwritable profile path is a command-line mistake, exit 2, before any
// script runs.
func TestProfiles(t *testing.T) {
	hw := testDAR(t)
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	var out, errOut bytes.Buffer
	code := cli(context.Background(), []string{"--dar", hw.path, "--script-name", "Test:ok", "--cpuprofile", cpu, "--memprofile", mem}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, want 0 (stdout %s, stderr %s)", code, out.String(), errOut.String())
	}
	// A pprof profile is a gzipped protocol buffer.
	for _, path := range []string{cpu, mem} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b, err := io.ReadAll(z)
		f.Close()
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", path, len(b), err)
		}
	}
	out.Reset()
	errOut.Reset()
	code = cli(context.Background(), []string{"--dar", hw.path, "--all", "--cpuprofile", filepath.Join(dir, "missing", "cpu.prof")}, &out, &errOut)
	if code != 2 || out.Len() != 0 {
		t.Errorf("unwritable profile: exit %d, stdout %q; want 2 and nothing run", code, out.String())
	}
}
