package script

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// Stable packages whose types the runner builds values of (DA.Types and
// DA.Internal.Any); stable package ids never change.
const (
	daTypesPkg = "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4"
	daAnyPkg   = "6f8e6085f5769861ae7a40dccd618d6f747297d59b37cab89b93e2fa80b0c024"
)

var (
	tuple2ID          = lf.TypeConID{PackageID: daTypesPkg, Module: "DA.Types", Name: "Tuple2"}
	tuple3ID          = lf.TypeConID{PackageID: daTypesPkg, Module: "DA.Types", Name: "Tuple3"}
	eitherID          = lf.TypeConID{PackageID: daTypesPkg, Module: "DA.Types", Name: "Either"}
	anyTemplateID     = lf.TypeConID{PackageID: daAnyPkg, Module: "DA.Internal.Any", Name: "AnyTemplate"}
	templateTypeRepID = lf.TypeConID{PackageID: daAnyPkg, Module: "DA.Internal.Any", Name: "TemplateTypeRep"}
	anyChoiceID       = lf.TypeConID{PackageID: daAnyPkg, Module: "DA.Internal.Any", Name: "AnyChoice"}
)

// Runner runs the scripts of a set of packages. It owns a Daml engine
// (compiled definitions and top-level values are cached across scripts);
// it is safe for concurrent use: scripts run in parallel on one Runner
// share that cache.
type Runner struct {
	pkgs engine.PackageSource
	eng  *engine.Engine
}

// scriptKey is the context key of the running script, whose traces
// Options.Trace receives.
type scriptKey struct{}

// Options configure a Runner.
type Options struct {
	// Trace receives the TRACE/debug messages of the running script; nil
	// drops them.
	Trace func(script lf.TypeConID, msg string)
	// MaxSteps bounds the engine steps of one evaluation (see
	// engine.Options); zero is the engine's default.
	MaxSteps int64
}

// NewRunner returns a runner over the packages (a *lf.DAR will do). The
// daml-script library's dangerousCast is replaced by the identity, as the
// official runner does, and a few daml-stdlib functions by native ones
// with the same results (engine.StdlibJet).
func NewRunner(pkgs engine.PackageSource, opts Options) *Runner {
	r := &Runner{pkgs: pkgs}
	r.eng = engine.New(pkgs, engine.Options{
		OffLedger: true,
		MaxSteps:  opts.MaxSteps,
		Override: func(ref lf.TypeConID) (engine.Value, bool) {
			if ref.Module == lowLevel && ref.Name == "dangerousCast" {
				if p := pkgs.Package(ref.PackageID); p != nil && slices.Contains(scriptPackageNames, p.Name) {
					return engine.Identity(), true
				}
			}
			// daml-script's free monad and the call stacks every
			// question carries (engine.ScriptJet), and
			// daml-stdlib's text predicates, natively: daml-script asks
			// DA.Text.isPrefixOf for every frame of every question's
			// call stack (engine.StdlibJet).
			p := pkgs.Package(ref.PackageID)
			if v, ok := engine.ScriptJet(p, ref); ok {
				return v, true
			}
			return engine.StdlibJet(p, ref)
		},
		TraceContext: func(ctx context.Context, msg string) {
			if opts.Trace != nil {
				if id, ok := ctx.Value(scriptKey{}).(lf.TypeConID); ok {
					opts.Trace(id, msg)
				}
			}
		},
	})
	return r
}

// Error is a script's failure.
type Error struct {
	// Script is the failed script.
	Script lf.TypeConID
	// Err is the cause: a *QuestionError, a *ThrowError, an
	// *engine.Error (an uncaught Daml exception or an interpreter
	// failure) or another runner error.
	Err error
}

// Error returns the failure's reason.
func (e *Error) Error() string { return Name(e.Script) + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// QuestionError is a question the runner or the ledger could not answer
// (the official runner's FailedCmd): a failed `submit`, a
// `submitMustFail` that succeeded, an unknown question … Daml `try` in a
// script cannot catch it.
type QuestionError struct {
	// Command is the question's name; Location where the script asked it
	// (Module:line, empty when unknown).
	Command, Location string
	// Loc is the same location with its column (for reports that print
	// Module:line:column, as `daml test` does); nil when unknown.
	Loc *SrcLoc
	// Err is the cause.
	Err error
}

// Error returns "Command <name> failed: <cause>".
func (e *QuestionError) Error() string {
	s := "Command " + e.Command + " failed: " + e.Err.Error()
	if e.Location != "" {
		s += " (at " + e.Location + ")"
	}
	return s
}

// Unwrap returns Err.
func (e *QuestionError) Unwrap() error { return e.Err }

// SrcLoc is a Daml source location: the innermost frame of the call
// stack a question carries (the call of submit, allocateParty …).
type SrcLoc struct {
	// Function is the called function ("submit"), empty when unknown;
	// Module the module of the call.
	Function, Module string
	// Line and Column are 1-based.
	Line, Column int
}

// ThrowError is a Daml exception a script threw (throw, assert, ===, …)
// and did not catch.
type ThrowError struct {
	// Exception is the exception value.
	Exception *engine.Any
	// Message is the exception's message; Location where it was thrown.
	Message, Location string
}

// Error returns the exception and its message.
func (e *ThrowError) Error() string {
	s := "Unhandled exception " + typeName(e.Exception.Type) + ": " + e.Message
	if e.Location != "" {
		s += " (at " + e.Location + ")"
	}
	return s
}

// runnerError is an error whose text is the official runner's message,
// capitalized as daml-script prints it.
type runnerError string

func (e runnerError) Error() string { return string(e) }

func runnerErrorf(format string, args ...any) error { return runnerError(fmt.Sprintf(format, args...)) }

// UnknownQuestionError is a question (or a version of one) this runner
// does not know.
type UnknownQuestionError struct {
	// Name and Version are the question's commandName and commandVersion.
	Name    string
	Version int64
	// Library is the daml-script library that asked, as name-version.
	Library string
}

// Error names the question, its version and the library, as the JVM
// runner does for the first two.
func (e *UnknownQuestionError) Error() string {
	return fmt.Sprintf("Unknown command %s - Version %d (asked by %s)", e.Name, e.Version, e.Library)
}

func typeName(t lf.Type) string {
	if c, ok := t.(*lf.TCon); ok {
		return c.ID.Module + ":" + c.ID.Name
	}
	return fmt.Sprint(t)
}

// Run runs the script id (a value of type Script a) against the ledger
// and returns the script's result. A failure is an *Error.
func (r *Runner) Run(ctx context.Context, id lf.TypeConID, l Ledger) (v engine.Value, err error) {
	defer func() {
		// A value of an unexpected shape (a daml-script library whose
		// types differ from 3.3's) fails the script, not the process.
		if p := recover(); p != nil {
			v, err = nil, &Error{Script: id, Err: fmt.Errorf("runner failure: %v", p)}
		}
	}()
	v, err = r.run(ctx, id, l)
	if err != nil {
		return nil, &Error{Script: id, Err: err}
	}
	return v, nil
}

func (r *Runner) run(ctx context.Context, id lf.TypeConID, l Ledger) (engine.Value, error) {
	p := r.pkgs.Package(id.PackageID)
	if p == nil {
		return nil, fmt.Errorf("unknown package %s", id.PackageID)
	}
	def := p.Value(id.Module, id.Name)
	if def == nil {
		return nil, fmt.Errorf("no value %s in package %s", Name(id), id.PackageID)
	}
	st, ok := scriptType(def.Type)
	if !ok {
		if c, ok := def.Type.(*lf.TApp); ok {
			if k, ok := c.Fun.(*lf.TCon); ok && k.ID.Module == "Daml.Script" && k.ID.Name == "Script" {
				return nil, runnerErrorf("Legacy daml-script is not supported in daml 3.3, please recompile your script using a daml 3.3+ SDK")
			}
		}
		return nil, fmt.Errorf("%s is not a Script value (its type is %v)", Name(id), def.Type)
	}
	ds := r.pkgs.Package(st.PackageID)
	if ds == nil || !slices.Contains(scriptPackageNames, ds.Name) {
		name := "?"
		if ds != nil {
			name = ds.Name
		}
		return nil, runnerErrorf("Invalid daml script package name %q: expected daml-script or daml3-script", name)
	}
	ctx = context.WithValue(ctx, scriptKey{}, id)
	s := &session{r: r, eng: r.eng, l: l, ds: st.PackageID}
	sv, err := r.eng.EvalValue(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.runScript(ctx, sv)
}

// session is one script run: the ledger and the daml-script package id.
type session struct {
	r   *Runner
	eng *engine.Engine
	l   Ledger
	ds  string
	// args holds the contract arguments the queries converted
	// (contractArg).
	args map[argKey]engine.Value
}

// argKey identifies a contract argument: a contract's argument never
// changes, and its conversion depends on nothing else.
type argKey struct {
	cid engine.ContractID
	tpl lf.TypeConID
}

// runScript steps a Script value (the record {runScript, dummy}) to its
// result, as the JVM runner's free/Free.scala and script/v2/Runner.scala
// step it. It is re-entrant: Catch and TryCommands run it nested.
func (s *session) runScript(ctx context.Context, script engine.Value) (engine.Value, error) {
	rec, ok := script.(*engine.Record)
	if !ok || len(rec.Fields) < 1 {
		return nil, fmt.Errorf("expected a Script record, got %T", script)
	}
	free, err := s.eng.Apply(ctx, rec.Fields[0], engine.Unit{})
	if err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, ok := free.(*engine.Variant)
		if !ok {
			return nil, fmt.Errorf("expected a Free value, got %T", free)
		}
		if v.Rank == 0 { // Pure (a, ())
			t, ok := v.Value.(*engine.Record)
			if !ok || len(t.Fields) < 1 {
				return nil, fmt.Errorf("expected a Tuple2 in Pure, got %T", v.Value)
			}
			return t.Fields[0], nil
		}
		sf, ok := v.Value.(*engine.Record)
		if !ok || len(sf.Fields) != 1 {
			return nil, fmt.Errorf("expected a ScriptF record, got %T", v.Value)
		}
		q, ok := sf.Fields[0].(*engine.Record)
		if !ok || len(q.Fields) != 5 {
			return nil, fmt.Errorf("expected a Question record, got %T", sf.Fields[0])
		}
		name, _ := q.Fields[0].(engine.Text)
		version, _ := q.Fields[1].(engine.Int64)
		ans, err := s.answer(ctx, string(name), int64(version), q.Fields[2], q.Fields[3])
		if err != nil {
			// Failures of a nested script (Catch, TryCommands), thrown
			// exceptions, interpreter errors and cancellation propagate as
			// they are; the rest is this question's failure.
			var te *ThrowError
			var ee *engine.Error
			var qe *QuestionError
			if errors.As(err, &qe) || errors.As(err, &te) || errors.As(err, &ee) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			loc, at := location(q.Fields[3])
			return nil, &QuestionError{Command: string(name), Location: loc, Loc: at, Err: err}
		}
		if free, err = s.eng.Apply(ctx, q.Fields[4], ans); err != nil {
			return nil, err
		}
	}
}

// location renders the innermost frame of a question's call stack
// ([Tuple2 Text SrcLoc], 0-based lines and columns) as Module:line, or
// "", and returns it as a SrcLoc (nil when unknown).
func location(v engine.Value) (string, *SrcLoc) {
	l, ok := v.(*engine.List)
	if !ok || l == nil {
		return "", nil
	}
	t, ok := l.Head.(*engine.Record)
	if !ok || len(t.Fields) != 2 {
		return "", nil
	}
	loc, ok := t.Fields[1].(*engine.Record)
	if !ok || len(loc.Fields) < 4 {
		return "", nil
	}
	mod, _ := loc.Fields[1].(engine.Text)
	line, _ := loc.Fields[3].(engine.Int64)
	fn, _ := t.Fields[0].(engine.Text)
	at := &SrcLoc{Function: string(fn), Module: string(mod), Line: int(line) + 1}
	if len(loc.Fields) > 4 {
		col, _ := loc.Fields[4].(engine.Int64)
		at.Column = int(col) + 1
	}
	s := fmt.Sprintf("%s:%d", mod, int64(line)+1)
	if fn != "" {
		s = string(fn) + " at " + s
	}
	return s, at
}

// answer dispatches a question by its name and version, as the JVM
// runner's script/v2/ScriptF.scala parse does, and returns its answer.
func (s *session) answer(ctx context.Context, name string, version int64, payload, locs engine.Value) (engine.Value, error) {
	q, ok := questions[name]
	if !ok || !slices.Contains(q.versions, version) {
		return nil, &UnknownQuestionError{Name: name, Version: version, Library: s.library()}
	}
	p, ok := payload.(*engine.Record)
	if !ok {
		return nil, fmt.Errorf("payload of %s: expected a record, got %T", name, payload)
	}
	return q.h(s, ctx, p, locs)
}

// library names the daml-script library of the session, as name-version.
func (s *session) library() string {
	if p := s.r.pkgs.Package(s.ds); p != nil {
		return p.Name + "-" + p.Version
	}
	return s.ds
}

// handler answers one question given its payload record and the
// question's call stack (locs, rendered by location only when a handler
// needs it: most never do). Payloads whose shape changed between
// daml-script library lines are read by field name (field), the others by
// position.
type handler func(s *session, ctx context.Context, p *engine.Record, locs engine.Value) (engine.Value, error)

// question is a question the runner answers, with the versions of it
// that libraries emit. A library line changed a payload's shape without
// changing its version more often than not; those handlers read fields
// by name, so that one handler serves every line.
type question struct {
	h        handler
	versions []int64
}

var questions map[string]question

func init() {
	v1 := []int64{1}
	questions = map[string]question{
		// Submit v2 (3.5) differs only in the type of its contract keys,
		// which the runner reads from the values.
		"Submit":                   {(*session).submit, []int64{1, 2}},
		"QueryACS":                 {(*session).queryACS, v1},
		"QueryContractId":          {(*session).queryContractID, v1},
		"QueryInterface":           {(*session).queryInterface, v1},
		"QueryInterfaceContractId": {(*session).queryInterfaceContractID, v1},
		"QueryContractKey":         {(*session).queryContractKey, []int64{1, 2}},
		"QueryByKey":               {(*session).queryContractKey, []int64{1, 2}},
		"QueryNByKey":              {(*session).queryNByKey, v1},
		// AllocateParty v2 (3.3 late on) has participants : [Text] where
		// v1 has participant : Optional Text; neither is read.
		"AllocateParty":      {(*session).allocateParty, []int64{1, 2}},
		"ListKnownParties":   {(*session).listKnownParties, v1},
		"GetTime":            {(*session).getTime, v1},
		"SetTime":            {(*session).setTime, v1},
		"Sleep":              {(*session).sleep, v1},
		"Catch":              {(*session).catch, v1},
		"Throw":              {(*session).throw, v1},
		"TryCommands":        {(*session).tryCommands, v1},
		"ValidateUserId":     {(*session).validateUserID, v1},
		"CreateUser":         {(*session).createUser, v1},
		"GetUser":            {(*session).getUser, v1},
		"DeleteUser":         {(*session).deleteUser, v1},
		"ListAllUsers":       {(*session).listAllUsers, v1},
		"GrantUserRights":    {(*session).grantUserRights, v1},
		"RevokeUserRights":   {(*session).revokeUserRights, v1},
		"ListUserRights":     {(*session).listUserRights, v1},
		"VetPackages":        {(*session).vetPackages, v1},
		"UnvetPackages":      {(*session).unvetPackages, v1},
		"ListVettedPackages": {(*session).listVettedPackages, v1},
		"ListAllPackages":    {(*session).listAllPackages, v1},
		"VetDar":             {(*session).vetDar, v1},
		"UnvetDar":           {(*session).vetDar, v1},
		// From 3.3 of March–May 2025 on.
		"FailWithStatus":           {(*session).failWithStatus, v1},
		"TryFailureStatus":         {(*session).tryFailureStatus, v1},
		"Secp256k1Sign":            {(*session).secp256k1Sign, v1},
		"Secp256k1WithEcdsaSign":   {(*session).secp256k1WithEcdsaSign, v1},
		"Secp256k1GenerateKeyPair": {(*session).secp256k1GenerateKeyPair, v1},
	}
}

// throw fails with the exception (Throw {exc}); an enclosing Catch
// catches it.
func (s *session) throw(ctx context.Context, p *engine.Record, locs engine.Value) (engine.Value, error) {
	f := p.Fields
	exc, ok := f[0].(*engine.Any)
	if !ok {
		return nil, fmt.Errorf("payload of Throw: expected an AnyException, got %T", f[0])
	}
	msg, err := s.eng.ExceptionMessage(ctx, exc)
	if err != nil {
		var ok bool
		if msg, ok = s.pseudoExceptionMessage(exc); !ok {
			msg = "<message failed: " + err.Error() + ">"
		}
	}
	loc, _ := location(locs)
	return nil, &ThrowError{Exception: exc, Message: msg, Location: loc}
}

// catch runs act () nested (Catch {act, dummy}): Right v, or Left the
// exception it raised; other failures propagate.
func (s *session) catch(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	script, err := s.eng.Apply(ctx, f[0], engine.Unit{})
	var v engine.Value
	if err == nil {
		v, err = s.runScript(ctx, script)
	}
	if err == nil {
		return s.either(1, v), nil
	}
	var te *ThrowError
	if errors.As(err, &te) {
		return s.either(0, te.Exception), nil
	}
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Exception != nil {
		return s.either(0, ee.Exception), nil
	}
	return nil, err
}

// tryCommands runs act nested (TryCommands {act}): Right v, or Left
// (command name, error class, message) for a failed question.
func (s *session) tryCommands(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	v, err := s.runScript(ctx, f[0])
	if err == nil {
		return s.either(1, v), nil
	}
	var qe *QuestionError
	if errors.As(err, &qe) {
		class := fmt.Sprintf("%T", qe.Err)
		if i := strings.LastIndex(class, "."); i >= 0 {
			class = class[i+1:]
		}
		var se *SubmitError
		if errors.As(qe.Err, &se) {
			class = se.Code
		}
		return s.either(0, s.tuple3(engine.Text(qe.Command), engine.Text(class), engine.Text(qe.Err.Error()))), nil
	}
	return nil, err
}

// vetDar is unsupported, as on the IDE ledger.
func (s *session) vetDar(context.Context, *engine.Record, engine.Value) (engine.Value, error) {
	return nil, errors.New("vetDar/unvetDar is not supported when running Daml Script on ledgernode")
}
