package jsonapi_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/ledgernode/ledgernode/internal/cputime"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// BenchmarkReadsPages is the body of POST /v2/updates/get-updates-page
// (a page of 1000 transactions, ACS delta, one party, offsets 1000 to
// 2000 of 3000 Iou creates) and of POST /v2/state/active-contracts-page
// (a page of 1000 contracts) as httpadapter serves it:
// API.UpdatesPage/ActiveContractsPage (the typed read with stored values,
// written by the emitters), and of POST /v2/updates and the WebSocket
// /v2/updates over the page's range (API.UpdatesList, API.StreamUpdates). (Its baseline, the Node's JSON read encoded
// with encoding/json, went with that read; the goldens of
// TestReadsPagesSameAsNode hold its bytes.) cpu-µs/page is the process's
// CPU time per page.
func BenchmarkReadsPages(b *testing.B) {
	// A list limit that lets the list hold the page's 1000 updates.
	node, alice := openIouNode(b, ledger.Options{InMemory: true, ListLimit: 1000}, 3000)
	ctx := context.Background()
	a := jsonapi.New(node)
	end, size := int64(2000), int32(1000)
	ef := jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{alice: {}}}
	ureq := jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: 1000, EndOffsetInclusive: &end, MaxPageSize: &size,
		UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: ef}}}
	areq := jsonapi.GetActiveContractsPageRequest{EventFormat: ef, MaxPageSize: &size}
	lreq := jsonapi.GetUpdatesRequest{BeginExclusive: 1000, EndInclusive: &end,
		UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: &jsonapi.TransactionFormat{TransactionShape: jsonapi.ShapeACSDelta, EventFormat: ef}}}
	timed := false // the reads are being timed, not checked
	reads := []struct {
		name string
		page func(b *testing.B) []byte
	}{
		{"updates", func(b *testing.B) []byte { p, err := a.UpdatesPage(ctx, ureq); return must(b, p, err) }},
		{"acs", func(b *testing.B) []byte { p, err := a.ActiveContractsPage(ctx, areq); return must(b, p, err) }},
		// POST /v2/updates over the same range, one list.
		{"list", func(b *testing.B) []byte {
			p, err := a.UpdatesList(ctx, lreq, ledger.ListOptions{})
			return must(b, p, err)
		}},
		// The WebSocket /v2/updates over the same range: its messages
		// (each released as httpadapter releases it once sent), joined
		// as the list's elements (a list of their sizes when timed).
		{"stream", func(b *testing.B) []byte {
			out := []byte{'['}
			for m, err := range a.StreamUpdates(ctx, lreq) {
				if len(out) > 1 {
					out = append(out, ',')
				}
				if !timed {
					out = append(out, must(b, m, err)...)
				} else {
					out = strconv.AppendInt(out, int64(len(must(b, m, err))), 10)
				}
				m.Release()
			}
			return append(out, ']')
		}},
	}
	for _, r := range reads {
		var p struct {
			Updates, ActiveContracts []json.RawMessage
		}
		var n int
		timed = false
		page := r.page(b)
		if page[0] == '[' {
			var l []json.RawMessage
			err := json.Unmarshal(page, &l)
			if n = len(l); err != nil {
				b.Fatal(err)
			}
		} else if err := json.Unmarshal(page, &p); err != nil {
			b.Fatal(err)
		} else {
			n = len(p.Updates) + len(p.ActiveContracts)
		}
		if n != 1000 {
			b.Fatalf("%s: %d updates or contracts", r.name, n)
		}
		timed = true
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
