package ledger

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// This file is the node's Go API for in-process Daml runners (the Daml
// Script runner, ledger/scriptledger), besides Submit: contracts read
// back as Daml-LF values, with the same visibility as the
// active-contracts service.

// EngineContract is an active contract read as Daml-LF values, with the
// offset that created it.
type EngineContract struct {
	engine.Contract
	// CreatedOffset is the offset of the transaction that created it.
	CreatedOffset int64
	// Blob is its createdEventBlob (Canton's encoding), set by
	// EngineContractByID only; nil for a contract with a key.
	Blob []byte
}

// EngineContracts returns the contracts active now on the default
// synchronizer of which one of parties is a stakeholder and whose template
// match accepts (nil accepts all), in creation order (offset, then node,
// then contract id).
// An empty parties list fails with MISSING_FIELD.
func (n *Node) EngineContracts(ctx context.Context, parties []string, match func(template lf.TypeConID) bool) ([]EngineContract, error) {
	return n.engineContracts(ctx, parties, match, "", storedContract)
}

// EngineContractsShared is EngineContracts for a caller that only reads
// the contracts it gets, such as the Daml Script runner (which converts
// them to the engine's values): their arguments, signatories and key
// maintainers are shared with the node's cache of decoded contracts
// (contract_cache.go) rather than copied for each call, so the caller must
// not change them (value.Clone gives a copy of one's own).
func (n *Node) EngineContractsShared(ctx context.Context, parties []string, match func(template lf.TypeConID) bool) ([]EngineContract, error) {
	return n.engineContracts(ctx, parties, match, "", sharedContract)
}

// EngineContractsOfTemplateShared is EngineContractsShared with the match
// of exactly template tpl (a Daml Script's query of one template), which
// a Daml Script's node answers from its index by template
// (store.Reader.ScanActiveOfTemplate) rather than from every contract of
// the parties.
func (n *Node) EngineContractsOfTemplateShared(ctx context.Context, parties []string, tpl lf.TypeConID) ([]EngineContract, error) {
	// The node stores template ids as lf.TypeConID.String() writes them
	// (eventNodes), which the index by template is keyed by.
	return n.engineContracts(ctx, parties, func(t lf.TypeConID) bool { return t == tpl }, tpl.String(), sharedContract)
}

// engineContracts is EngineContracts, with the stored contracts converted
// by conv (storedContract or sharedContract); templateID, when not "", is
// the stored id of the one template match accepts.
func (n *Node) engineContracts(ctx context.Context, parties []string, match func(template lf.TypeConID) bool, templateID string,
	conv func(func(string) *lf.Package, *txNode) (*engine.Contract, error)) ([]EngineContract, error) {
	if err := n.engineReadAuth(ctx, parties); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	type found struct {
		rec *contractRecord // shared (recordCache): read only
		tc  lf.TypeConID
	}
	var recs []found
	var pkgs *pkgView
	templates := templateMemo{match: match}
	err = n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		if pkgs, err = n.snapshotPkgView(t, sync); err != nil {
			return err
		}
		// The parties' active contracts at this snapshot's ledger end,
		// from the active-contracts index (acsindex.go, read by
		// activeNow), each checked against its record.
		keep := func(_ string, templateID, _ []byte) bool {
			if match == nil {
				return true
			}
			t := templateOf(&templates, templateID)
			return t.err != nil || t.keep // a bad id is left to the record's check
		}
		return activeNow(r, union(parties), templateID, keep, func(cid string) (bool, error) {
			c, err := loadSharedRecord(r, cid)
			if err != nil || c == nil {
				return err == nil, err
			}
			if c.State != contractActive || c.SynchronizerID != sync || !c.Create.seenBy(parties) {
				return true, nil
			}
			t := templateOf(&templates, c.Create.TemplateID)
			if t.err != nil {
				return false, t.err
			}
			if t.keep {
				recs = append(recs, found{c, t.tc})
			}
			return true, nil
		})
	})
	if err != nil {
		return nil, storeErr(err)
	}
	slices.SortFunc(recs, func(a, b found) int {
		if a.rec.CreatedOffset != b.rec.CreatedOffset {
			return cmp.Compare(a.rec.CreatedOffset, b.rec.CreatedOffset)
		}
		if a.rec.Create.ID != b.rec.Create.ID {
			return cmp.Compare(a.rec.Create.ID, b.rec.Create.ID)
		}
		return strings.Compare(a.rec.Create.ContractID, b.rec.Create.ContractID)
	})
	out := make([]EngineContract, 0, len(recs))
	for i := range recs {
		ec, err := conv(pkgs.lookup, &recs[i].rec.Create)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "reading a contract")
		}
		out = append(out, EngineContract{Contract: *ec, CreatedOffset: recs[i].rec.CreatedOffset})
	}
	return out, nil
}

// templateMemo keeps the templates one read met, each matched once: in a
// slice searched in order while they are few (a script's parties see a
// handful of templates), which costs less than making a map for every
// read, and in a map once they are many.
type templateMemo struct {
	match func(lf.TypeConID) bool
	few   []memoTemplate
	byID  map[string]int
}

// memoTemplate is a template id met (split) and whether the read's match
// keeps it.
type memoTemplate struct {
	*splitTemplate
	keep bool
}

// templateMemoMax is the number of templates from which a templateMemo
// finds them through a map.
const templateMemoMax = 16

// templateOf returns the template tid of m (the bytes are not kept; a
// function rather than a method, to take both the index's bytes and the
// record's string without converting them).
func templateOf[T string | []byte](m *templateMemo, tid T) memoTemplate {
	if m.byID != nil {
		if i, ok := m.byID[string(tid)]; ok {
			return m.few[i]
		}
	} else {
		for i := range m.few {
			if m.few[i].id == string(tid) {
				return m.few[i]
			}
		}
	}
	st := splitTemplateID(tid)
	if m.few == nil {
		m.few = make([]memoTemplate, 0, 8)
	}
	m.few = append(m.few, memoTemplate{splitTemplate: st, keep: st.err == nil && (m.match == nil || m.match(st.tc))})
	switch {
	case m.byID != nil:
		m.byID[st.id] = len(m.few) - 1
	case len(m.few) > templateMemoMax:
		m.byID = make(map[string]int, 2*len(m.few))
		for i := range m.few {
			m.byID[m.few[i].id] = i
		}
	}
	return m.few[len(m.few)-1]
}

// splitTemplate is a stored template id and its split (err: it does not
// split).
type splitTemplate struct {
	id  string
	tc  lf.TypeConID
	err error
}

// splitTemplates keeps the template ids reads met, split: a node's
// templates are few and an id's split never changes, while a script's
// reads meet the same ones again and again. It holds at most
// maxSplitTemplates ids (the process's packages have fewer templates;
// past it, ids are split afresh).
var splitTemplates struct {
	mu sync.RWMutex
	m  map[string]*splitTemplate
}

const maxSplitTemplates = 1 << 14

// splitTemplateID returns the split of template id tid (the bytes are not
// kept).
func splitTemplateID[T string | []byte](tid T) *splitTemplate {
	splitTemplates.mu.RLock()
	st := splitTemplates.m[string(tid)]
	splitTemplates.mu.RUnlock()
	if st != nil {
		return st
	}
	id := string(tid)
	tc, err := splitTypeCon(id)
	st = &splitTemplate{id: id, tc: tc, err: err}
	splitTemplates.mu.Lock()
	defer splitTemplates.mu.Unlock()
	if splitTemplates.m == nil {
		splitTemplates.m = make(map[string]*splitTemplate)
	}
	if len(splitTemplates.m) < maxSplitTemplates {
		splitTemplates.m[id] = st
	}
	return st
}

// EngineContractByID returns the contract cid when it is active on the
// default synchronizer and one of parties is a stakeholder; nil, nil
// otherwise.
func (n *Node) EngineContractByID(ctx context.Context, cid string, parties []string) (*EngineContract, error) {
	if err := n.engineReadAuth(ctx, parties); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	var out *EngineContract
	err = n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		c, err := loadSharedRecord(r, cid) // read only
		if err != nil || c == nil {
			return err
		}
		if c.State != contractActive || c.SynchronizerID != sync || !c.Create.seenBy(parties) {
			return nil
		}
		pkgs, err := n.snapshotPkgView(t, sync)
		if err != nil {
			return err
		}
		ec, err := pkgs.engineContract(&c.Create)
		if err != nil {
			return apierr.InternalError.Wrap(err, "reading a contract")
		}
		out = &EngineContract{Contract: *ec, CreatedOffset: c.CreatedOffset}
		if b, err := encodeBlob(pkgs.engine(), pkgs.lookup, &c.Create); err == nil {
			out.Blob = b
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

// engineReadAuth admits a caller who may read as every one of parties.
func (n *Node) engineReadAuth(ctx context.Context, parties []string) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	if len(parties) == 0 {
		return apierr.MissingField.New("parties")
	}
	p := caller(ctx)
	for _, party := range parties {
		if !p.Wildcard && !p.CanReadAs(party) {
			return denied("the caller may not read as %s", party)
		}
	}
	return nil
}

// PackageSource returns every package the node stores (vetted on the
// default synchronizer or not) as a daml/engine PackageSource (a
// snapshot: later uploads are not seen), for running Daml off ledger
// against the node's packages.
func (n *Node) PackageSource(ctx context.Context) (engine.PackageMap, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	var out engine.PackageMap
	err = n.st.View(func(r *store.Reader) error {
		pkgs, err := n.snapshotPkgView(store.ReadOnlyTx(r), sync)
		if err != nil {
			return err
		}
		out = make(engine.PackageMap, len(pkgs.byID))
		for id, p := range pkgs.byID {
			out[id] = p
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}
