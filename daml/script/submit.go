package script

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
)

// Error behaviours of a Submission (ErrorBehaviour enum ranks).
const (
	mustSucceed = 0
	mustFail    = 1
	trySubmit   = 2
)

// submit answers Submit {submissions}: one Either SubmitError (results,
// tree) per submission, in order (the library's
// Internal/Questions/Submit.daml).
func (s *session) submit(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	subs, ok := f[0].(*engine.List)
	if !ok && f[0] != (*engine.List)(nil) {
		return nil, fmt.Errorf("expected a list of submissions, got %T", f[0])
	}
	var out []engine.Value
	for _, sv := range subs.Slice() {
		a, err := s.submitOne(ctx, sv)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return list(out), nil
}

func (s *session) submitOne(ctx context.Context, sv engine.Value) (engine.Value, error) {
	sub, behaviour, err := s.readSubmission(sv)
	if err != nil {
		return nil, err
	}
	t, err := s.l.Submit(ctx, sub)
	var se *SubmitError
	switch {
	case err != nil && errors.As(err, &se):
		if behaviour == mustSucceed {
			return nil, se
		}
		return s.either(0, s.submitErrorValue(se)), nil
	case err != nil:
		return nil, err
	case behaviour == mustFail:
		return nil, runnerErrorf("Expected submit to fail but it succeeded")
	}
	results, tree, err := s.transactionResults(t)
	if err != nil {
		return nil, err
	}
	return s.either(1, s.tuple2(list(results), tree)), nil
}

// readSubmission reads a Submission record by field name: the 3.2
// library's has no sPrefetchKeys, which later ones insert before
// sErrorBehaviour.
func (s *session) readSubmission(v engine.Value) (*Submission, int, error) {
	r, err := asRecord(v, "Submission")
	if err != nil {
		return nil, 0, err
	}
	actAs, cmdsV := field(r, "sActAs"), field(r, "sCommands")
	if actAs == nil || cmdsV == nil {
		return nil, 0, fmt.Errorf("Submission: no sActAs or sCommands field in %v", r.Type.Fields)
	}
	sub := &Submission{}
	// sActAs: NonEmpty Party {hd, tl} (or, legacy, a list or a party).
	if ne, ok := actAs.(*engine.Record); ok && len(ne.Fields) == 2 {
		hd, ok := ne.Fields[0].(engine.Party)
		if !ok {
			return nil, 0, fmt.Errorf("sActAs: expected a Party, got %T", ne.Fields[0])
		}
		sub.ActAs = append(sub.ActAs, string(hd))
		if tl, ok := ne.Fields[1].(*engine.List); ok && tl != nil {
			rest, err := parties(tl)
			if err != nil {
				return nil, 0, fmt.Errorf("sActAs: %w", err)
			}
			sub.ActAs = append(sub.ActAs, rest...)
		}
	} else if sub.ActAs, err = parties(actAs); err != nil {
		return nil, 0, fmt.Errorf("sActAs: %w", err)
	}
	sub.ActAs = dedup(sub.ActAs)
	if l, ok := field(r, "sReadAs").(*engine.List); ok && l != nil {
		if sub.ReadAs, err = parties(l); err != nil {
			return nil, 0, fmt.Errorf("sReadAs: %w", err)
		}
	}
	if l, ok := field(r, "sDisclosures").(*engine.List); ok && l != nil {
		for _, x := range l.Slice() {
			d, err := asRecord(x, "Disclosure")
			if err != nil {
				return nil, 0, err
			}
			if len(d.Fields) < 3 {
				return nil, 0, fmt.Errorf("sDisclosures: a Disclosure with %d fields", len(d.Fields))
			}
			cid, ok1 := d.Fields[1].(engine.ContractID)
			text, ok2 := d.Fields[2].(engine.Text)
			if !ok1 || !ok2 {
				return nil, 0, fmt.Errorf("sDisclosures: a Disclosure holds %T and %T, want a contract id and a hex text", d.Fields[1], d.Fields[2])
			}
			blob, err := hex.DecodeString(string(text))
			if err != nil {
				return nil, 0, fmt.Errorf("sDisclosures: the blob of %s is not hex: %v", cid, err)
			}
			sub.Disclosures = append(sub.Disclosures, Disclosure{ContractID: string(cid), Blob: blob})
		}
	}
	if o, ok := field(r, "sPackagePreference").(engine.Optional); ok && o.Value != nil {
		l, _ := o.Value.(*engine.List)
		for _, x := range l.Slice() {
			pr, err := asRecord(x, "PackageId")
			if err != nil {
				return nil, 0, err
			}
			id, err := asText(pr.Fields[0])
			if err != nil {
				return nil, 0, fmt.Errorf("PackageId: %w", err)
			}
			if s.r.pkgs.Package(id) == nil {
				return nil, 0, fmt.Errorf("package preference: unknown package %s", id)
			}
			sub.PackagePreference = append(sub.PackagePreference, id)
		}
	}
	behaviour := mustSucceed
	if e, ok := field(r, "sErrorBehaviour").(*engine.Enum); ok {
		behaviour = e.Rank
	}
	cmds, ok := cmdsV.(*engine.List)
	if !ok && cmdsV != (*engine.List)(nil) {
		return nil, 0, fmt.Errorf("sCommands: expected a list, got %T", cmdsV)
	}
	for i, c := range cmds.Slice() {
		cmd, err := s.readCommand(c)
		if err != nil {
			return nil, 0, fmt.Errorf("command %d: %w", i, err)
		}
		sub.Commands = append(sub.Commands, cmd)
	}
	return sub, behaviour, nil
}

func dedup(ps []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// readCommand reads a CommandWithMeta {command, explicitPackageId}.
func (s *session) readCommand(v engine.Value) (Command, error) {
	var c Command
	r, err := asRecord(v, "CommandWithMeta")
	if err != nil {
		return c, err
	}
	if b, ok := r.Fields[1].(engine.Bool); ok {
		c.ExplicitPackageID = bool(b)
	}
	cv, ok := r.Fields[0].(*engine.Variant)
	if !ok {
		return c, fmt.Errorf("Command: expected a variant, got %T", r.Fields[0])
	}
	body, err := asRecord(cv.Value, "Command."+cv.Con)
	if err != nil {
		return c, err
	}
	choice := func(v engine.Value) error {
		id, arg, err := anyOf(v, "AnyChoice")
		if err != nil {
			return err
		}
		c.Choice = id.Name
		c.ChoiceArg, err = toValue(arg, "choice argument")
		return err
	}
	switch cv.Con {
	case "Create":
		id, arg, err := anyOf(body.Fields[0], "AnyTemplate")
		if err != nil {
			return c, err
		}
		c.Kind, c.TemplateID = CreateCmd, id
		c.Arg, err = toValue(arg, "create argument")
		return c, err
	case "Exercise":
		if c.TemplateID, err = typeRepID(body.Fields[0]); err != nil {
			return c, err
		}
		cid, ok := body.Fields[1].(engine.ContractID)
		if !ok {
			return c, fmt.Errorf("exercise command: expected a contract id, got %T", body.Fields[1])
		}
		c.Kind, c.ContractID = ExerciseCmd, string(cid)
		return c, choice(body.Fields[2])
	case "ExerciseByKey":
		if c.TemplateID, err = typeRepID(body.Fields[0]); err != nil {
			return c, err
		}
		key, err := contractKey(body.Fields[1])
		if err != nil {
			return c, err
		}
		if c.Key, err = toValue(key, "contract key"); err != nil {
			return c, err
		}
		c.Kind = ExerciseByKeyCmd
		return c, choice(body.Fields[2])
	case "CreateAndExercise":
		id, arg, err := anyOf(body.Fields[0], "AnyTemplate")
		if err != nil {
			return c, err
		}
		c.Kind, c.TemplateID = CreateAndExerciseCmd, id
		if c.Arg, err = toValue(arg, "create argument"); err != nil {
			return c, err
		}
		return c, choice(body.Fields[1])
	}
	return c, fmt.Errorf("unknown command %s", cv.Con)
}

// transactionResults builds the CommandResults (one per Create or
// Exercise root, in order) and the TransactionTree of a committed
// transaction.
func (s *session) transactionResults(t *tx.Transaction) ([]engine.Value, engine.Value, error) {
	cmdResult := s.dsID("Questions.Commands", "CommandResult")
	var results, roots []engine.Value
	for _, id := range t.Roots {
		switch n := t.Nodes[id].(type) {
		case *tx.Create:
			results = append(results, s.variant(cmdResult, "CreateResult", engine.ContractID(n.ContractID)))
		case *tx.Exercise:
			v, err := s.fromValue(n.Result)
			if err != nil {
				return nil, nil, fmt.Errorf("exercise result: %w", err)
			}
			results = append(results, s.variant(cmdResult, "ExerciseResult", v))
		default:
			continue
		}
		ev, err := s.treeEvent(t, id)
		if err != nil {
			return nil, nil, err
		}
		roots = append(roots, ev)
	}
	tree := s.record(s.dsID("Questions.TransactionTree", "TransactionTree"), list(roots))
	return results, tree, nil
}

// treeEvent builds the TreeEvent of a Create or Exercise node (fetches,
// lookups and rollbacks are dropped with their subtrees).
func (s *session) treeEvent(t *tx.Transaction, id tx.NodeID) (engine.Value, error) {
	treeEvent := s.dsID("Questions.TransactionTree", "TreeEvent")
	switch n := t.Nodes[id].(type) {
	case *tx.Create:
		arg, err := s.fromValue(n.Arg)
		if err != nil {
			return nil, fmt.Errorf("create argument: %w", err)
		}
		s.rememberArg(n, arg)
		c := s.record(s.dsID("Questions.TransactionTree", "Created"), s.anyContractID(n.TemplateID, string(n.ContractID)), s.anyTemplate(n.TemplateID, arg))
		return s.variant(treeEvent, "CreatedEvent", c), nil
	case *tx.Exercise:
		arg, err := s.fromValue(n.ChosenValue)
		if err != nil {
			return nil, fmt.Errorf("choice argument: %w", err)
		}
		var kids []engine.Value
		for _, k := range n.Children {
			switch t.Nodes[k].(type) {
			case *tx.Create, *tx.Exercise:
				ev, err := s.treeEvent(t, k)
				if err != nil {
					return nil, err
				}
				kids = append(kids, ev)
			}
		}
		rep := n.TemplateID
		if n.InterfaceID != nil {
			rep = *n.InterfaceID
		}
		var anyArg engine.Value = &engine.Any{Type: s.choiceArgType(n), Value: arg}
		choice := s.record(anyChoiceID, anyArg, s.templateTypeRep(rep))
		x := s.record(s.dsID("Questions.TransactionTree", "Exercised"), s.anyContractID(n.TemplateID, string(n.TargetID)),
			engine.Text(n.Choice), choice, list(kids))
		return s.variant(treeEvent, "ExercisedEvent", x), nil
	}
	return nil, fmt.Errorf("unexpected node %T", t.Nodes[id])
}

// choiceArgType is the declared argument type of an exercised choice.
func (s *session) choiceArgType(n *tx.Exercise) lf.Type {
	owner := n.TemplateID
	if n.InterfaceID != nil {
		owner = *n.InterfaceID
	}
	if p := s.r.pkgs.Package(owner.PackageID); p != nil {
		if ch := p.Choice(owner.Module, owner.Name, n.Choice); ch != nil {
			return ch.ArgType
		}
	}
	return &lf.TCon{ID: lf.TypeConID{PackageID: owner.PackageID, Module: owner.Module, Name: n.Choice}}
}

// submitErrorValue builds the daml-script SubmitError value of a ledger
// rejection, by its Canton error code (as the JVM runner's
// script/v2/ledgerinteraction/GrpcErrorParser.scala maps a gRPC status).
func (s *session) submitErrorValue(e *SubmitError) engine.Value {
	seID := s.dsID("Questions.Submit.Error", "SubmitError")
	// A constructor the library does not have becomes UnknownError, as
	// the JVM runner does for libraries older than the error.
	outdated := func(con string) engine.Value {
		return s.variant(seID, "UnknownError", s.record(s.dsID("Questions.Submit.Error", "SubmitError.UnknownError"),
			engine.Text("Outdated daml-script library failed to represent "+con+" error as SubmitError")))
	}
	rec := func(con string, fields ...engine.Value) engine.Value {
		if !s.hasConstructor(seID, con) {
			return outdated(con)
		}
		return s.variant(seID, con, s.record(s.dsID("Questions.Submit.Error", "SubmitError."+con), fields...))
	}
	unit := func(con string) engine.Value {
		if !s.hasConstructor(seID, con) {
			return outdated(con)
		}
		return s.variant(seID, con, engine.Unit{})
	}
	switch e.Code {
	case "CONTRACT_NOT_FOUND", "CONTRACT_NOT_ACTIVE":
		if len(e.ContractIDs) > 0 {
			tl := make([]engine.Value, 0, len(e.ContractIDs)-1)
			for _, c := range e.ContractIDs[1:] {
				tl = append(tl, engine.Text(c))
			}
			ne := s.record(lf.TypeConID{PackageID: "bde4bd30749e99603e5afa354706608601029e225d4983324d617825b634253a", Module: "DA.NonEmpty.Types", Name: "NonEmpty"},
				engine.Text(e.ContractIDs[0]), list(tl))
			return rec("ContractNotFound", ne, engine.None)
		}
	case "DAML_AUTHORIZATION_ERROR":
		return rec("AuthorizationError", engine.Text(e.Message))
	case "DUPLICATE_CONTRACT_KEY":
		return rec("DuplicateContractKey", engine.None)
	case "DAML_FAILURE":
		// A failWithStatus, or (Canton 3.4 on) an unhandled exception: a
		// FailureStatusError from the 3.3 library of March 2025 on, as the
		// JVM runner builds it. Older libraries get the UnhandledException
		// their own runner reported for an exception (Canton then had
		// UNHANDLED_EXCEPTION), else the outdated-library UnknownError.
		if fs := e.FailureStatus; fs != nil && s.hasConstructor(seID, "FailureStatusError") {
			return rec("FailureStatusError", s.failureStatusValue(fs.ErrorID, fs.Category, fs.Message, fs.Metadata))
		}
		if e.Exception != nil {
			return rec("UnhandledException", some(e.Exception))
		}
		if e.FailureStatus != nil {
			return outdated("FailureStatusError")
		}
	case "UNHANDLED_EXCEPTION":
		var exc engine.Value = engine.None
		if e.Exception != nil {
			exc = some(e.Exception)
		}
		return rec("UnhandledException", exc)
	case "INTERPRETATION_USER_ERROR":
		return rec("UserError", engine.Text(e.Message))
	case "TEMPLATE_PRECONDITION_VIOLATED":
		return unit("TemplatePreconditionViolated")
	case "NON_COMPARABLE_VALUES":
		return unit("NonComparableValues")
	case "CONTRACT_ID_IN_CONTRACT_KEY":
		return unit("ContractIdInContractKey")
	}
	return rec("UnknownError", engine.Text(e.Error()))
}
