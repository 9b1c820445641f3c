// Package scripttest builds small Daml-LF packages whose values are
// hand-written Daml Scripts (records of the daml-script library's Script
// type, stepping through questions), for the tests of daml/script and its
// ledgers. The packages reference the types of a daml-script library:
// the real one a DAR carries (ForDAR; the Splice test DARs carry 3.3), or
// a synthetic library of one library line (NewLibrary), and are encoded
// with daml/lf/lftest.
package scripttest

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// Stable packages of the types scripts build.
const (
	daTypes   = "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4"
	daAny     = "6f8e6085f5769861ae7a40dccd618d6f747297d59b37cab89b93e2fa80b0c024"
	daNonEmpy = "bde4bd30749e99603e5afa354706608601029e225d4983324d617825b634253a"
	// daException is daml-prim's DA.Exception.GeneralError package.
	daException = "f181cd661f7af3a60bdaae4b0285a2a67beb55d6910fc8431dbae21a5825ec0f"
)

// Builder writes script expressions against the daml-script package DS,
// whose payload shapes are those of Line.
type Builder struct {
	// DS is the daml-script package id.
	DS string
	// Line is the library's line (zero: S33c); Submit, Alloc, Version
	// and ContractKey follow it.
	Line Line
	n    int
	// pkgs finds the library's and the stable packages' definitions,
	// which type the scripts (nil: the types stay loose).
	pkgs func(id string) *lf.Package
	// questions are the Question records Ask built.
	questions map[*lf.ERecCon]question
}

// ForDAR returns a Builder over the daml-script library dar carries
// (daml-script, else daml3-script; DS is "" when it carries none), of
// the line its definitions tell. The legacy daml-script of SDK 3.2 and
// older, which has no Daml.Script.Internal.LowLevel, is not one.
func ForDAR(dar *lf.DAR) *Builder {
	b := &Builder{pkgs: dar.Package}
	for _, p := range dar.Packages {
		if p.Module("Daml.Script.Internal.LowLevel") == nil {
			continue
		}
		if p.Name == "daml-script" || p.Name == "daml3-script" && b.DS == "" {
			b.DS, b.Line = p.ID, LineOf(p)
		}
	}
	return b
}

// Version is the version of a question that the library of the
// Builder's line asks: 2 for AllocateParty from S33g on, for Submit and
// QueryByKey from S35 on; 1 otherwise.
func (b *Builder) Version(question string) int64 {
	switch l := b.Line.or(); {
	case question == "AllocateParty" && l >= S33g, (question == "Submit" || question == "QueryByKey") && l >= S35:
		return 2
	}
	return 1
}

// Values returns the top-level values of a test module, one per entry of
// scripts in name order, whose expression is the script (see Typed) and
// whose type is Script of its result type (Script () for a script that
// ends with Pure (), as a Daml script does). A script that does not
// type-check is emitted typed as far as it could be; TypedValues reports
// it.
func (b *Builder) Values(scripts map[string]lf.Expr) []lftest.Value {
	vals, _ := b.TypedValues(scripts)
	return vals
}

// TypedValues is Values, also returning the first script that does not
// type-check with the library's definitions, with why.
func (b *Builder) TypedValues(scripts map[string]lf.Expr) ([]lftest.Value, error) {
	names := slices.Sorted(maps.Keys(scripts))
	vals := make([]lftest.Value, 0, len(scripts))
	var first error
	for _, name := range names {
		x, result, err := b.Typed(scripts[name])
		if err != nil && first == nil {
			first = fmt.Errorf("script %s: %w", name, err)
		}
		vals = append(vals, lftest.Value{Name: name, Type: lftest.App(b.scriptCon(), lftestType(result)), Expr: x})
	}
	return vals, first
}

// ReadDAR returns the bytes of the DAR at path, skipping the test when
// the file is absent (../shared not checked out) and failing it on any
// other read error.
func ReadDAR(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("%s is absent (../shared not checked out): skipping", path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

var unit lf.Type = &lf.TBuiltin{Builtin: lf.BuiltinUnit}

// Unit is the expression ().
func Unit() lf.Expr { return &lf.EBuiltinCon{Con: lf.ConUnit} }

// Text is a Text literal.
func Text(s string) lf.Expr { return &lf.EText{Value: s} }

// Int is an Int64 literal.
func Int(i int64) lf.Expr { return &lf.EInt64{Value: i} }

// Nil is the empty list (of the element type its use tells).
func Nil() lf.Expr { return &lf.ENil{Type: hole()} }

// List is a list of the elements.
func List(xs ...lf.Expr) lf.Expr {
	if len(xs) == 0 {
		return Nil()
	}
	return &lf.ECons{Type: hole(), Front: xs, Tail: Nil()}
}

// None is None (of the type its use tells).
func None() lf.Expr { return &lf.EOptionalNone{Type: hole()} }

func (b *Builder) ds(module, name string) lf.TypeConID {
	return lf.TypeConID{PackageID: b.DS, Module: module, Name: name}
}

func app(id lf.TypeConID, n int) lf.TypeConApp {
	return lf.TypeConApp{ID: id, Args: holesN(n)}
}

// Record builds a record of type id (with n type arguments, inferred from
// the fields and the record's use) from name/expression pairs.
func Record(id lf.TypeConID, n int, kv ...any) lf.Expr {
	r := &lf.ERecCon{Type: app(id, n)}
	for i := 0; i+1 < len(kv); i += 2 {
		r.Fields = append(r.Fields, lf.FieldExpr{Name: kv[i].(string), Expr: kv[i+1].(lf.Expr)})
	}
	return r
}

// Payload builds the payload record Name of the daml-script module
// Daml.Script.Internal.Questions.<module>.
func (b *Builder) Payload(module, name string, kv ...any) lf.Expr {
	return Record(b.ds("Daml.Script.Internal.Questions."+module, name), 0, kv...)
}

// Lam is a one-argument lambda; body receives the bound variable (of the
// type the lambda's use tells).
func (b *Builder) Lam(body func(x lf.Expr) lf.Expr) lf.Expr {
	return b.lam(hole(), body)
}

func (b *Builder) lam(param lf.Type, body func(x lf.Expr) lf.Expr) *lf.EAbs {
	b.n++
	v := fmt.Sprintf("x%d", b.n)
	return &lf.EAbs{Params: []lf.VarWithType{{Name: v, Type: param}}, Body: body(&lf.EVar{Name: v})}
}

// free is the variant Free ScriptF a (a inferred).
func (b *Builder) free(con string, arg lf.Expr) lf.Expr {
	scriptF := &lf.TCon{ID: b.ds("Daml.Script.Internal.LowLevel", "ScriptF")}
	return &lf.EVariantCon{Type: lf.TypeConApp{ID: b.ds("Daml.Script.Internal.Free", "Free"), Args: []lf.Type{scriptF, hole()}},
		Con: con, Arg: arg}
}

// Pure ends a script with the result v: Pure (v, ()).
func (b *Builder) Pure(v lf.Expr) lf.Expr {
	tuple := Record(lf.TypeConID{PackageID: daTypes, Module: "DA.Types", Name: "Tuple2"}, 2, "_1", v, "_2", Unit())
	return b.free("Pure", tuple)
}

// Ask asks a question; then receives the answer and returns the rest of
// the script (a Free expression: Ask or Pure). As the library's lift
// does, the question is a Question req res a of the payload's type, the
// question's answer type (the answer's parameter has it) and the rest's
// type, cast to the Question LedgerValue LedgerValue a of ScriptF.
func (b *Builder) Ask(name string, version int64, payload lf.Expr, then func(answer lf.Expr) lf.Expr) lf.Expr {
	return b.AskAt(name, version, payload, Nil(), then)
}

// AskAt is Ask with the question's call stack: locations is a list of
// (function name, DA.Stack.Types:SrcLoc) pairs, innermost first.
func (b *Builder) AskAt(name string, version int64, payload, locations lf.Expr, then func(answer lf.Expr) lf.Expr) lf.Expr {
	questionID := b.ds("Daml.Script.Internal.LowLevel", "Question")
	args := holesN(3)
	q := &lf.ERecCon{Type: lf.TypeConApp{ID: questionID, Args: args}, Fields: []lf.FieldExpr{
		{Name: "commandName", Expr: Text(name)}, {Name: "commandVersion", Expr: Int(version)}, {Name: "payload", Expr: payload},
		{Name: "locations", Expr: locations}, {Name: "continue", Expr: b.lam(args[1], then)}}}
	if b.questions == nil {
		b.questions = map[*lf.ERecCon]question{}
	}
	b.questions[q] = question{name: name}
	lv := &lf.TCon{ID: b.ds("Daml.Script.Internal.LowLevel", "LedgerValue")}
	cast := b.cast(tCon(questionID, args...), tCon(questionID, lv, lv, args[2]), q)
	sf := Record(b.ds("Daml.Script.Internal.LowLevel", "ScriptF"), 1, "unpack", cast)
	return b.free("Free", sf)
}

// cast is the library's dangerousCast @from @to e (the identity when the
// runner runs it).
func (b *Builder) cast(from, to lf.Type, e lf.Expr) lf.Expr {
	ref := lf.ValueRef{PackageID: b.DS, Module: "Daml.Script.Internal.LowLevel", Name: "dangerousCast"}
	return &lf.EApp{Fun: &lf.ETyApp{Expr: &lf.EVal{Ref: ref}, Types: []lf.Type{from, to}}, Args: []lf.Expr{e}}
}

// Cast is the library's dangerousCast of e to the type to (from e's
// type): the identity when the runner runs it.
func (b *Builder) Cast(e lf.Expr, to lf.Type) lf.Expr { return b.cast(hole(), to, e) }

// PseudoException is the AnyException of a record that is no exception
// (the library's user-management pseudo-exceptions), built as the
// library does: to_any, cast to AnyException.
func (b *Builder) PseudoException(id lf.TypeConID, rec lf.Expr) lf.Expr {
	return b.Cast(&lf.EToAny{Type: &lf.TCon{ID: id}, Expr: rec}, &lf.TBuiltin{Builtin: lf.BuiltinAnyException})
}

// Script is the Script record of a Free expression.
func (b *Builder) Script(free lf.Expr) lf.Expr {
	return Record(b.ds("Daml.Script.Internal.LowLevel", "Script"), 1,
		"runScript", b.Lam(func(lf.Expr) lf.Expr { return free }), "dummy", Unit())
}

func (b *Builder) scriptCon() lftest.Type {
	return lftest.Con(lftest.ByID(b.DS), "Daml.Script.Internal.LowLevel", "Script")
}

// ScriptType is the type Script () of daml-script DS.
func (b *Builder) ScriptType() lftest.Type { return lftest.App(b.scriptCon(), lftest.B(lftest.Unit)) }

// GeneralError is a GeneralError exception value with the message, as
// an AnyException.
func GeneralError(msg string) lf.Expr {
	id := lf.TypeConID{PackageID: daException, Module: "DA.Exception.GeneralError", Name: "GeneralError"}
	return &lf.EToAnyException{Type: &lf.TCon{ID: id}, Expr: Record(id, 0, "message", Text(msg))}
}

// Throw evaluates to a thrown GeneralError (for pure code in a script).
func Throw(msg string) lf.Expr {
	id := lf.TypeConID{PackageID: daException, Module: "DA.Exception.GeneralError", Name: "GeneralError"}
	return &lf.EThrow{ReturnType: hole(), ExceptionType: &lf.TCon{ID: id}, Exception: Record(id, 0, "message", Text(msg))}
}

// TemplateTypeRep is the TemplateTypeRep of a template.
func TemplateTypeRep(t lf.TypeConID) lf.Expr {
	return Record(lf.TypeConID{PackageID: daAny, Module: "DA.Internal.Any", Name: "TemplateTypeRep"}, 0,
		"getTemplateTypeRep", &lf.ETypeRep{Type: &lf.TCon{ID: t}})
}

// AnyTemplate is the AnyTemplate of a template argument.
func AnyTemplate(t lf.TypeConID, arg lf.Expr) lf.Expr {
	return Record(lf.TypeConID{PackageID: daAny, Module: "DA.Internal.Any", Name: "AnyTemplate"}, 0,
		"getAnyTemplate", &lf.EToAny{Type: &lf.TCon{ID: t}, Expr: arg})
}

// AnyChoice is the AnyChoice of a choice argument of type argType on
// template t.
func AnyChoice(t lf.TypeConID, argType lf.TypeConID, arg lf.Expr) lf.Expr {
	return Record(lf.TypeConID{PackageID: daAny, Module: "DA.Internal.Any", Name: "AnyChoice"}, 0,
		"getAnyChoice", &lf.EToAny{Type: &lf.TCon{ID: argType}, Expr: arg},
		"getAnyChoiceTemplateTypeRep", TemplateTypeRep(t))
}

// Behaviour is a Submission's ErrorBehaviour.
type Behaviour string

// The error behaviours.
const (
	MustSucceed Behaviour = "MustSucceed"
	MustFail    Behaviour = "MustFail"
	Try         Behaviour = "Try"
)

// Submit is the payload of a Submit question of one submission acting as
// party with the commands (Command values: CreateCmd, ExerciseCmd).
func (b *Builder) Submit(party lf.Expr, behaviour Behaviour, cmds ...lf.Expr) lf.Expr {
	var metas []lf.Expr
	for _, c := range cmds {
		metas = append(metas, Record(b.ds("Daml.Script.Internal.Questions.Commands", "CommandWithMeta"), 0,
			"command", c, "explicitPackageId", &lf.EBuiltinCon{Con: lf.ConFalse}))
	}
	ne := Record(lf.TypeConID{PackageID: daNonEmpy, Module: "DA.NonEmpty.Types", Name: "NonEmpty"}, 1, "hd", party, "tl", Nil())
	fields := []any{"sActAs", ne, "sReadAs", Nil(), "sDisclosures", Nil(), "sPackagePreference", None(),
		"sErrorBehaviour", &lf.EEnumCon{ID: b.ds("Daml.Script.Internal.Questions.Submit", "ErrorBehaviour"), Con: string(behaviour)},
		"sCommands", List(metas...), "sLocation", None()}
	if b.Line.or() != S32 {
		fields = append(fields, "sPrefetchKeys", Nil())
	}
	sub := b.Payload("Submit", "Submission", fields...)
	return b.Payload("Submit", "Submit", "submissions", List(sub))
}

// ContractKey is a contract key of template t, of type keyType, as the
// Builder's line wraps it: the stable DA.Internal.Any:AnyContractKey (an
// Any) up to S34, the library's own AnyContractKey (the bare key) in
// S35.
// Up to S34 the key goes through to_any, which Daml-LF before 2.dev takes
// of a data type only: for the package to type-check, keyType is then a
// TCon.
func (b *Builder) ContractKey(t lf.TypeConID, keyType lf.Type, key lf.Expr) lf.Expr {
	if b.Line.or() >= S35 {
		return Record(b.ds("Daml.Script.Internal.Questions.Commands", "AnyContractKey"), 0,
			"getAnyContractKey", key, "getAnyContractKeyTemplateTypeRep", TemplateTypeRep(t))
	}
	return Record(lf.TypeConID{PackageID: daAny, Module: "DA.Internal.Any", Name: "AnyContractKey"}, 0,
		"getAnyContractKey", &lf.EToAny{Type: keyType, Expr: key}, "getAnyContractKeyTemplateTypeRep", TemplateTypeRep(t))
}

// ExerciseByKeyCmd is an ExerciseByKey command; key is a ContractKey.
func (b *Builder) ExerciseByKeyCmd(t lf.TypeConID, key lf.Expr, argType lf.TypeConID, arg lf.Expr) lf.Expr {
	id := b.ds("Daml.Script.Internal.Questions.Commands", "Command")
	return &lf.EVariantCon{Type: app(id, 0), Con: "ExerciseByKey",
		Arg: Record(b.ds("Daml.Script.Internal.Questions.Commands", "Command.ExerciseByKey"), 0,
			"tplId", TemplateTypeRep(t), "keyE", key, "argE", AnyChoice(t, argType, arg))}
}

// CreateCmd is a Create command.
func (b *Builder) CreateCmd(t lf.TypeConID, arg lf.Expr) lf.Expr {
	id := b.ds("Daml.Script.Internal.Questions.Commands", "Command")
	return &lf.EVariantCon{Type: app(id, 0), Con: "Create",
		Arg: Record(b.ds("Daml.Script.Internal.Questions.Commands", "Command.Create"), 0, "argC", AnyTemplate(t, arg))}
}

// ExerciseCmd is an Exercise command.
func (b *Builder) ExerciseCmd(t lf.TypeConID, cid lf.Expr, argType lf.TypeConID, arg lf.Expr) lf.Expr {
	id := b.ds("Daml.Script.Internal.Questions.Commands", "Command")
	return &lf.EVariantCon{Type: app(id, 0), Con: "Exercise",
		Arg: Record(b.ds("Daml.Script.Internal.Questions.Commands", "Command.Exercise"), 0,
			"tplId", TemplateTypeRep(t), "cId", cid, "argE", AnyChoice(t, argType, arg))}
}

// Project projects a record field (of a record of n type arguments).
func Project(id lf.TypeConID, n int, field string, r lf.Expr) lf.Expr {
	return &lf.ERecProj{Type: app(id, n), Field: field, Record: r}
}

// Head continues with the head of a non-empty list (an error otherwise).
func (b *Builder) Head(l lf.Expr, then func(h lf.Expr) lf.Expr) lf.Expr {
	b.n++
	h, tl := fmt.Sprintf("h%d", b.n), fmt.Sprintf("t%d", b.n)
	return &lf.ECase{Scrut: l, Alts: []lf.CaseAlt{{Pattern: &lf.PCons{Head: h, Tail: tl}, Body: then(&lf.EVar{Name: h})},
		{Pattern: &lf.PDefault{}, Body: matchFailure("Head: empty list")}}}
}

// Match continues with the argument of the variant constructor con of
// type id (an error otherwise).
func (b *Builder) Match(v lf.Expr, id lf.TypeConID, con string, then func(arg lf.Expr) lf.Expr) lf.Expr {
	b.n++
	x := fmt.Sprintf("v%d", b.n)
	return &lf.ECase{Scrut: v, Alts: []lf.CaseAlt{{Pattern: &lf.PVariant{ID: id, Con: con, Binder: x}, Body: then(&lf.EVar{Name: x})},
		{Pattern: &lf.PDefault{}, Body: matchFailure("Match: not " + con)}}}
}

// Trace is TRACE msg x: x, once msg is traced.
func Trace(msg string, x lf.Expr) lf.Expr {
	return &lf.EApp{Fun: &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinTrace}, Types: []lf.Type{hole()}},
		Args: []lf.Expr{Text(msg), x}}
}

// matchFailure is ERROR msg, the default alternative of a match (Daml-LF
// requires matches to be exhaustive).
func matchFailure(msg string) lf.Expr {
	return &lf.EApp{Fun: &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinError}, Types: []lf.Type{hole()}},
		Args: []lf.Expr{Text("scripttest: " + msg)}}
}

// CreatedCid continues with the contract id of the first CreateResult of
// a successful Submit answer ([Right ([CreateResult cid, …], tree)]).
func (b *Builder) CreatedCid(answer lf.Expr, then func(cid lf.Expr) lf.Expr) lf.Expr {
	either := lf.TypeConID{PackageID: daTypes, Module: "DA.Types", Name: "Either"}
	tuple2 := lf.TypeConID{PackageID: daTypes, Module: "DA.Types", Name: "Tuple2"}
	return b.Head(answer, func(e lf.Expr) lf.Expr {
		return b.Match(e, either, "Right", func(r lf.Expr) lf.Expr {
			return b.Head(Project(tuple2, 2, "_1", r), func(res lf.Expr) lf.Expr {
				return b.Match(res, b.ds("Daml.Script.Internal.Questions.Commands", "CommandResult"), "CreateResult", then)
			})
		})
	})
}

// Alloc allocates a party with the hint and continues with it.
func (b *Builder) Alloc(hint string, then func(p lf.Expr) lf.Expr) lf.Expr {
	return b.AllocNamed("", hint, then)
}

// AllocNamed allocates a party with a name (the requested name; the
// display name in S32) and a hint, and continues with it, asking
// AllocateParty as the Builder's line does.
func (b *Builder) AllocNamed(name, hint string, then func(p lf.Expr) lf.Expr) lf.Expr {
	fields := []any{"requestedName", Text(name), "idHint", Text(hint), "participant", None()}
	switch l := b.Line.or(); {
	case l == S32:
		fields[0] = "displayName"
	case l >= S33g:
		fields[4], fields[5] = "participants", Nil()
	}
	return b.Ask("AllocateParty", b.Version("AllocateParty"), b.Payload("PartyManagement", "AllocateParty", fields...), then)
}

// FailureStatus is a DA.Internal.Fail.Types:FailureStatus value; meta
// are key/value pairs.
func FailureStatus(errorID string, category lf.FailureCategory, message string, meta ...[2]string) lf.Expr {
	text := &lf.TBuiltin{Builtin: lf.BuiltinText}
	var m lf.Expr = &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinTextMapEmpty}, Types: []lf.Type{text}}
	for _, kv := range meta {
		insert := &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinTextMapInsert}, Types: []lf.Type{text}}
		m = &lf.EApp{Fun: insert, Args: []lf.Expr{Text(kv[0]), Text(kv[1]), m}}
	}
	return Record(lf.TypeConID{PackageID: daFailTypes, Module: "DA.Internal.Fail.Types", Name: "FailureStatus"}, 0,
		"errorId", Text(errorID), "category", &lf.EFailureCategory{Category: category}, "message", Text(message), "meta", m)
}

// arithmeticErrorID is daml-prim's ArithmeticError, the exception the
// synthetic libraries' tests throw (the engine reads its message from its
// field, so its stand-in needs no message function).
var arithmeticErrorID = lf.TypeConID{PackageID: daArithmetic, Module: "DA.Exception.ArithmeticError", Name: "ArithmeticError"}

// ArithmeticError is an ArithmeticError exception value with the
// message, as an AnyException.
func ArithmeticError(msg string) lf.Expr {
	return &lf.EToAnyException{Type: &lf.TCon{ID: arithmeticErrorID}, Expr: Record(arithmeticErrorID, 0, "message", Text(msg))}
}

// ThrowArithmetic evaluates to a thrown ArithmeticError (for pure code
// in a script).
func ThrowArithmetic(msg string) lf.Expr {
	return &lf.EThrow{ReturnType: hole(), ExceptionType: &lf.TCon{ID: arithmeticErrorID}, Exception: Record(arithmeticErrorID, 0, "message", Text(msg))}
}

// ExtendDAR returns a DAR whose main package is dalf (named main.dalf)
// and whose other packages are the dalfs of base (a DAR carrying the
// daml-script library the scripts use) that the main package depends on,
// for running hand-written scripts through tools that take a DAR.
func ExtendDAR(base []byte, dalf []byte) ([]byte, error) {
	dar, err := lf.ReadDAR(base, lf.ReadOptions{})
	if err != nil {
		return nil, err
	}
	main, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		return nil, err
	}
	need := map[string]bool{}
	var walk func(ids []string)
	walk = func(ids []string) {
		for _, id := range ids {
			if need[id] {
				continue
			}
			need[id] = true
			if p := dar.Package(id); p != nil {
				walk(p.DirectDeps)
			}
		}
	}
	walk(main.DirectDeps)
	paths := map[string]bool{}
	for id := range need {
		if p, ok := dar.DalfPaths[id]; ok {
			paths[p] = true
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(base), int64(len(base)))
	if err != nil {
		return nil, err
	}
	files := []lftest.File{{Name: "main.dalf", Data: dalf}}
	names := []string{"main.dalf"}
	for _, f := range zr.File {
		if !paths[f.Name] {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		files = append(files, lftest.File{Name: f.Name, Data: data})
		names = append(names, f.Name)
	}
	manifest := lftest.File{Name: "META-INF/MANIFEST.MF", Data: []byte(lftest.ManifestText("main.dalf", names))}
	return lftest.Zip(append([]lftest.File{manifest}, files...)...), nil
}
