package console

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestAdvanceTime: on static time the overview offers to advance the
// clock, which moves by what the form says; a bad duration is refused
// and leaves the clock where it was. On the wall clock there is no such
// form.
func TestAdvanceTime(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// After the world's record times: a static clock does not start
	// behind the ledger it opens on (it would resume at its last record
	// time).
	start := time.Date(2100, 1, 2, 3, 4, 5, 0, time.UTC)
	n, err := ledger.Open(ledger.Options{InMemory: true, StaticTime: ledger.NewStaticClock(start), Restore: bytes.NewReader(worldSnap)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	static := *w
	static.node = n
	srv := serve(t, &static, false, "")
	c := client(t)
	_, page := get(t, c, srv.URL+"/console/")
	if !strings.Contains(page, `id="advance"`) || !strings.Contains(page, start.Format(time.RFC3339Nano)) {
		t.Fatalf("the overview of a static-time node shows no advance form or not its time")
	}
	now := func() time.Time {
		tm, err := n.Time(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	csrf := csrfOf(t, page)
	for _, bad := range []string{"", "soon", "-1h", "0s"} {
		if status, _, _ := post(t, c, srv.URL+"/console/time", url.Values{"csrf": {csrf}, "by": {bad}}); status != http.StatusBadRequest {
			t.Errorf("advance by %q: %d, want 400", bad, status)
		}
		if got := now(); !got.Equal(start) {
			t.Fatalf("advance by %q moved the clock to %s", bad, got)
		}
	}
	if status, _, _ := post(t, c, srv.URL+"/console/time", url.Values{"csrf": {csrf}, "by": {"1h30m"}}); status != http.StatusSeeOther {
		t.Errorf("advance by 1h30m: %d, want 303", status)
	}
	if got, want := now(), start.Add(90*time.Minute); !got.Equal(want) {
		t.Errorf("the clock is at %s, want %s", got, want)
	}
	wall := serve(t, w, false, "")
	if _, page := get(t, client(t), wall.URL+"/console/"); strings.Contains(page, `id="advance"`) {
		t.Errorf("a wall-clock node offers to advance its time")
	}
}
