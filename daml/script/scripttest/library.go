package scripttest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// Line is a line of the daml-script library: the shape of its question
// payloads and answers, which changed between SDKs more often than the
// question versions did (the history of Daml's
// sdk/daml-script/daml/Daml/Script/Internal/Questions/ names the lines).
// The zero Line is S33c, the library of the Splice DARs.
type Line int

// The library lines a synthetic library can take, in release order.
const (
	// S32 is daml3-script 3.2: a Submission of 7 fields (no
	// sPrefetchKeys), AllocateParty v1 {displayName, idHint,
	// participant}, PartyDetails {party, displayName, isLocal}, 1-field
	// VetPackages, VetDar, 23 SubmitError constructors.
	S32 Line = iota + 1
	// S33c is daml-script 3.3.0.20250214 (Splice's): an 8-field
	// Submission (sPrefetchKeys at index 4), AllocateParty v1
	// {requestedName, idHint, participant}, PartyDetails {party, isLocal};
	// the rest as S32.
	S33c
	// S33g is daml-script 3.3 of May to August 2025: AllocateParty v2
	// {requestedName, idHint, participants}, FailWithStatus,
	// TryFailureStatus, Secp256k1Sign and Secp256k1GenerateKeyPair,
	// VetPackages {packages, participant}, no VetDar, 27 SubmitError
	// constructors (UnresolvedPackageName at 2, UpgradeError,
	// FailureStatusError and CryptoError before DevError).
	S33g
	// S34 is daml-script 3.4 GA: S33g with Secp256k1WithEcdsaSign and
	// SubmitError.ContractHashingError at rank 4 (28 constructors).
	S34
	// S35 is daml-script 3.5 GA: Submit v2 with the library's own
	// AnyContractKey {getAnyContractKey : LedgerValue, …} (the bare key),
	// QueryByKey v2 instead of QueryContractKey, QueryNByKey v1,
	// SubmitError.EffectfulRollbackError after CryptoError (29
	// constructors).
	S35
)

// String names the line.
func (l Line) String() string {
	switch l.or() {
	case S32:
		return "S32"
	case S33c:
		return "S33c"
	case S33g:
		return "S33g"
	case S34:
		return "S34"
	case S35:
		return "S35"
	}
	return fmt.Sprintf("Line(%d)", int(l))
}

// or is the line, S33c for the zero Line.
func (l Line) or() Line {
	if l == 0 {
		return S33c
	}
	return l
}

// Lines are the lines a synthetic library can take, in release order.
var Lines = []Line{S32, S33c, S33g, S34, S35}

// LineOf tells the line of a daml-script package from its definitions (by
// their shape: the fields of Submission, AllocateParty and PartyDetails,
// the constructors of SubmitError, …), as far as the lines of Line go.
func LineOf(p *lf.Package) Line {
	has := func(module, name string) *lf.DataType {
		return p.DataType("Daml.Script.Internal."+module, name)
	}
	fieldOf := func(dt *lf.DataType, name string) bool {
		return dt != nil && slices.ContainsFunc(dt.Fields, func(f lf.Field) bool { return f.Name == name })
	}
	switch {
	case !fieldOf(has("Questions.Submit", "Submission"), "sPrefetchKeys"):
		return S32
	case has("Questions.Commands", "AnyContractKey") != nil:
		return S35
	case fieldOf(has("Questions.Submit.Error", "SubmitError"), "ContractHashingError"):
		return S34
	case fieldOf(has("Questions.PartyManagement", "AllocateParty"), "participants"):
		return S33g
	}
	return S33c
}

// Stable package ids of the stand-ins a Library comes with.
const (
	daStack     = "60c61c542207080e97e378ab447cc355ecc47534b3a3ebbff307c4fb8339bc4d"
	daFailTypes = "7adc4c2d07fa3a51173c843cba36e610c1168b2dbbf53076e20c0092eae8763d"
	// daArithmetic is daml-prim's DA.Exception.ArithmeticError package,
	// whose exception message the engine reads from its field.
	daArithmetic = "ee33fb70918e7aaa3d3fc44d64a399fb2bf5bcefc54201b1690ecd448551ba88"
)

// Library is a synthetic daml-script library of one line, encoded with
// lftest: the LowLevel and Free definitions (Script, Free, ScriptF,
// Question, LedgerValue, dangerousCast) and the payload and answer types
// of the questions the runner's tests ask, with the field names, field
// order and constructor order of that line, and from S33c on the
// user-management pseudo-exceptions (records). SubmitError constructors the
// runner never builds carry (). It comes with stand-ins for the stable
// packages it references, which carry the stable ids but only the types
// the runner builds.
type Library struct {
	// Line is the library's line.
	Line Line
	// ID is the library package's id.
	ID string
	// Packages are the library and the stable stand-ins.
	Packages []*lf.Package
}

// NewLibrary encodes the synthetic library of a line and its stable
// stand-ins, failing the test when they do not decode.
func NewLibrary(tb testing.TB, line Line) *Library {
	tb.Helper()
	line = line.or()
	lib := &Library{Line: line}
	for _, sp := range stablePackages() {
		p := decode(tb, sp.pkg)
		// A stand-in: the real package's content differs, so does its
		// hash; the runner and the engine find it by the stable id.
		p.ID = sp.id
		lib.Packages = append(lib.Packages, p)
	}
	p := decode(tb, libraryPackage(line))
	typeDangerousCast(p)
	lib.ID = p.ID
	lib.Packages = append([]*lf.Package{p}, lib.Packages...)
	if got := LineOf(p); got != line {
		tb.Fatalf("synthetic library %s reads as %s", line, got)
	}
	return lib
}

// Builder returns a Builder of scripts against the library.
func (l *Library) Builder() *Builder {
	pkgs := map[string]*lf.Package{}
	for _, p := range l.Packages {
		pkgs[p.ID] = p
	}
	return &Builder{DS: l.ID, Line: l.Line, pkgs: func(id string) *lf.Package { return pkgs[id] }}
}

// typeDangerousCast gives the decoded library's dangerousCast the type and
// a body of the real library's, forall a b. a -> b (lftest encodes no
// forall type, so the archive declares it a -> b with free variables).
// The runner replaces it by the identity; its body fails.
func typeDangerousCast(p *lf.Package) {
	v := p.Value("Daml.Script.Internal.LowLevel", "dangerousCast")
	star := &lf.Kind{Sort: lf.KindStar}
	a, b := &lf.TVar{Name: "a"}, &lf.TVar{Name: "b"}
	v.Type = &lf.TForall{Param: lf.TypeParam{Name: "a", Kind: star},
		Body: &lf.TForall{Param: lf.TypeParam{Name: "b", Kind: star}, Body: tFn(a, b)}}
	fail := &lf.ETyApp{Expr: &lf.EBuiltinFun{Fun: lf.BuiltinError}, Types: []lf.Type{b}}
	v.SetBody(&lf.ETyAbs{Params: []lf.TypeParam{{Name: "a", Kind: star}, {Name: "b", Kind: star}},
		Body: &lf.EAbs{Params: []lf.VarWithType{{Name: "x", Type: a}},
			Body: &lf.EApp{Fun: fail, Args: []lf.Expr{Text("Non-replaced call to internal-only dangerousCast")}}}})
}

func decode(tb testing.TB, p lftest.Package) *lf.Package {
	tb.Helper()
	_, dalf := lftest.Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		tb.Fatalf("decoding %s: %v", p.Name, err)
	}
	return pkg
}

// Types of the declarations.
var (
	tUnit      = lftest.B(lftest.Unit)
	tText      = lftest.B(lftest.Text)
	tInt       = lftest.B(lftest.Int64)
	tBool      = lftest.B(lftest.Bool)
	tParty     = lftest.B(lftest.Party)
	tTimestamp = lftest.B(lftest.Timestamp)
	tAny       = lftest.B(int(lf.BuiltinAny))
	tAnyExc    = lftest.B(int(lf.BuiltinAnyException))
	tTypeRep   = lftest.B(int(lf.BuiltinTypeRep))
	tCategory  = lftest.B(int(lf.BuiltinFailureCategory))
	tCid       = lftest.CID(tUnit)
)

func stableT(pkg, module, name string, args ...lftest.Type) lftest.Type {
	return lftest.App(lftest.Con(lftest.ByID(pkg), module, name), args...)
}

var (
	tTuple2          = func(a, b lftest.Type) lftest.Type { return stableT(daTypes, "DA.Types", "Tuple2", a, b) }
	tTemplateTypeRep = stableT(daAny, "DA.Internal.Any", "TemplateTypeRep")
	tAnyTemplate     = stableT(daAny, "DA.Internal.Any", "AnyTemplate")
	tAnyChoice       = stableT(daAny, "DA.Internal.Any", "AnyChoice")
	tStableKey       = stableT(daAny, "DA.Internal.Any", "AnyContractKey")
	tSrcLoc          = stableT(daStack, "DA.Stack.Types", "SrcLoc")
	tFailureStatus   = stableT(daFailTypes, "DA.Internal.Fail.Types", "FailureStatus")
)

func rec(name string, fields ...lftest.Field) lftest.DataType {
	return lftest.DataType{Name: name, Fields: fields}
}

func recP(name string, params []string, fields ...lftest.Field) lftest.DataType {
	dt := rec(name, fields...)
	for _, p := range params {
		dt.Params = append(dt.Params, lftest.Param{Name: p})
	}
	return dt
}

func variant(name string, cons ...lftest.Field) lftest.DataType {
	return lftest.DataType{Name: name, Kind: "variant", Fields: cons}
}

type stablePackage struct {
	id  string
	pkg lftest.Package
}

// stablePackages are the stand-ins of the stable packages whose types the
// runner builds or the libraries reference.
func stablePackages() []stablePackage {
	a, b := lftest.Var("a"), lftest.Var("b")
	t1, t2, t3 := lftest.Var("t1"), lftest.Var("t2"), lftest.Var("t3")
	pkg := func(id, name, module string, exceptions []string, dts ...lftest.DataType) stablePackage {
		return stablePackage{id, lftest.Package{Minor: "1", Name: name, Version: "1.0.0",
			Modules: []lftest.Module{{Name: module, DataTypes: dts, Exceptions: exceptions}}}}
	}
	return []stablePackage{
		pkg(daTypes, "daml-prim-DA-Types", "DA.Types", nil,
			recP("Tuple2", []string{"t1", "t2"}, lftest.Field{Name: "_1", Type: t1}, lftest.Field{Name: "_2", Type: t2}),
			recP("Tuple3", []string{"t1", "t2", "t3"}, lftest.Field{Name: "_1", Type: t1}, lftest.Field{Name: "_2", Type: t2}, lftest.Field{Name: "_3", Type: t3}),
			lftest.DataType{Name: "Either", Kind: "variant", Params: []lftest.Param{{Name: "a"}, {Name: "b"}},
				Fields: []lftest.Field{{Name: "Left", Type: a}, {Name: "Right", Type: b}}}),
		pkg(daAny, "ghc-stdlib-DA-Internal-Any", "DA.Internal.Any", nil,
			rec("AnyTemplate", lftest.Field{Name: "getAnyTemplate", Type: tAny}),
			rec("TemplateTypeRep", lftest.Field{Name: "getTemplateTypeRep", Type: tTypeRep}),
			rec("AnyChoice", lftest.Field{Name: "getAnyChoice", Type: tAny}, lftest.Field{Name: "getAnyChoiceTemplateTypeRep", Type: tTemplateTypeRep}),
			rec("AnyContractKey", lftest.Field{Name: "getAnyContractKey", Type: tAny}, lftest.Field{Name: "getAnyContractKeyTemplateTypeRep", Type: tTemplateTypeRep})),
		pkg(daNonEmpy, "daml-stdlib-DA-NonEmpty-Types", "DA.NonEmpty.Types", nil,
			recP("NonEmpty", []string{"a"}, lftest.Field{Name: "hd", Type: a}, lftest.Field{Name: "tl", Type: lftest.ListOf(a)})),
		pkg(daStack, "daml-stdlib-DA-Stack-Types", "DA.Stack.Types", nil,
			rec("SrcLoc", lftest.Field{Name: "srcLocPackage", Type: tText}, lftest.Field{Name: "srcLocModule", Type: tText},
				lftest.Field{Name: "srcLocFile", Type: tText}, lftest.Field{Name: "srcLocStartLine", Type: tInt},
				lftest.Field{Name: "srcLocStartCol", Type: tInt}, lftest.Field{Name: "srcLocEndLine", Type: tInt},
				lftest.Field{Name: "srcLocEndCol", Type: tInt})),
		pkg(daFailTypes, "daml-stdlib-DA-Internal-Fail-Types", "DA.Internal.Fail.Types", nil,
			rec("FailureStatus", lftest.Field{Name: "errorId", Type: tText}, lftest.Field{Name: "category", Type: tCategory},
				lftest.Field{Name: "message", Type: tText}, lftest.Field{Name: "meta", Type: lftest.App(lftest.B(lftest.TextMap), tText)})),
		pkg(daArithmetic, "daml-prim-DA-Exception-ArithmeticError", "DA.Exception.ArithmeticError", []string{"ArithmeticError"},
			rec("ArithmeticError", lftest.Field{Name: "message", Type: tText})),
	}
}

// libraryPackage is the synthetic daml-script package of a line.
func libraryPackage(line Line) lftest.Package {
	name, version := "daml-script", map[Line]string{S33c: "3.3.0.20250214.13611.0", S33g: "3.3.0.20250507.13650.0",
		S34: "3.4.11", S35: "3.5.2"}[line]
	if line == S32 {
		name, version = "daml3-script", "3.2.0.20241031.13398.0"
	}
	self := func(module, tname string, args ...lftest.Type) lftest.Type {
		return lftest.App(lftest.Con(lftest.Self(), "Daml.Script.Internal."+module, tname), args...)
	}
	f := func(name string, t lftest.Type) lftest.Field { return lftest.Field{Name: name, Type: t} }
	a, req, res := lftest.Var("a"), lftest.Var("req"), lftest.Var("res")
	lv := self("LowLevel", "LedgerValue")
	free := func(fn, x lftest.Type) lftest.Type { return self("Free", "Free", fn, x) }
	ttr, parties := tTemplateTypeRep, lftest.ListOf(tParty)
	key := tStableKey
	if line >= S35 {
		key = self("Questions.Commands", "AnyContractKey")
	}
	mod := func(name string, dts ...lftest.DataType) lftest.Module {
		return lftest.Module{Name: "Daml.Script.Internal." + name, DataTypes: dts}
	}

	lowLevel := mod("LowLevel",
		rec("LedgerValue"),
		recP("Script", []string{"a"},
			f("runScript", lftest.Fn(free(self("LowLevel", "ScriptF"), tTuple2(a, tUnit)), tUnit)), f("dummy", tUnit)),
		recP("ScriptF", []string{"a"}, f("unpack", self("LowLevel", "Question", lv, lv, a))),
		recP("Question", []string{"req", "res", "a"},
			f("commandName", tText), f("commandVersion", tInt), f("payload", req),
			f("locations", lftest.ListOf(tTuple2(tText, tSrcLoc))), f("continue", lftest.Fn(a, res))))
	// dangerousCast : a -> b; its body is never run: the runner replaces it
	// by the identity.
	lowLevel.Values = []lftest.Value{{Name: "dangerousCast", Type: lftest.Fn(lftest.Var("b"), a)}}
	freeMod := mod("Free", lftest.DataType{Name: "Free", Kind: "variant",
		Params: []lftest.Param{{Name: "f", Kind: "* -> *"}, {Name: "a"}},
		Fields: []lftest.Field{f("Pure", a), f("Free", lftest.App(lftest.Var("f"), free(lftest.Var("f"), a)))}})

	commands := mod("Questions.Commands",
		variant("Command", f("Create", self("Questions.Commands", "Command.Create")),
			f("Exercise", self("Questions.Commands", "Command.Exercise")),
			f("ExerciseByKey", self("Questions.Commands", "Command.ExerciseByKey")),
			f("CreateAndExercise", self("Questions.Commands", "Command.CreateAndExercise"))),
		rec("Command.Create", f("argC", tAnyTemplate)),
		rec("Command.Exercise", f("tplId", ttr), f("cId", tCid), f("argE", tAnyChoice)),
		rec("Command.ExerciseByKey", f("tplId", ttr), f("keyE", key), f("argE", tAnyChoice)),
		rec("Command.CreateAndExercise", f("tplArgCE", tAnyTemplate), f("choiceArgCE", tAnyChoice)),
		rec("CommandWithMeta", f("command", self("Questions.Commands", "Command")), f("explicitPackageId", tBool)),
		variant("CommandResult", f("CreateResult", tCid), f("ExerciseResult", lv)),
		rec("Disclosure", f("templateId", ttr), f("contractId", tCid), f("blob", tText)))
	if line >= S35 {
		commands.DataTypes = append(commands.DataTypes,
			rec("AnyContractKey", f("getAnyContractKey", lv), f("getAnyContractKeyTemplateTypeRep", ttr)))
	}

	submission := []lftest.Field{f("sActAs", stableT(daNonEmpy, "DA.NonEmpty.Types", "NonEmpty", tParty)),
		f("sReadAs", parties), f("sDisclosures", lftest.ListOf(self("Questions.Commands", "Disclosure"))),
		f("sPackagePreference", lftest.Opt(lftest.ListOf(self("Questions.Submit", "PackageId"))))}
	if line >= S33c {
		submission = append(submission, f("sPrefetchKeys", lftest.ListOf(key)))
	}
	submission = append(submission, f("sErrorBehaviour", self("Questions.Submit", "ErrorBehaviour")),
		f("sCommands", lftest.ListOf(self("Questions.Commands", "CommandWithMeta"))),
		f("sLocation", lftest.Opt(tTuple2(tText, tSrcLoc))))
	submit := mod("Questions.Submit",
		rec("Submit", f("submissions", lftest.ListOf(self("Questions.Submit", "Submission")))),
		rec("Submission", submission...),
		rec("PackageId", f("unpack", tText)),
		lftest.DataType{Name: "ErrorBehaviour", Kind: "enum", Enum: []string{"MustSucceed", "MustFail", "Try"}})

	errRecords := map[string][]lftest.Field{
		"ContractNotFound": {f("unknownContractIds", stableT(daNonEmpy, "DA.NonEmpty.Types", "NonEmpty", tText)),
			f("additionalDebuggingInfo", lftest.Opt(tUnit))},
		"AuthorizationError":   {f("authorizationErrorMessage", tText)},
		"DuplicateContractKey": {f("duplicateContractKey", lftest.Opt(tStableKey))},
		"UnhandledException":   {f("exc", lftest.Opt(tAnyExc))},
		"UserError":            {f("userErrorMessage", tText)},
		"UnknownError":         {f("unknownErrorMessage", tText)},
		"FailureStatusError":   {f("failureStatus", tFailureStatus)},
	}
	submitError := variant("SubmitError")
	errMod := mod("Questions.Submit.Error")
	for _, con := range submitErrorConstructors(line) {
		t := tUnit
		if fs, ok := errRecords[con]; ok {
			t = self("Questions.Submit.Error", "SubmitError."+con)
			errMod.DataTypes = append(errMod.DataTypes, rec("SubmitError."+con, fs...))
		}
		submitError.Fields = append(submitError.Fields, f(con, t))
	}
	errMod.DataTypes = append(errMod.DataTypes, submitError)

	tree := mod("Questions.TransactionTree",
		rec("TransactionTree", f("rootEvents", lftest.ListOf(self("Questions.TransactionTree", "TreeEvent")))),
		variant("TreeEvent", f("CreatedEvent", self("Questions.TransactionTree", "Created")),
			f("ExercisedEvent", self("Questions.TransactionTree", "Exercised"))),
		rec("Created", f("contractId", self("Questions.Util", "AnyContractId")), f("argument", tAnyTemplate)),
		rec("Exercised", f("contractId", self("Questions.Util", "AnyContractId")), f("choice", tText),
			f("argument", tAnyChoice), f("childEvents", lftest.ListOf(self("Questions.TransactionTree", "TreeEvent")))))
	util := mod("Questions.Util", rec("AnyContractId", f("templateId", ttr), f("contractId", tCid)))

	var allocate, details []lftest.Field
	switch {
	case line == S32:
		allocate = []lftest.Field{f("displayName", tText), f("idHint", tText), f("participant", lftest.Opt(tText))}
		details = []lftest.Field{f("party", tParty), f("displayName", lftest.Opt(tText)), f("isLocal", tBool)}
	case line == S33c:
		allocate = []lftest.Field{f("requestedName", tText), f("idHint", tText), f("participant", lftest.Opt(tText))}
	default:
		allocate = []lftest.Field{f("requestedName", tText), f("idHint", tText), f("participants", lftest.ListOf(tText))}
	}
	if details == nil {
		details = []lftest.Field{f("party", tParty), f("isLocal", tBool)}
	}
	partyMgmt := mod("Questions.PartyManagement", rec("AllocateParty", allocate...),
		rec("ListKnownParties", f("participant", lftest.Opt(tText))), rec("PartyDetails", details...))

	query := mod("Questions.Query", rec("QueryACS", f("parties", parties), f("tplId", ttr)))
	if line >= S35 {
		query.DataTypes = append(query.DataTypes,
			rec("QueryByKey", f("parties", parties), f("tplId", ttr), f("key", key)),
			rec("QueryNByKey", f("parties", parties), f("tplId", ttr), f("contractKey", key), f("limit", tInt)))
	} else {
		query.DataTypes = append(query.DataTypes, rec("QueryContractKey", f("parties", parties), f("tplId", ttr), f("key", key)))
	}

	vet := []lftest.Field{f("packages", lftest.ListOf(self("Questions.Packages", "PackageName")))}
	if line >= S33g {
		vet = append(vet, f("participant", lftest.Opt(tText)))
	}
	packages := mod("Questions.Packages", rec("PackageName", f("name", tText), f("version", tText)),
		rec("VetPackages", vet...), rec("UnvetPackages", vet...))
	if line < S33g {
		packages.DataTypes = append(packages.DataTypes, rec("VetDar", f("darName", tText), f("participant", lftest.Opt(tText))),
			rec("UnvetDar", f("darName", tText), f("participant", lftest.Opt(tText))))
	}

	exceptions := mod("Questions.Exceptions", rec("Throw", f("exc", tAnyExc)),
		rec("Catch", f("act", lftest.Fn(lv, tUnit)), f("dummy", tUnit)))
	if line >= S33g {
		exceptions.DataTypes = append(exceptions.DataTypes, rec("FailWithStatus", f("status", tFailureStatus)),
			rec("TryFailureStatus", f("act", lftest.Fn(lv, tUnit)), f("dummy", tUnit)))
	}
	modules := []lftest.Module{lowLevel, freeMod, commands, submit, errMod, tree, util, partyMgmt, query, packages, exceptions,
		mod("Questions.Testing", rec("TryCommands", f("act", lv))),
		mod("Questions.Time", rec("GetTime"), rec("SetTime", f("time", tTimestamp)))}
	if line >= S33c {
		// The pseudo-exceptions: plain records from 3.3 on.
		userID := self("Questions.UserManagement", "UserId")
		modules = append(modules, mod("Questions.UserManagement", rec("UserId", f("unpack", tText)),
			rec("InvalidUserId", f("m", tText)), rec("UserAlreadyExists", f("userId", userID)), rec("UserNotFound", f("userId", userID))))
	}
	if line >= S33g {
		crypto := mod("Questions.Crypto.Text",
			rec("Secp256k1Sign", f("privateKey", tText), f("message", tText)),
			rec("Secp256k1GenerateKeyPair"),
			rec("Secp256k1KeyPair", f("privateKey", tText), f("publicKey", tText)))
		if line >= S34 {
			crypto.DataTypes = append(crypto.DataTypes, rec("Secp256k1WithEcdsaSign", f("privateKey", tText), f("message", tText)))
		}
		modules = append(modules, crypto)
	}
	return lftest.Package{Minor: "1", Name: name, Version: version, Modules: modules}
}

// submitErrorConstructors are the SubmitError constructors of a line, in
// rank order (the library's Internal/Questions/Submit/Error.daml in each
// line).
func submitErrorConstructors(line Line) []string {
	cons := []string{"ContractNotFound", "ContractKeyNotFound", "AuthorizationError", "DisclosedContractKeyHashingError",
		"DuplicateContractKey", "InconsistentContractKey", "UnhandledException", "UserError", "TemplatePreconditionViolated",
		"CreateEmptyContractKeyMaintainers", "FetchEmptyContractKeyMaintainers", "WronglyTypedContract",
		"ContractDoesNotImplementInterface", "ContractDoesNotImplementRequiringInterface", "NonComparableValues",
		"ContractIdInContractKey", "ContractIdComparability", "ValueNesting", "LocalVerdictLockedContracts",
		"LocalVerdictLockedKeys", "DevError", "UnknownError", "TruncatedError"}
	insert := func(before string, names ...string) {
		i := slices.Index(cons, before)
		cons = slices.Insert(cons, i, names...)
	}
	if line >= S33g {
		insert("AuthorizationError", "UnresolvedPackageName")
		insert("DevError", "UpgradeError", "FailureStatusError", "CryptoError")
	}
	if line >= S34 {
		insert("DisclosedContractKeyHashingError", "ContractHashingError")
	}
	if line >= S35 {
		insert("DevError", "EffectfulRollbackError")
	}
	return cons
}
