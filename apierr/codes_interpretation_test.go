package apierr_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
)

// TestInterpretationCodeHelpers: InCategory keeps the name (errors.Is
// still matches), Valid accepts Canton's categories only, and Retry
// prefers a code's own delay to its category's.
func TestInterpretationCodeHelpers(t *testing.T) {
	e := apierr.DamlFailure.InCategory(apierr.InvalidIndependentOfSystemState).New("x")
	if !errors.Is(e, apierr.DamlFailure) || e.Category() != apierr.InvalidIndependentOfSystemState || e.HTTPStatus() != 400 {
		t.Errorf("DamlFailure in category 8 = %v (status %d)", e, e.HTTPStatus())
	}
	if apierr.DamlFailure.Category != apierr.InvalidGivenCurrentSystemStateOther {
		t.Errorf("InCategory changed the declared code")
	}
	var valid []apierr.Category
	for c := apierr.Category(-2); c <= 16; c++ {
		if c.Valid() {
			valid = append(valid, c)
		}
	}
	want := []apierr.Category{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
	if diff := cmp.Diff(want, valid); diff != "" {
		t.Errorf("valid categories (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		code apierr.Code
		want time.Duration
	}{
		{apierr.InterpretationTimeExceeded, time.Minute},
		{apierr.ConcurrentUserUpdate, time.Second},
		{apierr.InterpretationUserError, 0},
	} {
		if got := tc.code.New("x").Retry(); got != tc.want {
			t.Errorf("%s Retry = %v, want %v", tc.code.Name, got, tc.want)
		}
	}
}
