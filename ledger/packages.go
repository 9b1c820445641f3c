package ledger

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/typecheck"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/vetting"
)

// UploadDARRequest stores a DAR's packages and, by default, vets them.
type UploadDARRequest struct {
	// DAR is the DAR file's bytes.
	DAR []byte
	// DontVet stores the packages without vetting them (the JSON API's
	// vetAllPackages=false; vetting is the default).
	DontVet bool
	// SynchronizerID is where the packages are vetted; empty means the only
	// connected synchronizer (with several it must be given).
	SynchronizerID string
}

// PackageArchive is a stored package: the Daml-LF ArchivePayload bytes and
// their hash (the package id).
type PackageArchive struct {
	Payload      []byte
	Hash         string
	HashFunction string
}

// UpdateVettedPackagesRequest changes the vetting state of a synchronizer.
type UpdateVettedPackagesRequest struct {
	// Changes are applied in order; at least one, each with an operation.
	Changes []vetting.Change
	// DryRun answers what the state would become and changes nothing.
	DryRun bool
	// SynchronizerID is the synchronizer; empty means the only one.
	SynchronizerID string
	// ExpectedSerial, when set, must match the current state's serial.
	ExpectedSerial vetting.SerialExpectation
	// Flags relax the checks (Canton's force flags).
	Flags vetting.Flags
}

// ListVettedPackagesRequest selects vetting states, one per synchronizer.
// Each filter list keeps what it names; an empty list keeps everything.
type ListVettedPackagesRequest struct {
	// PackageIDs and PackageNamePrefixes keep the packages whose id is
	// listed or whose name starts with a listed prefix.
	PackageIDs          []string
	PackageNamePrefixes []string
	// ParticipantIDs and SynchronizerIDs keep the states of the listed
	// participants and synchronizers.
	ParticipantIDs  []string
	SynchronizerIDs []string
	PageToken       string
	// PageSize bounds the number of states (0: 100; at most 100).
	PageSize int
}

// MaxVettedPackagesPageSize is the largest ListVettedPackages page.
const MaxVettedPackagesPageSize = 100

// packageRecord is a stored package; its payload is a blob.
type packageRecord struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	LFVersion  string `json:"lfVersion"`
	Size       int    `json:"size"`
	KnownSince string `json:"knownSince"`
}

// vettingRecord is the stored vetting state of a synchronizer.
type vettingRecord struct {
	Serial   int32                 `json:"serial"`
	Packages []vettedPackageRecord `json:"packages"`
}

type vettedPackageRecord struct {
	ID         string     `json:"id"`
	ValidFrom  *time.Time `json:"validFrom,omitempty"`
	ValidUntil *time.Time `json:"validUntil,omitempty"`
}

// packageCache holds decoded packages by id; packages are immutable, so
// entries never go stale.
type packageCache struct {
	mu   sync.Mutex
	pkgs map[string]*lf.Package
}

func (n *Node) readOptions() lf.ReadOptions {
	return lf.ReadOptions{AllowDevLF: n.opts.AllowDevLF,
		MaxEntrySize: n.opts.MaxDARUncompressedSize, MaxTotalSize: n.opts.MaxDARUncompressedSize,
		Cache: lf.DefaultCache}
}

// knownPackages returns every stored package, decoded (from the cache when
// possible), read from one snapshot.
func (n *Node) knownPackages(r *store.Reader) ([]*lf.Package, error) {
	var ids []string
	err := r.Scan([]byte(store.PrefixPackage), nil, func(k, _ []byte) (bool, error) {
		ids = append(ids, string(k[len(store.PrefixPackage):]))
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*lf.Package, 0, len(ids))
	for _, id := range ids {
		p, err := n.decodedPackage(r, id)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// decodedPackage returns a stored package, decoding its payload once per
// node. The payload is always read from the node's store: lf.DefaultCache
// (shared by the process) only saves decoding it again, so a package the
// store lost cannot be served from another node's memory.
func (n *Node) decodedPackage(r *store.Reader, id string) (*lf.Package, error) {
	c := &n.pkgCache
	c.mu.Lock()
	p := c.pkgs[id]
	c.mu.Unlock()
	if p != nil {
		return p, nil
	}
	payload, err := r.GetBlob(store.BlobPrefix("pkg", id))
	if err != nil {
		return nil, err
	}
	// Served from the cache without hashing the payload again when the
	// cached package id has these very bytes.
	p, err = lf.DefaultCache.DecodeStoredPayload(id, payload, lf.ReadOptions{AllowDevLF: true})
	if err == nil && p.ID != id {
		err = fmt.Errorf("its payload hashes to %s", p.ID)
	}
	if err != nil {
		err = damlError(err)
		return nil, apierr.InternalError.Wrap(err, "decoding stored package %s: %v", id, err)
	}
	n.cachePackages([]*lf.Package{p})
	return p, nil
}

// vettingSynchronizer resolves the synchronizer of a vetting change: the
// given one (which must be connected), or the only connected one.
func (n *Node) vettingSynchronizer(id string) (string, error) {
	if id == "" {
		if len(n.syncs) != 1 {
			return "", apierr.PackageServiceCannotAutodetectSynchronizer.New("the participant is connected to %d synchronizers; specify the synchronizer id", len(n.syncs))
		}
		return n.syncs[0], nil
	}
	if !slices.Contains(n.syncs, id) {
		return "", apierr.PackageServiceNotConnectedToSynchronizer.New("the participant is not connected to synchronizer %s", apierr.Quote(id)).
			WithResource("SYNCHRONIZER_ID", id)
	}
	return id, nil
}

func loadVetting(r interface{ Get([]byte) ([]byte, error) }, sync string) (vetting.State, error) {
	raw, err := r.Get(store.VettingKey(sync))
	if errors.Is(err, store.ErrNotFound) {
		return vetting.State{}, nil
	}
	if err != nil {
		return vetting.State{}, err
	}
	return decodeVetting(raw)
}

func vettingJSON(st vetting.State) []byte {
	rec := vettingRecord{Serial: st.Serial, Packages: []vettedPackageRecord{}}
	for _, p := range st.Packages {
		rec.Packages = append(rec.Packages, vettedPackageRecord{ID: p.PackageID, ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil})
	}
	return mustJSON(rec)
}

// vettedPackages renders a state for a synchronizer: its participant,
// synchronizer, and the names and versions of its packages.
func (n *Node) vettedPackages(sync string, st vetting.State, lookup func(string) *lf.Package) vetting.State {
	out := vetting.State{Packages: make([]vetting.VettedPackage, 0, len(st.Packages)), ParticipantID: n.participantID, SynchronizerID: sync, Serial: st.Serial}
	for _, v := range st.Packages {
		w := vetting.VettedPackage{PackageID: v.PackageID, ValidFrom: v.ValidFrom, ValidUntil: v.ValidUntil}
		if p := lookup(v.PackageID); p != nil {
			w.PackageName, w.PackageVersion = p.Name, p.Version
		}
		out.Packages = append(out.Packages, w)
	}
	return out
}

func lookupIn(pkgs []*lf.Package) func(string) *lf.Package {
	m := make(map[string]*lf.Package, len(pkgs))
	for _, p := range pkgs {
		m[p.ID] = p
	}
	return func(id string) *lf.Package { return m[id] }
}

// readDAR decodes a DAR and checks its LF versions and dependencies. A
// DAR this process has read and checked before under the same options is
// not inflated or decoded again (seenDARs).
func (n *Node) readDAR(data []byte) (*lf.DAR, error) {
	key := darKey{sum: sha256.Sum256(data), allowDev: n.opts.AllowDevLF, maxSize: n.opts.MaxDARUncompressedSize}
	if dar := seenDARs.get(key); dar != nil {
		return dar, nil
	}
	dar, err := lf.ReadDAR(data, n.readOptions())
	if err != nil {
		return nil, damlError(err)
	}
	if err := dar.CheckDependencies(); err != nil {
		return nil, damlError(err)
	}
	complete, err := n.typecheckDAR(dar)
	if err != nil {
		return nil, err
	}
	if complete {
		seenDARs.put(key, dar)
	}
	return dar, nil
}

// typecheckDAR runs Canton's package validator (daml/typecheck) on every
// package of the DAR that neither this process has checked before nor the
// node stores, as Canton validates the packages of a DAR it does not know
// yet, on validate and upload alike. A package id is the hash of the
// package, so a package checked once is checked for every node.
//
// A package the node stores is taken as it is, unchecked (a store written
// before the checker ran on upload may hold one that does not
// type-check): complete is false then, and the package is not recorded as
// checked, so that another node of the process, which does not store it,
// still checks it (and readDAR does not share the DAR as read and
// checked).
func (n *Node) typecheckDAR(dar *lf.DAR) (complete bool, err error) {
	stored := map[string]bool{}
	err = n.st.View(func(r *store.Reader) error {
		for _, p := range dar.Packages {
			if _, ok := checkedPackages.Load(p.ID); ok {
				continue
			}
			ok, err := hasKey(r, store.PackageKey(p.ID))
			if err != nil {
				return err
			}
			stored[p.ID] = ok
		}
		return nil
	})
	if err != nil {
		return false, storeErr(err)
	}
	err = typecheck.CheckDAR(dar, func(id string) bool {
		_, checked := checkedPackages.Load(id)
		// LF 2.dev packages (accepted with Options.AllowDevLF) may use
		// development builtins whose types the checker does not know.
		return checked || stored[id] || dar.Package(id).LanguageVersion.IsDev()
	})
	if err != nil {
		return false, damlError(err)
	}
	complete = true
	for _, p := range dar.Packages {
		if stored[p.ID] {
			complete = false
			continue
		}
		checkedPackages.Store(p.ID, struct{}{})
	}
	return complete, nil
}

// checkedPackages holds the ids of the packages the process type-checked
// (and of LF 2.dev packages, which are not checked).
var checkedPackages sync.Map

// seenDARs keeps the last DARs the process read and checked, shared by
// every node: a test suite that uploads the same DAR into a node per test
// pays for inflating, hashing and decoding it once. A decoded DAR is
// immutable (its packages are lf.DefaultCache's), so sharing it is safe.
var seenDARs = darCache{max: 16}

// darKey names a DAR read under the options that decide its reading.
type darKey struct {
	sum      [sha256.Size]byte
	allowDev bool
	maxSize  int64
}

type darCache struct {
	mu    sync.Mutex
	max   int
	dars  map[darKey]*lf.DAR
	order []darKey
}

func (c *darCache) get(k darKey) *lf.DAR {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dars[k]
}

func (c *darCache) put(k darKey, dar *lf.DAR) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dars == nil {
		c.dars = map[darKey]*lf.DAR{}
	}
	if _, ok := c.dars[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.dars, c.order[0])
		c.order = c.order[1:]
	}
	c.dars[k] = dar
	c.order = append(c.order, k)
}

// vetAll is the change set that vets every package of a DAR that is not
// vetted yet (vetted ones keep their bounds, so a re-upload changes
// nothing).
func vetAll(dar *lf.DAR, st vetting.State) []vetting.Change {
	c := vetting.Change{Op: vetting.Vet}
	for _, p := range dar.Packages {
		if !slices.ContainsFunc(st.Packages, func(v vetting.VettedPackage) bool { return v.PackageID == p.ID }) {
			c.Refs = append(c.Refs, vetting.Ref{PackageID: p.ID})
		}
	}
	if len(c.Refs) == 0 {
		return nil
	}
	return []vetting.Change{c}
}

// withDAR adds a DAR's packages to the known ones (without duplicates).
func withDAR(known []*lf.Package, dar *lf.DAR) []*lf.Package {
	out := slices.Clone(known)
	have := map[string]bool{}
	for _, p := range known {
		have[p.ID] = true
	}
	for _, p := range dar.Packages {
		if !have[p.ID] {
			out = append(out, p)
		}
	}
	return out
}

// ValidateDAR runs every check an upload with vetting runs — decoding,
// LF versions, DAR self-consistency, and the dependency and upgrade checks
// of vetting all its packages on the synchronizer — and stores nothing
// (ParticipantAdmin). dar is the DAR file's bytes. synchronizerID is where
// the upgrade checks look at the vetted packages; "" means the node's
// default synchronizer (validation has no side effects, so a default is
// safe even with several).
func (n *Node) ValidateDAR(ctx context.Context, dar []byte, synchronizerID string) error {
	if err := requireParticipantAdmin(ctx, "validating a DAR"); err != nil {
		return err
	}
	sync := synchronizerID
	if sync == "" {
		sync = n.syncs[0]
	}
	sync, err := n.vettingSynchronizer(sync)
	if err != nil {
		return err
	}
	d, err := n.readDAR(dar)
	if err != nil {
		return err
	}
	return n.checkVetAll(d, sync)
}

// checkVetAll runs the checks of vetting all of a DAR's packages on a
// synchronizer, on a snapshot, changing nothing.
func (n *Node) checkVetAll(dar *lf.DAR, sync string) error {
	err := n.st.View(func(r *store.Reader) error {
		known, err := n.knownPackages(r)
		if err != nil {
			return err
		}
		st, err := loadVetting(r, sync)
		if err != nil {
			return err
		}
		_, err = vetting.Apply(st, vetAll(dar, st), withDAR(known, dar), vetting.Flags{})
		return err
	})
	return storeErr(err)
}

// UploadDAR stores a DAR's packages (idempotently: uploading the same DAR
// again changes nothing) and, unless DontVet, vets all of them on the
// synchronizer. Every check of ValidateDAR runs first; a refused upload
// stores nothing (ParticipantAdmin).
func (n *Node) UploadDAR(ctx context.Context, req UploadDARRequest) error {
	if err := requireParticipantAdmin(ctx, "uploading a DAR"); err != nil {
		return err
	}
	sync := ""
	var err error
	switch {
	case !req.DontVet:
		sync, err = n.vettingSynchronizer(req.SynchronizerID)
	case req.SynchronizerID != "":
		sync, err = n.vettingSynchronizer(req.SynchronizerID)
	}
	if err != nil {
		return err
	}
	dar, err := n.readDAR(req.DAR)
	if err != nil {
		return err
	}
	if !req.DontVet {
		// Refuse what vetting would refuse before writing any payload.
		if err := n.checkVetAll(dar, sync); err != nil {
			return err
		}
	}
	// The payloads are written first, outside the committer; the commit
	// that records the packages checks they are there (a concurrent refused
	// upload of the same package may have removed them) and the upload is
	// tried again if not.
	for attempt := 0; ; attempt++ {
		written, err := n.writeMissingPayloads(dar)
		if err != nil {
			return err
		}
		err = n.commitUpload(dar, req.DontVet, sync)
		if errors.Is(err, errPayloadGone) && attempt < 3 {
			continue
		}
		if err != nil {
			n.dropPayloads(written)
			return storeErr(err)
		}
		// Only an accepted DAR's packages enter the decoded-package cache.
		n.cachePackages(dar.Packages)
		n.log.InfoContext(ctx, "DAR uploaded", "mainPackageId", dar.Main.ID, "name", dar.Main.Name,
			"version", dar.Main.Version, "packages", len(dar.Packages), "vetted", !req.DontVet)
		return nil
	}
}

var errPayloadGone = errors.New("ledger: a package payload was removed concurrently")

// writeMissingPayloads writes the payloads of the DAR's packages that the
// store has no record of, and returns their ids.
func (n *Node) writeMissingPayloads(dar *lf.DAR) ([]string, error) {
	var missing []string
	err := n.st.View(func(r *store.Reader) error {
		for _, p := range dar.Packages {
			ok, err := hasKey(r, store.PackageKey(p.ID))
			if err != nil {
				return err
			}
			if !ok {
				missing = append(missing, p.ID)
			}
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	for _, id := range missing {
		if err := n.st.PutBlob(store.BlobPrefix("pkg", id), dar.Package(id).Payload); err != nil {
			n.dropPayloads(missing)
			return nil, storeErr(err)
		}
	}
	return missing, nil
}

// commitUpload records the DAR's packages and vets them.
func (n *Node) commitUpload(dar *lf.DAR, dontVet bool, sync string) error {
	now := formatTime(n.now())
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		for _, p := range dar.Packages {
			ok, err := tx.Has(store.PackageKey(p.ID))
			if err != nil {
				return nil, err
			}
			if ok {
				continue
			}
			if ok, err := tx.HasBlob(store.BlobPrefix("pkg", p.ID)); err != nil || !ok {
				if err == nil {
					err = errPayloadGone
				}
				return nil, err
			}
			tx.Set(store.PackageKey(p.ID), mustJSON(packageRecord{ID: p.ID, Name: p.Name, Version: p.Version,
				LFVersion: p.LanguageVersion.String(), Size: len(p.Payload), KnownSince: now}))
			n.packagesChanged()
		}
		if dontVet {
			return nil, nil
		}
		known, err := n.knownPackages(&tx.Reader)
		if err != nil {
			return nil, err
		}
		st, err := loadVetting(tx, sync)
		if err != nil {
			return nil, err
		}
		changes := vetAll(dar, st)
		if changes == nil {
			return nil, nil
		}
		next, err := vetting.Apply(st, changes, withDAR(known, dar), vetting.Flags{})
		if err != nil {
			return nil, err
		}
		if next.Serial != st.Serial {
			tx.Set(store.VettingKey(sync), vettingJSON(next))
			n.packagesChanged()
		}
		return nil, nil
	})
	return err
}

// dropPayloads removes the payloads written for a refused upload, in the
// committer so that it is ordered with the commits recording packages: a
// payload that a package record refers to by then is kept.
func (n *Node) dropPayloads(ids []string) {
	if len(ids) == 0 {
		return
	}
	// SubmitFreeing: the upload may have been refused for want of disk
	// space, and its payloads must not stay.
	_, err := n.st.SubmitFreeing(func(tx *store.Tx) (any, error) {
		for _, id := range ids {
			ok, err := tx.Has(store.PackageKey(id))
			if err != nil {
				return nil, err
			}
			if !ok {
				if err := tx.DeleteBlobInTx(store.BlobPrefix("pkg", id)); err != nil {
					return nil, err
				}
			}
		}
		return nil, nil
	})
	if err != nil {
		n.log.Warn("ledger: removing the payloads of a refused upload", "packages", ids, "err", err)
	}
}

// cachePackages keeps decoded packages the node stores (after their
// upload committed, or as read back from the store).
func (n *Node) cachePackages(pkgs []*lf.Package) {
	c := &n.pkgCache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pkgs == nil {
		c.pkgs = map[string]*lf.Package{}
	}
	for _, p := range pkgs {
		if c.pkgs[p.ID] == nil {
			c.pkgs[p.ID] = p
		}
	}
}

func hasKey(r *store.Reader, key []byte) (bool, error) {
	_, err := r.Get(key)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// ListPackages returns the ids of every stored package (any authenticated
// caller).
func (n *Node) ListPackages(ctx context.Context) ([]string, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	ids := []string{}
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan([]byte(store.PrefixPackage), nil, func(k, _ []byte) (bool, error) {
			ids = append(ids, string(k[len(store.PrefixPackage):]))
			return true, nil
		})
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return ids, nil
}

func packageNotFound(id string) error {
	return apierr.PackageNotFound.New("Could not find package %s", apierr.Quote(id)).WithResource("PACKAGE", id)
}

// GetPackage returns a stored package's archive payload (any authenticated
// caller); PACKAGE_NOT_FOUND when it is not stored, INVALID_ARGUMENT when
// id is not a Daml-LF package id.
func (n *Node) GetPackage(ctx context.Context, id string) (PackageArchive, error) {
	if err := n.public(ctx); err != nil {
		return PackageArchive{}, err
	}
	if err := validPackageID(id); err != nil {
		return PackageArchive{}, err
	}
	var out PackageArchive
	err := n.st.View(func(r *store.Reader) error {
		if ok, err := hasKey(r, store.PackageKey(id)); err != nil || !ok {
			if err == nil {
				err = packageNotFound(id)
			}
			return err
		}
		payload, err := r.GetBlob(store.BlobPrefix("pkg", id))
		out = PackageArchive{Payload: payload, Hash: id, HashFunction: "SHA256"}
		return err
	})
	return out, storeErr(err)
}

// PackageStatus reports whether a package is stored (any authenticated
// caller; Canton's PACKAGE_STATUS_REGISTERED when true), and
// INVALID_ARGUMENT when id is not a Daml-LF package id.
func (n *Node) PackageStatus(ctx context.Context, id string) (registered bool, err error) {
	if err := n.public(ctx); err != nil {
		return false, err
	}
	if err := validPackageID(id); err != nil {
		return false, err
	}
	var ok bool
	err = n.st.View(func(r *store.Reader) (err error) { ok, err = hasKey(r, store.PackageKey(id)); return err })
	if err != nil {
		return false, storeErr(err)
	}
	return ok, nil
}

// UpdateVettedPackages applies a change set to the vetting state of a
// synchronizer (ParticipantAdmin): changes in order, with the dependency
// and upgrade checks of the resulting state; an expected serial that
// differs fails with TOPOLOGY_SERIAL_MISMATCH. It returns the state before
// (nil when there was none) and after. A dry run answers what the state
// would become and changes nothing; it fails exactly when the real call
// would.
func (n *Node) UpdateVettedPackages(ctx context.Context, req UpdateVettedPackagesRequest) (past *vetting.State, next vetting.State, err error) {
	if err := requireParticipantAdmin(ctx, "changing the vetted packages"); err != nil {
		return nil, vetting.State{}, err
	}
	sync, err := n.vettingSynchronizer(req.SynchronizerID)
	if err != nil {
		return nil, vetting.State{}, err
	}
	if err := vetting.CheckOperations(req.Changes); err != nil {
		return nil, vetting.State{}, err
	}
	run := func(tx *store.Tx) (any, error) {
		st, err := loadVetting(tx, sync)
		if err != nil {
			return nil, err
		}
		switch s := req.ExpectedSerial.(type) {
		case vetting.PriorSerial:
			if int32(s) != st.Serial || st.Serial == 0 {
				return nil, serialMismatch(sync, int32(s), st.Serial)
			}
		case vetting.NoPriorSerial:
			if st.Serial != 0 {
				return nil, apierr.TopologySerialMismatch.New("expected no prior vetting state on %s, found serial %d", sync, st.Serial)
			}
		}
		known, err := n.knownPackages(&tx.Reader)
		if err != nil {
			return nil, err
		}
		nst, err := vetting.Apply(st, req.Changes, known, req.Flags)
		if err != nil {
			return nil, err
		}
		lookup := lookupIn(known)
		res := [2]*vetting.State{}
		nv := n.vettedPackages(sync, nst, lookup)
		res[1] = &nv
		if st.Serial > 0 {
			pv := n.vettedPackages(sync, st, lookup)
			res[0] = &pv
		}
		if !req.DryRun && nst.Serial != st.Serial {
			tx.Set(store.VettingKey(sync), vettingJSON(nst))
			n.packagesChanged()
		}
		return res, nil
	}
	var v any
	if req.DryRun {
		// The same checks on a snapshot: nothing to commit.
		err = n.st.View(func(r *store.Reader) error {
			var err error
			v, err = run(store.ReadOnlyTx(r))
			return err
		})
	} else {
		v, err = n.st.Submit(run)
	}
	if err != nil {
		return nil, vetting.State{}, storeErr(err)
	}
	res := v.([2]*vetting.State)
	return res[0], *res[1], nil
}

func serialMismatch(sync string, want, got int32) error {
	return apierr.TopologySerialMismatch.New("the expected topology serial %d does not match the current serial %d of the vetted packages on %s", want, got, sync)
}

// ListVettedPackages returns a page of the vetting states that match the
// filters, one per synchronizer in id order, with the packages that match
// the package filter, and the next page's token ("" after the last page;
// any authenticated caller).
func (n *Node) ListVettedPackages(ctx context.Context, req ListVettedPackagesRequest) (states []vetting.State, nextPageToken string, err error) {
	if err := n.public(ctx); err != nil {
		return nil, "", err
	}
	size := req.PageSize
	switch {
	case size < 0 || size > MaxVettedPackagesPageSize:
		return nil, "", apierr.InvalidArgument.New("page size must be between 0 and %d", MaxVettedPackagesPageSize)
	case size == 0:
		size = MaxVettedPackagesPageSize
	}
	syncs := slices.Clone(n.syncs)
	slices.Sort(syncs)
	if len(req.ParticipantIDs) > 0 && !slices.Contains(req.ParticipantIDs, n.participantID) {
		syncs = nil
	}
	if len(req.SynchronizerIDs) > 0 {
		syncs = slices.DeleteFunc(syncs, func(s string) bool { return !slices.Contains(req.SynchronizerIDs, s) })
	}
	if req.PageToken != "" {
		if !slices.Contains(n.syncs, req.PageToken) {
			return nil, "", apierr.InvalidArgument.New("invalid page token %q", apierr.Quote(req.PageToken))
		}
		i, _ := slices.BinarySearch(syncs, req.PageToken)
		syncs = syncs[i:]
	}
	states = []vetting.State{}
	err = n.st.View(func(r *store.Reader) error {
		known, err := n.knownPackages(r)
		if err != nil {
			return err
		}
		lookup := lookupIn(known)
		for k, sync := range syncs {
			if k == size {
				nextPageToken = sync
				break
			}
			st, err := loadVetting(r, sync)
			if err != nil {
				return err
			}
			if st.Serial == 0 {
				continue
			}
			st.Packages = slices.DeleteFunc(st.Packages, func(v vetting.VettedPackage) bool {
				return !metadataMatches(&req, v.PackageID, lookup)
			})
			if len(st.Packages) == 0 {
				continue
			}
			states = append(states, n.vettedPackages(sync, st, lookup))
		}
		return nil
	})
	if err != nil {
		return nil, "", storeErr(err)
	}
	return states, nextPageToken, nil
}

func metadataMatches(f *ListVettedPackagesRequest, id string, lookup func(string) *lf.Package) bool {
	if len(f.PackageIDs) == 0 && len(f.PackageNamePrefixes) == 0 {
		return true
	}
	if slices.Contains(f.PackageIDs, id) {
		return true
	}
	if p := lookup(id); p != nil {
		for _, pre := range f.PackageNamePrefixes {
			if strings.HasPrefix(p.Name, pre) {
				return true
			}
		}
	}
	return false
}
