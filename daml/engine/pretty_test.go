package engine

import (
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
)

func TestPretty(t *testing.T) {
	for _, tt := range []struct {
		id   lf.TypeConID
		want string
	}{
		{lf.TypeConID{PackageID: "de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54", Module: "Canton.Internal.Ping", Name: "Ping"}, "Canton.Internal.Ping:Ping@de2cc2f9"},
		{lf.TypeConID{PackageID: "ab", Module: "M", Name: "T.U"}, "M:T.U@ab"},
	} {
		if got := pretty(tt.id); got != tt.want {
			t.Errorf("pretty(%v) = %q, want %q", tt.id, got, tt.want)
		}
	}
}
