package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDARUploadedLoggedOnce: each -dar logs "DAR uploaded" once (the
// node's line, with the main package id), not once by the node and again
// by ledgerd.
func TestDARUploadedLoggedOnce(t *testing.T) {
	t.Parallel()
	dar := filepath.Join(acceptDARDir, pingDAR)
	if _, err := os.Stat(dar); err != nil {
		t.Skipf("../shared not found: skipping the -dar log test (%v)", err)
	}
	var logs lockedBuffer
	s := startServer(t, slog.New(slog.NewTextHandler(&logs, nil)), "-in-memory", "-auth", "none", "-dar", dar)
	s.stop()
	var uploaded []string
	for line := range strings.Lines(logs.b.String()) {
		if strings.Contains(line, `msg="DAR uploaded"`) {
			uploaded = append(uploaded, line)
		}
	}
	if len(uploaded) != 1 || !strings.Contains(uploaded[0], "mainPackageId=") {
		t.Errorf("%d \"DAR uploaded\" lines for one -dar, want 1 with its main package id:\n%s", len(uploaded), strings.Join(uploaded, ""))
	}
}

// TestStartupTokenHint: the start-up banner tells how to get a token for
// another user with the command the user can run: the go run form when
// ledgerd runs from go run's build (as go test's binary does), each of the
// three ways the secret is chosen.
func TestStartupTokenHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"data directory", []string{"-data", dir}, "A token for another user: go run ./examples/ledgerd token -user U -data " + dir},
		{"-auth hs256", []string{"-in-memory", "-auth", "hs256:S"}, "Tokens for other users: go run ./examples/ledgerd token -user U -auth hs256:SECRET"},
		{"in memory", []string{"-in-memory"}, "mint tokens for other users with: go run ./examples/ledgerd token -user U -auth hs256:SECRET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, discard(), tt.args...)
			s.stop()
			if !strings.Contains(s.out.String(), tt.want) {
				t.Errorf("banner:\n%s\nwant it to contain %q", s.out.String(), tt.want)
			}
		})
	}
}

// TestTokenCommandName: the hints name the token subcommand after how ledgerd was
// invoked (its os.Args[0]).
func TestTokenCommandName(t *testing.T) {
	tests := []struct {
		argv0, want string
	}{
		{"/tmp/go-build3956420384/b001/exe/ledgerd", "go run ./examples/ledgerd token"},
		{"/root/.cache/go-build/8b/8b3ff79ded49ee386eb8b5f6e360fd1a210264e4edb7ade45c7f5e3969500be0-d/ledgerd", "go run ./examples/ledgerd token"},
		{`C:\Users\me\AppData\Local\Temp\go-build123\b001\exe\ledgerd.exe`, "go run ./examples/ledgerd token"},
		{"ledgerd", "ledgerd token"},
		{"./ledgerd", "./ledgerd token"},
		{"/usr/local/bin/ledgerd", "/usr/local/bin/ledgerd token"},
		{"/srv/go-builder/ledgerd", "/srv/go-builder/ledgerd token"},
	}
	for _, tt := range tests {
		if got := tokenCommand(tt.argv0); got != tt.want {
			t.Errorf("tokenCommand(%q) = %q, want %q", tt.argv0, got, tt.want)
		}
	}
}
