package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// This file is the node's Go API for in-process Daml runners (the Daml
// Script runner, ledger/scriptledger): commands given as Daml-LF values
// rather than Daml JSON, and contracts read back as Daml-LF values, with
// the same interpretation, checks and commit as SubmitAndWait and the
// same visibility as the active-contracts service.

// EngineCommandKind says which command an EngineCommand is.
type EngineCommandKind uint8

// The kinds of EngineCommand.
const (
	// EngineCreate creates TemplateID with CreateArgument.
	EngineCreate EngineCommandKind = iota + 1
	// EngineExercise exercises Choice on ContractID; TemplateID names the
	// template or an interface the contract implements.
	EngineExercise
	// EngineCreateAndExercise creates TemplateID with CreateArgument and
	// exercises Choice on the new contract.
	EngineCreateAndExercise
	// EngineExerciseByKey exercises Choice on the contract of TemplateID
	// with ContractKey.
	EngineExerciseByKey
)

// EngineCommand is one command of an EngineSubmission, its arguments as
// Daml-LF values of the types of TemplateID's package.
type EngineCommand struct {
	// Kind is the command.
	Kind EngineCommandKind
	// TemplateID is the template (or, for EngineExercise, the interface)
	// with the package id the values were built for.
	TemplateID lf.TypeConID
	// ByPackageName resolves TemplateID by its package's name, as a
	// "#name:Module:Entity" reference does (the preferred or newest
	// vetted package of that name); false uses its package id as is.
	ByPackageName bool
	// ContractID is the exercised contract (EngineExercise).
	ContractID string
	// Choice is the exercised choice (all but EngineCreate).
	Choice string
	// CreateArgument is the contract argument (EngineCreate,
	// EngineCreateAndExercise).
	CreateArgument value.Value
	// ChoiceArgument is the choice argument (all but EngineCreate).
	ChoiceArgument value.Value
	// ContractKey is the key (EngineExerciseByKey).
	ContractKey value.Value
}

// EngineSubmission is a submission of EngineCommands: as JsCommands,
// without deduplication (every submission gets a fresh command id) and
// without a minimum ledger time.
type EngineSubmission struct {
	// ActAs are the submitting parties (non-empty); ReadAs the parties
	// whose contracts the submission may also read.
	ActAs, ReadAs []string
	// UserID is the submitting user; empty means the caller's (the
	// participant admin for a trusted in-process caller).
	UserID string
	// PackageIDSelectionPreference is as in JsCommands.
	PackageIDSelectionPreference []string
	// Commands are the commands, the roots of the transaction in order.
	Commands []EngineCommand
	// AllowEffectfulRollback interprets in the NoKey contract-state mode
	// (protocol version 34, the mode of Daml's IDE ledger that `daml
	// test` runs scripts on): a try may roll back creates and consuming
	// exercises. False is the node's own mode (PV 35, NUCK), where such a
	// rollback fails with DAML_EFFECTFUL_ROLLBACK_ERROR.
	AllowEffectfulRollback bool
	// DisclosedContracts are contracts the submitters may use without
	// being stakeholders, as in JsCommands (their createdEventBlob,
	// base64).
	DisclosedContracts []DisclosedContract
}

// EngineSubmissionResult is a committed EngineSubmission.
type EngineSubmissionResult struct {
	// UpdateID and Offset locate the committed transaction.
	UpdateID string
	Offset   int64
	// Transaction is the committed transaction as the engine built it,
	// every node included (fetches, lookups, rollbacks), with the
	// committed (suffixed) contract ids and values in normalized form.
	Transaction *tx.Transaction
}

// SubmitEngineCommands interprets and commits a submission of Daml-LF
// commands with the checks of SubmitAndWait (rights of the caller on actAs
// and readAs, parties known, packages vetted, contracts active and visible
// to actAs ∪ readAs) and returns the committed transaction. Errors are the
// *apierr.Error values SubmitAndWait returns for the same failure.
func (n *Node) SubmitEngineCommands(ctx context.Context, s EngineSubmission) (res *EngineSubmissionResult, err error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if len(s.ActAs) == 0 {
		return nil, apierr.MissingField.New("act_as")
	}
	if len(s.Commands) == 0 {
		return nil, apierr.MissingField.New("commands")
	}
	p := caller(ctx)
	if err := authorizeSubmitters(p, s.ActAs, s.ReadAs); err != nil {
		return nil, err
	}
	user := s.UserID
	if user == "" {
		user = p.UserID
	}
	if user == "" {
		user = identity.DefaultParticipantAdmin
	}
	if err := identity.ValidateUserID(user); err != nil {
		return nil, apierr.InvalidField.New("user_id: %v", err)
	}
	c := &JsCommands{ActAs: s.ActAs, ReadAs: s.ReadAs, UserID: user, CommandID: "engine-" + randomHex(16),
		PackageIDSelectionPreference: s.PackageIDSelectionPreference, DisclosedContracts: s.DisclosedContracts}
	// Decoded once here, before anything is read; runOnSnapshot reuses it.
	if _, err := c.disclosedBlobs(""); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	var e *logEntry
	defer n.tracker.track(n.now, c)(&e, &err) // command_status.go
	mode := nuckMode
	if s.AllowEffectfulRollback {
		mode = ideMode
	}
	it, err := n.interpretWith(ctx, c, sync, mode, func(eng *engine.Engine, pkgs *pkgView, pref map[string]string) ([]engine.Value, error) {
		return engineCommandValues(eng, pkgs, pref, s.Commands)
	})
	if err != nil {
		return nil, err
	}
	e, err = n.commitInterpreted(c, sync, it)
	if err != nil {
		return nil, err
	}
	return &EngineSubmissionResult{UpdateID: e.UpdateID, Offset: e.Offset, Transaction: it.tx}, nil
}

// engineCommandValues resolves EngineCommands against the package view
// and builds the engine's update values. A value built for another
// package than the resolved one is carried over through its Daml JSON
// form, which applies the upgrade rules of the JSON API.
func engineCommandValues(eng *engine.Engine, pkgs *pkgView, pref map[string]string, cmds []EngineCommand) ([]engine.Value, error) {
	out := make([]engine.Value, 0, len(cmds))
	for i, c := range cmds {
		path := fmt.Sprintf("commands[%d]", i)
		ref := c.TemplateID.String()
		if c.ByPackageName {
			src := pkgs.byID[c.TemplateID.PackageID]
			if src == nil {
				return nil, apierr.PackageNotFound.New("Package %s is not known", apierr.Quote(c.TemplateID.PackageID)).WithResource("PACKAGE", c.TemplateID.PackageID)
			}
			ref = "#" + src.Name + ":" + c.TemplateID.Module + ":" + c.TemplateID.Name
		}
		r, err := pkgs.resolveEntity(ref, path+".templateId", pref, c.Kind == EngineExercise)
		if err != nil {
			return nil, err
		}
		// conv converts a value of type t as declared in the command's
		// package to the resolved package's type.
		conv := func(v value.Value, t func(p *lf.Package) (lf.Type, bool), what string) (engine.Value, error) {
			if v == nil {
				v = value.Record{}
			}
			if r.id.PackageID != c.TemplateID.PackageID {
				from, ok1 := t(pkgs.byID[c.TemplateID.PackageID])
				to, ok2 := t(r.pkg)
				if !ok1 || !ok2 {
					return nil, pathErr(apierr.CommandPreprocessingFailed, path+"."+what, "the type of the %s is unknown", what)
				}
				raw := value.AppendJSONAs(nil, v, from, pkgs.lookup)
				cv, err := value.FromJSONAt(json.RawMessage(raw), to, path+"."+what, pkgs.lookup)
				if err != nil {
					return nil, damlError(err)
				}
				v = cv
			}
			ev, err := eng.FromValue(v)
			if err != nil {
				return nil, apierr.CommandPreprocessingFailed.New("%s at '%s'", err.Error(), path+"."+what)
			}
			return ev, nil
		}
		tmplType := func(p *lf.Package) (lf.Type, bool) {
			if p == nil {
				return nil, false
			}
			return value.TypeOf(p.ID, c.TemplateID.Module, c.TemplateID.Name), true
		}
		choiceOf := func(p *lf.Package) *lf.Choice {
			if p == nil {
				return nil
			}
			return p.Choice(c.TemplateID.Module, c.TemplateID.Name, c.Choice)
		}
		argType := func(p *lf.Package) (lf.Type, bool) {
			if ch := choiceOf(p); ch != nil {
				return ch.ArgType, true
			}
			return nil, false
		}
		keyType := func(p *lf.Package) (lf.Type, bool) {
			if p == nil {
				return nil, false
			}
			if t := p.Template(c.TemplateID.Module, c.TemplateID.Name); t != nil && t.Key != nil {
				return t.Key.Type, true
			}
			return nil, false
		}
		if c.Kind != EngineCreate && choiceOf(r.pkg) == nil {
			return nil, pathErr(apierr.CommandPreprocessingFailed, path+".choice", "Couldn't find requested choice %s for template %s", apierr.Quote(c.Choice), r.id)
		}
		switch c.Kind {
		case EngineCreate:
			a, err := conv(c.CreateArgument, tmplType, "createArguments")
			if err != nil {
				return nil, err
			}
			out = append(out, engine.CreateCommand(r.id, a))
		case EngineExercise:
			if !isContractID(c.ContractID) || tx.IsLocalContractID(value.ContractID(c.ContractID)) {
				return nil, pathErr(apierr.InvalidArgument, path+".contractId", "invalid contract id %s", apierr.Quote(c.ContractID))
			}
			a, err := conv(c.ChoiceArgument, argType, "choiceArgument")
			if err != nil {
				return nil, err
			}
			if r.iface != nil {
				out = append(out, engine.ExerciseInterfaceCommand(r.id, c.Choice, engine.ContractID(c.ContractID), a))
			} else {
				out = append(out, engine.ExerciseCommand(r.id, c.Choice, engine.ContractID(c.ContractID), a))
			}
		case EngineCreateAndExercise:
			a, err := conv(c.CreateArgument, tmplType, "createArguments")
			if err != nil {
				return nil, err
			}
			ca, err := conv(c.ChoiceArgument, argType, "choiceArgument")
			if err != nil {
				return nil, err
			}
			out = append(out, engine.CreateAndExerciseCommand(r.id, a, c.Choice, ca))
		case EngineExerciseByKey:
			if r.tmpl.Key == nil {
				return nil, pathErr(apierr.CommandPreprocessingFailed, path+".templateId", "template %s has no contract key", r.id)
			}
			k, err := conv(c.ContractKey, keyType, "contractKey")
			if err != nil {
				return nil, err
			}
			a, err := conv(c.ChoiceArgument, argType, "choiceArgument")
			if err != nil {
				return nil, err
			}
			out = append(out, engine.ExerciseByKeyCommand(r.id, c.Choice, k, a))
		default:
			return nil, pathErr(apierr.InvalidArgument, path, "unknown command kind %d", c.Kind)
		}
	}
	return out, nil
}

// EngineContract is an active contract read as Daml-LF values, with the
// offset that created it.
type EngineContract struct {
	engine.Contract
	// CreatedOffset is the offset of the transaction that created it.
	CreatedOffset int64
	// Blob is its createdEventBlob (Canton's encoding), set by
	// EngineContractByID only; nil for a contract with a key.
	Blob []byte
}

// EngineContracts returns the contracts active now on the default
// synchronizer of which one of parties is a stakeholder and whose template
// match accepts (nil accepts all), in creation order (offset, then node).
// An empty parties list fails with MISSING_FIELD.
func (n *Node) EngineContracts(ctx context.Context, parties []string, match func(template lf.TypeConID) bool) ([]EngineContract, error) {
	if err := n.engineReadAuth(ctx, parties); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	type found struct {
		rec  contractRecord
		tmpl lf.TypeConID
	}
	var recs []found
	var pkgs *pkgView
	err = n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		if pkgs, err = n.snapshotPkgView(t, sync); err != nil {
			return err
		}
		// The parties' active contracts at this snapshot's ledger end,
		// from the active-contracts index (acsindex.go), each checked
		// against its record.
		end, err := snapshotEnd(r)
		if err != nil {
			return err
		}
		keep := func(_ string, templateID, _ []byte) bool {
			if match == nil {
				return true
			}
			tc, err := splitTypeCon(string(templateID))
			return err != nil || match(tc) // a bad id is left to the record's check
		}
		return indexedContracts(r, union(parties), end, "", keep, func(cid string) (bool, error) {
			c, err := loadRecord(r, cid)
			if err != nil || c == nil {
				return err == nil, err
			}
			if c.State != contractActive || c.SynchronizerID != sync || !intersects(c.Create.stakeholders(), parties) {
				return true, nil
			}
			tc, err := splitTypeCon(c.Create.TemplateID)
			if err != nil {
				return false, err
			}
			if match == nil || match(tc) {
				recs = append(recs, found{*c, tc})
			}
			return true, nil
		})
	})
	if err != nil {
		return nil, storeErr(err)
	}
	slices.SortStableFunc(recs, func(a, b found) int {
		if a.rec.CreatedOffset != b.rec.CreatedOffset {
			return int(a.rec.CreatedOffset - b.rec.CreatedOffset)
		}
		return int(a.rec.Create.ID - b.rec.Create.ID)
	})
	out := make([]EngineContract, 0, len(recs))
	for i := range recs {
		ec, err := pkgs.engineContract(&recs[i].rec.Create)
		if err != nil {
			return nil, apierr.InternalError.Wrap(err, "reading a contract")
		}
		out = append(out, EngineContract{Contract: *ec, CreatedOffset: recs[i].rec.CreatedOffset})
	}
	return out, nil
}

// EngineContractByID returns the contract cid when it is active on the
// default synchronizer and one of parties is a stakeholder; nil, nil
// otherwise.
func (n *Node) EngineContractByID(ctx context.Context, cid string, parties []string) (*EngineContract, error) {
	if err := n.engineReadAuth(ctx, parties); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	var out *EngineContract
	err = n.st.View(func(r *store.Reader) error {
		t := store.ReadOnlyTx(r)
		raw, err := t.Get(store.ContractKey(cid))
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var c contractRecord
		if err := json.Unmarshal(raw, &c); err != nil {
			return err
		}
		if c.State != contractActive || c.SynchronizerID != sync || !intersects(c.Create.stakeholders(), parties) {
			return nil
		}
		pkgs, err := n.snapshotPkgView(t, sync)
		if err != nil {
			return err
		}
		ec, err := pkgs.engineContract(&c.Create)
		if err != nil {
			return apierr.InternalError.Wrap(err, "reading a contract")
		}
		out = &EngineContract{Contract: *ec, CreatedOffset: c.CreatedOffset}
		if b, err := encodeBlob(pkgs.engine(), pkgs.lookup, &c.Create); err == nil {
			out.Blob = b
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

// engineReadAuth admits a caller who may read as every one of parties.
func (n *Node) engineReadAuth(ctx context.Context, parties []string) error {
	if err := n.public(ctx); err != nil {
		return err
	}
	if len(parties) == 0 {
		return apierr.MissingField.New("parties")
	}
	p := caller(ctx)
	for _, party := range parties {
		if !p.Wildcard && !p.CanReadAs(party) {
			return denied("the caller may not read as %s", party)
		}
	}
	return nil
}

// PackageSource returns every package the node stores (vetted on the
// default synchronizer or not) as a daml/engine PackageSource (a
// snapshot: later uploads are not seen), for running Daml off ledger
// against the node's packages.
func (n *Node) PackageSource(ctx context.Context) (engine.PackageMap, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	sync, err := n.synchronizer("")
	if err != nil {
		return nil, err
	}
	var out engine.PackageMap
	err = n.st.View(func(r *store.Reader) error {
		pkgs, err := n.snapshotPkgView(store.ReadOnlyTx(r), sync)
		if err != nil {
			return err
		}
		out = make(engine.PackageMap, len(pkgs.byID))
		for id, p := range pkgs.byID {
			out[id] = p
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}
