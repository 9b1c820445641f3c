package ledger

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Commands run through the Daml engine (daml/engine) on a read snapshot,
// on the submitter's goroutine: submissions are interpreted in parallel,
// and the committer only re-checks what may have changed since the
// snapshot (deduplication, that every input contract is still active,
// that the packages used are still vetted) before it writes.

// failedToDetermineLedgerTime is Canton's rejection when the ledger time
// retries run out (category 2, retryable).
var failedToDetermineLedgerTime = apierr.Code{Name: "FAILED_TO_DETERMINE_LEDGER_TIME", Category: apierr.ContentionOnSharedResources}

// The node's synchronizers run Canton 3.5's default protocol version 35,
// whose contract-state mode is NUCK (Canton's
// community/base/src/main/scala/com/digitalasset/canton/version/InterpretationConfig.scala,
// forProtocolVersion): a try may not roll back a create or a consuming
// exercise (DAML_EFFECTFUL_ROLLBACK_ERROR).

// rollbackMode is the contract-state mode of an interpretation (Canton's
// NextGenContractStateMachine.Mode: NUCK or NoKey).
type rollbackMode bool

const (
	// nuckMode is protocol version 35's: a try may not roll back a create
	// or a consuming exercise. Every Ledger API submission runs in it.
	nuckMode rollbackMode = true
	// ideMode lets a try roll back anything, as the IDE ledger of `daml
	// test` does (Daml Script submissions, on request).
	ideMode rollbackMode = false
)

// ledgerTimeRecordTimeTolerance is Canton's default bound on |ledger time
// − record time| (60 s), which also bounds an interpretation.
const ledgerTimeRecordTimeTolerance = 60 * time.Second

// maxLedgerTimeRetries bounds the re-interpretations when an input
// contract was created after the chosen ledger time (Canton's
// LedgerTimeAwareCommandExecutor, in community/ledger/ledger-api-core,
// platform/apiserver/execution).
const maxLedgerTimeRetries = 3

// engine returns the Daml engine a package view's submissions run on: the
// node's own (engines.go), which sees every package the node stores.
func (v *pkgView) engine() *engine.Engine { return v.eng }

// snapshotPkgView returns the package view of a synchronizer for an
// interpretation outside the committer: the cached view when it is
// current, else one read from the snapshot (not cached: only the
// committer fills the cache, see loadPkgView).
func (n *Node) snapshotPkgView(tx *store.Tx, sync string) (*pkgView, error) {
	if v, _ := n.views.current(sync); v != nil {
		return v, nil
	}
	return n.readPkgView(tx, sync)
}

// interpreted is a submission interpreted on a snapshot, ready for the
// committer: the entry to append (its offset and record time are set at
// commit) and the contracts it creates, uses and archives.
type interpreted struct {
	entry *logEntry
	view  *pkgView
	// created are the contracts that stay active, transient those
	// created and archived by the transaction, archived the input
	// contracts it archives (ids; nil when none), inputs every ledger
	// contract it used.
	created, transient []*txNode
	// createdJSON are the created nodes encoded ahead.
	createdJSON []json.RawMessage
	inputs      []string
	archived    map[string]bool
	// packages are the package ids of the templates of its events.
	packages []string
	// tx is the engine's transaction with its committed contract ids.
	tx *tx.Transaction
	// let is the ledger effective time.
	let time.Time
	// fresh are local contract ids no committed contract may have as its
	// prefix (an executed prepared transaction, whose ids are fixed by its
	// node seeds, must not commit twice).
	fresh []string
	// oneCreated, oneCreatedJSON and onePackage hold created,
	// createdJSON and packages while they have one element (a create's),
	// allocated with the interpreted (committable).
	oneCreated     [1]*txNode
	oneCreatedJSON [1]json.RawMessage
	onePackage     [1]string
	// commit is commitInterpreted's operation while it commits.
	commit commitOp
}

// interpretWith runs a submission's commands, as build makes them,
// through the engine on a read snapshot (in the submission's
// contract-state mode) and prepares what the committer writes. Nothing
// is written. now is the node's time (n.now) and mono the system
// clock's reading with it (nowMono).
func (n *Node) interpretWith(ctx context.Context, s *submission, build buildCommands, now, mono time.Time) (*interpreted, error) {
	let, err := ledgerTime(s.c, now)
	if err != nil {
		return nil, err
	}
	// Canton aborts an interpretation that runs past the ledger time plus the
	// ledger-time tolerance on the participant's clock
	// (StoreBackedCommandInterpreter, InterpretationTimeExceeded): the
	// deadline is that instant, read on the node's clock (static or not).
	wall := mono.Add(let.Add(ledgerTimeRecordTimeTolerance).Sub(now))
	// A caller's deadline before it (an HTTP request's, say) ends the
	// interpretation first: context.WithDeadlineCause would only derive a
	// cancelable child of ctx, which ends as ctx does, with its error and
	// cause; ctx serves as it is, saving the child and its registration.
	if d, ok := ctx.Deadline(); !ok || !d.Before(wall) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, wall, &interpretationDeadline{let: let, tolerance: ledgerTimeRecordTimeTolerance})
		defer cancel()
	}
	var out *interpreted
	err = n.st.ViewTx(func(t *store.Tx) (err error) {
		// A duplicate is refused rather than whatever its interpretation
		// says (the original may have archived the contracts it uses):
		// checked here only when the interpretation fails, since the
		// committer checks every submission that reaches it.
		defer func() {
			if err != nil {
				if dup := n.checkDuplicate(t, s, now); dup != nil {
					err = dup
				}
			}
		}()
		run, err := n.runOnSnapshot(ctx, t, s, let, build)
		if err != nil {
			return err
		}
		// Routing (Canton's order: after interpretation): the actAs
		// parties and the informees must be known, in this snapshot.
		if err := n.checkPartiesKnown(t, s.c.ActAs, run.res.Transaction); err != nil {
			return err
		}
		// Nothing reads run.res afterwards: its transaction is suffixed
		// in place.
		out, err = n.committableOf(run.res, true, run.pkgs, s, run.let, run.seed)
		return err
	})
	// Its Tx serves a later ViewTx: the submission keeps nothing of it.
	s.contracts = snapshotContracts{}
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

// engineRun is one interpretation of a submission on a read snapshot:
// the engine's result, the package view it ran on, the ledger and
// preparation times it ended with and its submission seed.
type engineRun struct {
	res       *engine.Result
	pkgs      *pkgView
	let, prep time.Time
	seed      [32]byte
}

// buildCommands turns a submission's commands into the engine's update
// values, for a package view and preference.
type buildCommands func(s *submission, eng *engine.Engine, pkgs *pkgView, pref map[string]string) ([]engine.Value, error)

// runOnSnapshot interprets a submission on the read snapshot t: the
// synchronizer's package view and the submission's package preference, the
// commands build makes and its disclosed contracts, a fresh submission
// seed, from ledger time let (the preparation time too), with the
// ledger-time retries of Canton's LedgerTimeAwareCommandExecutor. The run
// holds the engine's result, the ledger time of the transaction and the
// preparation time its contract ids were derived with.
func (n *Node) runOnSnapshot(ctx context.Context, t *store.Tx, s *submission, let time.Time, build buildCommands) (engineRun, error) {
	c, sync := s.c, s.sync
	pkgs, err := n.snapshotPkgView(t, sync)
	if err != nil {
		return engineRun{}, err
	}
	pref, err := pkgs.preference(c.PackageIDSelectionPreference)
	if err != nil {
		return engineRun{}, err
	}
	eng := pkgs.engine()
	cmds, err := build(s, eng, pkgs, pref)
	if err != nil {
		return engineRun{}, err
	}
	disclosed, err := s.disclosedSet("")
	if err != nil {
		return engineRun{}, err
	}
	run := engineRun{pkgs: pkgs, let: let, prep: let}
	rand.Read(run.seed[:])
	actAs, readers := s.actAs(), s.readers()
	for attempt := 0; ; attempt++ {
		// The submission's own (no allocation per run): nothing keeps it
		// beyond the run, which the submission outlives.
		src := &s.contracts
		*src = snapshotContracts{tx: t, pkgs: pkgs, sync: sync, readers: readers, disclosed: disclosed}
		started := time.Now()
		res, err := eng.Submit(ctx, engine.Submission{ActAs: actAs, LedgerTime: engine.Timestamp(run.let.UnixMicro()),
			PreparationTime: engine.Timestamp(run.prep.UnixMicro()), Contracts: src, SubmissionSeed: run.seed,
			ParticipantID: n.participantID, ForbidEffectfulRollback: s.mode == nuckMode, Preference: pref}, cmds...)
		n.met.observeInterpretation(time.Since(started))
		if err != nil {
			return engineRun{}, engineError(ctx, err)
		}
		// An input contract created after the ledger time
		// (LedgerTimeAwareCommandExecutor): a transaction that did not read the
		// time moves its ledger time; one that did is interpreted again at that
		// time.
		if src.maxCreated.After(run.let) {
			if res.TimeBounds.Constrained() {
				if attempt+1 >= maxLedgerTimeRetries {
					return engineRun{}, failedToDetermineLedgerTime.New("Could not find a suitable ledger time after %d attempts", maxLedgerTimeRetries)
				}
				run.let, run.prep = src.maxCreated, src.maxCreated
				continue
			}
			run.let = src.maxCreated
		}
		run.res = res
		return run, nil
	}
}

// ledgerTime is the ledger effective time of a submission (Canton's
// CommandsValidator.validateLedgerTime): now, or max(now, MinLedgerTime),
// or now + MinLedgerTimeRel (the two are exclusive: checkSubmission, or
// prepare's one-of); Canton's times have microsecond precision. One after
// Daml's last timestamp is INVALID_ARGUMENT, as there.
func ledgerTime(c *Commands, now time.Time) (time.Time, error) {
	let := now.Truncate(time.Microsecond)
	switch {
	case !c.MinLedgerTime.IsZero():
		if t := c.MinLedgerTime.UTC().Truncate(time.Microsecond); t.After(let) {
			let = t
		}
	case c.MinLedgerTimeRel < 0:
		return time.Time{}, errNegativeMinLedgerTimeRel
	case c.MinLedgerTimeRel > 0:
		let = let.Add(c.MinLedgerTimeRel).Truncate(time.Microsecond)
	}
	if let.After(lastTimestamp) {
		// A ledger time that is no Daml timestamp: a transaction
		// committed at it could not be read back.
		return time.Time{}, apierr.InvalidArgument.New("Can not represent command ledger time %s as a Daml timestamp", formatTime(let))
	}
	return let, nil
}

// newestVetted maps every package name vetted on the synchronizer to its
// newest vetted version (Canton's topology-aware package selection on a
// single participant, after TopologyAwareCommandExecutor), computed once
// per view.
func (v *pkgView) newestVetted() map[string]string {
	v.prefOnce.Do(func() {
		best := map[string]*lf.Package{}
		for pid := range v.vetted {
			p := v.byID[pid]
			if p == nil {
				continue
			}
			if b := best[p.Name]; b == nil || lf.CompareVersions(p.Version, b.Version) > 0 {
				best[p.Name] = p
			}
		}
		v.pref = make(map[string]string, len(best))
		for name, p := range best {
			v.pref[name] = p.ID
		}
	})
	return v.pref
}

// preference returns a submission's package preference: the newest
// vetted version of every package name, overridden by
// packageIdSelectionPreference, whose ids must name known packages, two
// of the same name being refused.
func (v *pkgView) preference(ids []string) (map[string]string, error) {
	if len(ids) == 0 {
		return v.newestVetted(), nil
	}
	out := maps.Clone(v.newestVetted())
	seen := map[string]string{}
	for _, id := range ids {
		p := v.byID[id]
		if p == nil {
			return nil, apierr.PackageNotFound.New("Package %s of the package id selection preference is not known", apierr.Quote(id)).WithResource("PACKAGE", id)
		}
		if !v.vetted[id] {
			// The preference restricts the vetted candidates; one it
			// cannot honour fails the submission (Canton's topology-aware
			// package selection).
			return nil, apierr.PackageSelectionFailed.New("No synchronizers satisfy the topology requirements for the submitted command: package %s (%s %s) of the package id selection preference is not vetted",
				apierr.Quote(id), p.Name, p.Version)
		}
		if prev, ok := seen[p.Name]; ok && prev != id {
			return nil, apierr.InvalidArgument.New("package_id_selection_preference: packages %s and %s have the same name %s", prev, id, apierr.Quote(p.Name))
		}
		seen[p.Name], out[p.Name] = id, id
	}
	return out, nil
}

// resolvedEntity is a command's template or interface.
type resolvedEntity struct {
	pkg   *lf.Package
	id    lf.TypeConID
	tmpl  *lf.Template  // nil for an interface
	iface *lf.Interface // nil for a template
}

// resolveIdentifier resolves a split template or interface reference (a
// value: the callers keep it on their stack): its
// parts must be valid; a package id must be known and vetted on the
// synchronizer; a #package-name resolves to the preferred package of that
// name, else to the newest vetted version.
//
// path names the reference in errors (built only for one).
func (v *pkgView) resolveIdentifier(id lf.Identifier, path func() string, pref map[string]string, interfaces bool) (resolvedEntity, error) {
	if err := id.Validate(); err != nil {
		return resolvedEntity{}, pathErr(apierr.InvalidField, path(), "%v", err)
	}
	var pkg *lf.Package
	if id.ByName() {
		if pid, ok := pref[id.PackageName]; ok && v.vetted[pid] {
			pkg = v.byID[pid]
		}
		if pkg == nil {
			pkg = v.byID[v.newestVetted()[id.PackageName]]
		}
		if pkg == nil {
			return resolvedEntity{}, apierr.PackageNamesNotFound.New("The following package names do not match upgradable packages vetted on the synchronizer: %s", apierr.Quote(id.PackageName)).
				WithResource("PACKAGE_NAME", id.PackageName)
		}
	} else {
		pkg = v.byID[id.PackageID]
		if pkg == nil || !v.vetted[id.PackageID] {
			return resolvedEntity{}, apierr.PackageNotFound.New("Package %s is not known or not vetted on the synchronizer", apierr.Quote(id.PackageID)).WithResource("PACKAGE", id.PackageID)
		}
	}
	tc := lf.TypeConID{PackageID: pkg.ID, Module: id.Module, Name: id.Entity}
	if t := pkg.Template(id.Module, id.Entity); t != nil {
		return resolvedEntity{pkg: pkg, id: tc, tmpl: t}, nil
	}
	if interfaces {
		if i := pkg.Interface(id.Module, id.Entity); i != nil {
			return resolvedEntity{pkg: pkg, id: tc, iface: i}, nil
		}
	}
	return resolvedEntity{}, apierr.TemplatesOrInterfacesNotFound.New("The following templates or interfaces were not found: %s", apierr.Quote(tc.String())).
		WithResource("TEMPLATE_ID", tc.String())
}

// engineError maps an interpretation error: an *apierr.Error the
// contract store raised (e.g. CONTRACT_NOT_ACTIVE for a contract in
// transit) comes back as it is, the rest through interpretationError.
func engineError(ctx context.Context, err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	return interpretationError(ctx, err)
}

// snapshotContracts is the engine's ContractStore over a read snapshot:
// the contracts that are active on the synchronizer and visible to one of
// the submission's readers (actAs ∪ readAs parties are stakeholders).
type snapshotContracts struct {
	tx      *store.Tx
	pkgs    *pkgView
	sync    string
	readers []string
	// disclosed are the submission's disclosed contracts: usable whoever
	// the readers are, once they match the stored contract.
	disclosed map[string]*tx.ContractBlob
	// anyReader lifts the visibility rule (execute: the prepared
	// transaction lists its input contracts in full).
	anyReader bool
	// maxCreated is the latest creation time of the contracts handed
	// out.
	maxCreated time.Time
}

// Contract returns a ledger contract for the engine: nil, nil when it is
// unknown, archived or not visible; CONTRACT_NOT_ACTIVE when it is in
// transit or on another synchronizer.
func (s *snapshotContracts) Contract(_ context.Context, id engine.ContractID) (*engine.Contract, error) {
	cid := string(id)
	rec, err := sharedRecordAt(s.tx, cid) // shared: read only
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	disclosed := s.disclosed[cid]
	switch {
	case rec.State == contractArchived:
		return nil, nil
	case disclosed == nil && !s.anyReader && !rec.Create.seenBy(s.readers):
		return nil, nil
	case rec.State == contractUnassigned || rec.SynchronizerID != s.sync:
		return nil, apierr.ContractNotActive.New("Contract %s is not active on synchronizer %s", apierr.Quote(cid), s.sync).WithResource("CONTRACT_ID", cid)
	}
	if disclosed != nil {
		if err := s.pkgs.matchesDisclosed(disclosed, &rec.Create); err != nil {
			return nil, err
		}
	}
	if at, err := time.Parse(time.RFC3339Nano, rec.Create.CreatedAt); err == nil && at.After(s.maxCreated) {
		s.maxCreated = at
	}
	// The engine converts the contract to its own values at once
	// (fromLedgerValue) and keeps nothing of it but the key: it may share
	// the cache's values.
	return memoContract(s.pkgs.lookup, &rec.Create)
}

// engineContract converts a stored create node to the engine's Contract,
// the caller's own (storedContract).
func (v *pkgView) engineContract(c *txNode) (*engine.Contract, error) {
	return storedContract(v.lookup, c)
}

// storedContract converts a stored create node to the engine's Contract:
// its argument and key typed against its template (every record field
// present, as stored). The argument is decoded once and then copied from
// the cache of decoded arguments (contract_cache.go): the contract is the
// caller's, who may change it.
func storedContract(lookup func(string) *lf.Package, c *txNode) (*engine.Contract, error) {
	ec, err := sharedContract(lookup, c)
	if err != nil {
		return nil, err
	}
	ec.Arg = value.Clone(ec.Arg)
	ec.Signatories = slices.Clone(ec.Signatories)
	ec.Stakeholders = slices.Clone(ec.Stakeholders)
	if ec.Key != nil {
		ec.Key.Maintainers = slices.Clone(ec.Key.Maintainers)
	}
	return ec, nil
}

// sharedContract is storedContract without the copies: the contract's
// argument is the cache's and its signatories, stakeholders and key
// maintainers the stored node's (shared, contract_cache.go), so the
// caller must not change them; it is for callers that convert the contract at once, such
// as the engine (whose fromLedgerValue copies the values into its own),
// and spares them copying every argument they read.
func sharedContract(lookup func(string) *lf.Package, c *txNode) (*engine.Contract, error) {
	ec, _, err := sharedContractMemo(lookup, c)
	return ec, err
}

// memoContract is sharedContract for the engine: the contract carries
// the memo of its shared argument's conversion to engine values
// (engine.ArgMemo, kept with the argument in the cache of decoded
// arguments), so that the engines convert it once and not at every
// submission that uses the contract.
func memoContract(lookup func(string) *lf.Package, c *txNode) (*engine.Contract, error) {
	ec, memo, err := sharedContractMemo(lookup, c)
	if err != nil {
		return nil, err
	}
	ec.Memo = memo
	return ec, nil
}

// sharedContractMemo is sharedContract that also returns the memo kept
// with the shared argument (nil when the argument is not kept).
func sharedContractMemo(lookup func(string) *lf.Package, c *txNode) (*engine.Contract, *engine.ArgMemo, error) {
	tc, err := splitTypeCon(c.TemplateID)
	if err != nil {
		return nil, nil, fmt.Errorf("stored contract %s: template id %q: %w", c.ContractID, c.TemplateID, err)
	}
	arg, memo, err := storedArgs.decodeSharedMemo(c.TemplateID, c.Argument, lookup(tc.PackageID), func() (value.Value, error) {
		return value.FromJSON(c.Argument, value.TypeOf(tc.PackageID, tc.Module, tc.Name), lookup)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("stored contract %s: %w", c.ContractID, err)
	}
	key, err := storedKey(lookup, c, tc)
	if err != nil {
		return nil, nil, fmt.Errorf("stored contract %s: key: %w", c.ContractID, err)
	}
	return &engine.Contract{ID: engine.ContractID(c.ContractID), TemplateID: tc, Arg: arg,
		Signatories: c.Signatories, Stakeholders: c.stakeholders(), Key: key}, memo, nil
}

// seenBy reports whether one of parties is a stakeholder of the node:
// intersects(n.stakeholders(), parties), without building the union.
func (n *txNode) seenBy(parties []string) bool {
	if n.Exercise {
		return intersects(n.Stakeholders, parties)
	}
	return intersects(n.Signatories, parties) || intersects(n.Observers, parties)
}

func intersects(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// committable turns the engine's result into what the committer writes:
// the contract ids suffixed, the log entry with its event nodes rendered
// once in the form the readers need, and the effects on the contract
// store.
func (n *Node) committable(res *engine.Result, pkgs *pkgView, s *submission, let time.Time, seed [32]byte) (*interpreted, error) {
	return n.committableOf(res, false, pkgs, s, let, seed)
}

// committableOf is committable; with owned, the caller drops res once it
// returns, so the transaction is suffixed in place rather than copied.
func (n *Node) committableOf(res *engine.Result, owned bool, pkgs *pkgView, s *submission, let time.Time, seed [32]byte) (*interpreted, error) {
	c, sync := s.c, s.sync
	t := res.Transaction
	var at, updateID string
	var err error
	if owned {
		at, updateID, err = n.committableIDs(s, let, seed, t)
	} else if at, updateID, err = n.committableIDs(s, let, seed, nil); err == nil {
		t, err = t.Suffixed(func(node tx.NodeID, _ *tx.Create) tx.Hash { return tx.UnicumOf(updateID, node) })
	}
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "suffixing the transaction's contract ids")
	}
	n.tracker.interpreted(s, t) // command_status.go
	// The interpreted, its entry and the node of a one-node transaction
	// (a create command's) are one allocation: the submission drops them
	// together (a deferred entry's render keeps the entry, and with it
	// the rest, until its first read).
	var out *interpreted
	var e *logEntry
	var nodesBuf []txNode
	var jsonBuf []byte // for the nodes' JSON (encodeNodesWith)
	var actAsBuf []string
	switch {
	case len(t.Nodes) == 1 && !n.st.RendersLazily() && s.mode != ideMode:
		// With room for the node's JSON, when it fits: the entry
		// holds it (its node's values refer to it) and nothing keeps
		// it longer (the records and the index copy it; only an
		// overlay store's decoded records, on every path that commits,
		// and the seeded arguments of ideMode would).
		x := &struct {
			it    interpreted
			e     logEntry
			nodes [1]txNode
			actAs [1]string
			json  [oneNodeJSON]byte
		}{}
		out, e, nodesBuf, jsonBuf, actAsBuf = &x.it, &x.e, x.nodes[:], x.json[:0], x.actAs[:]
	case len(t.Nodes) == 1:
		x := &struct {
			it    interpreted
			e     logEntry
			nodes [1]txNode
		}{}
		out, e, nodesBuf = &x.it, &x.e, x.nodes[:]
	default:
		out, e = new(interpreted), new(logEntry)
	}
	// e is new, all zero: its members are set one by one (a literal
	// assigned to *e would be built whole, then copied).
	e.Kind, e.CommandID, e.WorkflowID, e.EffectiveAt = kindTransaction, c.CommandID, c.WorkflowID, at
	e.SynchronizerID, e.UserID, e.ActAs, e.SubmissionID = sync, c.UserID, s.entryActAs(actAsBuf), c.SubmissionID
	// Looked at once here, off the committer's loop, for its two writes
	// (the entry's and the created contracts' records).
	e.syncPlain = syncIsPlain(sync)
	e.UpdateID, e.ownIDs = updateID, true
	r := pkgs.valueRenderer()
	var deferred *deferredEvents
	if s.deferJSON {
		deferred = &deferredEvents{pkgs: pkgs, tx: t, createdAt: at}
	}
	nodes, err := pkgs.eventNodesInto(nodesBuf, r, t, at, s.mode == ideMode, deferred)
	if err != nil {
		pkgs.putRenderer(r)
		return nil, err
	}
	e.Nodes = nodes
	// What the committer writes is prepared here, on the submitter's
	// goroutine: the nodes' JSON (one array, whose elements are the
	// created contracts' create nodes in their records) and the entry's
	// readers. The nodes' values, rendered into r's buffer, then refer to
	// the array's bytes (encodeNodes), so that r's buffer serves the next
	// submission. With deferred, nothing is encoded: the nodes keep r's
	// buffer, which r gives up, and the exercises' values and the
	// contract records wait for their readers (deferred.go).
	var nodesJSON json.RawMessage
	var ends []int
	var endsBuf [4]int // ends are used below only
	if deferred != nil {
		r.buf = nil
		e.deferred = deferred
	} else {
		nodesJSON, ends, e.rawsStored, e.nodesPlain = encodeNodesWith(e.Nodes, endsBuf[:0], true, jsonBuf, &r.plains)
		e.nodesAhead = true
	}
	pkgs.putRenderer(r)
	if e.readers = e.createReaders(t); e.readers == nil {
		e.readers = e.parties()
	}
	// The engine's effects, of the transaction before its ids were
	// suffixed: its inputs and archived contracts are not created by it,
	// so suffixing left them as they were (WithSuffixes maps only the
	// created ids).
	eff := &res.Effects
	out.entry, out.view, out.tx, out.let = e, pkgs, t, let // out is new, all zero
	out.created, out.createdJSON, out.packages = out.oneCreated[:0], out.oneCreatedJSON[:0], out.onePackage[:0]
	if len(eff.Archived) > 0 {
		out.archived = make(map[string]bool, len(eff.Archived))
	}
	for _, cid := range eff.Inputs {
		out.inputs = append(out.inputs, string(cid))
	}
	for _, cid := range eff.Archived {
		out.archived[string(cid)] = true
	}
	// Every template and interface package the transaction used must be
	// vetted (fetches and key queries included); the committer re-checks
	// them when the vetting changed since.
	use := func(pid string) {
		if !slices.Contains(out.packages, pid) {
			out.packages = append(out.packages, pid)
		}
	}
	for _, nd := range t.Nodes {
		switch x := nd.(type) {
		case *tx.Create:
			use(x.TemplateID.PackageID)
		case *tx.Exercise:
			use(x.TemplateID.PackageID)
			if x.InterfaceID != nil {
				use(x.InterfaceID.PackageID)
			}
		case *tx.Fetch:
			use(x.TemplateID.PackageID)
			if x.InterfaceID != nil {
				use(x.InterfaceID.PackageID)
			}
		case *tx.QueryByKey:
			use(x.TemplateID.PackageID)
		}
	}
	for _, pid := range out.packages {
		if !pkgs.vetted[pid] {
			return nil, apierr.PackageNotFound.New("Package %s used by the transaction is not vetted on the synchronizer", apierr.Quote(pid)).WithResource("PACKAGE", pid)
		}
	}
	for i := range e.Nodes {
		nd := &e.Nodes[i]
		if nd.Exercise {
			continue
		}
		if nd.Transient {
			out.transient = append(out.transient, nd)
		} else {
			out.created = append(out.created, nd)
			if deferred == nil {
				start := 1 // after '['
				if i > 0 {
					start = ends[i-1] + 1 // after ','
				}
				out.createdJSON = append(out.createdJSON, nodesJSON[start:ends[i]:ends[i]])
			}
		}
	}
	return out, nil
}

// plainSync is the last synchronizer id syncIsPlain found
// jsontext.HTMLPlain: a node's submissions name one or a few, and a
// comparison with it costs less than the look at each.
var plainSync atomic.Pointer[string]

// syncIsPlain is jsontext.HTMLPlain(sync), sync compared with plainSync
// first.
func syncIsPlain(sync string) bool {
	if p := plainSync.Load(); p != nil && *p == sync {
		return true
	}
	if !jsontext.HTMLPlain(sync) {
		return false
	}
	p := new(string) // here only: &sync would take sync to the heap at every call
	*p = sync
	plainSync.Store(p)
	return true
}

// createReaders returns e.parties() without building it when e's only
// node is the create of a contract whose witnesses are its stakeholders
// (a create command's transaction, t): the stakeholders of t's Create
// node, when they are the sorted set of the node's signatories and
// observers that parties() would build. Else it returns nil.
func (e *logEntry) createReaders(t *tx.Transaction) []string {
	if len(e.Nodes) != 1 || e.Reassign != nil || len(e.Topology) != 0 {
		return nil
	}
	n := &e.Nodes[0]
	if n.Exercise || !n.Engine || n.Witnesses != nil || n.ID < 0 || int(n.ID) >= len(t.Nodes) {
		return nil
	}
	c, ok := t.Nodes[n.ID].(*tx.Create)
	if !ok || len(c.Stakeholders) == 0 || !strictlySorted(c.Stakeholders) {
		return nil
	}
	// The stakeholders are the merge of the node's signatories and
	// observers (sorted sets too), a party in both listed once: each is
	// the next of either, and both are used up.
	sigs, obs := n.Signatories, n.Observers
	if !strictlySorted(sigs) || !strictlySorted(obs) {
		return nil
	}
	i, j := 0, 0
	for _, p := range c.Stakeholders {
		next := false
		if i < len(sigs) && sigs[i] == p {
			i, next = i+1, true
		}
		if j < len(obs) && obs[j] == p {
			j, next = j+1, true
		}
		if !next {
			return nil
		}
	}
	if i != len(sigs) || j != len(obs) {
		return nil
	}
	return c.Stakeholders
}

// eventNodes renders the transaction's events (Create and Exercise nodes
// outside Rollbacks, as Canton's
// TransactionTraversalUtils.executionOrderTraversalForIngestion indexes
// them) as stored nodes: node ids, witnesses, last descendants and the
// ACS-delta flags are Canton's; values are Daml JSON of their LF types.
//
// With seed (a Daml Script's submission, whose contracts the script's
// queries and next submissions read back at once), the arguments of the
// contracts that stay active go to the cache of decoded arguments
// (contract_cache.go) as their readers would decode them, typed from the
// engine's values (value.TypeAs, which is the JSON round trip
// FromJSON(AppendJSONAs(v)) without the JSON), rather than decoded from
// the stored JSON at the first read.
//
// With deferred, the exercise nodes' Argument and Result are left nil
// and their values noted in deferred, which renders them at the first
// read of the entry (deferredEvents.render).
func (v *pkgView) eventNodes(r *valueRenderer, t *tx.Transaction, createdAt string, seed bool, deferred *deferredEvents) ([]txNode, error) {
	return v.eventNodesInto(nil, r, t, createdAt, seed, deferred)
}

// eventNodesInto is eventNodes with the nodes in dst's array when they
// fit (a caller's, allocated with the entry).
func (v *pkgView) eventNodesInto(dst []txNode, r *valueRenderer, t *tx.Transaction, createdAt string, seed bool, deferred *deferredEvents) ([]txNode, error) {
	var evBuf [4]tx.Event // the events of a small transaction
	evs := t.AppendEvents(evBuf[:0], nil, tx.LedgerEffects)
	out := dst[:0]
	if cap(out) < len(evs) {
		out = make([]txNode, 0, len(evs))
	}
	// The nodes' values are rendered into r's buffer, one after the
	// other; as it grows, the values rendered before stay in the old
	// one. They refer to r's buffers until encodeNodes.
	js := r.js
	render := func(x value.Value, t lf.Type) json.RawMessage {
		start := len(r.buf)
		r.buf = js.AppendAs(r.buf, x, t)
		return r.buf[start:len(r.buf):len(r.buf)]
	}
	r.buf = r.buf[:0]
	for _, ev := range evs {
		switch x := ev.Node.(type) {
		case *tx.Create:
			pkg := v.byID[x.TemplateID.PackageID]
			if pkg == nil {
				return nil, apierr.InternalError.New("package %s of a created contract is unknown", x.TemplateID.PackageID)
			}
			tt := r.template(x.TemplateID)
			argType := tt.argType
			// Set in place in out's array: the node is large.
			out = append(out, txNode{})
			nd := &out[len(out)-1]
			nd.ID, nd.ContractID, nd.TemplateID = int32(ev.NodeID), string(x.ContractID), tt.idText
			nd.PackageName, nd.Argument = x.PackageName, render(x.Arg, argType)
			nd.plainIDs = tt.plainIDs(x.PackageName)
			nd.Signatories, nd.Observers, nd.CreatedAt = nonNil(x.Signatories), nonNil(x.Observers()), createdAt
			nd.Transient, nd.Engine = !ev.AcsDelta, true
			if seed && ev.AcsDelta {
				v.seedArg(js, nd, pkg, x.Arg, argType)
			}
			if !slices.Equal(ev.Witnesses, x.Stakeholders) {
				nd.Witnesses = ev.Witnesses
			}
			if x.Key != nil {
				if tmpl := pkg.Template(x.TemplateID.Module, x.TemplateID.Name); tmpl != nil && tmpl.Key != nil {
					nd.Key = render(x.Key.Key, tmpl.Key.Type)
					nd.Maintainers = x.Key.Maintainers
					// The index digest, here rather than in the committer.
					h, err := keyHash(x.PackageName, x.TemplateID.Module, x.TemplateID.Name, x.Key.Key)
					if err != nil {
						return nil, apierr.InternalError.Wrap(err, "hashing a contract key")
					}
					nd.keyHash = h
				}
			}
		case *tx.Exercise:
			ch := v.choice(x)
			if ch == nil {
				return nil, apierr.InternalError.New("choice %s of %s is unknown", x.Choice, x.TemplateID)
			}
			nd := txNode{ID: int32(ev.NodeID), Exercise: true, ContractID: string(x.TargetID), TemplateID: x.TemplateID.String(),
				PackageName: x.PackageName, Stakeholders: x.Stakeholders,
				Choice: x.Choice, Consuming: x.Consuming, Acting: x.ActingParties, Witnesses: ev.Witnesses,
				LastDescendant:  int32(ev.LastDescendant),
				ChoiceObservers: x.ChoiceObservers, Archives: ev.AcsDelta, Engine: true}
			if deferred != nil {
				deferred.exercises = append(deferred.exercises, deferredExercise{node: len(out), x: x, ch: ch})
			} else {
				nd.Argument, nd.Result = render(x.ChosenValue, ch.ArgType), render(x.Result, ch.ReturnType)
			}
			if x.InterfaceID != nil {
				nd.InterfaceID = x.InterfaceID.String()
			}
			out = append(out, nd)
		}
	}
	return out, nil
}

// seedArg puts the argument of the created node nd, whose engine value is
// arg, in the cache of decoded arguments under the bytes that will store
// it (appendRawJSON's, as encodeNodes writes them), as
// sharedContract's decoding of them gives it: value.TypeAs(arg, argType)
// is FromJSON(AppendJSONAs(arg, argType), argType), and the stored bytes
// only differ from AppendJSONAs's by escapes that read back alike. A value
// TypeAs refuses is left to the first read. The typed value shares the
// parts of arg that TypeAs keeps (values of the transaction, which nothing
// changes in place), and js resolves its types through the view's warm
// caches.
func (v *pkgView) seedArg(js *value.JSONAppender, nd *txNode, pkg *lf.Package, arg value.Value, argType lf.Type) {
	typed, err := js.TypeAs(arg, argType, "")
	if err != nil {
		return
	}
	raw := []byte(nd.Argument)
	if rawNeedsRewrite(raw) {
		raw = appendRawJSON(nil, raw)
	}
	storedArgs.seed(nd.TemplateID, raw, pkg, typed)
}

// choice returns the definition of an exercised choice (of the
// interface for an interface choice).
func (v *pkgView) choice(x *tx.Exercise) *lf.Choice {
	if x.InterfaceID != nil {
		if p := v.byID[x.InterfaceID.PackageID]; p != nil {
			if i := p.Interface(x.InterfaceID.Module, x.InterfaceID.Name); i != nil {
				return i.Choice(x.Choice)
			}
		}
		return nil
	}
	return v.byID[x.TemplateID.PackageID].Choice(x.TemplateID.Module, x.TemplateID.Name, x.Choice)
}

// writeRecord stages contract record rec in its JSON encoding
// (encodeContractRecordJSON), rendered at its first read when deferred.
func writeRecord(t *store.Tx, rec *contractRecord, deferred bool) {
	if deferred {
		setContractRecordLazy(t, rec, encodeContractRecordJSON)
	} else {
		setContractRecord(t, rec, encodeContractRecordJSON(rec))
	}
}

// commitInterpreted commits an interpreted submission: the committer
// re-checks deduplication, that the packages the transaction used are
// still vetted and that every input contract is still active (a lost race
// is CONTRACT_NOT_ACTIVE), then writes the entry at a new offset, the
// contracts it creates and archives with their entries of the key and
// active-contracts indexes, and the deduplication entry.
func (n *Node) commitInterpreted(s *submission, it *interpreted) (*logEntry, error) {
	// The deduplication key, hashed here rather than in the committer.
	it.commit = commitOp{n: n, s: s, it: it, change: s.changeKey()}
	v, err := n.st.SubmitRunner(&it.commit)
	it.commit = commitOp{}
	if err != nil {
		return nil, storeErr(err)
	}
	return v.(*logEntry), nil
}

// commitOp is commitInterpreted's operation on the committer, held in
// the interpreted it commits: a closure of the same state would be an
// allocation of its own at every commit.
type commitOp struct {
	n      *Node
	s      *submission
	it     *interpreted
	change string
}

// Run is commitInterpreted's operation.
func (c *commitOp) Run(t *store.Tx) (any, error) {
	n, s, it, change, sync := c.n, c.s, c.it, c.change, c.s.sync
	now := n.now().Truncate(time.Microsecond)
	if err := n.checkDuplicate(t, s, now); err != nil {
		return nil, err
	}
	cur, err := n.loadPkgView(t, sync)
	if err != nil {
		return nil, err
	}
	if cur != it.view {
		for _, pid := range it.packages {
			if !cur.vetted[pid] {
				return nil, apierr.PackageNotFound.New("Package %s is no longer vetted on the synchronizer", apierr.Quote(pid)).WithResource("PACKAGE", pid)
			}
		}
	}
	for _, local := range it.fresh {
		if used, err := discriminatorUsed(t, local); err != nil {
			return nil, err
		} else if used {
			return nil, failedToExecute("contract id %s is already in use: the prepared transaction was executed before", local)
		}
	}
	archived := make([]*contractRecord, 0, len(it.archived))
	for _, cid := range it.inputs {
		rec, err := loadContractCopy(t, cid) // its create node read only
		if err != nil {
			return nil, err
		}
		if rec.State != contractActive || rec.SynchronizerID != sync {
			return nil, apierr.ContractNotActive.New("Contract %s is not active: it was archived or reassigned since the command was interpreted", apierr.Quote(cid)).
				WithResource("CONTRACT_ID", cid)
		}
		if it.archived[cid] {
			archived = append(archived, rec)
		}
	}
	off := t.NextOffset()
	// The entry itself, not a copy: nothing reads it.entry after the
	// commit.
	e := it.entry
	// A deferred entry's contract records are rendered at their first
	// read too (deferred.go).
	deferred := e.deferred != nil
	e.Offset, e.RecordTime, e.recordTime = off, formatTime(now), now // the deduplication time too
	// EffectiveAt is formatTime(it.let) (committable).
	e.wireTimes = wireInstant(it.let) && wireInstant(now)
	// Each record is written with its decoded form (setContractRecord),
	// which the node's readers share.
	// Only an overlay store keeps them (store.RendersLazily): on
	// another, the record is its bytes alone.
	decoded := n.st.RendersLazily()
	for i, nd := range it.created {
		var raw []byte
		if !deferred {
			// Kept by the store alone (the active entries copy it):
			// a pooled buffer, with room for the key after it. The
			// record's encoding, without building the record.
			create := it.createdJSON[i]
			raw = appendActiveRecord(store.ValueBuffer(activeRecordSize(sync, e.WorkflowID)+len(create)+len(store.PrefixContract)+len(nd.ContractID)),
				sync, e.syncPlain, off, e.WorkflowID, create)
		}
		if err := cur.indexKey(t, nd, off, true); err != nil {
			return nil, err
		}
		indexCreated(t, nd, off, n.entryRecord(raw))
		if !deferred && !decoded && !verifyStoredRecords {
			// The key (store.ContractKey) after the record, in its
			// buffer: SetPooled gives both back once committed.
			end := len(raw)
			b := store.AppendContractKey(raw, nd.ContractID)
			t.SetPooled(b[end:len(b):len(b)], b[:end])
			continue
		}
		rec := &contractRecord{SynchronizerID: sync, State: contractActive, CreatedOffset: off, WorkflowID: e.WorkflowID, Create: *nd}
		if deferred {
			setContractRecordLazy(t, rec, encodeCreatedRecord)
		} else {
			setPooledContractRecord(t, rec, raw)
		}
	}
	for _, nd := range it.transient {
		rec := &contractRecord{Create: *nd, SynchronizerID: sync, State: contractArchived, CreatedOffset: off, ArchivedOffset: off, WorkflowID: e.WorkflowID}
		writeRecord(t, rec, deferred)
	}
	for _, rec := range archived {
		rec.State, rec.ArchivedOffset = contractArchived, off
		if err := cur.indexKey(t, &rec.Create, rec.CreatedOffset, false); err != nil {
			return nil, err
		}
		indexArchived(t, &rec.Create, rec.CreatedOffset, off)
		writeRecord(t, rec, deferred)
	}
	appendEntry(t, e)
	dedup := dedupRecord{Offset: off, UpdateID: e.UpdateID, At: e.RecordTime}
	if n.dedup != nil {
		n.dedup.add(change) // before the record can be read (checkDuplicate)
	}
	// Its key (store.DedupKey) and value share a pooled buffer, which
	// the store reuses once committed.
	b := store.AppendDedupKey(store.ValueBuffer(len(store.PrefixDedup)+len(change)+dedup.size()), change)
	keyEnd := len(b)
	b = dedup.appendTo(b, true)
	t.SetOwned(b[:keyEnd:keyEnd], b[keyEnd:len(b):len(b)])
	t.Pool(b)
	return e, nil
}

// encodeNodes encodes nodes as one JSON array, json.Marshal's encoding
// of them, and returns with it where each node's encoding ends (the
// array's element i is out[start:ends[i]], start the byte after '[' or
// after element i-1's ',').
//
// The nodes' Argument, Key and Result then refer to out's bytes where out
// holds them as they are, else to copies of their own: to no memory they
// referred to before (eventNodes renders them into a reused buffer).
func encodeNodes(nodes []txNode) (out json.RawMessage, ends []int) {
	out, ends, _ = encodeNodesInto(nodes, nil)
	return out, ends
}

// encodeNodesInto is encodeNodes with ends in buf's array when it fits (a
// caller's array on its stack: committable uses ends and drops them);
// asIs says every raw member was written as it is (and refers to out).
func encodeNodesInto(nodes []txNode, buf []int) (out json.RawMessage, ends []int, asIs bool) {
	out, ends, asIs, _ = encodeNodesWith(nodes, buf, false, nil, nil)
	return out, ends, asIs
}

// oneNodeJSON is the room for a one-node transaction's JSON that
// committable allocates with its entry: a Ping create's takes some 800
// bytes (txNodeSize), and the entry with it (and its actAs party) 2 KiB.
const oneNodeJSON = 1008

// encodeNodesWith is encodeNodesInto, the nodes' JSON in dst's array
// when it fits. With own the nodes are committable's: the created nodes'
// contract ids (SuffixContractID's, hex) and every CreatedAt
// (formatTime's) need no escaping, and are written without a look;
// plain says the nodes' other strings (an exercise's ContractID aside)
// are jsontext.HTMLPlain (logEntry.nodesPlain), and plains are the
// parties known plain (appendTxNodeRefs), not nil.
func encodeNodesWith(nodes []txNode, buf []int, own bool, dst []byte, plains *plainParties) (out json.RawMessage, ends []int, asIs, plain bool) {
	size := 2
	for i := range nodes {
		size += txNodeSize(&nodes[i]) + 1
	}
	if cap(dst) >= size {
		out = dst[:0]
	} else {
		out = make([]byte, 0, size)
	}
	out = append(out, '[')
	if len(nodes) <= cap(buf) {
		ends = buf[:len(nodes)]
	} else {
		ends = make([]int, len(nodes))
	}
	// An argument and a key or result each; on the stack for a few
	// nodes, as the refs are dropped on return.
	var refsBuf [8]rawRef
	refs := refsBuf[:0]
	if 2*len(nodes) > len(refsBuf) {
		refs = make([]rawRef, 0, 2*len(nodes))
	}
	asIs, plain = true, own
	for i := range nodes {
		if i > 0 {
			out = append(out, ',')
		}
		var nodeAsIs, nodePlain bool
		out, refs, nodeAsIs, nodePlain = appendTxNodeRefs(out, &nodes[i], refs, own, plains)
		asIs, plain = asIs && nodeAsIs, plain && nodePlain
		ends[i] = len(out)
	}
	out = append(out, ']')
	for _, r := range refs {
		*r.v = out[r.start:r.end:r.end]
	}
	return out, ends, asIs, plain
}
