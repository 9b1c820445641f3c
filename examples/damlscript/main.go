// Command damlscript runs the Daml Script tests of a DAR on ledgernode, in
// process and without a JVM, the way `daml test` / `daml script --all`
// does: every script on a fresh in-memory node with static time starting
// at 1970-01-01T00:00:00Z.
//
//	go run ./examples/damlscript --dar FILE --all
//	go run ./examples/damlscript --dar FILE --script-name Module.Name:value
//	go run ./examples/damlscript --dar FILE --all -p 2
//	go run ./examples/damlscript --dar FILE --all --ledger-url http://127.0.0.1:7575 --access-token-file T
//	go run ./examples/damlscript --dar FILE --test-pattern Transfer --junit out/tests.xml --show-coverage
//
// With --ledger-url the scripts run instead against the participant
// serving the JSON Ledger API at that URL (ledgerd, Canton), on its shared
// state (scriptledger.Remote); the DAR must be on it.
//
// It prints one line per script, "PASS Module:value (12.34 ms)" or
// "FAIL Module:value: <reason>" (the reason as `daml test` reports it:
// "Script execution failed on commit at Module:line:column: <the ledger's
// error>" for a failed submission), then "N passed, M failed", and exits 1
// when a script failed (2 for a command-line mistake). trace/debug output
// goes to stderr, prefixed with the script's name.
//
// As `daml test`: --test-pattern P runs only the scripts whose name
// contains P; --junit FILE writes a JUnit XML report; --show-coverage
// prints the templates created and choices exercised by the passing
// scripts against those the DAR's packages define.
//
// --cpuprofile FILE and --memprofile FILE write pprof profiles of the run
// (go tool pprof), to see where a suite's time and memory go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/typecheck"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

func main() {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// tuneGC sets the garbage collector for a short-lived run of many small
// evaluations: trade memory for less GC (about a quarter of the suite's
// time at the default 100) unless GOGC says otherwise; and, unless GOGC
// or GOMEMLIMIT says otherwise, bound the heap once the packages are
// loaded (limitHeap).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
		boundHeap = os.Getenv("GOMEMLIMIT") == ""
	}
}

// boundHeap makes run pause the collector for its setup and call
// limitHeap once its fixture is ready (pauseGC).
var boundHeap bool

// minHeapLimit is the least memory limit limitHeap sets: GOGC 400 lets
// the heap grow to five times what is live; with the Splice Amulet
// suite's ~25 MB live (decoded packages, compiled code) that is ~125 MB,
// and this limit keeps the process, its memory outside the Go heap
// included, under 150 MB with -p 2 too, at no measurable cost
// (BENCHMARKS.md, issue 21 item 4).
const minHeapLimit = 135 << 20

// heapLimit is the memory limit for a process whose live heap is live
// bytes: minHeapLimit, or four times live for larger DARs, so that the
// collector never runs for a heap that is mostly live.
func heapLimit(live uint64) int64 { return max(minHeapLimit, 4*int64(live)) }

// setupHeapLimit is the memory limit while the collector is paused for
// the setup (pauseGC) of a DAR of darSize bytes: minHeapLimit, or 64
// times the DAR for larger ones. The setup's heap is bounded by the DAR:
// the Splice Amulet test DAR (1.2 MB) allocates ~70 MB in all and keeps
// ~31 MB live (27 times its size), so the limit stays above what the
// setup keeps and is reached only by a DAR much larger than that suite's,
// which is then collected as the limit requires.
func setupHeapLimit(darSize int) int64 { return max(minHeapLimit, 64*int64(darSize)) }

// pauseGC stops the collector for the setup before the first script
// (decoding the DAR, type-checking it and preparing the fixture): its
// allocations are mostly what stays live (the decoded packages), so a
// collection during it marks that heap for little garbage (the Splice
// Amulet suite's setup ran two, ~10% of its CPU time). The memory limit
// setupHeapLimit bounds the heap meanwhile. resume restores the
// collector and, after its next collection, sets the memory limit
// (limitHeap) from the live heap that collection measured; calling it
// again does nothing.
// Unless run tunes the collector (boundHeap), both do nothing.
func pauseGC(darSize int) (resume func()) {
	if !boundHeap {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(setupHeapLimit(darSize))
	return sync.OnceFunc(func() {
		debug.SetGCPercent(old)
		afterNextGC(limitHeap)
	})
}

// afterNextGC calls f (in the finalizer goroutine) once the next
// collection has run: the cleanup of an object allocated here and
// referenced nowhere runs after the collection that finds it
// unreachable. resume uses it rather than collecting at once (which
// blocked the first script for the whole collection): the heap is past
// the goal that the restored GOGC sets, so that collection starts at the
// next allocation and runs beside the first script.
func afterNextGC(f func()) {
	runtime.AddCleanup(new(gcSentinel), func(f func()) { f() }, f)
}

// gcSentinel holds a pointer so that it is not a tiny allocation: those
// share a memory block, which other objects may keep reachable, so the
// cleanup of one may never run.
type gcSentinel struct{ _ *byte }

// limitHeap sets the memory limit from the live heap as of the last
// collection (the packages decoded, checked and the fixture prepared).
func limitHeap() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		debug.SetMemoryLimit(heapLimit(s[0].Value.Uint64()))
	}
}

type config struct {
	dar       string
	all       bool
	names     []string
	parallel  int
	timeout   time.Duration
	ledgerURL string
	tokenFile string
	// junit is the JUnit report's path; coverage prints the coverage
	// report; pattern selects the scripts whose name contains it.
	junit    string
	coverage bool
	pattern  string
	// cpuProfile and memProfile are the files of --cpuprofile and
	// --memprofile (pprof formats), for measuring the runner itself.
	cpuProfile string
	memProfile string
}

// defaultTimeout is --timeout's default.
const defaultTimeout = 60 * time.Second

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

const usageHead = `damlscript runs the Daml Script tests of a DAR on ledgernode: every script
on a fresh in-memory node with static time from 1970-01-01 (as daml test).

Usage:
  damlscript --dar FILE --all [-p N]
  damlscript --dar FILE --test-pattern TEXT
  damlscript --dar FILE --script-name Module.Name:value [--script-name …]
  damlscript --dar FILE --all --ledger-url URL [--access-token-file F]
  … [--junit FILE] [--show-coverage]

Flags:
`

func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	var names multiFlag
	fs := flag.NewFlagSet("damlscript", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	fs.StringVar(&c.dar, "dar", "", "the DAR whose main package holds the scripts (required)")
	fs.BoolVar(&c.all, "all", false, "run every script of the DAR's main package, in module-then-name order")
	fs.Var(&names, "script-name", "run this script (Module.Name:value); repeatable")
	fs.IntVar(&c.parallel, "p", 1, "run up to N scripts in parallel (0: GOMAXPROCS)")
	fs.DurationVar(&c.timeout, "timeout", defaultTimeout, "time limit of one script")
	fs.StringVar(&c.ledgerURL, "ledger-url", "", "run against the participant serving the JSON Ledger API at this URL (ledgerd, Canton) instead of fresh in-process nodes; the scripts share its state")
	fs.StringVar(&c.tokenFile, "access-token-file", "", "file holding the bearer token for --ledger-url")
	fs.StringVar(&c.pattern, "test-pattern", "", "run only the scripts (of --all) whose name (the value's, without the module) contains this text, as daml test --test-pattern")
	fs.StringVar(&c.junit, "junit", "", "write a JUnit XML report of the scripts to this file, as daml test --junit")
	fs.BoolVar(&c.coverage, "show-coverage", false, "print the templates created and choices exercised by the passing scripts, against those of the DAR's packages, as daml test --show-coverage")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	fs.StringVar(&c.memProfile, "memprofile", "", "write an allocation profile of the run to this file at its end (go tool pprof)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	c.names = names
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case c.dar == "":
		return c, errors.New("--dar is required")
	case c.pattern != "" && len(c.names) > 0:
		return c, errors.New("--test-pattern selects among --all: not with --script-name")
	case (c.all || c.pattern != "") == (len(c.names) > 0):
		return c, errors.New("give exactly one of --all (or --test-pattern) and --script-name")
	case c.tokenFile != "" && c.ledgerURL == "":
		return c, errors.New("--access-token-file needs --ledger-url")
	case c.parallel < 0:
		return c, errors.New("-p must not be negative")
	}
	if c.parallel == 0 {
		c.parallel = runtime.GOMAXPROCS(0)
	}
	return c, nil
}

// cli runs the command line and returns the exit status.
func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "damlscript: %v\n", err)
		return 2
	}
	stopProfiles, err := startProfiles(c)
	if err != nil {
		fmt.Fprintf(stderr, "damlscript: %v\n", err)
		return 2
	}
	failed, err := run(ctx, c, stdout, stderr)
	if perr := stopProfiles(); perr != nil && err == nil {
		err = perr
	}
	if err != nil {
		fmt.Fprintf(stderr, "damlscript: %v\n", err)
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// result is the outcome of one script.
type result struct {
	err     error
	elapsed time.Duration
	// cov is what the script created and exercised (--show-coverage).
	cov *coverage
}

// run runs the scripts and prints the report; it returns the number of
// failed scripts.
func run(ctx context.Context, c config, stdout, stderr io.Writer) (int, error) {
	data, err := os.ReadFile(c.dar)
	if err != nil {
		return 0, err
	}
	resumeGC := pauseGC(len(data))
	defer resumeGC()
	// Through the process-wide cache: the fixture's nodes decode the same
	// packages, and share these (one copy in memory).
	dar, err := lf.ReadDAR(data, lf.ReadOptions{Cache: lf.DefaultCache})
	if err != nil {
		return 0, err
	}
	var ids []lf.TypeConID
	if len(c.names) == 0 {
		for _, id := range script.Discover(dar.Main) {
			if strings.Contains(id.Name, c.pattern) {
				ids = append(ids, id)
			}
		}
	} else {
		for _, n := range c.names {
			id, err := script.ParseName(dar.Main.ID, n)
			if err != nil {
				return 0, err
			}
			ids = append(ids, id)
		}
	}
	// open returns the ledger a script runs on, and its release: a
	// fresh node of the fixture, or the remote participant.
	var open func() (script.Ledger, func(), error)
	if c.ledgerURL != "" {
		token := ""
		if c.tokenFile != "" {
			b, err := os.ReadFile(c.tokenFile)
			if err != nil {
				return 0, err
			}
			token = strings.TrimSpace(string(b))
		}
		// The local fixture's upload type-checks the DAR; against a
		// remote participant, check it here, as `daml script` compiles
		// against a validated package.
		if err := typecheck.CheckDAR(dar, nil); err != nil {
			return 0, fmt.Errorf("the DAR does not type-check: %w", err)
		}
		remote := scriptledger.NewRemote(c.ledgerURL, token, dar)
		open = func() (script.Ledger, func(), error) { return remote, func() {}, nil }
	} else {
		fx, err := scriptledger.NewFixture(ctx, ledger.Options{}, data)
		var te *typecheck.Error
		if errors.As(err, &te) {
			return 0, fmt.Errorf("the DAR does not type-check: %w", te)
		}
		if err != nil {
			return 0, err
		}
		// As fx.Run, with the ledger in hand to wrap.
		open = func() (script.Ledger, func(), error) {
			node, err := fx.Open()
			if err != nil {
				return nil, nil, err
			}
			return scriptledger.New(node, scriptledger.Options{}), func() { node.Close() }, nil
		}
	}
	resumeGC()
	var traceMu sync.Mutex
	trace := func(id lf.TypeConID, msg string) {
		traceMu.Lock()
		defer traceMu.Unlock()
		fmt.Fprintf(stderr, "[%s] %s\n", script.Name(id), msg)
	}
	// Results are printed in order, each as soon as it and every script
	// before it are done.
	results := make([]chan result, len(ids))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	next := make(chan int)
	// One runner for all workers: its engine compiles each definition
	// and evaluates each top-level value once.
	r := script.NewRunner(dar, script.Options{Trace: trace})
	var wg sync.WaitGroup
	for w := 0; w < min(c.parallel, max(len(ids), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sctx, cancel := context.WithTimeout(ctx, c.timeout)
				start := time.Now()
				var cov *coverage
				l, release, err := open()
				if err == nil {
					if c.coverage {
						cov = newCoverage()
						l = &recordingLedger{Ledger: l, cov: cov}
					}
					_, err = r.Run(sctx, ids[i], l)
					release()
				}
				cancel()
				results[i] <- result{err: err, elapsed: time.Since(start), cov: cov}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range ids {
			select {
			case next <- i:
			case <-ctx.Done():
				for j := i; j < len(ids); j++ {
					results[j] <- result{err: ctx.Err()}
				}
				return
			}
		}
	}()
	passed, failed := 0, 0
	failures := make([]string, len(ids))
	// As daml test, the coverage is that of the passing scripts together.
	cov := newCoverage()
	for i, id := range ids {
		res := <-results[i]
		if res.err != nil {
			failed++
			failures[i] = failure(res.err, c.timeout)
			fmt.Fprintf(stdout, "FAIL %s: %s\n", script.Name(id), cut(failures[i]))
			continue
		}
		passed++
		if res.cov != nil {
			cov.merge(res.cov)
		}
		fmt.Fprintf(stdout, "PASS %s (%s)\n", script.Name(id), millis(res.elapsed))
	}
	wg.Wait()
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if c.coverage {
		writeCoverage(stdout, dar, cov, true)
	}
	if c.junit != "" {
		if err := writeJUnit(c.junit, ids, failures); err != nil {
			return failed, fmt.Errorf("writing the JUnit report: %w", err)
		}
	}
	return failed, nil
}

// maxReason bounds the reason printed for a failure (a rejected
// transaction can name hundreds of contracts).
const maxReason = 2000

// millis formats a script's run time in milliseconds to two decimals:
// most scripts of a suite take a few, many less than one.
func millis(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
}

// cut cuts a failure's text at maxReason bytes.
func cut(s string) string {
	if len(s) <= maxReason {
		return s
	}
	cut := maxReason
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut-- // do not split a UTF-8 sequence
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}
