package httpadapter

import (
	"fmt"
	"math"
	"time"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// ledgernode's own admin routes are under /ledgernode/v1, never under /v2:
// they are not part of Canton's JSON Ledger API.
//
// GET  /ledgernode/v1/time  → {"currentTime": "1970-01-01T00:00:00Z"}
// POST /ledgernode/v1/time  ← {"currentTime": "…", "newTime": "…"} is Canton's
//                             TimeService.SetTime (jsonapi.API.SetTimeFrom);
//                             {"currentTime": "…"} alone sets the static time,
//                             {"advance": "1h"} or {"advanceMicros": 3600000000}
//                             advances it; answers the new time.
//
// Both need ParticipantAdmin. Going back, a currentTime that is not the
// node's time (with newTime), or a node that does not run on static time,
// is a 400 INVALID_ARGUMENT (ledger.Node.SetTime, SetTimeFrom).

// TimeRequest is the body of POST /ledgernode/v1/time: Canton's
// SetTimeRequest (currentTime and newTime), or exactly one field.
type TimeRequest struct {
	// CurrentTime is the new time (RFC 3339); with NewTime, the time the
	// caller read, which must be the node's time.
	CurrentTime *string `json:"currentTime,omitempty"`
	// NewTime is the time to set from CurrentTime (Canton's SetTime).
	NewTime *string `json:"newTime,omitempty"`
	// Advance moves the time forward by a Go duration ("1h", "90s").
	Advance *string `json:"advance,omitempty"`
	// AdvanceMicros moves the time forward by this many microseconds.
	AdvanceMicros *int64 `json:"advanceMicros,omitempty"`
}

// TimeResponse is the answer of GET and POST /ledgernode/v1/time.
type TimeResponse struct {
	// CurrentTime is the node's time (RFC 3339, UTC).
	CurrentTime string `json:"currentTime"`
}

func getTime(a *adapter, rq *request) (any, error) {
	t, err := a.node.AdminTime(rq.ctx)
	if err != nil {
		return nil, err
	}
	return TimeResponse{CurrentTime: t.UTC().Format(time.RFC3339Nano)}, nil
}

func postTime(a *adapter, rq *request) (any, error) {
	req, err := decodeBody[TimeRequest](rq)
	if err != nil {
		return nil, err
	}
	if req.NewTime != nil && req.Advance == nil && req.AdvanceMicros == nil {
		sr := jsonapi.SetTimeRequest{NewTime: *req.NewTime}
		if req.CurrentTime != nil {
			sr.CurrentTime = *req.CurrentTime
		}
		if err := a.api.SetTimeFrom(rq.ctx, sr); err != nil {
			return nil, err
		}
		return getTime(a, rq)
	}
	set := 0
	for _, present := range []bool{req.CurrentTime != nil, req.Advance != nil, req.AdvanceMicros != nil, req.NewTime != nil} {
		if present {
			set++
		}
	}
	if set != 1 {
		return nil, invalidBody("give currentTime and newTime, or exactly one of currentTime, advance and advanceMicros")
	}
	switch {
	case req.CurrentTime != nil:
		t, perr := time.Parse(time.RFC3339Nano, *req.CurrentTime)
		if perr != nil {
			return nil, invalidBody("currentTime is not an RFC 3339 time: " + perr.Error())
		}
		err = a.node.SetTime(rq.ctx, t)
	case req.Advance != nil:
		d, perr := time.ParseDuration(*req.Advance)
		if perr != nil {
			return nil, invalidBody("advance is not a duration: " + perr.Error())
		}
		err = a.node.AdvanceTime(rq.ctx, d)
	default:
		// Beyond this the nanoseconds wrap around a time.Duration (and
		// -MaxInt64 µs would move the time forward).
		const most = math.MaxInt64 / int64(time.Microsecond)
		if m := *req.AdvanceMicros; m > most || m < -most {
			return nil, invalidBody(fmt.Sprintf("advanceMicros is beyond ±%d µs (292 years); set currentTime instead", most))
		}
		err = a.node.AdvanceTime(rq.ctx, time.Duration(*req.AdvanceMicros)*time.Microsecond)
	}
	if err != nil {
		return nil, err
	}
	return getTime(a, rq)
}
