package jsonapi

import (
	"sync/atomic"

	"github.com/ledgernode/ledgernode/ledger"
)

// API serves the JSON Ledger API over a Node. Its methods take and return
// the wire types of this package; each converts the request to the Node's
// typed API, calls it, and converts the answer back. The Node is a named
// field, not embedded, so that the typed methods are not promoted onto the
// JSON API: a.Node.Updates is the typed read, a.UpdatesList the JSON one.
type API struct {
	// Node is the node the API serves.
	Node *ledger.Node

	// lastRef is the template reference of the last one-create submission
	// (submit), which the next one most likely names again.
	lastRef atomic.Pointer[parsedRef]
}

// parsedRef is a template id as written and its reference (templateRef).
type parsedRef struct {
	text string
	ref  ledger.TemplateRef
}

// templateRef is templateRef(s), parsed again only when s is not the
// last one.
func (a *API) templateRef(s string) ledger.TemplateRef {
	if p := a.lastRef.Load(); p != nil && p.text == s {
		return p.ref
	}
	p := &parsedRef{text: s, ref: templateRef(s)}
	a.lastRef.Store(p)
	return p.ref
}

// New returns the JSON API over n.
func New(n *ledger.Node) *API { return &API{Node: n} }
