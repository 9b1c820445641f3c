package httplimit

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestServerCommitsTheShapePerRequest: each request is one commit of the
// shape's writes (new keys of its sizes) and a submit-and-wait reply.
func TestServerCommitsTheShapePerRequest(t *testing.T) {
	t.Parallel()
	s, err := Open(PingCreate, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	const n = 3
	for i := range n {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"commandId":"c`+string(rune('0'+i))+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var reply struct {
			UpdateID         string `json:"updateId"`
			CompletionOffset int64  `json:"completionOffset"`
		}
		if err := json.Unmarshal(body, &reply); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("reply %d %s: %v", resp.StatusCode, body, err)
		}
		if reply.CompletionOffset != int64(i+1) || len(reply.UpdateID) != 68 || !strings.HasPrefix(reply.UpdateID, "1220") {
			t.Errorf("reply %d = %s", i, body)
		}
	}
	if got := s.LedgerEnd(); got != n {
		t.Errorf("LedgerEnd() = %d, want %d", got, n)
	}
	keys, total := 0, 0
	err = s.st.View(func(r *store.Reader) error {
		return r.Scan(nil, nil, func(k, v []byte) (bool, error) {
			keys++
			total += len(k) + len(v)
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := n*len(PingCreate.Writes) + 1 // and the ledger end
	wantTotal := n*PingCreate.Bytes() + len(store.KeyLedgerEnd) + 8
	if keys != wantKeys || total != wantTotal {
		t.Errorf("the store holds %d keys of %d bytes, want %d of %d", keys, total, wantKeys, wantTotal)
	}
}

// TestFill: the prefix, the tail at the end, the source repeated between.
func TestFill(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n         int
		prefix    byte
		src, tail string
		want      string
	}{
		{10, 'a', "xy", "12", "a/xyxyxy12"},
		{4, 'a', "xyz", "1234", "a/12"},
		{5, 0, "xy", "", "xyxyx"},
		{0, 'a', "xy", "", ""},
	} {
		b := make([]byte, tc.n)
		var tail []byte
		if tc.tail != "" {
			tail = []byte(tc.tail)
		}
		fill(b, tc.prefix, []byte(tc.src), tail)
		if string(b) != tc.want {
			t.Errorf("fill(%d, %q, %q, %q) = %q, want %q", tc.n, tc.prefix, tc.src, tc.tail, b, tc.want)
		}
	}
}

// TestPageReadsTheUpdatesAfterItsOffset: a page holds the stored update
// records after its offset, in offset order, at most size of them.
func TestPageReadsTheUpdatesAfterItsOffset(t *testing.T) {
	t.Parallel()
	shape := Shape{Writes: []Write{{20, 4}, {10, 6}}, Update: 1}
	s, err := Open(shape, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, body := range []string{"aa", "bb", "cc", "dd", "ee"} {
		if _, err := s.Commit([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		from              int64
		size, updateBytes int
		want              string
	}{
		{2, 2, 0, `{"updates":[cccccc,dddddd]}`},
		{0, 1, 0, `{"updates":[aaaaaa]}`},
		{3, 10, 0, `{"updates":[dddddd,eeeeee]}`},
		{5, 10, 0, `{"updates":[]}`},
		{1, 2, 3, `{"updates":[bbb,ccc]}`},
		{1, 1, 9, `{"updates":[bbbbbbbbb]}`},
	} {
		rec := httptest.NewRecorder()
		s.Page(tc.from, tc.size, tc.updateBytes).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`)))
		if got := rec.Body.String(); rec.Code != http.StatusOK || got != tc.want {
			t.Errorf("Page(%d, %d, %d) = %d %s, want %s", tc.from, tc.size, tc.updateBytes, rec.Code, got, tc.want)
		}
	}
}
