package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/apierr"
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

// ExerciseByKeyCommand exercises a choice on the contract with a key.
// ledgernode has no contract keys yet: it is refused as unsupported.
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
// ledgernode does not honour MinLedgerTimeAbs, MinLedgerTimeRel,
// DisclosedContracts, PackageIDSelectionPreference and
// PrefetchContractKeys yet: a submission that sets one is refused with
// INVALID_ARGUMENT rather than run without it. TapsMaxPasses bounds a
// package selection ledgernode does not make, so any value is met.
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
	if err := supportedJsCommands(c, ""); err != nil {
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
	for _, party := range append(slices.Clone(c.ActAs), c.ReadAs...) {
		if err := identity.ValidatePartyString(party); err != nil {
			return "", apierr.InvalidField.New("act_as/read_as: %v", err)
		}
	}
	for _, party := range c.ActAs {
		if !p.CanActAs(party) && !p.Wildcard {
			return "", denied("the caller may not act as %s", party)
		}
	}
	for _, party := range c.ReadAs {
		if !p.CanReadAs(party) && !p.Wildcard {
			return "", denied("the caller may not read as %s", party)
		}
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
	return n.synchronizer(c.SynchronizerID)
}

// changeID identifies a command for deduplication: user, actAs, command id.
func changeID(c *JsCommands) string {
	acts := slices.Clone(c.ActAs)
	slices.Sort(acts)
	h := sha256.Sum256(mustJSON([]any{c.UserID, acts, c.CommandID}))
	return hex.EncodeToString(h[:])
}

// checkDuplicate fails with DUPLICATE_COMMAND when the command was accepted
// within its deduplication period.
func (n *Node) checkDuplicate(tx *store.Tx, c *JsCommands, now time.Time) error {
	raw, err := tx.Get(store.DedupKey(changeID(c)))
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
	byID   map[string]*lf.Package
	vetted map[string]bool

	engOnce sync.Once
	eng     *engine.Engine

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
	c := &n.views
	c.mu.Lock()
	cv, ok := c.views[sync]
	gen := c.gen
	c.mu.Unlock()
	if ok && cv.gen == gen {
		return cv.view, nil
	}
	v, err := n.readPkgView(tx, sync)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.views == nil {
		c.views = map[string]cachedView{}
	}
	if c.gen == gen {
		c.views[sync] = cachedView{gen: gen, view: v}
	}
	c.mu.Unlock()
	return v, nil
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
	v := &pkgView{byID: map[string]*lf.Package{}, vetted: map[string]bool{}}
	for _, p := range known {
		v.byID[p.ID] = p
	}
	for _, p := range st.Packages {
		v.vetted[p.PackageID] = true
	}
	return v, nil
}

// resolveTemplate resolves a template reference to a vetted package and
// its template: a package id must be vetted on the synchronizer; a
// #package-name resolves to the newest vetted version of that name.
func (v *pkgView) resolveTemplate(ref, path string) (*lf.Package, *lf.Template, string, error) {
	id, err := lf.SplitIdentifier(ref)
	if err != nil || id.PackageRef() == "" || id.Module == "" || id.Entity == "" {
		return nil, nil, "", pathErr(apierr.InvalidArgument, path, "Invalid identifier format (%s) not matching the expected format (<package>:<moduleName>:<entityName>)", apierr.Quote(ref))
	}
	if err := id.Validate(); err != nil {
		return nil, nil, "", pathErr(apierr.InvalidField, path, "%v", err)
	}
	pkgRef, module, entity := id.PackageID, id.Module, id.Entity
	var pkg *lf.Package
	if id.ByName() {
		name := id.PackageName
		for pid := range v.vetted {
			p := v.byID[pid]
			if p != nil && p.Name == name && (pkg == nil || lf.CompareVersions(p.Version, pkg.Version) > 0) {
				pkg = p
			}
		}
		if pkg == nil {
			return nil, nil, "", apierr.PackageNamesNotFound.New("The following package names do not match upgradable packages vetted on the synchronizer: %s", apierr.Quote(name)).
				WithResource("PACKAGE_NAME", name)
		}
	} else {
		pkg = v.byID[pkgRef]
		if pkg == nil || !v.vetted[pkgRef] {
			return nil, nil, "", apierr.PackageNotFound.New("Package %s is not known or not vetted on the synchronizer", apierr.Quote(pkgRef)).WithResource("PACKAGE", pkgRef)
		}
	}
	t := pkg.Template(module, entity)
	if t == nil {
		id := pkg.ID + ":" + module + ":" + entity
		return nil, nil, "", apierr.TemplatesOrInterfacesNotFound.New("The following templates or interfaces were not found: %s", apierr.Quote(id)).
			WithResource("TEMPLATE_ID", id)
	}
	return pkg, t, pkg.ID + ":" + module + ":" + entity, nil
}

// interpretation is the state of one transaction being built.
type interpretation struct {
	n       *Node
	tx      *store.Tx
	pkgs    *pkgView
	cmds    *JsCommands
	sync    string
	entry   *logEntry
	now     string
	touched map[string]*contractRecord // contracts read or written by this transaction
	changed map[string]bool            // the touched contracts this transaction changes
}

func (in *interpretation) nextNodeID() int32 { return int32(len(in.entry.Nodes)) }

// contract returns a contract as this transaction sees it.
func (in *interpretation) contract(cid, path string) (*contractRecord, error) {
	if c := in.touched[cid]; c != nil {
		return c, nil
	}
	if !isContractID(cid) {
		return nil, pathErr(apierr.InvalidArgument, path, "invalid contract id %q", apierr.Quote(cid))
	}
	raw, err := in.tx.Get(store.ContractKey(cid))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(cid)).WithResource("CONTRACT_ID", cid)
	}
	if err != nil {
		return nil, err
	}
	var c contractRecord
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	in.touched[cid] = &c
	return &c, nil
}

// isContractID reports whether s has the syntax of a V1 or V2 contract id
// (lf.IsContractID).
func isContractID(s string) bool { return lf.IsContractID(s) }

// checkArg validates a Daml value against an LF type and returns its
// canonical JSON; a typed error of daml/value becomes a Canton error in
// damlError.
func (in *interpretation) checkArg(raw json.RawMessage, t lf.Type, path string) (json.RawMessage, error) {
	out, err := value.CheckValue(raw, t, path, in.pkgs.lookup)
	return out, damlError(err)
}

// run interprets the commands in order.
func (in *interpretation) run(cmds []Command) error {
	for i, cmd := range cmds {
		path := fmt.Sprintf("commands[%d]", i)
		var err error
		switch {
		case cmd.CreateCommand != nil:
			_, err = in.create(cmd.CreateCommand.TemplateID, cmd.CreateCommand.CreateArguments, path+".CreateCommand")
		case cmd.ExerciseCommand != nil:
			x := cmd.ExerciseCommand
			err = in.exercise(x.TemplateID, x.ContractID, x.Choice, x.ChoiceArgument, path+".ExerciseCommand")
		case cmd.CreateAndExerciseCommand != nil:
			x := cmd.CreateAndExerciseCommand
			var node *txNode
			if node, err = in.create(x.TemplateID, x.CreateArguments, path+".CreateAndExerciseCommand"); err == nil {
				err = in.exercise(x.TemplateID, node.ContractID, x.Choice, x.ChoiceArgument, path+".CreateAndExerciseCommand")
			}
		case cmd.ExerciseByKeyCommand != nil:
			err = apierr.Unimplemented.New("ExerciseByKeyCommand is not supported: ledgernode has no contract keys yet")
		default:
			err = pathErr(apierr.InvalidArgument, path, "the command is empty")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// create adds a create node.
func (in *interpretation) create(templateRef string, args json.RawMessage, path string) (*txNode, error) {
	pkg, _, tid, err := in.pkgs.resolveTemplate(templateRef, path+".templateId")
	if err != nil {
		return nil, err
	}
	_, module, entity, _ := splitTemplateID(tid)
	arg, err := in.checkArg(args, value.TypeOf(pkg.ID, module, entity), path+".createArguments")
	if err != nil {
		return nil, err
	}
	id := in.nextNodeID()
	// Signatories are the acting parties and there are no other observers:
	// ledgernode does not evaluate the template's signatory expression.
	return in.addCreate(txNode{ID: id, ContractID: in.contractID(id), TemplateID: tid, PackageName: pkg.Name, Argument: arg,
		Signatories: union(in.cmds.ActAs), Observers: []string{}, CreatedAt: in.now}), nil
}

// addCreate appends a create node and records its new, active contract.
func (in *interpretation) addCreate(node txNode) *txNode {
	in.entry.Nodes = append(in.entry.Nodes, node)
	in.touched[node.ContractID] = &contractRecord{Create: node, SynchronizerID: in.sync, State: contractActive,
		CreatedOffset: in.entry.Offset, WorkflowID: in.entry.WorkflowID}
	in.changed[node.ContractID] = true
	return &in.entry.Nodes[len(in.entry.Nodes)-1]
}

// active returns a contract that is active on the transaction's
// synchronizer: CONTRACT_NOT_FOUND when it is unknown or archived,
// CONTRACT_NOT_ACTIVE when it is in transit or elsewhere.
func (in *interpretation) active(cid, path string) (*contractRecord, error) {
	c, err := in.contract(cid, path)
	if err != nil {
		return nil, err
	}
	switch {
	case c.State == contractArchived:
		return nil, apierr.ContractNotFound.New("Contract could not be found with id %s", apierr.Quote(cid)).WithResource("CONTRACT_ID", cid)
	case c.State == contractUnassigned || c.SynchronizerID != in.sync:
		return nil, apierr.ContractNotActive.New("Contract %s is not active on synchronizer %s", apierr.Quote(cid), in.sync).WithResource("CONTRACT_ID", cid)
	}
	return c, nil
}

// choiceArgument checks a choice's argument against the package and returns
// it canonical, with whether the choice consumes the contract. Archive is
// always available (consuming, any argument). found is false for a choice
// the template does not have.
func (in *interpretation) choiceArgument(tmpl *lf.Template, choice string, arg json.RawMessage, path string) (canon json.RawMessage, consuming, found bool, err error) {
	ch := tmpl.Choice(choice)
	if ch == nil {
		if choice == "Archive" {
			return json.RawMessage("{}"), true, true, nil
		}
		return nil, false, false, nil
	}
	canon, err = in.checkArg(arg, ch.ArgType, path)
	return canon, ch.Consuming, true, err
}

// addExercise appends an exercise node; a consuming one archives the
// contract (and makes its create transient when this transaction made it).
func (in *interpretation) addExercise(node txNode, c *contractRecord) {
	in.entry.Nodes = append(in.entry.Nodes, node)
	if !node.Consuming {
		return
	}
	c.State, c.ArchivedOffset = contractArchived, in.entry.Offset
	in.changed[node.ContractID] = true
	for i := range in.entry.Nodes {
		if !in.entry.Nodes[i].Exercise && in.entry.Nodes[i].ContractID == node.ContractID {
			in.entry.Nodes[i].Transient = true
		}
	}
}

// contractID derives a V1 contract id from the transaction's content and
// the node: "00" + discriminator + "ca12" + unicum.
func (in *interpretation) contractID(node int32) string {
	seed := mustJSON([]any{in.entry.Offset, in.entry.UpdateID, node})
	d := sha256.Sum256(append([]byte("discriminator:"), seed...))
	u := sha256.Sum256(append([]byte("unicum:"), seed...))
	return "00" + hex.EncodeToString(d[:]) + "ca12" + hex.EncodeToString(u[:])
}

// splitTemplateID splits a stored template id ("<package id>:M:E").
func splitTemplateID(tid string) (pkg, module, entity string, ok bool) {
	id, err := lf.SplitIdentifier(tid)
	if err != nil {
		return "", "", "", false
	}
	return id.PackageRef(), id.Module, id.Entity, true
}

// exercise adds an exercise node on a contract.
func (in *interpretation) exercise(templateRef, cid, choice string, arg json.RawMessage, path string) error {
	pkg, tmpl, tid, err := in.pkgs.resolveTemplate(templateRef, path+".templateId")
	if err != nil {
		return err
	}
	c, err := in.active(cid, path+".contractId")
	if err != nil {
		return err
	}
	_, m, e, _ := splitTemplateID(tid)
	_, cm, ce, _ := splitTemplateID(c.Create.TemplateID)
	if m != cm || e != ce {
		return pathErr(apierr.CommandPreprocessingFailed, path+".templateId", "mismatching template: contract %s is of template %s, not %s", apierr.Quote(cid), c.Create.TemplateID, tid)
	}
	stakeholders := c.Create.stakeholders()
	for _, p := range in.cmds.ActAs {
		if !slices.Contains(stakeholders, p) {
			return apierr.DamlAuthorizationError.New("%s is not a stakeholder of contract %s and cannot exercise %s on it", p, apierr.Quote(cid), apierr.Quote(choice))
		}
	}
	canon, consuming, found, err := in.choiceArgument(tmpl, choice, nullToEmpty(arg), path+".choiceArgument")
	if !found {
		return pathErr(apierr.CommandPreprocessingFailed, path+".choice", "Couldn't find requested choice %s for template %s", apierr.Quote(choice), tid)
	}
	if err != nil {
		return err
	}
	in.addExercise(txNode{ID: in.nextNodeID(), Exercise: true, ContractID: cid, TemplateID: c.Create.TemplateID,
		PackageName: pkg.Name, Argument: canon, Stakeholders: stakeholders, Choice: choice, Consuming: consuming, Acting: union(in.cmds.ActAs)}, c)
	return nil
}

func nullToEmpty(v json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(v))) == 0 || strings.TrimSpace(string(v)) == "null" {
		return json.RawMessage("{}")
	}
	return v
}

// submit interprets and commits a submission; it returns the committed
// entry.
func (n *Node) submit(ctx context.Context, c JsCommands) (*logEntry, error) {
	sync, err := n.prepareSubmission(ctx, &c)
	if err != nil {
		return nil, err
	}
	it, err := n.interpret(ctx, &c, sync)
	if err != nil {
		return nil, err
	}
	if h := n.hookInterpreted; h != nil {
		h()
	}
	return n.commitInterpreted(&c, sync, it)
}

// commitTransaction commits one transaction of a submission: the
// deduplication check, the nodes that build adds (interpreting commands or
// replaying a prepared transaction) checked against the current state, the
// contracts it changes, the log entry at a new offset and the
// deduplication entry.
func (n *Node) commitTransaction(c *JsCommands, sync string, build func(*interpretation) error) (*logEntry, error) {
	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		now := n.now()
		if err := n.checkDuplicate(tx, c, now); err != nil {
			return nil, err
		}
		pkgs, err := n.loadPkgView(tx, sync)
		if err != nil {
			return nil, err
		}
		off := tx.NextOffset()
		at := formatTime(now)
		e := &logEntry{Kind: kindTransaction, Offset: off, CommandID: c.CommandID, WorkflowID: c.WorkflowID,
			EffectiveAt: at, RecordTime: at, SynchronizerID: sync, UserID: c.UserID, ActAs: union(c.ActAs), SubmissionID: c.SubmissionID}
		e.UpdateID = newUpdateID("tx", n.participantID, strconv.FormatInt(off, 10), c.UserID, c.CommandID, at)
		in := newInterpretation(n, tx, pkgs, c, sync, e)
		if err := build(in); err != nil {
			return nil, err
		}
		for cid := range in.changed {
			tx.Set(store.ContractKey(cid), mustJSON(in.touched[cid]))
		}
		appendEntry(tx, e)
		tx.Set(store.DedupKey(changeID(c)), mustJSON(dedupRecord{Offset: off, UpdateID: e.UpdateID, At: at}))
		return e, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return v.(*logEntry), nil
}

// newInterpretation starts building a transaction's nodes.
func newInterpretation(n *Node, tx *store.Tx, pkgs *pkgView, c *JsCommands, sync string, e *logEntry) *interpretation {
	return &interpretation{n: n, tx: tx, pkgs: pkgs, cmds: c, sync: sync, entry: e, now: e.EffectiveAt,
		touched: map[string]*contractRecord{}, changed: map[string]bool{}}
}

// Submit submits commands without waiting for the result to be read back
// (POST /v2/commands/async/submit): everything is validated and committed
// before it returns, so a rejection is reported directly.
func (n *Node) Submit(ctx context.Context, c JsCommands) (Empty, error) {
	_, err := n.submit(ctx, c)
	return Empty{}, err
}

// SubmitAndWait submits commands and returns the update id and offset of
// the committed transaction.
//
// ledgernode does not evaluate Daml expressions: a created contract's
// signatories are the actAs parties and it has no other observers; an
// exercised choice's controllers are the actAs parties, who must be
// stakeholders of the contract; its result is null; a consuming choice (as
// the package declares it) archives the contract; Archive is always
// available. Arguments are checked against the package's types.
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
	if err := supportedJsCommands(&req.Commands, "commands."); err != nil {
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
