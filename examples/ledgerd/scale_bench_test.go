package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof" // served by a scale child when envScalePprof is set
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// The scale benchmark's knobs (environment, so that `go test -bench` needs
// no custom flags):
//
//	LEDGERD_SCALE         contracts to create (default 10 000)
//	LEDGERD_SCALE_HEAP    file to write the server's heap profile to, at the end
//	LEDGERD_SCALE_DIR     the store's directory (new or empty; kept), instead
//	                      of a temporary one
//	LEDGERD_SCALE_CPU     file prefix for the server's CPU profiles of the
//	                      first and the last tenth (PREFIX-first.pb.gz,
//	                      PREFIX-last.pb.gz; 5 s each, or the whole tenth
//	                      if shorter)
const (
	envScale     = "LEDGERD_SCALE"
	envScaleHeap = "LEDGERD_SCALE_HEAP"
	envScaleCPU  = "LEDGERD_SCALE_CPU"
	envScaleDir  = "LEDGERD_SCALE_DIR"
	// envScalePprof, set by the benchmark in the child's environment, makes
	// the child serve net/http/pprof on that address.
	envScalePprof = "LEDGERD_SCALE_PPROF"
)

func init() {
	if addr := os.Getenv(envScalePprof); addr != "" && os.Getenv(envProcess) == "1" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
}

// scaleCrowd is the number of crowd parties; scaleNeedle the needle's
// contracts.
const (
	scaleCrowd   = 50
	scaleNeedle  = 100
	scaleClients = 64
)

// BenchmarkScale is issue 23's black-box scale run: ledgerd on disk in a
// process of its own, 64 HTTP clients creating LEDGERD_SCALE Pings, 100
// of them for one "needle" party (spread evenly), the others round-robin
// for 50 "crowd" parties; then it measures the reads whose cost must
// follow the reader's contracts, not the ledger (right after the creates,
// and again once the server is idle: the -idle metrics), the server's
// memory, and a restart. One iteration whatever b.N (run it with -benchtime 1x):
//
//	LEDGERD_SCALE=100000 go test -run '^$' -bench Scale -benchtime 1x ./examples/ledgerd
//
// It is skipped without ../shared (Canton's Ping DAR).
func BenchmarkScale(b *testing.B) {
	dar, err := os.ReadFile(filepath.Join(acceptDARDir, pingDAR))
	if err != nil {
		b.Skipf("../shared not found: skipping the scale benchmark (%v)", err)
	}
	n, dir, pprofAddr := scaleSetup(b, os.Getenv(envScaleHeap) != "")
	srv, _ := startScaleProcess(b, dir, pprofAddr)
	client := loadClient()
	post(b, client, srv.base+"/v2/dars", dar)
	pingT := ledgertest.MainPackageID(b, dar) + ":Canton.Internal.Ping:Ping"
	party := func(hint string) string {
		var alloc struct {
			PartyDetails struct{ Party string } `json:"partyDetails"`
		}
		if err := json.Unmarshal(post(b, client, srv.base+"/v2/parties", fmt.Appendf(nil, `{"partyIdHint":%q}`, hint)), &alloc); err != nil {
			b.Fatal(err)
		}
		return alloc.PartyDetails.Party
	}
	needle := party("needle")
	crowd := make([]string, scaleCrowd)
	for i := range crowd {
		crowd[i] = party(fmt.Sprintf("crowd%d", i))
	}

	// Creates: the needle's every n/100-th, the crowd's the others; the
	// rate of the first and the last tenth.
	pid := srv.cmd.Process.Pid
	memory := sampleMemory(b, pid)
	profiles := cpuProfiles(b, pprofAddr)
	run := scaleCreates(b, client, srv.base, pid, n, scaleBodies(n, pingT, needle, crowd), profiles)

	crowd0 := 0 // crowd[0]'s contracts
	for i := range int64(n) {
		if scaleOwner(n, i) == 0 {
			crowd0++
		}
	}
	// The reads, measured twice: right after the creates, while Badger
	// still compacts what they wrote (sharing the 2 cores with the reads),
	// and again once the server is idle (idleServer), which is what a
	// read costs on its own.
	measure := func() scaleReads {
		return timeScaleReads(b, client, srv.base, needle, crowd[0], min(1000, crowd0), 5)
	}
	busy := measure()
	idleAfter := idleServer(b, pid, 2*time.Minute)
	idle := measure()

	rss, peak, anon, file := procMemory(b, srv.cmd.Process.Pid)
	peakAnon, peakFile := memory.stop()
	profiles.wait()
	if path := os.Getenv(envScaleHeap); path != "" {
		resp, err := http.Get("http://" + pprofAddr + "/debug/pprof/heap?gc=1")
		if err != nil {
			b.Fatalf("heap profile: %v", err)
		}
		prof, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, prof, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	srv.stopScale(b)
	sst, vlog := diskSizes(b, dir)
	_, restart := startScaleProcess(b, dir, "")

	run.report(b)
	b.ReportMetric(float64(busy.needleACS.Microseconds())/1000, "ms-needle-acs")
	b.ReportMetric(float64(busy.crowdPage.Microseconds())/1000, "ms-crowd-acs-page")
	b.ReportMetric(float64(busy.needleUpdates.Microseconds())/1000, "ms-needle-updates-page")
	b.ReportMetric(float64(idle.needleACS.Microseconds())/1000, "ms-needle-acs-idle")
	b.ReportMetric(float64(idle.crowdPage.Microseconds())/1000, "ms-crowd-acs-page-idle")
	b.ReportMetric(float64(idle.needleUpdates.Microseconds())/1000, "ms-needle-updates-page-idle")
	b.ReportMetric(idleAfter.Seconds(), "s-until-idle")
	b.ReportMetric(float64(rss)/(1<<20), "MiB-rss")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-rss")
	b.ReportMetric(float64(anon)/(1<<20), "MiB-rss-anon")
	b.ReportMetric(float64(file)/(1<<20), "MiB-rss-file")
	b.ReportMetric(float64(peakAnon)/(1<<20), "MiB-peak-rss-anon")
	b.ReportMetric(float64(peakFile)/(1<<20), "MiB-peak-rss-file")
	b.ReportMetric(float64(sst)/(1<<20), "MiB-disk-sst")
	b.ReportMetric(float64(vlog)/(1<<20), "MiB-disk-vlog")
	b.ReportMetric(float64(restart.Microseconds())/1000, "ms-restart-livez")
	b.Logf("%d contracts in %v (server CPU %v); server RSS %d MiB (peak %d MiB; anonymous %d MiB, peak %d; files %d MiB, peak %d); restart exec→/livez %v",
		n, run.total.Round(time.Millisecond), run.serverCPU.Round(time.Millisecond), rss>>20, peak>>20, anon>>20, peakAnon>>20, file>>20, peakFile>>20, restart)
}

// scaleSetup returns a scale run's number of creates (LEDGERD_SCALE,
// 10 000 when unset), its store's directory (LEDGERD_SCALE_DIR, a new
// temporary one when unset) and the address its server serves pprof on,
// "" unless LEDGERD_SCALE_CPU is set or profiles is.
func scaleSetup(b *testing.B, profiles bool) (n int, dir, pprofAddr string) {
	n = 10_000
	if s := os.Getenv(envScale); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 10*scaleNeedle {
			b.Fatalf("%s=%q: want a number ≥ %d", envScale, s, 10*scaleNeedle)
		}
	}
	if dir = os.Getenv(envScaleDir); dir == "" {
		dir = b.TempDir()
	}
	if profiles || os.Getenv(envScaleCPU) != "" {
		pprofAddr = "127.0.0.1:" + strconv.Itoa(20000+os.Getpid()%20000)
	}
	return n, dir, pprofAddr
}

// loadClient is the HTTP client the benchmarks' and load tests' many
// concurrent clients share: up to 128 connections to the server, kept
// alive, rather than net/http's 2 idle ones.
func loadClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128, MaxConnsPerHost: 128}}
}

// scaleReads are the reads BenchmarkScale times: the needle's active
// contracts, a page of 1000 of a crowd party's, the needle's updates page.
type scaleReads struct{ needleACS, crowdPage, needleUpdates time.Duration }

// timeScaleReads times the reads of scaleReads on the ledgerd at base,
// at its ledger end: each the median of calls calls after a warm-up whose
// answer's size is checked (crowdWant contracts in the crowd page; any
// number from 1 to 1000 when negative).
func timeScaleReads(b *testing.B, client *http.Client, base, needle, crowd string, crowdWant, calls int) scaleReads {
	b.Helper()
	var end struct {
		Offset int64 `json:"offset"`
	}
	if err := json.Unmarshal(get(b, client, base+"/v2/state/ledger-end"), &end); err != nil {
		b.Fatal(err)
	}
	filter := func(p string) string {
		return fmt.Sprintf(`{"filtersByParty":{%q:{"cumulative":[{"identifierFilter":{"WildcardFilter":{"value":{"includeCreatedEventBlob":false}}}}]}}}`, p)
	}
	timed := func(what string, call func() int, want int) time.Duration {
		if got := call(); got != want && (want >= 0 || got < 1 || got > 1000) {
			b.Fatalf("%s: %d contracts, want %d", what, got, want)
		}
		var ds []time.Duration
		for range calls {
			t0 := time.Now()
			call()
			ds = append(ds, time.Since(t0))
		}
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	var r scaleReads
	r.needleACS = timed("the needle's ACS", func() int {
		out := post(b, client, base+"/v2/state/active-contracts", fmt.Appendf(nil, `{"activeAtOffset":%d,"eventFormat":%s}`, end.Offset, filter(needle)))
		var rs []json.RawMessage
		if err := json.Unmarshal(out, &rs); err != nil {
			b.Fatalf("active-contracts: %v", err)
		}
		return len(rs)
	}, scaleNeedle)
	r.crowdPage = timed("a crowd party's ACS page", func() int {
		out := post(b, client, base+"/v2/state/active-contracts-page", fmt.Appendf(nil, `{"activeAtOffset":%d,"maxPageSize":1000,"eventFormat":%s}`, end.Offset, filter(crowd)))
		var r struct {
			ActiveContracts []json.RawMessage `json:"activeContracts"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			b.Fatalf("active-contracts-page: %v", err)
		}
		return len(r.ActiveContracts)
	}, crowdWant)
	r.needleUpdates = timed("the needle's updates page", func() int {
		out := post(b, client, base+"/v2/updates/get-updates-page", fmt.Appendf(nil, `{"beginOffsetExclusive":0,"maxPageSize":1000,"updateFormat":{"includeTransactions":{"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA","eventFormat":%s}}}`, filter(needle)))
		var r struct {
			Updates []json.RawMessage `json:"updates"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			b.Fatalf("get-updates-page: %v", err)
		}
		return len(r.Updates)
	}, scaleNeedle)
	return r
}

// BenchmarkScaleReads times BenchmarkScale's reads on stores scale runs
// kept (LEDGERD_SCALE_DIR, several separated by commas: a ledgerd on
// each, all running, the reads of each in turn, rounds times): on a quiet
// server, the same machine state for every store, so that their ratio is
// the reads' own. Reported per store in the order given (-0, -1, …): the
// medians over the rounds of each read's median of 11 calls. Skipped
// without LEDGERD_SCALE_DIR:
//
//	LEDGERD_SCALE_DIR=/tmp/s100k,/tmp/s1m go test -run '^$' -bench ScaleReads -benchtime 5x ./examples/ledgerd
func BenchmarkScaleReads(b *testing.B) {
	env := os.Getenv(envScaleDir)
	if env == "" {
		b.Skipf("%s not set: skipping the reads benchmark", envScaleDir)
	}
	dirs := strings.Split(env, ",")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	type server struct {
		p              *process
		needle, crowd0 string
		rounds         []scaleReads
	}
	servers := make([]*server, len(dirs))
	for i, dir := range dirs {
		p, _ := startScaleProcess(b, dir, "")
		defer p.stopScale(b)
		var parties struct {
			PartyDetails []struct{ Party string } `json:"partyDetails"`
		}
		if err := json.Unmarshal(get(b, client, p.base+"/v2/parties"), &parties); err != nil {
			b.Fatal(err)
		}
		s := &server{p: p}
		for _, d := range parties.PartyDetails {
			switch hint, _, _ := strings.Cut(d.Party, "::"); hint {
			case "needle":
				s.needle = d.Party
			case "crowd0":
				s.crowd0 = d.Party
			}
		}
		if s.needle == "" || s.crowd0 == "" {
			b.Fatalf("%s: not a store of BenchmarkScale (no needle or crowd0 party)", dir)
		}
		servers[i] = s
	}
	for _, s := range servers {
		idleServer(b, s.p.cmd.Process.Pid, 2*time.Minute)
	}
	for b.Loop() {
		for _, s := range servers {
			s.rounds = append(s.rounds, timeScaleReads(b, client, s.p.base, s.needle, s.crowd0, -1, 11))
		}
	}
	median := func(rs []scaleReads, f func(scaleReads) time.Duration) float64 {
		ds := make([]time.Duration, len(rs))
		for i, r := range rs {
			ds[i] = f(r)
		}
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	for i, s := range servers {
		b.ReportMetric(median(s.rounds, func(r scaleReads) time.Duration { return r.needleACS }), fmt.Sprintf("ms-needle-acs-%d", i))
		b.ReportMetric(median(s.rounds, func(r scaleReads) time.Duration { return r.crowdPage }), fmt.Sprintf("ms-crowd-acs-page-%d", i))
		b.ReportMetric(median(s.rounds, func(r scaleReads) time.Duration { return r.needleUpdates }), fmt.Sprintf("ms-needle-updates-page-%d", i))
	}
}

// idleServer waits until the server process pid uses less than 5 % of a
// core over a second (its compactions done), at most limit, and returns
// how long it waited.
func idleServer(b *testing.B, pid int, limit time.Duration) time.Duration {
	b.Helper()
	start := time.Now()
	for time.Since(start) < limit {
		c0 := procCPU(b, pid)
		time.Sleep(time.Second)
		if procCPU(b, pid)-c0 < 50*time.Millisecond {
			break
		}
	}
	return time.Since(start)
}

// BenchmarkScaleRestart times what BenchmarkScale's last step times, on
// the store a scale run kept (LEDGERD_SCALE_DIR): each iteration starts
// ledgerd on it, times exec → the first 200 of /livez, and stops it with
// SIGTERM. It reports the median and the slowest of the iterations, and
// the server's CPU time until /livez answered (user + system, which unlike
// the wall time does not depend on what else the machine runs). Skipped
// without LEDGERD_SCALE_DIR:
//
//	LEDGERD_SCALE_DIR=/tmp/store go test -run '^$' -bench ScaleRestart -benchtime 10x ./examples/ledgerd
func BenchmarkScaleRestart(b *testing.B) {
	dir := os.Getenv(envScaleDir)
	if dir == "" {
		b.Skipf("%s not set: skipping the restart benchmark", envScaleDir)
	}
	var ds, cpus []time.Duration
	for b.Loop() {
		p, d := startScaleProcess(b, dir, "")
		cpus = append(cpus, procCPU(b, p.cmd.Process.Pid))
		ds = append(ds, d)
		p.stopScale(b)
	}
	slices.Sort(ds)
	slices.Sort(cpus)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "ms-restart-livez")
	b.ReportMetric(float64(ds[len(ds)-1].Microseconds())/1000, "ms-restart-livez-max")
	b.ReportMetric(float64(cpus[len(cpus)/2].Microseconds())/1000, "ms-cpu-to-livez")
}

func get(b *testing.B, c *http.Client, url string) []byte {
	resp, err := c.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %s", url, resp.StatusCode, out)
	}
	return out
}

// startScaleProcess starts ledgerd on dir (auth none) in a process of its
// own, with env added to its environment, and returns it once /livez
// answers 200, with the time from exec to that answer.
func startScaleProcess(b *testing.B, dir, pprofAddr string, env ...string) (*process, time.Duration) {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	// A free port for the gRPC API too, so that several can run at once
	// (BenchmarkScaleReads).
	gl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	grpcAddr := gl.Addr().String()
	gl.Close()
	// -log-level warn: no line per request (what the benchmark measures is
	// the node, not its logging).
	cmd := exec.Command(os.Args[0], "-addr", addr, "-grpc-addr", grpcAddr, "-data", dir, "-auth", "none", "-log-level", "warn")
	cmd.Env = append(append(os.Environ(), envProcess+"=1"), env...)
	if pprofAddr != "" {
		cmd.Env = append(cmd.Env, envScalePprof+"="+pprofAddr)
	}
	p := &process{cmd: cmd, done: make(chan error, 1), log: &lockedBuffer{}, base: "http://" + addr}
	cmd.Stdout = p.log
	cmd.Stderr = p.log
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	b.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	for {
		resp, err := http.Get(p.base + "/livez")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, time.Since(t0)
			}
		}
		select {
		case err := <-p.done:
			b.Fatalf("ledgerd exited before serving: %v\n%s", err, p.log)
		default:
		}
		if time.Since(t0) > 60*time.Second {
			b.Fatalf("/livez not 200 within 60s: %v\n%s", err, p.log)
		}
		time.Sleep(time.Millisecond)
	}
}

// stopScale ends the process with SIGTERM and waits for a clean exit.
func (p *process) stopScale(b *testing.B) {
	b.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			b.Fatalf("ledgerd exited with %v:\n%s", err, p.log)
		}
	case <-time.After(120 * time.Second):
		b.Fatalf("ledgerd did not stop within 120s of SIGTERM:\n%s", p.log)
	}
}

// diskSizes returns the apparent sizes of the store's tables (*.sst) and
// value log files (*.vlog) in dir, after the server stopped.
func diskSizes(b *testing.B, dir string) (sst, vlog int64) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			b.Fatal(err)
		}
		switch filepath.Ext(e.Name()) {
		case ".sst":
			sst += fi.Size()
		case ".vlog":
			vlog += fi.Size()
		}
	}
	return sst, vlog
}

// procCPU returns the CPU time (user + system) process pid has used so
// far: utime and stime of /proc/PID/stat (Linux), 0 where unknown.
func procCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses and may
	// contain spaces: state is the first, utime and stime the 12th and 13th.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	// Clock ticks: USER_HZ, 100 on Linux.
	return time.Duration(ut+st) * (time.Second / 100)
}

// procMemory returns a process's resident set, its peak, and the resident
// set's anonymous part (the Go heap, Badger's memtables and builders) and
// file part (mapped tables and value log pages, which the kernel may
// drop): VmRSS, VmHWM, RssAnon and RssFile of /proc/PID/status (Linux), 0
// where unknown.
func procMemory(b *testing.B, pid int) (rss, peak, anon, file int64) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Logf("no /proc: %v", err)
		return 0, 0, 0, 0
	}
	for line := range bytes.Lines(status) {
		f := strings.Fields(string(line))
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		case "RssAnon:":
			anon = kb << 10
		case "RssFile:":
			file = kb << 10
		}
	}
	return rss, peak, anon, file
}
