package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestFirstError: the result is the in-order loop's, whichever job
// finishes first, on one worker and on several.
func TestFirstError(t *testing.T) {
	errAt := func(i int) error { return fmt.Errorf("job %d", i) }
	cases := []struct {
		name  string
		n     int
		fails map[int]bool // indexes that fail
		slow  map[int]bool // indexes that take a while before answering
		want  error
	}{
		{"none fails", 6, nil, nil, nil},
		{"one fails", 6, map[int]bool{4: true}, nil, errAt(4)},
		{"the lowest of several, though it answers last", 6, map[int]bool{1: true, 2: true, 5: true}, map[int]bool{1: true}, errAt(1)},
		{"no jobs", 0, nil, nil, nil},
	}
	for _, procs := range []int{1, 4} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/procs=%d", tc.name, procs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				got := FirstError(tc.n, func(i int) int64 { return int64(i) }, func(i int) error {
					if tc.slow[i] {
						time.Sleep(20 * time.Millisecond)
					}
					if tc.fails[i] {
						return errAt(i)
					}
					return nil
				})
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("FirstError = %v, want %v", got, tc.want)
				}
			})
		}
	}
}

// TestFirstErrorPanic: a panic of the lowest failing index is raised in
// the caller; an error at a lower index wins over a later panic.
func TestFirstErrorPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	got := func(failAt0 bool) (r any) {
		defer func() {
			if p := recover(); p != nil {
				r = p
			}
		}()
		err := FirstError(4, func(int) int64 { return 1 }, func(i int) error {
			switch {
			case i == 0 && failAt0:
				return errors.New("zero")
			case i == 2:
				panic("two")
			}
			return nil
		})
		return err
	}
	if r := got(false); r != "two" {
		t.Errorf("a panic at 2, no error before it: recovered %v, want the panic \"two\"", r)
	}
	if r := got(true); fmt.Sprint(r) != "zero" {
		t.Errorf("an error at 0 and a panic at 2: got %v, want the error \"zero\"", r)
	}
}

// TestFirstErrorSkipsAfterFailure: with one worker, no index after the
// first failure runs.
func TestFirstErrorSkipsAfterFailure(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var ran atomic.Int64
	_ = FirstError(10, func(int) int64 { return 1 }, func(i int) error {
		ran.Add(1)
		if i == 2 {
			return errors.New("two")
		}
		return nil
	})
	if got := ran.Load(); got != 3 {
		t.Errorf("%d jobs ran, want 3 (0, 1 and the failing 2)", got)
	}
}

// TestFirstErrorSkipsAfterFailureConcurrently: on several workers, an
// index taken once a lower one failed is not started. Job 1 holds one
// worker until job 2 starts (or a while passes); the other, free once
// job 0 failed, takes job 2 and must skip it.
func TestFirstErrorSkipsAfterFailureConcurrently(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	started2 := make(chan struct{})
	var ran2 atomic.Bool
	err := FirstError(3, func(i int) int64 { return int64(3 - i) }, func(i int) error {
		switch i {
		case 0:
			return errors.New("zero")
		case 1:
			select {
			case <-started2:
			case <-time.After(200 * time.Millisecond):
			}
		case 2:
			ran2.Store(true)
			close(started2)
		}
		return nil
	})
	if fmt.Sprint(err) != "zero" {
		t.Errorf("FirstError = %v, want zero", err)
	}
	if ran2.Load() {
		t.Error("job 2 started after job 0 failed")
	}
}
