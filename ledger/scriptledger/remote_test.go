package scriptledger_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

// TestRemoteSetTime: Remote.SetTime calls the participant's time service
// as Daml Script's ledger client does (GetTime, then SetTime from the time
// read to the new one), so it fails as against a Canton participant on
// static time when the time goes back, and when another client moved the
// time between its read and its move; otherwise the time moves.
func TestRemoteSetTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, start)
	api, token := ledgertest.Serve(t, node)
	target, _ := url.Parse(api.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	// race, when set, is how far another client moves the time just before
	// the next move reaches the node.
	var race atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/ledgernode/v1/time" {
			if d := race.Swap(0); d != 0 {
				clock.Advance(time.Duration(d))
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	remote := scriptledger.NewRemote(srv.URL, token, nil)

	tests := []struct {
		name  string
		to    time.Time
		race  time.Duration
		fail  string // a part of the error; "" for success
		after time.Time
	}{
		{name: "forward", to: start.Add(time.Hour), after: start.Add(time.Hour)},
		{name: "to the time it is", to: start.Add(time.Hour), after: start.Add(time.Hour)},
		{name: "backwards", to: start, after: start.Add(time.Hour),
			fail: "INVALID_ARGUMENT: The submitted request has invalid arguments: new_time [2030-01-01T00:00:00Z] is before current_time [2030-01-01T01:00:00Z]. Setting time backwards is not allowed."},
		{name: "racing another client", to: start.Add(3 * time.Hour), race: time.Minute, after: start.Add(time.Hour + time.Minute),
			fail: "INVALID_ARGUMENT: The submitted request has invalid arguments: current_time mismatch. Provided: 2030-01-01T01:00:00Z. Actual: 2030-01-01T01:01:00Z"},
	}
	for _, tc := range tests { // in order: each starts from the time the previous left
		race.Store(int64(tc.race))
		err := remote.SetTime(ctx, tc.to)
		var re *scriptledger.RemoteError
		switch {
		case tc.fail == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.fail != "" && (!errors.As(err, &re) || !strings.Contains(err.Error(), tc.fail)):
			t.Errorf("%s: %v, want a RemoteError with %q", tc.name, err, tc.fail)
		}
		if got, err := remote.Time(ctx); err != nil || !got.Equal(tc.after) {
			t.Errorf("%s: the time is %v (%v), want %v", tc.name, got, err, tc.after)
		}
	}
}
