package engine

import (
	"context"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Contract keys (LF 2.3, non-unique: the NUCK mode of Canton's
// transaction/NextGenContractStateMachine.scala).

// KeyQuery asks a ContractKeyStore for the contracts with a key.
type KeyQuery struct {
	// PackageName is the package name of the template; a key is
	// identified by package name, module, template name and key value,
	// so contracts of every version of the template match.
	PackageName string
	// TemplateID is the template the query uses (its module and name
	// matter; the package id is that of the querying code).
	TemplateID lf.TypeConID
	// Key is the key value in normalized form (as a tx.Create records it
	// in KeyWithMaintainers.Key); compare with value.Equal.
	Key value.Value
	// Limit is the most contracts to return (≥ 1).
	Limit int
}

// ContractKeyStore is an optional extension of a ContractStore: a store
// that also implements it lets fetch_by_key, exercise_by_key and
// query_n_by_key find ledger contracts by key. Without it, only the
// contracts created in the transaction are found.
//
// ContractsByKey returns up to q.Limit ids of active contracts with the
// key that the submission may see (the same visibility rule as
// Contract), in the order the ledger resolves them (the first is the one
// fetch_by_key uses). Each id must be readable through Contract. The
// engine skips those the transaction has consumed itself, asking for
// enough extra ids to make up for them.
type ContractKeyStore interface {
	ContractsByKey(ctx context.Context, q KeyQuery) ([]ContractID, error)
}

// maxKeyQuery is the most contracts query_n_by_key returns (Canton's
// transaction/package.scala, MaxContractKeyFetches).
const maxKeyQuery = 1_000_000

// tuple2ID is the stable DA.Types:Tuple2 of daml-prim.
var tuple2ID = lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple2"}

var tuple2Fallback = &RecordType{ID: tuple2ID, Fields: []string{"_1", "_2"}}

// tuple2 returns the DA.Types:Tuple2 record (a, b).
func (e *Engine) tuple2(a, b Value) *Record {
	rt, err := e.recordType(tuple2ID)
	if err != nil {
		// daml-prim is not among the engine's packages: use (and keep)
		// the stable definition.
		rt = e.records.loadOrStore(tuple2ID, tuple2Fallback)
	}
	return &Record{Type: rt, Fields: []Value{a, b}}
}

// templateKey returns the key of template t, or nil when t has none or
// its package is older than LF 2.3 (which has no keys).
func (e *Engine) templateKey(t lf.TypeConID) (*lf.TemplateKey, *Error) {
	tpl, err := e.template(t)
	if err != nil {
		return nil, err
	}
	if tpl.Key == nil {
		return nil, nil
	}
	p := e.src.Package(t.PackageID)
	if p == nil || p.LanguageVersion.Major != 2 || p.LanguageVersion.Compare(lf.LF23) < 0 {
		return nil, nil
	}
	return tpl.Key, nil
}

// keyBodyFn is λthis. key_expr; maintainersFn is the maintainers
// function key → [Party].
func (e *Engine) keyBodyFn(t lf.TypeConID) *topDef {
	return e.def(defKey{kind: defTemplatePart, id: t, a: "key"}, func(e *Engine) (lf.Expr, *Error) {
		tpl, err := e.template(t)
		if err != nil {
			return nil, err
		}
		if tpl.Key == nil || tpl.Key.Body == nil {
			return nil, errorf(ErrPackage, "template %s has no key", t)
		}
		return &lf.EAbs{Params: []lf.VarWithType{{Name: tpl.Param}}, Body: tpl.Key.Body}, nil
	})
}

func (e *Engine) maintainersFn(t lf.TypeConID) *topDef {
	return e.def(defKey{kind: defTemplatePart, id: t, a: "maintainers"}, func(e *Engine) (lf.Expr, *Error) {
		tpl, err := e.template(t)
		if err != nil {
			return nil, err
		}
		if tpl.Key == nil || tpl.Key.Maintainers == nil {
			return nil, errorf(ErrPackage, "template %s has no key maintainers", t)
		}
		return tpl.Key.Maintainers, nil
	})
}

// createKey runs the key steps of a create of t, whose key is tk
// (Speedy's speedy/compiler/Compiler.scala compileCreate, then
// SBUCreate): without a key it calls k with nil; otherwise it evaluates
// the key and then the maintainers (both catchable, like the
// precondition), checks them (CreateEmptyContractKeyMaintainers,
// ContractIdInContractKey) and calls k with the normalized key. An error
// k returns fails the machine.
func (m *Machine) createKey(t lf.TypeConID, tk *lf.TemplateKey, arg Value, k keyUser) {
	if tk == nil {
		if err := k.useKey(m, nil); err != nil {
			m.fail(err)
		}
		return
	}
	e := m.e
	m.then(func(m *Machine, keyV Value) {
		m.then(func(m *Machine, msV Value) {
			key, err := keyWithMaintainers(t, keyV, msV, ErrCreateEmptyContractKeyMaintainers)
			if err != nil {
				m.fail(err)
				return
			}
			if err := k.useKey(m, key); err != nil {
				m.fail(err)
			}
		})
		m.callDef(e.maintainersFn(t), keyV)
	})
	m.callDef(e.keyBodyFn(t), arg)
}

// keyUser is what createKey continues with: the create's normalized key,
// nil when the template has none.
type keyUser interface {
	useKey(m *Machine, key *tx.KeyWithMaintainers) *Error
}

// keyWithMaintainers normalizes a key and its maintainers and checks them:
// a contract id in the key gives ContractIdInContractKey, then no
// maintainers emptyKind (Speedy's order).
func keyWithMaintainers(t lf.TypeConID, keyV, msV Value, emptyKind ErrorKind) (*tx.KeyWithMaintainers, *Error) {
	ms, err := partySet(msV)
	if err != nil {
		return nil, err
	}
	lk, err := toLedgerValue(keyV)
	if err != nil {
		return nil, err
	}
	if cid, ok := firstContractID(lk); ok {
		return nil, errorf(ErrContractIDInContractKey, "Contract IDs are not supported in contract keys: %s", cid)
	}
	if len(ms) == 0 {
		return nil, errorf(emptyKind, "Update failed due to a contract key with an empty set of maintainers when %s %s with key %s",
			map[ErrorKind]string{ErrCreateEmptyContractKeyMaintainers: "creating", ErrFetchEmptyContractKeyMaintainers: "fetching"}[emptyKind],
			t, value.AppendJSON(nil, lk))
	}
	return &tx.KeyWithMaintainers{Key: lk, Maintainers: ms}, nil
}

// firstContractID returns a contract id inside v, if any.
func firstContractID(v value.Value) (value.ContractID, bool) {
	switch x := v.(type) {
	case value.ContractID:
		return x, true
	case value.Optional:
		if x.Value != nil {
			return firstContractID(x.Value)
		}
	case value.List:
		for _, e := range x {
			if c, ok := firstContractID(e); ok {
				return c, true
			}
		}
	case value.TextMap:
		for _, e := range x {
			if c, ok := firstContractID(e.Value); ok {
				return c, true
			}
		}
	case value.GenMap:
		for _, e := range x {
			if c, ok := firstContractID(e.Key); ok {
				return c, true
			}
			if c, ok := firstContractID(e.Value); ok {
				return c, true
			}
		}
	case value.Record:
		for _, f := range x.Fields {
			if c, ok := firstContractID(f.Value); ok {
				return c, true
			}
		}
	case value.Variant:
		return firstContractID(x.Value)
	}
	return "", false
}

// lookupKey evaluates the maintainers of a key of t (not catchable),
// checks them (FetchEmptyContractKeyMaintainers, ContractIdInContractKey)
// and calls k with the normalized key.
func (m *Machine) lookupKey(t lf.TypeConID, keyV Value, k func(m *Machine, key *tx.KeyWithMaintainers)) {
	if m.tx == nil {
		m.fail(m.noLedger("a key lookup"))
		return
	}
	tk, err := m.e.templateKey(t)
	if err != nil {
		m.fail(err)
		return
	}
	if tk == nil {
		m.fail(errorf(ErrPackage, "template %s has no key", t))
		return
	}
	m.then(func(m *Machine, msV Value) {
		key, err := keyWithMaintainers(t, keyV, msV, ErrFetchEmptyContractKeyMaintainers)
		if err != nil {
			m.fail(err)
			return
		}
		k(m, key)
	})
	m.push(kPreventCatch{})
	m.callDef(m.e.maintainersFn(t), keyV)
}

// resolveKey returns up to limit active contracts with the key: first
// those created in this transaction, most recent first, then those the
// ledger's ContractKeyStore returns (as Speedy's SBUKeyBuiltin asks
// NextGenContractStateMachine.queryNByKey, then the ledger).
func (m *Machine) resolveKey(t lf.TypeConID, key value.Value, limit int) ([]ContractID, *Error) {
	lt := m.tx
	b := lt.b
	pkgName := m.e.packageName(t)
	var out []ContractID
	active := func(cid ContractID) bool {
		s, _ := b.Status(value.ContractID(cid))
		return s != tx.StatusConsumed && s != tx.StatusRolledBack
	}
	for i := len(lt.keyed) - 1; i >= 0 && len(out) < limit; i-- {
		cid := lt.keyed[i]
		c := b.Local(value.ContractID(cid))
		if c == nil || c.Key == nil || c.PackageName != pkgName || c.TemplateID.Module != t.Module || c.TemplateID.Name != t.Name {
			continue
		}
		if active(cid) && value.Equal(c.Key.Key, key) {
			out = append(out, cid)
		}
	}
	ks, ok := lt.store.(ContractKeyStore)
	if len(out) >= limit || !ok {
		return out, nil
	}
	// Ask for enough to make up for the ledger contracts this transaction
	// may have consumed.
	extra := 0
	for _, c := range lt.contracts.list {
		if !c.local {
			extra++
		}
	}
	ids, err := ks.ContractsByKey(m.ctx, KeyQuery{PackageName: pkgName, TemplateID: t, Key: key, Limit: limit - len(out) + extra})
	if err != nil {
		return nil, &Error{Kind: ErrContractKeyNotFound, Message: "dependency error: couldn't look up key: " + err.Error(), Cause: err}
	}
	seen := map[ContractID]bool{}
	for _, cid := range ids {
		if len(out) >= limit {
			break
		}
		if seen[cid] || b.Local(value.ContractID(cid)) != nil || !active(cid) {
			continue
		}
		seen[cid] = true
		out = append(out, cid)
	}
	return out, nil
}

// contractKey returns the key of a contract the transaction uses: the
// Create node's for a contract it created, the stored one
// (Contract.Key) for a ledger contract.
func (m *Machine) contractKey(c *contractInfo) *tx.KeyWithMaintainers {
	if c.local {
		if n := m.tx.b.Local(value.ContractID(c.id)); n != nil {
			return n.Key
		}
		return nil
	}
	return c.key
}

func keyNotFound(t lf.TypeConID, key *tx.KeyWithMaintainers) *Error {
	return errorf(ErrContractKeyNotFound, "dependency error: couldn't find key: GlobalKey(%s, %s)", t, value.AppendJSON(nil, key.Key))
}

// fetchByKeyThen resolves the key of t to one contract, fetches it as a
// template fetch does (SBuiltinFun.fetchTemplate: metadata recomputed for
// a ledger contract, not catchable) and calls k.
func (m *Machine) fetchByKeyThen(t lf.TypeConID, keyV Value, k func(m *Machine, c *contractInfo, key *tx.KeyWithMaintainers)) {
	m.lookupKey(t, keyV, func(m *Machine, key *tx.KeyWithMaintainers) {
		ids, err := m.resolveKey(t, key.Key, 1)
		if err != nil {
			m.fail(err)
			return
		}
		if len(ids) == 0 {
			m.fail(keyNotFound(t, key))
			return
		}
		m.fetchContract(t, ids[0], useFunc(func(m *Machine, c *contractInfo, _ lf.TypeConID) { k(m, c, key) }))
	})
}

// fetchByKey runs fetch_by_key @t key: a Fetch node with byKey; the
// result is DA.Types:Tuple2 (ContractId t) t.
func (m *Machine) fetchByKey(t lf.TypeConID, keyV Value) {
	m.fetchByKeyThen(t, keyV, func(m *Machine, c *contractInfo, key *tx.KeyWithMaintainers) {
		if _, err := m.tx.b.Fetch(tx.FetchInput{ContractID: value.ContractID(c.id), PackageName: m.e.packageName(t), TemplateID: t,
			Signatories: c.signatories, Stakeholders: c.stakeholders, Key: key, ByKey: true}); err != nil {
			m.fail(txError(err))
			return
		}
		m.ret(m.e.tuple2(c.id, c.arg))
	})
}

// exerciseByKey runs exercise_by_key @t choice key arg: the fetch_by_key
// resolution, then the template exercise (the same frame as exercise) with
// an Exercise node with byKey.
func (m *Machine) exerciseByKey(t lf.TypeConID, choice string, keyV, arg Value) {
	ch, err := m.e.templateChoice(t, choice)
	if err != nil {
		m.fail(err)
		return
	}
	m.fetchByKeyThen(t, keyV, func(m *Machine, c *contractInfo, key *tx.KeyWithMaintainers) {
		(&kChoice{owner: t, ch: ch, arg: arg, byKey: key}).useContract(m, c, t)
	})
}

// queryNByKey runs query_n_by_key @t n key: up to min(n, 1 000 000)
// active contracts with the key, as Speedy returns them: Some of a list
// of DA.Types:Tuple2 (ContractId t) t; and a QueryByKey node (maintainers
// ⊆ authorizers). Ledger contracts are fetched (metadata recomputed)
// without Fetch nodes. n < 1 is an internal error, as in Speedy.
func (m *Machine) queryNByKey(t lf.TypeConID, nV, keyV Value) {
	n, ok := nV.(Int64)
	if !ok {
		m.fail(crash("query_n_by_key: Int64 expected, got %T", nV))
		return
	}
	if n < 1 {
		m.fail(crash("Invalid argument n for QueryNByKey: %d. Expected a positive integer.", int64(n)))
		return
	}
	limit := maxKeyQuery
	if int64(n) < int64(limit) {
		limit = int(n)
	}
	m.lookupKey(t, keyV, func(m *Machine, key *tx.KeyWithMaintainers) {
		ids, err := m.resolveKey(t, key.Key, limit)
		if err != nil {
			m.fail(err)
			return
		}
		pairs := make([]Value, 0, len(ids))
		var next func(m *Machine)
		next = func(m *Machine) {
			if len(pairs) == len(ids) {
				res := make([]value.ContractID, len(ids))
				for i, id := range ids {
					res[i] = value.ContractID(id)
				}
				if _, err := m.tx.b.QueryByKey(tx.QueryByKeyInput{PackageName: m.e.packageName(t), TemplateID: t, Key: *key,
					Result: res, Exhaustive: len(ids) < limit}); err != nil {
					m.fail(txError(err))
					return
				}
				m.ret(Some(ListOf(pairs...)))
				return
			}
			m.fetchContract(t, ids[len(pairs)], useFunc(func(m *Machine, c *contractInfo, _ lf.TypeConID) {
				pairs = append(pairs, m.e.tuple2(c.id, c.arg))
				next(m)
			}))
		}
		next(m)
	})
}

// compileKeyUpdate compiles the key update forms; ok is false for other
// updates.
func (c *compiler) compileKeyUpdate(s *scope, u lf.Update) (node, bool) {
	switch u := u.(type) {
	case *lf.UFetchByKey:
		t := u.Template
		return &nConst{v: updatePAP("fetch_by_key", 2, func(m *Machine, a []Value) { m.fetchByKey(t, a[0]) })}, true
	case *lf.UQueryNByKey:
		t := u.Template
		return &nConst{v: updatePAP("query_n_by_key", 3, func(m *Machine, a []Value) { m.queryNByKey(t, a[0], a[1]) })}, true
	case *lf.UExerciseByKey:
		t, ch := u.Template, u.Choice
		return op([]node{c.expr(s, u.Key), c.expr(s, u.Arg)}, func(m *Machine, v []Value) {
			m.ret(updatePAP("exercise_by_key", 3, func(m *Machine, a []Value) { m.exerciseByKey(t, ch, a[0], a[1]) }, v[0], v[1]))
		}), true
	}
	return nil, false
}

// FetchByKeyCommand returns the update fetch_by_key @t key (for tests and
// callers that run key lookups directly).
func FetchByKeyCommand(t lf.TypeConID, key Value) Value {
	return updatePAP("fetch_by_key", 2, func(m *Machine, a []Value) { m.fetchByKey(t, a[0]) }, key)
}

// ExerciseByKeyCommand returns the update of an exercise-by-key command.
func ExerciseByKeyCommand(t lf.TypeConID, choice string, key, arg Value) Value {
	return updatePAP("exercise_by_key", 3, func(m *Machine, a []Value) { m.exerciseByKey(t, choice, a[0], a[1]) }, key, arg)
}
