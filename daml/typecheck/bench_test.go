package typecheck

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// BenchmarkCheckAmulet type-checks every non-stable package of
// splice-amulet-0.1.8.dar (splice-amulet with its daml-prim, daml-stdlib
// and other dependencies), as a DAR upload does.
func BenchmarkCheckAmulet(b *testing.B) {
	dar := realDAR(b, "splice-amulet-0.1.8.dar", lf.ReadOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckDAR(dar, nil); err != nil {
			b.Fatal(err)
		}
	}
}
