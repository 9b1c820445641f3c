package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// The page benchmark commits pageCreates Ping creates and reads pages of
// pageSize transactions after offset pageFrom (as
// BenchmarkHTTPUpdatesPage's).
const (
	pageCreates = 5000
	pageFrom    = 1000
	pageSize    = 1000
)

// BenchmarkHTTPUpdatesPageVsLimit measures get-updates-page against the
// physical limit of HTTP + Badger, side by side in one run, from the same
// 64 keep-alive clients: "page" reads ledgerd's get-updates-page (in
// memory, pageCreates Ping creates of alice, a page of 1000 transactions
// for alice, ACS delta shape), "limit" reads pages of
// ledgertest.ServePageLimit (a store of the limit holding the writes of
// as many Ping creates; each request copies 1000 stored updates into one
// reply of the size of the node's page, measured first). Each reports
// pages/s, updates/s, bytes per page and the process's CPU time (user +
// system, clients included) per page; "page" also reports its rate and
// CPU over the "limit" run's (of-limit, cpu-of-limit), as
// BenchmarkHTTPPingCreateVsLimit does for creates. Run with a fixed count,
// e.g.
//
//	go test -run '^$' -bench HTTPUpdatesPageVsLimit -benchtime 400x -count 3 ./examples/ledgerd
func BenchmarkHTTPUpdatesPageVsLimit(b *testing.B) {
	base, pingT, alice, bob, client := pingTarget(b)
	create := func(i int) []byte { return pingCreate(int64(i), pingT, alice, bob) }
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range pageCreates {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			send(b, client, base+"/v2/commands/submit-and-wait", create(i))
		})
	}
	wg.Wait()
	url := base + "/v2/updates/get-updates-page"
	body := fmt.Appendf(nil, `{"beginOffsetExclusive":%d,"maxPageSize":%d,"updateFormat":{"includeTransactions":{"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA","eventFormat":{"filtersByParty":{%q:{}}}}}}`,
		pageFrom, pageSize, alice)
	page := send(b, client, url, body)
	if n := strings.Count(string(page), `"updateId"`); n != pageSize {
		b.Fatalf("the node's page holds %d transactions, want %d", n, pageSize)
	}
	// The limit's reply has the node's size: ~ its updates' bytes, commas
	// and the wrapper aside.
	limit := ledgertest.ServePageLimit(b, pageCreates, create, pageFrom, pageSize, len(page)/pageSize)
	var limitRate, limitCPU float64
	b.Run("limit", func(b *testing.B) {
		limitRate, limitCPU = pageLoad(b, client, limit.URL, []byte(`{}`))
	})
	b.Run("page", func(b *testing.B) {
		rate, cpu := pageLoad(b, client, url, body)
		if limitRate > 0 && cpu > 0 {
			b.ReportMetric(rate/limitRate, "of-limit")
			b.ReportMetric(limitCPU/cpu, "cpu-of-limit")
		}
	})
}

// pageLoad reads b.N pages of url from 64 keep-alive clients, each reply
// at least pageSize × 100 bytes, and reports and returns pages/s and the
// process's CPU µs per page.
func pageLoad(b *testing.B, client *http.Client, url string, body []byte) (rate, cpuPerOp float64) {
	var size atomic.Int64
	rate, cpuPerOp = clientLoad(b, func() bool {
		resp, err := client.Post(url, "", bytes.NewReader(body))
		if err != nil {
			b.Error(err)
			return false
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || n < pageSize*100 {
			b.Errorf("POST %s: status %d, %d bytes", url, resp.StatusCode, n)
			return false
		}
		size.Store(n)
		return true
	})
	b.ReportMetric(rate, "pages/s")
	b.ReportMetric(rate*pageSize, "updates/s")
	b.ReportMetric(float64(size.Load()), "bytes/page")
	b.ReportMetric(cpuPerOp, "cpu-µs/page")
	return rate, cpuPerOp
}
