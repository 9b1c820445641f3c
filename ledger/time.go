package ledger

import (
	"context"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/ledger/apierr"
)

// StaticClock is a clock that moves only when told to, forward only: the
// clock of a node on static time (Canton's static time, used to test
// time-dependent Daml). It keeps microseconds, the Ledger API's precision.
// It is safe for concurrent use.
type StaticClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewStaticClock returns a static clock showing start (truncated to
// microseconds). Canton's static time starts at the Unix epoch:
// time.Unix(0, 0).
func NewStaticClock(start time.Time) *StaticClock {
	return &StaticClock{t: start.UTC().Truncate(time.Microsecond)}
}

// Now returns the clock's time.
func (c *StaticClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t (truncated to microseconds). Time never goes
// back: a t before the current time is refused with INVALID_ARGUMENT and
// the clock is unchanged; setting the current time again is allowed.
func (c *StaticClock) Set(t time.Time) error {
	t = t.UTC().Truncate(time.Microsecond)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.Before(c.t) {
		return apierr.InvalidArgument.New("static time cannot go back: the current time is %s, %s is before it",
			formatTime(c.t), formatTime(t))
	}
	c.t = t
	return nil
}

// Advance moves the clock forward by d (truncated to microseconds); a
// negative d is refused with INVALID_ARGUMENT.
func (c *StaticClock) Advance(d time.Duration) error {
	if d < 0 {
		return apierr.InvalidArgument.New("static time cannot go back: advance by %v is negative", d)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d).Truncate(time.Microsecond)
	return nil
}

// StaticTime reports whether the node runs on static time
// (Options.StaticTime).
func (n *Node) StaticTime() bool { return n.static != nil }

// Time returns the node's current time (ParticipantAdmin): on static time
// the static clock's, otherwise the wall clock's (Options.Clock).
func (n *Node) Time(ctx context.Context) (time.Time, error) {
	if err := n.timeAdmin(ctx, "reading the time"); err != nil {
		return time.Time{}, err
	}
	return n.now(), nil
}

// SetTime sets the static time of a node on static time (ParticipantAdmin).
// Going back is refused with INVALID_ARGUMENT; a node on wall-clock time
// refuses with INVALID_ARGUMENT too. Commands committed afterwards have t
// as their record time and ledger effective time.
func (n *Node) SetTime(ctx context.Context, t time.Time) error {
	if err := n.timeAdmin(ctx, "setting the time"); err != nil {
		return err
	}
	if n.static == nil {
		return errNoStaticTime()
	}
	return n.static.Set(t)
}

// AdvanceTime moves the static time of a node on static time forward by d
// (ParticipantAdmin); the rules are SetTime's.
func (n *Node) AdvanceTime(ctx context.Context, d time.Duration) error {
	if err := n.timeAdmin(ctx, "advancing the time"); err != nil {
		return err
	}
	if n.static == nil {
		return errNoStaticTime()
	}
	return n.static.Advance(d)
}

func (n *Node) timeAdmin(ctx context.Context, what string) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	return requireParticipantAdmin(ctx, what)
}

func errNoStaticTime() error {
	return apierr.InvalidArgument.New("UNSUPPORTED: the node runs on wall-clock time, not static time (start it with static time to set the time)")
}
