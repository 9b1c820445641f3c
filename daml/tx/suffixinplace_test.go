package tx

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSuffixInPlaceAfterIsSuffixed checks SuffixInPlaceAfter against
// Suffixed on random transactions, with UnicumOfBytes for UnicumOf: the
// same transaction, the prefix at the start of the string it returns, and
// on an error the input left as it was.
func TestSuffixInPlaceAfterIsSuffixed(t *testing.T) {
	unicum := func(n NodeID, c *Create) Hash { return UnicumOf("upd-"+string(c.ContractID[:6]), n) }
	unicumBytes := func(n NodeID, c *Create) Hash { return UnicumOfBytes([]byte("upd-"+string(c.ContractID[:6])), n) }
	prefix := []byte("prefix:")
	for seed := range uint64(300) {
		for i, in := range []*Transaction{randTx(rand.New(rand.NewPCG(seed, 11))), pingCreateTx(t), pingRespondTx(t), proposeAccept(t), {}} {
			want, wantErr := in.Suffixed(unicum)
			before := fmt.Sprintf("%#v", in)
			all, err := in.SuffixInPlaceAfter(prefix[:len(prefix):len(prefix)], unicumBytes)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("seed %d tx %d: SuffixInPlaceAfter error %v, Suffixed's %v", seed, i, err, wantErr)
			}
			if err != nil {
				if after := fmt.Sprintf("%#v", in); after != before {
					t.Fatalf("seed %d tx %d: a failed SuffixInPlaceAfter modified its input", seed, i)
				}
				continue
			}
			if d := cmp.Diff(want, in); d != "" {
				t.Fatalf("seed %d tx %d: SuffixInPlaceAfter (-Suffixed +got):\n%s", seed, i, d)
			}
			if len(all) < len(prefix) || all[:len(prefix)] != string(prefix) {
				t.Fatalf("seed %d tx %d: SuffixInPlaceAfter returned %q, not after the prefix", seed, i, all)
			}
		}
	}
}
