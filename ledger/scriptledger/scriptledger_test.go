package scriptledger_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

const amuletTestDAR = "../../../shared/testdata/dars/splice-amulet-test-0.1.8.dar"

// readDAR reads the Splice Amulet test DAR, skipping the test when
// ../shared is absent.
func readDAR(t *testing.T) ([]byte, *lf.DAR) {
	t.Helper()
	data := scripttest.ReadDAR(t, amuletTestDAR)
	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return data, dar
}

func decode(t *testing.T, p lftest.Package) *lf.Package {
	t.Helper()
	_, dalf := lftest.Dalf(p)
	pkg, err := lf.DecodeArchive(dalf, lf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestScriptsOnNode runs hand-written scripts against a fresh node each:
// submissions (create, exercise, must-fail), queries, users, time.
func TestScriptsOnNode(t *testing.T) {
	t.Parallel()
	_, dar := readDAR(t)
	ctx := context.Background()
	tmplPkg := lftest.TemplatePackage("script-tmpl", "1.0.0", nil, lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)})
	// Main:Bad's precondition is False: creating one fails.
	tmplPkg.Modules[0].DataTypes = append(tmplPkg.Modules[0].DataTypes, lftest.DataType{Name: "Bad", Serializable: true,
		Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}})
	tmplPkg.Modules[0].Templates = append(tmplPkg.Modules[0].Templates, lftest.Template{Name: "Bad", Precond: &lf.EBuiltinCon{Con: lf.ConFalse}})
	tmplDAR, _ := lftest.DAR(tmplPkg)
	tp := decode(t, tmplPkg)
	T := lf.TypeConID{PackageID: tp.ID, Module: "Main", Name: "T"}
	Bad := lf.TypeConID{PackageID: tp.ID, Module: "Main", Name: "Bad"}
	b := scripttest.ForDAR(dar)
	mkT := func(p lf.Expr) lf.Expr { return scripttest.Record(T, 0, "owner", p) }
	create := func(p lf.Expr, beh scripttest.Behaviour) lf.Expr {
		return b.Submit(p, beh, b.CreateCmd(T, mkT(p)))
	}
	query := func(p lf.Expr) lf.Expr {
		return b.Ask("QueryACS", 1, b.Payload("Query", "QueryACS", "parties", scripttest.List(p), "tplId", scripttest.TemplateTypeRep(T)), b.Pure)
	}
	// Go's argument is () in lftest.TemplatePackage: its AnyChoice names
	// the choice by a type constructor named Go.
	goArg := lf.TypeConID{PackageID: tp.ID, Module: "Main", Name: "Go"}
	scripts := map[string]lf.Expr{
		"createQuery": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("Submit", 1, create(p, scripttest.MustSucceed), func(lf.Expr) lf.Expr { return query(p) })
		}),
		"createArchiveQuery": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("Submit", 1, create(p, scripttest.MustSucceed), func(ans lf.Expr) lf.Expr {
				return b.CreatedCid(ans, func(cid lf.Expr) lf.Expr {
					return b.Ask("Submit", 1, b.Submit(p, scripttest.MustSucceed, b.ExerciseCmd(T, cid, goArg, scripttest.Unit())),
						func(lf.Expr) lf.Expr { return query(p) })
				})
			})
		}),
		"queryContractID": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("Submit", 1, create(p, scripttest.MustSucceed), func(ans lf.Expr) lf.Expr {
				return b.CreatedCid(ans, func(cid lf.Expr) lf.Expr {
					return b.Ask("QueryContractId", 1, b.Payload("Query", "QueryContractId", "parties", scripttest.List(p),
						"tplId", scripttest.TemplateTypeRep(T), "cid", cid), b.Pure)
				})
			})
		}),
		"tryPrecondition": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("Submit", 1, b.Submit(p, scripttest.Try, b.CreateCmd(Bad, scripttest.Record(Bad, 0, "owner", p))), b.Pure)
		}),
		"mustFailSucceeds": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			return b.Ask("Submit", 1, create(p, scripttest.MustFail), b.Pure)
		}),
		"mustFailUnauthorized": b.Alloc("alice", func(alice lf.Expr) lf.Expr {
			return b.Alloc("bob", func(bob lf.Expr) lf.Expr {
				return b.Ask("Submit", 1, b.Submit(bob, scripttest.MustFail, b.CreateCmd(T, mkT(alice))), b.Pure)
			})
		}),
		"submitUnauthorized": b.Alloc("alice", func(alice lf.Expr) lf.Expr {
			return b.Alloc("bob", func(bob lf.Expr) lf.Expr {
				return b.Ask("Submit", 1, b.Submit(bob, scripttest.MustSucceed, b.CreateCmd(T, mkT(alice))), b.Pure)
			})
		}),
		"time": b.Ask("SetTime", 1, b.Payload("Time", "SetTime", "time", &lf.ETimestamp{Micros: 1_640_995_200_000_000}), func(lf.Expr) lf.Expr {
			return b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), b.Pure)
		}),
		"users": b.Alloc("alice", func(p lf.Expr) lf.Expr {
			uid := scripttest.Record(lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.UserManagement", Name: "UserId"}, 0, "unpack", scripttest.Text("alice-user"))
			user := scripttest.Record(lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.UserManagement", Name: "User"}, 0,
				"userId", uid, "primaryParty", scripttest.None())
			right := &lf.EVariantCon{Type: lf.TypeConApp{ID: lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.UserManagement", Name: "UserRight"}},
				Con: "CanActAs", Arg: p}
			return b.Ask("CreateUser", 1, b.Payload("UserManagement", "CreateUser", "user", user, "rights", scripttest.List(right), "participant", scripttest.None()),
				func(lf.Expr) lf.Expr {
					return b.Ask("ListUserRights", 1, b.Payload("UserManagement", "ListUserRights", "userId", uid, "participant", scripttest.None()), b.Pure)
				})
		}),
		"knownParties": b.Alloc("alice", func(lf.Expr) lf.Expr {
			return b.Ask("ListKnownParties", 1, b.Payload("PartyManagement", "ListKnownParties", "participant", scripttest.None()), b.Pure)
		}),
	}
	sp := decode(t, lftest.Package{Minor: "1", Name: "script-tests", Version: "1.0.0", Modules: []lftest.Module{{Name: "Test", Values: b.Values(scripts)}}})
	pm := engine.PackageMap{sp.ID: sp, tp.ID: tp}
	for _, p := range dar.Packages {
		pm[p.ID] = p
	}
	r := script.NewRunner(pm, script.Options{})
	listLen := func(n int) func(t *testing.T, v engine.Value) {
		return func(t *testing.T, v engine.Value) {
			l, ok := v.(*engine.List)
			if !ok && v != (*engine.List)(nil) {
				t.Fatalf("got %#v, want a list", v)
			}
			if l.Len() != n {
				t.Fatalf("got %d elements, want %d: %#v", l.Len(), n, v)
			}
		}
	}
	tests := []struct {
		name  string
		check func(t *testing.T, v engine.Value)
		fail  string
	}{
		{name: "createQuery", check: func(t *testing.T, v engine.Value) {
			listLen(1)(t, v)
			tpl := v.(*engine.List).Head.(*engine.Record).Fields[1].(*engine.Record).Fields[0].(*engine.Any)
			if !strings.HasPrefix(string(tpl.Value.(*engine.Record).Fields[0].(engine.Party)), "alice::") {
				t.Errorf("AnyTemplate %#v", tpl)
			}
		}},
		{name: "createArchiveQuery", check: listLen(0)},
		{name: "queryContractID", check: func(t *testing.T, v engine.Value) {
			if o, ok := v.(engine.Optional); !ok || o.Value == nil {
				t.Errorf("got %#v, want Some", v)
			}
		}},
		{name: "mustFailSucceeds", fail: "Command Submit failed: Expected submit to fail but it succeeded"},
		{name: "mustFailUnauthorized", check: func(t *testing.T, v engine.Value) {
			listLen(1)(t, v)
			left := v.(*engine.List).Head.(*engine.Variant)
			if left.Con != "Left" || left.Value.(*engine.Variant).Con != "AuthorizationError" {
				t.Errorf("got %#v, want Left AuthorizationError", left)
			}
		}},
		{name: "tryPrecondition", check: func(t *testing.T, v engine.Value) {
			listLen(1)(t, v)
			left := v.(*engine.List).Head.(*engine.Variant)
			if left.Con != "Left" {
				t.Fatalf("got %#v, want Left", left)
			}
			// The node reports Canton's TEMPLATE_PRECONDITION_VIOLATED, which
			// maps to TemplatePreconditionViolated (as over gRPC).
			if se := left.Value.(*engine.Variant); se.Con != "TemplatePreconditionViolated" {
				t.Errorf("SubmitError %s %#v, want TemplatePreconditionViolated", se.Con, se.Value)
			}
		}},
		{name: "submitUnauthorized", fail: "Command Submit failed: DAML_AUTHORIZATION_ERROR"},
		{name: "time", check: func(t *testing.T, v engine.Value) {
			if v != engine.Timestamp(1_640_995_200_000_000) {
				t.Errorf("got %#v, want 2022-01-01", v)
			}
		}},
		{name: "users", check: func(t *testing.T, v engine.Value) {
			o, ok := v.(engine.Optional)
			if !ok || o.Value == nil {
				t.Fatalf("got %#v, want Some rights", v)
			}
			listLen(1)(t, o.Value)
			if r := o.Value.(*engine.List).Head.(*engine.Variant); r.Con != "CanActAs" {
				t.Errorf("right %#v, want CanActAs", r)
			}
		}},
		{name: "knownParties", check: func(t *testing.T, v engine.Value) {
			l, _ := v.(*engine.List)
			found := false
			for _, p := range l.Slice() {
				if strings.HasPrefix(string(p.(*engine.Record).Fields[0].(engine.Party)), "alice::") {
					found = true
				}
			}
			if !found {
				t.Errorf("alice not in %#v", v)
			}
		}},
	}
	// Each case runs on a fresh node (scriptledger.Remote is tested over
	// HTTP in examples/damlscript, which may import httpadapter).
	ledgers := map[string]func(t *testing.T) script.Ledger{
		"node": func(t *testing.T) script.Ledger {
			node, _ := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
			ledgertest.MustUploadDAR(t, node, tmplDAR)
			return scriptledger.New(node, scriptledger.Options{})
		},
	}
	for _, tc := range tests {
		for lname, newLedger := range ledgers {
			t.Run(tc.name+"/"+lname, func(t *testing.T) {
				v, err := r.Run(ctx, lf.TypeConID{PackageID: sp.ID, Module: "Test", Name: tc.name}, newLedger(t))
				if tc.fail != "" {
					if err == nil || !strings.Contains(err.Error(), tc.fail) {
						t.Fatalf("got %v (result %#v), want a failure with %q", err, v, tc.fail)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				tc.check(t, v)
			})
		}
	}
}

// TestSpliceScripts runs scripts of Splice's Amulet test suite, each on a
// fresh node: they must pass.
func TestSpliceScripts(t *testing.T) {
	data, dar := readDAR(t)
	ctx := context.Background()
	fx, err := scriptledger.NewFixture(ctx, ledger.Options{}, data)
	if err != nil {
		t.Fatal(err)
	}
	// The whole suite runs in examples/damlscript's TestSpliceAmuletSuite;
	// here, one script of each kind.
	ids := script.Discover(dar.Main)
	{
		keep := map[string]bool{
			"Splice.Scripts.Util:setupApp":                                                   true, // setup: parties, users, time, submissions
			"Splice.Scripts.TestExpiry:testEstimateOpenRoundCreatedAt":                       true, // Catch
			"Splice.Scripts.TestLockAndAmuletExpiry:testExpireAmulet":                        true, // MustFail, QueryContractId
			"Splice.Scripts.TestAmuletRulesTransferLimits:testTransferExceedsMaxLockHolders": true, // rollback of an archive
		}
		ids = slicesFilter(ids, func(id lf.TypeConID) bool { return keep[script.Name(id)] })
	}
	r := script.NewRunner(dar, script.Options{})
	start := time.Now()
	for _, id := range ids {
		t.Run(script.Name(id), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if _, err := fx.Run(ctx, r, id); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Logf("%d scripts in %v", len(ids), time.Since(start))
}

func slicesFilter(ids []lf.TypeConID, keep func(lf.TypeConID) bool) []lf.TypeConID {
	var out []lf.TypeConID
	for _, id := range ids {
		if keep(id) {
			out = append(out, id)
		}
	}
	return out
}

// TestSetVetted: vetPackages/unvetPackages change the node's vetting, and
// the package list's vetted flags (listVettedPackages) follow; an unknown
// package fails.
func TestSetVetted(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	dar, _ := lftest.DAR(lftest.IouPackage("1.0.0"))
	ledgertest.MustUploadDAR(t, node, dar)
	l := scriptledger.New(node, scriptledger.Options{})
	listed := func() bool {
		t.Helper()
		ps, err := l.Packages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Name == "iou" && p.Version == "1.0.0" {
				return p.Vetted
			}
		}
		return false
	}
	if !listed() {
		t.Fatal("iou 1.0.0 is not vetted after the upload")
	}
	iou := []script.PackageInfo{{Name: "iou", Version: "1.0.0"}}
	if err := l.SetVetted(ctx, iou, false); err != nil {
		t.Fatalf("unvet: %v", err)
	}
	if listed() {
		t.Error("iou 1.0.0 is still vetted after unvetPackages")
	}
	if err := l.SetVetted(ctx, iou, true); err != nil {
		t.Fatalf("vet: %v", err)
	}
	if !listed() {
		t.Error("iou 1.0.0 is not vetted after vetPackages")
	}
	if err := l.SetVetted(ctx, []script.PackageInfo{{Name: "nope", Version: "1.0.0"}}, true); err == nil {
		t.Error("vetting an unknown package succeeded")
	}
}

// TestDisclosures: a script's sDisclosures reach the node: carol, no
// stakeholder, exercises a choice on alice's contract with its blob (as
// queryDisclosure gives it), and cannot without.
func TestDisclosures(t *testing.T) {
	t.Parallel()
	node := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	pkg := lftest.Package{Name: "rules", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "Rules", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "Rules", Choices: []lftest.Choice{{Name: "Look", Arg: lftest.B(lftest.Party), Ret: lftest.B(lftest.Unit),
			Controllers: &lf.ECons{Type: party, Front: []lf.Expr{&lf.EVar{Name: "arg"}}, Tail: &lf.ENil{Type: party}}}}}},
	}}}
	dar, ids := lftest.DAR(pkg)
	ledgertest.MustUploadDAR(t, node, dar)
	alice, carol := ledgertest.MustAllocate(t, node, "alice"), ledgertest.MustAllocate(t, node, "carol")
	l := scriptledger.New(node, scriptledger.Options{})
	tid := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Rules"}
	created, err := l.Submit(ctx, &script.Submission{ActAs: []string{alice}, Commands: []script.Command{{Kind: script.CreateCmd, TemplateID: tid,
		ExplicitPackageID: true, Arg: value.Record{RecordID: &tid, Fields: []value.RecordField{{Label: "owner", Value: value.Party(alice)}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	var cid string
	for _, nd := range created.Nodes {
		if c, ok := nd.(*tx.Create); ok {
			cid = string(c.ContractID)
		}
	}
	c, blob, err := l.ContractWithBlob(ctx, []string{alice}, cid)
	if err != nil || c == nil || string(c.ID) != cid || len(blob) == 0 {
		t.Fatalf("contract %v, blob %x, %v", c, blob, err)
	}
	pkgs, err := node.PackageSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Over HTTP the script's submissions are participant_admin's (the
	// token's user), which may act as carol once granted.
	srv, token := ledgertest.Serve(t, node)
	if _, err := node.GrantUserRights(ctx, identity.DefaultParticipantAdmin, "", []identity.Right{{Kind: identity.RightCanActAs, Party: carol}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		l    script.Ledger
	}{
		{"in process", l},
		{"over the JSON Ledger API", scriptledger.NewRemote(srv.URL, token, pkgs)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			look := &script.Submission{ActAs: []string{carol}, Commands: []script.Command{{Kind: script.ExerciseCmd, TemplateID: tid, ExplicitPackageID: true,
				ContractID: cid, Choice: "Look", ChoiceArg: value.Party(carol)}}}
			_, err := tc.l.Submit(ctx, look)
			var se *script.SubmitError
			if !errors.As(err, &se) {
				t.Fatalf("carol without a disclosure: %v, want a *script.SubmitError", err)
			}
			if diff := cmp.Diff(&script.SubmitError{Code: "CONTRACT_NOT_FOUND", Message: se.Message, ContractIDs: []string{cid}}, se); diff != "" {
				t.Errorf("carol without a disclosure (-want +got):\n%s", diff)
			}
			look.Disclosures = []script.Disclosure{{ContractID: cid, Blob: blob}}
			if _, err := tc.l.Submit(ctx, look); err != nil {
				t.Errorf("carol with the disclosure: %v", err)
			}
		})
	}
}
