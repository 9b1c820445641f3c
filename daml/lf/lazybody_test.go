package lf

import (
	"reflect"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
)

// TestLazyBodiesMatchEager: for every value of every real package, the
// body decoded on demand (Body), and the one a BodyReader decodes, are
// the body the package's decoding decoded to validate it.
func TestLazyBodiesMatchEager(t *testing.T) {
	t.Parallel()
	pkgs := realPackages(t)
	values := 0
	for _, p := range pkgs {
		eager, _, err := decodePackageWith(p.ID, p.LanguageVersion, rawPackage(p.Payload), true)
		if err != nil {
			t.Fatalf("package %s: %v", p.ID, err)
		}
		r := p.NewBodyReader()
		for i, m := range p.Modules {
			for j, v := range m.Values {
				want := eager.Modules[i].Values[j].Body()
				if want == nil {
					t.Fatalf("%s:%s:%s: the eager decoding kept no body", p.ID, m.Name, v.Name)
				}
				if got := r.Body(v); !reflect.DeepEqual(got, want) {
					t.Errorf("%s:%s:%s: a BodyReader's body differs from the eager one", p.ID, m.Name, v.Name)
				}
				if v.body.Load() != nil {
					t.Fatalf("%s:%s:%s: the BodyReader kept the body in the package", p.ID, m.Name, v.Name)
				}
				if got := v.Body(); !reflect.DeepEqual(got, want) {
					t.Errorf("%s:%s:%s: the lazily decoded body differs from the eager one", p.ID, m.Name, v.Name)
				}
				values++
			}
		}
	}
	if values < 1000 {
		t.Errorf("compared %d values in %d packages, want the thousands of the real DARs", values, len(pkgs))
	}
}

// TestDecodedBodiesWaitForUse: a decoded package keeps no value body
// until one is asked for, then keeps that one only, the same at every
// call.
func TestDecodedBodiesWaitForUse(t *testing.T) {
	t.Parallel()
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kept := func() int {
		n := 0
		for _, p := range dar.Packages {
			for _, m := range p.Modules {
				for _, v := range m.Values {
					if v.body.Load() != nil {
						n++
					}
				}
			}
		}
		return n
	}
	if n := kept(); n != 0 {
		t.Fatalf("%d bodies decoded before any use", n)
	}
	v := dar.Main.Value("Canton.Internal.Ping", "$$$$sc_Ping_4")
	if v == nil {
		t.Fatal("no value $$$$sc_Ping_4")
	}
	first := v.Body()
	if first == nil {
		t.Fatal("no body")
	}
	if n := kept(); n != 1 {
		t.Errorf("%d bodies kept after one use, want 1", n)
	}
	if again := v.Body(); again != first {
		t.Error("a second Body call decoded the body again")
	}
}

// TestLazyBodiesConcurrent: goroutines asking for the same bodies at once
// all get the one body the package keeps (run with -race).
func TestLazyBodiesConcurrent(t *testing.T) {
	t.Parallel()
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var values []*DefValue
	for _, p := range dar.Packages {
		for _, m := range p.Modules {
			values = append(values, m.Values...)
		}
	}
	const workers = 4
	got := make([][]Expr, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			got[w] = make([]Expr, len(values))
			for i := range values {
				j := (i + w*len(values)/workers) % len(values) // each worker starts elsewhere
				got[w][j] = values[j].Body()
			}
		})
	}
	wg.Wait()
	for i, v := range values {
		for w := 1; w < workers; w++ {
			if got[w][i] != got[0][i] {
				t.Fatalf("value %s: worker %d got another body than worker 0", v.Name, w)
			}
		}
	}
}

// BenchmarkDecodedPackagesGC measures what the Ping DAR's decoded
// packages cost every garbage collection while they are loaded: the
// collector's CPU per cycle (gc-ms/cycle) and the live heap (heap-MB),
// with the value bodies decoded on demand (as packages are decoded) and,
// as the baseline, decoded with the package.
func BenchmarkDecodedPackagesGC(b *testing.B) {
	data := realDAR(b, "canton-builtin-admin-workflow-ping.dar")
	for _, eager := range []bool{false, true} {
		name := "lazy"
		if eager {
			name = "eager"
		}
		b.Run(name, func(b *testing.B) {
			dar, err := ReadDAR(data, ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			pkgs := dar.Packages
			if eager {
				for i, p := range pkgs {
					if pkgs[i], _, err = decodePackageWith(p.ID, p.LanguageVersion, rawPackage(p.Payload), true); err != nil {
						b.Fatal(err)
					}
				}
			}
			runtime.GC()
			s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
			metrics.Read(s)
			cpu0 := s[0].Value.Float64()
			for b.Loop() {
				runtime.GC()
			}
			metrics.Read(s)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric((s[0].Value.Float64()-cpu0)*1e3/float64(b.N), "gc-ms/cycle")
			b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-MB")
			runtime.KeepAlive(pkgs)
		})
	}
}
