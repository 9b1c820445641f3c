package ledger

import "context"

// submitCmds submits typed commands through the steps of Submit and
// returns the committed log entry, for the internal tests that look at
// what was stored.
func (n *Node) submitCmds(ctx context.Context, c Commands) (*logEntry, error) {
	s := newSubmission(&c, nil)
	if err := n.checkSubmission(ctx, s); err != nil {
		return nil, err
	}
	if err := n.decodeSubmission(s); err != nil {
		return nil, err
	}
	e, _, err := n.submitChecked(ctx, s)
	return e, err
}
