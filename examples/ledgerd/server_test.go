package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// server is a ledgerd started by startServer.
type server struct {
	base string
	out  bytes.Buffer
	stop func() // cancels run's context and waits for it to return
}

// startServer runs ledgerd with args and logger on a free loopback port
// until stop or the end of the test or benchmark, failing it when ledgerd
// does not start within 10s or returns an error.
func startServer(t testing.TB, logger *slog.Logger, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{}
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), &s.out, logger, func(a string) { addrc <- a })
	}()
	select {
	case a := <-addrc:
		s.base = "http://" + a
	case err := <-done:
		cancel()
		t.Fatalf("ledgerd exited: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("ledgerd did not start")
	}
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("ledgerd: %v", err)
			}
		})
	}
	t.Cleanup(s.stop)
	return s
}

// printedToken is the participant_admin token ledgerd printed last.
func (s *server) printedToken() string {
	lines := strings.Split(strings.TrimSpace(s.out.String()), "\n")
	return lines[len(lines)-1]
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
