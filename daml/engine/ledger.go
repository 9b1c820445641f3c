package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Contract is a ledger contract as the engine reads it from a
// ContractStore: what a committed tx.Create recorded.
type Contract struct {
	// ID is the contract id.
	ID ContractID
	// TemplateID is the template the contract was created with.
	TemplateID lf.TypeConID
	// Arg is the contract argument as the engine records it in a
	// tx.Create (see Result) or as value.FromJSON decodes it: a
	// value.Record with its type id, and every record, variant and enum
	// inside with its type id (the engine takes field lists and
	// constructor ranks from its packages). Record fields are positional,
	// labels optional; missing trailing fields are None.
	Arg value.Value
	// Signatories and Stakeholders are the stored metadata.
	Signatories, Stakeholders []string
	// Key is the stored key with its maintainers (LF 2.3), nil when
	// none; the engine records it in the Fetch and Exercise nodes.
	Key *tx.KeyWithMaintainers
	// Memo, when not nil, is the memo of Arg (ArgMemo): the store hands
	// it out only with this very Arg, which nobody changes, so that the
	// engine converts the argument once for all the lookups of it.
	Memo *ArgMemo
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
	// SubmissionSeed, ParticipantID and PreparationTime drive the derivation
	// of node seeds and contract ids (tx.TransactionSeed, Canton's
	// crypto/Hash.scala deriveTransactionSeed, deriveNodeSeed,
	// deriveContractDiscriminator). A zero PreparationTime means LedgerTime.
	SubmissionSeed  [32]byte
	ParticipantID   string
	PreparationTime Timestamp
	// RootSeeds, when not nil, are the node seeds of the root actions
	// (tx.Config.RootSeeds): the re-interpretation of a prepared
	// transaction takes its roots' seeds instead of deriving them from
	// SubmissionSeed.
	RootSeeds []tx.Hash
	// ForbidEffectfulRollback selects Canton's NUCK contract-state mode
	// (protocol version 35, tx.ModeNUCK): a try may not roll back a create or
	// a consuming exercise (Canton's
	// community/base/src/main/scala/com/digitalasset/canton/version/InterpretationConfig.scala
	// picks the mode from the protocol version). False is the NoKey mode
	// (PV 34).
	ForbidEffectfulRollback bool
	// Preference is the package preference (Speedy's packageResolution, which
	// Canton's TopologyAwareCommandExecutor computes) used by interface
	// fetches and exercises (fetch_interface, exercise_interface,
	// ExerciseInterfaceCommand): the contract is used under the template of
	// the same module and name in the preferred package for its package name,
	// translated and validated as in SBuiltinFun.fetchInterface
	// (ValueTranslator, checkContractUpgradable). A non-nil preference without
	// an entry for that name fails with ErrUnresolvedPackageName. Nil means
	// the contract's creation package (no resolution). Template fetches and
	// exercises name their package and do not use it.
	Preference PackagePreference
}

// PackagePreference maps a package name to the package id to use for it
// (Canton's package resolution of a submission:
// Preprocessor.buildPackageResolution, TopologyAwareCommandExecutor).
type PackagePreference map[string]string

func (s *Submission) prepTime() Timestamp {
	if s.PreparationTime != 0 {
		return s.PreparationTime
	}
	return s.LedgerTime
}

// CreateCommand returns the update of a create command.
func CreateCommand(t lf.TypeConID, arg Value) Value { return createPAP(t, arg, nil) }

// createUpdate is the builtin of a create's update (create, which it
// calls with the template t and lv): a callable of its own rather than a
// closure, so that the update is one allocation.
type createUpdate struct {
	p    PAP
	t    lf.TypeConID
	lv   value.Value
	args [1]Value
}

func (c *createUpdate) enter(m *Machine, a []Value) { m.create(c.t, a[0], c.lv) }

// createPAP returns the update of a create of t with argument arg (and
// its normalized value lv, or nil): a PAP of arity 2, arg applied, as
// updatePAP makes.
func createPAP(t lf.TypeConID, arg Value, lv value.Value) *PAP {
	c := &createUpdate{t: t, lv: lv, args: [1]Value{arg}}
	c.p = PAP{fn: c, args: c.args[:], arity: 2}
	return &c.p
}

// CreateCommandOf is CreateCommand for an argument converted from the
// ledger value lv (FromValue): when lv is exactly the normalized value the
// transaction's create node would hold (IsLedgerValueOf), the node takes
// lv, which saves converting arg back. lv must not change afterwards.
func CreateCommandOf(t lf.TypeConID, arg Value, lv value.Value) Value {
	if !IsLedgerValueOf(arg, lv) {
		lv = nil
	}
	return createPAP(t, arg, lv)
}

// CreateRoom is room for the update of one create command, which a
// caller allocating a command's state may hold to save the update an
// allocation of its own (CreateCommandKept). The zero value is empty.
type CreateRoom struct {
	c createUpdate
}

// CreateCommandKept is CreateCommandOf of an lv known to be the
// normalized value of arg, or nil (CreateCommand): the value
// FromValueKept returned with arg, which it has already checked. It
// builds the update in r when r is empty; the update is r's for good (a
// later call on r allocates the update apart).
func (r *CreateRoom) CreateCommandKept(t lf.TypeConID, arg Value, lv value.Value) Value {
	if r == nil || r.c.p.fn != nil {
		return createPAP(t, arg, lv)
	}
	c := &r.c
	c.t, c.lv, c.args[0] = t, lv, arg
	c.p = PAP{fn: c, args: c.args[:], arity: 2}
	return &c.p
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
	// Transaction is the normalized transaction with its node seeds (in
	// Speedy's order: PartialTransaction, NormalizeRollbacks), built by a
	// tx.Builder. Its values (create arguments, choice arguments and results)
	// are the engine's values in normalized form (toLedgerValue): records,
	// variants and enums keep their type ids, record fields their labels and
	// variants and enums their constructor ranks; the trailing None fields of
	// a record are dropped (as SValue.toNormalizedValue drops them). Contract
	// ids of the contracts it creates are local (unsuffixed).
	Transaction *tx.Transaction
	// Results are the results of the commands, in order.
	Results []Value
	// Effects are the transaction's effects on the contract store; the
	// ledger re-checks Effects.Inputs at commit.
	Effects tx.Effects
	// TimeBounds are the ledger-time bounds the interpretation relied on
	// (SBuiltinFun's SBUGetTime and SBULedgerTimeLT): get_time pins both to
	// the ledger time; ledger_time_lt narrows them. tx.Unconstrained when the
	// time was not read.
	TimeBounds tx.TimeBounds
}

// Submit runs the commands (update values, e.g. from CreateCommand or
// ExerciseCommand) in order, as the roots of one transaction, and returns
// the transaction. Nothing is committed: the caller decides. Errors are
// *Error values; an error the transaction model reports (authorization,
// an inactive contract, an effectful rollback …) is the Error's Cause, a
// daml/tx error such as *tx.AuthorizationError, reachable with errors.As.
func (e *Engine) Submit(ctx context.Context, sub Submission, cmds ...Value) (*Result, error) {
	// One allocation for the transaction and the Result with the first
	// command's result; the machine's state and the Builder are a
	// finished submission's (takeRun).
	st := &struct {
		f   tx.Finished
		r   Result
		buf [1]Value
	}{}
	run := e.takeRun()
	m := &run.m
	m.e, m.ctx, m.maxSteps, m.konts = e, ctx, e.opts.maxSteps(), run.konts[:0]
	mode := tx.ModeNoKey
	if sub.ForbidEffectfulRollback {
		mode = tx.ModeNUCK
	}
	prep := value.Timestamp(sub.prepTime())
	b := &run.b
	b.Init(tx.Config{
		ActAs:           sub.ActAs,
		TransactionSeed: tx.TransactionSeed(sub.SubmissionSeed, sub.ParticipantID, prep),
		RootSeeds:       sub.RootSeeds,
		PreparationTime: prep,
		LedgerTime:      value.Timestamp(sub.LedgerTime),
		Mode:            mode,
	})
	// run is zero but for the machine's frames (takeRun): its members
	// are set one by one, not written anew.
	run.lt.b, run.lt.store, run.lt.pref = b, sub.Contracts, sub.Preference
	m.tx = &run.lt
	res := &st.r
	if len(cmds) > 0 {
		res.Results = st.buf[:0:1]
	}
	run.n = nCommands{cmds: cmds, res: res}
	m.ctrl = &run.n
	_, err := m.result()
	if err == nil {
		// The transaction is copied out of the Builder, which is kept;
		// the effects are set in res, not copied there.
		var terr error
		if res.Transaction, res.TimeBounds, terr = b.FinishInto(&st.f, &res.Effects); terr != nil {
			err = txError(terr)
		}
	}
	e.keepRun(run)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// submitRun is the state of a submission's machine and its Builder,
// which only the machine refers to while it runs: nothing the caller
// gets (the Result, its values and transaction, an error) points into
// it. Values never point into the machine (environments, scratch arrays
// and frames are its own; closures copy what they capture), errors are
// allocated on their own (the Builder's too, whose lists they copy or
// which are allocated apart from it), and the transaction is copied out
// of the Builder's buffers (FinishInto). A finished submission's is
// reset and kept for the next one (keepRun), with the machine's frame
// free lists and environment block (machineFrames): a submission would
// otherwise allocate it, and its first frames of each kind.
type submitRun struct {
	m     Machine
	b     tx.Builder
	lt    ledgerTx
	n     nCommands
	konts [16]kont
}

// takeRun returns a finished submission's state (keepRun), or a new one.
func (e *Engine) takeRun() *submitRun {
	if r, ok := e.frames.Get().(*submitRun); ok {
		return r
	}
	return new(submitRun)
}

// keepRun resets r, whose submission is finished, to a zero state but for
// the machine's frames, and keeps it for the next submission. Nothing
// stays of the submission: its context, store, values and stacked
// frames (a failed run leaves frames on the stack) are dropped.
func (e *Engine) keepRun(r *submitRun) {
	// Cleared in place (a composite literal assigned to *r would be
	// built whole, then copied).
	mf := r.m.machineFrames
	*r = submitRun{}
	r.m.machineFrames = mf
	e.frames.Put(r)
}

// machineFrames holds what a machine reuses from the ones before it:
// its frame free lists (cleared frames) and the rest of its block of
// environments (values never handed out, all zero), which only the
// machine refers to. A submission would otherwise allocate its first
// frames of each kind, the lists that keep them and an environment block.
type machineFrames struct {
	// seqFree are the frames of finished sequences kept for reuse
	// (releasesVals).
	seqFree freeList[kSeq]
	// overFree are the frames of resumed over-applications kept for
	// reuse (kOverApp).
	overFree freeList[kOverApp]
	// matchFree are the frames of resumed case expressions kept for
	// reuse (kMatch).
	matchFree freeList[kMatch]
	// letFree are the frames of resumed lets kept for reuse (kLet).
	letFree freeList[kLet]
	// bufFree are the value buffers kept for reuse (valBuf).
	bufFree freeList[valBuf]
	// createFree are the frames of finished creates kept for reuse
	// (kCreate.useKey).
	createFree freeList[kCreate]
	// envs is the rest of the block new environments are cut from
	// (newEnv): values never handed out, all zero.
	envs []Value
}

type nCommands struct {
	cmds []Value
	res  *Result
	k    kCommands
}

func (n *nCommands) eval(m *Machine) {
	n.k = kCommands{n: n}
	n.k.tok[0] = Token{}
	n.k.resume(m, nil)
}

type kCommands struct {
	n    *nCommands
	next int
	tok  [1]Value // the token argument of every command (applications only read it)
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
	m.apply(cmd, k.tok[:])
}

// --- the partial transaction ---

// ledgerTx is the transaction being built: the tx.Builder keeps the
// nodes, seeds, contract ids, contract state (consumed, rolled back),
// authorization and time bounds; the engine keeps, per contract it has
// used, the runtime form of its argument.
type ledgerTx struct {
	b *tx.Builder
	// store is the submission's ContractStore (nil: none).
	store ContractStore
	// pref is the submission's package preference (nil: none).
	pref PackagePreference
	// contracts are the contracts the transaction has used.
	contracts contractList
	keyed     []ContractID // contracts created with a key, in order (keys.go)
	// created are the first contracts the transaction creates (newCreated),
	// in the submission's own memory (submitRun): the engine's copy of a
	// contract is its own, referred to only while the submission runs.
	created  [2]contractInfo
	nCreated int
}

// put records c under its id.
func (lt *ledgerTx) put(c *contractInfo) { lt.contracts.put(c) }

// newCreated returns a zero contractInfo for a contract the transaction
// creates.
func (lt *ledgerTx) newCreated() *contractInfo {
	if lt.nCreated < len(lt.created) {
		lt.nCreated++
		return &lt.created[lt.nCreated-1]
	}
	return new(contractInfo)
}

// contractList holds contracts by id: a list while there are few (most
// transactions use a contract or two, which fit buf), then a map indexes
// it.
type contractList struct {
	list  []*contractInfo
	index map[ContractID]int // position in list; nil while the list is small
	buf   [2]*contractInfo
}

// contractListMax is the longest list contractList searches without an
// index.
const contractListMax = 16

// find returns the position of the contract with id cid, or -1.
func (l *contractList) find(cid ContractID) int {
	if l.index != nil {
		if i, ok := l.index[cid]; ok {
			return i
		}
		return -1
	}
	for i, c := range l.list {
		if c.id == cid {
			return i
		}
	}
	return -1
}

// get returns the contract with id cid, or nil.
func (l *contractList) get(cid ContractID) *contractInfo {
	if i := l.find(cid); i >= 0 {
		return l.list[i]
	}
	return nil
}

// put records c under its id, in place of the contract it had.
func (l *contractList) put(c *contractInfo) {
	if i := l.find(c.id); i >= 0 {
		l.list[i] = c
		return
	}
	if l.list == nil {
		l.list = l.buf[:0]
	}
	l.list = append(l.list, c)
	switch {
	case l.index != nil:
		l.index[c.id] = len(l.list) - 1
	case len(l.list) > contractListMax:
		l.index = make(map[ContractID]int, 2*len(l.list))
		for i, x := range l.list {
			l.index[x.id] = i
		}
	}
}

// contractInfo is a contract the transaction has created or read from the
// store, in the engine's runtime form. Whether it is still active is the
// Builder's to say (Status).
type contractInfo struct {
	id           ContractID
	templateID   lf.TypeConID
	arg          Value
	signatories  []string
	stakeholders []string
	local        bool
	// checked are the package ids under which the metadata was
	// recomputed; a translated view (fetchContractAs) records them in
	// its owner.
	checked    []string
	checkedBuf [1]string     // checked's first element
	owner      *contractInfo // the engine's copy, for a translated view; else nil

	// key is the stored key of a ledger contract (keys.go).
	key *tx.KeyWithMaintainers
	// memo is the store's memo of a ledger contract's argument (nil:
	// none), which keeps the engine's validations (argmemo.go).
	memo *ArgMemo
}

// txError turns an error of the tx.Builder into the engine's *Error of
// the matching kind, with the tx error as Cause (its message is Speedy's).
func txError(err error) *Error {
	kind := ErrInternal
	var (
		auth     *tx.AuthorizationError
		inactive *tx.ContractNotActiveError
		notFound *tx.ContractNotFoundError
		rollback *tx.EffectfulRollbackError
	)
	switch {
	case errors.As(err, &auth):
		kind = ErrFailedAuthorization
	case errors.As(err, &inactive):
		kind = ErrContractNotActive
	case errors.As(err, &notFound):
		kind = ErrContractNotFound
	case errors.As(err, &rollback):
		kind = ErrEffectfulRollback
	}
	return &Error{Kind: kind, Message: err.Error(), Cause: err}
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
func partySet(v Value) ([]string, *Error) { return appendPartySet(nil, v) }

// appendPartySet is partySet appending the set to buf[:0] (which it may
// outgrow); buf's elements beyond the set are not used.
func appendPartySet(buf []string, v Value) ([]string, *Error) {
	out := buf[:0]
	switch x := v.(type) {
	case Party:
		out = append(out, string(x))
	case *List:
		n := 0
		for l := x; l != nil; l = l.Tail {
			n++
		}
		if out == nil {
			out = make([]string, 0, n) // an empty list gives an empty set, not nil
		} else {
			out = slices.Grow(out, n)
		}
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
	if len(out) < 2 { // a set already (a single party, say)
		return out, nil
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// asSet returns ps sorted and without duplicates: ps itself when it
// already is (stored metadata usually is), else a sorted copy.
func asSet(ps []string) []string {
	for i := 1; i < len(ps); i++ {
		if ps[i-1] >= ps[i] {
			return sortedSet(ps)
		}
	}
	return ps
}

func union(a, b []string) []string { return appendUnion(make([]string, 0, len(a)+len(b)), a, b) }

// appendUnion is union appending to dst[:0] (which it may outgrow).
func appendUnion(dst, a, b []string) []string {
	out := append(append(dst[:0], a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// choiceFn is the definition λ(this, arg[, self]). <part of choice> of a
// template or interface choice.
func (e *Engine) choiceFn(t lf.TypeConID, choice, part string) *topDef {
	k := defKey{kind: defChoicePart, id: t, a: choice, b: part}
	if d := e.cachedDef(k); d != nil {
		return d
	}
	return e.def(k, func(e *Engine) (lf.Expr, *Error) {
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
	m.ret(Timestamp(m.tx.b.GetTime()))
}

func (m *Machine) ledgerTimeLT(t Value) {
	if m.tx == nil {
		m.fail(m.noLedger("ledger_time_lt"))
		return
	}
	m.ret(Bool(m.tx.b.LedgerTimeLT(value.Timestamp(t.(Timestamp)))))
}

// create runs a create as Speedy does (Compiler.compileCreate, SBUCreate):
// precondition, signatories, observers (all catchable), then the Create
// node with its authorization.
func (m *Machine) create(t lf.TypeConID, arg Value, lv value.Value) {
	if m.tx == nil {
		m.fail(m.noLedger("create"))
		return
	}
	k := m.createFree.get()
	k.t, k.arg, k.lv, k.env, k.caps = t, arg, lv, m.env, m.caps
	k.defs = m.e.creates.load(t)
	k.args[0] = arg
	m.push(k)
	m.callDef(k.part(m.e, 0), k.args[:]...)
}

// createDefs are what a create of a template looks up: its precondition,
// signatories and observers, its key (templateKey) and its package's
// name. An engine keeps them once a create found them all
// (keepCreateDefs), and later creates look them up once, by the
// template's name, instead of each by its whole id.
type createDefs struct {
	parts   [3]*topDef // precond, signatories, observers
	key     *lf.TemplateKey
	pkgName string
}

// createParts are the template parts a create calls, in order.
var createParts = [3]string{"precond", "signatories", "observers"}

// part returns the template's function of the create's step i.
func (k *kCreate) part(e *Engine, i int) *topDef {
	if k.defs != nil {
		return k.defs.parts[i]
	}
	return e.templateFn(defKey{kind: defTemplatePart, id: k.t, a: createParts[i]})
}

// keepCreateDefs keeps t's createDefs after a create of t: the functions
// are the ones the engine keeps (def, which never replaces one), and the
// key and package name are its package's, which does not change. A
// function the engine did not keep (its package was not visible) leaves
// nothing kept.
func (e *Engine) keepCreateDefs(t lf.TypeConID) {
	key, err := e.templateKey(t)
	if err != nil {
		return
	}
	d := &createDefs{key: key, pkgName: e.packageName(t)}
	for i, a := range createParts {
		if d.parts[i] = e.cachedDef(defKey{kind: defTemplatePart, id: t, a: a}); d.parts[i] == nil {
			return
		}
	}
	e.creates.loadOrStore(t, d)
}

// kCreate is the frame of a create: it receives the precondition, then
// the signatories, then the observers (one frame for the three steps,
// pushed again for each).
type kCreate struct {
	t   lf.TypeConID
	arg Value
	// lv is arg's normalized ledger value when the command brought it
	// (CreateCommandOf), else nil.
	lv value.Value
	// defs are the engine's createDefs of t, nil until it keeps them.
	defs  *createDefs
	stage uint8
	sigs  Value
	env   []Value
	caps  []Value
	// args are the arguments of the three calls (arg), which only read
	// them.
	args [1]Value
	// sigSet and obsSet are the signatories and observers as sets, over
	// partyBuf while they fit (Builder.Create copies them).
	sigSet, obsSet []string
	partyBuf       [4]string
}

// useKey adds the Create node once the key is known. Then nothing
// refers to k any more (its caller, resume or createKey's continuation,
// returns; the Builder copied the parties, the contract and its node
// hold none of k's memory, nor does an error), and it is given back
// for the next create.
func (k *kCreate) useKey(m *Machine, key *tx.KeyWithMaintainers) *Error {
	err := m.finishCreate(k.t, k.arg, k.lv, k.sigSet, k.obsSet, key, k.defs)
	m.createFree.put(k)
	return err
}

func (k *kCreate) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	switch k.stage {
	case 0:
		if ok, _ := v.(Bool); !ok {
			m.fail(errorf(ErrTemplatePreconditionViolated, "Update failed due to precondition violation when creating %s", pretty(k.t)))
			return
		}
		k.stage = 1
		m.push(k)
		m.callDef(k.part(m.e, 1), k.args[:]...)
	case 1:
		k.stage, k.sigs = 2, v
		m.push(k)
		m.callDef(k.part(m.e, 2), k.args[:]...)
	default:
		sigs, err := appendPartySet(k.partyBuf[:0:len(k.partyBuf)/2], k.sigs)
		if err == nil {
			var obs []string
			obs, err = appendPartySet(k.partyBuf[len(k.partyBuf)/2:], v)
			if err == nil {
				k.sigSet, k.obsSet = sigs, obs
				var tk *lf.TemplateKey
				if k.defs != nil {
					tk = k.defs.key // its lookup spared
				} else {
					tk, err = m.e.templateKey(k.t)
				}
				if err == nil {
					m.createKey(k.t, tk, k.arg, k)
					return
				}
			}
		}
		if err != nil {
			m.fail(err)
		}
	}
}

// finishCreate normalizes the argument (unless its normalized value lv
// came with the command) and has the Builder add the Create node (seed,
// contract id, authorization). defs are t's createDefs if the engine
// keeps them; else it keeps them now.
func (m *Machine) finishCreate(t lf.TypeConID, arg Value, lv value.Value, sigs, obs []string, key *tx.KeyWithMaintainers, defs *createDefs) *Error {
	if verifyLedgerValues {
		checkLedgerValue(arg, lv)
	}
	if lv == nil {
		var err *Error
		if lv, err = toLedgerValue(arg); err != nil {
			return err
		}
	}
	var pkgName string
	if defs != nil {
		pkgName = defs.pkgName
	} else {
		pkgName = m.e.packageName(t)
		m.e.keepCreateDefs(t)
	}
	b := m.tx.b
	lcid, terr := b.Create(tx.CreateInput{PackageName: pkgName, TemplateID: t, Arg: lv, Signatories: sigs, Observers: obs, Key: key})
	if terr != nil {
		return txError(terr)
	}
	node := b.Local(lcid)
	cid := ContractID(lcid)
	c := m.tx.newCreated() // all zero: set member by member
	c.id, c.templateID, c.arg, c.local = cid, t, arg, true
	c.signatories, c.stakeholders = node.Signatories, node.Stakeholders
	m.tx.put(c)
	if key != nil {
		m.tx.keyed = append(m.tx.keyed, cid)
	}
	m.ret(cid)
	return nil
}

// fetchContract finds an active contract for template t and calls k with
// it; a ledger contract's metadata is recomputed under t (not catchable)
// the first time it is used under t's package.
func (m *Machine) fetchContract(t lf.TypeConID, cidV Value, k contractUser) {
	m.fetchContractAs(cidV, t, false, k)
}

// contractUser is what a contract fetch continues with: the contract
// (maybe a translated view) and the template it is used under.
type contractUser interface {
	useContract(m *Machine, c *contractInfo, t lf.TypeConID)
}

// useFunc is a contractUser from a function.
type useFunc func(m *Machine, c *contractInfo, t lf.TypeConID)

func (f useFunc) useContract(m *Machine, c *contractInfo, t lf.TypeConID) { f(m, c, t) }

// fetchInterfaceContract finds an active contract whose template, taken
// from the package the submission's preference gives for the contract's
// package name (its own template without a preference), implements
// iface.
func (m *Machine) fetchInterfaceContract(iface lf.TypeConID, cidV Value, k contractUser) {
	m.fetchContractAs(cidV, iface, true, k)
}

// lookupContract returns the contract cid for a use: the Builder says
// whether it is consumed or rolled back; otherwise the engine's copy, or
// the store's contract converted to runtime values.
func (m *Machine) lookupContract(cid ContractID) (*contractInfo, *Error) {
	lt := m.tx
	status, consumedBy := lt.b.Status(value.ContractID(cid))
	c := lt.contracts.get(cid)
	switch status {
	case tx.StatusConsumed:
		ce := &tx.ContractNotActiveError{ContractID: value.ContractID(cid), ConsumedBy: consumedBy}
		if c != nil {
			ce.TemplateID = c.templateID
		}
		return nil, txError(ce)
	case tx.StatusRolledBack:
		return nil, txError(&tx.ContractNotFoundError{ContractID: value.ContractID(cid)})
	}
	if c != nil {
		return c, nil
	}
	var sc *Contract
	if lt.store != nil {
		var err error
		if sc, err = lt.store.Contract(m.ctx, cid); err != nil {
			return nil, &Error{Kind: ErrContractNotFound, Message: "Contract could not be found with id " + string(cid), Cause: err}
		}
	}
	if sc == nil {
		return nil, errorf(ErrContractNotFound, "Contract could not be found with id %s", cid)
	}
	arg, err := m.e.contractArg(sc)
	if err != nil {
		err.Message = fmt.Sprintf("stored contract %s: %s", cid, err.Message)
		return nil, err
	}
	c = &contractInfo{id: cid, templateID: sc.TemplateID, arg: arg, signatories: asSet(sc.Signatories), stakeholders: asSet(sc.Stakeholders), key: sc.Key, memo: sc.Memo}
	lt.put(c)
	return c, nil
}

// fetchContractAs finds an active contract, maps its template to the
// template to use, and calls k: for a template fetch (byIface false) the
// contract's template must be want's (same module and name) and is used
// as want; for an interface fetch it is used as the template of the same
// module and name in the preferred package for its package name (itself
// when the submission has no preference), which must implement want.
func (m *Machine) fetchContractAs(cidV Value, want lf.TypeConID, byIface bool, k contractUser) {
	cid, ok := cidV.(ContractID)
	if !ok {
		m.fail(crash("contract id expected, got %T", cidV))
		return
	}
	c, lerr := m.lookupContract(cid)
	if lerr != nil {
		m.fail(lerr)
		return
	}
	ct := c.templateID
	t := want
	if byIface {
		var err *Error
		if t, err = m.e.preferredTemplate(ct, m.tx.pref); err != nil {
			m.fail(err)
			return
		}
		tpl, err := m.e.template(t)
		if err != nil {
			m.fail(err)
			return
		}
		if tpl.Instance(want) == nil {
			m.fail(errorf(ErrContractDoesNotImplementInterface, "Update failed due to contract %s not implementing an interface\nExpected contract to implement interface %s but contract has type %s", cidV, pretty(want), pretty(t)))
			return
		}
	} else if ct.Module != want.Module || ct.Name != want.Name {
		m.fail(errorf(ErrWronglyTypedContract, "Update failed due to wrongly typed contract id %s\nExpected contract of type %s but got %s", cidV, pretty(want), pretty(ct)))
		return
	}
	if ct.PackageID != t.PackageID {
		// Use a translated view of the contract; the engine's copy keeps
		// the original.
		arg, err := m.e.translate(c.arg, ct.PackageID, t.PackageID)
		if err != nil {
			err.Message = fmt.Sprintf("Translation of contract %s to a value of type %s fails.\nReason: %s", cid, t, err.Message)
			m.fail(err)
			return
		}
		view := *c
		view.arg = arg
		view.owner = c
		c = &view
		if slices.Contains(c.owner.checked, t.PackageID) {
			k.useContract(m, c, t)
			return
		}
	} else if c.local || slices.Contains(c.checked, t.PackageID) {
		k.useContract(m, c, t)
		return
	}
	if m.validated(c, t) {
		k.useContract(m, c, t)
		return
	}
	v := &kValidate{c: c, cid: cid, ct: ct, t: t, k: k, env: m.env, caps: m.caps}
	v.args[0] = c.arg
	m.push(v)
	m.push(kPreventCatch{})
	m.callDef(m.e.templateFn(defKey{kind: defTemplatePart, id: t, a: "precond"}), v.args[:]...)
}

// validated reports whether the engine validated a contract with c's
// argument and metadata under the template t before (argmemo.go), and
// then records it as checked under t's package, as kValidate would.
func (m *Machine) validated(c *contractInfo, t lf.TypeConID) bool {
	if c.memo == nil || !m.e.memoizesChecks() || m.e.src.Package(t.PackageID) == nil ||
		!c.memo.validatedBy(m.e.self, t.PackageID, c.signatories, c.stakeholders) {
		return false
	}
	owner := c
	if c.owner != nil {
		owner = c.owner
	}
	if owner.checked == nil {
		owner.checked = owner.checkedBuf[:0]
	}
	owner.checked = append(owner.checked, t.PackageID)
	return true
}

// kValidate recomputes a ledger contract's metadata under the template t
// it is used as (not catchable): it receives the precondition, then the
// signatories, then the observers (one frame for the three steps, pushed
// again for each), checks them against the stored metadata and calls k.
type kValidate struct {
	c      *contractInfo
	cid    ContractID
	ct, t  lf.TypeConID
	k      contractUser
	stage  uint8
	sigSet []string
	env    []Value
	caps   []Value
	args   [1]Value // the contract argument, for the three calls (which only read it)
	// partyBuf holds the recomputed signatories, observers and
	// stakeholders while they fit: they are only compared.
	partyBuf [8]string
}

func (v *kValidate) changed(m *Machine, what string) {
	m.fail(errorf(ErrUpgradeValidationFailed, "Validation fails when trying to upgrade the contract %s from %s to %s: the %s changed", v.cid, v.ct, v.t, what))
}

func (v *kValidate) resume(m *Machine, x Value) {
	m.env, m.caps = v.env, v.caps
	c := v.c
	switch v.stage {
	case 0:
		if ok, _ := x.(Bool); !ok {
			m.fail(errorf(ErrTemplatePreconditionViolated, "Update failed due to precondition violation when fetching %s", v.cid))
			return
		}
		v.stage = 1
		m.push(v)
		m.push(kPreventCatch{})
		m.callDef(m.e.templateFn(defKey{kind: defTemplatePart, id: v.t, a: "signatories"}), v.args[:]...)
	case 1:
		sigSet, err := appendPartySet(v.partyBuf[0:0:2], x)
		if err != nil {
			m.fail(err)
			return
		}
		if !slices.Equal(sigSet, c.signatories) {
			v.changed(m, "signatories")
			return
		}
		v.stage, v.sigSet = 2, sigSet
		m.push(v)
		m.push(kPreventCatch{})
		m.callDef(m.e.templateFn(defKey{kind: defTemplatePart, id: v.t, a: "observers"}), v.args[:]...)
	default:
		obsSet, err := appendPartySet(v.partyBuf[2:2:4], x)
		if err != nil {
			m.fail(err)
			return
		}
		if !slices.Equal(appendUnion(v.partyBuf[4:4], v.sigSet, obsSet), c.stakeholders) {
			v.changed(m, "stakeholders")
			return
		}
		owner := c
		if c.owner != nil {
			owner = c.owner
		}
		if owner.checked == nil {
			owner.checked = owner.checkedBuf[:0]
		}
		owner.checked = append(owner.checked, v.t.PackageID)
		if c.memo != nil && m.e.memoizesChecks() {
			c.memo.addValidated(m.e.self, v.t.PackageID, c.signatories, c.stakeholders)
		}
		v.k.useContract(m, c, v.t)
	}
}

// ListOfStrings returns a [Party] of the given parties.
func ListOfStrings(ps []string) *List {
	vs := make([]Value, len(ps))
	for i, p := range ps {
		vs[i] = Party(p)
	}
	return ListOf(vs...)
}

// fetch runs a template fetch (Compiler.compileFetchTemplate,
// SBuiltinFun.fetchTemplate, SBUInsertFetchNode).
func (m *Machine) fetch(t lf.TypeConID, cid Value) {
	if m.tx == nil {
		m.fail(m.noLedger("fetch"))
		return
	}
	m.fetchContract(t, cid, useFunc(func(m *Machine, c *contractInfo, _ lf.TypeConID) {
		if err := m.addFetch(c, t, nil); err != nil {
			m.fail(err)
			return
		}
		m.ret(c.arg)
	}))
}

// addFetch has the Builder add the Fetch node (acting parties,
// authorization, inputs).
func (m *Machine) addFetch(c *contractInfo, t lf.TypeConID, iface *lf.TypeConID) *Error {
	_, err := m.tx.b.Fetch(tx.FetchInput{ContractID: value.ContractID(c.id), PackageName: m.e.packageName(t), TemplateID: t, InterfaceID: iface,
		Signatories: c.signatories, Stakeholders: c.stakeholders, Key: m.contractKey(c)})
	if err != nil {
		return txError(err)
	}
	return nil
}

// exercise runs a template choice (Compiler.translateChoiceBody,
// SBUBeginExercise).
func (m *Machine) exercise(t lf.TypeConID, choice string, cidV, arg Value) {
	if m.tx == nil {
		m.fail(m.noLedger("exercise"))
		return
	}
	ch, err := m.e.templateChoice(t, choice)
	if err != nil {
		m.fail(err)
		return
	}
	m.fetchContract(t, cidV, &kChoice{owner: t, ch: ch, arg: arg})
}

// kChoice evaluates the controllers and then the observers of a choice
// (not catchable) on the fetched contract, then begins the exercise: one
// frame for both steps, pushed again for each.
type kChoice struct {
	owner    lf.TypeConID // the template or interface that defines the choice
	iface    lf.TypeConID // the interface of an interface choice
	hasIface bool
	ch       *lf.Choice
	arg      Value
	// byKey is the resolved key of an exercise_by_key (keys.go), else nil.
	byKey *tx.KeyWithMaintainers
	// Set when the contract is found:
	t     lf.TypeConID
	c     *contractInfo
	this  Value
	stage uint8
	ctrlV Value
	env   []Value
	caps  []Value
	args  [2]Value // this and arg, for the two calls (which only read them)
	// partyBuf holds the controllers and the choice observers as sets
	// while they fit (Builder.BeginExercise copies them).
	partyBuf [4]string
}

func (k *kChoice) useContract(m *Machine, c *contractInfo, t lf.TypeConID) {
	k.c, k.t, k.this = c, t, c.arg
	if k.hasIface {
		k.this = &Any{Type: &lf.TCon{ID: t}, Value: c.arg}
	}
	k.env, k.caps = m.env, m.caps
	k.args = [2]Value{k.this, k.arg}
	m.push(k)
	m.push(kPreventCatch{})
	m.callDef(m.e.choiceFn(k.owner, k.ch.Name, "controllers"), k.args[:]...)
}

func (k *kChoice) resume(m *Machine, v Value) {
	m.env, m.caps = k.env, k.caps
	if k.stage == 0 {
		k.stage, k.ctrlV = 1, v
		m.push(k)
		m.push(kPreventCatch{})
		m.callDef(m.e.choiceFn(k.owner, k.ch.Name, "observers"), k.args[:]...)
		return
	}
	ctrls, err := appendPartySet(k.partyBuf[:0:len(k.partyBuf)/2], k.ctrlV)
	if err != nil {
		m.fail(err)
		return
	}
	obs, err := appendPartySet(k.partyBuf[len(k.partyBuf)/2:], v)
	if err != nil {
		m.fail(err)
		return
	}
	var iface *lf.TypeConID
	if k.hasIface {
		iface = &k.iface
	}
	m.beginExercise(k.t, iface, k.ch, k.this, k.c, k.arg, ctrls, obs, k.byKey)
}

// beginExercise normalizes the choice argument, has the Builder open the
// Exercise node (authorization, consumption, the node's seed) and runs the
// choice body. byKey is the resolved key of an exercise_by_key (the node is
// then marked by key), else nil (the node carries the contract's own key).
func (m *Machine) beginExercise(t lf.TypeConID, iface *lf.TypeConID, ch *lf.Choice, this Value, c *contractInfo, arg Value, ctrls, obs []string, byKey *tx.KeyWithMaintainers) {
	lv, err := toLedgerValue(arg)
	if err != nil {
		m.fail(err)
		return
	}
	key := byKey
	if key == nil {
		key = m.contractKey(c)
	}
	if _, terr := m.tx.b.BeginExercise(tx.ExerciseInput{TargetID: value.ContractID(c.id), PackageName: m.e.packageName(t), TemplateID: t,
		InterfaceID: iface, Choice: ch.Name, Consuming: ch.Consuming, Controllers: ctrls, ChoiceObservers: obs, ChosenValue: lv,
		Signatories: c.signatories, Stakeholders: c.stakeholders, Key: key, ByKey: byKey != nil}); terr != nil {
		m.fail(txError(terr))
		return
	}
	m.push(kExercise{})
	owner := t
	if iface != nil {
		owner = *iface
	}
	m.callDef(m.e.choiceFn(owner, ch.Name, "update"), this, arg, c.id, Token{})
}

// kExercise ends an exercise: with its result, or, when an exception
// unwinds through it, without one.
type kExercise struct{}

func (kExercise) resume(m *Machine, v Value) {
	lv, err := toLedgerValue(v)
	if err != nil {
		m.fail(err)
		return
	}
	if _, terr := m.tx.b.EndExercise(lv); terr != nil {
		m.fail(txError(terr))
		return
	}
	m.ret(v)
}

func (kExercise) unwind(m *Machine) {
	if _, err := m.tx.b.AbortExercise(); err != nil {
		m.fail(txError(err))
	}
}

// exerciseInterface runs an interface choice
// (Compiler.translateInterfaceChoiceBody, SBuiltinFun.fetchInterface;
// without a guard: LF 2.dev only).
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
	m.fetchInterfaceContract(iface, cidV, &kChoice{owner: iface, iface: iface, hasIface: true, ch: ch, arg: arg})
}

// fetchInterface runs fetch_interface (Compiler.compileFetchInterface,
// SBuiltinFun.fetchInterface): a Fetch node with the interface id; the
// result is the interface value.
func (m *Machine) fetchInterface(iface lf.TypeConID, cid Value) {
	if m.tx == nil {
		m.fail(m.noLedger("fetch_interface"))
		return
	}
	m.fetchInterfaceContract(iface, cid, useFunc(func(m *Machine, c *contractInfo, t lf.TypeConID) {
		ic := iface
		if err := m.addFetch(c, t, &ic); err != nil {
			m.fail(err)
			return
		}
		m.ret(&Any{Type: &lf.TCon{ID: t}, Value: c.arg})
	}))
}
