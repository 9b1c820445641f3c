package ledger

import (
	"fmt"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
)

// TestCommandTrackerBounds: a pending command is listed until it
// finishes; the tracker keeps the last trackMaxFailed failed commands and
// stops tracking beyond trackMaxPending pending ones, as Canton's
// CommandProgressTrackerImpl does.
func TestCommandTrackerBounds(t *testing.T) {
	t.Parallel()
	var tr commandTracker
	clock := func() time.Time { return time.Unix(1, 0) }
	// track registers s and returns what records its outcome.
	track := func(s *submission) func(**logEntry, *error) {
		tr.track(clock(), s)
		return func(e **logEntry, err *error) { tr.done(clock, s, e, err) }
	}
	c := &submission{c: &Commands{CommandID: "p1", UserID: "u", ActAs: []string{"a"}}}
	done := track(c)
	if got := tr.find("", CommandStatePending, 10); len(got) != 1 || got[0].CommandID != "p1" || got[0].State != CommandStatePending {
		t.Fatalf("pending %+v", got)
	}
	var e *logEntry
	err := error(apierr.InvalidArgument.New("no"))
	done(&e, &err)
	if got := tr.find("", CommandStateUnspecified, 10); len(got) != 1 || got[0].State != CommandStateFailed || got[0].Error.Code.Name != "INVALID_ARGUMENT" {
		t.Fatalf("after failing %+v", got)
	}

	for i := range trackMaxFailed + 5 {
		done := track(&submission{c: &Commands{CommandID: fmt.Sprint("f", i), UserID: "u"}})
		done(&e, &err)
	}
	failed := tr.find("", CommandStateFailed, 1000)
	if len(failed) != trackMaxFailed || failed[0].CommandID != fmt.Sprint("f", trackMaxFailed+4) {
		t.Errorf("%d failed commands kept, newest %s", len(failed), failed[0].CommandID)
	}

	var finish []func(**logEntry, *error)
	for i := range trackMaxPending + 3 {
		finish = append(finish, track(&submission{c: &Commands{CommandID: fmt.Sprint("q", i), UserID: "u"}}))
	}
	if got := tr.find("", CommandStatePending, 5000); len(got) != trackMaxPending {
		t.Errorf("%d pending commands tracked, want %d", len(got), trackMaxPending)
	}
	e = &logEntry{Offset: 7, UpdateID: "upd", RecordTime: "1970-01-01T00:00:01Z", recordTime: time.Unix(1, 0).UTC()}
	err = nil
	for _, f := range finish {
		f(&e, &err)
	}
	if got := tr.find("q", CommandStateSucceeded, 5000); len(got) != trackMaxSucceeded || got[0].Offset != 7 || got[0].UpdateID != "upd" || !got[0].RecordTime.Equal(time.Unix(1, 0)) {
		t.Errorf("%d succeeded kept (%+v)", len(got), got[0])
	}
	if got := tr.find("", CommandStatePending, 10); len(got) != 0 {
		t.Errorf("%d still pending", len(got))
	}
}
