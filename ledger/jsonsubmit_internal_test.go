package ledger

import "context"

// submitJS submits wire commands for the internal tests that build their
// fixtures as JSON: converted as the JSON prepare converts them
// (jsonFields, its arguments decoded by decodeArguments) and submitted
// through the typed path. The JSON API's own submissions are
// ledger/jsonapi's.
func (n *Node) submitJS(ctx context.Context, c JsCommands) (*logEntry, error) {
	s, err := jsonFields(&c, "")
	if err != nil {
		return nil, err
	}
	if err := n.checkSubmission(ctx, s); err != nil {
		return nil, err
	}
	if err := n.decodeArguments(s, true); err != nil {
		return nil, err
	}
	e, _, err := n.submitChecked(ctx, s)
	return e, err
}
