package tx

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestRandomBuilds drives Builders with random valid operation sequences
// (creates, fetches, exercises, nested tries ended or rolled back) and
// checks the invariants of what Finish returns: a well-formed, already
// normalized transaction with pre-order ids and seeds, the contract ids
// derived from the seeds, authorization that the whole-transaction check
// agrees with, and effects that agree with the Builder's contract state.
func TestRandomBuilds(t *testing.T) {
	parties := ps("a", "b", "c", "d")
	const prep = value.Timestamp(42)
	var aborted, rollbacks, consumed int // the paths the runs covered
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		b := NewBuilder(Config{ActAs: ps("a", "b"), TransactionSeed: Hash{byte(seed)}, PreparationTime: prep})
		pool := []value.ContractID{ledgerCid(1), ledgerCid(2), ledgerCid(3)}
		subsetOf := func(set []string) []string {
			var out []string
			for _, p := range set {
				if r.IntN(2) == 0 {
					out = append(out, p)
				}
			}
			if len(out) == 0 {
				out = []string{set[r.IntN(len(set))]}
			}
			return out
		}
		// A contract's metadata as the engine would recompute it: some
		// current authorizer among its signatories.
		meta := func() (sigs, stk []string) {
			sigs = union(subsetOf(b.Authorizers()))
			return sigs, union(sigs, subsetOf(parties))
		}
		active := func() []value.ContractID {
			var out []value.ContractID
			for _, c := range pool {
				if st, _ := b.Status(c); st == StatusActive || st == StatusUnknown {
					out = append(out, c)
				}
			}
			return out
		}
		var open []bool // true: exercise, false: try
		for step := 0; step < 40 || len(open) > 0; step++ {
			op := r.IntN(7)
			if step >= 40 {
				op = 4 // close everything
			}
			switch op {
			case 0:
				cid, err := b.Create(create("T", subsetOf(b.Authorizers()), subsetOf(parties)))
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				pool = append(pool, cid)
			case 1:
				if cs := active(); len(cs) > 0 {
					sigs, stk := meta()
					if _, err := b.Fetch(fetch(cs[r.IntN(len(cs))], "T", sigs, stk)); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
				}
			case 2:
				if cs := active(); len(cs) > 0 && len(open) < 5 {
					sigs, stk := meta()
					in := exercise(cs[r.IntN(len(cs))], "T", "Ch", r.IntN(2) == 0, subsetOf(b.Authorizers()), sigs, stk)
					in.ChoiceObservers = subsetOf(parties)
					if _, err := b.BeginExercise(in); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					open = append(open, true)
				}
			case 3:
				if len(open) < 5 {
					b.BeginTry()
					open = append(open, false)
				}
			case 4, 5, 6:
				if len(open) == 0 {
					continue
				}
				var err error
				if try := innermostTry(open); open[len(open)-1] && try >= 0 && r.IntN(3) == 0 {
					// An exception unwinds the exercises above the innermost
					// try, which RollbackTry aborts.
					err = b.RollbackTry()
					open = open[:try]
				} else if open[len(open)-1] {
					_, err = b.EndExercise(value.Unit{})
					open = open[:len(open)-1]
				} else if r.IntN(2) == 0 {
					err = b.EndTry()
					open = open[:len(open)-1]
				} else {
					err = b.RollbackTry()
					open = open[:len(open)-1]
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		}
		res, err := b.Finish()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		tr := res.Transaction
		if err := tr.WellFormed(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var ids []NodeID
		var seeded []NodeID
		for id, n := range tr.All() {
			ids = append(ids, id)
			switch n := n.(type) {
			case *Create:
				seeded = append(seeded, id)
			case *Exercise:
				seeded = append(seeded, id)
				if n.Result == nil {
					aborted++
				}
			case *Rollback:
				rollbacks++
				if len(n.Children) == 0 {
					t.Fatalf("seed %d: empty rollback %d", seed, id)
				}
				_, first := tr.Node(n.Children[0]).(*Rollback)
				_, last := tr.Node(n.Children[len(n.Children)-1]).(*Rollback)
				if first || last {
					t.Fatalf("seed %d: rollback %d not normalized", seed, id)
				}
			}
		}
		if len(ids) != len(tr.Nodes) || !slices.IsSorted(ids) || (len(ids) > 0 && (ids[0] != 0 || ids[len(ids)-1] != NodeID(len(ids)-1))) {
			t.Fatalf("seed %d: ids not pre-order from 0: %v", seed, ids)
		}
		var seedIDs []NodeID
		for _, s := range tr.NodeSeeds {
			seedIDs = append(seedIDs, s.Node)
			if c, ok := tr.Node(s.Node).(*Create); ok {
				if want := LocalContractID(Discriminator(s.Seed, prep, c.Stakeholders)); c.ContractID != want {
					t.Fatalf("seed %d: node %d id %s, want %s", seed, s.Node, c.ContractID, want)
				}
			}
		}
		if !cmp.Equal(seedIDs, seeded) {
			t.Fatalf("seed %d: seeds on %v, want %v", seed, seedIDs, seeded)
		}
		if diff := cmp.Diff(tr, tr.Normalize()); diff != "" {
			t.Fatalf("seed %d: normalizing again changes it:\n%s", seed, diff)
		}
		if err := Authorize(tr, ps("a", "b")); err != nil {
			t.Fatalf("seed %d: Authorize: %v", seed, err)
		}
		for _, c := range res.Effects.Created {
			if st, _ := b.Status(c); st != StatusActive {
				t.Fatalf("seed %d: created %s has status %v", seed, c, st)
			}
		}
		for _, c := range append(slices.Clone(res.Effects.Archived), res.Effects.Transient...) {
			if st, nid := b.Status(c); st != StatusConsumed {
				t.Fatalf("seed %d: consumed %s has status %v %d", seed, c, st, nid)
			}
		}
		if !cmp.Equal(sortedCids(res.Effects.Inputs), sortedCids(b.Inputs())) {
			t.Fatalf("seed %d: inputs %v, builder %v", seed, res.Effects.Inputs, b.Inputs())
		}
		consumed += len(res.Effects.Archived) + len(res.Effects.Transient)
	}
	if aborted == 0 || rollbacks == 0 || consumed == 0 {
		t.Errorf("the runs missed a path: %d aborted exercises, %d rollbacks, %d consumed", aborted, rollbacks, consumed)
	}
}

func sortedCids(cs []value.ContractID) []value.ContractID {
	out := slices.Clone(cs)
	slices.Sort(out)
	return out
}

// innermostTry returns the index of the last try in open, or -1.
func innermostTry(open []bool) int {
	for i := len(open) - 1; i >= 0; i-- {
		if !open[i] {
			return i
		}
	}
	return -1
}
