package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// TestGetCallStackJetCollected makes DA.Stack's getCallStack jet, as
// every Daml Script runner's Override does once, and drops it: nothing
// global keeps it (nor the record types it caches) alive.
func TestGetCallStackJetCollected(t *testing.T) {
	var data []byte
	var err error
	for _, dir := range []string{"../../../shared/testdata/dars", "../../../../shared/testdata/dars"} {
		if data, err = os.ReadFile(filepath.Join(dir, "splice-amulet-test-0.1.8.dar")); err == nil {
			break
		}
	}
	if err != nil {
		t.Skipf("real DAR not found (%v): the shared test data is not checked out next to this repository", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var stdlib *lf.Package
	for _, p := range d.Packages {
		if p.Name == stdlibPackage {
			stdlib = p
		}
	}
	if stdlib == nil {
		t.Fatal("no daml-stdlib in the DAR")
	}
	collected := make(chan struct{}, 1)
	func() {
		v, ok := ScriptJet(stdlib, lf.TypeConID{PackageID: stdlib.ID, Module: stackModule, Name: "getCallStack"})
		if !ok {
			t.Fatal("no getCallStack jet")
		}
		// The jet's function, whatever its type: a pointer.
		fn := (*byte)(reflect.ValueOf(v.(*PAP).fn).UnsafePointer())
		runtime.AddCleanup(fn, func(ch chan struct{}) { ch <- struct{}{} }, collected)
	}()
	for range 20 {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Error("the getCallStack jet made and dropped is still reachable")
}
