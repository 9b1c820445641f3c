package ledger

import (
	"fmt"
	"os"
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// envReopenDir names an existing on-disk node's directory (for instance
// one BenchmarkScale kept with LEDGERD_SCALE_DIR) for BenchmarkReopen;
// envReopenLog, set, has Badger log its steps to stderr with the time of
// each (how long opening the tables took, for one).
const (
	envReopenDir = "LEDGER_REOPEN_DIR"
	envReopenLog = "LEDGER_REOPEN_LOG"
)

// BenchmarkReopen opens and closes the node in LEDGER_REOPEN_DIR, each
// iteration timing the open: "badger" opens only the Badger database with
// the node's options, "node" the whole node (ledger.Open). It is what a
// restarted ledgerd does before it serves (issue 23: restart exec →
// /livez ≤ 100 ms at a million contracts). Each open writes the
// participant record and each close flushes it, so the directory changes
// a little per iteration; use a copy. Skipped without the variable.
//
//	LEDGER_REOPEN_DIR=/tmp/store go test -run '^$' -bench Reopen -benchtime 20x ./ledger
func BenchmarkReopen(b *testing.B) {
	dir := os.Getenv(envReopenDir)
	if dir == "" {
		b.Skipf("%s not set: skipping the reopen benchmark", envReopenDir)
	}
	opts := Options{Dir: dir}.withDefaults()
	if os.Getenv(envReopenLog) != "" {
		opts.Badger = func(o badger.Options) badger.Options { return o.WithLogger(stampLogger{}) }
	}
	b.Run("badger", func(b *testing.B) {
		var open time.Duration
		for b.Loop() {
			t0 := time.Now()
			db, err := badger.Open(opts.badgerOptions())
			if err != nil {
				b.Fatal(err)
			}
			open += time.Since(t0)
			if err := db.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(open.Microseconds())/1000/float64(b.N), "ms-open")
	})
	b.Run("node", func(b *testing.B) {
		var open time.Duration
		for b.Loop() {
			t0 := time.Now()
			n, err := Open(Options{Dir: dir})
			if err != nil {
				b.Fatal(err)
			}
			open += time.Since(t0)
			if err := n.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(open.Microseconds())/1000/float64(b.N), "ms-open")
	})
}

// stampLogger is a badger.Logger that writes every line to stderr with
// the time of day in microseconds.
type stampLogger struct{}

func (stampLogger) p(f string, a ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05.000000 ")+f+"\n", a...)
}
func (l stampLogger) Errorf(f string, a ...any)   { l.p(f, a...) }
func (l stampLogger) Warningf(f string, a ...any) { l.p(f, a...) }
func (l stampLogger) Infof(f string, a ...any)    { l.p(f, a...) }
func (l stampLogger) Debugf(f string, a ...any)   { l.p(f, a...) }
