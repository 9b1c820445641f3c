package ledger

import (
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/tx"
)

// TestCommandTrackerSameCommandID: commands of one command id but
// different keys are tracked apart; a command registered again (its
// actAs parties the same set) replaces the earlier registration, whose
// outcome is then not recorded, wherever it is among those of its id.
func TestCommandTrackerSameCommandID(t *testing.T) {
	t.Parallel()
	var tr commandTracker
	clock := func() time.Time { return time.Unix(1, 0) }
	sub := func(user, submissionID string, actAs ...string) *submission {
		return &submission{c: &Commands{CommandID: "c", UserID: user, SubmissionID: submissionID, ActAs: actAs}}
	}
	ok := func(s *submission, offset int64) {
		e, err := &logEntry{Offset: offset}, error(nil)
		tr.done(clock, s, &e, &err)
	}
	a, b, c := sub("u", "", "p"), sub("v", "", "p"), sub("u", "s", "p", "q")
	d := sub("u", "", "p", "p")       // a's key
	e := sub("u", "s", "q", "p", "q") // c's key
	for _, s := range []*submission{a, b, c} {
		tr.track(clock(), s)
	}
	if got := tr.find("", CommandStatePending, 10); len(got) != 3 {
		t.Fatalf("%d pending, want 3", len(got))
	}
	tr.track(clock(), d)
	tr.track(clock(), e)
	if got, n := tr.find("", CommandStatePending, 10), tr.npending.Load(); len(got) != 3 || n != 3 {
		t.Fatalf("%d pending (npending %d), want 3", len(got), n)
	}
	// The transactions of replaced commands are not recorded either.
	tr.interpreted(a, &tx.Transaction{})
	ok(a, 1) // replaced by d
	ok(c, 2) // replaced by e
	if got := tr.find("", CommandStateSucceeded, 10); len(got) != 0 {
		t.Fatalf("replaced registrations recorded: %+v", got)
	}
	ok(e, 3)
	ok(b, 4)
	pending := tr.find("", CommandStatePending, 10)
	if len(pending) != 1 || pending[0].UserID != "u" || len(pending[0].ActAs) != 2 {
		t.Fatalf("pending %+v, want d's", pending)
	}
	ok(d, 5)
	var offsets []int64
	for _, s := range tr.find("", CommandStateUnspecified, 10) {
		offsets = append(offsets, s.Offset)
	}
	if len(offsets) != 3 || offsets[0] != 5 || offsets[1] != 4 || offsets[2] != 3 || tr.npending.Load() != 0 {
		t.Errorf("succeeded offsets %v (npending %d), want [5 4 3]", offsets, tr.npending.Load())
	}
}

// TestCommandTrackerUpdatesWhilePending: what a command's transaction
// does is listed once interpreted, while the command is pending, and
// after it finished.
func TestCommandTrackerUpdatesWhilePending(t *testing.T) {
	t.Parallel()
	var tr commandTracker
	clock := func() time.Time { return time.Unix(1, 0) }
	s := &submission{c: &Commands{CommandID: "c", UserID: "u", ActAs: []string{"p"}}}
	tr.track(clock(), s)
	if got := tr.find("", CommandStatePending, 10); len(got) != 1 || got[0].Updates.Created != nil || got[0].Updates.Exercised != 0 {
		t.Fatalf("before interpretation %+v", got)
	}
	txn := &tx.Transaction{Roots: []tx.NodeID{0, 1}, Nodes: []tx.Node{&tx.Create{ContractID: "c1"}, &tx.Fetch{}}}
	tr.interpreted(s, txn)
	for _, state := range []CommandState{CommandStatePending, CommandStateSucceeded} {
		if state == CommandStateSucceeded {
			e, err := &logEntry{Offset: 1}, error(nil)
			tr.done(clock, s, &e, &err)
		}
		got := tr.find("", state, 10)
		if len(got) != 1 || len(got[0].Updates.Created) != 1 || got[0].Updates.Created[0].ContractID != "c1" || got[0].Updates.Fetched != 1 {
			t.Errorf("%v: %+v", state, got)
		}
	}
}

// TestCommandTrackerInterpretedAgain: a submission's updates recorded a
// second time replace the first for later listings, and leave the first,
// which a listing may be reading, as they were.
func TestCommandTrackerInterpretedAgain(t *testing.T) {
	t.Parallel()
	var tr commandTracker
	clock := func() time.Time { return time.Unix(1, 0) }
	s := &submission{c: &Commands{CommandID: "c", UserID: "u", ActAs: []string{"p"}}}
	tr.track(clock(), s)
	tr.interpreted(s, &tx.Transaction{Roots: []tx.NodeID{0}, Nodes: []tx.Node{&tx.Create{ContractID: "c1"}}})
	first := tr.find("", CommandStatePending, 10)[0].Updates
	held := s.tracked.updates.Load()
	tr.interpreted(s, &tx.Transaction{Roots: []tx.NodeID{0, 1}, Nodes: []tx.Node{&tx.Create{ContractID: "c2"}, &tx.Create{ContractID: "c3"}}})
	if len(held.Created) != 1 || held.Created[0].ContractID != "c1" || len(first.Created) != 1 || first.Created[0].ContractID != "c1" {
		t.Errorf("the first updates changed: %+v (listed %+v)", held, first)
	}
	got := tr.find("", CommandStatePending, 10)[0].Updates
	if len(got.Created) != 2 || got.Created[0].ContractID != "c2" || got.Created[1].ContractID != "c3" {
		t.Errorf("the second updates: %+v", got)
	}
}
