package scripttest_test

import (
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/daml/typecheck"
)

const amuletTestDAR = "../../../../shared/testdata/dars/splice-amulet-test-0.1.8.dar"

// The test package's template T {owner : Party, n : Int64}, its choice
// argument record C and a key record K {k : Text}, by the self reference
// of expressions.
var (
	tplT    = lf.TypeConID{PackageID: lftest.SelfID, Module: "Test", Name: "T"}
	choiceC = lf.TypeConID{PackageID: lftest.SelfID, Module: "Test", Name: "C"}
	keyK    = lf.TypeConID{PackageID: lftest.SelfID, Module: "Test", Name: "K"}
)

// scripts are scripts of every kind the Builder offers that the library
// of line (ForDAR's: real, otherwise synthetic) has the payloads of.
func scripts(b *scripttest.Builder, real bool) map[string]lf.Expr {
	line := b.Line
	if line == 0 {
		line = scripttest.S33c
	}
	tArg := func(p lf.Expr, n int64) lf.Expr {
		return scripttest.Record(tplT, 0, "owner", p, "n", scripttest.Int(n))
	}
	cArg := func() lf.Expr { return scripttest.Record(choiceC, 0) }
	getTime := func() lf.Expr { return b.Payload("Time", "GetTime") }
	exception := func(msg string) lf.Expr { return scripttest.ArithmeticError(msg) }
	throwPure := func(msg string) lf.Expr { return scripttest.ThrowArithmetic(msg) }
	if real {
		exception, throwPure = scripttest.GeneralError, scripttest.Throw
	}
	throw := func(msg string) lf.Expr {
		return b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", exception(msg)), b.Pure)
	}
	act := func(inner lf.Expr) lf.Expr { return b.Lam(func(lf.Expr) lf.Expr { return b.Script(inner) }) }
	create := func(p lf.Expr, beh scripttest.Behaviour) lf.Expr {
		return b.Submit(p, beh, b.CreateCmd(tplT, tArg(p, 1)))
	}
	submit := func(payload lf.Expr, then func(lf.Expr) lf.Expr) lf.Expr {
		return b.Ask("Submit", b.Version("Submit"), payload, then)
	}
	key := func() lf.Expr {
		return b.ContractKey(tplT, &lf.TCon{ID: keyK}, scripttest.Record(keyK, 0, "k", scripttest.Text("k")))
	}
	tpl := func() lf.Expr { return scripttest.TemplateTypeRep(tplT) }
	tuple := lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple2"}
	pair := func(x, y lf.Expr) lf.Expr { return scripttest.Record(tuple, 2, "_1", x, "_2", y) }
	s := map[string]lf.Expr{
		"pureUnit":    b.Pure(scripttest.Unit()),
		"pureInt":     b.Pure(scripttest.Int(42)),
		"pureList":    b.Pure(scripttest.List(scripttest.Text("a"), scripttest.Text("b"))),
		"pureNone":    b.Pure(scripttest.None()),
		"pureNil":     b.Pure(scripttest.Nil()),
		"cast":        b.Pure(b.Cast(scripttest.Int(42), &lf.TBuiltin{Builtin: lf.BuiltinInt64})),
		"getTime":     b.Ask("GetTime", 1, getTime(), b.Pure),
		"setThenGet":  b.Ask("SetTime", 1, b.Payload("Time", "SetTime", "time", &lf.ETimestamp{Micros: 5}), func(lf.Expr) lf.Expr { return b.Ask("GetTime", 1, getTime(), b.Pure) }),
		"pureThrow":   b.Ask("GetTime", 1, getTime(), func(lf.Expr) lf.Expr { return throwPure("boom") }),
		"unknown":     b.Ask("Frobnicate", 1, getTime(), b.Pure),
		"throw":       throw("boom"),
		"catchThrow":  b.Ask("Catch", 1, b.Payload("Exceptions", "Catch", "act", act(throw("x")), "dummy", scripttest.Unit()), b.Pure),
		"catchOK":     b.Ask("Catch", 1, b.Payload("Exceptions", "Catch", "act", act(b.Pure(scripttest.Int(7))), "dummy", scripttest.Unit()), b.Pure),
		"tryCommands": b.Ask("TryCommands", 1, b.Payload("Testing", "TryCommands", "act", b.Script(b.Ask("GetTime", 1, getTime(), b.Pure))), b.Pure),
		"alloc":       b.Alloc("alice", b.Pure),
		"allocNamed": b.AllocNamed("alice", "", func(p1 lf.Expr) lf.Expr {
			return b.AllocNamed("alice", "", func(p2 lf.Expr) lf.Expr { return b.Pure(pair(p1, p2)) })
		}),
		"knownParties": b.Alloc("alice", func(lf.Expr) lf.Expr {
			return b.Ask("ListKnownParties", 1, b.Payload("PartyManagement", "ListKnownParties", "participant", scripttest.None()), b.Pure)
		}),
		"submitCreate": b.Alloc("alice", func(p lf.Expr) lf.Expr { return submit(create(p, scripttest.MustSucceed), b.Pure) }),
		"submitMustFail": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return submit(create(p, scripttest.MustFail), func(lf.Expr) lf.Expr { return b.Pure(scripttest.Unit()) })
		}),
		"submitTry": b.Alloc("alice", func(p lf.Expr) lf.Expr { return submit(create(p, scripttest.Try), b.Pure) }),
		"submitNothing": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return submit(b.Submit(p, scripttest.MustSucceed), b.Pure)
		}),
		"createExercise": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return submit(create(p, scripttest.MustSucceed), func(ans lf.Expr) lf.Expr {
				return b.CreatedCid(ans, func(cid lf.Expr) lf.Expr {
					return submit(b.Submit(p, scripttest.MustSucceed, b.ExerciseCmd(tplT, cid, choiceC, cArg())), b.Pure)
				})
			})
		}),
		"exerciseByKey": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return submit(b.Submit(p, scripttest.MustSucceed, b.CreateCmd(tplT, tArg(p, 1)), b.ExerciseByKeyCmd(tplT, key(), choiceC, cArg())), b.Pure)
		}),
		"queryACS": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("QueryACS", 1, b.Payload("Query", "QueryACS", "parties", scripttest.List(p), "tplId", tpl()), b.Pure)
		}),
		"vet": b.Ask("VetPackages", 1, b.Payload("Packages", "VetPackages", vetFields(b, line)...), b.Pure),
	}
	if line >= scripttest.S35 {
		s["queryByKey"] = b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("QueryByKey", b.Version("QueryByKey"), b.Payload("Query", "QueryByKey", "parties", scripttest.List(p), "tplId", tpl(), "key", key()), b.Pure)
		})
		s["queryNByKey"] = b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("QueryNByKey", 1, b.Payload("Query", "QueryNByKey", "parties", scripttest.List(p), "tplId", tpl(), "contractKey", key(), "limit", scripttest.Int(2)), b.Pure)
		})
	} else {
		s["queryContractKey"] = b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("QueryContractKey", 1, b.Payload("Query", "QueryContractKey", "parties", scripttest.List(p), "tplId", tpl(), "key", key()), b.Pure)
		})
	}
	if line >= scripttest.S33c {
		um := func(n string) lf.TypeConID {
			return lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.UserManagement", Name: n}
		}
		uid := scripttest.Record(um("UserId"), 0, "unpack", scripttest.Text("bob"))
		s["throwPseudo"] = b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc",
			b.PseudoException(um("UserNotFound"), scripttest.Record(um("UserNotFound"), 0, "userId", uid))), b.Pure)
	}
	if line >= scripttest.S33g {
		status := func() lf.Expr {
			return scripttest.FailureStatus("e", lf.InvalidIndependentOfSystemState, "m", [2]string{"k", "v"})
		}
		failWithStatus := func() lf.Expr {
			return b.Ask("FailWithStatus", 1, b.Payload("Exceptions", "FailWithStatus", "status", status()), b.Pure)
		}
		tryStatus := func(inner lf.Expr) lf.Expr {
			return b.Ask("TryFailureStatus", 1, b.Payload("Exceptions", "TryFailureStatus", "act", act(inner), "dummy", scripttest.Unit()), b.Pure)
		}
		keyPair := lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.Crypto.Text", Name: "Secp256k1KeyPair"}
		s["failWithStatus"] = failWithStatus()
		s["tryFailureStatus"] = tryStatus(failWithStatus())
		s["tryFailureStatusOK"] = tryStatus(b.Pure(scripttest.Text("ok")))
		s["secp256k1"] = b.Ask("Secp256k1GenerateKeyPair", 1, b.Payload("Crypto.Text", "Secp256k1GenerateKeyPair"), func(kp lf.Expr) lf.Expr {
			return b.Ask("Secp256k1Sign", 1, b.Payload("Crypto.Text", "Secp256k1Sign",
				"privateKey", scripttest.Project(keyPair, 0, "privateKey", kp), "message", scripttest.Text("00")), func(sig lf.Expr) lf.Expr {
				return b.Pure(pair(kp, sig))
			})
		})
	}
	if real {
		s["validateUserID"] = b.Ask("ValidateUserId", 1, b.Payload("UserManagement", "ValidateUserId", "name", scripttest.Text("a")), b.Pure)
		s["queryContractID"] = b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return submit(create(p, scripttest.MustSucceed), func(ans lf.Expr) lf.Expr {
				return b.CreatedCid(ans, func(cid lf.Expr) lf.Expr {
					return b.Ask("QueryContractId", 1, b.Payload("Query", "QueryContractId", "parties", scripttest.List(p), "tplId", tpl(), "cid", cid), b.Pure)
				})
			})
		})
		s["users"] = b.Alloc("alice", func(p lf.Expr) lf.Expr {
			um := func(n string) lf.TypeConID {
				return lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.UserManagement", Name: n}
			}
			uid := scripttest.Record(um("UserId"), 0, "unpack", scripttest.Text("alice-user"))
			user := scripttest.Record(um("User"), 0, "userId", uid, "primaryParty", scripttest.None())
			right := &lf.EVariantCon{Type: lf.TypeConApp{ID: um("UserRight")}, Con: "CanActAs", Arg: p}
			return b.Ask("CreateUser", 1, b.Payload("UserManagement", "CreateUser", "user", user, "rights", scripttest.List(right), "participant", scripttest.None()),
				func(lf.Expr) lf.Expr {
					return b.Ask("ListUserRights", 1, b.Payload("UserManagement", "ListUserRights",
						"userId", scripttest.Record(um("UserId"), 0, "unpack", scripttest.Text("alice-user")), "participant", scripttest.None()), b.Pure)
				})
		})
	}
	return s
}

func vetFields(b *scripttest.Builder, line scripttest.Line) []any {
	pkg := scripttest.Record(lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.Packages", Name: "PackageName"}, 0,
		"name", scripttest.Text("foo"), "version", scripttest.Text("1.0.0"))
	fields := []any{"packages", scripttest.List(pkg)}
	if line >= scripttest.S33g {
		fields = append(fields, "participant", scripttest.None())
	}
	return fields
}

// testPackage encodes and decodes a package of the scripts with T, C and
// K.
func testPackage(t *testing.T, b *scripttest.Builder, real bool) (*lf.Package, []byte) {
	t.Helper()
	vals, err := b.TypedValues(scripts(b, real))
	if err != nil {
		t.Error(err)
	}
	_, dalf := lftest.Dalf(lftest.Package{Minor: "1", Name: "script-tests", Version: "1.0.0", Modules: []lftest.Module{{
		Name: "Test",
		DataTypes: []lftest.DataType{
			{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "n", Type: lftest.B(lftest.Int64)}}},
			{Name: "C", Serializable: true},
			{Name: "K", Serializable: true, Fields: []lftest.Field{{Name: "k", Type: lftest.B(lftest.Text)}}},
		},
		Templates: []lftest.Template{{Name: "T"}},
		Values:    vals,
	}}})
	p, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p, dalf
}

// TestLibraryTypeChecks: the synthetic library of every line, and scripts
// of every kind written against it, pass the package validator.
func TestLibraryTypeChecks(t *testing.T) {
	t.Parallel()
	for _, line := range scripttest.Lines {
		t.Run(line.String(), func(t *testing.T) {
			t.Parallel()
			lib := scripttest.NewLibrary(t, line)
			pkgs := map[string]*lf.Package{}
			for _, p := range lib.Packages {
				pkgs[p.ID] = p
			}
			if err := typecheck.Check(lib.Packages[0], func(id string) *lf.Package { return pkgs[id] }); err != nil {
				t.Errorf("library: %v", err)
			}
			p, _ := testPackage(t, lib.Builder(), false)
			pkgs[p.ID] = p
			if err := typecheck.Check(p, func(id string) *lf.Package { return pkgs[id] }); err != nil {
				t.Errorf("scripts: %v", errorText(err))
			}
		})
	}
}

// TestForDARTypeChecks: scripts of every kind written against the real
// daml-script library of the Splice Amulet test DAR, in the DAR
// ExtendDAR makes, pass the package validator.
func TestForDARTypeChecks(t *testing.T) {
	t.Parallel()
	base := scripttest.ReadDAR(t, amuletTestDAR)
	dar, err := lf.ReadDAR(base, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := scripttest.ForDAR(dar)
	p, dalf := testPackage(t, b, true)
	ext, err := scripttest.ExtendDAR(base, dalf)
	if err != nil {
		t.Fatal(err)
	}
	extDAR, err := lf.ReadDAR(ext, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The DAR's own packages passed the validator when it was built.
	if err := typecheck.CheckDAR(extDAR, func(id string) bool { return id != p.ID }); err != nil {
		t.Errorf("scripts: %v", errorText(err))
	}
}

func errorText(err error) string {
	var te *typecheck.Error
	if errors.As(err, &te) {
		return te.Error()
	}
	return err.Error()
}
