package httplimit

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestServerCommitsTheShapePerRequest: each request is one commit of the
// shape's writes (new keys of its sizes) and a submit-and-wait reply.
func TestServerCommitsTheShapePerRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		shape Shape
		open  func(t *testing.T, shape Shape) (*Server, error)
	}{
		{"in memory", PingCreate, func(_ *testing.T, shape Shape) (*Server, error) {
			return Open(shape, slog.New(slog.DiscardHandler))
		}},
		{"on disk", SelfPingCreateOnDisk, func(t *testing.T, shape Shape) (*Server, error) {
			return OpenDir(shape, t.TempDir(), slog.New(slog.DiscardHandler))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := tc.open(t, tc.shape)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkCommits(t, s, tc.shape)
		})
	}
}

// checkCommits posts three requests to s and checks the replies and that
// the store holds shape's keys and values for each, the ordered ones in
// offset order and the others at other places for each request.
func checkCommits(t *testing.T, s *Server, shape Shape) {
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
	byWrite := map[byte][][]byte{} // each write's keys, in key order
	err := s.st.View(func(r *store.Reader) error {
		return r.Scan(nil, nil, func(k, v []byte) (bool, error) {
			keys++
			total += len(k) + len(v)
			byWrite[k[0]] = append(byWrite[k[0]], slices.Clone(k))
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := n*len(shape.Writes) + 1 // and the ledger end
	wantTotal := n*shape.Bytes() + len(store.KeyLedgerEnd) + 8
	if keys != wantKeys || total != wantTotal {
		t.Errorf("the store holds %d keys of %d bytes, want %d of %d", keys, total, wantKeys, wantTotal)
	}
	for i, wr := range shape.Writes {
		ks := byWrite[byte('a'+i)]
		if len(ks) != n {
			t.Fatalf("write %d: %d keys, want %d", i, len(ks), n)
		}
		// In key order, an ordered write's keys are the requests' offsets
		// in order; the others' share no more than the prefix.
		for j := 1; j < n; j++ {
			if wr.Ordered {
				at := len(ks[j]) - 8
				if got := store.DecodeOffset(ks[j][at:]); got != int64(j+1) || !bytes.Equal(ks[j][:at], ks[0][:at]) {
					t.Errorf("write %d (ordered): key %d is %q (offset %d), want %q and offset %d", i, j, ks[j], got, ks[0][:at], j+1)
				}
			} else if bytes.Equal(ks[j][:min(len(ks[j]), 10)], ks[j-1][:min(len(ks[j-1]), 10)]) {
				t.Errorf("write %d: keys %q and %q start alike", i, ks[j-1], ks[j])
			}
		}
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
	shape := Shape{Writes: []Write{{Key: 20, Value: 4}, {Key: 10, Value: 6, Ordered: true}}, Update: 1}
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
