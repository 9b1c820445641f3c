package tx

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Mode is the contract-state mode of a synchronizer's protocol version
// (NextGenContractStateMachine.Mode; Canton's
// community/base/src/main/scala/com/digitalasset/canton/version/InterpretationConfig.scala
// gives protocol version 34 NoKey and 35 NUCK): whether a caught exception
// may roll back creates and consuming exercises.
type Mode uint8

const (
	// ModeNoKey (protocol version 34): rolling back any node is allowed.
	// It is the zero Mode.
	ModeNoKey Mode = iota
	// ModeNUCK (protocol version 35, non-unique contract keys): rolling
	// back a create or a consuming exercise fails with
	// *EffectfulRollbackError.
	ModeNUCK
)

// Config is the submission a Builder builds a transaction for.
type Config struct {
	// ActAs are the submitting parties: the authorizers of the roots.
	// readAs parties are not authorizers and have no place here.
	ActAs []string
	// TransactionSeed is the seed of the root context (TransactionSeed
	// derives it from the submission seed, as Hash.deriveTransactionSeed).
	TransactionSeed Hash
	// RootSeeds, when not nil, are the seeds of the root action nodes
	// (root action i takes RootSeeds[i] instead of DeriveNodeSeed of
	// TransactionSeed): a prepared transaction re-interpreted from its
	// roots' node seeds, as Canton's reinterpret does. An entry for a
	// root Fetch or QueryByKey is unused; roots beyond the list derive
	// their seeds from TransactionSeed.
	RootSeeds []Hash
	// PreparationTime is the time contract discriminators take (µs since
	// the epoch): the ledger effective time chosen before interpretation.
	PreparationTime value.Timestamp
	// LedgerTime is the ledger effective time get_time returns
	// (SBUGetTime).
	LedgerTime value.Timestamp
	// Mode is the contract-state mode; the zero value is ModeNoKey.
	Mode Mode
}

// ContractStatus is what the transaction being built knows of a contract.
type ContractStatus uint8

const (
	// StatusUnknown: the transaction has neither created nor used the
	// contract; the engine asks the ledger for it.
	StatusUnknown ContractStatus = iota
	// StatusActive: created or used by the transaction and not consumed.
	StatusActive
	// StatusConsumed: consumed by a consuming exercise of the transaction
	// (using it again is *ContractNotActiveError).
	StatusConsumed
	// StatusRolledBack: created inside a try block that was rolled back
	// (using it again is *ContractNotFoundError).
	StatusRolledBack
)

// CreateInput is what the engine knows of a create when it asks for the
// Create node (PartialTransaction.insertCreate): the template, the
// normalized argument and the contract's metadata.
type CreateInput struct {
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template.
	TemplateID lf.TypeConID
	// Arg is the normalized argument.
	Arg value.Value
	// Signatories are the signatories (any order, duplicates allowed).
	Signatories []string
	// Observers are the observers (any order, duplicates allowed; parties
	// that are also signatories are fine).
	Observers []string
	// Key is the key with its maintainers, nil when none.
	Key *KeyWithMaintainers
}

// FetchInput is a fetch of a contract whose metadata the engine has
// computed.
type FetchInput struct {
	// ContractID is the contract.
	ContractID value.ContractID
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template the fetch uses.
	TemplateID lf.TypeConID
	// InterfaceID is the interface of a fetch_interface, or nil.
	InterfaceID *lf.TypeConID
	// Signatories and Stakeholders are the contract's (recomputed under
	// TemplateID).
	Signatories, Stakeholders []string
	// Key is the contract's key, nil when none.
	Key *KeyWithMaintainers
	// ByKey reports a fetch by key.
	ByKey bool
}

// ExerciseInput is an exercise whose controllers and choice observers the
// engine has evaluated (SBUBeginExercise).
type ExerciseInput struct {
	// TargetID is the exercised contract.
	TargetID value.ContractID
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template the choice runs under.
	TemplateID lf.TypeConID
	// InterfaceID is the interface of an interface choice, or nil.
	InterfaceID *lf.TypeConID
	// Choice is the choice name.
	Choice string
	// Consuming reports a consuming choice.
	Consuming bool
	// Controllers are the choice's controllers: the acting parties.
	Controllers []string
	// ChoiceObservers are the choice observers.
	ChoiceObservers []string
	// ChoiceAuthorizers are the explicit choice authorizers (LF dev),
	// used only when HasChoiceAuthorizers is set.
	ChoiceAuthorizers []string
	// HasChoiceAuthorizers reports that the choice declares authorizers.
	HasChoiceAuthorizers bool
	// ChosenValue is the normalized choice argument.
	ChosenValue value.Value
	// Signatories and Stakeholders are the contract's (recomputed under
	// TemplateID).
	Signatories, Stakeholders []string
	// Key is the contract's key, nil when none.
	Key *KeyWithMaintainers
	// ByKey reports an exercise by key.
	ByKey bool
}

// QueryByKeyInput is a key query the engine has resolved (LF 2.3).
type QueryByKeyInput struct {
	// PackageName is the name of the template's package.
	PackageName string
	// TemplateID is the template.
	TemplateID lf.TypeConID
	// Key is the key with its maintainers.
	Key KeyWithMaintainers
	// Result are the contracts found, in order.
	Result []value.ContractID
	// Exhaustive reports that Result lists every match.
	Exhaustive bool
}

type ctxKind uint8

const (
	ctxRoot ctxKind = iota
	ctxExercise
	ctxTry
)

// bctx is one open context: the root, an exercise or a try block.
type bctx struct {
	kind     ctxKind
	parent   *bctx
	children []NodeID
	// nextIdx is the index of the next action child
	// (PartialTransaction.Context.nextActionChildIdx).
	nextIdx int
	// seed derives the children's seeds (root: the transaction seed;
	// exercise: the exercise's node seed; try: unused, the parent's).
	seed        Hash
	authorizers []string
	// node is the exercise's node id or the try's (future rollback) id.
	node NodeID
	// saved is the contract state at the start of a try.
	saved savedState
}

// savedState is the contract state at the start of a try: the lengths of
// the Builder's local and consumed logs, which only grow between a try's
// start and its end. Rolling the try back marks the local contracts
// created since as rolled back and forgets the consumptions since.
type savedState struct {
	local, consumed int
}

// localContract is a contract this transaction created: its Create node
// and whether it is active (false once a rollback undid its creation).
type localContract struct {
	node   *Create
	active bool
}

// Builder builds one transaction as Speedy's PartialTransaction does: the
// engine calls Create, Fetch, BeginExercise/EndExercise/AbortExercise,
// BeginTry/EndTry/RollbackTry and QueryByKey as the update runs, then
// Finish. The Builder allocates node ids and node seeds, derives contract
// ids, keeps the contract state (created, consumed, rolled back, the
// ledger contracts used) and checks authorization at each node.
//
// Every error a method returns is fatal to the interpretation (Speedy's
// try never catches them): after one, the Builder must not be used
// again. A Builder is not safe for concurrent use.
type Builder struct {
	cfg   Config
	nodes []Node
	// seeds are the node seeds, in node id order (ids are allocated in
	// increasing order, and only Create and Exercise nodes have one).
	seeds []NodeSeed
	ctx   *bctx
	root  bctx // the root context (ctx's last ancestor)
	// local are the contracts this transaction created, rolled back or
	// not, in creation order.
	local cidLog[localContract]
	// consumed maps the contracts consumed (and not rolled back) to the
	// consuming Exercise node, in consumption order.
	consumed cidLog[NodeID]
	// inputs are the ledger contracts used (fetched, exercised), in
	// first-use order; rollbacks do not remove them.
	inputs cidSet
	// effects are the Create and consuming Exercise nodes in the order
	// they were built (for EffectfulRollbackError).
	effects []NodeID
	// time are the time bounds (GetTime, LedgerTimeLT).
	time TimeBounds
	// bufs hold the first elements of the lists above.
	bufs builderBufs
}

// builderBufs are the first elements of a Builder's lists, in the
// Builder's own allocation: most transactions have a node or two. The
// transaction Finish returns may share them (asBuilt).
type builderBufs struct {
	nodes    [2]Node
	seeds    [2]NodeSeed
	roots    [2]NodeID
	effects  [2]NodeID
	local    [2]cidLogEntry[localContract]
	consumed [1]cidLogEntry[NodeID]
	actAs    [2]string
}

// NewBuilder returns a Builder for a submission.
func NewBuilder(cfg Config) *Builder {
	b := &Builder{}
	b.Init(cfg)
	return b
}

// Init makes a zero Builder ready for a submission, as NewBuilder does:
// it lets a caller hold the Builder inside an allocation of its own. The
// Builder must not be moved afterwards (it points into itself). Init
// panics on a Builder that is not zero.
func (b *Builder) Init(cfg Config) {
	if b.ctx != nil {
		panic("tx: Init of a Builder in use")
	}
	// The submitting parties as a set, in the Builder's own buffer when
	// they fit (errors copy the authorizers they report).
	if len(cfg.ActAs) <= len(b.bufs.actAs) && len(cfg.ActAs) > 0 {
		as := b.bufs.actAs[:copy(b.bufs.actAs[:], cfg.ActAs)]
		slices.Sort(as)
		cfg.ActAs = slices.Clip(slices.Compact(as))
	} else {
		cfg.ActAs = sortedSet(cfg.ActAs)
	}
	// b is zero (a Builder in use has a context): only the fields that
	// are not are set, rather than the whole Builder written anew.
	b.cfg, b.time = cfg, Unconstrained
	b.root.kind, b.root.seed, b.root.authorizers = ctxRoot, cfg.TransactionSeed, cfg.ActAs
	b.ctx = &b.root
	b.nodes, b.seeds, b.effects = b.bufs.nodes[:0], b.bufs.seeds[:0], b.bufs.effects[:0]
	b.root.children = b.bufs.roots[:0]
	b.local.list, b.consumed.list = b.bufs.local[:0], b.bufs.consumed[:0]
}

// cidLog maps contract ids to values in the order they were added; it
// only grows, except that truncate drops the newest entries. It is a list
// while it is small (most transactions have a few contracts); then a map
// indexes it.
type cidLog[V any] struct {
	list  []cidLogEntry[V]
	index map[value.ContractID]int // nil while the list is small
}

type cidLogEntry[V any] struct {
	id value.ContractID
	v  V
}

// find returns the position of c in the list, or -1.
func (l *cidLog[V]) find(c value.ContractID) int {
	if l.index != nil {
		if i, ok := l.index[c]; ok {
			return i
		}
		return -1
	}
	for i := range l.list {
		if l.list[i].id == c {
			return i
		}
	}
	return -1
}

// get returns the value of c.
func (l *cidLog[V]) get(c value.ContractID) (V, bool) {
	if i := l.find(c); i >= 0 {
		return l.list[i].v, true
	}
	var zero V
	return zero, false
}

// add adds c, which must not be in l, with value v.
func (l *cidLog[V]) add(c value.ContractID, v V) {
	l.list = append(l.list, cidLogEntry[V]{id: c, v: v})
	switch {
	case l.index != nil:
		l.index[c] = len(l.list) - 1
	case len(l.list) > cidSetListMax:
		l.index = make(map[value.ContractID]int, 2*len(l.list))
		for i, e := range l.list {
			l.index[e.id] = i
		}
	}
}

// truncate drops the entries from position n on.
func (l *cidLog[V]) truncate(n int) {
	if l.index != nil {
		for _, e := range l.list[n:] {
			delete(l.index, e.id)
		}
	}
	clear(l.list[n:])
	l.list = l.list[:n]
}

// Authorizers returns the current authorizers (sorted): actAs at the
// root; inside an exercise its controllers ∪ the contract's signatories
// (or its explicit choice authorizers); inside a try, those around it.
func (b *Builder) Authorizers() []string { return slices.Clone(b.ctx.authorizers) }

// InExercise reports whether an exercise is open (inside a try or not).
func (b *Builder) InExercise() bool {
	for c := b.ctx; c != nil; c = c.parent {
		if c.kind == ctxExercise {
			return true
		}
	}
	return false
}

// Status returns what the transaction knows of a contract, and for a
// consumed one the consuming node.
func (b *Builder) Status(cid value.ContractID) (ContractStatus, NodeID) {
	if nid, ok := b.consumed.get(cid); ok {
		return StatusConsumed, nid
	}
	if lc, ok := b.local.get(cid); ok {
		if !lc.active {
			return StatusRolledBack, 0
		}
		return StatusActive, 0
	}
	if b.inputs.has(cid) {
		return StatusActive, 0
	}
	return StatusUnknown, 0
}

// Local returns the Create node of a contract this transaction created
// (whatever its status), or nil. The node must not be modified.
func (b *Builder) Local(cid value.ContractID) *Create {
	lc, _ := b.local.get(cid)
	return lc.node
}

// checkUsable returns the error of using a contract that is consumed or
// rolled back.
func (b *Builder) checkUsable(cid value.ContractID, t lf.TypeConID) error {
	switch st, nid := b.Status(cid); st {
	case StatusConsumed:
		return &ContractNotActiveError{ContractID: cid, TemplateID: t, ConsumedBy: nid}
	case StatusRolledBack:
		return &ContractNotFoundError{ContractID: cid}
	}
	return nil
}

// use records a contract the transaction did not create as an input.
func (b *Builder) use(cid value.ContractID) {
	if b.local.find(cid) >= 0 || b.inputs.has(cid) {
		return
	}
	b.inputs.add(cid)
}

// childSeed returns the seed of action child i of the context c: a try
// block continues its parent's numbering and seeds, as
// PartialTransaction.beginTry does.
func (b *Builder) childSeed(c *bctx, i int) Hash {
	for c.kind == ctxTry {
		c = c.parent
	}
	if c.kind == ctxRoot && i < len(b.cfg.RootSeeds) {
		return b.cfg.RootSeeds[i]
	}
	return DeriveNodeSeed(c.seed, i)
}

func (b *Builder) alloc(n Node) NodeID {
	b.nodes = append(b.nodes, n)
	return NodeID(len(b.nodes) - 1)
}

func nodeVersion(key bool) string {
	if key {
		return VersionKeys
	}
	return VersionNoKey
}

// Create adds a Create node (PartialTransaction.insertCreate): it derives
// the node seed and the contract id (V1, unsuffixed:
// LocalContractID(Discriminator(seed, preparation time, stakeholders))),
// allocates the node id, checks authorization (signatories ⊆ authorizers,
// signatories ≠ ∅, maintainers ⊆ signatories: *AuthorizationError naming
// the new node) and records the contract as active and local. It returns
// the new contract id.
func (b *Builder) Create(in CreateInput) (value.ContractID, error) {
	// The node and the parties of a small contract are one allocation.
	x := &struct {
		node    Create
		parties [3]string
	}{}
	sigs, stk := sigsAndStakeholders(x.parties[:0], in.Signatories, in.Observers)
	seed := b.childSeed(b.ctx, b.ctx.nextIdx)
	cid := LocalContractID(Discriminator(seed, b.cfg.PreparationTime, stk))
	var key *KeyWithMaintainers
	if in.Key != nil {
		key = &KeyWithMaintainers{Key: in.Key.Key, Maintainers: sortedSet(in.Key.Maintainers)}
	}
	node := &x.node // new, all zero: set member by member
	node.ContractID, node.PackageName, node.TemplateID, node.Arg = cid, in.PackageName, in.TemplateID, in.Arg
	node.Signatories, node.Stakeholders, node.Key, node.Version = sigs, stk, key, nodeVersion(key != nil)
	nid := NodeID(len(b.nodes))
	if err := authorizeCreate(nid, node, b.ctx.authorizers); err != nil {
		return "", err
	}
	if b.local.find(cid) >= 0 || b.inputs.has(cid) {
		return "", &DuplicateContractIDError{ContractID: cid}
	}
	b.alloc(node)
	b.seeds = append(b.seeds, NodeSeed{Node: nid, Seed: seed})
	b.ctx.children = append(b.ctx.children, nid)
	b.ctx.nextIdx++
	b.local.add(cid, localContract{node: node, active: true})
	b.effects = append(b.effects, nid)
	return cid, nil
}

// Fetch adds a Fetch node (PartialTransaction.insertFetch): the contract
// must not be consumed (*ContractNotActiveError) or rolled back
// (*ContractNotFoundError); actingParties = authorizers ∩ stakeholders,
// which must not be empty (*AuthorizationError, FetchMissingAuthorization).
// A contract the transaction did not create becomes an input. A fetch takes
// an action index (and so moves the seeds of later siblings) but has no
// seed of its own.
func (b *Builder) Fetch(in FetchInput) (NodeID, error) {
	if err := b.checkUsable(in.ContractID, in.TemplateID); err != nil {
		return 0, err
	}
	stk := sortedSet(in.Stakeholders)
	nid := NodeID(len(b.nodes))
	if err := authorizeFetch(nid, in.TemplateID, stk, b.ctx.authorizers); err != nil {
		return 0, err
	}
	var key *KeyWithMaintainers
	if in.Key != nil {
		key = &KeyWithMaintainers{Key: in.Key.Key, Maintainers: sortedSet(in.Key.Maintainers)}
	}
	b.use(in.ContractID)
	b.alloc(&Fetch{ContractID: in.ContractID, PackageName: in.PackageName, TemplateID: in.TemplateID, InterfaceID: in.InterfaceID,
		ActingParties: intersect(b.ctx.authorizers, stk), Signatories: sortedSet(in.Signatories), Stakeholders: stk,
		Key: key, ByKey: key != nil && in.ByKey, Version: nodeVersion(key != nil)})
	b.ctx.children = append(b.ctx.children, nid)
	b.ctx.nextIdx++
	return nid, nil
}

// QueryByKey adds a QueryByKey node (LF 2.3): maintainers ⊆ authorizers
// (*AuthorizationError, LookupByKeyMissingAuthorization). It takes an
// action index but no seed. The key-state bookkeeping of NUCK mode (key
// inputs, InconsistentContractKey) is the caller's.
func (b *Builder) QueryByKey(in QueryByKeyInput) (NodeID, error) {
	ms := sortedSet(in.Key.Maintainers)
	nid := NodeID(len(b.nodes))
	if err := authorizeLookup(nid, in.TemplateID, ms, b.ctx.authorizers); err != nil {
		return 0, err
	}
	for _, c := range in.Result {
		b.use(c)
	}
	b.alloc(&QueryByKey{PackageName: in.PackageName, TemplateID: in.TemplateID, Key: KeyWithMaintainers{Key: in.Key.Key, Maintainers: ms},
		Result: slices.Clone(in.Result), Exhaustive: in.Exhaustive, Version: VersionKeys})
	b.ctx.children = append(b.ctx.children, nid)
	b.ctx.nextIdx++
	return nid, nil
}

// BeginExercise opens an exercise (PartialTransaction.beginExercises): the
// contract must not be consumed or rolled back; a consuming choice consumes
// it now, before the body runs; authorization: controllers ≠ ∅
// (NoControllers), explicit authorizers ≠ ∅ when declared (NoAuthorizers),
// controllers ∪ explicit authorizers ⊆ authorizers
// (ExerciseMissingAuthorization). The node id and seed are allocated now;
// the children that follow are the body's, authorized by controllers ∪
// signatories (or the explicit authorizers). It must be closed by
// EndExercise or AbortExercise.
func (b *Builder) BeginExercise(in ExerciseInput) (NodeID, error) {
	if err := b.checkUsable(in.TargetID, in.TemplateID); err != nil {
		return 0, err
	}
	ctrl, chObs := sortedSets2(in.Controllers, in.ChoiceObservers)
	var chAuth []string
	if in.HasChoiceAuthorizers {
		chAuth = sortedSet(in.ChoiceAuthorizers)
		if chAuth == nil {
			chAuth = []string{}
		}
	}
	nid := NodeID(len(b.nodes))
	if err := authorizeExercise(nid, in.TemplateID, in.Choice, ctrl, in.HasChoiceAuthorizers, chAuth, b.ctx.authorizers); err != nil {
		return 0, err
	}
	var key *KeyWithMaintainers
	if in.Key != nil {
		key = &KeyWithMaintainers{Key: in.Key.Key, Maintainers: sortedSet(in.Key.Maintainers)}
	}
	sigs, stk := sortedSets2(in.Signatories, in.Stakeholders)
	node := &Exercise{TargetID: in.TargetID, PackageName: in.PackageName, TemplateID: in.TemplateID, InterfaceID: in.InterfaceID,
		Choice: in.Choice, Consuming: in.Consuming, ActingParties: ctrl, ChosenValue: in.ChosenValue,
		Signatories: sigs, Stakeholders: stk, ChoiceObservers: chObs,
		ChoiceAuthorizers: chAuth, Key: key, ByKey: key != nil && in.ByKey, Version: nodeVersion(key != nil)}
	b.use(in.TargetID)
	if in.Consuming {
		b.consumed.add(in.TargetID, nid)
		b.effects = append(b.effects, nid)
	}
	seed := b.childSeed(b.ctx, b.ctx.nextIdx)
	b.alloc(node)
	b.seeds = append(b.seeds, NodeSeed{Node: nid, Seed: seed})
	b.ctx = &bctx{kind: ctxExercise, parent: b.ctx, seed: seed, authorizers: childAuthorizers(node), node: nid}
	return nid, nil
}

// EndExercise closes the innermost open context, which must be an
// exercise, with the choice's normalized result; the Exercise node joins
// its parent. It returns the node's id.
func (b *Builder) EndExercise(result value.Value) (NodeID, error) {
	return b.closeExercise("EndExercise", result)
}

// AbortExercise closes the innermost open exercise without a result, as
// Speedy does for an exercise an exception unwinds
// (PartialTransaction.abortExercises). The node keeps its children so far.
// RollbackTry calls it for the exercises open inside the try, so the engine
// need not.
func (b *Builder) AbortExercise() (NodeID, error) {
	return b.closeExercise("AbortExercise", nil)
}

func (b *Builder) closeExercise(op string, result value.Value) (NodeID, error) {
	c := b.ctx
	if c.kind != ctxExercise {
		return 0, &BuilderStateError{Op: op, Problem: "no open exercise"}
	}
	ex := b.nodes[c.node].(*Exercise)
	ex.Children = c.children
	ex.Result = result
	b.ctx = c.parent
	b.ctx.children = append(b.ctx.children, c.node)
	b.ctx.nextIdx++
	return c.node, nil
}

// BeginTry opens a try block (PartialTransaction.beginTry): it reserves the
// node id of the Rollback node it may become, keeps the authorizers and
// continues the enclosing action numbering. It must be closed by EndTry or
// RollbackTry.
func (b *Builder) BeginTry() {
	nid := b.alloc(nil)
	b.ctx = &bctx{kind: ctxTry, parent: b.ctx, nextIdx: b.ctx.nextIdx, authorizers: b.ctx.authorizers, node: nid,
		saved: savedState{local: len(b.local.list), consumed: len(b.consumed.list)}}
}

// EndTry closes the innermost try block normally
// (PartialTransaction.endTry): its nodes join the parent as if there had
// been no try; no Rollback node is made.
func (b *Builder) EndTry() error {
	c := b.ctx
	if c.kind != ctxTry {
		return &BuilderStateError{Op: "EndTry", Problem: "the innermost open context is not a try"}
	}
	b.ctx = c.parent
	b.ctx.children = append(b.ctx.children, c.children...)
	b.ctx.nextIdx = c.nextIdx
	return nil
}

// RollbackTry closes the innermost try block after its exception was caught
// (PartialTransaction.rollbackTry): exercises still open inside it are
// aborted (AbortExercise), its nodes become a Rollback node in the parent,
// and the contract state returns to what it was at BeginTry (creates
// unknown again — their use is *ContractNotFoundError — and archives
// undone). The ledger contracts used inside stay inputs. In ModeNUCK,
// rolling back a create or a consuming exercise is *EffectfulRollbackError.
// The next sibling continues the action numbering after the rolled-back
// nodes.
func (b *Builder) RollbackTry() error {
	for b.ctx.kind == ctxExercise {
		if _, err := b.AbortExercise(); err != nil {
			return err
		}
	}
	c := b.ctx
	if c.kind != ctxTry {
		return &BuilderStateError{Op: "RollbackTry", Problem: "no open try"}
	}
	// The contracts created since the try began that are active, and the
	// consumptions since, are what the rollback undoes. Entries from
	// before the try began have not changed since.
	createdSince := slices.ContainsFunc(b.local.list[c.saved.local:], func(e cidLogEntry[localContract]) bool { return e.v.active })
	if b.cfg.Mode == ModeNUCK && (createdSince || len(b.consumed.list) != c.saved.consumed) {
		var bad []Node
		for _, nid := range b.effects {
			switch n := b.nodes[nid].(type) {
			case *Create:
				if i := b.local.find(n.ContractID); i < 0 || i >= c.saved.local || !b.local.list[i].v.active {
					bad = append(bad, n)
				}
			case *Exercise:
				if i := b.consumed.find(n.TargetID); i < 0 || i >= c.saved.consumed {
					bad = append(bad, n)
				}
			}
		}
		return &EffectfulRollbackError{Nodes: bad}
	}
	for i := c.saved.local; i < len(b.local.list); i++ {
		b.local.list[i].v.active = false
	}
	b.consumed.truncate(c.saved.consumed)
	b.nodes[c.node] = &Rollback{Children: c.children}
	b.ctx = c.parent
	b.ctx.children = append(b.ctx.children, c.node)
	b.ctx.nextIdx = c.nextIdx
	return nil
}

// Result is a finished transaction with the contract bookkeeping the
// ledger re-checks at commit.
type Result struct {
	// Transaction is the normalized transaction (Canton's node ids) with
	// its node seeds.
	Transaction *Transaction
	// Effects are its effects on the contract store (Transaction.Effects).
	Effects Effects
	// TimeBounds are the ledger times the transaction is valid for
	// (Unconstrained when it read no time).
	TimeBounds TimeBounds
}

// Finish returns the transaction built so far, normalized (Speedy's
// NormalizeRollbacks), and its effects. Every exercise and try must be
// closed.
func (b *Builder) Finish() (*Result, error) {
	// The Result and the Transaction in one allocation.
	rt := &struct {
		r Result
		t Transaction
	}{}
	t, err := b.finish(&rt.t)
	if err != nil {
		return nil, err
	}
	rt.r = Result{Transaction: t, Effects: t.Effects(), TimeBounds: b.time}
	return &rt.r, nil
}

// finish is the transaction Finish returns: t set to the nodes as built
// when they are normalized already (preOrder), else a new normalized
// transaction.
func (b *Builder) finish(t *Transaction) (*Transaction, error) {
	if b.ctx.kind != ctxRoot {
		return nil, &BuilderStateError{Op: "Finish", Problem: "an exercise or a try is still open"}
	}
	if b.preOrder() {
		b.asBuilt(t)
		return t, nil
	}
	raw := &Transaction{Nodes: b.nodes, Roots: b.ctx.children, NodeSeeds: b.seeds}
	return raw.Normalize(), nil
}

// Finished holds a finished transaction and, in arrays as long as the
// Builder's own, its first nodes, seeds and roots (FinishInto), and the
// contract ids of its Effects' lists while they fit in as many: a caller
// keeps it in an allocation of its own.
type Finished struct {
	t     Transaction
	nodes [len(builderBufs{}.nodes)]Node
	seeds [len(builderBufs{}.seeds)]NodeSeed
	roots [len(builderBufs{}.roots)]NodeID
	cids  [len(builderBufs{}.nodes)]value.ContractID
}

// FinishInto is Finish for a Builder that is reused afterwards (reset to
// zero, then Init): it returns the transaction and its time bounds, and
// sets the Effects in e, a caller's own (its result's, say), in place
// rather than building, returning and copying them. The transaction shares
// none of the Builder's own memory: it is f's, and its node, seed and root
// lists, which may be in the Builder's buffers, are copied to f's arrays
// when they fit (a longer list outgrew the Builder's buffer: its array is
// its own), as are the Effects' lists. On an error e is left as it was.
func (b *Builder) FinishInto(f *Finished, e *Effects) (*Transaction, TimeBounds, error) {
	t, err := b.finish(&f.t)
	if err != nil {
		return nil, TimeBounds{}, err
	}
	if t == &f.t { // as built: the lists may be the Builder's (Normalize builds new ones)
		t.Nodes, t.NodeSeeds, t.Roots = detach(t.Nodes, f.nodes[:]), detach(t.NodeSeeds, f.seeds[:]), detach(t.Roots, f.roots[:])
	}
	t.effectsInto(e, f.cids[:])
	return t, b.time, nil
}

// detach returns s, a non-nil clipped list, copied to buf if it fits
// (clipped, never nil), else s.
func detach[T any](s, buf []T) []T {
	if len(s) > len(buf) {
		return s
	}
	n := copy(buf, s)
	return buf[:n:n]
}

// preOrder reports whether the nodes built so far already are a
// normalized transaction: with no try block (no reserved slot, no
// Rollback), node ids are allocated in pre-order (an exercise before its
// children, siblings left to right) and every node is reachable, so
// Normalize would renumber nothing.
func (b *Builder) preOrder() bool {
	for _, n := range b.nodes {
		if n == nil {
			return false
		}
		if _, ok := n.(*Rollback); ok {
			return false
		}
	}
	return true
}

// asBuilt sets t to the transaction built so far when it is already in
// normal form (preOrder): what Normalize would return, without copying
// the nodes. The Builder never modifies a closed node, and the slices are
// clipped so that later appends cannot reach into them; as Normalize
// does, it gives every list of children a non-nil slice.
func (b *Builder) asBuilt(t *Transaction) {
	for _, n := range b.nodes {
		if ex, ok := n.(*Exercise); ok {
			if ex.Children == nil {
				ex.Children = []NodeID{}
			} else {
				ex.Children = slices.Clip(ex.Children)
			}
		}
	}
	roots := slices.Clip(b.ctx.children)
	if roots == nil {
		roots = []NodeID{}
	}
	*t = Transaction{Nodes: slices.Clip(b.nodes), Roots: roots, NodeSeeds: slices.Clip(b.seeds)}
}

// Inputs returns the ledger contracts the transaction used so far (fetched,
// exercised or found by a key query, inside rollbacks too), in first-use
// order.
func (b *Builder) Inputs() []value.ContractID { return slices.Clone(b.inputs.list) }

// OpenExercise is an exercise that has begun and not ended.
type OpenExercise struct {
	// Node is its node id (during building).
	Node NodeID
	// Exercise is the node so far; it must not be modified.
	Exercise *Exercise
}

// OpenExercises returns the open exercises, innermost first, through try
// blocks: Speedy's transaction trace (PartialTransaction.transactionTrace),
// which the DAML_FAILURE error's exercise_trace prints.
func (b *Builder) OpenExercises() []OpenExercise {
	var out []OpenExercise
	for c := b.ctx; c != nil; c = c.parent {
		if c.kind == ctxExercise {
			out = append(out, OpenExercise{Node: c.node, Exercise: b.nodes[c.node].(*Exercise)})
		}
	}
	return out
}
