package httpadapter

import (
	"net/http"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestAdvanceMicrosBeyondADuration: an advanceMicros whose nanoseconds do
// not fit a time.Duration (beyond ±292 years) is refused, not wrapped
// around: MaxInt64 µs moved the time back by 1 µs in the error's words,
// and -MaxInt64 µs moved it forward by 1 µs. The time is unchanged.
func TestAdvanceMicrosBeyondADuration(t *testing.T) {
	t.Parallel()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	h := newHarnessWith(t, ledger.Options{StaticTime: ledger.NewStaticClock(start)}, Options{})
	for _, body := range []string{`{"advanceMicros": 9223372036854775807}`, `{"advanceMicros": -9223372036854775807}`, `{"advanceMicros": 9223372036854776}`} {
		wantText(t, h.do(httpCall{method: "POST", target: "/ledgernode/v1/time", body: body}), http.StatusBadRequest,
			"Invalid value for: body (advanceMicros is beyond ±9223372036854775 µs")
		if got := decodeAs[TimeResponse](t, h.do(httpCall{method: "GET", target: "/ledgernode/v1/time"})).CurrentTime; got != "2030-01-01T00:00:00Z" {
			t.Errorf("%s: the time is %s after it, want 2030-01-01T00:00:00Z", body, got)
		}
	}
	// The largest advance that fits is taken as it is.
	wantOK := decodeAs[TimeResponse](t, h.do(httpCall{method: "POST", target: "/ledgernode/v1/time", body: `{"advanceMicros": 9223372036854775}`}))
	if want := start.Add(9223372036854775 * time.Microsecond).Format(time.RFC3339Nano); wantOK.CurrentTime != want {
		t.Errorf("the largest advance: %s, want %s", wantOK.CurrentTime, want)
	}
}
