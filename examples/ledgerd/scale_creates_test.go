package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// envScaleLimit, set by BenchmarkScaleLimit in the child's environment,
// makes the test binary serve the limit of HTTP + Badger (serveScaleLimit)
// instead of ledgerd.
const envScaleLimit = "LEDGERD_SCALE_LIMIT"

// scaleRun is what scaleCreates measured: the whole run's time and the
// server's CPU time, and each tenth's creates per second and server CPU
// per create (µs).
type scaleRun struct {
	n         int
	total     time.Duration
	serverCPU time.Duration
	rate      [10]float64
	cpuPer    [10]float64
}

// report reports the run's rates and CPU per create, the first and the
// last tenth's, and their ratio.
func (r scaleRun) report(b *testing.B) {
	b.ReportMetric(float64(r.n)/r.total.Seconds(), "creates/s")
	b.ReportMetric(r.rate[0], "creates/s-first10%")
	b.ReportMetric(r.rate[9], "creates/s-last10%")
	b.ReportMetric(r.rate[9]/r.rate[0], "last10%-of-first")
	b.ReportMetric(r.cpuPer[0], "cpu-us/create-first10%")
	b.ReportMetric(r.cpuPer[9], "cpu-us/create-last10%")
}

// scaleOwner is whose BenchmarkScale's i-th create of n is: -1 for the
// needle's (every n/100-th), else the index of the crowd party's
// (round-robin over the others).
func scaleOwner(n int, i int64) int {
	every := int64(n / scaleNeedle)
	if i%every == every-1 {
		return -1
	}
	return int((i - i/every) % scaleCrowd)
}

// scaleBodies returns the body of BenchmarkScale's i-th create of n: a
// Ping of its owner's (scaleOwner) to itself.
func scaleBodies(n int, pingT, needle string, crowd []string) func(i int64) []byte {
	return func(i int64) []byte {
		p := needle
		if o := scaleOwner(n, i); o >= 0 {
			p = crowd[o]
		}
		return fmt.Appendf(nil, `{"commandId":"s%d","actAs":[%q],"userId":"participant_admin","commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"id":"p%d","initiator":%q,"responder":%q}}}]}`,
			i, p, pingT, i, p, p)
	}
}

// scaleCreates sends n submit-and-wait creates, body(i) for the i-th, to
// the server at base (process pid) from scaleClients HTTP clients, and
// measures each tenth: its rate, from the end of the tenth before (the
// start for the first) to its own end, and the server's CPU time (user +
// system) per create, which unlike the rate does not depend on what else
// the machine runs. profiles, when not nil, profiles the first and the
// last tenth.
func scaleCreates(b *testing.B, client *http.Client, base string, pid, n int, body func(i int64) []byte, profiles *profiler) scaleRun {
	b.Helper()
	var seq atomic.Int64
	var failed atomic.Bool
	slice := int64(n / 10)
	count := func(s int) int64 {
		if s == 9 {
			return int64(n) - 9*slice
		}
		return slice
	}
	var mu sync.Mutex
	ends := make([]time.Time, 10)
	cpus := make([]time.Duration, 10)
	done := make([]atomic.Int64, 10)
	var wg sync.WaitGroup
	cpu0 := procCPU(b, pid)
	start := time.Now()
	profiles.profile("first")
	for range scaleClients {
		wg.Go(func() {
			for !failed.Load() {
				i := seq.Add(1) - 1
				if i >= int64(n) {
					return
				}
				if send(b, client, base+"/v2/commands/submit-and-wait", body(i)) == nil {
					failed.Store(true)
					return
				}
				s := int(min(i/slice, 9))
				if done[s].Add(1) == count(s) {
					mu.Lock()
					ends[s] = time.Now()
					cpus[s] = procCPU(b, pid)
					mu.Unlock()
					if s == 8 {
						profiles.profile("last")
					}
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		b.FailNow()
	}
	r := scaleRun{n: n, total: time.Since(start), serverCPU: cpus[9] - cpu0}
	for s := range 10 {
		from, cpuFrom := start, cpu0
		if s > 0 {
			from, cpuFrom = ends[s-1], cpus[s-1]
		}
		r.rate[s] = float64(count(s)) / ends[s].Sub(from).Seconds()
		r.cpuPer[s] = float64((cpus[s] - cpuFrom).Microseconds()) / float64(count(s))
	}
	return r
}

// profiler takes 5-second CPU profiles of a scale run's server, which
// serves net/http/pprof on its address (envScalePprof), into files named
// LEDGERD_SCALE_CPU-<name>.pb.gz.
type profiler struct {
	b      *testing.B
	addr   string
	prefix string
	wg     sync.WaitGroup
}

// cpuProfiles returns the profiler of the server serving pprof on addr,
// nil (which profiles nothing) without LEDGERD_SCALE_CPU.
func cpuProfiles(b *testing.B, addr string) *profiler {
	prefix := os.Getenv(envScaleCPU)
	if prefix == "" || addr == "" {
		return nil
	}
	return &profiler{b: b, addr: addr, prefix: prefix}
}

// profile starts a profile of the next 5 seconds, named name.
func (p *profiler) profile(name string) {
	if p == nil {
		return
	}
	p.wg.Go(func() {
		resp, err := http.Get("http://" + p.addr + "/debug/pprof/profile?seconds=5")
		if err != nil {
			p.b.Errorf("CPU profile: %v", err)
			return
		}
		defer resp.Body.Close()
		prof, err := io.ReadAll(resp.Body)
		if err == nil {
			err = os.WriteFile(p.prefix+"-"+name+".pb.gz", prof, 0o644)
		}
		if err != nil {
			p.b.Errorf("CPU profile: %v", err)
		}
	})
}

// wait waits for the profiles started.
func (p *profiler) wait() {
	if p != nil {
		p.wg.Wait()
	}
}

// memorySampler samples a process's anonymous and file-backed resident
// memory every 50 ms (VmHWM has only their sum's peak).
type memorySampler struct {
	peakAnon, peakFile atomic.Int64
	done               chan struct{}
	wg                 sync.WaitGroup
}

// sampleMemory starts sampling process pid's memory until stop.
func sampleMemory(b *testing.B, pid int) *memorySampler {
	m := &memorySampler{done: make(chan struct{})}
	m.wg.Go(func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if _, _, anon, file := procMemory(b, pid); anon > 0 {
				m.peakAnon.Store(max(m.peakAnon.Load(), anon))
				m.peakFile.Store(max(m.peakFile.Load(), file))
			}
			select {
			case <-m.done:
				return
			case <-t.C:
			}
		}
	})
	return m
}

// stop ends the sampling and returns the peaks, in bytes.
func (m *memorySampler) stop() (peakAnon, peakFile int64) {
	close(m.done)
	m.wg.Wait()
	return m.peakAnon.Load(), m.peakFile.Load()
}

// BenchmarkScaleLimit is BenchmarkScale's creates against the limit of
// HTTP + Badger on disk (ledgertest.OpenDiskLimit): a process of its own
// serving a minimal net/http server that commits, per request, the keys
// and values an on-disk node stores for one of its Ping creates (random
// keys where the node's are contract, update and command ids, ordered
// where they are offsets), with the node's Badger options, and nothing
// else. The same 64 clients send the same bodies; it reports the same
// tenths (and CPU profiles with LEDGERD_SCALE_CPU). What the limit's last
// tenth keeps of its first is what Badger itself allows the node at that
// size (issue 23 asks ≥ 0.9 of the node at a million contracts). One
// iteration whatever b.N:
//
//	LEDGERD_SCALE=1000000 go test -run '^$' -bench ScaleLimit -benchtime 1x ./examples/ledgerd
func BenchmarkScaleLimit(b *testing.B) {
	n, dir, pprofAddr := scaleSetup(b, false)
	srv, _ := startScaleProcess(b, dir, pprofAddr, envScaleLimit+"=1")
	profiles := cpuProfiles(b, pprofAddr)
	client := loadClient()
	// Party ids of the node's length (a hint, "::1220" and 64 hex digits).
	party := func(hint string) string { return hint + "::1220" + strings.Repeat("0a", 32) }
	crowd := make([]string, scaleCrowd)
	for i := range crowd {
		crowd[i] = party(fmt.Sprintf("crowd%d", i))
	}
	pingT := strings.Repeat("0a", 32) + ":Canton.Internal.Ping:Ping"
	memory := sampleMemory(b, srv.cmd.Process.Pid)
	run := scaleCreates(b, client, srv.base, srv.cmd.Process.Pid, n, scaleBodies(n, pingT, party("needle"), crowd), profiles)
	_, peak, _, _ := procMemory(b, srv.cmd.Process.Pid)
	peakAnon, peakFile := memory.stop()
	profiles.wait()
	srv.stopScale(b)
	sst, vlog := diskSizes(b, dir)
	run.report(b)
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-rss")
	b.ReportMetric(float64(peakAnon)/(1<<20), "MiB-peak-rss-anon")
	b.ReportMetric(float64(peakFile)/(1<<20), "MiB-peak-rss-file")
	b.ReportMetric(float64(sst)/(1<<20), "MiB-disk-sst")
	b.ReportMetric(float64(vlog)/(1<<20), "MiB-disk-vlog")
}

// serveScaleLimit is the process BenchmarkScaleLimit starts (TestMain,
// with envScaleLimit set): the limit on an on-disk store in -data, served
// on -addr (ledgerd's flags; the others are ignored) with the node's
// server timeouts, /livez answering 200, until SIGTERM. It returns the
// process's exit code.
func serveScaleLimit() int {
	fs := flag.NewFlagSet("limit", flag.ContinueOnError)
	addr := fs.String("addr", "", "")
	dir := fs.String("data", "", "")
	for _, ignored := range []string{"grpc-addr", "auth", "log-level"} {
		fs.String(ignored, "", "")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	limit, closeLimit, err := ledgertest.OpenDiskLimit(*dir, logger)
	if err != nil {
		logger.Error("opening the limit's store", "err", err)
		return 1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/livez", func(http.ResponseWriter, *http.Request) {})
	mux.Handle("/", limit)
	srv := &http.Server{Handler: mux}
	httpadapter.ServerTimeouts(srv)
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Error("listening", "err", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		logger.Error("serving", "err", err)
		return 1
	}
	if err := srv.Shutdown(context.Background()); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("shutting down", "err", err)
		return 1
	}
	if err := closeLimit(); err != nil {
		logger.Error("closing the limit's store", "err", err)
		return 1
	}
	return 0
}
