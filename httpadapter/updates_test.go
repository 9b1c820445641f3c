package httpadapter

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Tests of the update routes: pages, lists and their limits, the blocking
// open-ended list, lookups.

// createMany creates n ious of alice and returns their offsets.
func (f *ledgerFixture) createMany(prefix string, n int) []int64 {
	f.t.Helper()
	var offs []int64
	for i := range n {
		offs = append(offs, f.create(fmt.Sprintf("%s%d", prefix, i), f.alice, i).Offset)
	}
	return offs
}

func pageOffsets(p jsonapi.GetUpdatesPageResponse) []int64 {
	var out []int64
	for _, u := range p.Updates {
		out = append(out, u.Update.Offset())
	}
	return out
}

func listOffsets(l []jsonapi.GetUpdatesResponse) []int64 {
	var out []int64
	for _, u := range l {
		out = append(out, u.Update.Offset())
	}
	return out
}

func TestUpdatesPageUpAndDown(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	begin := f.end()
	offs := f.createMany("p", 5)
	end := f.end()
	alice := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta)}
	size := int32(2)

	walk := func(req jsonapi.GetUpdatesPageRequest) (got []int64, pages []jsonapi.GetUpdatesPageResponse) {
		t.Helper()
		for range 10 {
			rec := f.post("/v2/updates/get-updates-page", req)
			p := decodeAs[jsonapi.GetUpdatesPageResponse](t, rec)
			wantKeys(t, rec, []string{"highestPageOffsetInclusive", "lowestPageOffsetExclusive", "nextPageToken", "updates"})
			pages = append(pages, p)
			got = append(got, pageOffsets(p)...)
			if p.NextPageToken == nil {
				return got, pages
			}
			req.PageToken = *p.NextPageToken
		}
		t.Fatalf("no last page after 10 pages: %v", got)
		return nil, nil
	}

	up, upPages := walk(jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: &alice})
	if diff := cmp.Diff(offs, up); diff != "" {
		t.Errorf("ascending offsets (-want +got):\n%s", diff)
	}
	if len(upPages) != 3 || len(upPages[0].Updates) != 2 || upPages[0].LowestPageOffsetExclusive != begin ||
		upPages[0].HighestPageOffsetInclusive != offs[1] || upPages[2].HighestPageOffsetInclusive != end {
		t.Errorf("ascending pages: %+v", upPages)
	}

	down, _ := walk(jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: &alice, DescendingOrder: true})
	rev := slices.Clone(offs)
	slices.Reverse(rev)
	if diff := cmp.Diff(rev, down); diff != "" {
		t.Errorf("descending offsets (-want +got):\n%s", diff)
	}

	// Without an end a descending walk pages down from the ledger end.
	downOpen, _ := walk(jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, MaxPageSize: &size, UpdateFormat: &alice, DescendingOrder: true})
	if diff := cmp.Diff(rev, downOpen); diff != "" {
		t.Errorf("descending offsets without an end (-want +got):\n%s", diff)
	}

	// Without an end the ascending page always has a token (tailing), and
	// the token of an exhausted ledger gives an empty page that still has
	// one.
	open := decodeAs[jsonapi.GetUpdatesPageResponse](t, f.post("/v2/updates/get-updates-page", jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: offs[3], UpdateFormat: &alice}))
	if diff := cmp.Diff(offs[4:], pageOffsets(open)); diff != "" || open.NextPageToken == nil {
		t.Fatalf("open-ended page (-want +got):\n%s; token %v", diff, open.NextPageToken)
	}
	tail := decodeAs[jsonapi.GetUpdatesPageResponse](t, f.post("/v2/updates/get-updates-page",
		jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: offs[3], UpdateFormat: &alice, PageToken: *open.NextPageToken}))
	if len(tail.Updates) != 0 || tail.NextPageToken == nil {
		t.Errorf("tail page: %+v", tail)
	}
	// An unpadded token is the same bytes.
	unpadded := strings.TrimRight(*upPages[0].NextPageToken, "=")
	again := decodeAs[jsonapi.GetUpdatesPageResponse](t, f.post("/v2/updates/get-updates-page",
		jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, EndOffsetInclusive: &end, MaxPageSize: &size, UpdateFormat: &alice, PageToken: unpadded}))
	if diff := cmp.Diff(upPages[1], again); diff != "" {
		t.Errorf("page of an unpadded token (-padded +unpadded):\n%s", diff)
	}

	// Rejections, with the state unchanged.
	before := f.state()
	foreign := *upPages[0].NextPageToken
	for _, tc := range []struct {
		name string
		req  jsonapi.GetUpdatesPageRequest
		code string
	}{
		{"token of another request", jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, EndOffsetInclusive: &end, UpdateFormat: &alice, PageToken: foreign}, "INVALID_UPDATES_PAGE_TOKEN"},
		{"token in the other direction", jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, EndOffsetInclusive: &end, MaxPageSize: &size,
			UpdateFormat: &alice, DescendingOrder: true, PageToken: foreign}, "INVALID_UPDATES_PAGE_TOKEN"},
		{"base64 of garbage", jsonapi.GetUpdatesPageRequest{UpdateFormat: &alice, PageToken: base64.StdEncoding.EncodeToString([]byte("garbage"))}, "INVALID_FIELD"},
		// The token is read before the size is checked (Canton's order).
		{"token of another request, page size 0", jsonapi.GetUpdatesPageRequest{UpdateFormat: &alice, MaxPageSize: new(int32), PageToken: foreign}, "INVALID_UPDATES_PAGE_TOKEN"},
		{"page size 0", jsonapi.GetUpdatesPageRequest{UpdateFormat: &alice, MaxPageSize: new(int32)}, "INVALID_ARGUMENT"},
		{"end after the ledger end", jsonapi.GetUpdatesPageRequest{UpdateFormat: &alice, EndOffsetInclusive: new(end + 1)}, "OFFSET_AFTER_LEDGER_END"},
		{"no format", jsonapi.GetUpdatesPageRequest{}, "MISSING_FIELD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.post("/v2/updates/get-updates-page", tc.req), 400, tc.code)
		})
	}
	wantText(t, f.post("/v2/updates/get-updates-page", `{"updateFormat":{},"pageToken":"not base64!"}`), 400,
		"Invalid value for: body (The string is not a valid Base64: ")
	wantText(t, f.post("/v2/updates/get-updates-page", `{"updateFormat":{"includeTransactions":{"eventFormat":{},"transactionShape":"TREE"}}}`), 400,
		`Invalid value for: body (unknown enum value "TREE", expected one of TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA, TRANSACTION_SHAPE_LEDGER_EFFECTS at 'updateFormat.includeTransactions.transactionShape')`)
	wantText(t, f.post("/v2/updates/get-updates-page", `{"maxPageSize":"2"}`), 400, "Invalid value for: body (expected an integer (int32), got string at 'maxPageSize')")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}

func TestUpdateLookups(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	c := f.create("c1", f.alice, 1)
	alice := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeLedgerEffects)}
	bob := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.bob, jsonapi.ShapeLedgerEffects)}
	before := f.state()
	for _, tc := range []struct {
		name, target, body string
		status             int
		code               string
	}{
		{"unknown update id", "/v2/updates/update-by-id", js(t, jsonapi.GetUpdateByIDRequest{UpdateID: "1220" + strings.Repeat("ab", 32), UpdateFormat: &alice}), 404, "UPDATE_NOT_FOUND"},
		{"invisible update", "/v2/updates/update-by-offset", js(t, jsonapi.GetUpdateByOffsetRequest{Offset: c.Offset, UpdateFormat: &bob}), 404, "UPDATE_NOT_FOUND"},
		{"offset 0", "/v2/updates/update-by-offset", js(t, jsonapi.GetUpdateByOffsetRequest{UpdateFormat: &alice}), 400, "NON_POSITIVE_OFFSET"},
		{"offset after the end", "/v2/updates/update-by-offset", js(t, jsonapi.GetUpdateByOffsetRequest{Offset: c.Offset + 100, UpdateFormat: &alice}), 404, "UPDATE_NOT_FOUND"},
		{"tree of an unknown id", "/v2/updates/transaction-tree-by-id/1220" + strings.Repeat("ab", 32) + "?parties=" + f.alice, "", 404, "UPDATE_NOT_FOUND"},
		{"tree of a malformed id", "/v2/updates/transaction-tree-by-id/1220ab?parties=" + f.alice, "", 400, "INVALID_ARGUMENT"},
		{"tree invisible to the party", fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d?parties=%s", c.Offset, f.bob), "", 404, "UPDATE_NOT_FOUND"},
		{"tree without parties", fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d", c.Offset), "", 400, "MISSING_FIELD"},
		{"tree at offset 0", "/v2/updates/transaction-tree-by-offset/0?parties=" + f.alice, "", 400, "NON_POSITIVE_OFFSET"},
		{"tree for a malformed party", fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d?parties=a%%21b", c.Offset), "", 400, "INVALID_FIELD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "POST"
			if tc.body == "" {
				method = "GET"
			}
			wantCantonError(t, f.do(httpCall{method: method, target: tc.target, body: tc.body}), tc.status, tc.code)
		})
	}
	wantText(t, f.get("/v2/updates/transaction-tree-by-offset/x?parties="+f.alice), 400, `Invalid value for: path parameter offset (For input string: "x")`)
	wantText(t, f.post("/v2/updates/update-by-offset", `{"offset":"1"}`), 400, "Invalid value for: body (expected an integer (int64), got string at 'offset')")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
	// The path parameter is percent-decoded.
	tree := decodeAs[jsonapi.TransactionTreeResponse](t, f.get(fmt.Sprintf("/v2/updates/transaction-tree-by-offset/%d?parties=%s", c.Offset, encodeURIComponent(f.alice))))
	byID := decodeAs[jsonapi.TransactionTreeResponse](t, f.get("/v2/updates/transaction-tree-by-id/"+escapeAll(tree.Transaction.UpdateID)+"?parties="+f.alice))
	if diff := cmp.Diff(tree, byID); diff != "" {
		t.Errorf("tree by escaped id (-by offset +by id):\n%s", diff)
	}
}

// TestUpdatesListLimit: a list answers up to the node's limit L; L+1
// matching elements are a 413 unless the limit parameter asks for at most
// L.
func TestUpdatesListLimit(t *testing.T) {
	t.Parallel()
	const limitL = 5
	f := newLedgerFixture(t, ledger.Options{ListLimit: limitL}, Options{}, nil)
	begin := f.end()
	offs := f.createMany("l", limitL+1)
	end := f.end()
	alice := partyFormat(f.alice)
	format := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta)}
	fifth := offs[limitL-1]
	bodies := map[string]func(end int64) string{
		"/v2/updates": func(end int64) string {
			return js(t, jsonapi.GetUpdatesRequest{BeginExclusive: begin, EndInclusive: &end, UpdateFormat: &format})
		},
		"/v2/updates/flats": func(end int64) string {
			return js(t, jsonapi.GetUpdatesRequest{BeginExclusive: begin, EndInclusive: &end, Filter: &alice})
		},
		"/v2/updates/trees": func(end int64) string {
			return js(t, jsonapi.GetUpdatesRequest{BeginExclusive: begin, EndInclusive: &end, Filter: &alice})
		},
	}
	for _, path := range []string{"/v2/updates", "/v2/updates/flats", "/v2/updates/trees"} {
		body := bodies[path]
		for _, tc := range []struct {
			name  string
			query string
			end   int64
			want  []int64 // nil: 413
		}{
			{"L+1 matches", "", end, nil},
			{"L+1 matches, limit L+1", fmt.Sprintf("?limit=%d", limitL+1), end, nil},
			{"L+1 matches, limit above", "?limit=1000", end, nil},
			{"L+1 matches, limit L", fmt.Sprintf("?limit=%d", limitL), end, offs[:limitL]},
			{"L+1 matches, limit 2", "?limit=2", end, offs[:2]},
			{"L matches", "", fifth, offs[:limitL]},
			{"L matches, limit L+1", fmt.Sprintf("?limit=%d", limitL+1), fifth, offs[:limitL]},
			{"bounded with an idle timeout", "?stream_idle_timeout_ms=10", fifth, offs[:limitL]},
		} {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				rec := f.post(path+tc.query, body(tc.end))
				if tc.want == nil {
					e := wantCantonError(t, rec, http.StatusRequestEntityTooLarge, "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED")
					if e.ErrorCategory != 2 || e.RetryInfo == nil || *e.RetryInfo != "1 second" ||
						e.Cause != fmt.Sprintf("The number of matching elements (%d) is greater than the node limit (%d).", limitL+1, limitL) {
						t.Errorf("413 body: %s", rec.Body)
					}
					return
				}
				var got []int64
				if path == "/v2/updates/trees" {
					for _, u := range decodeAs[[]jsonapi.GetUpdateTreesResponse](t, rec) {
						got = append(got, u.Update.Offset())
					}
				} else {
					got = listOffsets(decodeAs[[]jsonapi.GetUpdatesResponse](t, rec))
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("offsets (-want +got):\n%s", diff)
				}
			})
		}
	}

	// Descending order needs an end; with one it lists from the end down.
	before := f.state()
	wantCantonError(t, f.post("/v2/updates", jsonapi.GetUpdatesRequest{UpdateFormat: &format, DescendingOrder: true}), 400, "DESCENDING_ORDER_MISSING_END")
	down := listOffsets(decodeAs[[]jsonapi.GetUpdatesResponse](t, f.post("/v2/updates?limit=3", jsonapi.GetUpdatesRequest{
		BeginExclusive: begin, EndInclusive: &end, UpdateFormat: &format, DescendingOrder: true})))
	if diff := cmp.Diff([]int64{offs[5], offs[4], offs[3]}, down); diff != "" {
		t.Errorf("descending list (-want +got):\n%s", diff)
	}
	// Both or neither of updateFormat and filter; bad query parameters.
	wantCantonError(t, f.post("/v2/updates", jsonapi.GetUpdatesRequest{EndInclusive: &end, UpdateFormat: &format, Filter: &alice}), 400, "INVALID_ARGUMENT")
	wantCantonError(t, f.post("/v2/updates/trees", jsonapi.GetUpdatesRequest{EndInclusive: &end}), 400, "INVALID_ARGUMENT")
	wantText(t, f.post("/v2/updates?limit=x", body0(t, end)), 400, `Invalid value for: query parameter limit (For input string: "x")`)
	wantText(t, f.post("/v2/updates/trees?limit=", body0(t, end)), 400, `Invalid value for: query parameter limit (For input string: "")`)
	wantText(t, f.post("/v2/updates/flats?stream_idle_timeout_ms=1.5", body0(t, end)), 400, `Invalid value for: query parameter stream_idle_timeout_ms (For input string: "1.5")`)
	wantText(t, f.post("/v2/updates", `{"beginExclusive":"0"}`), 400, "Invalid value for: body (expected an integer (int64), got string at 'beginExclusive')")
	wantText(t, f.post("/v2/updates", `[]`), 400, "Invalid value for: body (expected a JSON object, got an array)")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused lists changed the state (-before +after):\n%s", diff)
	}
}

func body0(t testing.TB, end int64) string {
	return js(t, jsonapi.GetUpdatesRequest{EndInclusive: &end, Filter: &jsonapi.EventFormat{FiltersForAnyParty: &jsonapi.Filters{}}})
}

// TestOpenEndedTreesBlock: an open-ended list waits for new updates, wakes
// on a commit and returns once stream_idle_timeout_ms passed without one;
// a client that goes away ends it.
func TestOpenEndedTreesBlock(t *testing.T) {
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	const idle = 400 * time.Millisecond
	// slack bounds the wait past the idle timeout: generous, because on a
	// loaded machine timers fire late (a bound of one more idle failed at
	// a load average of 8); what it catches is a list that does not end.
	const slack = 5 * time.Second
	alice := partyFormat(f.alice)

	t.Run("idle", func(t *testing.T) {
		body := js(t, jsonapi.GetUpdatesRequest{BeginExclusive: f.end(), Filter: &alice})
		start := time.Now()
		rec := f.post(fmt.Sprintf("/v2/updates/trees?stream_idle_timeout_ms=%d", idle.Milliseconds()), body)
		elapsed := time.Since(start)
		if got := decodeAs[[]jsonapi.GetUpdateTreesResponse](t, rec); len(got) != 0 {
			t.Errorf("trees: %+v, want none", got)
		}
		if elapsed < idle || elapsed >= idle+slack {
			t.Errorf("returned after %v, want within [%v, %v)", elapsed, idle, idle+slack)
		}
	})

	t.Run("woken by a commit", func(t *testing.T) {
		body := js(t, jsonapi.GetUpdatesRequest{BeginExclusive: f.end(), Filter: &alice})
		type result struct {
			rec     *httptest.ResponseRecorder
			elapsed time.Duration
		}
		done := make(chan result, 1)
		start := time.Now()
		go func() {
			rec := serve(t, f.h, httpCall{method: "POST", target: fmt.Sprintf("/v2/updates/trees?stream_idle_timeout_ms=%d", idle.Milliseconds()), body: body})
			done <- result{rec, time.Since(start)}
		}()
		time.Sleep(idle / 4)
		c := commands("w1", f.alice, createIou(f.iou(), f.alice, 1))
		c.UserID = "committer"
		resp, err := jsonapi.New(f.node).SubmitAndWait(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		committed := time.Since(start)
		r := <-done
		got := decodeAs[[]jsonapi.GetUpdateTreesResponse](t, r.rec)
		if len(got) != 1 || got[0].Update.TransactionTree == nil || got[0].Update.TransactionTree.Value.UpdateID != resp.UpdateID {
			t.Fatalf("trees: %+v, want the commit %s", got, resp.UpdateID)
		}
		wantKeys(t, r.rec, []string{"value"}, 0, "update", "TransactionTree")
		if r.elapsed < committed || r.elapsed >= committed+idle+slack {
			t.Errorf("returned after %v (commit after %v), want within %v of the commit", r.elapsed, committed, idle+slack)
		}
	})

	t.Run("client gone", func(t *testing.T) {
		body := js(t, jsonapi.GetUpdatesRequest{BeginExclusive: f.end(), Filter: &alice})
		ctx, cancel := context.WithCancel(context.Background())
		req := httptest.NewRequest("POST", "/v2/updates/trees?stream_idle_timeout_ms=600000", strings.NewReader(body)).WithContext(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.h.ServeHTTP(httptest.NewRecorder(), req)
		}()
		time.Sleep(50 * time.Millisecond)
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the list did not return after its client went away")
		}
	})
}

// TestLedgerRouteDecodeFailures: every body of the command, update and
// state routes is decoded before the node sees it; a body that is not a
// JSON object, and a malformed identifier in a filter, are 400 text/plain.
func TestLedgerRouteDecodeFailures(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	before := h.state()
	badFilter := `{"filtersByParty":{"p":{"cumulative":[{"identifierFilter":{"TemplateFilter":{"value":{"templateId":"T"}}}}]}}}`
	badID := "Invalid value for: body (Invalid identifier format (T) not matching the expected format (<package>:<moduleName>:<entityName>) at '"
	at := func(path string) string {
		return badID + path + ".filtersByParty.p.cumulative[0].identifierFilter.TemplateFilter.value.templateId')"
	}
	for _, tc := range []struct {
		method, target, body, want string
	}{
		{"POST", "/v2/commands/submit-and-wait-for-reassignment", `{"reassignmentCommands":[]}`, "Invalid value for: body (expected an object, got array at 'reassignmentCommands')"},
		{"POST", "/v2/commands/submit-and-wait-for-reassignment", `{"eventFormat":` + badFilter + `}`, at("eventFormat")},
		{"POST", "/v2/commands/async/submit-reassignment", `[]`, "Invalid value for: body (expected a JSON object, got an array)"},
		{"POST", "/v2/commands/async/submit-reassignment", `{"reassignmentCommands":{"commands":[{"command":{"AssignCommand":{"value":{}},"UnassignCommand":{"value":{}}}}]}}`,
			"Invalid value for: body (a one-of holds 2 variants, expected one at 'reassignmentCommands.commands[0].command')"},
		{"POST", "/v2/commands/submit-and-wait-for-transaction", `{"commands":5}`, "Invalid value for: body (expected an object, got number at 'commands')"},
		{"POST", "/v2/updates", `{"filter":` + badFilter + `}`, at("filter")},
		{"POST", "/v2/updates/flats", `{"updateFormat":{"includeReassignments":` + badFilter + `}}`, at("updateFormat.includeReassignments")},
		{"POST", "/v2/updates/trees", `null`, "Invalid value for: body (expected a JSON object, got null)"},
		{"POST", "/v2/updates/get-updates-page", `{"updateFormat":{"includeTransactions":{"eventFormat":` + badFilter + `}}}`, at("updateFormat.includeTransactions.eventFormat")},
		{"POST", "/v2/updates/update-by-id", `{"updateId":1}`, "Invalid value for: body (expected a string, got number at 'updateId')"},
		{"POST", "/v2/updates/update-by-id", `{"updateFormat":{"includeReassignments":` + badFilter + `}}`, at("updateFormat.includeReassignments")},
		{"POST", "/v2/updates/update-by-offset", `{"updateFormat":{"includeReassignments":` + badFilter + `}}`, at("updateFormat.includeReassignments")},
		{"POST", "/v2/state/active-contracts", `{"activeAtOffset":"1"}`, "Invalid value for: body (expected an integer (int64), got string at 'activeAtOffset')"},
		{"POST", "/v2/state/active-contracts", `{"eventFormat":` + badFilter + `}`, at("eventFormat")},
		{"POST", "/v2/state/active-contracts", `{"filter":` + badFilter + `}`, at("filter")},
		{"POST", "/v2/state/active-contracts-page", `{"eventFormat":[]}`, "Invalid value for: body (expected an object, got array at 'eventFormat')"},
		{"GET", "/v2/state/active-contracts-page", `{"eventFormat":` + badFilter + `}`, at("eventFormat")},
		{"POST", "/v2/events/events-by-contract-id", `{"contractId":true}`, "Invalid value for: body (expected a string, got bool at 'contractId')"},
		{"POST", "/v2/events/events-by-contract-id", `{"eventFormat":` + badFilter + `}`, at("eventFormat")},
	} {
		t.Run(tc.method+" "+tc.target, func(t *testing.T) {
			wantText(t, h.do(httpCall{method: tc.method, target: tc.target, body: tc.body}), 400, tc.want)
		})
	}
	if diff := cmp.Diff(before, h.state()); diff != "" {
		t.Errorf("refused requests changed the state (-before +after):\n%s", diff)
	}
}

func TestTransactionByIDAndOffset(t *testing.T) {
	t.Parallel()
	f := newAuthFixture(t)
	c := f.create("c1", f.alice, 1)
	want := decodeAs[jsonapi.GetUpdateResponse](t, f.post("/v2/updates/update-by-offset", jsonapi.GetUpdateByOffsetRequest{Offset: c.Offset,
		UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeLedgerEffects)}})).Update.Transaction.Value
	id := want.UpdateID

	// The same transaction by id and by offset, with an explicit format or
	// with requesting parties (wildcard, verbose, ACS delta).
	for _, tc := range []struct {
		name, target string
		body         any
	}{
		{"by id, format", "/v2/updates/transaction-by-id", jsonapi.GetTransactionByIDRequest{UpdateID: id, TransactionFormat: txFormat(f.alice, jsonapi.ShapeLedgerEffects)}},
		{"by offset, format", "/v2/updates/transaction-by-offset", jsonapi.GetTransactionByOffsetRequest{Offset: c.Offset, TransactionFormat: txFormat(f.alice, jsonapi.ShapeLedgerEffects)}},
		{"by id, parties", "/v2/updates/transaction-by-id", jsonapi.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{f.alice}}},
		{"by offset, parties", "/v2/updates/transaction-by-offset", jsonapi.GetTransactionByOffsetRequest{Offset: c.Offset, RequestingParties: []string{f.alice}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.postAs(f.reader, tc.target, tc.body)
			got := decodeAs[jsonapi.GetTransactionResponse](t, rec)
			wantKeys(t, rec, []string{"transaction"})
			if diff := cmp.Diff(want, got.Transaction); diff != "" {
				t.Errorf("transaction (-update-by-offset +got):\n%s", diff)
			}
		})
	}

	before := f.state()
	unknown := "1220" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name, target string
		header       map[string]string
		body         any
		status       int
		code         string
	}{
		{"unknown id", "/v2/updates/transaction-by-id", f.reader, jsonapi.GetTransactionByIDRequest{UpdateID: unknown, RequestingParties: []string{f.alice}}, 404, "UPDATE_NOT_FOUND"},
		{"invisible to the party", "/v2/updates/transaction-by-offset", f.bobReader, jsonapi.GetTransactionByOffsetRequest{Offset: c.Offset, RequestingParties: []string{f.bob}}, 404, "UPDATE_NOT_FOUND"},
		{"a topology update", "/v2/updates/transaction-by-offset", f.reader, jsonapi.GetTransactionByOffsetRequest{Offset: 1, RequestingParties: []string{f.alice}}, 404, "UPDATE_NOT_FOUND"},
		{"offset 0", "/v2/updates/transaction-by-offset", f.reader, jsonapi.GetTransactionByOffsetRequest{RequestingParties: []string{f.alice}}, 400, "NON_POSITIVE_OFFSET"},
		{"both filters", "/v2/updates/transaction-by-id", f.reader, jsonapi.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{f.alice},
			TransactionFormat: txFormat(f.alice, jsonapi.ShapeACSDelta)}, 400, "INVALID_ARGUMENT"},
		{"no filter", "/v2/updates/transaction-by-offset", f.reader, jsonapi.GetTransactionByOffsetRequest{Offset: c.Offset}, 400, "INVALID_ARGUMENT"},
		{"no update id", "/v2/updates/transaction-by-id", f.reader, jsonapi.GetTransactionByIDRequest{RequestingParties: []string{f.alice}}, 400, "MISSING_FIELD"},
		{"another party's transaction", "/v2/updates/transaction-by-id", f.reader, jsonapi.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{f.bob}}, 403, "NA"},
		{"no rights", "/v2/updates/transaction-by-offset", f.none, jsonapi.GetTransactionByOffsetRequest{Offset: c.Offset, RequestingParties: []string{f.alice}}, 403, "NA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.postAs(tc.header, tc.target, tc.body), tc.status, tc.code)
		})
	}
	wantText(t, f.post("/v2/updates/transaction-by-offset", `{"offset":"x"}`), 400, "Invalid value for: body (expected an integer (int64), got string at 'offset')")
	wantText(t, f.post("/v2/updates/transaction-by-id", fmt.Sprintf(`{"updateId":%q,"transactionFormat":{"eventFormat":{},"transactionShape":"TREE"}}`, id)), 400,
		`Invalid value for: body (unknown enum value "TREE"`)
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}
