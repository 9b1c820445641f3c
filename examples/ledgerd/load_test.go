package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// loadTarget starts ledgerd in memory (auth none) with the iou package and
// a party, and returns its base URL, the package id and the party.
func loadTarget(b *testing.B) (base, pkg, party string, client *http.Client) {
	b.Helper()
	base = startServer(b, discardLogger(), "-in-memory", "-auth", "none").base
	client = loadClient()
	dar, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	post(b, client, base+"/v2/dars", dar)
	var alloc struct {
		PartyDetails struct{ Party string } `json:"partyDetails"`
	}
	json.Unmarshal(post(b, client, base+"/v2/parties", []byte(`{"partyIdHint":"alice"}`)), &alloc)
	return base, ids[0], alloc.PartyDetails.Party, client
}

func post(b *testing.B, c *http.Client, url string, body []byte) []byte {
	resp, err := c.Post(url, "", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		b.Fatalf("POST %s: %d %s", url, resp.StatusCode, out)
	}
	return out
}

// BenchmarkHTTPSubmitAndWait sends submit-and-wait creates from 64
// keep-alive clients to ledgerd in memory.
func BenchmarkHTTPSubmitAndWait(b *testing.B) {
	base, pkg, party, client := loadTarget(b)
	var seq atomic.Int64
	b.SetParallelism(32) // 64 clients on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := seq.Add(1)
			body := fmt.Appendf(nil, `{"commandId":"c%d","actAs":[%q],"userId":"participant_admin","commands":[{"CreateCommand":{"templateId":"%s:Main:Iou","createArguments":{"owner":%q,"amount":"%d"}}}]}`,
				i, party, pkg, party, i)
			resp, err := client.Post(base+"/v2/commands/submit-and-wait", "", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "creates/s")
}

// BenchmarkHTTPUpdatesPage reads pages of 1000 transactions with
// get-updates-page from 64 keep-alive clients.
func BenchmarkHTTPUpdatesPage(b *testing.B) {
	base, pkg, party, client := loadTarget(b)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range 5000 {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			post(b, client, base+"/v2/commands/submit-and-wait", fmt.Appendf(nil,
				`{"commandId":"f%d","actAs":[%q],"userId":"participant_admin","commands":[{"CreateCommand":{"templateId":"%s:Main:Iou","createArguments":{"owner":%q,"amount":"%d"}}}]}`,
				i, party, pkg, party, i))
		}()
	}
	wg.Wait()
	body := fmt.Appendf(nil, `{"beginOffsetExclusive":1000,"maxPageSize":1000,"updateFormat":{"includeTransactions":{"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA","eventFormat":{"filtersByParty":{%q:{}}}}}}`, party)
	b.SetParallelism(32)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(base+"/v2/updates/get-updates-page", "", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || n < 100_000 {
				b.Errorf("status %d, %d bytes", resp.StatusCode, n)
				return
			}
		}
	})
	b.ReportMetric(1000*float64(b.N)/time.Since(start).Seconds(), "updates/s")
}
