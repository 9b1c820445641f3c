package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/identity"
)

// secretFile is the file of the data directory that keeps the generated
// HS256 secret (hex), so that tokens survive a restart.
const secretFile = "ledgerd-hs256.secret"

// loadOrCreateSecret returns the HS256 secret kept in dir, generating and
// writing it (mode 0600) on first use.
func loadOrCreateSecret(dir string) (secret string, created bool, err error) {
	path := filepath.Join(dir, secretFile)
	if s, err := readSecret(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return s, false, err
	}
	s := newSecret()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("keeping the generated secret: %w", err)
	}
	if _, err := io.WriteString(f, s+"\n"); err != nil {
		f.Close()
		return "", false, fmt.Errorf("keeping the generated secret: %w", err)
	}
	return s, true, f.Close()
}

// readSecret reads a secret file written by loadOrCreateSecret.
func readSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return s, nil
}

// newSecret returns 32 random bytes in hex.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

const tokenUsage = `Usage: ledgerd token -user U [-ttl 24h] [-scope daml_ledger_api] [-data DIR | -auth hs256:SECRET]

Prints an HS256 access token for user U, signed with the secret a ledgerd
started without -auth keeps in its data directory (or with the -auth
value). The user must exist on the node for the token to be accepted.

Examples:
  go run ./examples/ledgerd token -user alice
  go run ./examples/ledgerd token -user participant_admin -ttl 720h -data /tmp/dev
  go run ./examples/ledgerd token -user alice -auth hs256:S

Flags:
`

// runToken is the "ledgerd token" subcommand.
func runToken(args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("ledgerd token", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprint(fset.Output(), tokenUsage)
		fset.PrintDefaults()
	}
	user := fset.String("user", "", "the user the token is for (its sub claim); required")
	ttl := fset.Duration("ttl", 24*time.Hour, "how long the token is valid (0: no expiry)")
	scope := fset.String("scope", identity.DefaultTargetScope, "the token's scope claim")
	data := fset.String("data", defaultDataDir, "the data directory of the ledgerd whose secret signs the token")
	auth := fset.String("auth", "", "hs256:SECRET: sign with this secret instead of the data directory's")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", errFlagParse, err)
	}
	if fset.NArg() > 0 {
		return usageError{fset, fmt.Errorf("unexpected arguments: %s", strings.Join(fset.Args(), " "))}
	}
	if *user == "" {
		return usageError{fset, errors.New("-user is required")}
	}
	if err := identity.ValidateUserID(*user); err != nil {
		return usageError{fset, fmt.Errorf("-user: %w", err)}
	}
	var secret string
	if *auth != "" {
		s, ok := strings.CutPrefix(*auth, "hs256:")
		if !ok || s == "" {
			return usageError{fset, errors.New("-auth: only hs256:SECRET can sign tokens")}
		}
		secret = s
	} else {
		s, err := readSecret(filepath.Join(*data, secretFile))
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no secret in %s: start ledgerd on it without -auth first, or pass -auth hs256:SECRET", *data)
		}
		if err != nil {
			return err
		}
		secret = s
	}
	tok, err := identity.MintHS256Scope([]byte(secret), *user, *scope, *ttl, nil)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, tok)
	return err
}

// usageError is a command-line mistake: the command prints it with the
// usage of fs (a pointer to -help when fs is nil) and exits 2.
type usageError struct {
	fs  *flag.FlagSet
	err error
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// tokenCommand is the command that runs the token subcommand of the
// ledgerd invoked as argv0 (its os.Args[0]): the go run form when argv0 is
// a go run build (in a go-build<N> temporary directory, or in the go-build
// cache where go run keeps executables), else argv0 as it was typed.
func tokenCommand(argv0 string) string {
	dirs := strings.FieldsFunc(argv0, func(r rune) bool { return r == '/' || r == '\\' })
	for _, d := range dirs[:max(len(dirs)-1, 0)] {
		if n, ok := strings.CutPrefix(d, "go-build"); ok && strings.Trim(n, "0123456789") == "" {
			return "go run ./examples/ledgerd token"
		}
	}
	return argv0 + " token"
}
