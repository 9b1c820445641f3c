package jsonapi

import "github.com/ledgernode/ledgernode/ledger"

// API serves the JSON Ledger API over a Node. Its methods take and return
// the wire types of this package; each converts the request to the Node's
// typed API, calls it, and converts the answer back. The Node is a named
// field, not embedded, so that the typed methods are not promoted onto the
// JSON API: a.Node.Updates is the typed read, a.UpdatesList the JSON one.
type API struct {
	// Node is the node the API serves.
	Node *ledger.Node
}

// New returns the JSON API over n.
func New(n *ledger.Node) *API { return &API{Node: n} }
