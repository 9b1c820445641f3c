package script_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/engine/prim"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/script/scripttest"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// lineLedger is a Ledger for the library-line tests: it records what the
// runner asked of it and answers from its fields.
type lineLedger struct {
	script.Ledger // nil: unexpected questions panic
	// hints are the hints AllocateParty received, known the parties it
	// allocated.
	hints []string
	known []script.PartyDetails
	// subs are the submissions Submit received; reject is its rejection
	// (nil: it commits the creates of the submission).
	subs   []*script.Submission
	reject error
	// contracts are the active contracts; queried the parties of the
	// queries.
	contracts []engine.Contract
	queried   [][]string
	// vetting records SetVetted calls.
	vetting []vetCall
}

type vetCall struct {
	Packages []script.PackageInfo
	Vetted   bool
}

func (l *lineLedger) Time(context.Context) (time.Time, error) { return time.Unix(1, 0).UTC(), nil }

func (l *lineLedger) AllocateParty(_ context.Context, hint string) (string, error) {
	l.hints = append(l.hints, hint)
	p := hint + "::1220ab"
	l.known = append(l.known, script.PartyDetails{Party: p, IsLocal: true})
	return p, nil
}

func (l *lineLedger) KnownParties(context.Context) ([]script.PartyDetails, error) {
	return l.known, nil
}

func (l *lineLedger) Submit(_ context.Context, s *script.Submission) (*tx.Transaction, error) {
	l.subs = append(l.subs, s)
	if l.reject != nil {
		return nil, l.reject
	}
	t := &tx.Transaction{}
	for _, c := range s.Commands {
		if c.Kind == script.CreateCmd {
			t.Roots = append(t.Roots, tx.NodeID(len(t.Nodes)))
			t.Nodes = append(t.Nodes, &tx.Create{ContractID: value.ContractID(cid(len(t.Nodes) + 1)), TemplateID: c.TemplateID, Arg: c.Arg})
		}
	}
	return t, nil
}

func (l *lineLedger) Contracts(_ context.Context, parties []string, match func(lf.TypeConID) bool) ([]engine.Contract, error) {
	l.queried = append(l.queried, parties)
	var out []engine.Contract
	for _, c := range l.contracts {
		if match(c.TemplateID) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (l *lineLedger) SetVetted(_ context.Context, ps []script.PackageInfo, vetted bool) error {
	l.vetting = append(l.vetting, vetCall{ps, vetted})
	return nil
}

func cid(i int) string { return fmt.Sprintf("00%064x", i) }

// lineEnv is a synthetic library of one line, a test package of scripts
// (Test:<name>) written against it, and a runner over both.
type lineEnv struct {
	line scripttest.Line
	lib  *scripttest.Library
	// test is the test package id; tpl its template-like record T
	// {owner : Party, n : Int64} and choice its choice-argument record C.
	test        string
	tpl, choice lf.TypeConID
	r           *script.Runner
}

func newLineEnv(t *testing.T, line scripttest.Line, scripts map[string]func(e *lineEnv, b *scripttest.Builder) lf.Expr) *lineEnv {
	t.Helper()
	lib := scripttest.NewLibrary(t, line)
	b := lib.Builder()
	// The test package's own types are referenced by the id it will get:
	// Self in declarations, SelfID in expressions.
	e := &lineEnv{line: lib.Line, lib: lib, tpl: lf.TypeConID{Module: "Test", Name: "T"}, choice: lf.TypeConID{Module: "Test", Name: "C"}}
	exprs := map[string]lf.Expr{}
	for name, s := range scripts {
		exprs[name] = s(e, b)
	}
	pm, pkg := withTestPackage(t, lib.Packages, lftest.Package{Minor: "1", Name: "script-tests", Version: "1.0.0", Modules: []lftest.Module{{
		Name: "Test",
		DataTypes: []lftest.DataType{
			{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}, {Name: "n", Type: lftest.B(lftest.Int64)}}},
			{Name: "C", Serializable: true},
			{Name: "K", Serializable: true, Fields: []lftest.Field{{Name: "k", Type: lftest.B(lftest.Text)}}},
		},
		Values: b.Values(exprs),
	}}})
	e.test, e.tpl.PackageID, e.choice.PackageID = pkg.ID, pkg.ID, pkg.ID
	e.r = script.NewRunner(pm, script.Options{})
	return e
}

// keyK is the test package's key record K {k : Text} (to_any, which the
// stable AnyContractKey takes, takes only data types before LF 2.dev).
var keyK = lf.TypeConID{Module: "Test", Name: "K"}

// keyArg is the key K {k}.
func keyArg(k string) lf.Expr { return scripttest.Record(keyK, 0, "k", scripttest.Text(k)) }

// keyValue is the ledger value of the key K {k}.
func (e *lineEnv) keyValue(k string) value.Value {
	id := lf.TypeConID{PackageID: e.test, Module: "Test", Name: "K"}
	return value.Record{RecordID: &id, Fields: []value.RecordField{{Label: "k", Value: value.Text(k)}}}
}

func (e *lineEnv) run(t *testing.T, name string, l script.Ledger) (engine.Value, error) {
	t.Helper()
	return e.r.Run(context.Background(), lf.TypeConID{PackageID: e.test, Module: "Test", Name: name}, l)
}

// library is the library's name-version, as an unknown question names it.
func (e *lineEnv) library() string {
	p := e.lib.Packages[0]
	return p.Name + "-" + p.Version
}

var tuple = lf.TypeConID{PackageID: "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4", Module: "DA.Types", Name: "Tuple2"}

// tArg is the argument T {owner = p, n}; self references resolve in the
// test package.
func tArg(p lf.Expr, n int64) lf.Expr {
	return scripttest.Record(lf.TypeConID{Module: "Test", Name: "T"}, 0, "owner", p, "n", scripttest.Int(n))
}

func pair(a, b lf.Expr) lf.Expr { return scripttest.Record(tuple, 2, "_1", a, "_2", b) }

// submitCreate allocates alice and submits a create of T with the
// behaviour, continuing with the answer.
func submitCreate(e *lineEnv, b *scripttest.Builder, behaviour scripttest.Behaviour, then func(lf.Expr) lf.Expr) lf.Expr {
	return b.Alloc("alice", func(p lf.Expr) lf.Expr {
		return b.Ask("Submit", b.Version("Submit"), b.Submit(p, behaviour, b.CreateCmd(lf.TypeConID{Module: "Test", Name: "T"}, tArg(p, 1))), then)
	})
}

// lineCase is a script run on every line in lines (all when nil); check
// inspects its result or its failure and what the ledger recorded.
type lineCase struct {
	lines  []scripttest.Line
	script func(e *lineEnv, b *scripttest.Builder) lf.Expr
	ledger func(e *lineEnv, l *lineLedger)
	check  func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger)
}

// TestLibraryLines runs scripts against a synthetic daml-script library
// of each line (scripttest.Lines) and checks what the runner read from
// the line's payloads and the shape of the answers it built.
func TestLibraryLines(t *testing.T) {
	t.Parallel()
	from := func(l scripttest.Line) []scripttest.Line {
		var out []scripttest.Line
		for _, x := range scripttest.Lines {
			if x >= l {
				out = append(out, x)
			}
		}
		return out
	}
	failureStatus := func() lf.Expr {
		return scripttest.FailureStatus("splice/insufficient-funds", lf.InvalidIndependentOfSystemState, "not enough", [2]string{"amount", "10"})
	}
	failWithStatus := func(b *scripttest.Builder) lf.Expr {
		return b.Ask("FailWithStatus", 1, b.Payload("Exceptions", "FailWithStatus", "status", failureStatus()), b.Pure)
	}
	tryFailureStatus := func(b *scripttest.Builder, inner lf.Expr) lf.Expr {
		act := b.Lam(func(lf.Expr) lf.Expr { return b.Script(inner) })
		return b.Ask("TryFailureStatus", 1, b.Payload("Exceptions", "TryFailureStatus", "act", act, "dummy", scripttest.Unit()), b.Pure)
	}
	wantFailWithStatus := func(t *testing.T, _ *lineEnv, v engine.Value, err error, _ *lineLedger) {
		t.Helper()
		var ee *engine.Error
		var se *script.Error
		if !errors.As(err, &se) || !errors.As(err, &ee) {
			t.Fatalf("got %v, %v; want a *script.Error with the *engine.Error FailureStatus", v, err)
		}
		want(t, ee, &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: "splice/insufficient-funds", Category: 8,
			Message: "not enough", Metadata: map[string]string{"amount": "10"}})
	}
	wantLeftStatus := func(id string, category int64, msg string, meta map[string]string) func(*testing.T, *lineEnv, engine.Value, error, *lineLedger) {
		return func(t *testing.T, _ *lineEnv, v engine.Value, err error, _ *lineLedger) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			left, ok := v.(*engine.Variant)
			if !ok || left.Con != "Left" {
				t.Fatalf("got %#v, want Left FailureStatus", v)
			}
			want(t, failureStatusOf(t, left.Value), map[string]any{"errorId": id, "category": category, "message": msg, "meta": meta})
		}
	}
	keyed := func(e *lineEnv, l *lineLedger) {
		c := func(i int, key string) engine.Contract {
			arg := value.Record{RecordID: &e.tpl, Fields: []value.RecordField{{Label: "owner", Value: value.Party("alice::1220ab")}, {Label: "n", Value: value.Int64(i)}}}
			return engine.Contract{ID: engine.ContractID(cid(i)), TemplateID: e.tpl, Arg: arg, Key: &tx.KeyWithMaintainers{Key: e.keyValue(key)}}
		}
		l.contracts = []engine.Contract{c(1, "k"), c(2, "other"), c(3, "k")}
	}
	queryKey := func(e *lineEnv, b *scripttest.Builder, name string, limit int64) lf.Expr {
		return b.Alloc("alice", func(p lf.Expr) lf.Expr {
			key := b.ContractKey(e.tpl, &lf.TCon{ID: keyK}, keyArg("k"))
			tpl := scripttest.TemplateTypeRep(lf.TypeConID{Module: "Test", Name: "T"})
			switch name {
			case "QueryNByKey":
				return b.Ask(name, 1, b.Payload("Query", name, "parties", scripttest.List(p), "tplId", tpl, "contractKey", key, "limit", scripttest.Int(limit)), b.Pure)
			case "QueryByKey":
				return b.Ask(name, b.Version(name), b.Payload("Query", name, "parties", scripttest.List(p), "tplId", tpl, "key", key), b.Pure)
			}
			return b.Ask(name, 1, b.Payload("Query", name, "parties", scripttest.List(p), "tplId", tpl, "key", key), b.Pure)
		})
	}
	wantContracts := func(ns ...int) func(*testing.T, *lineEnv, engine.Value, error, *lineLedger) {
		return func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range listOf(t, v) {
				r := x.(*engine.Record)
				arg := r.Fields[1].(*engine.Record).Fields[0].(*engine.Any)
				got = append(got, fmt.Sprintf("%s n=%v %s", r.Fields[0], arg.Value.(*engine.Record).Fields[1], typeName(arg.Type)))
			}
			var wantS []string
			for _, n := range ns {
				wantS = append(wantS, fmt.Sprintf("%s n=%d Test:T", cid(n), n))
			}
			want(t, got, wantS)
			want(t, l.queried, [][]string{{"alice::1220ab"}})
		}
	}
	vet := func(name string) func(e *lineEnv, b *scripttest.Builder) lf.Expr {
		return func(e *lineEnv, b *scripttest.Builder) lf.Expr {
			pkg := scripttest.Record(lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.Packages", Name: "PackageName"}, 0,
				"name", scripttest.Text("foo"), "version", scripttest.Text("1.0.0"))
			fields := []any{"packages", scripttest.List(pkg)}
			if e.line >= scripttest.S33g {
				fields = append(fields, "participant", scripttest.None())
			}
			return b.Ask(name, 1, b.Payload("Packages", name, fields...), b.Pure)
		}
	}
	keyPair := lf.TypeConID{Module: "Daml.Script.Internal.Questions.Crypto.Text", Name: "Secp256k1KeyPair"}
	sign := func(b *scripttest.Builder, question string, kp lf.Expr, msg string, then func(lf.Expr) lf.Expr) lf.Expr {
		id := keyPair
		id.PackageID = b.DS
		return b.Ask(question, 1, b.Payload("Crypto.Text", question,
			"privateKey", scripttest.Project(id, 0, "privateKey", kp), "message", scripttest.Text(msg)), then)
	}

	cases := map[string]lineCase{
		// AllocateParty: 3.2 uses the display name made unique with a
		// number; later lines add a random suffix to the requested name.
		"allocateByName": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.AllocNamed("alice", "", func(p1 lf.Expr) lf.Expr {
					return b.AllocNamed("alice", "", func(p2 lf.Expr) lf.Expr { return b.Pure(pair(p1, p2)) })
				})
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				if e.line == scripttest.S32 {
					want(t, l.hints, []string{"alice", "alice1"})
				} else {
					re := regexp.MustCompile(`^alice-[0-9a-f]{8}$`)
					if len(l.hints) != 2 || !re.MatchString(l.hints[0]) || !re.MatchString(l.hints[1]) || l.hints[0] == l.hints[1] {
						t.Errorf("hints %q, want two distinct alice-<8 hex>", l.hints)
					}
				}
				r := v.(*engine.Record)
				want(t, []engine.Value{r.Fields[0], r.Fields[1]}, []engine.Value{engine.Party(l.hints[0] + "::1220ab"), engine.Party(l.hints[1] + "::1220ab")})
			},
		},
		"allocateEmptyName": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return b.AllocNamed("", "", b.Pure) },
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				if e.line == scripttest.S32 {
					want(t, l.hints, []string{"party"})
				} else if len(l.hints) != 1 || !regexp.MustCompile(`^party-[0-9a-f]{8}$`).MatchString(l.hints[0]) {
					t.Errorf("hints %q, want party-<8 hex>", l.hints)
				}
			},
		},
		// A hint that differs from the name: the hint in 3.2, a refusal
		// later.
		"allocateHint": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return b.AllocNamed("Alice", "alice", b.Pure) },
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if e.line == scripttest.S32 {
					if err != nil {
						t.Fatal(err)
					}
					want(t, l.hints, []string{"alice"})
					return
				}
				wantFail(t, err, "Requested name 'Alice' cannot be different from id hint 'alice'")
				want(t, l.hints, []string(nil))
			},
		},
		"allocateInvalidName": {
			lines:  []scripttest.Line{scripttest.S32},
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return b.AllocNamed("al!ce", "", b.Pure) },
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				wantFail(t, err, "Command AllocateParty failed: Invalid party name: al!ce")
				if !strings.HasSuffix(err.Error(), "al!ce") {
					t.Errorf("failure %v, want the display name itself refused", err)
				}
				want(t, l.hints, []string(nil))
			},
		},
		// ListKnownParties answers the library's PartyDetails: with
		// displayName in 3.2.
		"listKnownParties": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Alloc("alice", func(lf.Expr) lf.Expr {
					return b.Ask("ListKnownParties", 1, b.Payload("PartyManagement", "ListKnownParties", "participant", scripttest.None()), b.Pure)
				})
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				ps := listOf(t, v)
				if len(ps) != 1 {
					t.Fatalf("got %d parties, want 1", len(ps))
				}
				r := ps[0].(*engine.Record)
				if e.line == scripttest.S32 {
					want(t, r.Type.Fields, []string{"party", "displayName", "isLocal"})
					want(t, r.Fields, []engine.Value{engine.Party("alice::1220ab"), engine.Some(engine.Text("alice")), engine.Bool(true)})
				} else {
					want(t, r.Type.Fields, []string{"party", "isLocal"})
					want(t, r.Fields, []engine.Value{engine.Party("alice::1220ab"), engine.Bool(true)})
				}
			},
		},
		// Submit: the Submission of every line is read (7 fields in 3.2,
		// 8 later; Submit v2 and the library's own AnyContractKey in
		// 3.5), the answer is [Right ([CreateResult cid], tree)].
		"submit": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Alloc("alice", func(p lf.Expr) lf.Expr {
					tpl := lf.TypeConID{Module: "Test", Name: "T"}
					key := b.ContractKey(tpl, &lf.TCon{ID: keyK}, keyArg("k"))
					return b.Ask("Submit", b.Version("Submit"), b.Submit(p, scripttest.MustSucceed,
						b.CreateCmd(tpl, tArg(p, 1)),
						b.ExerciseByKeyCmd(tpl, key, lf.TypeConID{Module: "Test", Name: "C"}, scripttest.Record(lf.TypeConID{Module: "Test", Name: "C"}, 0))), b.Pure)
				})
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				tpl, choice := e.tpl, e.choice
				want(t, l.subs, []*script.Submission{{ActAs: []string{"alice::1220ab"}, Commands: []script.Command{
					{Kind: script.CreateCmd, TemplateID: tpl, Arg: value.Record{RecordID: &tpl, Fields: []value.RecordField{{Label: "owner", Value: value.Party("alice::1220ab")}, {Label: "n", Value: value.Int64(1)}}}},
					{Kind: script.ExerciseByKeyCmd, TemplateID: tpl, Key: e.keyValue("k"), Choice: "C", ChoiceArg: value.Record{RecordID: &choice}},
				}}})
				answers := listOf(t, v)
				if len(answers) != 1 {
					t.Fatalf("%d answers, want 1", len(answers))
				}
				right := answers[0].(*engine.Variant)
				wantNow(t, right.Con, "Right")
				res := right.Value.(*engine.Record)
				results := listOf(t, res.Fields[0])
				want(t, results, []engine.Value{&engine.Variant{ID: lf.TypeConID{PackageID: e.lib.ID, Module: "Daml.Script.Internal.Questions.Commands", Name: "CommandResult"},
					Con: "CreateResult", Rank: 0, Value: engine.ContractID(cid(1))}})
				tree := res.Fields[1].(*engine.Record)
				want(t, tree.Type.ID, lf.TypeConID{PackageID: e.lib.ID, Module: "Daml.Script.Internal.Questions.TransactionTree", Name: "TransactionTree"})
				want(t, len(listOf(t, tree.Fields[0])), 1)
			},
		},
		"submitMustFailSucceeds": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return submitCreate(e, b, scripttest.MustFail, b.Pure)
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				wantFail(t, err, "Command Submit failed: Expected submit to fail but it succeeded")
				var qe *script.QuestionError
				if !errors.As(err, &qe) || qe.Command != "Submit" {
					t.Errorf("failure %v, want a QuestionError of Submit", err)
				}
				want(t, len(l.subs), 1)
			},
		},
		// A failWithStatus in the transaction: a FailureStatusError from
		// S33g on, at the rank the line gives it; an UnknownError naming
		// the constructor before.
		"trySubmitFailureStatus": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return submitCreate(e, b, scripttest.Try, b.Pure) },
			ledger: func(e *lineEnv, l *lineLedger) {
				l.reject = &script.SubmitError{Code: "DAML_FAILURE", Message: "Interpretation error: User failure: …",
					FailureStatus: &script.FailureStatus{ErrorID: "splice/insufficient-funds", Category: 8, Message: "not enough", Metadata: map[string]string{"amount": "10"}}}
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				se := submitErrorOf(t, v, err)
				switch e.line {
				case scripttest.S32, scripttest.S33c:
					want(t, []any{se.Con, se.Rank, se.Value.(*engine.Record).Fields},
						[]any{"UnknownError", 21, []engine.Value{engine.Text("Outdated daml-script library failed to represent FailureStatusError error as SubmitError")}})
				default:
					rank := map[scripttest.Line]int{scripttest.S33g: 22, scripttest.S34: 23, scripttest.S35: 23}[e.line]
					wantNow(t, []any{se.Con, se.Rank}, []any{"FailureStatusError", rank})
					want(t, failureStatusOf(t, se.Value.(*engine.Record).Fields[0]), map[string]any{"errorId": "splice/insufficient-funds",
						"category": int64(8), "message": "not enough", "meta": map[string]string{"amount": "10"}})
				}
			},
		},
		// An unhandled exception in the transaction: the UnhandledException
		// older lines' runners reported, a FailureStatusError later.
		"trySubmitUnhandled": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return submitCreate(e, b, scripttest.Try, b.Pure) },
			ledger: func(e *lineEnv, l *lineLedger) {
				l.reject = &script.SubmitError{Code: "DAML_FAILURE", Message: "…", Exception: &engine.Any{Type: &lf.TCon{ID: engine.ArithmeticErrorID}, Value: engine.Text("boom")},
					FailureStatus: &script.FailureStatus{ErrorID: "UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError", Category: 9, Message: "boom"}}
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				se := submitErrorOf(t, v, err)
				if e.line <= scripttest.S33c {
					wantNow(t, []any{se.Con, se.Rank}, []any{"UnhandledException", 6})
					exc := se.Value.(*engine.Record).Fields[0].(engine.Optional).Value.(*engine.Any)
					want(t, exc.Value, engine.Text("boom"))
					return
				}
				want(t, se.Con, "FailureStatusError")
			},
		},
		"unknownVersion": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("AllocateParty", 3, b.Payload("PartyManagement", "AllocateParty", "requestedName", scripttest.Text(""),
					"idHint", scripttest.Text(""), "participant", scripttest.None()), b.Pure)
			},
			lines: []scripttest.Line{scripttest.S33c},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				wantFail(t, err, "Unknown command AllocateParty - Version 3 (asked by daml-script-3.3.0.20250214.13611.0)")
				var ue *script.UnknownQuestionError
				if !errors.As(err, &ue) {
					t.Fatalf("failure %v, want an *UnknownQuestionError", err)
				}
				want(t, *ue, script.UnknownQuestionError{Name: "AllocateParty", Version: 3, Library: e.library()})
			},
		},
		"unknownQuestion": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("GetTime", 2, b.Payload("Time", "GetTime"), b.Pure)
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				wantFail(t, err, "Unknown command GetTime - Version 2 (asked by "+e.library()+")")
			},
		},
		// The library's dangerousCast is the identity, daml3-script's too.
		"dangerousCast": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Pure(b.Cast(scripttest.Int(42), &lf.TBuiltin{Builtin: lf.BuiltinInt64}))
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				want(t, v, engine.Int64(42))
			},
		},
		"vetPackages": {
			script: vet("VetPackages"),
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				want(t, l.vetting, []vetCall{{[]script.PackageInfo{{Name: "foo", Version: "1.0.0"}}, true}})
			},
		},
		"unvetPackages": {
			script: vet("UnvetPackages"),
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				want(t, l.vetting, []vetCall{{[]script.PackageInfo{{Name: "foo", Version: "1.0.0"}}, false}})
			},
		},
		// QueryContractKey (to 3.4, the stable AnyContractKey) and
		// QueryByKey v2 (3.5, the bare key): the newest contract with the
		// key.
		"queryContractKey": {
			lines:  []scripttest.Line{scripttest.S32, scripttest.S33c, scripttest.S33g, scripttest.S34},
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return queryKey(e, b, "QueryContractKey", 0) },
			ledger: keyed,
			check:  optionalContract(3),
		},
		"queryByKey": {
			lines:  []scripttest.Line{scripttest.S35},
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return queryKey(e, b, "QueryByKey", 0) },
			ledger: keyed,
			check:  optionalContract(3),
		},
		"queryNByKey": {
			lines:  []scripttest.Line{scripttest.S35},
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return queryKey(e, b, "QueryNByKey", 1) },
			ledger: keyed,
			check:  wantContracts(3),
		},
		// queryAllByKey: limit maxBound.
		"queryAllByKey": {
			lines:  []scripttest.Line{scripttest.S35},
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return queryKey(e, b, "QueryNByKey", 1<<63-1) },
			ledger: keyed,
			check:  wantContracts(3, 1),
		},
		// queryACSTwice: each query asks the ledger, and a contract's
		// argument is converted once per script (session.contractArg):
		// the second answer holds the first's argument values.
		"queryACSTwice": {
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Alloc("alice", func(p lf.Expr) lf.Expr {
					tpl := scripttest.TemplateTypeRep(lf.TypeConID{Module: "Test", Name: "T"})
					q := func(then func(lf.Expr) lf.Expr) lf.Expr {
						return b.Ask("QueryACS", 1, b.Payload("Query", "QueryACS", "parties", scripttest.List(p), "tplId", tpl), then)
					}
					return q(func(a lf.Expr) lf.Expr { return q(func(b2 lf.Expr) lf.Expr { return b.Pure(pair(a, b2)) }) })
				})
			},
			ledger: keyed,
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				var args [2][]engine.Value
				for i, q := range v.(*engine.Record).Fields {
					var got []string
					for _, x := range listOf(t, q) {
						r := x.(*engine.Record)
						arg := r.Fields[1].(*engine.Record).Fields[0].(*engine.Any)
						got = append(got, fmt.Sprintf("%s n=%v %s", r.Fields[0], arg.Value.(*engine.Record).Fields[1], typeName(arg.Type)))
						args[i] = append(args[i], arg.Value)
					}
					want(t, got, []string{cid(1) + " n=1 Test:T", cid(2) + " n=2 Test:T", cid(3) + " n=3 Test:T"})
				}
				for i := range args[0] {
					if args[0][i] != args[1][i] {
						t.Errorf("contract %d: its argument was converted again", i+1)
					}
				}
				want(t, l.queried, [][]string{{"alice::1220ab"}, {"alice::1220ab"}})
			},
		},
		"queryNByKeyZero": {
			lines:  []scripttest.Line{scripttest.S35},
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return queryKey(e, b, "QueryNByKey", 0) },
			ledger: keyed,
			check:  wantContracts(),
		},
		// FailWithStatus fails the script with the FailureStatus; neither
		// Catch nor TryCommands catches it.
		"failWithStatus": {
			lines:  from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return failWithStatus(b) },
			check:  wantFailWithStatus,
		},
		"catchFailWithStatus": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				act := b.Lam(func(lf.Expr) lf.Expr { return b.Script(failWithStatus(b)) })
				return b.Ask("Catch", 1, b.Payload("Exceptions", "Catch", "act", act, "dummy", scripttest.Unit()), b.Pure)
			},
			check: wantFailWithStatus,
		},
		"tryCommandsFailWithStatus": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("TryCommands", 1, b.Payload("Testing", "TryCommands", "act", b.Script(failWithStatus(b))), b.Pure)
			},
			check: wantFailWithStatus,
		},
		// TryFailureStatus: Left the FailureStatus of a FailWithStatus or
		// of an exception nothing caught; Right the result; a failed
		// question goes through.
		"tryFailureStatusFail": {
			lines:  from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return tryFailureStatus(b, failWithStatus(b)) },
			check:  wantLeftStatus("splice/insufficient-funds", 8, "not enough", map[string]string{"amount": "10"}),
		},
		"tryFailureStatusThrow": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return tryFailureStatus(b, b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", scripttest.ArithmeticError("boom")), b.Pure))
			},
			check: wantLeftStatus("UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError", 9, "boom", map[string]string{}),
		},
		"tryFailureStatusPureThrow": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return tryFailureStatus(b, b.Ask("GetTime", 1, b.Payload("Time", "GetTime"), func(lf.Expr) lf.Expr { return scripttest.ThrowArithmetic("pure boom") }))
			},
			check: wantLeftStatus("UNHANDLED_EXCEPTION/DA.Exception.ArithmeticError:ArithmeticError", 9, "pure boom", map[string]string{}),
		},
		// The pseudo-exceptions of 3.3 on, records without a message
		// function, get the JVM runner's fixed messages.
		"tryFailureStatusPseudo": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return tryFailureStatus(b, b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", userException(b, "UserAlreadyExists", "bob")), b.Pure))
			},
			check: wantLeftStatus("UNHANDLED_EXCEPTION/Daml.Script.Internal.Questions.UserManagement:UserAlreadyExists", 9, "User already exists: bob", map[string]string{}),
		},
		"throwPseudo": {
			lines: from(scripttest.S33c),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("Throw", 1, b.Payload("Exceptions", "Throw", "exc", userException(b, "UserNotFound", "bob")), b.Pure)
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				var te *script.ThrowError
				if !errors.As(err, &te) {
					t.Fatalf("got %v, %v; want a ThrowError", v, err)
				}
				want(t, te.Message, "User not found: bob")
			},
		},
		"tryFailureStatusOK": {
			lines:  from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr { return tryFailureStatus(b, b.Pure(scripttest.Int(7))) },
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				if err != nil {
					t.Fatal(err)
				}
				r := v.(*engine.Variant)
				want(t, []any{r.Con, r.Value}, []any{"Right", engine.Value(engine.Int64(7))})
			},
		},
		"tryFailureStatusQuestion": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return tryFailureStatus(b, b.Ask("Frobnicate", 1, b.Payload("Time", "GetTime"), b.Pure))
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				wantFail(t, err, "Unknown command Frobnicate - Version 1")
			},
		},
		// Secp256k1: a generated key pair signs verifiably, the same
		// signature twice.
		"secp256k1Sign": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("Secp256k1GenerateKeyPair", 1, b.Payload("Crypto.Text", "Secp256k1GenerateKeyPair"), func(kp lf.Expr) lf.Expr {
					return sign(b, "Secp256k1Sign", kp, "deadbeef", func(s1 lf.Expr) lf.Expr {
						return sign(b, "Secp256k1Sign", kp, "deadbeef", func(s2 lf.Expr) lf.Expr {
							return b.Pure(scripttest.Record(tuple, 2, "_1", kp, "_2", pair(s1, s2)))
						})
					})
				})
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				pub, sigs := signed(t, v, err)
				want(t, sigs[0], sigs[1])
				ok, verr := prim.Secp256k1Bool(sigs[0], "deadbeef", pub)
				if verr != nil || !ok {
					t.Errorf("SECP256K1_BOOL(%s, deadbeef, %s) = %v, %v; want true", sigs[0], pub, ok, verr)
				}
				if ok, _ := prim.Secp256k1Bool(sigs[0], "deadbeee", pub); ok {
					t.Errorf("the signature verifies another message")
				}
			},
		},
		"secp256k1WithEcdsaSign": {
			lines: from(scripttest.S34),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("Secp256k1GenerateKeyPair", 1, b.Payload("Crypto.Text", "Secp256k1GenerateKeyPair"), func(kp lf.Expr) lf.Expr {
					return sign(b, "Secp256k1WithEcdsaSign", kp, strings.Repeat("ab", 32), func(s1 lf.Expr) lf.Expr {
						return b.Pure(scripttest.Record(tuple, 2, "_1", kp, "_2", pair(s1, s1)))
					})
				})
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				pub, sigs := signed(t, v, err)
				ok, verr := prim.Secp256k1WithECDSABool(sigs[0], strings.Repeat("ab", 32), pub)
				if verr != nil || !ok {
					t.Errorf("SECP256K1_WITH_ECDSA_BOOL = %v, %v; want true", ok, verr)
				}
			},
		},
		"secp256k1BadKey": {
			lines: from(scripttest.S33g),
			script: func(e *lineEnv, b *scripttest.Builder) lf.Expr {
				return b.Ask("Secp256k1Sign", 1, b.Payload("Crypto.Text", "Secp256k1Sign", "privateKey", scripttest.Text("3000"),
					"message", scripttest.Text("deadbeef")), b.Pure)
			},
			check: func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
				wantFail(t, err, "Command Secp256k1Sign failed: private key: not a DER PKCS#8 PrivateKeyInfo")
			},
		},
	}
	for _, line := range scripttest.Lines {
		scripts := map[string]func(e *lineEnv, b *scripttest.Builder) lf.Expr{}
		for name, c := range cases {
			if c.lines == nil || contains(c.lines, line) {
				scripts[name] = c.script
			}
		}
		e := newLineEnv(t, line, scripts)
		for name, c := range cases {
			if _, ok := scripts[name]; !ok {
				continue
			}
			t.Run(line.String()+"/"+name, func(t *testing.T) {
				l := &lineLedger{}
				if c.ledger != nil {
					c.ledger(e, l)
				}
				v, err := e.run(t, name, l)
				c.check(t, e, v, err, l)
			})
		}
	}
}

// userException is the library's pseudo-exception name {userId =
// UserId id}, as an AnyException (to_any, cast, as the library makes it).
func userException(b *scripttest.Builder, name, id string) lf.Expr {
	um := func(n string) lf.TypeConID {
		return lf.TypeConID{PackageID: b.DS, Module: "Daml.Script.Internal.Questions.UserManagement", Name: n}
	}
	uid := scripttest.Record(um("UserId"), 0, "unpack", scripttest.Text(id))
	return b.PseudoException(um(name), scripttest.Record(um(name), 0, "userId", uid))
}

func contains(ls []scripttest.Line, l scripttest.Line) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

func typeName(t lf.Type) string {
	if c, ok := t.(*lf.TCon); ok {
		return c.ID.Module + ":" + c.ID.Name
	}
	return fmt.Sprint(t)
}

func listOf(t *testing.T, v engine.Value) []engine.Value {
	t.Helper()
	l, ok := v.(*engine.List)
	if !ok {
		t.Fatalf("got %#v, want a list", v)
	}
	return l.Slice()
}

// wantNow is want, ending the test on a difference (when the checks
// after it depend on it).
func wantNow(t *testing.T, got, want any) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
}

// wantFail checks a failure is a *script.Error whose text has substr.
func wantFail(t *testing.T, err error, substr string) {
	t.Helper()
	var se *script.Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), substr) {
		t.Fatalf("failure %v, want a *script.Error with %q", err, substr)
	}
}

// failureStatusOf reads a FailureStatus record by field name.
func failureStatusOf(t *testing.T, v engine.Value) map[string]any {
	t.Helper()
	r, ok := v.(*engine.Record)
	if !ok || r.Type.ID.Name != "FailureStatus" || r.Type.ID.PackageID != "7adc4c2d07fa3a51173c843cba36e610c1168b2dbbf53076e20c0092eae8763d" {
		t.Fatalf("got %#v, want a stable FailureStatus", v)
	}
	out := map[string]any{}
	for i, f := range r.Type.Fields {
		switch x := r.Fields[i].(type) {
		case engine.Text:
			out[f] = string(x)
		case engine.Int64:
			out[f] = int64(x)
		case *engine.Map:
			m := map[string]string{}
			for j, k := range x.Keys {
				m[string(k.(engine.Text))] = string(x.Values[j].(engine.Text))
			}
			out[f] = m
		}
	}
	return out
}

// submitErrorOf reads the SubmitError of a Submit answer [Left e].
func submitErrorOf(t *testing.T, v engine.Value, err error) *engine.Variant {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	answers := listOf(t, v)
	if len(answers) != 1 {
		t.Fatalf("%d answers, want 1", len(answers))
	}
	left, ok := answers[0].(*engine.Variant)
	if !ok || left.Con != "Left" {
		t.Fatalf("answer %#v, want Left", answers[0])
	}
	return left.Value.(*engine.Variant)
}

// optionalContract checks Some (cid n, AnyTemplate T).
func optionalContract(n int) func(*testing.T, *lineEnv, engine.Value, error, *lineLedger) {
	return func(t *testing.T, e *lineEnv, v engine.Value, err error, l *lineLedger) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		o, ok := v.(engine.Optional)
		if !ok || o.Value == nil {
			t.Fatalf("got %#v, want Some", v)
		}
		r := o.Value.(*engine.Record)
		arg := r.Fields[1].(*engine.Record).Fields[0].(*engine.Any)
		want(t, []any{r.Fields[0], typeName(arg.Type), arg.Value.(*engine.Record).Fields[1]}, []any{engine.ContractID(cid(n)), "Test:T", engine.Value(engine.Int64(n))})
	}
}

// signed reads ((Secp256k1KeyPair, (sig1, sig2))): the public key and the
// signatures, checking the key pair's shape.
func signed(t *testing.T, v engine.Value, err error) (string, [2]string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r := v.(*engine.Record)
	kp := r.Fields[0].(*engine.Record)
	wantNow(t, []any{kp.Type.ID.Name, kp.Type.Fields}, []any{"Secp256k1KeyPair", []string{"privateKey", "publicKey"}})
	pub := string(kp.Fields[1].(engine.Text))
	if ok, err := prim.Secp256k1ValidateKey(pub); !ok || err != nil {
		t.Fatalf("public key %s: valid %v, %v", pub, ok, err)
	}
	s := r.Fields[1].(*engine.Record)
	return pub, [2]string{string(s.Fields[0].(engine.Text)), string(s.Fields[1].(engine.Text))}
}

// TestLineOf: the real libraries of the test DARs read as their lines.
func TestLineOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dar  string
		line scripttest.Line
	}{
		{"../../../shared/testdata/dars/splice-wallet-test-0.1.6.dar", scripttest.S32},
		{amuletTestDAR, scripttest.S33c},
	} {
		t.Run(tc.line.String(), func(t *testing.T) {
			dar, err := lf.ReadDAR(scripttest.ReadDAR(t, tc.dar), lf.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b := scripttest.ForDAR(dar)
			if b.DS == "" || b.Line != tc.line {
				t.Errorf("ForDAR: library %q of line %s, want line %s", b.DS, b.Line, tc.line)
			}
		})
	}
}
