package tx

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestRootSeeds: a builder given the root seeds of a transaction (as a
// prepared transaction's re-interpretation is) rebuilds the same seeds and
// contract ids whatever its transaction seed; a root fetch takes an index
// but no seed.
func TestRootSeeds(t *testing.T) {
	build := func(seed Hash, roots []Hash) *Transaction {
		b := NewBuilder(Config{ActAs: ps("alice"), TransactionSeed: seed, RootSeeds: roots, PreparationTime: 5})
		okC, okN := must[value.ContractID](t), must[NodeID](t)
		okC(b.Create(create("A", ps("alice"), nil)))
		okN(b.Fetch(fetch(ledgerCid(1), "L", ps("alice"), ps("alice"))))
		okC(b.Create(create("B", ps("alice"), nil)))
		r, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return r.Transaction
	}
	orig := build(Hash{1}, nil)
	if len(orig.NodeSeeds) != 2 {
		t.Fatalf("node seeds %v", orig.NodeSeeds)
	}
	roots := []Hash{orig.NodeSeeds[0].Seed, {}, orig.NodeSeeds[1].Seed}
	for _, tc := range []struct {
		name  string
		seed  Hash
		roots []Hash
		same  bool
	}{
		{"root seeds", Hash{2}, roots, true},
		{"derived from another transaction seed", Hash{2}, nil, false},
		{"fewer root seeds than roots", Hash{2}, roots[:1], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := build(tc.seed, tc.roots)
			same := cmp.Equal(orig.NodeSeeds, got.NodeSeeds) &&
				orig.Nodes[0].(*Create).ContractID == got.Nodes[0].(*Create).ContractID &&
				orig.Nodes[2].(*Create).ContractID == got.Nodes[2].(*Create).ContractID
			if same != tc.same {
				t.Errorf("same = %v, want %v (seeds %v, want %v)", same, tc.same, got.NodeSeeds, orig.NodeSeeds)
			}
		})
	}
}
