package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// This file is the node's one submission path: Commands in Go types
// (Daml values as daml/value values, times as time.Time) interpreted by
// the Daml engine and committed by Submit. The JSON Ledger API's
// submissions (ledger/jsonapi, with DecodeArguments for its Daml JSON)
// and Daml Script (ledger/scriptledger) are conversions to it, as
// Canton's JSON API is a layer over its typed command services.

// Commands is a submission: commands acting as the ActAs parties, as
// Canton's Commands message (command_service.proto) has them.
type Commands struct {
	// Commands are the commands, the roots of the transaction in order
	// (at least one).
	Commands []Command
	// ActAs are the submitting parties (at least one); ReadAs parties
	// whose contracts the commands may also use.
	ActAs, ReadAs []string
	// UserID is the submitting user; "" is the caller's (the participant
	// admin for a trusted in-process caller).
	UserID string
	// CommandID identifies the command for deduplication (required).
	CommandID string
	// WorkflowID and SubmissionID are optional; they are recorded.
	WorkflowID, SubmissionID string
	// SynchronizerID is the synchronizer to submit to; "" is the default.
	SynchronizerID string
	// Deduplication is the deduplication period; nil is the node's
	// MaxDeduplicationDuration.
	Deduplication Deduplication
	// MinLedgerTime raises the ledger time to at least this instant;
	// MinLedgerTimeRel to at least the node's time plus this duration.
	// The zero value of each is unset; they are exclusive, and
	// MinLedgerTimeRel must not be negative.
	MinLedgerTime    time.Time
	MinLedgerTimeRel time.Duration
	// DisclosedContracts are contracts the submitters may use without
	// being stakeholders.
	DisclosedContracts []DisclosedContract
	// PackageIDSelectionPreference pins package versions: a template
	// reference by package name resolves to the listed package of that
	// name (which must be vetted) rather than to the newest vetted one.
	PackageIDSelectionPreference []string
	// PrefetchContractKeys is a performance hint for Canton's
	// interpretation; ledgernode looks keys up in its index when the code
	// asks, so the hint changes nothing.
	PrefetchContractKeys []PrefetchContractKey
	// TapsMaxPasses bounds Canton's topology-aware package selection;
	// ledgernode selects packages in one pass, so any positive value is
	// met. nil is unset; zero or less is refused with INVALID_ARGUMENT,
	// as Canton does.
	TapsMaxPasses *int
}

// Command is one command of a submission: a CreateCommand,
// ExerciseCommand, CreateAndExerciseCommand or ExerciseByKeyCommand.
//
// Arguments are Daml values with labels (record fields by name, variant
// and enum constructors by name). At interpretation they are typed
// against the package the command's template resolves to (as Canton's
// command preprocessor types a Ledger API value), so a value built for
// one version of a package is accepted by an upgrade of it: fields are
// matched by name, and optional fields the value lacks are None. A nil
// argument is read as the JSON API reads {}: a record without fields or
// () (the argument of a choice such as Archive).
type Command interface {
	isCommand()
}

// CreateCommand creates a contract of Template with Arguments.
type CreateCommand struct {
	// Template is the template.
	Template TemplateRef
	// Arguments is the contract argument, a record of the template's type.
	Arguments value.Value
}

// ExerciseCommand exercises Choice with Argument on the contract
// ContractID.
type ExerciseCommand struct {
	// Template is the contract's template, or an interface it implements
	// (the choice is then the interface's).
	Template TemplateRef
	// ContractID is the exercised contract.
	ContractID value.ContractID
	// Choice is the choice's name; Argument its argument.
	Choice   string
	Argument value.Value
}

// CreateAndExerciseCommand creates a contract of Template with Arguments
// and exercises Choice with Argument on it.
type CreateAndExerciseCommand struct {
	// Template is the template.
	Template TemplateRef
	// Arguments is the contract argument.
	Arguments value.Value
	// Choice is the choice's name; Argument its argument.
	Choice   string
	Argument value.Value
}

// ExerciseByKeyCommand exercises Choice with Argument on the active
// contract of Template with Key (LF 2.3 keys; a template without a key is
// refused with COMMAND_PREPROCESSING_FAILED).
type ExerciseByKeyCommand struct {
	// Template is the template.
	Template TemplateRef
	// Key is the contract key, a value of the template's key type.
	Key value.Value
	// Choice is the choice's name; Argument its argument.
	Choice   string
	Argument value.Value
}

func (CreateCommand) isCommand()            {}
func (ExerciseCommand) isCommand()          {}
func (CreateAndExerciseCommand) isCommand() {}
func (ExerciseByKeyCommand) isCommand()     {}

// TemplateRef names a template or interface of a command: by package id
// (ID as it is), or by package name, which resolves to the preferred
// package of that name (Commands.PackageIDSelectionPreference), else to
// its newest vetted version — Canton's "#name:Module:Entity" reference.
type TemplateRef struct {
	// ID is the template or interface. With ByPackageName, ID.PackageID
	// only names the package whose name to use when PackageName is "".
	ID lf.TypeConID
	// ByPackageName resolves the reference by package name.
	ByPackageName bool
	// PackageName is the package name of a reference by name; "" takes
	// the name of the package ID.PackageID.
	PackageName string
}

// TemplateByID is a reference to id's package as it is.
func TemplateByID(id lf.TypeConID) TemplateRef { return TemplateRef{ID: id} }

// TemplateByName is a reference by package name, "#packageName:module:entity".
func TemplateByName(packageName, module, entity string) TemplateRef {
	return TemplateRef{ID: lf.TypeConID{Module: module, Name: entity}, ByPackageName: true, PackageName: packageName}
}

// ParseTemplateRef parses "<package-id>:<Module>:<Entity>" or
// "#<package-name>:<Module>:<Entity>" (lf.ParseIdentifier's syntax).
func ParseTemplateRef(s string) (TemplateRef, error) {
	id, err := lf.ParseIdentifier(s)
	if err != nil {
		return TemplateRef{}, err
	}
	return templateRefOf(id), nil
}

// MustParseTemplateRef is ParseTemplateRef for constants: it panics when s
// does not parse.
func MustParseTemplateRef(s string) TemplateRef {
	r, err := ParseTemplateRef(s)
	if err != nil {
		panic(err)
	}
	return r
}

// templateRefOf converts a split identifier (its parts unchecked).
func templateRefOf(id lf.Identifier) TemplateRef {
	if id.ByName() {
		return TemplateByName(id.PackageName, id.Module, id.Entity)
	}
	return TemplateByID(lf.TypeConID{PackageID: id.PackageID, Module: id.Module, Name: id.Entity})
}

// String is the reference's text form: "#name:Module:Entity" by name
// (with ID.PackageID in place of the name when PackageName is ""),
// "pkg:Module:Entity" by id.
func (r TemplateRef) String() string {
	switch {
	case r.ByPackageName && r.PackageName != "":
		return "#" + r.PackageName + ":" + r.ID.Module + ":" + r.ID.Name
	case r.ByPackageName:
		return "#" + r.ID.String()
	}
	return r.ID.String()
}

// IsZero reports whether r is the zero TemplateRef (no reference).
func (r TemplateRef) IsZero() bool { return r == TemplateRef{} }

// Deduplication is a command's deduplication period: a
// DeduplicationDuration or a DeduplicationOffset (nil: the node's
// MaxDeduplicationDuration).
type Deduplication interface {
	isDeduplication()
}

// checkDeduplication refuses a negative period as Canton's
// CommandsValidator.validateDeduplicationPeriod does, for submissions and
// executions alike: a negative duration is INVALID_FIELD, a negative
// offset NEGATIVE_OFFSET (nothing is deduplicated against it otherwise).
func checkDeduplication(d Deduplication) error {
	switch d := d.(type) {
	case DeduplicationDuration:
		if d < 0 {
			return apierr.InvalidField.New("deduplication_period: the duration must not be negative")
		}
	case DeduplicationOffset:
		if d < 0 {
			return apierr.NegativeOffset.New("Offset %d in deduplication_period is a negative integer: the deduplication offset has to be a non-negative integer and not %d", d, d)
		}
	}
	return nil
}

// DeduplicationDuration deduplicates the command against those accepted
// within this duration before now (it must not be negative).
type DeduplicationDuration time.Duration

// DeduplicationOffset deduplicates the command against those accepted
// after this offset.
type DeduplicationOffset int64

func (DeduplicationDuration) isDeduplication() {}
func (DeduplicationOffset) isDeduplication()   {}

// DisclosedContract is a contract the submitters may use without being
// its stakeholders, as read with its created-event blob.
type DisclosedContract struct {
	// CreatedEventBlob is the contract's created-event blob (required).
	CreatedEventBlob []byte
	// ContractID and Template, when set, must be the blob's.
	ContractID value.ContractID
	Template   TemplateRef
	// TemplateText, when set and Template is not, is the template id as
	// a client wrote it where it is not an identifier (a reader relaying
	// a client's entry, as the JSON API): it names no blob's template, and
	// the refusal quotes it as written.
	TemplateText string
	// SynchronizerID, when set, must be the submission's synchronizer.
	SynchronizerID string
}

// Check decodes the contract's created-event blob and checks that it
// names the contract id and the template the entry names, when it names
// them, as Submit checks each disclosed contract before the other rules
// of a submission; path names the entry in errors (Submit's are
// "disclosedContracts[i]").
func (d DisclosedContract) Check(path string) error {
	_, err := decodeDisclosedEntry(d, path)
	return err
}

// PrefetchContractKey asks the interpretation to load the contracts of a
// key ahead (a hint ledgernode does not need: see
// Commands.PrefetchContractKeys).
type PrefetchContractKey struct {
	// Template is the template; Key the key.
	Template TemplateRef
	Key      value.Value
	// Limit bounds the contracts to load (0: unbounded).
	Limit int
}

// SubmitOption changes how Submit runs a submission.
type SubmitOption func(*submitConfig)

type submitConfig struct {
	mode rollbackMode
	// decoder, when set, gives the commands' arguments (DecodeArguments).
	decoder ArgumentDecoder
	// typedAt[i] is the package id against whose types command i's
	// arguments were decoded (set by decodeArguments): when the command
	// resolves to that package they are used as they are.
	typedAt []string
	// conversionErrs are the caller's conversion errors by field
	// (ConversionError).
	conversionErrs map[RequestField]error
	// deferJSON lets the committer store the transaction's update record
	// for rendering at its first read (deferredEvents): set by Submit,
	// whose caller reads the engine's transaction and not the entry's
	// nodes, on a store that renders lazily.
	deferJSON bool
}

// AllowEffectfulRollback interprets in the contract-state mode of
// protocol version 34 (NoKey), the mode of Daml's IDE ledger that `daml
// test` runs scripts on: a try may roll back creates and consuming
// exercises. Without it a submission runs in the node's own mode (PV 35,
// NUCK), where such a rollback fails with DAML_EFFECTFUL_ROLLBACK_ERROR.
func AllowEffectfulRollback() SubmitOption {
	return func(c *submitConfig) { c.mode = ideMode }
}

// Committed is a committed submission.
//
// Its transaction is the daml/tx model the engine built, not a list of
// events: every node (fetches, key lookups and rollbacks included), with
// the committed (suffixed) contract ids and the values in normalized
// form — what the submitting parties' code did. It is the one
// transaction model the project has (the engine builds it, the ledger
// commits it, interactive hashes it), so Go callers walk the same tree
// Daml Script does; the per-party event views of the update readers are
// derived from it.
type Committed struct {
	// UpdateID and Offset locate the transaction in the ledger.
	UpdateID string
	Offset   int64
	// CommandID, WorkflowID and SynchronizerID are the submission's (the
	// synchronizer resolved).
	CommandID, WorkflowID, SynchronizerID string
	// EffectiveAt is the ledger effective time, RecordTime the time the
	// node committed it (both with microsecond precision).
	EffectiveAt, RecordTime time.Time
	// Transaction is the committed transaction.
	Transaction *tx.Transaction
}

// Created returns the contracts the transaction created (transient ones
// included), in node order.
func (c *Committed) Created() []*tx.Create {
	var out []*tx.Create
	for _, nd := range c.Transaction.All() {
		if cr, ok := nd.(*tx.Create); ok {
			out = append(out, cr)
		}
	}
	return out
}

// Submit interprets and commits a submission and returns the committed
// transaction. The commands run through the Daml engine on a snapshot of
// the ledger; a transaction whose actAs parties or informees are not
// allocated on the participant is then refused as Canton's routing
// refuses it (UNKNOWN_SUBMITTERS, UNKNOWN_INFORMEES); the committer
// re-checks deduplication and that every contract the transaction used
// is still active. The caller needs CanActAs for every ActAs party and
// CanReadAs for every ReadAs party. Errors are *apierr.Error values with
// Canton's codes; their field paths are those of the JSON Ledger API's
// commands ("commands[0].CreateCommand.createArguments.owner").
func (n *Node) Submit(ctx context.Context, c Commands, opts ...SubmitOption) (*Committed, error) {
	s := newSubmissionOf(c, opts)
	if err := n.checkSubmission(ctx, s); err != nil {
		return nil, err
	}
	if err := n.decodeSubmission(s); err != nil {
		return nil, err
	}
	s.deferJSON = n.st.RendersLazily()
	e, it, err := n.submitChecked(ctx, s)
	if err != nil {
		return nil, err
	}
	out := new(Committed)
	// out is new, all zero: its members are set one by one (a literal
	// assigned to *out would be built whole, then copied).
	out.UpdateID, out.Offset, out.CommandID, out.WorkflowID = e.UpdateID, e.Offset, e.CommandID, e.WorkflowID
	out.SynchronizerID, out.EffectiveAt, out.RecordTime, out.Transaction = e.SynchronizerID, it.let, e.recordTime, it.tx
	return out, nil
}

// submission is a Commands on its way through the node: the synchronizer
// it resolved, the options, and what is computed once (the
// deduplication key, the decoded disclosed contracts).
type submission struct {
	c    *Commands
	sync string
	submitConfig
	// change is changeKey's cache.
	change string
	// disclosed are the decoded DisclosedContracts (nil: not decoded yet,
	// or none).
	disclosed map[string]*tx.ContractBlob
	// tracked is the command tracker's entry of the submission (nil:
	// not tracked), set by commandTracker.track.
	tracked *trackedCommand
	// actAsSet is actAs()'s for more than one party.
	actAsSet []string
	// own holds c for newSubmissionOf; oneCommand and oneTypedAt hold
	// the decoded commands and their typedAt for one command
	// (decodeArguments): a submission allocates them with itself.
	own        Commands
	oneCommand [1]Command
	oneTypedAt [1]string
	// oneValue holds typedCommands' value of one command; oneCreate the
	// update of the first command when it is a create.
	oneValue  [1]engine.Value
	oneCreate engine.CreateRoom
	// resolved are the templates (or interfaces) of the commands as
	// decodeArguments resolved them in the package view resolvedIn (with
	// the submission's preference there), which typedCommands takes
	// rather than resolving them again in the same view; oneResolved
	// holds them for one command.
	resolvedIn  *pkgView
	resolved    []resolvedEntity
	oneResolved [1]resolvedEntity
	// contracts are the contracts of runOnSnapshot's engine run.
	contracts snapshotContracts
}

// actAs is union(c.ActAs), made once: the engine (whose Builder copies
// it) and the contract store's readers share it while the submission
// runs. One party is its own union: c.ActAs itself, which the caller does
// not change while it submits. The log entry, which may outlive the
// submission, takes entryActAs.
func (s *submission) actAs() []string {
	if len(s.c.ActAs) == 1 {
		return s.c.ActAs
	}
	if s.actAsSet == nil {
		s.actAsSet = union(s.c.ActAs)
	}
	return s.actAsSet
}

// entryActAs is actAs() for the log entry: one party is copied into one
// (room of one element allocated with the entry; nil: none) rather than
// shared with the caller's list.
func (s *submission) entryActAs(one []string) []string {
	if len(s.c.ActAs) != 1 {
		return s.actAs()
	}
	if one == nil {
		one = make([]string, 1)
	}
	one[0] = s.c.ActAs[0]
	return one[:1:1]
}

// readers is union(c.ActAs, c.ReadAs), actAs() itself without ReadAs.
func (s *submission) readers() []string {
	if len(s.c.ReadAs) == 0 {
		return s.actAs()
	}
	return union(s.c.ActAs, s.c.ReadAs)
}

// decodeSubmission decodes a checked submission's arguments when it has
// a decoder (DecodeArguments).
func (n *Node) decodeSubmission(s *submission) error {
	if s.decoder == nil {
		return nil
	}
	return n.decodeArguments(s, true)
}

func newSubmission(c *Commands, opts []SubmitOption) *submission {
	s := &submission{c: c, submitConfig: submitConfig{mode: nuckMode}}
	for _, o := range opts {
		o(&s.submitConfig)
	}
	return s
}

// newSubmissionOf is newSubmission of a copy of c, kept in the
// submission itself.
func newSubmissionOf(c Commands, opts []SubmitOption) *submission {
	s := newSubmission(nil, opts)
	s.own = c
	s.c = &s.own
	return s
}

// checkSubmission applies the rules of a submission's fields, in
// Canton's order, and authorizes it: CanActAs for every actAs party,
// CanReadAs (or CanActAs) for every readAs party. It fills in the user
// id from the caller when omitted, and the synchronizer.
func (n *Node) checkSubmission(ctx context.Context, s *submission) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	c := s.c
	if _, err := s.disclosedBlobs(""); err != nil {
		return err
	}
	if !c.MinLedgerTime.IsZero() && c.MinLedgerTimeRel != 0 {
		return apierr.InvalidArgument.New("min_ledger_time_abs and min_ledger_time_rel are exclusive: set one")
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
		return apierr.MissingField.New("act_as")
	}
	if err := authorizeSubmitters(p, c.ActAs, c.ReadAs); err != nil {
		return err
	}
	// After the parties' rights, whose refusal (the same redacted
	// PERMISSION_DENIED) names what the caller lacks.
	if err := requireOwnUserID(p, c.UserID); err != nil {
		return err
	}
	if c.UserID == "" {
		return apierr.MissingField.New("user_id")
	}
	if err := identity.ValidateUserID(c.UserID); err != nil {
		return apierr.InvalidField.New("user_id: %v", err)
	}
	if c.CommandID == "" {
		return apierr.MissingField.New("command_id")
	}
	if err := identity.ValidateLedgerString(c.CommandID); err != nil {
		return apierr.InvalidField.New("command_id: %v", err)
	}
	if c.WorkflowID != "" {
		if err := identity.ValidateLedgerString(c.WorkflowID); err != nil {
			return apierr.InvalidField.New("workflow_id: %v", err)
		}
	}
	if c.SubmissionID != "" {
		if err := identity.ValidateLedgerString(c.SubmissionID); err != nil {
			return apierr.InvalidField.New("submission_id: %v", err)
		}
	}
	if len(c.Commands) == 0 {
		return apierr.MissingField.New("commands")
	}
	if err := checkDeduplication(c.Deduplication); err != nil {
		return err
	}
	if c.TapsMaxPasses != nil {
		if err := checkTapsMaxPasses(int64(*c.TapsMaxPasses)); err != nil {
			return err
		}
	}
	sync, err := n.submissionSynchronizer(c.SynchronizerID)
	if err != nil {
		return err
	}
	s.sync = sync
	if c.MinLedgerTimeRel < 0 {
		return errNegativeMinLedgerTimeRel
	}
	return nil
}

// errNegativeMinLedgerTimeRel refuses a negative MinLedgerTimeRel.
var errNegativeMinLedgerTimeRel = apierr.InvalidField.New("min_ledger_time_rel: the duration must not be negative")

// submitChecked interprets and commits a checked submission; it returns
// the committed entry and the interpretation.
func (n *Node) submitChecked(ctx context.Context, s *submission) (e *logEntry, it *interpreted, err error) {
	// One reading of the clock: when the node received the command, and
	// the time its ledger time starts from.
	now, mono := n.nowMono()
	n.tracker.track(now, s) // command_status.go
	defer n.tracker.done(n.now, s, &e, &err)
	it, err = n.interpretWith(ctx, s, typedCommands, now, mono)
	if err != nil {
		return nil, nil, err
	}
	if h := n.hookInterpreted; h != nil {
		h()
	}
	if err := n.awaitLedgerTime(ctx, it.let, now); err != nil {
		return nil, nil, err
	}
	e, err = n.commitInterpreted(s, it)
	if err != nil {
		return nil, nil, err
	}
	return e, it, nil
}

// commandVariant names a command's variant as the JSON API does (the
// paths of errors).
func commandVariant(c Command) string {
	switch c.(type) {
	case CreateCommand, *CreateCommand:
		return "CreateCommand"
	case ExerciseCommand, *ExerciseCommand:
		return "ExerciseCommand"
	case CreateAndExerciseCommand, *CreateAndExerciseCommand:
		return "CreateAndExerciseCommand"
	case ExerciseByKeyCommand, *ExerciseByKeyCommand:
		return "ExerciseByKeyCommand"
	}
	return ""
}

// typedCommands builds the engine's update values of a submission's
// commands for a package view and preference: each template reference
// is resolved (resolveRef), and each argument typed against the resolved
// package's types (argTyper.arg), as Canton's CommandPreprocessor
// translates the commands of a Ledger API submission.
func typedCommands(s *submission, eng *engine.Engine, pkgs *pkgView, pref map[string]string) ([]engine.Value, error) {
	out := s.oneValue[:0]
	if len(s.c.Commands) > 1 {
		out = make([]engine.Value, 0, len(s.c.Commands))
	}
	for i, c := range s.c.Commands {
		a := argTyper{eng: eng, pkgs: pkgs, pref: pref, p: cmdPath{i: i, variant: commandVariant(c)}}
		if i < len(s.typedAt) {
			a.typedAt = s.typedAt[i]
		}
		if i == 0 {
			a.room = &s.oneCreate
		}
		if pkgs == s.resolvedIn && i < len(s.resolved) {
			// The same view and preference resolve the same reference
			// to the same template.
			a.known = &s.resolved[i]
		}
		var cmd engine.Value
		var err error
		switch x := c.(type) {
		case CreateCommand:
			cmd, err = a.create(x)
		case *CreateCommand:
			cmd, err = a.create(*x)
		case ExerciseCommand:
			cmd, err = a.exercise(x)
		case *ExerciseCommand:
			cmd, err = a.exercise(*x)
		case CreateAndExerciseCommand:
			cmd, err = a.createAndExercise(x)
		case *CreateAndExerciseCommand:
			cmd, err = a.createAndExercise(*x)
		case ExerciseByKeyCommand:
			cmd, err = a.exerciseByKey(x)
		case *ExerciseByKeyCommand:
			cmd, err = a.exerciseByKey(*x)
		default:
			return nil, pathErr(apierr.InvalidArgument, a.p.String(), "the command is empty")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, cmd)
	}
	return out, nil
}

// cmdPath is the path of a command in errors, "commands[i].Variant" (the
// JSON API's), built only for an error.
type cmdPath struct {
	i       int
	variant string
}

func (p cmdPath) String() string {
	s := fmt.Sprintf("commands[%d]", p.i)
	if p.variant != "" {
		s += "." + p.variant
	}
	return s
}

// at is the path of a field of the command.
func (p cmdPath) at(field string) string { return p.String() + "." + field }

// argTyper types the arguments of one command.
type argTyper struct {
	eng  *engine.Engine
	pkgs *pkgView
	pref map[string]string
	p    cmdPath
	// typedAt is the package the arguments were decoded for
	// (decodeArguments).
	typedAt string
	// known, when set, is what the reference resolves to (decodeArguments
	// resolved it in pkgs).
	known *resolvedEntity
	// room, when set, holds the update of a create (CreateRoom).
	room *engine.CreateRoom
}

// resolve resolves the command's template (or interface) reference.
func (a *argTyper) resolve(r TemplateRef, interfaces bool) (resolvedEntity, error) {
	if a.known != nil {
		return *a.known, nil
	}
	return a.pkgs.resolveRef(r, func() string { return a.p.at("templateId") }, a.pref, interfaces)
}

// arg types v (nil: {} as the JSON API reads it), the command's field, against
// t of the resolved package r and converts it to a runtime value. A value
// decoded against r's package (decodeArguments) is used as it is; any
// other is typed by value.TypeAs — as if printed as JSON guided by t and
// read back with FromJSON, with the field's path in errors — so that its
// records match t's fields by label, and must keep its kinds
// (kindMismatch).
//
// typ gives t, asked for only when v is typed here.
func (a *argTyper) arg(r *resolvedEntity, v value.Value, typ func() lf.Type, field string) (engine.Value, error) {
	rv, _, err := a.argOwned(r, v, typ, field)
	return rv, err
}

// argOwned is arg, also returning the value it converted when that value
// is the submission's own — decoded by its decoder (decodeArguments) or
// read here — rather than one its caller may hold, and exactly the
// normalized value of the result (engine.FromValueKept); nil otherwise.
func (a *argTyper) argOwned(r *resolvedEntity, v value.Value, typ func() lf.Type, field string) (engine.Value, value.Value, error) {
	owned := v == nil || (a.typedAt != "" && a.typedAt == r.id.PackageID)
	if v == nil {
		// As the JSON API reads an absent argument: {} (a record without
		// fields, or ()).
		x, err := value.FromJSONAt([]byte("{}"), typ(), a.p.at(field), a.pkgs.lookupFunc())
		if err != nil {
			return nil, nil, damlError(err)
		}
		v = x
	} else if !owned {
		t := typ()
		r := a.pkgs.valueRenderer()
		tv, err := r.js.TypeAsAt(v, t, func() string { return a.p.at(field) })
		a.pkgs.putRenderer(r)
		if err != nil {
			return nil, nil, damlError(err)
		}
		// The JSON form writes some kinds alike (typevalue.go).
		if p, got, want, ok := kindMismatch(v, tv); !ok {
			return nil, nil, apierr.CommandPreprocessingFailed.New("Mismatching type: the value is %s, its type wants %s at '%s%s'", got, want, a.p.at(field), p)
		}
		v = tv
	}
	var rv engine.Value
	var kept value.Value
	var err error
	if owned {
		// The conversion tells whether v is the normalized value of rv.
		rv, kept, err = a.eng.FromValueKept(v)
	} else {
		rv, err = a.eng.FromValue(v)
	}
	if err != nil {
		return nil, nil, apierr.CommandPreprocessingFailed.New("%s at '%s'", err.Error(), a.p.at(field))
	}
	if checkCreateArg != nil {
		checkCreateArg(rv, v)
		if owned {
			checkKeptArg(rv, v, kept)
		}
	}
	return rv, kept, nil
}

// choice types a choice of r and its argument.
func (a *argTyper) choice(r *resolvedEntity, choice string, arg value.Value) (engine.Value, error) {
	ch := choiceIn(r, choice)
	if ch == nil {
		return nil, noChoice(r, choice, a.p.String())
	}
	return a.arg(r, arg, func() lf.Type { return ch.ArgType }, "choiceArgument")
}

func (a *argTyper) create(x CreateCommand) (engine.Value, error) {
	r, err := a.resolve(x.Template, false)
	if err != nil {
		return nil, err
	}
	arg, lv, err := a.argOwned(&r, x.Arguments, r.templateType, "createArguments")
	if err != nil {
		return nil, err
	}
	// The create node may take a decoded value (lv) as it is, which no
	// one else holds and the conversion found normalized.
	return a.room.CreateCommandKept(r.id, arg, lv), nil
}

// checkCreateArg, when set (by the package's tests), checks every
// argument typed for a command: engine.IsLedgerValueOf must accept it
// exactly when it is the normalized value the engine would write.
var checkCreateArg func(rv engine.Value, v value.Value)

// checkKeptArg, set with checkCreateArg, checks what
// engine.FromValueKept kept of v (converted to rv): v exactly when
// engine.IsLedgerValueOf accepts it.
var checkKeptArg func(rv engine.Value, v, kept value.Value)

func (a *argTyper) exercise(x ExerciseCommand) (engine.Value, error) {
	r, err := a.resolve(x.Template, true)
	if err != nil {
		return nil, err
	}
	id, err := commandContractIDAt(string(x.ContractID), func() string { return a.p.at("contractId") })
	if err != nil {
		return nil, err
	}
	arg, err := a.choice(&r, x.Choice, x.Argument)
	if err != nil {
		return nil, err
	}
	if r.iface != nil {
		return engine.ExerciseInterfaceCommand(r.id, x.Choice, id, arg), nil
	}
	return engine.ExerciseCommand(r.id, x.Choice, id, arg), nil
}

func (a *argTyper) createAndExercise(x CreateAndExerciseCommand) (engine.Value, error) {
	r, err := a.resolve(x.Template, false)
	if err != nil {
		return nil, err
	}
	arg, err := a.arg(&r, x.Arguments, r.templateType, "createArguments")
	if err != nil {
		return nil, err
	}
	ca, err := a.choice(&r, x.Choice, x.Argument)
	if err != nil {
		return nil, err
	}
	return engine.CreateAndExerciseCommand(r.id, arg, x.Choice, ca), nil
}

func (a *argTyper) exerciseByKey(x ExerciseByKeyCommand) (engine.Value, error) {
	r, err := a.resolve(x.Template, false)
	if err != nil {
		return nil, err
	}
	if r.tmpl.Key == nil {
		return nil, pathErr(apierr.CommandPreprocessingFailed, a.p.at("templateId"), "template %s has no contract key", r.id)
	}
	k, err := a.arg(&r, x.Key, func() lf.Type { return r.tmpl.Key.Type }, "contractKey")
	if err != nil {
		return nil, err
	}
	arg, err := a.choice(&r, x.Choice, x.Argument)
	if err != nil {
		return nil, err
	}
	return engine.ExerciseByKeyCommand(r.id, x.Choice, k, arg), nil
}

// templateType is the type of a resolved template's argument.
func (r *resolvedEntity) templateType() lf.Type {
	return value.TypeOf(r.id.PackageID, r.id.Module, r.id.Name)
}

// choiceIn returns the choice of a resolved template or interface, or nil.
func choiceIn(r *resolvedEntity, choice string) *lf.Choice {
	if r.tmpl != nil {
		return r.tmpl.Choice(choice)
	}
	return r.iface.Choice(choice)
}

// noChoice is the error of a command (at path) naming a choice its
// template or interface does not have.
func noChoice(r *resolvedEntity, choice, path string) error {
	return pathErr(apierr.CommandPreprocessingFailed, path+".choice", "Couldn't find requested choice %s for template %s", apierr.Quote(choice), r.id)
}

// commandContractIDAt checks the contract id of a command (a V1 or V2
// id, suffixed: committed), with the path built only for an error.
func commandContractIDAt(s string, path func() string) (engine.ContractID, error) {
	// Parsed once: isContractID and tx.IsLocalContractID each parse it.
	c, err := lf.ParseContractID(s)
	if err != nil {
		return "", pathErr(apierr.InvalidArgument, path(), "invalid contract id %s", apierr.Quote(s))
	}
	if c.IsLocal() {
		return "", pathErr(apierr.CommandPreprocessingFailed, path(), "the contract id %s is local (unsuffixed): commands may only name committed contracts", apierr.Quote(s))
	}
	return engine.ContractID(s), nil
}

// resolveRef resolves a command's template (or, when interfaces are
// allowed, interface) reference (resolveIdentifier). A reference by the
// name of a package id needs that package to be known.
func (v *pkgView) resolveRef(r TemplateRef, path func() string, pref map[string]string, interfaces bool) (resolvedEntity, error) {
	id := lf.Identifier{PackageID: r.ID.PackageID, Module: r.ID.Module, Entity: r.ID.Name}
	if r.ByPackageName && r.PackageName == "" && r.ID.PackageID == "" {
		// "#:Module:Entity": no package at all.
		return resolvedEntity{}, pathErr(apierr.InvalidArgument, path(), "Invalid identifier format (%s) not matching the expected format (<package>:<moduleName>:<entityName>)", apierr.Quote(r.String()))
	}
	if r.ByPackageName {
		id.PackageID, id.PackageName = "", r.PackageName
		if id.PackageName == "" {
			src := v.byID[r.ID.PackageID]
			if src == nil {
				return resolvedEntity{}, apierr.PackageNotFound.New("Package %s is not known", apierr.Quote(r.ID.PackageID)).WithResource("PACKAGE", r.ID.PackageID)
			}
			id.PackageName = src.Name
		}
	}
	if id.PackageRef() == "" || id.Module == "" || id.Entity == "" {
		return resolvedEntity{}, pathErr(apierr.InvalidArgument, path(), "Invalid identifier format (%s) not matching the expected format (<package>:<moduleName>:<entityName>)", apierr.Quote(id.String()))
	}
	return v.resolveIdentifier(id, path, pref, interfaces)
}

// SubmitForTransaction submits c as Submit does and returns the committed
// transaction as f shows it, as Canton's SubmitAndWaitForTransaction
// (command_service.proto) does: f nil is the ACS delta as the ActAs and
// ReadAs parties see it, verbose. f is checked — the rights to read as
// its parties, its filters' templates and interfaces — before the
// submission's own checks, so that a refused format commits nothing
// (Canton validates the request's format before submitting it). A
// transaction f shows nothing of comes back without events.
func (n *Node) SubmitForTransaction(ctx context.Context, c Commands, f *ReadFormat, opts ...SubmitOption) (*update.Transaction, error) {
	s := newSubmissionOf(c, opts)
	tf, err := n.submissionFormat(ctx, s, f)
	if err != nil {
		return nil, err
	}
	if err := n.checkSubmission(ctx, s); err != nil {
		return nil, err
	}
	if err := n.decodeSubmission(s); err != nil {
		return nil, err
	}
	e, it, err := n.submitChecked(ctx, s)
	if err != nil {
		return nil, err
	}
	return n.committedTransaction(ctx, e, it, tf)
}

// committedTransaction is the transaction e committed (interpreted as
// it) as tf shows it, without events when tf shows none of them
// (SubmitForTransaction, ExecuteForTransaction).
func (n *Node) committedTransaction(ctx context.Context, e *logEntry, it *interpreted, tf *txSpec) (*update.Transaction, error) {
	t, err := n.typedRendererFor(ctx).transaction(e, tf.effects(), newSpecFilter(&tf.Events, n))
	if err != nil {
		return nil, decodeErr(err)
	}
	if t == nil {
		t = &update.Transaction{UpdateID: e.UpdateID, Offset: e.Offset, CommandID: e.CommandID, WorkflowID: e.WorkflowID,
			EffectiveAt: it.let, RecordTime: e.recordTime, SynchronizerID: e.SynchronizerID}
	}
	return t, nil
}

// submissionFormat checks the format of a submission's transaction (nil:
// the actAs and readAs parties', whose reading the submission's own
// checks authorize) and returns it in the form of the node's reads.
func (n *Node) submissionFormat(ctx context.Context, s *submission, f *ReadFormat) (*txSpec, error) {
	if f == nil {
		return actAsSpec(s.c.ActAs, s.c.ReadAs), nil
	}
	return n.checkedTxSpec(ctx, *f)
}

// checkedTxSpec compiles f and checks it as the transaction reads do
// (the rights to read as its parties, its filters' templates and
// interfaces).
func (n *Node) checkedTxSpec(ctx context.Context, f ReadFormat) (*txSpec, error) {
	tf := n.typedTxSpec(f)
	if err := n.checkSpec(ctx, &updateSpec{Tx: tf}); err != nil {
		return nil, err
	}
	return tf, nil
}
