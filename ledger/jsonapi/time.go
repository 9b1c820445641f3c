package jsonapi

import (
	"context"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
)

// SetTimeRequest is Canton's TimeService SetTimeRequest (the Ledger API's
// testing time service) in its protobuf JSON form, times as RFC 3339
// strings: move the time from CurrentTime to NewTime. ledgernode serves it
// at POST /ledgernode/v1/time (Canton's JSON API has no time service).
type SetTimeRequest struct {
	// CurrentTime is the time the caller read; it must be the node's
	// current time. Required.
	CurrentTime string `json:"currentTime"`
	// NewTime is the time to set; not before CurrentTime. Required.
	NewTime string `json:"newTime"`
}

// SetTimeFrom parses the request's times and calls Node.SetTimeFrom. A
// missing time is MISSING_FIELD current_time/new_time (as the Node's
// answer to a zero time), a time that is not RFC 3339 INVALID_FIELD.
func (a *API) SetTimeFrom(ctx context.Context, req SetTimeRequest) error {
	current, err := requestTime(req.CurrentTime, "current_time")
	if err != nil {
		return err
	}
	t, err := requestTime(req.NewTime, "new_time")
	if err != nil {
		return err
	}
	return a.Node.SetTimeFrom(ctx, current, t)
}

// requestTime reads the RFC 3339 time of a request field; "" is the zero
// time, which the Node refuses as a missing field.
func requestTime(s, field string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, apierr.InvalidField.New("Invalid field %s: %q is not an RFC 3339 timestamp", field, apierr.Quote(s))
	}
	return t, nil
}
