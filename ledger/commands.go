package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// DefaultMaxDeduplicationDuration is the deduplication period of a
// command that names none (Canton's max-deduplication-duration).
const DefaultMaxDeduplicationDuration = 7 * 24 * time.Hour

// CreateCommand creates a contract of a template ("pkg:Module:Entity" or
// "#package-name:Module:Entity").
type CreateCommand struct {
	TemplateID      string          `json:"templateId"`
	CreateArguments json.RawMessage `json:"createArguments"`
}

// ExerciseCommand exercises a choice on a contract.
type ExerciseCommand struct {
	TemplateID     string          `json:"templateId"`
	ContractID     string          `json:"contractId"`
	Choice         string          `json:"choice"`
	ChoiceArgument json.RawMessage `json:"choiceArgument"`
}

// CreateAndExerciseCommand creates a contract and exercises a choice on it.
type CreateAndExerciseCommand struct {
	TemplateID      string          `json:"templateId"`
	CreateArguments json.RawMessage `json:"createArguments"`
	Choice          string          `json:"choice"`
	ChoiceArgument  json.RawMessage `json:"choiceArgument"`
}

// ExerciseByKeyCommand exercises a choice on the newest active contract
// with a key (LF 2.3 keys; a template without a key is refused with
// COMMAND_PREPROCESSING_FAILED).
type ExerciseByKeyCommand struct {
	TemplateID     string          `json:"templateId"`
	ContractKey    json.RawMessage `json:"contractKey"`
	Choice         string          `json:"choice"`
	ChoiceArgument json.RawMessage `json:"choiceArgument"`
}

// Command is one command: {"CreateCommand": {…}} and so on (no value
// layer). Exactly one variant must be set: a submission whose command has
// none or several is refused (apierr.Malformed) before anything else.
type Command struct {
	CreateCommand            *CreateCommand            `json:"CreateCommand,omitempty"`
	ExerciseCommand          *ExerciseCommand          `json:"ExerciseCommand,omitempty"`
	CreateAndExerciseCommand *CreateAndExerciseCommand `json:"CreateAndExerciseCommand,omitempty"`
	ExerciseByKeyCommand     *ExerciseByKeyCommand     `json:"ExerciseByKeyCommand,omitempty"`
}

// DeduplicationPeriod is {"DeduplicationDuration": {"value": Duration}},
// {"DeduplicationOffset": {"value": n}} or {"Empty": {}}.
type DeduplicationPeriod struct {
	DeduplicationDuration *Wrapped[Duration] `json:"DeduplicationDuration,omitempty"`
	DeduplicationOffset   *Wrapped[int64]    `json:"DeduplicationOffset,omitempty"`
	Empty                 *struct{}          `json:"Empty,omitempty"`
}

// JsCommands is a submission: commands acting as the actAs parties.
//
// MinLedgerTimeAbs and MinLedgerTimeRel raise the ledger time (they are
// exclusive); PackageIDSelectionPreference pins package versions;
// PrefetchContractKeys is a hint and changes nothing; DisclosedContracts
// are contracts the submitters may use without being stakeholders.
// TapsMaxPasses bounds a package selection ledgernode makes in one pass,
// so any positive value is met; zero or less is refused with
// INVALID_ARGUMENT, as Canton does.
type JsCommands struct {
	Commands                     []Command             `json:"commands"`
	CommandID                    string                `json:"commandId"`
	ActAs                        []string              `json:"actAs"`
	UserID                       string                `json:"userId"`
	ReadAs                       []string              `json:"readAs"`
	WorkflowID                   string                `json:"workflowId"`
	DeduplicationPeriod          *DeduplicationPeriod  `json:"deduplicationPeriod"`
	MinLedgerTimeAbs             *string               `json:"minLedgerTimeAbs"`
	MinLedgerTimeRel             *Duration             `json:"minLedgerTimeRel"`
	SubmissionID                 string                `json:"submissionId"`
	DisclosedContracts           []DisclosedContract   `json:"disclosedContracts"`
	SynchronizerID               string                `json:"synchronizerId"`
	PackageIDSelectionPreference []string              `json:"packageIdSelectionPreference"`
	PrefetchContractKeys         []PrefetchContractKey `json:"prefetchContractKeys"`
	TapsMaxPasses                *int32                `json:"tapsMaxPasses"`

	change    string                      // changeKey's cache
	disclosed map[string]*tx.ContractBlob // disclosedBlobs' cache
}

// SubmitAndWaitResponse tells where a submission was committed.
type SubmitAndWaitResponse struct {
	UpdateID         string `json:"updateId"`
	CompletionOffset int64  `json:"completionOffset"`
}

// SubmitAndWaitForTransactionRequest submits and asks for the transaction
// in a format (nil: ACS delta as the actAs parties see it).
type SubmitAndWaitForTransactionRequest struct {
	Commands          JsCommands         `json:"commands"`
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// SubmitAndWaitForTransactionResponse carries the committed transaction.
type SubmitAndWaitForTransactionResponse struct {
	Transaction Transaction `json:"transaction"`
}

// SubmitAndWaitForTransactionTreeResponse carries the committed transaction
// as a tree.
type SubmitAndWaitForTransactionTreeResponse struct {
	TransactionTree TransactionTree `json:"transactionTree"`
}

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
	// Target and UnassignedOffset describe an open unassignment.
	Target           string `json:"dst,omitempty"`
	UnassignedOffset int64  `json:"uo,omitempty"`
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

// prepareSubmission validates what can be validated before the commit and
// authorizes the submission: CanActAs for every actAs party, CanReadAs (or
// CanActAs) for every readAs party. It fills in the user id from the
// caller when omitted.
func (n *Node) prepareSubmission(ctx context.Context, c *JsCommands) (string, error) {
	if err := n.public(ctx); err != nil {
		return "", err
	}
	if err := wellFormedJsCommands(c, ""); err != nil {
		return "", err
	}
	if err := checkJsCommandFields(c, ""); err != nil {
		return "", err
	}
	p := caller(ctx)
	if c.UserID == "" {
		c.UserID = p.UserID
	}
	if c.UserID == "" && p.Wildcard {
		// A trusted in-process caller that names no user submits as the
		// participant's admin user.
		c.UserID = identity.DefaultParticipantAdmin
	}
	if len(c.ActAs) == 0 {
		return "", apierr.MissingField.New("act_as")
	}
	if err := authorizeSubmitters(p, c.ActAs, c.ReadAs); err != nil {
		return "", err
	}
	if c.UserID == "" {
		return "", apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(c.UserID); err != nil {
		return "", apierr.InvalidField.New("user_id: %v", err)
	}
	if c.CommandID == "" {
		return "", apierr.MissingField.New("command_id")
	}
	if err := identity.ValidateLedgerString(c.CommandID); err != nil {
		return "", apierr.InvalidField.New("command_id: %v", err)
	}
	if c.WorkflowID != "" {
		if err := identity.ValidateLedgerString(c.WorkflowID); err != nil {
			return "", apierr.InvalidField.New("workflow_id: %v", err)
		}
	}
	if c.SubmissionID != "" {
		if err := identity.ValidateLedgerString(c.SubmissionID); err != nil {
			return "", apierr.InvalidField.New("submission_id: %v", err)
		}
	}
	if len(c.Commands) == 0 {
		return "", apierr.MissingField.New("commands")
	}
	if d := c.DeduplicationPeriod; d != nil && d.DeduplicationDuration != nil {
		if v := d.DeduplicationDuration.Value; v.Seconds < 0 || v.Nanos < 0 {
			return "", apierr.InvalidField.New("deduplication_period: the duration must not be negative")
		}
	}
	if err := checkTapsMaxPasses(c.TapsMaxPasses); err != nil {
		return "", err
	}
	return n.synchronizer(c.SynchronizerID)
}

// authorizeSubmitters validates the actAs and readAs party ids and checks
// that p may act as every actAs party and read as every readAs party.
func authorizeSubmitters(p identity.Principal, actAs, readAs []string) error {
	for _, parties := range [2][]string{actAs, readAs} {
		for _, party := range parties {
			if err := identity.ValidatePartyString(party); err != nil {
				return apierr.InvalidField.New("act_as/read_as: %v", err)
			}
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
func (n *Node) awaitLedgerTime(ctx context.Context, let time.Time) error {
	if n.static != nil {
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

// changeKey returns changeID(c), computed once: the caller must not change
// the user, actAs or command id afterwards.
func (c *JsCommands) changeKey() string {
	if c.change == "" {
		c.change = changeID(c)
	}
	return c.change
}

// changeID identifies a command for deduplication: user, actAs, command
// id — the hex SHA-256 of the JSON array [user, sorted actAs, command id]
// as json.Marshal writes it (the keys already stored depend on it).
func changeID(c *JsCommands) string {
	acts := c.ActAs
	if !slices.IsSorted(acts) {
		acts = slices.Sorted(slices.Values(acts))
	}
	size := len(c.UserID) + len(c.CommandID) + 16
	for _, p := range acts {
		size += len(p) + 3
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	b = appendJSONString(b, c.UserID)
	b = append(b, ',')
	b = appendJSONStrings(b, acts)
	b = append(b, ',')
	b = appendJSONString(b, c.CommandID)
	b = append(b, ']')
	h := sha256.Sum256(b)
	return hexString(h[:])
}

// checkDuplicate fails with DUPLICATE_COMMAND when the command was accepted
// within its deduplication period.
func (n *Node) checkDuplicate(tx *store.Tx, c *JsCommands, now time.Time) error {
	raw, err := tx.Get(store.DedupKey(c.changeKey()))
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
	switch p := c.DeduplicationPeriod; {
	case p != nil && p.DeduplicationOffset != nil:
		dup = d.Offset > p.DeduplicationOffset.Value
	default:
		period := n.opts.MaxDeduplicationDuration
		if p != nil && p.DeduplicationDuration != nil {
			period = time.Duration(p.DeduplicationDuration.Value.Seconds)*time.Second + time.Duration(p.DeduplicationDuration.Value.Nanos)
		}
		at, _ := time.Parse(time.RFC3339Nano, d.At)
		dup = now.Sub(at) < period
	}
	if dup {
		return apierr.DuplicateCommand.New("A command with the given command id has already been successfully processed").
			WithResource("COMMAND_ID", c.CommandID).WithContext("existing_submission_id", "").
			WithContext("completion_offset", strconv.FormatInt(d.Offset, 10))
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
}

func (v *pkgView) lookup(id string) *lf.Package { return v.byID[id] }

// viewCache keeps the package view of each synchronizer between commits.
// Operations that change packages or vetting bump gen inside the committer
// (see packagesChanged), so that a later operation — even one of the same
// group commit — reloads the view through its transaction.
type viewCache struct {
	mu    sync.Mutex
	gen   uint64
	views map[string]cachedView
}

type cachedView struct {
	gen  uint64
	view *pkgView
}

// packagesChanged invalidates the cached package views. It must be called
// from inside a committer operation that writes package or vetting records.
func (n *Node) packagesChanged() {
	n.views.mu.Lock()
	n.views.gen++
	n.views.mu.Unlock()
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if cv, ok := c.views[sync]; ok && cv.gen == c.gen {
		return cv.view, c.gen
	}
	return nil, c.gen
}

// store caches a view read at generation gen, unless the generation
// changed since.
func (c *viewCache) store(sync string, gen uint64, v *pkgView) {
	c.mu.Lock()
	if c.views == nil {
		c.views = map[string]cachedView{}
	}
	if c.gen == gen {
		c.views[sync] = cachedView{gen: gen, view: v}
	}
	c.mu.Unlock()
}

func (n *Node) readPkgView(tx *store.Tx, sync string) (*pkgView, error) {
	known, err := n.knownPackages(&tx.Reader)
	if err != nil {
		return nil, err
	}
	st, err := loadVetting(tx, sync)
	if err != nil {
		return nil, err
	}
	v := &pkgView{eng: n.eng, byID: map[string]*lf.Package{}, vetted: map[string]bool{}}
	for _, p := range known {
		v.byID[p.ID] = p
	}
	for _, p := range st.Packages {
		v.vetted[p.PackageID] = true
	}
	return v, nil
}

// isContractID reports whether s has the syntax of a V1 or V2 contract id
// (lf.IsContractID).
func isContractID(s string) bool { return lf.IsContractID(s) }

func nullToEmpty(v json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(v))) == 0 || strings.TrimSpace(string(v)) == "null" {
		return json.RawMessage("{}")
	}
	return v
}

// submit interprets and commits a submission; it returns the committed
// entry.
func (n *Node) submit(ctx context.Context, c JsCommands) (e *logEntry, err error) {
	sync, err := n.prepareSubmission(ctx, &c)
	if err != nil {
		return nil, err
	}
	defer n.tracker.track(n.now, &c)(&e, &err) // command_status.go
	it, err := n.interpret(ctx, &c, sync)
	if err != nil {
		return nil, err
	}
	if h := n.hookInterpreted; h != nil {
		h()
	}
	if err := n.awaitLedgerTime(ctx, it.let); err != nil {
		return nil, err
	}
	return n.commitInterpreted(&c, sync, it)
}

// Submit submits commands without waiting for the result to be read back
// (POST /v2/commands/async/submit): everything is validated and committed
// before it returns, so a rejection is reported directly.
func (n *Node) Submit(ctx context.Context, c JsCommands) (Empty, error) {
	_, err := n.submit(ctx, c)
	return Empty{}, err
}

// SubmitAndWait submits commands and returns the update id and offset of
// the committed transaction. The commands run through the Daml engine on a
// snapshot of the ledger (see interpret.go); a transaction whose actAs
// parties or informees are not allocated on the participant is then
// refused as Canton's routing refuses it (UNKNOWN_SUBMITTERS,
// UNKNOWN_INFORMEES); the committer re-checks that every contract the
// transaction used is still active.
func (n *Node) SubmitAndWait(ctx context.Context, c JsCommands) (SubmitAndWaitResponse, error) {
	e, err := n.submit(ctx, c)
	if err != nil {
		return SubmitAndWaitResponse{}, err
	}
	return SubmitAndWaitResponse{UpdateID: e.UpdateID, CompletionOffset: e.Offset}, nil
}

// actAsFormat is the default transaction format of a submission: the
// shape as the actAs and readAs parties see it, verbose.
func actAsFormat(c JsCommands, shape string) *TransactionFormat {
	f := &TransactionFormat{EventFormat: EventFormat{FiltersByParty: map[string]Filters{}, Verbose: true}, TransactionShape: shape}
	for _, p := range append(slices.Clone(c.ActAs), c.ReadAs...) {
		f.EventFormat.FiltersByParty[p] = Filters{}
	}
	return f
}

// SubmitAndWaitForTransaction submits commands and returns the committed
// transaction in the requested format (default: ACS delta for the actAs
// parties). A transaction with no visible event comes back without events.
func (n *Node) SubmitAndWaitForTransaction(ctx context.Context, req SubmitAndWaitForTransactionRequest) (SubmitAndWaitForTransactionResponse, error) {
	if err := wellFormedJsCommands(&req.Commands, "commands."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	if err := wellFormedTransactionFormat(req.TransactionFormat, "transactionFormat."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	if err := checkJsCommandFields(&req.Commands, "commands."); err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	f := req.TransactionFormat
	if f != nil {
		if err := n.validateFormat(ctx, UpdateFormat{IncludeTransactions: f}); err != nil {
			return SubmitAndWaitForTransactionResponse{}, err
		}
	} else {
		// Reading as the actAs and readAs parties is authorized by the
		// submission's own checks.
		f = actAsFormat(req.Commands, ShapeACSDelta)
	}
	e, err := n.submit(ctx, req.Commands)
	if err != nil {
		return SubmitAndWaitForTransactionResponse{}, err
	}
	t := renderTransaction(e, f, newEventFilter(&f.EventFormat, n))
	if t == nil {
		t = &Transaction{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
			Events: []Event{}, Offset: e.Offset, SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}
	}
	return SubmitAndWaitForTransactionResponse{Transaction: *t}, nil
}

// SubmitAndWaitForTransactionTree submits commands and returns the
// transaction as a tree as the actAs parties see it (deprecated endpoint).
func (n *Node) SubmitAndWaitForTransactionTree(ctx context.Context, c JsCommands) (SubmitAndWaitForTransactionTreeResponse, error) {
	e, err := n.submit(ctx, c)
	if err != nil {
		return SubmitAndWaitForTransactionTreeResponse{}, err
	}
	f := actAsFormat(c, ShapeLedgerEffects)
	t := renderTree(e, newEventFilter(&f.EventFormat, n))
	if t == nil {
		t = &TransactionTree{UpdateID: e.UpdateID, CommandID: e.CommandID, WorkflowID: e.WorkflowID, EffectiveAt: e.EffectiveAt,
			Offset: e.Offset, EventsByID: map[string]TreeEvent{}, SynchronizerID: e.SynchronizerID, RecordTime: e.RecordTime}
	}
	return SubmitAndWaitForTransactionTreeResponse{TransactionTree: *t}, nil
}
