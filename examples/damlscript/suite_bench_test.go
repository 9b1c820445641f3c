package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/script/scripttest"
)

// BenchmarkAmuletSuite runs the whole Splice Amulet test suite as
// `damlscript --dar … --all [-p N]` does, DAR reading, type checking and
// fixture included: one iteration is one run of the command. Every script
// must pass. The garbage collector is set as the command sets it (GOGC
// and the memory limit, unless the environment sets them). Skipped
// without ../shared.
func BenchmarkAmuletSuite(b *testing.B) {
	scripttest.ReadDAR(b, amuletTestDAR) // skips without ../shared
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func(b bool) { boundHeap = b }(boundHeap)
	tuneGC()
	for _, p := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("p=%d", p), func(b *testing.B) {
			for b.Loop() {
				var out bytes.Buffer
				failed, err := run(context.Background(), config{dar: amuletTestDAR, all: true, parallel: p, timeout: defaultTimeout}, &out, io.Discard)
				if err != nil || failed > 0 || !strings.Contains(out.String(), "50 passed, 0 failed") {
					b.Fatalf("%d failed, %v:\n%s", failed, err, out.String())
				}
			}
		})
	}
}
