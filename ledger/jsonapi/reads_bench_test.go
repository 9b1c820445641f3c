package jsonapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/internal/cputime"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// BenchmarkReadsPages is the body of POST /v2/updates/get-updates-page
// (a page of 1000 transactions, ACS delta, one party, offsets 1000 to
// 2000 of 3000 Iou creates) and of POST /v2/state/active-contracts-page
// (a page of 1000 contracts) as httpadapter serves it:
// API.UpdatesPage/ActiveContractsPage (the typed read with stored values,
// written by the emitters). (Its baseline, the Node's JSON read encoded
// with encoding/json, went with that read; the goldens of
// TestReadsPagesSameAsNode hold its bytes.) cpu-µs/page is the process's
// CPU time per page.
func BenchmarkReadsPages(b *testing.B) {
	node := ledgertest.Open(b, ledger.Options{InMemory: true})
	alice := ledgertest.MustAllocate(b, node, "alice")
	d, _ := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(b, node, d)
	fillPage(b, node, alice, "#iou:Main:Iou", 3000, func(i int) string { return fmt.Sprintf(`{"owner": %q, "amount": "%d"}`, alice, i) })
	ctx := context.Background()
	a := jsonapi.New(node)
	end, size := int64(2000), int32(1000)
	ef := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{alice: {}}}
	ureq := jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: 1000, EndOffsetInclusive: &end, MaxPageSize: &size,
		UpdateFormat: jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: ef}}}
	areq := jsonapi.GetActiveContractsPageRequest{EventFormat: ef, MaxPageSize: &size}
	reads := []struct {
		name string
		page func(b *testing.B) []byte
	}{
		{"updates", func(b *testing.B) []byte { p, err := a.UpdatesPage(ctx, ureq); return must(b, p, err) }},
		{"acs", func(b *testing.B) []byte { p, err := a.ActiveContractsPage(ctx, areq); return must(b, p, err) }},
	}
	for _, r := range reads {
		var p struct {
			Updates, ActiveContracts []json.RawMessage
		}
		if err := json.Unmarshal(r.page(b), &p); err != nil || len(p.Updates)+len(p.ActiveContracts) != 1000 {
			b.Fatalf("%s: %d updates, %d contracts, %v", r.name, len(p.Updates), len(p.ActiveContracts), err)
		}
		b.Run(r.name+"/jsonapi", func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				// Released as httpadapter releases each page it writes.
				jsonapi.Body(r.page(b)).Release()
			}
			b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/float64(b.N), "cpu-µs/page")
		})
	}
}

func must(b *testing.B, body jsonapi.Body, err error) []byte {
	if err != nil {
		b.Fatal(err)
	}
	return body
}
