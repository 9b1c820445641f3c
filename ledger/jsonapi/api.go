package jsonapi

import "github.com/ledgernode/ledgernode/ledger"

// API serves the JSON Ledger API over a Node. Its methods take and return
// the wire types of this package; each converts the request to the Node's
// typed API, calls it, and converts the answer back.
//
// The embedding of *ledger.Node is transitional: while the services move
// out of package ledger one by one, the Node's not-yet-moved JSON methods
// (reads, events, reassignment) are
// promoted through it, so that httpadapter can serve every route from an
// *API. A method defined on API shadows the Node's method of the same
// name. Once every service has moved, the embedding becomes a plain field.
type API struct {
	*ledger.Node
}

// New returns the JSON API over n.
func New(n *ledger.Node) *API { return &API{Node: n} }
