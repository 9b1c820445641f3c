package ledger

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestWitnessesRuns: witnesses returns the selected candidates in order
// for every subset of four candidates (a run of them shared, capacity
// capped, so that appending to it leaves the candidates as they were; any
// other subset in a slice of its own), nil for none.
func TestWitnessesRuns(t *testing.T) {
	t.Parallel()
	parties := []string{"a", "b", "c", "d"}
	for mask := range 1 << len(parties) {
		spec := &eventSpec{ByParty: map[string][]filterSpec{}}
		var want []string
		for i, p := range parties {
			if mask&(1<<i) != 0 {
				spec.ByParty[p] = nil // every template
				want = append(want, p)
			} else {
				spec.ByParty[p] = []filterSpec{{Kind: specTemplate, ID: "x:M:Other"}}
			}
		}
		t.Run(fmt.Sprintf("%04b", mask), func(t *testing.T) {
			candidates := slices.Clone(parties)
			got, m := newSpecFilter(spec, nil).witnesses(candidates, "x:M:T", "pkg")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("witnesses (-want +got):\n%s", diff)
			}
			if m.ok != (want != nil) {
				t.Errorf("match ok = %v", m.ok)
			}
			if cap(got) > len(got) && &got[:1][0] == &candidates[slices.Index(candidates, got[0])] {
				t.Errorf("a run of the candidates has room to grow into them (len %d, cap %d)", len(got), cap(got))
			}
			_ = append(got, "z")
			if !slices.Equal(candidates, parties) {
				t.Errorf("appending to the witnesses changed the candidates: %v", candidates)
			}
		})
	}
}

// TestCreateStakeholders: a create's stakeholders are the union of its
// signatories and observers, the signatories themselves (capped) only
// when they already are that union.
func TestCreateStakeholders(t *testing.T) {
	t.Parallel()
	for _, n := range []txNode{
		{Signatories: []string{"a"}},
		{Signatories: []string{"a", "b"}},
		{Signatories: []string{"b", "a"}},
		{Signatories: []string{"a", "a"}},
		{Signatories: []string{"a"}, Observers: []string{"b"}},
		{Signatories: []string{"b"}, Observers: []string{"a", "b"}},
		{},
	} {
		got := n.stakeholders()
		if want := union(n.Signatories, n.Observers); !slices.Equal(got, want) {
			t.Errorf("stakeholders(%v, %v) = %v, want %v", n.Signatories, n.Observers, got, want)
		}
		if len(got) > 0 && &got[0] == &n.Signatories[0] && cap(got) != len(got) {
			t.Errorf("stakeholders(%v) has room to grow (cap %d)", n.Signatories, cap(got))
		}
	}
}

// TestRendererSlabs: the events and transactions a renderer hands out are
// distinct and zeroed, and a transaction's events end at their length, so
// that appending to one does not write over the next one's.
func TestRendererSlabs(t *testing.T) {
	t.Parallel()
	r := &typedRenderer{}
	seen := map[*update.CreatedEvent]bool{}
	var lists, wants [][]update.Event
	for i := range 200 {
		c := r.createdSlab.new()
		if seen[c] || c.ContractID != "" {
			t.Fatalf("event %d: handed out twice or not zero", i)
		}
		seen[c] = true
		c.ContractID = "x"
		n := 1 + i%3
		events := r.eventsFor(n)
		for range i % (n + 1) { // sometimes none, then not kept
			events = append(events, r.createdSlab.new())
		}
		if len(events) == 0 {
			continue
		}
		events = r.keepEvents(events, n)
		if cap(events) != len(events) {
			t.Fatalf("events %d: cap %d, len %d", i, cap(events), len(events))
		}
		lists, wants = append(lists, events), append(wants, slices.Clone(events))
	}
	for i := range lists {
		if !slices.Equal(lists[i], wants[i]) {
			t.Fatalf("events %d were written over", i)
		}
	}
	big := r.eventsFor(10 * slabChunk)
	if cap(big) != 10*slabChunk {
		t.Errorf("eventsFor(%d) has cap %d", 10*slabChunk, cap(big))
	}
}

// TestBinaryListsShared: the lists of an entry with few list strings,
// carved out of one slice, decode as they were written and end at their
// length (appending to one leaves the next as it was); an entry with more
// has lists of their own, decoded the same.
func TestBinaryListsShared(t *testing.T) {
	t.Parallel()
	for _, nodes := range []int{1, 3, sharedLists} {
		e := pingEntry()
		for i := 1; i < nodes; i++ {
			n := e.Nodes[0]
			n.ID = int32(i)
			e.Nodes = append(e.Nodes, n)
		}
		var got logEntry
		if err := decodeLogEntryWith(e.encode(), &got, &internTable{}); err != nil {
			t.Fatal(err)
		}
		for i := range got.Nodes {
			n, want := &got.Nodes[i], &e.Nodes[i]
			if !slices.Equal(n.Signatories, want.Signatories) || !slices.Equal(n.Observers, want.Observers) {
				t.Fatalf("%d nodes: node %d has %v %v, want %v %v", nodes, i, n.Signatories, n.Observers, want.Signatories, want.Observers)
			}
			if cap(n.Signatories) != len(n.Signatories) || cap(n.Observers) != len(n.Observers) {
				t.Errorf("%d nodes: node %d's lists have room to grow", nodes, i)
			}
			_ = append(n.Signatories, "x")
		}
		for i := range got.Nodes {
			if !slices.Equal(got.Nodes[i].Observers, e.Nodes[i].Observers) {
				t.Fatalf("%d nodes: appending to a node's signatories wrote over observers: %v", nodes, got.Nodes[i].Observers)
			}
		}
		if !slices.Equal(got.ActAs, e.ActAs) {
			t.Errorf("%d nodes: act as %v, want %v", nodes, got.ActAs, e.ActAs)
		}
	}
}

// TestBinaryCreatedAtShared: a create's time that is its entry's
// effective time decodes as that same string; another decodes as written.
func TestBinaryCreatedAtShared(t *testing.T) {
	t.Parallel()
	e := pingEntry()
	other := e.Nodes[0]
	other.ID, other.CreatedAt = 1, "2026-11-24T00:00:01Z"
	e.Nodes = append(e.Nodes, other)
	var got logEntry
	if err := decodeLogEntryWith(e.encode(), &got, &internTable{}); err != nil {
		t.Fatal(err)
	}
	if got.Nodes[0].CreatedAt != e.EffectiveAt || unsafe.StringData(got.Nodes[0].CreatedAt) != unsafe.StringData(got.EffectiveAt) {
		t.Errorf("created at %q is not the effective time %q itself", got.Nodes[0].CreatedAt, got.EffectiveAt)
	}
	if got.Nodes[1].CreatedAt != other.CreatedAt {
		t.Errorf("created at %q, want %q", got.Nodes[1].CreatedAt, other.CreatedAt)
	}
}
