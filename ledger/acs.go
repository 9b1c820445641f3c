package ledger

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Active-contracts page sizes.
const (
	DefaultACSPageSize = 2000
	MaxACSPageSize     = 10000
)

// eventFormatAuth authorizes reading as an event format's parties, then
// checks the format (checkEventSpec): Canton's order, its authorization
// interceptor before its validators. (A format the check refuses names
// no party, so its authorization cannot fail first.)
func (n *Node) eventFormatAuth(ctx context.Context, f *eventSpec) error {
	if err := authorizeEventFormat(ctx, f); err != nil {
		return err
	}
	return n.checkEventSpec(f)
}

// authorizeEventFormat authorizes reading as an event format's parties.
func authorizeEventFormat(ctx context.Context, f *eventSpec) error {
	parties, anyParty := (&updateSpec{Ra: f}).readingParties()
	return authorizeRead(ctx, parties, anyParty)
}

// checkEventSpec refuses an event format that selects no party or whose
// filters name unknown templates or interfaces.
func (n *Node) checkEventSpec(f *eventSpec) error {
	if err := checkEventFormat(f, "event_format"); err != nil {
		return err
	}
	return n.checkFilterIDs(f)
}

// acsVisit is called with a contract active (or in transit) at the read's
// offset that the filter shows, its witnesses and what their filters ask
// for; it returns false to stop.
type acsVisit func(c *contractRecord, w []string, m filterMatch) bool

// acsVisitAt is the one walk of the ACS the reads share:
// it calls fn with the contracts active (or in transit) at an offset that
// the filter shows, in contract-id order, starting after the contract id
// `after`. Contracts archived after the offset count as active; the
// synchronizer and reassignment state are the current ones. A filter by
// parties reads the parties' entries of the active-contracts index
// (acsindex.go), so its cost follows their contracts; a filter for any
// party scans every contract, as Canton's does.
func (n *Node) acsVisitAt(r *store.Reader, at int64, ef *eventFilter, after string, fn acsVisit) error {
	if ef == nil || ef.hasAny {
		return n.acsVisitScan(r, at, ef, after, fn)
	}
	// The contracts' names, decoded once for the read (interned copies).
	names := &internTable{}
	return indexedContracts(r, filterParties(ef), at, after, partyKeep(ef), func(cid string, record []byte) (bool, error) {
		var c *contractRecord
		var err error
		if record != nil {
			c = new(contractRecord)
			err = decodeContractRecordWith(record, c, names)
		} else {
			c, err = loadRecord(r, cid, names)
		}
		if err != nil || c == nil {
			return err == nil, err
		}
		return acsEntry(c, at, ef, fn), nil
	})
}

// acsVisitScan is acsVisitAt by a scan of every contract record.
func (n *Node) acsVisitScan(r *store.Reader, at int64, ef *eventFilter, after string, fn acsVisit) error {
	var start []byte
	if after != "" {
		start = append(store.ContractKey(after), 0)
	}
	names := &internTable{}
	return r.Scan([]byte(store.PrefixContract), start, func(_, v []byte) (bool, error) {
		var c contractRecord
		if err := decodeContractRecordWith(v, &c, names); err != nil {
			return false, err
		}
		return acsEntry(&c, at, ef, fn), nil
	})
}

// acsEntry calls fn with a contract when it is active (or in transit) at
// offset at and the filter shows it; it returns fn's answer (true when
// it was not called).
func acsEntry(c *contractRecord, at int64, ef *eventFilter, fn acsVisit) bool {
	if c.CreatedOffset > at || (c.ArchivedOffset != 0 && c.ArchivedOffset <= at) {
		return true
	}
	w, m := ef.witnesses(c.Create.stakeholders(), c.Create.TemplateID, c.Create.PackageName)
	if len(w) == 0 {
		return true
	}
	return fn(c, w, m)
}

func (n *Node) checkActiveAt(at int64) error {
	if at < 0 {
		return negativeOffset("active_at_offset", at)
	}
	if end := n.st.LedgerEnd(); at > end {
		return apierr.OffsetAfterLedgerEnd.New("Active-at offset (%d) is after ledger end (%d)", at, end)
	}
	return n.checkACSNotPruned(at) // prune.go
}

// acsPageToken is what a page token of active contracts holds: the
// offset the pages read at, the contract id the next page starts after
// and the fingerprint of the request the token belongs to.
type acsPageToken struct {
	At      int64  `json:"at"`
	After   string `json:"after"`
	Request string `json:"r"`
}

// appendJSON appends json.Marshal's encoding of t: by hand, since every
// contract of a page carries a token (PagedContract.Token), and
// reflection made a tenth of a page's cost (TestACSPageTokenJSON keeps
// the two equal).
func (t *acsPageToken) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"at":`...)
	dst = strconv.AppendInt(dst, t.At, 10)
	dst = append(dst, `,"after":`...)
	dst = jsontext.AppendString(dst, t.After, true)
	dst = append(dst, `,"r":`...)
	dst = jsontext.AppendString(dst, t.Request, true)
	return append(dst, '}')
}

// acsQuery is a compiled request of a page of active contracts: the
// parameters its page token is bound to (exported for the fingerprint),
// the offset and the token (base64).
type acsQuery struct {
	Format eventSpec
	Size   *int32
	at     *int64
	token  string
}

// fingerprint identifies the parameters a page token is bound to.
func (q *acsQuery) fingerprint() string { return fingerprint(q) }

// acsBounds are a page's offset, the request's fingerprint (its
// contracts' tokens are bound to it) and its next token (base64), nil on
// the last page.
type acsBounds struct {
	at      int64
	request string
	next    *string
}

// activeContractsPage makes the checks of ActiveContractEventsPage and
// walks a page of the ACS, the rendering left to the visitor newVisit makes for the format's filter (with a count of
// the contracts it kept); the response has the offset and the token, not
// the contracts.
func (n *Node) activeContractsPage(ctx context.Context, req acsQuery, newVisit func(ef *eventFilter) (acsVisit, func() int)) (acsBounds, error) {
	if err := n.public(ctx); err != nil {
		return acsBounds{}, err
	}
	if err := n.eventFormatAuth(ctx, &req.Format); err != nil {
		return acsBounds{}, err
	}
	size := DefaultACSPageSize
	if req.Size != nil {
		if s := int(*req.Size); s <= 0 || s > MaxACSPageSize {
			return acsBounds{}, apierr.InvalidArgument.New("Requested page size must be between 1 and %d", MaxACSPageSize)
		} else {
			size = s
		}
	}
	at := n.st.LedgerEnd()
	if req.at != nil {
		at = *req.at
	}
	fp := req.fingerprint()
	after := ""
	if req.token != "" {
		var tok acsPageToken
		if err := decodePageToken(req.token, &tok, "GetActiveContractsPageRequest"); err != nil {
			return acsBounds{}, err
		}
		if tok.Request != fp || (req.at != nil && tok.At != at) {
			return acsBounds{}, apierr.InvalidACSPageToken.New("The page token was prepared with different event_format or active_at_offset.")
		}
		at, after = tok.At, tok.After
	}
	if err := n.checkActiveAt(at); err != nil {
		return acsBounds{}, err
	}
	resp := acsBounds{at: at, request: fp}
	more := false
	last := ""
	ef := newSpecFilter(&req.Format, n)
	visit, count := newVisit(ef)
	err := n.st.View(func(r *store.Reader) error {
		return n.acsVisitAt(r, at, ef, after, func(c *contractRecord, w []string, m filterMatch) bool {
			if count() == size {
				more = true
				return false
			}
			last = c.Create.ContractID
			return visit(c, w, m)
		})
	})
	if err != nil {
		return acsBounds{}, storeErr(err)
	}
	if more {
		tok := acsPageToken{At: at, After: last, Request: fp}
		s := base64.StdEncoding.EncodeToString(tok.appendJSON(nil))
		resp.next = &s
	}
	return resp, nil
}

// contractEventsFor makes the checks of ContractEvents and decides what
// the format sees of the contract: its record, the witnesses and what
// their filters ask for.
func (n *Node) contractEventsFor(ctx context.Context, cid string, f *eventSpec) (*contractRecord, *eventFilter, []string, filterMatch, error) {
	fail := func(err error) (*contractRecord, *eventFilter, []string, filterMatch, error) {
		return nil, nil, nil, filterMatch{}, err
	}
	if err := n.public(ctx); err != nil {
		return fail(err)
	}
	// Canton's order: the format's parties authorized first
	// (EventQueryServiceAuthorization), then the contract id and the
	// format checked (EventQueryServiceRequestValidator).
	if err := authorizeEventFormat(ctx, f); err != nil {
		return fail(err)
	}
	if cid == "" {
		return fail(apierr.MissingField.New("contract_id"))
	}
	if err := checkContractIDField(cid); err != nil {
		return fail(err)
	}
	if err := n.checkEventSpec(f); err != nil {
		return fail(err)
	}
	notFound := apierr.ContractEventsNotFound.New("Contract events not found, or not visible").WithResource("CONTRACT_ID", cid)
	var c contractRecord
	err := n.st.View(func(r *store.Reader) error {
		raw, err := r.Get(store.ContractKey(cid))
		if errors.Is(err, store.ErrNotFound) {
			return notFound
		}
		if err != nil {
			return err
		}
		return decodeContractRecord(raw, &c)
	})
	if err != nil {
		return fail(storeErr(err))
	}
	ef := newSpecFilter(f, n)
	w, m := ef.witnesses(c.Create.stakeholders(), c.Create.TemplateID, c.Create.PackageName)
	if len(w) == 0 {
		return fail(notFound)
	}
	return &c, ef, w, m, nil
}
