// Package scriptledger runs Daml Script (daml/script) against a ledgernode
// node in process: it implements script.Ledger over a *ledger.Node with
// the node's public Go API, as a trusted in-process caller (participant
// admin rights), so that a script sees the node as `daml test` sees its
// IDE ledger (Canton's IdeLedger and IdeLedgerRunner, in
// community/daml-lf/interpreter and ide-ledger) except where the node's
// semantics differ (party ids are "hint::namespace"; static time cannot go
// back).
package scriptledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/vetting"
)

// Ledger is a script.Ledger over a node.
type Ledger struct {
	node *ledger.Node
	opts Options
}

// Options configure a Ledger.
type Options struct {
	// NodeContractState interprets submissions in the node's own
	// contract-state mode (Canton 3.5, protocol version 35: a Daml try may
	// not roll back a create or a consuming exercise). The default is the
	// mode of the IDE ledger that `daml test` runs scripts on, where it
	// may (ledger.AllowEffectfulRollback).
	NodeContractState bool
}

// New returns a script.Ledger over node.
func New(node *ledger.Node, opts Options) *Ledger { return &Ledger{node: node, opts: opts} }

var (
	_ script.Ledger        = (*Ledger)(nil)
	_ script.ContractBlobs = (*Ledger)(nil)
)

// Submit submits through Node.Submit (each submission with a fresh
// command id); a rejection with a Canton error code is a
// *script.SubmitError.
func (l *Ledger) Submit(ctx context.Context, s *script.Submission) (*tx.Transaction, error) {
	sub := ledger.Commands{ActAs: s.ActAs, ReadAs: s.ReadAs, CommandID: commandID(), PackageIDSelectionPreference: s.PackagePreference,
		DisclosedContracts: nodeDisclosed(s.Disclosures)}
	for _, c := range s.Commands {
		ref := ledger.TemplateRef{ID: c.TemplateID, ByPackageName: !c.ExplicitPackageID}
		var cmd ledger.Command
		switch c.Kind {
		case script.CreateCmd:
			cmd = ledger.CreateCommand{Template: ref, Arguments: c.Arg}
		case script.ExerciseCmd:
			cmd = ledger.ExerciseCommand{Template: ref, ContractID: value.ContractID(c.ContractID), Choice: c.Choice, Argument: c.ChoiceArg}
		case script.ExerciseByKeyCmd:
			cmd = ledger.ExerciseByKeyCommand{Template: ref, Key: c.Key, Choice: c.Choice, Argument: c.ChoiceArg}
		case script.CreateAndExerciseCmd:
			cmd = ledger.CreateAndExerciseCommand{Template: ref, Arguments: c.Arg, Choice: c.Choice, Argument: c.ChoiceArg}
		}
		sub.Commands = append(sub.Commands, cmd)
	}
	var opts []ledger.SubmitOption
	if !l.opts.NodeContractState {
		opts = append(opts, ledger.AllowEffectfulRollback())
	}
	res, err := l.node.Submit(ctx, sub, opts...)
	if err != nil {
		return nil, submitError(err)
	}
	return res.Transaction, nil
}

// commandID returns a fresh command id for a script's submission (Ledger
// and Remote).
func commandID() string {
	var b [16]byte
	rand.Read(b[:])
	return "daml-script-" + hex.EncodeToString(b[:])
}

// nodeDisclosed renders a script's disclosures as the node's disclosed
// contracts.
func nodeDisclosed(ds []script.Disclosure) []ledger.DisclosedContract {
	var out []ledger.DisclosedContract
	for _, d := range ds {
		out = append(out, ledger.DisclosedContract{ContractID: value.ContractID(d.ContractID), CreatedEventBlob: d.Blob})
	}
	return out
}

// submitError turns a node error into a *script.SubmitError.
func submitError(err error) error {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return err
	}
	se := newSubmitError(ae.Code.Name, ae.Cause, ae.Resources)
	var ee *engine.Error
	if errors.As(err, &ee) {
		if ee.Exception != nil {
			se.Exception = ee.Exception
		}
		if ee.Kind == engine.ErrFailureStatus {
			se.FailureStatus = &script.FailureStatus{ErrorID: ee.ErrorID, Category: ee.Category, Message: ee.Message, Metadata: ee.Metadata}
		}
	}
	return se
}

// newSubmitError is a rejection with an error code, its cause and its
// resources, of which it keeps the contract ids.
func newSubmitError(code, cause string, resources [][2]string) *script.SubmitError {
	se := &script.SubmitError{Code: code, Message: cause}
	for _, r := range resources {
		if r[0] == "CONTRACT_ID" {
			se.ContractIDs = append(se.ContractIDs, r[1])
		}
	}
	return se
}

// Contracts reads the node's active contracts as Daml-LF values. They
// share their values with the node's cache of decoded contracts
// (ledger.Node.EngineContractsShared): the caller must not change them,
// as the script runner does not (it converts them to the engine's
// values).
func (l *Ledger) Contracts(ctx context.Context, parties []string, match func(lf.TypeConID) bool) ([]engine.Contract, error) {
	return contractsOf(l.node.EngineContractsShared(ctx, parties, match))
}

// ContractsOfTemplate is Contracts with the match of exactly tpl
// (script.TemplateContracts), which the node answers from its index by
// template when it keeps one (ledger.Node.EngineContractsOfTemplateShared:
// a node opened from a Fixture does).
func (l *Ledger) ContractsOfTemplate(ctx context.Context, parties []string, tpl lf.TypeConID) ([]engine.Contract, error) {
	return contractsOf(l.node.EngineContractsOfTemplateShared(ctx, parties, tpl))
}

// contractsOf returns the contracts of a node's read (cs, err).
func contractsOf(cs []ledger.EngineContract, err error) ([]engine.Contract, error) {
	if err != nil {
		return nil, err
	}
	out := make([]engine.Contract, len(cs))
	for i := range cs {
		out[i] = cs[i].Contract
	}
	return out, nil
}

// ContractByID reads one active contract.
func (l *Ledger) ContractByID(ctx context.Context, parties []string, cid string) (*engine.Contract, error) {
	c, err := l.node.EngineContractByID(ctx, cid, parties)
	if err != nil || c == nil {
		return nil, err
	}
	return &c.Contract, nil
}

// ContractWithBlob reads one active contract with its createdEventBlob
// (script.ContractBlobs).
func (l *Ledger) ContractWithBlob(ctx context.Context, parties []string, cid string) (*engine.Contract, []byte, error) {
	c, err := l.node.EngineContractByID(ctx, cid, parties)
	if err != nil || c == nil {
		return nil, nil, err
	}
	return &c.Contract, c.Blob, nil
}

// AllocateParty allocates a party with the hint ("hint::namespace").
func (l *Ledger) AllocateParty(ctx context.Context, hint string) (string, error) {
	d, err := l.node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: hint})
	if err != nil {
		return "", err
	}
	return d.Party, nil
}

// KnownParties lists the node's parties.
func (l *Ledger) KnownParties(ctx context.Context) ([]script.PartyDetails, error) {
	var out []script.PartyDetails
	token := ""
	for {
		parties, next, err := l.node.ListParties(ctx, ledger.ListPartiesRequest{PageToken: token})
		if err != nil {
			return nil, err
		}
		for _, p := range parties {
			out = append(out, script.PartyDetails{Party: p.Party, IsLocal: p.IsLocal})
		}
		if token = next; token == "" {
			return out, nil
		}
	}
}

// Time returns the node's time.
func (l *Ledger) Time(ctx context.Context) (time.Time, error) { return l.node.Time(ctx) }

// SetTime sets the node's static time (forward only).
func (l *Ledger) SetTime(ctx context.Context, t time.Time) error { return l.node.SetTime(ctx, t) }

func toRights(rs []script.UserRight) []identity.Right {
	out := make([]identity.Right, 0, len(rs))
	for _, r := range rs {
		var k identity.RightKind
		switch r.Kind {
		case script.ParticipantAdmin:
			k = identity.RightParticipantAdmin
		case script.CanActAs:
			k = identity.RightCanActAs
		case script.CanReadAs:
			k = identity.RightCanReadAs
		case script.CanReadAsAnyParty:
			k = identity.RightCanReadAsAnyParty
		}
		out = append(out, identity.Right{Kind: k, Party: r.Party})
	}
	return out
}

// fromRights converts the rights daml-script 3.3 can represent (others,
// such as IdentityProviderAdmin, are left out).
func fromRights(rs []identity.Right) []script.UserRight {
	out := make([]script.UserRight, 0, len(rs))
	for _, r := range rs {
		switch r.Kind {
		case identity.RightParticipantAdmin:
			out = append(out, script.UserRight{Kind: script.ParticipantAdmin})
		case identity.RightCanActAs:
			out = append(out, script.UserRight{Kind: script.CanActAs, Party: r.Party})
		case identity.RightCanReadAs:
			out = append(out, script.UserRight{Kind: script.CanReadAs, Party: r.Party})
		case identity.RightCanReadAsAnyParty:
			out = append(out, script.UserRight{Kind: script.CanReadAsAnyParty})
		}
	}
	return out
}

// CreateUser creates a user; false when it exists.
func (l *Ledger) CreateUser(ctx context.Context, u script.User, rights []script.UserRight) (bool, error) {
	_, err := l.node.CreateUser(ctx, identity.User{ID: u.ID, PrimaryParty: u.PrimaryParty}, toRights(rights))
	if errors.Is(err, apierr.UserAlreadyExists) {
		return false, nil
	}
	return err == nil, err
}

// GetUser returns a user, nil when unknown.
func (l *Ledger) GetUser(ctx context.Context, id string) (*script.User, error) {
	u, err := l.node.GetUser(ctx, id, "")
	if errors.Is(err, apierr.UserNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &script.User{ID: u.ID, PrimaryParty: u.PrimaryParty}, nil
}

// DeleteUser deletes a user; false when unknown.
func (l *Ledger) DeleteUser(ctx context.Context, id string) (bool, error) {
	err := l.node.DeleteUser(ctx, id, "")
	if errors.Is(err, apierr.UserNotFound) {
		return false, nil
	}
	return err == nil, err
}

// ListUsers lists every user of the default identity provider.
func (l *Ledger) ListUsers(ctx context.Context) ([]script.User, error) {
	var out []script.User
	token := ""
	for {
		users, next, err := l.node.ListUsers(ctx, 0, token, "")
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			out = append(out, script.User{ID: u.ID, PrimaryParty: u.PrimaryParty})
		}
		if token = next; token == "" {
			return out, nil
		}
	}
}

// GrantUserRights grants rights; ok is false for an unknown user.
func (l *Ledger) GrantUserRights(ctx context.Context, id string, rights []script.UserRight) ([]script.UserRight, bool, error) {
	granted, err := l.node.GrantUserRights(ctx, id, "", toRights(rights))
	if errors.Is(err, apierr.UserNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return fromRights(granted), true, nil
}

// RevokeUserRights revokes rights; ok is false for an unknown user.
func (l *Ledger) RevokeUserRights(ctx context.Context, id string, rights []script.UserRight) ([]script.UserRight, bool, error) {
	revoked, err := l.node.RevokeUserRights(ctx, id, "", toRights(rights))
	if errors.Is(err, apierr.UserNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return fromRights(revoked), true, nil
}

// ListUserRights lists a user's rights; ok is false for an unknown user.
func (l *Ledger) ListUserRights(ctx context.Context, id string) ([]script.UserRight, bool, error) {
	rs, err := l.node.ListUserRights(ctx, id, "")
	if errors.Is(err, apierr.UserNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return fromRights(rs), true, nil
}

// Packages lists the node's vetted packages (every package the node runs
// is vetted on its synchronizer).
func (l *Ledger) Packages(ctx context.Context) ([]script.PackageInfo, error) {
	src, err := l.node.PackageSource(ctx)
	if err != nil {
		return nil, err
	}
	vetted, err := l.vettedIDs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]script.PackageInfo, 0, len(src))
	for id, p := range src {
		out = append(out, script.PackageInfo{Name: p.Name, Version: p.Version, Vetted: vetted[id]})
	}
	slices.SortFunc(out, func(a, b script.PackageInfo) int {
		if a.Name != b.Name {
			if a.Name < b.Name {
				return -1
			}
			return 1
		}
		return lf.CompareVersions(a.Version, b.Version)
	})
	return out, nil
}

// vettedIDs returns the ids of the packages the node vets (on any of its
// synchronizers; a script node has one).
func (l *Ledger) vettedIDs(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	req := ledger.ListVettedPackagesRequest{}
	for {
		states, next, err := l.node.ListVettedPackages(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, vs := range states {
			for _, p := range vs.Packages {
				out[p.PackageID] = true
			}
		}
		if next == "" {
			return out, nil
		}
		req.PageToken = next
	}
}

// SetVetted vets (vetted true) or unvets the packages named (name and
// version) on the node's default synchronizer, through the node's vetting
// API: an unvetted package is no longer used by later submissions nor by
// #package-name resolution, as on the IDE ledger. A package the node does
// not store fails the script.
func (l *Ledger) SetVetted(ctx context.Context, pkgs []script.PackageInfo, vetted bool) error {
	if len(pkgs) == 0 {
		return nil
	}
	refs := make([]vetting.Ref, len(pkgs))
	for i, p := range pkgs {
		refs[i] = vetting.Ref{PackageName: p.Name, PackageVersion: p.Version}
	}
	change := vetting.Change{Op: vetting.Unvet, Refs: refs}
	if vetted {
		change.Op = vetting.Vet
	}
	_, _, err := l.node.UpdateVettedPackages(ctx, ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{change}})
	return err
}
