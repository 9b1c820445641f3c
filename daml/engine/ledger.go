package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
)

// Contract is a ledger contract as the engine sees it.
type Contract struct {
	// ID is the contract id.
	ID ContractID
	// TemplateID is the template the contract was created with.
	TemplateID lf.TypeConID
	// Arg is the contract argument (a *Record of TemplateID).
	Arg Value
	// Signatories and Stakeholders are the stored metadata.
	Signatories, Stakeholders []string
}

// ContractStore gives the engine the ledger contracts a submission may
// use. Contract returns nil, nil when the contract is unknown, inactive
// or not visible to the submission; it must be safe for concurrent use
// if the store is shared.
type ContractStore interface {
	Contract(ctx context.Context, id ContractID) (*Contract, error)
}

// Submission is the context of one interpretation of commands.
type Submission struct {
	// ActAs are the submitting parties: the authorizers of the roots.
	ActAs []string
	// LedgerTime is the ledger effective time (get_time).
	LedgerTime Timestamp
	// Contracts gives the ledger contracts; nil means none.
	Contracts ContractStore
	// SubmissionSeed, ParticipantID and PreparationTime drive the
	// derivation of node seeds and contract ids (§6.2). A zero
	// PreparationTime means LedgerTime.
	SubmissionSeed  [32]byte
	ParticipantID   string
	PreparationTime Timestamp
	// ForbidEffectfulRollback selects Canton's NUCK contract-state mode
	// (protocol version 35): a try may not roll back a create or a
	// consuming exercise (§5.8). False is the NoKey mode (PV 34).
	ForbidEffectfulRollback bool
	// NewContractID, if set, replaces the derivation: it returns the id of
	// the n-th contract created (from 0).
	NewContractID func(n int) ContractID
}

func (s *Submission) prepTime() Timestamp {
	if s.PreparationTime != 0 {
		return s.PreparationTime
	}
	return s.LedgerTime
}

// hmac256 is HMAC-SHA256(key, data…), computed with two SHA-256 sums
// over stack buffers (crypto/hmac allocates a hasher per call).
func hmac256(key []byte, data ...[]byte) []byte {
	var k [64]byte
	if len(key) > len(k) {
		h := sha256.Sum256(key)
		copy(k[:], h[:])
	} else {
		copy(k[:], key)
	}
	n := len(k)
	for _, d := range data {
		n += len(d)
	}
	var small [256]byte
	buf := small[:0]
	if n > len(small) {
		buf = make([]byte, 0, n)
	}
	for _, c := range k {
		buf = append(buf, c^0x36)
	}
	for _, d := range data {
		buf = append(buf, d...)
	}
	inner := sha256.Sum256(buf)
	var outer [64 + sha256.Size]byte
	for i, c := range k {
		outer[i] = c ^ 0x5c
	}
	copy(outer[64:], inner[:])
	sum := sha256.Sum256(outer[:])
	return sum[:]
}

func be32(i int32) []byte  { return binary.BigEndian.AppendUint32(nil, uint32(i)) }
func be64(i int64) []byte  { return binary.BigEndian.AppendUint64(nil, uint64(i)) }
func lstr(s string) []byte { return append(be32(int32(len(s))), s...) }

// seedCtx numbers the action nodes of one context (the root or an
// exercise); try blocks share their parent's.
type seedCtx struct {
	seed []byte
	next int32
}

// nextSeed returns the seed of the next action node of the current
// context.
func (b *txBuilder) nextSeed() []byte {
	sc := b.top().seeds
	s := hmac256(sc.seed, be32(sc.next))
	sc.next++
	return s
}

// discriminator derives a contract discriminator from a node seed.
func (b *txBuilder) discriminator(nodeSeed []byte, stakeholders []string) []byte {
	data := [][]byte{be64(int64(b.sub.prepTime())), be32(int32(len(stakeholders)))}
	for _, p := range stakeholders {
		data = append(data, lstr(p))
	}
	return hmac256(nodeSeed, data...)
}

// CreateCommand returns the update of a create command.
func CreateCommand(t lf.TypeConID, arg Value) Value {
	return updatePAP("create", 2, func(m *Machine, a []Value) { m.create(t, a[0]) }, arg)
}

// ExerciseCommand returns the update of an exercise command.
func ExerciseCommand(t lf.TypeConID, choice string, cid ContractID, arg Value) Value {
	return updatePAP("exercise", 3, func(m *Machine, a []Value) { m.exercise(t, choice, a[0], a[1]) }, cid, arg)
}

// ExerciseInterfaceCommand returns the update of an exercise-by-interface
// command.
func ExerciseInterfaceCommand(iface lf.TypeConID, choice string, cid ContractID, arg Value) Value {
	return updatePAP("exercise_interface", 3, func(m *Machine, a []Value) { m.exerciseInterface(iface, choice, a[0], a[1]) }, cid, arg)
}

// Result is the outcome of a submission.
type Result struct {
	// Transaction is the normalized transaction (§5.2).
	Transaction *tx.Transaction
	// Results are the results of the commands, in order.
	Results []Value
	// TimeBounds are the ledger-time bounds the interpretation relied on
	// (§7): get_time pins both to the ledger time; ledger_time_lt narrows
	// them. Nil bounds are unconstrained.
	MinLedgerTime, MaxLedgerTime *Timestamp
}

// Submit runs the commands (update values, e.g. from CreateCommand or
// ExerciseCommand) in order, as the roots of one transaction, and returns
// the transaction. Nothing is committed: the caller decides. Errors are
// *Error values.
func (e *Engine) Submit(ctx context.Context, sub Submission, cmds ...Value) (*Result, error) {
	m := e.newMachine(ctx)
	b := &txBuilder{sub: &sub, contracts: map[ContractID]*contractState{}}
	txSeed := hmac256(sub.SubmissionSeed[:], lstr(sub.ParticipantID), be64(int64(sub.prepTime())))
	b.ctxs = []*txCtx{{authorizers: sortedSet(sub.ActAs), seeds: &seedCtx{seed: txSeed}}}
	m.tx = b
	res := &Result{}
	m.ctrl = &nCommands{cmds: cmds, res: res}
	if _, err := m.result(); err != nil {
		return nil, err
	}
	res.Transaction = (&tx.Transaction{Nodes: b.nodes, Roots: b.ctxs[0].children}).Normalize()
	res.MinLedgerTime, res.MaxLedgerTime = b.minTime, b.maxTime
	return res, nil
}

type nCommands struct {
	cmds []Value
	res  *Result
}

func (n *nCommands) eval(m *Machine) { (&kCommands{n: n}).resume(m, nil) }

type kCommands struct {
	n    *nCommands
	next int
}

func (k *kCommands) resume(m *Machine, v Value) {
	if k.next > 0 {
		k.n.res.Results = append(k.n.res.Results, v)
	}
	if k.next == len(k.n.cmds) {
		m.ret(Unit{})
		return
	}
	cmd := k.n.cmds[k.next]
	k.next++
	m.push(k)
	m.apply(cmd, []Value{Token{}})
}

// --- the partial transaction ---

type txCtx struct {
	children    []tx.NodeID
	authorizers []string
	exercise    tx.NodeID // the open exercise, for exercise contexts
	isExercise  bool
	journal     int // journal length at the start of a try
	seeds       *seedCtx
}

type contractState struct {
	c          *Contract
	local      bool
	consumed   bool
	consumedBy tx.NodeID
	checked    map[string]bool // package ids under which the metadata was recomputed
}

type journalEntry struct {
	cid  ContractID
	prev *contractState // nil: the entry did not exist
}

type txBuilder struct {
	sub       *Submission
	nodes     []tx.Node
	ctxs      []*txCtx
	contracts map[ContractID]*contractState
	journal   []journalEntry
	created   int

	minTime, maxTime *Timestamp
}

func (b *txBuilder) narrow(lo, hi *Timestamp) {
	if lo != nil && (b.minTime == nil || *lo > *b.minTime) {
		b.minTime = lo
	}
	if hi != nil && (b.maxTime == nil || *hi < *b.maxTime) {
		b.maxTime = hi
	}
}

func (b *txBuilder) top() *txCtx { return b.ctxs[len(b.ctxs)-1] }

func (b *txBuilder) add(n tx.Node) tx.NodeID {
	b.nodes = append(b.nodes, n)
	return tx.NodeID(len(b.nodes) - 1)
}

func (b *txBuilder) set(cid ContractID, st *contractState) {
	prev := b.contracts[cid]
	var cp *contractState
	if prev != nil {
		c := *prev
		cp = &c
	}
	b.journal = append(b.journal, journalEntry{cid: cid, prev: cp})
	b.contracts[cid] = st
}

func (b *txBuilder) beginTry() int {
	b.ctxs = append(b.ctxs, &txCtx{authorizers: b.top().authorizers, journal: len(b.journal), seeds: b.top().seeds})
	return len(b.ctxs) - 1
}

func (b *txBuilder) endTry(mark int) {
	c := b.ctxs[mark]
	b.ctxs = b.ctxs[:mark]
	b.top().children = append(b.top().children, c.children...)
}

// rollbackTry undoes the contract-state changes of the try and wraps its
// nodes into a Rollback node (NoKey mode: rolling back effects is
// allowed).
func (b *txBuilder) rollbackTry(mark int) *Error {
	if mark >= len(b.ctxs) {
		return crash("rollback of a closed try")
	}
	c := b.ctxs[mark]
	b.ctxs = b.ctxs[:mark]
	if b.sub.ForbidEffectfulRollback {
		if effects := b.effects(c.children, nil); len(effects) > 0 {
			return errorf(ErrEffectfulRollback, "Tried to rollback side-effectful node(s): %s", strings.Join(effects, ", "))
		}
	}
	for i := len(b.journal) - 1; i >= c.journal; i-- {
		j := b.journal[i]
		if j.prev == nil {
			delete(b.contracts, j.cid)
		} else {
			b.contracts[j.cid] = j.prev
		}
	}
	b.journal = b.journal[:c.journal]
	id := b.add(&tx.Rollback{Children: c.children})
	b.top().children = append(b.top().children, id)
	return nil
}

// effects lists the creates and consuming exercises under ids.
func (b *txBuilder) effects(ids []tx.NodeID, out []string) []string {
	for _, id := range ids {
		switch n := b.nodes[id].(type) {
		case *tx.Create:
			out = append(out, fmt.Sprintf("Create of %s(%s)", n.TemplateID, n.ContractID))
		case *tx.Exercise:
			if n.Consuming {
				out = append(out, fmt.Sprintf("Consuming exercise of %s on %s(%s)", n.Choice, n.TemplateID, n.TargetID))
			}
			out = b.effects(n.Children, out)
		case *tx.Rollback:
			out = b.effects(n.Children, out)
		}
	}
	return out
}

func (b *txBuilder) newContractID(seed []byte, stakeholders []string) ContractID {
	n := b.created
	b.created++
	if b.sub.NewContractID != nil {
		return b.sub.NewContractID(n)
	}
	return ContractID("00" + hex.EncodeToString(b.discriminator(seed, stakeholders)))
}

// --- helpers ---

// then pushes a continuation that calls f with the next value, in the
// current environment.
func (m *Machine) then(f func(m *Machine, v Value)) {
	m.push(&kThen{f: f, env: m.env, caps: m.caps})
}

type kThen struct {
	f    func(m *Machine, v Value)
	env  []Value
	caps []Value
}

func (k *kThen) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	k.f(m, v)
}

func sortedSet(ps []string) []string {
	out := slices.Clone(ps)
	slices.Sort(out)
	return slices.Compact(out)
}

// partySet turns a [Party] (or a single Party) into a sorted set.
func partySet(v Value) ([]string, *Error) {
	var out []string
	switch x := v.(type) {
	case Party:
		out = []string{string(x)}
	case *List:
		for ; x != nil; x = x.Tail {
			p, ok := x.Head.(Party)
			if !ok {
				return nil, crash("party list holds %T", x.Head)
			}
			out = append(out, string(p))
		}
	default:
		return nil, crash("party list expected, got %T", v)
	}
	return sortedSet(out), nil
}

func union(a, b []string) []string { return sortedSet(append(slices.Clone(a), b...)) }

func subset(a, b []string) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			out = append(out, x)
		}
	}
	return out
}

func authError(nid tx.NodeID, t lf.TypeConID, format string, args ...any) *Error {
	return errorf(ErrFailedAuthorization, "node NodeId(%d) (%s) %s", nid, t, fmt.Sprintf(format, args...))
}

// choiceFn is the definition λ(this, arg[, self]). <part of choice> of a
// template or interface choice.
func (e *Engine) choiceFn(t lf.TypeConID, choice, part string) *topDef {
	return e.def(defKey{kind: defChoicePart, id: t, a: choice + "\x00" + part}, func(e *Engine) (lf.Expr, *Error) {
		mod, err := e.module(t)
		if err != nil {
			return nil, err
		}
		var ch *lf.Choice
		var param string
		if tpl := mod.Template(t.Name); tpl != nil {
			ch, param = tpl.Choice(choice), tpl.Param
		} else if iface := mod.Interface(t.Name); iface != nil {
			ch, param = iface.Choice(choice), iface.Param
		}
		if ch == nil {
			return nil, errorf(ErrPackage, "%s has no choice %s", t, choice)
		}
		params := []lf.VarWithType{{Name: param}, {Name: ch.ArgBinder}}
		var body lf.Expr
		switch part {
		case "controllers":
			body = ch.Controllers
		case "observers":
			body = ch.Observers
			if body == nil {
				body = &lf.ENil{}
			}
		case "update":
			body = ch.Update
			params = append(params, lf.VarWithType{Name: ch.SelfBinder})
		}
		if body == nil {
			return nil, errorf(ErrPackage, "choice %s of %s has no %s", choice, t, part)
		}
		return &lf.EAbs{Params: params, Body: body}, nil
	})
}

func (e *Engine) packageName(t lf.TypeConID) string {
	if p := e.src.Package(t.PackageID); p != nil {
		return p.Name
	}
	return ""
}

// --- the update builtins ---

func (m *Machine) noLedger(what string) *Error {
	return errorf(ErrUnsupported, "%s needs a ledger", what)
}

func (m *Machine) ledgerTime() {
	if m.tx == nil {
		m.fail(m.noLedger("get_time"))
		return
	}
	t := m.tx.sub.LedgerTime
	m.tx.narrow(&t, &t)
	m.ret(t)
}

func (m *Machine) ledgerTimeLT(t Value) {
	if m.tx == nil {
		m.fail(m.noLedger("ledger_time_lt"))
		return
	}
	bound := t.(Timestamp)
	if m.tx.sub.LedgerTime < bound {
		hi := bound - 1
		m.tx.narrow(nil, &hi)
		m.ret(Bool(true))
		return
	}
	m.tx.narrow(&bound, nil)
	m.ret(Bool(false))
}

// create runs §4.1: precondition, signatories, observers (all
// catchable), then the Create node with its authorization.
func (m *Machine) create(t lf.TypeConID, arg Value) {
	if m.tx == nil {
		m.fail(m.noLedger("create"))
		return
	}
	e := m.e
	m.then(func(m *Machine, pre Value) {
		if ok, _ := pre.(Bool); !ok {
			m.fail(errorf(ErrTemplatePreconditionViolated, "Update failed due to precondition violation when creating %s", t))
			return
		}
		m.then(func(m *Machine, sigsV Value) {
			m.then(func(m *Machine, obsV Value) {
				sigs, err := partySet(sigsV)
				if err == nil {
					var obs []string
					obs, err = partySet(obsV)
					if err == nil {
						err = m.finishCreate(t, arg, sigs, union(sigs, obs))
					}
				}
				if err != nil {
					m.fail(err)
				}
			})
			m.callDef(e.templateFn(defKey{kind: defTemplatePart, id: t, a: "observers"}), arg)
		})
		m.callDef(e.templateFn(defKey{kind: defTemplatePart, id: t, a: "signatories"}), arg)
	})
	m.callDef(e.templateFn(defKey{kind: defTemplatePart, id: t, a: "precond"}), arg)
}

func (m *Machine) finishCreate(t lf.TypeConID, arg Value, sigs, stakeholders []string) *Error {
	b := m.tx
	if err := CheckSerializable(arg); err != nil {
		return err
	}
	nid := tx.NodeID(len(b.nodes))
	if len(sigs) == 0 {
		return authError(nid, t, "has no signatories")
	}
	if auth := b.top().authorizers; !subset(sigs, auth) {
		return authError(nid, t, "requires authorizers %s, but only %s were given", strings.Join(sigs, ","), strings.Join(auth, ","))
	}
	seed := b.nextSeed()
	cid := b.newContractID(seed, stakeholders)
	if _, dup := b.contracts[cid]; dup {
		return crash("duplicate contract id %s", cid)
	}
	b.add(&tx.Create{ContractID: string(cid), PackageName: m.e.packageName(t), TemplateID: t, Arg: arg, Signatories: sigs, Stakeholders: stakeholders, Seed: seed})
	b.top().children = append(b.top().children, nid)
	b.set(cid, &contractState{local: true, c: &Contract{ID: cid, TemplateID: t, Arg: arg, Signatories: sigs, Stakeholders: stakeholders}})
	m.ret(cid)
	return nil
}

// fetchContract finds an active contract for template t and calls k with
// it; a ledger contract's metadata is recomputed under t (not catchable)
// the first time it is used under t's package.
func (m *Machine) fetchContract(t lf.TypeConID, cidV Value, k func(m *Machine, st *contractState)) {
	m.fetchContractAs(cidV, func(ct lf.TypeConID) (lf.TypeConID, *Error) {
		if ct.Module != t.Module || ct.Name != t.Name {
			return t, errorf(ErrWronglyTypedContract, "Update failed due to wrongly typed contract id %s\nExpected contract of type %s but got %s", cidV, t, ct)
		}
		return t, nil
	}, func(m *Machine, st *contractState, _ lf.TypeConID) { k(m, st) })
}

// fetchInterfaceContract finds an active contract whose template
// implements iface; the contract is used under its own template (there
// is no package preference here).
func (m *Machine) fetchInterfaceContract(iface lf.TypeConID, cidV Value, k func(m *Machine, st *contractState, t lf.TypeConID)) {
	m.fetchContractAs(cidV, func(ct lf.TypeConID) (lf.TypeConID, *Error) {
		if !m.e.implements(ct, iface) {
			return ct, errorf(ErrContractDoesNotImplementInterface, "Update failed due to contract %s not implementing an interface\nExpected contract to implement interface %s but contract has type %s", cidV, iface, ct)
		}
		return ct, nil
	}, k)
}

// fetchContractAs finds an active contract, maps its template to the
// template to use (target), and calls k.
func (m *Machine) fetchContractAs(cidV Value, target func(ct lf.TypeConID) (lf.TypeConID, *Error), k func(m *Machine, st *contractState, t lf.TypeConID)) {
	b := m.tx
	cid, ok := cidV.(ContractID)
	if !ok {
		m.fail(crash("contract id expected, got %T", cidV))
		return
	}
	st := b.contracts[cid]
	if st == nil {
		var c *Contract
		if b.sub.Contracts != nil {
			var err error
			if c, err = b.sub.Contracts.Contract(m.ctx, cid); err != nil {
				m.fail(&Error{Kind: ErrContractNotFound, Message: "Contract could not be found with id " + string(cid), Cause: err})
				return
			}
		}
		if c == nil {
			m.fail(errorf(ErrContractNotFound, "Contract could not be found with id %s", cid))
			return
		}
		st = &contractState{c: c}
		b.contracts[cid] = st
	}
	if st.consumed {
		m.fail(errorf(ErrContractNotActive, "Update failed due to fetch of an inactive contract %s (%s).\nThe contract had been consumed in sub-transaction #NodeId(%d):", cid, st.c.TemplateID, st.consumedBy))
		return
	}
	ct := st.c.TemplateID
	t, terr := target(ct)
	if terr != nil {
		m.fail(terr)
		return
	}
	if ct.PackageID != t.PackageID {
		// Use a translated view of the contract; its contract state
		// (consumption) stays in b.contracts under the original.
		arg, err := m.e.translate(st.c.Arg, ct.PackageID, t.PackageID)
		if err != nil {
			err.Message = fmt.Sprintf("Translation of contract %s to a value of type %s fails.\nReason: %s", cid, t, err.Message)
			m.fail(err)
			return
		}
		if st.checked == nil {
			st.checked = map[string]bool{}
		}
		c := *st.c
		c.Arg = arg
		st = &contractState{c: &c, checked: st.checked}
		if st.checked[t.PackageID] {
			k(m, st, t)
			return
		}
	} else if st.local || st.checked[t.PackageID] {
		k(m, st, t)
		return
	}
	e := m.e
	arg := st.c.Arg
	check := func(m *Machine, v Value, want []string, what string, next func(m *Machine)) {
		got, err := partySet(v)
		if err != nil {
			m.fail(err)
			return
		}
		if !slices.Equal(got, sortedSet(want)) {
			m.fail(errorf(ErrUpgradeValidationFailed, "Validation fails when trying to upgrade the contract %s from %s to %s: the %s changed", cid, ct, t, what))
			return
		}
		next(m)
	}
	m.then(func(m *Machine, pre Value) {
		if ok, _ := pre.(Bool); !ok {
			m.fail(errorf(ErrTemplatePreconditionViolated, "Update failed due to precondition violation when fetching %s", cid))
			return
		}
		m.then(func(m *Machine, sigs Value) {
			check(m, sigs, st.c.Signatories, "signatories", func(m *Machine) {
				m.then(func(m *Machine, obs Value) {
					sigSet, _ := partySet(sigs)
					obsSet, err := partySet(obs)
					if err != nil {
						m.fail(err)
						return
					}
					check(m, ListOfStrings(union(sigSet, obsSet)), st.c.Stakeholders, "stakeholders", func(m *Machine) {
						if st.checked == nil {
							st.checked = map[string]bool{}
						}
						st.checked[t.PackageID] = true
						k(m, st, t)
					})
				})
				m.push(kPreventCatch{})
				m.callDef(e.templateFn(defKey{kind: defTemplatePart, id: t, a: "observers"}), arg)
			})
		})
		m.push(kPreventCatch{})
		m.callDef(e.templateFn(defKey{kind: defTemplatePart, id: t, a: "signatories"}), arg)
	})
	m.push(kPreventCatch{})
	m.callDef(e.templateFn(defKey{kind: defTemplatePart, id: t, a: "precond"}), arg)
}

// ListOfStrings returns a [Party] of the given parties.
func ListOfStrings(ps []string) *List {
	vs := make([]Value, len(ps))
	for i, p := range ps {
		vs[i] = Party(p)
	}
	return ListOf(vs...)
}

// fetch runs §4.5 for a template fetch.
func (m *Machine) fetch(t lf.TypeConID, cid Value) {
	if m.tx == nil {
		m.fail(m.noLedger("fetch"))
		return
	}
	m.fetchContract(t, cid, func(m *Machine, st *contractState) {
		b := m.tx
		nid := tx.NodeID(len(b.nodes))
		auth := b.top().authorizers
		acting := intersect(st.c.Stakeholders, auth)
		if len(acting) == 0 {
			m.fail(authError(nid, t, "requires one of the stakeholders %v of the fetched contract to be an authorizer, but authorizers were %v", st.c.Stakeholders, auth))
			return
		}
		b.nextSeed()
		b.add(&tx.Fetch{ContractID: string(st.c.ID), PackageName: m.e.packageName(t), TemplateID: t, ActingParties: acting,
			Signatories: st.c.Signatories, Stakeholders: st.c.Stakeholders})
		b.top().children = append(b.top().children, nid)
		m.ret(st.c.Arg)
	})
}

// exercise runs §4.2 for a template choice.
func (m *Machine) exercise(t lf.TypeConID, choice string, cidV, arg Value) {
	if m.tx == nil {
		m.fail(m.noLedger("exercise"))
		return
	}
	tpl, err := m.e.template(t)
	if err != nil {
		m.fail(err)
		return
	}
	ch := tpl.Choice(choice)
	if ch == nil {
		m.fail(errorf(ErrPackage, "template %s has no choice %s", t, choice))
		return
	}
	e := m.e
	m.fetchContract(t, cidV, func(m *Machine, st *contractState) {
		rec := st.c.Arg
		m.then(func(m *Machine, ctrlV Value) {
			m.then(func(m *Machine, obsV Value) {
				ctrls, err := partySet(ctrlV)
				if err != nil {
					m.fail(err)
					return
				}
				obs, err := partySet(obsV)
				if err != nil {
					m.fail(err)
					return
				}
				m.beginExercise(t, nil, ch, rec, st, arg, ctrls, obs)
			})
			m.push(kPreventCatch{})
			m.callDef(e.choiceFn(t, choice, "observers"), rec, arg)
		})
		m.push(kPreventCatch{})
		m.callDef(e.choiceFn(t, choice, "controllers"), rec, arg)
	})
}

func (m *Machine) beginExercise(t lf.TypeConID, iface *lf.TypeConID, ch *lf.Choice, this Value, st *contractState, arg Value, ctrls, obs []string) {
	b := m.tx
	if err := CheckSerializable(arg); err != nil {
		m.fail(err)
		return
	}
	nid := tx.NodeID(len(b.nodes))
	if len(ctrls) == 0 {
		m.fail(authError(nid, t, "has no controllers"))
		return
	}
	if auth := b.top().authorizers; !subset(ctrls, auth) {
		m.fail(authError(nid, t, "requires authorizers %s, but only %s were given", strings.Join(ctrls, ","), strings.Join(auth, ",")))
		return
	}
	node := &tx.Exercise{TargetID: string(st.c.ID), PackageName: m.e.packageName(t), TemplateID: t, InterfaceID: iface, Choice: ch.Name,
		Consuming: ch.Consuming, ActingParties: ctrls, Signatories: st.c.Signatories, Stakeholders: st.c.Stakeholders,
		ChoiceObservers: obs, ChosenValue: arg, Seed: b.nextSeed()}
	b.add(node)
	if ch.Consuming {
		ns := *b.contracts[st.c.ID]
		ns.consumed, ns.consumedBy = true, nid
		b.set(st.c.ID, &ns)
	}
	b.ctxs = append(b.ctxs, &txCtx{authorizers: union(ctrls, st.c.Signatories), exercise: nid, isExercise: true, seeds: &seedCtx{seed: node.Seed}})
	m.push(&kExercise{node: node})
	owner := t
	if iface != nil {
		owner = *iface
	}
	m.callDef(m.e.choiceFn(owner, ch.Name, "update"), this, arg, st.c.ID, Token{})
}

// kExercise ends an exercise: with its result, or, when an exception
// unwinds through it, without one.
type kExercise struct{ node *tx.Exercise }

func (k *kExercise) end(m *Machine) {
	b := m.tx
	c := b.top()
	b.ctxs = b.ctxs[:len(b.ctxs)-1]
	k.node.Children = c.children
	b.top().children = append(b.top().children, c.exercise)
}

func (k *kExercise) resume(m *Machine, v Value) {
	if err := CheckSerializable(v); err != nil {
		m.fail(err)
		return
	}
	k.node.Result = v
	k.end(m)
	m.ret(v)
}

func (k *kExercise) unwind(m *Machine) { k.end(m) }

// MaxNesting is the maximal nesting of a serializable value (§10).
const MaxNesting = 100

// CheckSerializable checks what normalizing a value checks (§1.7): the
// nesting is at most MaxNesting (every record, variant, list, optional or
// map level adds one) and every text is well-formed (no NUL, valid
// UTF-8). Functions, structs, Any and TypeRep are not serializable.
func CheckSerializable(v Value) *Error { return checkSer(v, 0) }

func checkSer(v Value, depth int) *Error {
	if depth > MaxNesting {
		return errorf(ErrValueNesting, "Value exceeds maximum nesting value of %d", MaxNesting)
	}
	switch x := v.(type) {
	case Text:
		return checkText(string(x))
	case *Record:
		for _, f := range x.Fields {
			if err := checkSer(f, depth+1); err != nil {
				return err
			}
		}
	case *Variant:
		return checkSer(x.Value, depth+1)
	case *List:
		for ; x != nil; x = x.Tail {
			if err := checkSer(x.Head, depth+1); err != nil {
				return err
			}
		}
	case Optional:
		if x.Value != nil {
			return checkSer(x.Value, depth+1)
		}
	case *Map:
		for i := range x.Keys {
			if err := checkSer(x.Keys[i], depth+1); err != nil {
				return err
			}
			if err := checkSer(x.Values[i], depth+1); err != nil {
				return err
			}
		}
	case *PAP, *Struct, *Any, TypeRep, Token:
		return crash("value of type %T is not serializable", v)
	}
	return nil
}

func checkText(s string) *Error {
	if strings.IndexByte(s, 0) >= 0 {
		return errorf(ErrMalformedText, "Text is malformed: Text contains null character")
	}
	if !utf8.ValidString(s) {
		return errorf(ErrMalformedText, "Text is malformed: invalid UTF-8")
	}
	return nil
}

// exerciseInterface runs §4.4 (without a guard: LF 2.dev only).
func (m *Machine) exerciseInterface(iface lf.TypeConID, choice string, cidV, arg Value) {
	if m.tx == nil {
		m.fail(m.noLedger("exercise_interface"))
		return
	}
	mod, err := m.e.module(iface)
	if err != nil {
		m.fail(err)
		return
	}
	idef := mod.Interface(iface.Name)
	var ch *lf.Choice
	if idef != nil {
		ch = idef.Choice(choice)
	}
	if ch == nil {
		m.fail(errorf(ErrPackage, "interface %s has no choice %s", iface, choice))
		return
	}
	e := m.e
	m.fetchInterfaceContract(iface, cidV, func(m *Machine, st *contractState, t lf.TypeConID) {
		this := &Any{Type: &lf.TCon{ID: t}, Value: st.c.Arg}
		m.then(func(m *Machine, ctrlV Value) {
			m.then(func(m *Machine, obsV Value) {
				ctrls, err := partySet(ctrlV)
				if err != nil {
					m.fail(err)
					return
				}
				obs, err := partySet(obsV)
				if err != nil {
					m.fail(err)
					return
				}
				m.beginExercise(t, &iface, ch, this, st, arg, ctrls, obs)
			})
			m.push(kPreventCatch{})
			m.callDef(e.choiceFn(iface, choice, "observers"), this, arg)
		})
		m.push(kPreventCatch{})
		m.callDef(e.choiceFn(iface, choice, "controllers"), this, arg)
	})
}

// fetchInterface runs §4.5 for fetch_interface: a Fetch node with the
// interface id; the result is the interface value.
func (m *Machine) fetchInterface(iface lf.TypeConID, cid Value) {
	if m.tx == nil {
		m.fail(m.noLedger("fetch_interface"))
		return
	}
	m.fetchInterfaceContract(iface, cid, func(m *Machine, st *contractState, t lf.TypeConID) {
		b := m.tx
		nid := tx.NodeID(len(b.nodes))
		auth := b.top().authorizers
		acting := intersect(st.c.Stakeholders, auth)
		if len(acting) == 0 {
			m.fail(authError(nid, t, "requires one of the stakeholders %v of the fetched contract to be an authorizer, but authorizers were %v", st.c.Stakeholders, auth))
			return
		}
		ic := iface
		b.nextSeed()
		b.add(&tx.Fetch{ContractID: string(st.c.ID), PackageName: m.e.packageName(t), TemplateID: t, InterfaceID: &ic,
			ActingParties: acting, Signatories: st.c.Signatories, Stakeholders: st.c.Stakeholders})
		b.top().children = append(b.top().children, nid)
		m.ret(&Any{Type: &lf.TCon{ID: t}, Value: st.c.Arg})
	})
}
