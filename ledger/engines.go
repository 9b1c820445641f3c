package ledger

import (
	"strings"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Each node runs Daml on an engine of its own whose packages are exactly
// the ones the node stores (nodePackages): a package the node stored in an
// earlier process, or that a snapshot restored, is read back from the store
// the first time the engine asks for it. An engine shared by the process
// would see the packages other nodes — or an earlier node of the same
// test process — had handed it, and so hide a package the node never made
// available again after a restart (the engine would run it in a test and
// answer "unknown package" in a new process).
//
// Decoding stays shared: lf.DefaultCache keeps decoded packages by id, and
// a package id is the hash of the payload the node reads from its own
// store (decodedPackage), so the cache saves the decoding but cannot stand
// in for a stored package.
//
// Compiling is shared too: the engines of all nodes use one engine.Cache
// (processEngineCache, unless Options.EngineCache names another), so a
// definition is compiled, and a top-level value evaluated, once per
// process rather than once per node — a node opened per Daml Script or
// per test pays only for the definitions nobody used before. The cache
// does not share packages: a package id names one package (the archive's
// hash, checked on decoding), and an engine uses a compiled definition
// only once its own source, the node's store, has the definition's
// package; a node without it answers "unknown package" whatever other
// nodes have run.

// processEngineCache is the engine.Cache of the nodes whose
// Options.EngineCache is nil.
var processEngineCache = engine.NewCache()

// nodePackages is a node's engine.PackageSource: the packages the node
// stores.
type nodePackages struct{ n *Node }

// Package returns the stored package id, decoding it on first use, or nil
// when the node does not store it.
func (s nodePackages) Package(id string) *lf.Package { return s.n.cachedPackage(id) }

// newEngine returns the engine of a node (default options: Canton's step
// budget, no trace, on ledger), on the node's engine cache.
func newEngine(n *Node) *engine.Engine {
	c := n.opts.EngineCache
	if c == nil {
		c = processEngineCache
	}
	return engine.New(nodePackages{n}, engine.Options{Cache: c})
}

// cachedPackage returns a stored package, decoding it on first use; nil
// when the node does not store it (or its record cannot be read).
func (n *Node) cachedPackage(id string) *lf.Package {
	n.pkgCache.mu.Lock()
	p := n.pkgCache.pkgs[id]
	n.pkgCache.mu.Unlock()
	if p != nil {
		return p
	}
	// A miss may keep id (the package caches): a copy, as a lent read's
	// ids are its store's bytes (scanRawNames).
	id = strings.Clone(id)
	_ = n.st.View(func(r *store.Reader) error {
		ok, err := hasKey(r, store.PackageKey(id))
		if err != nil || !ok {
			return err
		}
		p, err = n.decodedPackage(r, id)
		return err
	})
	return p
}
