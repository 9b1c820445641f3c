package ledger

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// A Daml Script's node (an in-memory store restored from a prepared
// snapshot, which renders values lazily: store.Tx.SetOwnedLazy) stores
// update records nobody reads during the script: the script reads the
// engine's transaction (Committed), its queries read contract records.
// So a submission of Node.Submit on such a store leaves the update
// record's rendering — the exercise nodes' argument and result as Daml
// JSON, the array of nodes, the entry — to the record's first reader, if
// any (the Ledger API's update readers, Snapshot): deferredEvents holds
// what it takes. Its contract records too are encoded at their first
// read (setContractRecordLazy), from their decoded forms, which the
// script's queries and the engine read; the created contracts' arguments
// and keys are still rendered at once, as those decoded forms hold them.
//
// The record's bytes are those the eager path stores: the same
// renderings (value.JSONAppender.AppendAs of the same values and types,
// on the same package view, which never changes) encoded by the same
// encoder (logEntry.encode, the nodes stored as the eager path's, which
// encoded them ahead: nodesAhead) — the tests check every
// deferred record against its eager encoding (verifyStoredRecords). No
// error moves: AppendAs cannot fail (a value it cannot type is printed
// untyped, at submission or at the read alike), and the engine's
// values, which are well typed, never change once committed (the
// transaction is shared read-only, as seedArg's values are).

// deferredEvents is what renders a submission's update record later:
// the package view and the suffixed transaction its nodes were built
// from, the creation time of its contracts, and the exercise nodes whose
// values are not rendered yet.
type deferredEvents struct {
	pkgs      *pkgView
	tx        *tx.Transaction
	createdAt string
	exercises []deferredExercise
}

// deferredExercise is an exercise node (at index node of the entry's
// nodes) whose argument and result wait for rendering.
type deferredExercise struct {
	node int
	x    *tx.Exercise
	ch   *lf.Choice
}

// render returns the stored form of e, whose nodes' exercise values were
// deferred: e.encode() of e with them rendered, as the eager path
// (committable) encodes it. e is not changed (it renders copies of its
// nodes), so that concurrent readers may call it.
func (d *deferredEvents) render(e *logEntry) []byte {
	nodes := slices.Clone(e.Nodes)
	r := d.pkgs.valueRenderer()
	for _, x := range d.exercises {
		nd := &nodes[x.node]
		nd.Argument = r.js.AppendAs(nil, x.x.ChosenValue, x.ch.ArgType)
		nd.Result = r.js.AppendAs(nil, x.x.Result, x.ch.ReturnType)
	}
	d.pkgs.putRenderer(r)
	c := *e
	c.Nodes, c.deferred, c.nodesAhead = nodes, nil, true
	return c.encode()
}

// eager returns the stored form of e as the eager path renders it from
// the transaction (verifyStoredRecords).
func (d *deferredEvents) eager(e *logEntry) []byte {
	r := d.pkgs.valueRenderer()
	defer d.pkgs.putRenderer(r)
	nodes, err := d.pkgs.eventNodes(r, d.tx, d.createdAt, false, nil)
	if err != nil {
		panic(fmt.Sprintf("ledger: rendering the nodes of update %s again: %v", e.UpdateID, err))
	}
	c := *e
	c.Nodes, c.deferred, c.nodesAhead = nodes, nil, true
	return c.encode()
}

// appendDeferredEntry writes an entry whose update record is rendered at
// its first read (deferredEvents), with its indexes; under
// verifyStoredRecords the record is rendered at once and checked against
// the eager path's.
func appendDeferredEntry(t *store.Tx, e *logEntry) {
	d := e.deferred
	if verifyStoredRecords {
		if lazy, eager := d.render(e), d.eager(e); !bytes.Equal(lazy, eager) {
			panic(fmt.Sprintf("ledger: the deferred record of update %s is not the eager one:\n%s\n%s", e.UpdateID, lazy, eager))
		}
	}
	t.SetOwnedLazy(store.UpdateKey(e.Offset), func() []byte { return d.render(e) })
	appendEntryIndexes(t, e)
}
