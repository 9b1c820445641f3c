package httpadapter

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serveTimeouts runs the adapter over an in-memory node on a real loopback
// server configured as ledgerd configures it.
func serveTimeouts(t *testing.T, opts Options) *httptest.Server {
	t.Helper()
	h := newHarness(t, opts)
	srv := httptest.NewUnstartedServer(h.h)
	ServerTimeouts(srv.Config)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// rawExchange sends raw on a new connection, keeps it open without sending
// more, and returns what the server answered before it closed the
// connection, and when that happened.
func rawExchange(t *testing.T, addr, raw string, wait time.Duration) (string, time.Duration) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(start.Add(wait))
	got, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection is still open after %v; got %q", wait, got)
	}
	return string(got), time.Since(start)
}

// TestStalledRequestTimesOut: a client that sends headers and part of a
// body (or none of it), then goes silent, gets pekko-http's 503 and a
// closed connection once the request timeout has passed.
func TestStalledRequestTimesOut(t *testing.T) {
	const timeout = 300 * time.Millisecond
	srv := serveTimeouts(t, Options{RequestTimeout: timeout})
	addr := srv.Listener.Addr().String()
	for name, raw := range map[string]string{
		"half a body": "POST /v2/parties HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"partyIdHint\": \"al",
		"no body":     "POST /v2/users HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n",
		"chunked":     "POST /v2/dars HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nPK\x03\x04",
	} {
		t.Run(name, func(t *testing.T) {
			got, took := rawExchange(t, addr, raw, 5*time.Second)
			if took < timeout || took > timeout+2*time.Second {
				t.Errorf("closed after %v, want about %v", took, timeout)
			}
			resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(got)), nil)
			if err != nil {
				t.Fatalf("answer %q: %v", got, err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 503 || string(body) != requestTimeoutBody || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
				t.Errorf("answer %d %q %q, want 503 text/plain %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, requestTimeoutBody)
			}
		})
	}
}

// TestListIdleTimeoutCapped: stream_idle_timeout_ms is capped, so a list
// request asking for an hour answers after the cap; without a cap, the
// request timeout answers 503.
func TestListIdleTimeoutCapped(t *testing.T) {
	body := `{"beginExclusive": 0, "updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}}`
	for _, tc := range []struct {
		name       string
		opts       Options
		wantStatus int
		wantTook   time.Duration
	}{
		{"capped", Options{RequestTimeout: 3 * time.Second, MaxStreamIdleTimeout: 200 * time.Millisecond}, 200, 200 * time.Millisecond},
		{"no cap", Options{RequestTimeout: 300 * time.Millisecond, MaxStreamIdleTimeout: -1}, 503, 300 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveTimeouts(t, tc.opts)
			client := &http.Client{Timeout: 5 * time.Second}
			start := time.Now()
			resp, err := client.Post(srv.URL+"/v2/updates?stream_idle_timeout_ms=3600000", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			took := time.Since(start)
			if resp.StatusCode != tc.wantStatus || took < tc.wantTook || took > tc.wantTook+2*time.Second {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("status %d after %v (%q), want %d after about %v", resp.StatusCode, took, b, tc.wantStatus, tc.wantTook)
			}
		})
	}
}

// TestWebSocketDuration: a WebSocket stream outlives the request timeout
// and is closed after the maximum duration.
func TestWebSocketDuration(t *testing.T) {
	const maxDuration = 800 * time.Millisecond
	srv := serveTimeouts(t, Options{RequestTimeout: 100 * time.Millisecond, MaxWebSocketDuration: maxDuration})
	start := time.Now()
	conn := dialStream(t, srv.URL+"/v2/updates", "any", `{"beginExclusive": 0, "updateFormat": {"includeTopologyEvents": {"includeParticipantAuthorizationEvents": {}}}}`)
	defer conn.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var err error
	for err == nil {
		_, _, err = conn.Read(ctx)
	}
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("the stream is still open after 5 s")
	}
	if took < maxDuration || took > maxDuration+2*time.Second {
		t.Errorf("stream closed after %v (%v), want about %v", took, err, maxDuration)
	}
}

// TestTimeoutsDeadline: the request timeout answers 503 when the request's
// context ends by a deadline — the timeout's own, or the caller's when that
// comes first — and leaves the answer to the handler when the caller
// canceled it.
func TestTimeoutsDeadline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		request time.Duration
		parent  func() (context.Context, context.CancelFunc)
		want    int
	}{
		{"its own deadline", 50 * time.Millisecond, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, http.StatusServiceUnavailable},
		{"the caller's earlier deadline", time.Minute, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, http.StatusServiceUnavailable},
		{"the caller canceled", time.Minute, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}, http.StatusTeapot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			parent, cancel := tc.parent()
			defer cancel()
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, "/v2/commands/submit-and-wait", strings.NewReader("{}"))
			timeouts{request: tc.request, queue: new(deadlineQueue)}.serve(rec, req, parent, func(w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
				time.Sleep(20 * time.Millisecond) // the 503, when due, comes first
				w.WriteHeader(http.StatusTeapot)
			})
			if rec.Code != tc.want {
				t.Errorf("status %d, want %d", rec.Code, tc.want)
			}
		})
	}
}

// TestTimeoutsHeadersFresh: a request's handler starts with no header,
// whatever the handler of the request before set (the maps are reused),
// and its headers reach the answer.
func TestTimeoutsHeadersFresh(t *testing.T) {
	to := timeouts{request: time.Minute, queue: new(deadlineQueue)}
	for i := range 3 {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/livez", nil)
		to.serve(rec, req, nil, func(w http.ResponseWriter, _ *http.Request) {
			if len(w.Header()) != 0 {
				t.Errorf("request %d: the handler starts with headers %v", i, w.Header())
			}
			w.Header().Set("X-Request", strconv.Itoa(i))
			w.Header().Add("X-Seen", "a")
			if i == 1 {
				return // answers nothing: start hands the headers on in finish
			}
			w.WriteHeader(http.StatusTeapot)
		})
		if got := rec.Header().Get("X-Request"); got != strconv.Itoa(i) {
			t.Errorf("request %d: X-Request %q", i, got)
		}
		if got := rec.Header().Values("X-Seen"); len(got) != 1 {
			t.Errorf("request %d: X-Seen %q", i, got)
		}
	}
}
