package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// sharedDARs is the folder of the real DARs of ../shared, relative to
// this package.
func sharedDARs() string {
	for _, d := range []string{"../../../shared/testdata/dars", "../../../../shared/testdata/dars"} {
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return "../../../shared/testdata/dars"
}

var (
	darMu    sync.Mutex
	darCache = map[string]*lf.DAR{}
)

// loadDAR decodes a real DAR once per test binary; it skips the test when
// the shared test data is absent.
func loadDAR(tb testing.TB, name string) *lf.DAR {
	tb.Helper()
	darMu.Lock()
	defer darMu.Unlock()
	if d, ok := darCache[name]; ok {
		return d
	}
	data, err := os.ReadFile(filepath.Join(sharedDARs(), name))
	if err != nil {
		tb.Skipf("real DAR not found (%v): the shared test data is not checked out next to this repository", err)
	}
	d, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	darCache[name] = d
	return d
}

// typeID finds the data type module:name in the DAR's package named
// pkgName.
func typeID(tb testing.TB, d *lf.DAR, pkgName, module, name string) lf.TypeConID {
	tb.Helper()
	for _, p := range d.Packages {
		if p.Name != pkgName {
			continue
		}
		if m := p.Module(module); m != nil && m.DataType(name) != nil {
			return lf.TypeConID{PackageID: p.ID, Module: module, Name: name}
		}
	}
	tb.Fatalf("no data type %s:%s in package %s", module, name, pkgName)
	return lf.TypeConID{}
}

// ledger is an in-memory ledger for workflows that run command after
// command: it is the engine's ContractStore, and commit applies a
// submission's effects the way a participant does (inputs re-checked,
// contract ids suffixed, creates added, consumed contracts archived).
type ledger struct {
	mu        sync.Mutex
	active    map[engine.ContractID]*engine.Contract
	committed []*tx.Transaction
}

func newLedger() *ledger { return &ledger{active: map[engine.ContractID]*engine.Contract{}} }

// Contract returns the active contract id, or nil.
func (l *ledger) Contract(_ context.Context, id engine.ContractID) (*engine.Contract, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active[id], nil
}

// isActive reports whether id is an active contract of the ledger.
func (l *ledger) isActive(id engine.ContractID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active[id] != nil
}

// commit commits a submission's transaction: every input must still be
// active; the created contracts get their committed (suffixed) ids. It
// returns the committed transaction and the command results with the
// committed ids.
func (l *ledger) commit(tb testing.TB, res *engine.Result) (*tx.Transaction, []engine.Value) {
	tb.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, in := range res.Effects.Inputs {
		if l.active[engine.ContractID(in)] == nil {
			tb.Fatalf("commit: input %s is not active", in)
		}
	}
	updateID := fmt.Sprintf("update-%d", len(l.committed))
	t, ids, err := res.Transaction.WithSuffixes(func(node tx.NodeID, _ *tx.Create) tx.Hash { return tx.UnicumOf(updateID, node) })
	if err != nil {
		tb.Fatalf("commit: %v", err)
	}
	eff := t.Effects()
	created := map[value.ContractID]bool{}
	for _, c := range eff.Created {
		created[c] = true
	}
	for _, n := range t.All() {
		if c, ok := n.(*tx.Create); ok && created[c.ContractID] {
			l.active[engine.ContractID(c.ContractID)] = &engine.Contract{ID: engine.ContractID(c.ContractID), TemplateID: c.TemplateID,
				Arg: c.Arg, Signatories: c.Signatories, Stakeholders: c.Stakeholders}
		}
	}
	for _, a := range eff.Archived {
		delete(l.active, engine.ContractID(a))
	}
	l.committed = append(l.committed, t)
	results := make([]engine.Value, len(res.Results))
	for i, r := range res.Results {
		results[i] = globalize(r, ids)
	}
	return t, results
}

// globalize replaces the local contract ids of a runtime value by their
// committed ids.
func globalize(v engine.Value, ids map[value.ContractID]value.ContractID) engine.Value {
	switch x := v.(type) {
	case engine.ContractID:
		if g, ok := ids[value.ContractID(x)]; ok {
			return engine.ContractID(g)
		}
		return x
	case *engine.Record:
		fs := make([]engine.Value, len(x.Fields))
		for i, f := range x.Fields {
			fs[i] = globalize(f, ids)
		}
		return &engine.Record{Type: x.Type, Fields: fs}
	case *engine.Variant:
		cp := *x
		cp.Value = globalize(x.Value, ids)
		return &cp
	case engine.Optional:
		if x.Value == nil {
			return x
		}
		return engine.Some(globalize(x.Value, ids))
	case *engine.List:
		vs := x.Slice()
		for i := range vs {
			vs[i] = globalize(vs[i], ids)
		}
		return engine.ListOf(vs...)
	}
	return v
}

// ledgerValue converts a serializable runtime value (a command result)
// into its normalized ledger form, as the engine records it in a node,
// so that a command's result can be compared with its root node's.
func ledgerValue(tb testing.TB, v engine.Value) value.Value {
	tb.Helper()
	switch x := v.(type) {
	case engine.Unit:
		return value.Unit{}
	case engine.Bool:
		return value.Bool(x)
	case engine.Int64:
		return value.Int64(x)
	case engine.Numeric:
		return value.Numeric(x.ScaledString())
	case engine.Text:
		return value.Text(x)
	case engine.Timestamp:
		return value.Timestamp(x)
	case engine.Date:
		return value.Date(x)
	case engine.Party:
		return value.Party(x)
	case engine.ContractID:
		return value.ContractID(x)
	case *engine.Record:
		n := len(x.Fields)
		for n > 0 {
			if o, ok := x.Fields[n-1].(engine.Optional); !ok || o.Value != nil {
				break
			}
			n--
		}
		fs := make([]value.RecordField, n)
		for i := range n {
			fs[i] = value.RecordField{Label: x.Type.Fields[i], Value: ledgerValue(tb, x.Fields[i])}
		}
		id := x.Type.ID
		return value.Record{RecordID: &id, Fields: fs}
	case *engine.Variant:
		id := x.ID
		return value.Variant{VariantID: &id, Constructor: x.Con, Rank: x.Rank, Value: ledgerValue(tb, x.Value)}
	case *engine.Enum:
		id := x.ID
		return value.Enum{EnumID: &id, Constructor: x.Con, Rank: x.Rank}
	case engine.Optional:
		if x.Value == nil {
			return value.Optional{}
		}
		return value.Optional{Value: ledgerValue(tb, x.Value)}
	case *engine.List:
		var out value.List
		for _, e := range x.Slice() {
			out = append(out, ledgerValue(tb, e))
		}
		return out
	case *engine.Map:
		if x.Text {
			out := make(value.TextMap, len(x.Keys))
			for i, k := range x.Keys {
				out[i] = value.TextMapEntry{Key: string(k.(engine.Text)), Value: ledgerValue(tb, x.Values[i])}
			}
			return out
		}
		out := make(value.GenMap, len(x.Keys))
		for i, k := range x.Keys {
			out[i] = value.GenMapEntry{Key: ledgerValue(tb, k), Value: ledgerValue(tb, x.Values[i])}
		}
		return out
	}
	tb.Fatalf("value of type %T is not serializable", v)
	return nil
}

// Shorthands for expected ledger values.

func lrec(id lf.TypeConID, labelsAndValues ...any) value.Value {
	fs := make([]value.RecordField, 0, len(labelsAndValues)/2)
	for i := 0; i < len(labelsAndValues); i += 2 {
		fs = append(fs, value.RecordField{Label: labelsAndValues[i].(string), Value: labelsAndValues[i+1].(value.Value)})
	}
	return value.Record{RecordID: &id, Fields: fs}
}

func lparties(ps ...string) value.Value {
	var out value.List // nil when empty, as the engine normalizes []
	for _, p := range ps {
		out = append(out, value.Party(p))
	}
	return out
}

// partiesOf turns party names into a runtime [Party].
func partiesOf(ps ...string) *engine.List {
	vs := make([]engine.Value, len(ps))
	for i, p := range ps {
		vs[i] = engine.Party(p)
	}
	return engine.ListOf(vs...)
}

// engineErr returns the *engine.Error inside err, failing the test when
// there is none.
func engineErr(tb testing.TB, err error) *engine.Error {
	tb.Helper()
	var e *engine.Error
	if err == nil {
		tb.Fatal("got no error")
	}
	if !errors.As(err, &e) {
		tb.Fatalf("error %v (%T) is not an *engine.Error", err, err)
	}
	return e
}
