package httpadapter

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// reentrantWriter is a ResponseRecorder whose first large Write serves
// another request (during) before it returns, and records whether the
// bytes it was given changed meanwhile.
type reentrantWriter struct {
	*httptest.ResponseRecorder
	during  func()
	changed bool
	done    bool
}

func (w *reentrantWriter) Write(p []byte) (int, error) {
	if !w.done && len(p) >= 64<<10 {
		w.done = true
		before := bytes.Clone(p)
		w.during()
		w.changed = !bytes.Equal(before, p)
	}
	return w.ResponseRecorder.Write(p)
}

// TestPagesReuseBuffers checks that a page's buffer is given back for
// reuse (jsonapi's Body.Release) only once it has been written: a page
// rendered while another is being written must not be written into the
// bytes still being sent.
func TestPagesReuseBuffers(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	begin := f.end()
	offs := f.createMany("big", 120)
	alice := jsonapi.UpdateFormat{IncludeTransactions: txFormat(f.alice, jsonapi.ShapeACSDelta)}
	whole := js(t, jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: begin, EndOffsetInclusive: &offs[len(offs)-1], UpdateFormat: &alice})
	half := js(t, jsonapi.GetUpdatesPageRequest{BeginOffsetExclusive: offs[59], EndOffsetInclusive: &offs[len(offs)-1], UpdateFormat: &alice})

	first := f.post("/v2/updates/get-updates-page", whole).Body.Bytes()
	if len(first) < 64<<10 {
		t.Fatalf("a page of %d bytes is too small for its buffer to be reused", len(first))
	}
	for range 3 { // later reads take buffers released before
		w := &reentrantWriter{ResponseRecorder: httptest.NewRecorder()}
		w.during = func() { f.post("/v2/updates/get-updates-page", half) }
		req := httptest.NewRequest("POST", "/v2/updates/get-updates-page", strings.NewReader(whole))
		f.h.ServeHTTP(w, req)
		if !w.done {
			t.Fatal("the page was not written in one large Write")
		}
		if w.changed {
			t.Fatal("a page's bytes changed while they were written: its buffer was reused too early")
		}
		if !bytes.Equal(w.Body.Bytes(), first) {
			t.Fatalf("the page differs from its first read (%d bytes, want %d)", w.Body.Len(), len(first))
		}
	}
}
