package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stubPackages is a readPackages that knows the names of packages only.
type stubPackages struct {
	readPackages
	names map[string]string
}

func (s stubPackages) pkgNameOf(id string) string { return s.names[id] }

func TestEventFilterTemplateWitnesses(t *testing.T) {
	t.Parallel()
	pk := stubPackages{names: map[string]string{"v1": "pkg", "v2": "pkg", "o1": "other"}}
	tests := []struct {
		name, filter, event, pkgName string
		want                         []string
	}{
		{"same id", "v1:M:T", "v1:M:T", "pkg", []string{"alice"}},
		{"other version of the package", "v1:M:T", "v2:M:T", "pkg", []string{"alice"}},
		{"by package name", "#pkg:M:T", "v2:M:T", "pkg", []string{"alice"}},
		{"other entity", "v1:M:T", "v1:M:U", "pkg", nil},
		{"other module", "v1:M:T", "v1:N:T", "pkg", nil},
		{"other package", "v1:M:T", "o1:M:T", "other", nil},
		{"other package name", "#pkg:M:T", "o1:M:T", "other", nil},
		{"filter id that does not split", "v1:M", "v1:M:T", "pkg", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ef := newSpecFilter(&eventSpec{ByParty: map[string][]filterSpec{
				"alice": {{Kind: specTemplate, ID: tt.filter}}}}, pk)
			got, m := ef.witnesses([]string{"alice", "bob"}, tt.event, tt.pkgName)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("witnesses (-want +got):\n%s", diff)
			}
			if m.ok != (tt.want != nil) {
				t.Errorf("match ok = %v, want %v", m.ok, tt.want != nil)
			}
		})
	}
}
