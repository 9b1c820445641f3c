package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// DefaultMaxDeduplicationDuration is the deduplication period of a
// command that names none (Canton's max-deduplication-duration).
const DefaultMaxDeduplicationDuration = 7 * 24 * time.Hour

// contractRecord is a contract's current state.
type contractRecord struct {
	Create         txNode `json:"create"`
	SynchronizerID string `json:"sync"`
	// State is "active", "archived" or "unassigned" (in transit).
	State          string `json:"state"`
	Counter        int64  `json:"counter"`
	ReassignmentID string `json:"rid,omitempty"`
	// CreatedOffset and ArchivedOffset (0 while active) place the contract
	// in the history, for reads of the active contracts at an offset.
	CreatedOffset  int64  `json:"co"`
	ArchivedOffset int64  `json:"ao,omitempty"`
	WorkflowID     string `json:"wf,omitempty"`
	// Target, UnassignedOffset and UnassignedBy (the submitting party)
	// describe an open unassignment: the active contracts show it as the
	// contract's unassigned event (Canton's ACSReader reads the submitter
	// from the unassign event's row). A record written before UnassignedBy
	// existed shows an empty submitter.
	Target           string `json:"dst,omitempty"`
	UnassignedOffset int64  `json:"uo,omitempty"`
	UnassignedBy     string `json:"ub,omitempty"`
}

const (
	contractActive     = "active"
	contractArchived   = "archived"
	contractUnassigned = "unassigned"
)

// dedupRecord remembers an accepted command.
type dedupRecord struct {
	Offset   int64  `json:"o"`
	UpdateID string `json:"u"`
	At       string `json:"at"`
}

func pathErr(code apierr.Code, path, format string, args ...any) error {
	return code.New("%s at '%s'", fmt.Sprintf(format, args...), path)
}

// authorizeSubmitters validates the actAs and readAs party ids and checks
// that p may act as every actAs party and read as every readAs party.
func authorizeSubmitters(p identity.Principal, actAs, readAs []string) error {
	for _, party := range actAs {
		if err := identity.ValidatePartyString(party); err != nil {
			return apierr.InvalidField.New("act_as/read_as: %v", err)
		}
	}
	for _, party := range readAs {
		if err := identity.ValidatePartyString(party); err != nil {
			return apierr.InvalidField.New("act_as/read_as: %v", err)
		}
	}
	for _, party := range actAs {
		if !p.CanActAs(party) && !p.Wildcard {
			return denied("the caller may not act as %s", party)
		}
	}
	for _, party := range readAs {
		if !p.CanReadAs(party) && !p.Wildcard {
			return denied("the caller may not read as %s", party)
		}
	}
	return nil
}

// awaitLedgerTime delays a submission whose ledger time is ahead of the
// node's wall clock until that time, as Canton submits a transaction so
// that it reaches the synchronizer when record time equals ledger time
// (minLedgerTimeAbs/Rel in the future, or an input contract created
// later). On a static clock record time is the clock's, and nothing waits.
//
// read is a time the node's clock showed earlier in the submission: on
// the system clock, which the node takes as not going back (its record
// times follow it), a ledger time not after read is not ahead of the
// clock now either, and the clock is not read again. A clock of
// Options.Clock may go back: it is read.
func (n *Node) awaitLedgerTime(ctx context.Context, let, read time.Time) error {
	if n.static != nil || (n.sysClock && !let.After(read)) {
		return nil
	}
	d := let.Sub(n.now())
	if d <= 0 {
		return nil
	}
	n.log.Info("delaying a submission until its ledger time", "delay", d)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// changeKey returns changeID(s.c), computed once: the caller must not
// change the user, actAs or command id afterwards.
func (s *submission) changeKey() string {
	if s.change == "" {
		s.change = changeID(s.c.UserID, s.c.ActAs, s.c.CommandID)
	}
	return s.change
}

// changeID identifies a command for deduplication: user, actAs, command
// id — the hex SHA-256 of the JSON array [user, sorted actAs, command id]
// as json.Marshal writes it (the keys already stored depend on it).
func changeID(userID string, actAs []string, commandID string) string {
	h := changeIDSum(userID, actAs, commandID)
	return hexString(h[:])
}

// changeIDSum is the SHA-256 sum changeID writes in hex.
func changeIDSum(userID string, actAs []string, commandID string) [sha256.Size]byte {
	acts := actAs
	if !slices.IsSorted(acts) {
		acts = slices.Sorted(slices.Values(acts))
	}
	size := len(userID) + len(commandID) + 16
	for _, p := range acts {
		size += len(p) + 3
	}
	var stack [256]byte // most fit: b stays on the stack
	b := stack[:0]
	if size > len(stack) {
		b = make([]byte, 0, size)
	}
	b = append(b, '[')
	b = appendJSONString(b, userID)
	b = append(b, ',')
	b = appendJSONStrings(b, acts)
	b = append(b, ',')
	b = appendJSONString(b, commandID)
	b = append(b, ']')
	return sha256.Sum256(b)
}

// checkDuplicate fails with DUPLICATE_COMMAND when the command was accepted
// within its deduplication period.
//
// The node's dedupFilter spares the read for a change id without a
// record: the committer adds an id to it before it writes its record
// (commitInterpreted); a check adds nothing.
func (n *Node) checkDuplicate(tx *store.Tx, s *submission, now time.Time) error {
	if n.dedup != nil && !n.dedup.mayHold(s.changeKey()) {
		return nil
	}
	raw, err := tx.Get(store.DedupKey(s.changeKey()))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var d dedupRecord
	if err := json.Unmarshal(raw, &d); err != nil {
		return err
	}
	dup := false
	switch p := s.c.Deduplication.(type) {
	case DeduplicationOffset:
		dup = d.Offset > int64(p)
	default:
		period := n.opts.MaxDeduplicationDuration
		if p, ok := p.(DeduplicationDuration); ok {
			period = time.Duration(p)
		}
		at, _ := time.Parse(time.RFC3339Nano, d.At)
		dup = now.Sub(at) < period
	}
	if dup {
		// Canton's CommandDeduplicationError.DuplicateCommandReject (the
		// participant's deduplication; the Ledger API's own
		// ConsistencyErrors.DuplicateCommand.Reject is not raised): a
		// definite answer, with the accepted command's completion offset.
		return apierr.DuplicateCommand.New("Command submission already exists.").
			WithResource("COMMAND_ID", s.c.CommandID).WithContext("accepted", "true").
			WithContext("completion_offset", strconv.FormatInt(d.Offset, 10)).WithDefiniteAnswer(true)
	}
	return nil
}

// pkgView is what command interpretation reads: the known packages and the
// vetting state of the synchronizer.
type pkgView struct {
	eng    *engine.Engine // the node's
	byID   map[string]*lf.Package
	vetted map[string]bool

	prefOnce sync.Once
	pref     map[string]string // newestVetted

	// renderers keeps JSONAppenders of lookup, whose caches of resolved
	// data types stay warm from one submission to the next, with their
	// buffers.
	renderers valueRenderers

	// lookupFn is lookup as a func value, made once (lookupFunc).
	lookupFn func(string) *lf.Package
}

// valueRenderer prints (and types) the values of one submission: a
// JSONAppender of a package view and a buffer to render into.
type valueRenderer struct {
	js  *value.JSONAppender
	buf []byte
	// last is the template of the last created node it rendered
	// (template), which the next submission most likely creates again.
	last renderedTemplate
	// plains are the parties committable's encodings found plain, which
	// the next submissions most likely name again.
	plains plainParties
}

// renderedTemplate is a template's id as a string and the type of its
// arguments (value.TypeOf), made once for the nodes that create it, with
// whether the id and the package name of its last node are
// jsontext.HTMLPlain (plainIDs).
type renderedTemplate struct {
	id      lf.TypeConID
	idText  string
	argType lf.Type
	idPlain bool
	// pkgName is the package name plainIDs last looked at (pkgNameSet:
	// it did), pkgNamePlain whether it is HTML-plain.
	pkgName                  string
	pkgNameSet, pkgNamePlain bool
}

// template returns id's renderedTemplate.
func (r *valueRenderer) template(id lf.TypeConID) *renderedTemplate {
	if r.last.idText == "" || r.last.id != id {
		idText := id.String()
		r.last = renderedTemplate{id: id, idText: idText, argType: value.TypeOf(id.PackageID, id.Module, id.Name), idPlain: jsontext.HTMLPlain(idText)}
	}
	return &r.last
}

// plainIDs reports whether the template's id and pkgName (a created
// node's package name, the same for every node of the template) are
// jsontext.HTMLPlain: the name is looked at only when it is not the
// last one's.
func (t *renderedTemplate) plainIDs(pkgName string) bool {
	if !t.pkgNameSet || t.pkgName != pkgName {
		t.pkgName, t.pkgNameSet, t.pkgNamePlain = pkgName, true, jsontext.HTMLPlain(pkgName)
	}
	return t.idPlain && t.pkgNamePlain
}

// valueRenderers keeps the valueRenderers given back to one package
// view. A sync.Pool: every submission takes one and gives it back, and a
// lock of the view's own, taken twice per submission from every core,
// makes the submitters queue behind one another. A renderer in use keeps
// going round the pool's per-P caches; one idle through two collections
// is dropped.
type valueRenderers struct {
	pool sync.Pool
}

// valueRenderer returns a valueRenderer of v for the caller's use
// alone, until it gives it back (putRenderer).
func (v *pkgView) valueRenderer() *valueRenderer {
	if r, ok := v.renderers.pool.Get().(*valueRenderer); ok {
		return r
	}
	return &valueRenderer{js: value.NewJSONAppender(v.lookup)}
}

// putRenderer gives back a valueRenderer of v.valueRenderer(), nothing
// referring to its buffer any more.
func (v *pkgView) putRenderer(r *valueRenderer) {
	if cap(r.buf) > 1<<20 {
		r.buf = nil // a rare big transaction's
	}
	v.renderers.pool.Put(r)
}

func (v *pkgView) lookup(id string) *lf.Package { return v.byID[id] }

// lookupFunc is v.lookup, without allocating the method value at every
// use (a submission's decoder gets it).
func (v *pkgView) lookupFunc() func(string) *lf.Package {
	if v.lookupFn != nil {
		return v.lookupFn
	}
	return v.lookup
}

// viewCache keeps the package view of each synchronizer between commits.
// Operations that change packages or vetting bump gen inside the committer
// (see packagesChanged), so that a later operation — even one of the same
// group commit — reloads the view through its transaction. Every
// submission reads it (twice) and the committer once per operation, so a
// read takes no lock: it loads the current state, which writers replace
// rather than change (under mu, which only they take).
type viewCache struct {
	mu  sync.Mutex
	cur atomic.Pointer[viewState]
}

// viewState is a viewCache's generation and views, never changed once
// stored.
type viewState struct {
	gen   uint64
	views map[string]cachedView
}

type cachedView struct {
	gen  uint64
	view *pkgView
}

// state returns the current state (noViews before any write).
func (c *viewCache) state() *viewState {
	if s := c.cur.Load(); s != nil {
		return s
	}
	return &noViews
}

// noViews is the state of a viewCache nothing was written to.
var noViews viewState

// packagesChanged invalidates the cached package views. It must be called
// from inside a committer operation that writes package or vetting records.
func (n *Node) packagesChanged() {
	c := &n.views
	c.mu.Lock()
	c.cur.Store(&viewState{gen: c.state().gen + 1}) // the old views are stale
	c.mu.Unlock()
}

// loadPkgView returns the package view of a synchronizer, from the cache
// when it is current. It must run inside the committer: the generation is
// bumped there, before the commit that changes packages or vetting lands.
func (n *Node) loadPkgView(tx *store.Tx, sync string) (*pkgView, error) {
	v, gen := n.views.current(sync)
	if v != nil {
		return v, nil
	}
	v, err := n.readPkgView(tx, sync)
	if err != nil {
		return nil, err
	}
	n.views.store(sync, gen, v)
	return v, nil
}

// current returns the cached view of a synchronizer when it is of the
// current generation (else nil), and that generation.
func (c *viewCache) current(sync string) (*pkgView, uint64) {
	s := c.state()
	if cv, ok := s.views[sync]; ok && cv.gen == s.gen {
		return cv.view, s.gen
	}
	return nil, s.gen
}

// store caches a view read at generation gen, unless the generation
// changed since.
func (c *viewCache) store(sync string, gen uint64, v *pkgView) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.state()
	if s.gen != gen {
		return
	}
	views := make(map[string]cachedView, len(s.views)+1)
	maps.Copy(views, s.views)
	views[sync] = cachedView{gen: gen, view: v}
	c.cur.Store(&viewState{gen: gen, views: views})
}

func (n *Node) readPkgView(tx *store.Tx, sync string) (*pkgView, error) {
	known, err := n.knownPackages(&tx.Reader)
	if err != nil {
		return nil, err
	}
	vetted, err := vettedSet(tx, sync)
	if err != nil {
		return nil, err
	}
	v := &pkgView{eng: n.eng, byID: make(map[string]*lf.Package, len(known)), vetted: vetted}
	v.lookupFn = v.lookup
	for _, p := range known {
		v.byID[p.ID] = p
	}
	return v, nil
}

// vettedSet returns the set of package ids vetted on sync as tx sees
// them (loadVetting's packages), shared with every view of the same
// vetting record (decodedVettingOf): it must not be changed.
func vettedSet(tx *store.Tx, sync string) (map[string]bool, error) {
	var set map[string]bool
	err := tx.GetFunc(store.VettingKey(sync), func(raw []byte) error {
		d, err := decodedVettingOf(raw)
		if err != nil {
			return err
		}
		set = d.vetted
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return map[string]bool{}, nil
	}
	return set, err
}
