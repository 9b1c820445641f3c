package ledger_test

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestCollectorBadgerSize: ledgernode_badger_size_bytes reports, for a
// node on disk that has written something, the bytes its LSM tree and its
// value log take on disk (non-zero for both); for an in-memory node, 0.
func TestCollectorBadgerSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		inMemory bool
	}{
		{"on disk", false},
		{"in memory", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := ledger.Options{}
			if !tt.inMemory {
				opts.Dir = t.TempDir()
			}
			n := ledgertest.Open(t, opts)
			for i := range 20 {
				ledgertest.MustAllocate(t, n, fmt.Sprintf("p%d", i))
			}
			reg := prometheus.NewRegistry()
			reg.MustRegister(n.Collector())
			fams, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]float64{}
			for _, f := range fams {
				if f.GetName() != "ledgernode_badger_size_bytes" {
					continue
				}
				for _, m := range f.Metric {
					for _, l := range m.Label {
						if l.GetName() == "part" {
							got[l.GetValue()] = m.GetGauge().GetValue()
						}
					}
				}
			}
			if len(got) != 2 {
				t.Fatalf("ledgernode_badger_size_bytes by part: %v, want lsm and vlog", got)
			}
			for _, part := range []string{"lsm", "vlog"} {
				v, ok := got[part]
				switch {
				case !ok:
					t.Errorf("no ledgernode_badger_size_bytes{part=%q}", part)
				case tt.inMemory && v != 0:
					t.Errorf("ledgernode_badger_size_bytes{part=%q} = %v for an in-memory node, want 0", part, v)
				case !tt.inMemory && v <= 0:
					t.Errorf("ledgernode_badger_size_bytes{part=%q} = %v for a node on disk that wrote, want its size", part, v)
				}
			}
		})
	}
}
