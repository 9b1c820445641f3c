package script

import (
	"context"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TemplateContracts is what a Ledger that can read the active contracts
// of one template faster than through Contracts' match implements
// (ledger/scriptledger's, whose node keeps an index by template): the
// queries of one template (QueryACS, the key queries) use it.
type TemplateContracts interface {
	// ContractsOfTemplate is Contracts with the match of exactly tpl.
	ContractsOfTemplate(ctx context.Context, parties []string, tpl lf.TypeConID) ([]engine.Contract, error)
}

// Ledger is what a script runs against: the ledger questions of the
// daml-script library (submissions, queries, parties, users, time,
// packages). Implementations must be safe for use by one script at a time;
// ledger/scriptledger implements it over a *ledger.Node.
type Ledger interface {
	// Submit interprets and commits one submission and returns the
	// committed transaction (contract ids as committed, values in
	// normalized form, every node kept). A rejection of the submission by
	// the ledger (interpretation, authorization, visibility, unknown
	// parties …) is a *SubmitError; any other error is a failure of the
	// runner.
	Submit(ctx context.Context, s *Submission) (*tx.Transaction, error)
	// Contracts returns the active contracts of which one of parties is a
	// stakeholder and whose template match accepts, in creation order.
	Contracts(ctx context.Context, parties []string, match func(template lf.TypeConID) bool) ([]engine.Contract, error)
	// ContractByID returns the active contract cid if one of parties is a
	// stakeholder, else nil.
	ContractByID(ctx context.Context, parties []string, cid string) (*engine.Contract, error)
	// AllocateParty allocates a party with the hint and returns its id.
	AllocateParty(ctx context.Context, hint string) (string, error)
	// KnownParties lists the parties known to the ledger.
	KnownParties(ctx context.Context) ([]PartyDetails, error)
	// Time returns the ledger's current time; SetTime sets it.
	Time(ctx context.Context) (time.Time, error)
	SetTime(ctx context.Context, t time.Time) error
	// CreateUser creates a user with rights; false when the user exists.
	CreateUser(ctx context.Context, u User, rights []UserRight) (bool, error)
	// GetUser returns a user, nil when unknown.
	GetUser(ctx context.Context, id string) (*User, error)
	// DeleteUser deletes a user; false when unknown.
	DeleteUser(ctx context.Context, id string) (bool, error)
	// ListUsers lists every user.
	ListUsers(ctx context.Context) ([]User, error)
	// GrantUserRights grants rights and returns those newly granted;
	// RevokeUserRights revokes them and returns those removed;
	// ListUserRights returns the user's rights. ok is false when the
	// user is unknown.
	GrantUserRights(ctx context.Context, id string, rights []UserRight) (granted []UserRight, ok bool, err error)
	RevokeUserRights(ctx context.Context, id string, rights []UserRight) (revoked []UserRight, ok bool, err error)
	ListUserRights(ctx context.Context, id string) (rights []UserRight, ok bool, err error)
	// Packages lists the ledger's packages with their vetting state.
	Packages(ctx context.Context) ([]PackageInfo, error)
	// SetVetted vets (vetted true) or unvets the packages named.
	SetVetted(ctx context.Context, pkgs []PackageInfo, vetted bool) error
}

// CommandKind says which daml-script command a Command is.
type CommandKind uint8

// The command kinds of the daml-script library.
const (
	// CreateCmd creates TemplateID with Arg.
	CreateCmd CommandKind = iota + 1
	// ExerciseCmd exercises Choice with ChoiceArg on ContractID;
	// TemplateID may name an interface.
	ExerciseCmd
	// ExerciseByKeyCmd exercises Choice on the contract of TemplateID
	// with Key.
	ExerciseByKeyCmd
	// CreateAndExerciseCmd creates TemplateID with Arg and exercises
	// Choice on it.
	CreateAndExerciseCmd
)

// Command is one command of a Submission; values are in the types of
// TemplateID's package (the package the script was compiled against).
type Command struct {
	// Kind is the command.
	Kind CommandKind
	// TemplateID is the template (or, for ExerciseCmd, the interface).
	TemplateID lf.TypeConID
	// ExplicitPackageID is set by the *Exact commands: the package id is
	// used as is; otherwise the template is resolved by package name.
	ExplicitPackageID bool
	// ContractID is the exercised contract (ExerciseCmd).
	ContractID string
	// Choice is the exercised choice (all but CreateCmd).
	Choice string
	// Arg is the create argument (CreateCmd, CreateAndExerciseCmd);
	// ChoiceArg the choice argument (all but CreateCmd).
	Arg, ChoiceArg value.Value
	// Key is the contract key (ExerciseByKeyCmd).
	Key value.Value
}

// Submission is one submission of a Submit question.
type Submission struct {
	// ActAs are the authorizers (non-empty), ReadAs the extra readers.
	ActAs, ReadAs []string
	// PackagePreference are package ids preferred for name resolution.
	PackagePreference []string
	// Commands are the commands in order.
	Commands []Command
	// Disclosures are explicitly disclosed contracts (sDisclosures): the
	// submitters may use them without being stakeholders.
	Disclosures []Disclosure
}

// Disclosure is an explicitly disclosed contract: its id and its blob
// (the contract's createdEventBlob bytes; a script carries them as hex).
type Disclosure struct {
	// ContractID is the disclosed contract.
	ContractID string
	// Blob is its createdEventBlob.
	Blob []byte
}

// ContractBlobs is an optional extension of a Ledger that gives a
// contract with its blob: QueryContractId (and so queryDisclosure) reads
// the contract with it; without it the blob is empty.
type ContractBlobs interface {
	// ContractWithBlob is ContractByID that also returns the contract's
	// blob (nil when it has none), read with the contract.
	ContractWithBlob(ctx context.Context, parties []string, cid string) (*engine.Contract, []byte, error)
}

// SubmitError is a ledger's rejection of a submission: its Canton error
// code id (CONTRACT_NOT_FOUND, DAML_AUTHORIZATION_ERROR, …), message and
// the resources that a script's SubmitError value carries.
type SubmitError struct {
	// Code is the error code id.
	Code string
	// Message is the error's message.
	Message string
	// ContractIDs are the contracts the error names (CONTRACT_ID
	// resources).
	ContractIDs []string
	// Exception is the unhandled Daml exception, when the ledger kept it.
	Exception *engine.Any
	// FailureStatus is the failure of a DAML_FAILURE rejection (a
	// failWithStatus in the transaction, or an exception nothing caught),
	// when the ledger kept it.
	FailureStatus *FailureStatus
}

// FailureStatus is a Daml FailureStatus as a ledger reports it.
type FailureStatus struct {
	// ErrorID is the failure's error id, e.g.
	// "UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError".
	ErrorID string
	// Category is the Canton error category id (8 or 9).
	Category int64
	// Message is the message the Daml code gave, without the ledger's
	// prefix.
	Message string
	// Metadata is the failure's metadata.
	Metadata map[string]string
}

// Error returns the code and the message.
func (e *SubmitError) Error() string { return e.Code + ": " + e.Message }

// PartyDetails is a party known to the ledger.
type PartyDetails struct {
	// Party is the party id.
	Party string
	// IsLocal is true for a party hosted by the participant.
	IsLocal bool
}

// User is a ledger user.
type User struct {
	// ID is the user id.
	ID string
	// PrimaryParty is empty when the user has none.
	PrimaryParty string
}

// RightKind is the kind of a UserRight (the constructor ranks of the
// daml-script UserRight type).
type RightKind uint8

// The user rights of daml-script 3.3.
const (
	// ParticipantAdmin administers the participant.
	ParticipantAdmin RightKind = iota
	// CanActAs acts as Party.
	CanActAs
	// CanReadAs reads as Party.
	CanReadAs
	// CanReadAsAnyParty reads as every party.
	CanReadAsAnyParty
)

// UserRight is a user right; Party is set for CanActAs and CanReadAs.
type UserRight struct {
	// Kind is the right.
	Kind RightKind
	// Party is the party of CanActAs and CanReadAs.
	Party string
}

// String renders the right as the daml-script constructor.
func (r UserRight) String() string {
	switch r.Kind {
	case ParticipantAdmin:
		return "ParticipantAdmin"
	case CanActAs:
		return "CanActAs " + r.Party
	case CanReadAs:
		return "CanReadAs " + r.Party
	case CanReadAsAnyParty:
		return "CanReadAsAnyParty"
	}
	return fmt.Sprintf("UserRight(%d)", r.Kind)
}

// PackageInfo names a package (name and version) and whether it is vetted.
type PackageInfo struct {
	// Name and Version are the package's metadata.
	Name, Version string
	// Vetted is true for a package vetted on the ledger.
	Vetted bool
}
