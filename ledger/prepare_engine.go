package ledger

import (
	"context"
	"crypto/rand"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Interactive submission on the Daml engine. Prepare interprets the
// commands as submit does (interpret.go) and returns the engine's
// transaction before its contract ids are suffixed: every node with
// Canton's node ids, the node seeds, and the ledger contracts it used as
// the metadata's input contracts. Execute has no commands: like Canton's
// reinterpretation it runs the prepared transaction's root actions again
// (a create with its argument, an exercise with its chosen value) with the
// roots' node seeds and the preparation time, requires the engine's
// transaction to equal the prepared one, and commits it through the same
// committer step as submit (commitInterpreted).

// preparedRun is an interpretation for prepare: the engine's result and
// the times it ran at.
type preparedRun struct {
	res       *engine.Result
	pkgs      *pkgView
	prep, let time.Time
	inputs    []interactive.InputContract
}

// prepareOnEngine interprets the commands of a prepare request on a read
// snapshot and returns the prepared transaction. Nothing is written.
func (n *Node) prepareOnEngine(ctx context.Context, s *submission, uuid string, maxRecordTime *uint64) (*interactive.PreparedTransaction, error) {
	c, sync := s.c, s.sync
	let, err := ledgerTime(c, n.now())
	if err != nil {
		return nil, err
	}
	var run preparedRun
	err = n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		er, err := n.runOnSnapshot(ctx, t, s, let, typedCommands)
		if err != nil {
			return err
		}
		// Routing a transaction for external signing checks its
		// informees only (Canton's TransactionRoutingProcessor counts no
		// locally hosted submitter then): an unknown actAs party that
		// signs or acts is an unknown informee.
		if err := n.checkPartiesKnown(t, nil, er.res.Transaction); err != nil {
			return err
		}
		inputs, err := er.pkgs.inputContracts(t, er.res.Effects.Inputs)
		if err != nil {
			return err
		}
		run = preparedRun{res: er.res, pkgs: er.pkgs, prep: er.prep, let: er.let, inputs: inputs}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	ptx, err := run.pkgs.preparedTransaction(run.res.Transaction)
	if err != nil {
		return nil, err
	}
	md := interactive.Metadata{
		SubmitterInfo:   interactive.SubmitterInfo{ActAs: union(c.ActAs), CommandID: c.CommandID},
		SynchronizerID:  physicalSynchronizer(sync),
		TransactionUUID: uuid,
		PreparationTime: uint64(run.prep.UnixMicro()),
		InputContracts:  run.inputs,
		MaxRecordTime:   maxRecordTime,
	}
	md.MinLedgerEffectiveTime, md.MaxLedgerEffectiveTime = timeBounds(run.res.TimeBounds)
	return &interactive.PreparedTransaction{Transaction: ptx, Metadata: md}, nil
}

// timeBounds renders the engine's ledger-time bounds as the metadata's
// optional min and max ledger effective times (absent when unbounded).
func timeBounds(b tx.TimeBounds) (lo, hi *uint64) {
	if b.Min != tx.MinTimestamp && b.Min >= 0 {
		v := uint64(b.Min)
		lo = &v
	}
	if b.Max != tx.MaxTimestamp && b.Max >= 0 {
		v := uint64(b.Max)
		hi = &v
	}
	return lo, hi
}

func identifier(id lf.TypeConID) interactive.Identifier {
	return interactive.Identifier{PackageID: id.PackageID, ModuleName: id.Module, EntityName: id.Name}
}

func optIdentifier(id *lf.TypeConID) *interactive.Identifier {
	if id == nil {
		return nil
	}
	x := identifier(*id)
	return &x
}

// preparedKey renders a contract key as the prepared transaction's
// GlobalKeyWithMaintainers; its hash is the node's key digest (keyHash),
// not Canton's.
func preparedKey(pkgName string, tmpl lf.TypeConID, k *tx.KeyWithMaintainers) (*interactive.KeyWithMaintainers, error) {
	if k == nil {
		return nil, nil
	}
	h, err := keyHash(pkgName, tmpl.Module, tmpl.Name, k.Key)
	if err != nil {
		return nil, apierr.InternalError.Wrap(err, "hashing a contract key")
	}
	return &interactive.KeyWithMaintainers{Key: interactive.GlobalKey{TemplateID: identifier(tmpl), PackageName: pkgName, Key: k.Key, Hash: h},
		Maintainers: k.Maintainers}, nil
}

func nodeIDs(ids []tx.NodeID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.Itoa(int(id))
	}
	return out
}

// preparedTransaction converts an engine transaction (normalized: node
// ids are Canton's pre-order ids) into the prepared transaction's
// DamlTransaction: every node, its node seeds, the roots in order.
func (v *pkgView) preparedTransaction(t *tx.Transaction) (interactive.Transaction, error) {
	out := interactive.Transaction{Version: t.Version(), Roots: nodeIDs(t.Roots), Nodes: make([]interactive.Node, 0, len(t.Nodes))}
	for i, nd := range t.Nodes {
		pn := interactive.Node{NodeID: strconv.Itoa(i)}
		switch x := nd.(type) {
		case *tx.Create:
			c, err := preparedCreate(x)
			if err != nil {
				return out, err
			}
			pn.Create = c
		case *tx.Exercise:
			k, err := preparedKey(x.PackageName, x.TemplateID, x.Key)
			if err != nil {
				return out, err
			}
			pn.Exercise = &interactive.Exercise{LFVersion: x.Version, ContractID: string(x.TargetID), PackageName: x.PackageName,
				TemplateID: identifier(x.TemplateID), Signatories: x.Signatories, Stakeholders: x.Stakeholders,
				ActingParties: x.ActingParties, InterfaceID: optIdentifier(x.InterfaceID), ChoiceID: x.Choice,
				ChosenValue: x.ChosenValue, Consuming: x.Consuming, Children: nodeIDs(x.Children), ExerciseResult: x.Result,
				ChoiceObservers: x.ChoiceObservers, Key: k, ByKey: x.ByKey}
		case *tx.Fetch:
			k, err := preparedKey(x.PackageName, x.TemplateID, x.Key)
			if err != nil {
				return out, err
			}
			pn.Fetch = &interactive.Fetch{LFVersion: x.Version, ContractID: string(x.ContractID), PackageName: x.PackageName,
				TemplateID: identifier(x.TemplateID), Signatories: x.Signatories, Stakeholders: x.Stakeholders,
				ActingParties: x.ActingParties, InterfaceID: optIdentifier(x.InterfaceID), Key: k, ByKey: x.ByKey}
		case *tx.Rollback:
			pn.Rollback = &interactive.Rollback{Children: nodeIDs(x.Children)}
		case *tx.QueryByKey:
			k, err := preparedKey(x.PackageName, x.TemplateID, &x.Key)
			if err != nil {
				return out, err
			}
			res := make([]string, len(x.Result))
			for j, c := range x.Result {
				res[j] = string(c)
			}
			pn.QueryByKey = &interactive.QueryByKey{LFVersion: x.Version, PackageName: x.PackageName, TemplateID: identifier(x.TemplateID),
				Exhaustive: x.Exhaustive, Key: *k, Result: res}
		default:
			return out, apierr.InternalError.New("node %d of the transaction has an unknown kind %T", i, nd)
		}
		out.Nodes = append(out.Nodes, pn)
	}
	for _, s := range t.NodeSeeds {
		out.NodeSeeds = append(out.NodeSeeds, interactive.NodeSeed{NodeID: int32(s.Node), Seed: slices.Clone(s.Seed[:])})
	}
	return out, nil
}

func preparedCreate(x *tx.Create) (*interactive.Create, error) {
	k, err := preparedKey(x.PackageName, x.TemplateID, x.Key)
	if err != nil {
		return nil, err
	}
	return &interactive.Create{LFVersion: x.Version, ContractID: string(x.ContractID), PackageName: x.PackageName,
		TemplateID: identifier(x.TemplateID), Argument: x.Arg, Signatories: x.Signatories, Stakeholders: x.Stakeholders, Key: k}, nil
}

// inputContracts returns the metadata's input contracts: the stored
// create of every ledger contract the transaction used, with its creation
// time, sorted by contract id (the order Canton hashes them in), its
// argument normalized as the engine records values, and its
// createdEventBlob as the event blob.
func (v *pkgView) inputContracts(t *store.Tx, cids []value.ContractID) ([]interactive.InputContract, error) {
	sorted := slices.Clone(cids)
	slices.Sort(sorted)
	out := make([]interactive.InputContract, 0, len(sorted))
	for _, cid := range sorted {
		rec, err := loadContract(t, string(cid))
		if err != nil {
			return nil, err
		}
		// The stored argument holds every field; the transaction's values
		// are normalized (trailing None fields dropped), as Canton's are.
		cr, at, err := storedCreate(v.engine(), v.lookup, &rec.Create)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "reading an input contract")
		}
		c, err := preparedCreate(cr)
		if err != nil {
			return nil, err
		}
		blob, err := blobOf(cr, at)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "encoding an input contract")
		}
		out = append(out, interactive.InputContract{Contract: *c, CreatedAt: uint64(at), EventBlob: blob})
	}
	return out, nil
}

// preparedMismatch is the error of a prepared transaction that its
// re-interpretation does not reproduce.
func preparedMismatch(format string, args ...any) error {
	return failedToExecute("the prepared transaction does not match its re-interpretation: %s", fmt.Sprintf(format, args...))
}

// executeContracts is the engine's ContractStore on execute: the
// metadata's input contracts, read from the snapshot (they must still be
// active and are compared with the metadata afterwards); a contract the
// metadata does not list is unknown.
type executeContracts struct {
	snap  *snapshotContracts
	allow map[string]bool
	// unlisted is the first contract the engine asked for that the
	// metadata does not list.
	unlisted string
}

// Contract returns an input contract of the prepared transaction.
func (s *executeContracts) Contract(ctx context.Context, id engine.ContractID) (*engine.Contract, error) {
	if !s.allow[string(id)] {
		if s.unlisted == "" {
			s.unlisted = string(id)
		}
		return nil, nil
	}
	return s.snap.Contract(ctx, id)
}

// ContractsByKey returns the input contracts with a key.
func (s *executeContracts) ContractsByKey(ctx context.Context, q engine.KeyQuery) ([]engine.ContractID, error) {
	ids, err := s.snap.ContractsByKey(ctx, q)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ids, func(id engine.ContractID) bool { return !s.allow[string(id)] }), nil
}

// rootCommand turns a root node of a prepared transaction back into the
// engine command that made it: a create with its argument, an exercise
// (by template, interface or key) with its chosen value.
func rootCommand(eng *engine.Engine, nd *interactive.Node) (engine.Value, error) {
	tc := func(id interactive.Identifier) lf.TypeConID {
		return lf.TypeConID{PackageID: id.PackageID, Module: id.ModuleName, Name: id.EntityName}
	}
	val := func(v value.Value, what string) (engine.Value, error) {
		if v == nil {
			return nil, preparedMismatch("node %s: the %s is missing", nd.NodeID, what)
		}
		rv, err := eng.FromValue(v)
		if err != nil {
			return nil, preparedMismatch("node %s: the %s does not fit its type: %v", nd.NodeID, what, err)
		}
		return rv, nil
	}
	switch {
	case nd.Create != nil:
		a, err := val(nd.Create.Argument, "create argument")
		if err != nil {
			return nil, err
		}
		return engine.CreateCommand(tc(nd.Create.TemplateID), a), nil
	case nd.Exercise != nil:
		x := nd.Exercise
		a, err := val(x.ChosenValue, "chosen value")
		if err != nil {
			return nil, err
		}
		switch {
		case x.ByKey:
			if x.Key == nil {
				return nil, preparedMismatch("node %s: an exercise by key without a key", nd.NodeID)
			}
			k, err := val(x.Key.Key.Key, "key")
			if err != nil {
				return nil, err
			}
			return engine.ExerciseByKeyCommand(tc(x.TemplateID), x.ChoiceID, k, a), nil
		case x.InterfaceID != nil:
			return engine.ExerciseInterfaceCommand(tc(*x.InterfaceID), x.ChoiceID, engine.ContractID(x.ContractID), a), nil
		default:
			return engine.ExerciseCommand(tc(x.TemplateID), x.ChoiceID, engine.ContractID(x.ContractID), a), nil
		}
	}
	return nil, failedToExecute("node %s: a root %s node is not supported by ledgernode", nd.NodeID, nd.Kind())
}

// reinterpretPrepared runs a prepared transaction's root actions through
// the engine on a read snapshot at ledger time let, with the roots' node
// seeds and the prepared preparation time, checks that the engine's
// transaction, node seeds, input contracts and time bounds equal the
// prepared ones (the first difference is the error), and returns what the
// committer writes for c.
func (n *Node) reinterpretPrepared(ctx context.Context, pt *interactive.PreparedTransaction, s *submission, let time.Time) (*interpreted, error) {
	c, sync := s.c, s.sync
	md := &pt.Metadata
	byID := make(map[string]*interactive.Node, len(pt.Transaction.Nodes))
	for i := range pt.Transaction.Nodes {
		nd := &pt.Transaction.Nodes[i]
		if byID[nd.NodeID] != nil {
			return nil, failedToExecute("node id %s is used twice", nd.NodeID)
		}
		byID[nd.NodeID] = nd
	}
	seeds := map[int32][]byte{}
	for _, s := range pt.Transaction.NodeSeeds {
		if _, dup := seeds[s.NodeID]; dup {
			return nil, failedToExecute("node %d has two seeds", s.NodeID)
		}
		seeds[s.NodeID] = s.Seed
	}
	if len(pt.Transaction.Roots) == 0 {
		return nil, failedToExecute("the prepared transaction has no root node")
	}
	rootSeeds := make([]tx.Hash, len(pt.Transaction.Roots))
	for i, r := range pt.Transaction.Roots {
		id, err := strconv.ParseInt(r, 10, 32)
		s, ok := seeds[int32(id)]
		if err != nil || !ok || len(s) != len(tx.Hash{}) {
			return nil, failedToExecute("root node %s has no 32-byte node seed", r)
		}
		copy(rootSeeds[i][:], s)
	}
	allow := map[string]bool{}
	var readers []string
	for _, ic := range md.InputContracts {
		allow[ic.Contract.ContractID] = true
		readers = append(readers, ic.Contract.Stakeholders...)
	}
	var out *interpreted
	err := n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		if err := n.checkDuplicate(t, s, n.now()); err != nil {
			return err
		}
		// The listed input contracts must still be active here.
		for _, ic := range md.InputContracts {
			cid := ic.Contract.ContractID
			rec, err := loadContract(t, cid)
			if err != nil {
				return err
			}
			switch {
			case rec.State == contractArchived:
				return apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(cid)).WithResource("CONTRACT_ID", cid)
			case rec.State != contractActive || rec.SynchronizerID != sync:
				return apierr.ContractNotActive.New("Contract %s is not active on synchronizer %s", apierr.Quote(cid), sync).WithResource("CONTRACT_ID", cid)
			}
		}
		pkgs, err := n.snapshotPkgView(t, sync)
		if err != nil {
			return err
		}
		eng := pkgs.engine()
		cmds := make([]engine.Value, len(pt.Transaction.Roots))
		for i, root := range pt.Transaction.Roots {
			nd := byID[root]
			if nd == nil {
				return failedToExecute("root node %s is missing", root)
			}
			if cmds[i], err = rootCommand(eng, nd); err != nil {
				return err
			}
		}
		// The listed input contracts are usable whoever the parties are:
		// the prepared transaction carries them in full (as disclosed
		// contracts), and matchPrepared compares them with the stored ones.
		// Interface dispatch re-runs as prepared: the package preference
		// comes from the transaction's interface nodes (Canton's
		// buildPackagePreference), over the newest vetted versions.
		pref, err := preparedPreference(pt, pkgs.newestVetted())
		if err != nil {
			return err
		}
		src := &executeContracts{snap: &snapshotContracts{tx: t, pkgs: pkgs, sync: sync, readers: union(c.ActAs, readers), anyReader: true}, allow: allow}
		started := time.Now()
		res, err := eng.Submit(ctx, engine.Submission{ActAs: union(c.ActAs), LedgerTime: engine.Timestamp(let.UnixMicro()),
			PreparationTime: engine.Timestamp(md.PreparationTime), Contracts: src, RootSeeds: rootSeeds,
			ParticipantID: n.participantID, ForbidEffectfulRollback: true, Preference: pref}, cmds...)
		n.met.observeInterpretation(time.Since(started))
		if err != nil {
			if src.unlisted != "" {
				return preparedMismatch("contract %s is used but not listed among the input contracts", src.unlisted)
			}
			return engineError(ctx, err)
		}
		if err := pkgs.matchPrepared(t, pt, res); err != nil {
			return err
		}
		// Routed as at prepare: the informees must be known (the
		// submitters sign externally).
		if err := n.checkPartiesKnown(t, nil, res.Transaction); err != nil {
			return err
		}
		var seed [32]byte
		rand.Read(seed[:])
		out, err = n.committable(res, pkgs, s, let, seed)
		if err != nil {
			return err
		}
		// A prepared transaction executed again (under another user, so no
		// duplicate) would create its contracts a second time.
		for _, nd := range res.Transaction.Nodes {
			if cr, ok := nd.(*tx.Create); ok {
				if used, err := discriminatorUsed(t, string(cr.ContractID)); err != nil {
					return err
				} else if used {
					return failedToExecute("contract id %s is already in use: the prepared transaction was executed before", cr.ContractID)
				}
				// Checked again by the committer, against a racing execute.
				out.fresh = append(out.fresh, string(cr.ContractID))
			}
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

// discriminatorUsed reports whether a committed contract has the local
// (unsuffixed) contract id as its prefix.
func discriminatorUsed(t *store.Tx, local string) (bool, error) {
	used := false
	err := t.Scan(store.ContractKey(local), nil, func(_, _ []byte) (bool, error) {
		used = true
		return false, nil
	})
	return used, err
}

// matchPrepared compares the engine's re-interpretation with the prepared
// transaction: the version, the roots, every node (as Canton encodes it;
// node order in the prepared list is free), the node seeds, the input
// contracts (with the stored ones) and the ledger-time bounds.
func (v *pkgView) matchPrepared(t *store.Tx, pt *interactive.PreparedTransaction, res *engine.Result) error {
	got, err := v.preparedTransaction(res.Transaction)
	if err != nil {
		return err
	}
	want := &pt.Transaction
	if got.Version != want.Version {
		return preparedMismatch("the transaction version is %q, not %q", got.Version, want.Version)
	}
	if !slices.Equal(got.Roots, want.Roots) {
		return preparedMismatch("the roots are %v, not %v", got.Roots, want.Roots)
	}
	byID := make(map[string]*interactive.Node, len(want.Nodes))
	for i := range want.Nodes {
		byID[want.Nodes[i].NodeID] = &want.Nodes[i]
	}
	for _, g := range got.Nodes {
		w := byID[g.NodeID]
		if w == nil {
			return preparedMismatch("node %s (%s) is missing", g.NodeID, g.Kind())
		}
		if d := interactive.NodeDifference(g, *w); d != "" {
			return preparedMismatch("node %s (%s): %s differs", g.NodeID, g.Kind(), d)
		}
	}
	if len(want.Nodes) != len(got.Nodes) {
		return preparedMismatch("the transaction has %d nodes, not %d", len(got.Nodes), len(want.Nodes))
	}
	seeds := map[int32][]byte{}
	for _, s := range want.NodeSeeds {
		seeds[s.NodeID] = s.Seed
	}
	for _, s := range got.NodeSeeds {
		if w, ok := seeds[s.NodeID]; !ok || !slices.Equal(w, s.Seed) {
			return preparedMismatch("the seed of node %d differs", s.NodeID)
		}
	}
	if len(want.NodeSeeds) != len(got.NodeSeeds) {
		return preparedMismatch("the transaction has %d node seeds, not %d", len(got.NodeSeeds), len(want.NodeSeeds))
	}
	inputs, err := v.inputContracts(t, res.Effects.Inputs)
	if err != nil {
		return err
	}
	listed := map[string]*interactive.InputContract{}
	for i := range pt.Metadata.InputContracts {
		ic := &pt.Metadata.InputContracts[i]
		listed[ic.Contract.ContractID] = ic
	}
	for i := range inputs {
		g := &inputs[i]
		w := listed[g.Contract.ContractID]
		if w == nil {
			return preparedMismatch("input contract %s is not listed", g.Contract.ContractID)
		}
		if d := interactive.CreateDifference(&g.Contract, &w.Contract); d != "" {
			return preparedMismatch("input contract %s: %s differs from the stored contract", g.Contract.ContractID, d)
		}
		if g.CreatedAt != w.CreatedAt {
			return preparedMismatch("input contract %s: created_at differs from the stored contract", g.Contract.ContractID)
		}
	}
	if len(inputs) != len(listed) || len(listed) != len(pt.Metadata.InputContracts) {
		return preparedMismatch("the transaction uses %d input contracts, the metadata lists %d", len(inputs), len(pt.Metadata.InputContracts))
	}
	lo, hi := timeBounds(res.TimeBounds)
	if !optEqual(lo, pt.Metadata.MinLedgerEffectiveTime) || !optEqual(hi, pt.Metadata.MaxLedgerEffectiveTime) {
		return preparedMismatch("the ledger-time bounds differ")
	}
	return nil
}

func optEqual(a, b *uint64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// preparedPreference is the package preference of a prepared
// transaction's re-interpretation: for every exercise or fetch by
// interface, its package name maps to the package of the template it
// used; other names keep base. Two packages for one name are refused.
func preparedPreference(pt *interactive.PreparedTransaction, base map[string]string) (map[string]string, error) {
	out := maps.Clone(base)
	seen := map[string]string{}
	for _, nd := range pt.Transaction.Nodes {
		var name, pkg string
		switch {
		case nd.Exercise != nil && nd.Exercise.InterfaceID != nil:
			name, pkg = nd.Exercise.PackageName, nd.Exercise.TemplateID.PackageID
		case nd.Fetch != nil && nd.Fetch.InterfaceID != nil:
			name, pkg = nd.Fetch.PackageName, nd.Fetch.TemplateID.PackageID
		default:
			continue
		}
		if prev, ok := seen[name]; ok && prev != pkg {
			return nil, failedToExecute("the prepared transaction uses packages %s and %s of package name %s through interfaces", prev, pkg, apierr.Quote(name))
		}
		seen[name] = pkg
		if out == nil {
			out = map[string]string{}
		}
		out[name] = pkg
	}
	return out, nil
}
