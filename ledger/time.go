package ledger

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
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
// back: a t before the current time is refused with INVALID_ARGUMENT, in
// the words of Canton's time service, and the clock is unchanged; setting
// the current time again is allowed.
func (c *StaticClock) Set(t time.Time) error {
	t = t.UTC().Truncate(time.Microsecond)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.Before(c.t) {
		return errTimeBackwards(c.t, t)
	}
	if t.After(lastTimestamp) {
		return errPastLastTimestamp(t)
	}
	c.t = t
	return nil
}

// SetFrom moves the clock from current to t as Canton's time service
// (TimeService.SetTime) does: t before current is refused, and so is a
// current that is not the clock's time (another client moved it since
// the caller read it), both with INVALID_ARGUMENT and the clock
// unchanged. Both times are truncated to microseconds.
func (c *StaticClock) SetFrom(current, t time.Time) error {
	current, t = current.UTC().Truncate(time.Microsecond), t.UTC().Truncate(time.Microsecond)
	if t.Before(current) {
		return errTimeBackwards(current, t)
	}
	if t.After(lastTimestamp) {
		return errPastLastTimestamp(t)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !current.Equal(c.t) {
		// Canton: ApiTimeService.setTime, when the backend's
		// compare-and-set fails.
		return apierr.InvalidArgument.New("current_time mismatch. Provided: %s. Actual: %s", formatTime(current), formatTime(c.t))
	}
	c.t = t
	return nil
}

// errTimeBackwards is Canton's refusal of a new time before the current
// one (ApiTimeService.setTime's validation).
func errTimeBackwards(current, t time.Time) error {
	return apierr.InvalidArgument.New("new_time [%s] is before current_time [%s]. Setting time backwards is not allowed.",
		formatTime(t), formatTime(current))
}

// Advance moves the clock forward by d (truncated to microseconds); a
// negative d, or one past lastTimestamp, is refused with INVALID_ARGUMENT.
func (c *StaticClock) Advance(d time.Duration) error {
	if d < 0 {
		return apierr.InvalidArgument.New("static time cannot go back: advance by %v is negative", d)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.t.Add(d).Truncate(time.Microsecond)
	if t.After(lastTimestamp) {
		return errPastLastTimestamp(t)
	}
	c.t = t
	return nil
}

// resumeStaticTime moves the static clock of a node reopened on a ledger
// forward to the record time of its last update, when that is later: the
// clock starts at Options.StaticTime's instant in each process, and a
// restart would otherwise put it behind the ledger, the next updates'
// record times before the earlier ones' (Canton's record times never go
// back: its sequencer orders them) and deduplication periods measured
// from a past time.
func (n *Node) resumeStaticTime() error {
	if n.static == nil {
		return nil
	}
	end := n.st.LedgerEnd()
	var last time.Time
	err := n.st.View(func(r *store.Reader) error {
		return scanEntries(r, 0, end, true, "", 0, func(e *logEntry) (bool, error) {
			if t, ok := parseStoredTime(e.RecordTime); ok {
				last = t
			}
			return false, nil // the newest entry (pruning leaves it)
		})
	})
	if err != nil {
		return fmt.Errorf("ledger: reading the last record time: %w", storeErr(err))
	}
	if now := n.static.Now(); last.After(now) {
		n.log.Info("static time resumes at the ledger's last record time", "time", last.Format(time.RFC3339Nano), "start", now.Format(time.RFC3339Nano))
		return n.static.Set(last)
	}
	return nil
}

// lastTimestamp is Daml's last timestamp (value.MaxTimestamp). The static
// time stays at or before it: a ledger time after it is no Daml
// timestamp, and a transaction committed at it could not be read back.
var lastTimestamp = time.UnixMicro(int64(value.MaxTimestamp)).UTC()

// errPastLastTimestamp refuses to move the static time to t, after
// lastTimestamp.
func errPastLastTimestamp(t time.Time) error {
	return apierr.InvalidArgument.New("new time [%s] is after the last Daml timestamp [%s]", formatTime(t), formatTime(lastTimestamp))
}

// StaticTime reports whether the node runs on static time
// (Options.StaticTime).
func (n *Node) StaticTime() bool { return n.static != nil }

// Time returns the node's current time to any authenticated caller: on
// static time the static clock's, otherwise the wall clock's
// (Options.Clock). This is Canton's TimeService.GetTime, which needs no
// right (TimeServiceAuthorization.getTime: RequiredClaim.Public), unlike
// SetTime.
func (n *Node) Time(ctx context.Context) (time.Time, error) {
	if err := n.public(ctx); err != nil {
		return time.Time{}, err
	}
	return n.now(), nil
}

// AdminTime is Time for ParticipantAdmin only: the rule of ledgernode's
// own admin time route (GET /ledgernode/v1/time), which has no twin in
// Canton's JSON API.
func (n *Node) AdminTime(ctx context.Context) (time.Time, error) {
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

// SetTimeFrom is Canton's TimeService.SetTime (ParticipantAdmin): it
// moves the static time from current to t, as a Canton
// participant on static time does and as Daml Script's ledger client
// calls it (GetTime, then SetTime from the time read). A missing (zero)
// time is MISSING_FIELD current_time/new_time; a t before current, or a
// current that is not the node's time, is INVALID_ARGUMENT in
// Canton's words (StaticClock.SetFrom); a node on wall-clock time refuses
// as SetTime does. A refusal leaves the time unchanged.
func (n *Node) SetTimeFrom(ctx context.Context, current, t time.Time) error {
	if err := n.timeAdmin(ctx, "setting the time"); err != nil {
		return err
	}
	if current.IsZero() {
		return apierr.MissingField.New("current_time")
	}
	if t.IsZero() {
		return apierr.MissingField.New("new_time")
	}
	if n.static == nil {
		return errNoStaticTime()
	}
	return n.static.SetFrom(current, t)
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
