package lf

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realPackages decodes every real DAR of darDir (2.dev allowed, LF 1
// refused) and returns its packages, each once, by id.
func realPackages(tb testing.TB) map[string]*Package {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join(darDir, "*.dar"))
	if len(paths) == 0 {
		tb.Skipf("no real DARs in %s (the shared test data is not checked out next to this repository)", darDir)
	}
	pkgs := map[string]*Package{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		dar, err := ReadDAR(data, ReadOptions{AllowDevLF: true})
		if filepath.Base(path) == "dummy-1.15.dar" {
			if code(err) != "ALLOWED_LANGUAGE_VERSIONS" {
				tb.Fatalf("%s: %v, want ALLOWED_LANGUAGE_VERSIONS", path, err)
			}
			continue
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		for _, p := range dar.Packages {
			pkgs[p.ID] = p
		}
	}
	return pkgs
}

// kindCounts counts the distinct nodes of each Go type in the packages'
// expressions (shared singletons such as () count once).
func kindCounts(pkgs []*Package) map[string]int {
	counts := map[string]int{}
	for _, p := range pkgs {
		for _, e := range p.Exprs() {
			Inspect(e, func(n any) bool {
				counts[strings.TrimPrefix(fmt.Sprintf("%T", n), "*lf.")]++
				return true
			})
		}
	}
	return counts
}

func TestRealExprKinds(t *testing.T) {
	pkgs := realPackages(t)
	var all, splice []*Package
	for _, p := range pkgs {
		all = append(all, p)
		if strings.HasPrefix(p.Name, "splice-") {
			splice = append(splice, p)
		}
	}
	counts := kindCounts(all)
	var names []string
	for k := range counts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%-30s %d", k, counts[k])
	}
	sc := kindCounts(splice)
	t.Logf("splice: %d packages: %v", len(splice), sc)
}

// BenchmarkDecodeAmuletDAR decodes splice-amulet-0.1.8.dar with all its
// dependencies (every expression included) once per iteration.
func BenchmarkDecodeAmuletDAR(b *testing.B) {
	data := realDAR(b, "splice-amulet-0.1.8.dar")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDAR(data, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
