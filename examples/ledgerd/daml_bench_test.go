package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/internal/cputime"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// pingTarget starts ledgerd in memory (auth none) with Canton's Ping DAR
// and the parties alice and bob, like loadTarget; the benchmark is
// skipped without ../shared.
func pingTarget(b *testing.B) (base, pingT, alice, bob string, client *http.Client) {
	b.Helper()
	dar, err := os.ReadFile(filepath.Join(acceptDARDir, pingDAR))
	if err != nil {
		b.Skipf("../shared not found: skipping the Ping benchmark (%v)", err)
	}
	base = startServer(b, discardLogger(), "-in-memory", "-auth", "none").base
	client = loadClient()
	post(b, client, base+"/v2/dars", dar)
	party := func(hint string) string {
		var alloc struct {
			PartyDetails struct{ Party string } `json:"partyDetails"`
		}
		if err := json.Unmarshal(post(b, client, base+"/v2/parties", fmt.Appendf(nil, `{"partyIdHint":%q}`, hint)), &alloc); err != nil {
			b.Fatal(err)
		}
		return alloc.PartyDetails.Party
	}
	return base, ledgertest.MainPackageID(b, dar) + ":Canton.Internal.Ping:Ping", party("alice"), party("bob"), client
}

// send posts a body and reports a failure on the benchmark (from any
// goroutine); it returns the response body, nil on failure.
func send(b *testing.B, client *http.Client, url string, body []byte) []byte {
	resp, err := client.Post(url, "", bytes.NewReader(body))
	if err != nil {
		b.Error(err)
		return nil
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Errorf("POST %s: %d %s %v", url, resp.StatusCode, out, err)
		return nil
	}
	return out
}

func pingCreate(seq int64, pingT, alice, bob string) []byte {
	return fmt.Appendf(nil, `{"commandId":"c%d","actAs":[%q],"userId":"participant_admin","commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"id":"p%d","initiator":%q,"responder":%q}}}]}`,
		seq, alice, pingT, seq, alice, bob)
}

// BenchmarkHTTPPingCreate sends submit-and-wait Ping creates (through the
// Daml engine) from 64 keep-alive clients to ledgerd in memory: the same
// load as BenchmarkHTTPSubmitAndWait, with Canton's Ping.
func BenchmarkHTTPPingCreate(b *testing.B) {
	base, pingT, alice, bob, client := pingTarget(b)
	var seq atomic.Int64
	b.SetParallelism(32) // 64 clients on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if send(b, client, base+"/v2/commands/submit-and-wait", pingCreate(seq.Add(1), pingT, alice, bob)) == nil {
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "creates/s")
}

// BenchmarkHTTPPingCreateVsLimit measures Ping creates against the
// physical limit of HTTP + Badger, side by side in one run: "limit" sends
// the same requests, from the same 64 keep-alive clients, to
// ledgertest.ServeLimit (read the body, one group-committed Badger write
// of the keys and bytes a Ping create stores, a reply of the same size),
// "ping" to ledgerd in memory as BenchmarkHTTPPingCreate. Each reports
// creates/s and the process's CPU time (user + system, clients included:
// the same for both) per create; "ping" also reports its rate and CPU over
// the last "limit" run's (of-limit: creates/s over the limit's;
// cpu-of-limit: the limit's CPU per create over ping's). CPU per create
// is the steadier figure on a loaded machine. Run with a fixed count, e.g.
//
//	go test -run '^$' -bench HTTPPingCreateVsLimit -benchtime 20000x -count 3 ./examples/ledgerd
func BenchmarkHTTPPingCreateVsLimit(b *testing.B) {
	var limitRate, limitCPU float64
	b.Run("limit", func(b *testing.B) {
		dar, err := os.ReadFile(filepath.Join(acceptDARDir, pingDAR))
		if err != nil {
			b.Skipf("../shared not found: skipping the Ping benchmark (%v)", err)
		}
		pingT := ledgertest.MainPackageID(b, dar) + ":Canton.Internal.Ping:Ping"
		alice, bob := "alice::1220"+strings.Repeat("a", 64), "bob::1220"+strings.Repeat("b", 64)
		client := loadClient()
		limitRate, limitCPU = pingLoad(b, client, ledgertest.ServeLimit(b).URL+"/v2/commands/submit-and-wait", pingT, alice, bob)
	})
	b.Run("ping", func(b *testing.B) {
		base, pingT, alice, bob, client := pingTarget(b)
		rate, cpu := pingLoad(b, client, base+"/v2/commands/submit-and-wait", pingT, alice, bob)
		if limitRate > 0 && cpu > 0 {
			b.ReportMetric(rate/limitRate, "of-limit")
			b.ReportMetric(limitCPU/cpu, "cpu-of-limit")
		}
	})
}

// pingLoad sends b.N Ping creates to url from 64 keep-alive clients, and
// reports and returns creates/s and the process's CPU µs per create.
func pingLoad(b *testing.B, client *http.Client, url, pingT, alice, bob string) (rate, cpuPerOp float64) {
	var seq atomic.Int64
	rate, cpuPerOp = clientLoad(b, func() bool {
		return send(b, client, url, pingCreate(seq.Add(1), pingT, alice, bob)) != nil
	})
	b.ReportMetric(rate, "creates/s")
	b.ReportMetric(cpuPerOp, "cpu-µs/create")
	return rate, cpuPerOp
}

// clientLoad runs op b.N times from 64 goroutines (the clients, 32 per
// core on 2 cores), each stopping at op's first false, and returns ops/s
// and the process's CPU time (user + system, clients included) in µs per
// op. It also reports the garbage collector's share of that CPU time
// (gc-µs/op): the collector marks what the server keeps (a node's
// packages, say) on every cycle, a cost no profile of the requests shows.
func clientLoad(b *testing.B, op func() bool) (rate, cpuPerOp float64) {
	b.SetParallelism(32) // 64 clients on 2 cores
	runtime.GC()
	gcCPU := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(gcCPU)
	gc0 := gcCPU[0].Value.Float64()
	b.ResetTimer()
	start, cpu0 := time.Now(), cputime.Process()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if !op() {
				return
			}
		}
	})
	b.StopTimer()
	rate = float64(b.N) / time.Since(start).Seconds()
	cpuPerOp = float64(cputime.Process()-cpu0) / float64(time.Microsecond) / float64(b.N)
	metrics.Read(gcCPU)
	b.ReportMetric((gcCPU[0].Value.Float64()-gc0)*1e6/float64(b.N), "gc-µs/op")
	return rate, cpuPerOp
}

// BenchmarkHTTPPingCreateRespond runs Ping create + Respond pairs from 64
// keep-alive clients: alice creates a Ping
// (submit-and-wait-for-transaction, for its contract id), bob responds
// (submit-and-wait). Each op is one pair, two commits.
func BenchmarkHTTPPingCreateRespond(b *testing.B) {
	base, pingT, alice, bob, client := pingTarget(b)
	var seq atomic.Int64
	b.SetParallelism(32) // 64 clients on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := seq.Add(1)
			out := send(b, client, base+"/v2/commands/submit-and-wait-for-transaction", fmt.Appendf(nil, `{"commands":%s}`, pingCreate(i, pingT, alice, bob)))
			if out == nil {
				return
			}
			var resp struct {
				Transaction struct {
					Events []struct {
						CreatedEvent struct {
							ContractID string `json:"contractId"`
						} `json:"CreatedEvent"`
					} `json:"events"`
				} `json:"transaction"`
			}
			if err := json.Unmarshal(out, &resp); err != nil || len(resp.Transaction.Events) != 1 {
				b.Errorf("create: %s %v", out, err)
				return
			}
			respond := fmt.Appendf(nil, `{"commandId":"r%d","actAs":[%q],"userId":"participant_admin","commands":[{"ExerciseCommand":{"templateId":%q,"contractId":%q,"choice":"Respond","choiceArgument":{}}}]}`,
				i, bob, pingT, resp.Transaction.Events[0].CreatedEvent.ContractID)
			if send(b, client, base+"/v2/commands/submit-and-wait", respond) == nil {
				return
			}
		}
	})
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/el, "pairs/s")
	b.ReportMetric(2*float64(b.N)/el, "commits/s")
}
