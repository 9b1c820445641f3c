package httpadapter

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

type ctxTestKey struct{}

var errTestCause = errors.New("the test's cause")

// serveCtx serves a request under the request timeout d and parent, with
// handle as its handler's work, and returns the request's context (for a
// look after the handler returned) and the status answered.
func serveCtx(d time.Duration, parent context.Context, handle func(ctx context.Context)) (context.Context, int) {
	return serveCtxIn(new(deadlineQueue), d, parent, handle)
}

// serveCtxIn is serveCtx with the request's deadline in q.
func serveCtxIn(q *deadlineQueue, d time.Duration, parent context.Context, handle func(ctx context.Context)) (context.Context, int) {
	var ctx context.Context
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v2/commands/submit-and-wait", nil)
	timeouts{request: d, queue: q}.serve(rec, req, parent, func(w http.ResponseWriter, r *http.Request) {
		ctx = r.Context()
		handle(ctx)
		w.WriteHeader(http.StatusTeapot)
	})
	return ctx, rec.Code
}

// waitEnd waits for ctx to end as a handler would: on Done (which makes
// the requestCtx's inner context), or by polling Err as the engine does.
func waitEnd(ctx context.Context, done bool) {
	if done {
		<-ctx.Done()
		return
	}
	for ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
}

// checkEnded checks ctx's Err, Cause and Done after it ended.
func checkEnded(t *testing.T, when string, ctx context.Context, err, cause error) {
	t.Helper()
	if got := ctx.Err(); got != err {
		t.Errorf("%s: Err %v, want %v", when, got, err)
	}
	if got := context.Cause(ctx); got != cause {
		t.Errorf("%s: Cause %v, want %v", when, got, cause)
	}
	select {
	case <-ctx.Done():
	default:
		t.Errorf("%s: Done open", when)
	}
}

// TestRequestCtx: the request's context answers as
// context.WithDeadline(parent, the request's deadline) did, whether the
// handler asks for Done or not: values, deadline, Err and Cause while it
// runs, after its deadline, after the parent's cancel or deadline, and
// after the handler returned.
func TestRequestCtx(t *testing.T) {
	if cancelCtxKey == nil {
		t.Fatal("context.Cause asked no key of the probe")
	}
	for _, done := range []bool{false, true} {
		name := map[bool]string{false: "Err", true: "Done"}[done]
		t.Run(name+"/live", func(t *testing.T) {
			t.Parallel()
			parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), ctxTestKey{}, "v"))
			ctx, code := serveCtx(time.Minute, parent, func(ctx context.Context) {
				if done {
					_ = ctx.Done()
				}
				if d, ok := ctx.Deadline(); !ok || time.Until(d) < 50*time.Second || time.Until(d) > time.Minute {
					t.Errorf("Deadline %v %v", d, ok)
				}
				if ctx.Value(ctxTestKey{}) != "v" || ctx.Err() != nil || context.Cause(ctx) != nil {
					t.Errorf("Value %v, Err %v, Cause %v", ctx.Value(ctxTestKey{}), ctx.Err(), context.Cause(ctx))
				}
				if s := ctx.(interface{ String() string }).String(); !strings.Contains(s, ".WithDeadline(") {
					t.Errorf("String %q", s)
				}
			})
			if code != http.StatusTeapot {
				t.Errorf("status %d", code)
			}
			checkEnded(t, "returned", ctx, context.Canceled, context.Canceled)
			cancel(errTestCause)
			checkEnded(t, "returned, parent canceled", ctx, context.Canceled, context.Canceled)
		})
		t.Run(name+"/deadline", func(t *testing.T) {
			t.Parallel()
			parent, cancel := context.WithCancelCause(context.Background())
			ctx, code := serveCtx(20*time.Millisecond, parent, func(ctx context.Context) {
				waitEnd(ctx, done)
				checkEnded(t, "deadline", ctx, context.DeadlineExceeded, context.DeadlineExceeded)
				cancel(errTestCause)
				checkEnded(t, "deadline, parent canceled", ctx, context.DeadlineExceeded, context.DeadlineExceeded)
			})
			if code != http.StatusServiceUnavailable {
				t.Errorf("status %d", code)
			}
			checkEnded(t, "returned", ctx, context.DeadlineExceeded, context.DeadlineExceeded)
		})
		t.Run(name+"/parent canceled", func(t *testing.T) {
			t.Parallel()
			parent, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(20*time.Millisecond, func() { cancel(errTestCause) })
			ctx, code := serveCtx(time.Minute, parent, func(ctx context.Context) {
				waitEnd(ctx, done)
				checkEnded(t, "canceled", ctx, context.Canceled, errTestCause)
			})
			if code != http.StatusTeapot {
				t.Errorf("status %d", code)
			}
			checkEnded(t, "returned", ctx, context.Canceled, errTestCause)
		})
		t.Run(name+"/parent ended before", func(t *testing.T) {
			t.Parallel()
			parent, cancel := context.WithCancelCause(context.Background())
			cancel(errTestCause)
			_, code := serveCtx(time.Minute, parent, func(ctx context.Context) {
				waitEnd(ctx, done)
				checkEnded(t, "canceled", ctx, context.Canceled, errTestCause)
			})
			if code != http.StatusTeapot {
				t.Errorf("status %d", code)
			}
		})
		t.Run(name+"/parent's earlier deadline", func(t *testing.T) {
			t.Parallel()
			end := time.Now().Add(20 * time.Millisecond)
			parent, cancel := context.WithDeadlineCause(context.Background(), end, errTestCause)
			defer cancel()
			ctx, code := serveCtx(time.Minute, parent, func(ctx context.Context) {
				if d, _ := ctx.Deadline(); !d.Equal(end) {
					t.Errorf("Deadline %v, want %v", d, end)
				}
				waitEnd(ctx, done)
				<-parent.Done() // the parent's own timer gives the cause
				checkEnded(t, "deadline", ctx, context.DeadlineExceeded, errTestCause)
				time.Sleep(20 * time.Millisecond) // the 503 comes first
			})
			if code != http.StatusServiceUnavailable {
				t.Errorf("status %d", code)
			}
			checkEnded(t, "returned", ctx, context.DeadlineExceeded, errTestCause)
		})
	}
}

// TestRequestCtxChildren: contexts derived from the request's, directly
// or through a value, and its AfterFuncs end as it does, with its error
// and cause, and register with it without a goroutine each.
func TestRequestCtxChildren(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	var ran sync.WaitGroup
	ran.Add(1)
	_, code := serveCtx(50*time.Millisecond, parent, func(ctx context.Context) {
		n := runtime.NumGoroutine()
		var children []context.Context
		for range 20 {
			c, cancel := context.WithCancel(context.WithValue(ctx, ctxTestKey{}, "v"))
			defer cancel()
			children = append(children, c)
		}
		direct, cancel := context.WithCancel(ctx)
		defer cancel()
		children = append(children, direct)
		if grown := runtime.NumGoroutine() - n; grown >= 10 {
			t.Errorf("%d goroutines more for 21 children", grown)
		}
		context.AfterFunc(ctx, ran.Done)
		stop := context.AfterFunc(ctx, func() { t.Error("a stopped AfterFunc ran") })
		if !stop() {
			t.Error("stop: false")
		}
		<-ctx.Done()
		for i, c := range children {
			<-c.Done()
			checkEnded(t, "child "+string(rune('a'+i)), c, context.DeadlineExceeded, context.DeadlineExceeded)
		}
	})
	ran.Wait()
	if code != http.StatusServiceUnavailable {
		t.Errorf("status %d", code)
	}
	// A child made after the request ended ends at once.
	_, _ = serveCtx(time.Minute, parent, func(ctx context.Context) {
		cancelParent()
		_ = ctx.Err()
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		checkEnded(t, "child of an ended context", c, context.Canceled, context.Canceled)
	})
}

// TestRequestCtxRace: Err, Done and Value from several goroutines while
// the deadline passes and the handler returns (the race detector checks
// the accesses): an ended context never comes back, and once the handler
// returned it has ended, its Done closed.
func TestRequestCtxRace(t *testing.T) {
	t.Parallel()
	for range 20 {
		var wg sync.WaitGroup
		var served context.Context
		_, _ = serveCtx(2*time.Millisecond, context.Background(), func(ctx context.Context) {
			served = ctx
			for i := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ended := false
					for range 100 {
						err, _ := ctx.Err(), ctx.Value(ctxTestKey{})
						if ended && err == nil {
							t.Error("the context's Err went back to nil")
							return
						}
						ended = err != nil
						_ = context.Cause(ctx)
						if i%2 == 0 {
							_ = ctx.Done()
						}
					}
				}()
			}
			time.Sleep(2 * time.Millisecond)
		})
		wg.Wait()
		if served.Err() == nil {
			t.Fatal("the context lives on after the handler returned")
		}
		select {
		case <-served.Done():
		default:
			t.Fatal("Done is open after the handler returned")
		}
	}
}
