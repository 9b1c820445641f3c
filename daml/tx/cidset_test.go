package tx

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestCIDSet checks the small (list) and large (indexed) forms of cidSet
// against a map: membership, no duplicates, insertion order.
func TestCIDSet(t *testing.T) {
	for _, n := range []int{0, 1, cidSetListMax, cidSetListMax + 1, 3 * cidSetListMax} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var s cidSet
			ref := map[value.ContractID]bool{}
			var order []value.ContractID
			for i := range 2 * n {
				c := value.ContractID(fmt.Sprint("c", (i*7)%(n+1)))
				if !ref[c] {
					order = append(order, c)
				}
				ref[c] = true
				s.add(c)
			}
			if diff := cmp.Diff(order, s.list); diff != "" {
				t.Errorf("list (-want +got):\n%s", diff)
			}
			for i := range n + 3 {
				c := value.ContractID(fmt.Sprint("c", i))
				if s.has(c) != ref[c] {
					t.Errorf("has(%s) = %v, want %v", c, s.has(c), ref[c])
				}
			}
		})
	}
}

// TestSortedSets2 checks that sortedSets2 is sortedSet twice, and that
// its two results do not share room: appending to the first leaves the
// second as it was.
func TestSortedSets2(t *testing.T) {
	for _, tc := range []struct{ a, b []string }{
		{nil, nil},
		{[]string{"b", "a"}, nil},
		{nil, []string{"c"}},
		{[]string{"b", "a", "b"}, []string{"d", "c", "c", "a"}},
	} {
		x, y := sortedSets2(tc.a, tc.b)
		if diff := cmp.Diff(sortedSet(tc.a), x); diff != "" {
			t.Errorf("%v: first (-want +got):\n%s", tc.a, diff)
		}
		if diff := cmp.Diff(sortedSet(tc.b), y); diff != "" {
			t.Errorf("%v: second (-want +got):\n%s", tc.b, diff)
		}
		want := sortedSet(tc.b)
		_ = append(x, "zz", "zz", "zz")
		if diff := cmp.Diff(want, y); diff != "" {
			t.Errorf("appending to the first changed the second (-want +got):\n%s", diff)
		}
	}
}

// TestSigsAndStakeholders checks that sigsAndStakeholders is sortedSet
// and union as Create used them, and that its two results do not share
// room.
func TestSigsAndStakeholders(t *testing.T) {
	for _, tc := range []struct{ sigs, obs []string }{
		{nil, nil},
		{nil, []string{"c", "a", "c"}},
		{[]string{"b", "a"}, nil},
		{[]string{"b", "a", "b"}, []string{"d", "a", "c", "c"}},
		{[]string{"a"}, []string{"a"}},
	} {
		// Without a buffer, with one too short and with one long enough.
		for _, n := range []int{0, 2, 16} {
			sigs, stk := sigsAndStakeholders(make([]string, 0, n), tc.sigs, tc.obs)
			wantSigs := sortedSet(tc.sigs)
			wantStk := union(wantSigs, tc.obs)
			if diff := cmp.Diff(wantSigs, sigs); diff != "" {
				t.Errorf("%v %v: signatories (-want +got):\n%s", tc.sigs, tc.obs, diff)
			}
			if diff := cmp.Diff(wantStk, stk); diff != "" {
				t.Errorf("%v %v: stakeholders (-want +got):\n%s", tc.sigs, tc.obs, diff)
			}
			_ = append(sigs, "zz", "zz", "zz")
			if diff := cmp.Diff(wantStk, stk); diff != "" {
				t.Errorf("appending to the signatories changed the stakeholders (-want +got):\n%s", diff)
			}
		}
	}
}

// TestBuilderInit checks that a Builder initialized in place builds what
// NewBuilder's does, and that Init refuses a Builder in use.
func TestBuilderInit(t *testing.T) {
	cfg := Config{ActAs: ps("b", "a"), TransactionSeed: Hash{9}, PreparationTime: 5}
	build := func(b *Builder) *Result {
		if _, err := b.Create(create("T", ps("a"), ps("b"))); err != nil {
			t.Fatal(err)
		}
		res, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	var inPlace struct {
		other int
		b     Builder
	}
	inPlace.b.Init(cfg)
	if diff := cmp.Diff(build(NewBuilder(cfg)), build(&inPlace.b)); diff != "" {
		t.Errorf("(-NewBuilder +Init):\n%s", diff)
	}
	defer func() {
		if recover() == nil {
			t.Error("Init of a Builder in use did not panic")
		}
	}()
	inPlace.b.Init(cfg)
}
