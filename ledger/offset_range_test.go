package ledger_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestOffsetRangeThrough: a nil Through reads to the ledger end; an
// explicit 0 is refused, by a page and by a walk, with NON_POSITIVE_OFFSET
// naming the field of Canton's request (endOffsetInclusive, end_inclusive).
func TestOffsetRangeThrough(t *testing.T) {
	t.Parallel()
	f := newTypedFixture(t)
	ctx := context.Background()
	tf := ledger.ReadAs(f.alice, f.bob)
	typed := ledger.UpdateReadFormat{Transactions: &tf}
	for _, tc := range []struct {
		name    string
		after   int64
		through *int64
		want    int
	}{
		{"nil: the ledger end", 0, nil, 2},
		{"zero", 0, new(int64(0)), -1},
		{"zero after a begin", 1, new(int64(0)), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.node.UpdatesPage(ctx, typed, ledger.OffsetRange{After: tc.after, Through: tc.through}, nil, nil)
			if tc.want < 0 {
				// Canton's GetUpdatesPage and GetUpdates: the end must be
				// positive, whatever the begin.
				if codeOf(err) != apierr.NonPositiveOffset.Name || !strings.Contains(err.Error(), "Offset 0 in endOffsetInclusive is not a positive integer") {
					t.Fatalf("page %+v, %v; want NON_POSITIVE_OFFSET of endOffsetInclusive", p, err)
				}
				for _, err := range f.node.Updates(ctx, typed, ledger.OffsetRange{After: tc.after, Through: tc.through}) {
					if codeOf(err) != apierr.NonPositiveOffset.Name || !strings.Contains(err.Error(), "Offset 0 in end_inclusive is not a positive integer") {
						t.Errorf("walk: %v; want NON_POSITIVE_OFFSET of end_inclusive", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, len(p.Updates)); diff != "" {
				t.Errorf("updates (-want +got):\n%s", diff)
			}
			n := 0
			for _, err := range f.node.Updates(ctx, typed, ledger.OffsetRange{After: tc.after, Through: tc.through}) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != tc.want {
				t.Errorf("walk: %d updates, want %d", n, tc.want)
			}
		})
	}
}
