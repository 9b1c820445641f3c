package value

import "testing"

// TestKnownPartiesCheckLikeValidParty: a knownParties answers as
// validParty does, for parties it remembers, invalid ones and the empty
// string after any number of valid ones (its ring wraps around).
func TestKnownPartiesCheckLikeValidParty(t *testing.T) {
	t.Parallel()
	var k knownParties
	parties := []string{"alice::1220ab", "bob::1220cd", "", "not a party", "carol", "dave", "erin", "frank", "alice::1220ab", "a:b", "x\x00y"}
	for round := range 300 { // past the ring's uint8 counter
		for _, s := range parties {
			if got, want := knownValidParty(&k, s), validParty(s); got != want {
				t.Fatalf("round %d: validParty(%q) = %q, want %q", round, s, got, want)
			}
		}
	}
}

// knownValidParty is k's validPartyAt without the index.
func knownValidParty(k *knownParties, s string) string {
	msg, _ := k.validPartyAt(s)
	return msg
}
