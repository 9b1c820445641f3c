package ledger

import (
	"sync"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// The Daml engine the nodes of a process share. A package id is the hash
// of the package's content, so a definition compiled for one node is
// valid for every node that stores the package: submissions, prepared
// transactions, interface views and Daml Script submissions of every node
// run on one engine, and a package compiles once per process (a test
// suite opening a node per test, or the script runner a node per script,
// does not compile again). The engine only sees the packages some node of
// the process stores (registerPackages); a node only hands it commands
// and contracts of its own packages.

// processPackages holds every package a node of the process has stored,
// by id; packages are immutable and never dropped.
var processPackages sync.Map

// registerPackages makes packages available to the shared engine.
func registerPackages(pkgs []*lf.Package) {
	for _, p := range pkgs {
		processPackages.LoadOrStore(p.ID, p)
	}
}

// processSource is the shared engine's PackageSource.
type processSource struct{}

// Package returns a package some node stores, or nil.
func (processSource) Package(id string) *lf.Package {
	if v, ok := processPackages.Load(id); ok {
		return v.(*lf.Package)
	}
	return nil
}

// sharedEngine is the process's engine (default options: Canton's step
// budget, no trace, on ledger).
var sharedEngine = sync.OnceValue(func() *engine.Engine { return engine.New(processSource{}, engine.Options{}) })
