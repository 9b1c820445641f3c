package tx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestInitActAsSet: Init takes actAs as a set (sorted, without
// duplicates) whether it fits the Builder's own buffer or not, and an
// authorization error holds a copy of the authorizers, not the Builder's.
func TestInitActAsSet(t *testing.T) {
	for _, tc := range []struct{ actAs, want []string }{
		{nil, nil},
		{ps("bob", "alice"), ps("alice", "bob")},
		{ps("bob", "bob"), ps("bob")},
		{ps("carol", "alice", "bob", "alice"), ps("alice", "bob", "carol")},
	} {
		given := slices.Clone(tc.actAs)
		b := newBuilder(tc.actAs...)
		if got := b.Authorizers(); !slices.Equal(got, tc.want) {
			t.Errorf("actAs %v: Authorizers() = %v, want %v", given, got, tc.want)
		}
		if !slices.Equal(tc.actAs, given) {
			t.Errorf("actAs %v changed to %v", given, tc.actAs)
		}
		_, err := b.Create(create("A", ps("dave"), nil))
		var ae *AuthorizationError
		if !errors.As(err, &ae) || !slices.Equal(ae.Authorizers, tc.want) {
			t.Fatalf("actAs %v: create without authority: %v", given, err)
		}
		if len(ae.Authorizers) > 0 {
			ae.Authorizers[0] = "zed"
			if got := b.Authorizers(); !slices.Equal(got, tc.want) {
				t.Errorf("actAs %v: the error's authorizers are the Builder's: Authorizers() = %v", given, got)
			}
		}
	}
}

// TestRootCreatesEffects: the effects of a transaction of root creates
// (rootCreates) are what the walks give: the contracts, in order,
// duplicates kept, in the buffer when they fit, else in an array of
// their own; ConsumedBy is empty, not nil.
func TestRootCreatesEffects(t *testing.T) {
	c1, c2, c3 := ledgerCid(1), ledgerCid(2), ledgerCid(3)
	tr := &Transaction{Nodes: []Node{&Create{ContractID: c1}, &Create{ContractID: c2}, &Create{ContractID: c3}, &Create{ContractID: c1}}, Roots: []NodeID{2, 0, 1, 3}}
	want := Effects{Created: []value.ContractID{c3, c1, c2, c1}, ConsumedBy: map[value.ContractID]NodeID{}}
	for _, n := range []int{0, 2, 4, 8} {
		buf := make([]value.ContractID, n)
		got := tr.effectsIn(buf)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("buffer of %d: effects (-want +got):\n%s", n, diff)
		}
		if inBuf := n > 0 && &got.Created[0] == &buf[0]; inBuf != (n >= len(want.Created)) {
			t.Errorf("buffer of %d: Created in the buffer = %v", n, inBuf)
		}
		if cap(got.Created) != len(got.Created) {
			t.Errorf("buffer of %d: Created not clipped", n)
		}
	}
	// A root out of range or another node: the walks decide.
	for _, bad := range []*Transaction{
		{Nodes: []Node{&Create{ContractID: c1}}, Roots: []NodeID{0, 1}},
		{Nodes: []Node{&Create{ContractID: c1}, &Fetch{ContractID: c2}}, Roots: []NodeID{0, 1}},
		{},
	} {
		if _, ok := bad.rootCreates(nil); ok {
			t.Errorf("rootCreates of %v: true", bad)
		}
	}
}

// TestDerivationsBeyondStackBuffers: the seed and discriminator
// derivations over data longer than their stack buffers (newHMACInput's
// data grown on the heap) are still the HMACs of the data.
func TestDerivationsBeyondStackBuffers(t *testing.T) {
	var seed Hash
	for i := range seed {
		seed[i] = byte(3 * i)
	}
	const time = value.Timestamp(1_700_000_000_000_000)
	pid := strings.Repeat("participant::1220", 20)
	enc := func(s string) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(s))), s...) }
	if got, want := TransactionSeed(seed, pid, time), hmacRef(seed, enc(pid), binary.BigEndian.AppendUint64(nil, uint64(time))); got != want {
		t.Errorf("TransactionSeed = %s, want %s", got, want)
	}
	var parties []string
	data := [][]byte{binary.BigEndian.AppendUint64(nil, uint64(time)), binary.BigEndian.AppendUint32(nil, 12)}
	for i := range 12 {
		p := fmt.Sprintf("party%02d::1220%064x", i, i)
		parties = append(parties, p)
		data = append(data, enc(p))
	}
	if got, want := Discriminator(seed, time, parties), hmacRef(seed, data...); got != want {
		t.Errorf("Discriminator = %s, want %s", got, want)
	}
}
