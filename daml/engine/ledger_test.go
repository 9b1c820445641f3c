package engine

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// memStore is an in-memory ContractStore.
type memStore map[ContractID]*Contract

func (s memStore) Contract(_ context.Context, id ContractID) (*Contract, error) { return s[id], nil }

// commit adds the creates of a transaction to the store and removes the
// contracts its consuming exercises archive.
func (s memStore) commit(t *tx.Transaction) {
	for _, n := range t.Nodes {
		switch n := n.(type) {
		case *tx.Create:
			s[ContractID(n.ContractID)] = &Contract{ID: ContractID(n.ContractID), TemplateID: n.TemplateID, Arg: n.Arg,
				Signatories: n.Signatories, Stakeholders: n.Stakeholders}
		case *tx.Exercise:
			if n.Consuming {
				delete(s, ContractID(n.TargetID))
			}
		}
	}
}

func TestPingRespond(t *testing.T) {
	d := realPing(t)
	e := New(d, Options{})
	ctx := context.Background()
	ping := lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Ping"}
	respond := lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Respond"}
	arg, err := e.NewRecord(ping, Text("ping-1"), Party("alice"), Party("bob"))
	if err != nil {
		t.Fatal(err)
	}
	store := memStore{}

	// bob cannot create a Ping signed by alice.
	_, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store}, CreateCommand(ping, arg))
	if errKind(err) != ErrFailedAuthorization {
		t.Fatalf("create as bob: got %v, want FailedAuthorization", err)
	}
	wantAuth(t, err, tx.CreateMissingAuthorization, []string{"alice"}, []string{"bob"})

	res, err := e.Submit(ctx, Submission{ActAs: []string{"alice"}, Contracts: store}, CreateCommand(ping, arg))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Transaction.Roots) != 1 {
		t.Fatalf("roots %v", res.Transaction.Roots)
	}
	c, ok := res.Transaction.Nodes[0].(*tx.Create)
	if !ok {
		t.Fatalf("node 0 is %T", res.Transaction.Nodes[0])
	}
	if diff := cmp.Diff([]string{"alice"}, c.Signatories); diff != "" {
		t.Errorf("signatories: %s", diff)
	}
	if diff := cmp.Diff([]string{"alice", "bob"}, c.Stakeholders); diff != "" {
		t.Errorf("stakeholders: %s", diff)
	}
	if res.Results[0] != ContractID(c.ContractID) || len(c.ContractID) != 66 {
		t.Errorf("result %v, create %s", res.Results[0], c.ContractID)
	}
	store.commit(res.Transaction)
	cid := ContractID(c.ContractID)

	rarg, err := e.NewRecord(respond)
	if err != nil {
		t.Fatal(err)
	}
	// alice is not the controller.
	_, err = e.Submit(ctx, Submission{ActAs: []string{"alice"}, Contracts: store}, ExerciseCommand(ping, "Respond", cid, rarg))
	if errKind(err) != ErrFailedAuthorization {
		t.Fatalf("Respond as alice: got %v, want FailedAuthorization", err)
	}
	wantAuth(t, err, tx.ExerciseMissingAuthorization, []string{"bob"}, []string{"alice"})
	// An unknown contract.
	_, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store}, ExerciseCommand(ping, "Respond", "00ff", rarg))
	if errKind(err) != ErrContractNotFound {
		t.Fatalf("unknown contract: got %v", err)
	}
	res, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store}, ExerciseCommand(ping, "Respond", cid, rarg))
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := res.Transaction.Nodes[0].(*tx.Exercise)
	if !ok {
		t.Fatalf("node 0 is %T", res.Transaction.Nodes[0])
	}
	if ex.Choice != "Respond" || !ex.Consuming || ex.TargetID != value.ContractID(cid) || ex.Result == nil {
		t.Errorf("exercise node %+v", ex)
	}
	if diff := cmp.Diff([]string{"bob"}, ex.ActingParties); diff != "" {
		t.Errorf("acting parties: %s", diff)
	}
	t.Logf("Respond: %d nodes, children %v, result %s", len(res.Transaction.Nodes), ex.Children, ex.Result)

	// A contract whose argument the ledger decoded from JSON (labels,
	// type ids, every field) is used as one the engine recorded.
	jarg, err := value.FromJSON([]byte(`{"id":"ping-2","initiator":"alice","responder":"bob"}`),
		value.TypeOf(d.Main.ID, "Canton.Internal.Ping", "Ping"), value.PackageLookup(d.Packages...))
	if err != nil {
		t.Fatal(err)
	}
	jstore := memStore{"00aa": {ID: "00aa", TemplateID: ping, Arg: jarg, Signatories: []string{"alice"}, Stakeholders: []string{"bob", "alice"}}}
	res, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: jstore}, ExerciseCommand(ping, "Respond", "00aa", rarg))
	if err != nil {
		t.Fatalf("Respond on a contract from JSON: %v", err)
	}
	if diff := cmp.Diff([]value.ContractID{"00aa"}, res.Effects.Archived); diff != "" {
		t.Errorf("archived: %s", diff)
	}

	// Exercising twice in one transaction: the second is not active.
	_, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store},
		ExerciseCommand(ping, "Respond", cid, rarg), ExerciseCommand(ping, "Respond", cid, rarg))
	if errKind(err) != ErrContractNotActive {
		t.Fatalf("double Respond: got %v", err)
	}
	var inactive *tx.ContractNotActiveError
	if !errors.As(err, &inactive) || inactive.ContractID != value.ContractID(cid) || inactive.ConsumedBy != 0 || inactive.TemplateID != ping {
		t.Errorf("double Respond: cause %#v", inactive)
	}
}

// wantAuth checks that err is an *Error whose Cause is the Builder's
// *tx.AuthorizationError of the given kind, and that the Error's message
// is the Builder's (Speedy's) text.
func wantAuth(t *testing.T, err error, kind tx.AuthorizationKind, required, authorizers []string) {
	t.Helper()
	var ae *tx.AuthorizationError
	if !errors.As(err, &ae) {
		t.Errorf("%v: no *tx.AuthorizationError", err)
		return
	}
	if ae.Kind != kind || !cmp.Equal(required, ae.Required) || !cmp.Equal(authorizers, ae.Authorizers) {
		t.Errorf("authorization error %#v, want %v required %v authorizers %v", ae, kind, required, authorizers)
	}
	var ee *Error
	if errors.As(err, &ee); ee.Message != ae.Error() {
		t.Errorf("message %q, want %q", ee.Message, ae.Error())
	}
}

func BenchmarkPing(b *testing.B) {
	d := realPing(b)
	e := New(d, Options{})
	ctx := context.Background()
	ping := lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Ping"}
	respond := lf.TypeConID{PackageID: d.Main.ID, Module: "Canton.Internal.Ping", Name: "Respond"}
	arg, _ := e.NewRecord(ping, Text("ping-1"), Party("alice"), Party("bob"))
	rarg, _ := e.NewRecord(respond)
	res, err := e.Submit(ctx, Submission{ActAs: []string{"alice"}}, CreateCommand(ping, arg))
	if err != nil {
		b.Fatal(err)
	}
	store := memStore{}
	store.commit(res.Transaction)
	cid := res.Results[0].(ContractID)
	b.Run("create", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Submit(ctx, Submission{ActAs: []string{"alice"}}, CreateCommand(ping, arg)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("respond", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store}, ExerciseCommand(ping, "Respond", cid, rarg)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func txShape(t *tx.Transaction) string {
	var walk func(ids []tx.NodeID) string
	walk = func(ids []tx.NodeID) string {
		s := ""
		for i, id := range ids {
			if i > 0 {
				s += " "
			}
			switch n := t.Nodes[id].(type) {
			case *tx.Create:
				s += "Create"
			case *tx.Fetch:
				s += "Fetch"
			case *tx.Exercise:
				s += n.Choice
				if n.Result == nil {
					s += "!"
				}
				s += "(" + walk(n.Children) + ")"
			case *tx.Rollback:
				s += "Rollback(" + walk(n.Children) + ")"
			}
		}
		return s
	}
	return walk(t.Roots)
}

func TestTransactions(t *testing.T) {
	e := newTestEngine(nil, Options{})
	ctx := context.Background()
	store := memStore{}
	alice := Submission{ActAs: []string{"alice"}, Contracts: store}
	tArg := func(n int64) Value {
		r, err := e.NewRecord(tid("T"), Party("alice"), Int64(n))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	arg, err := e.NewRecord(tid("Arg"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Submit(ctx, alice, CreateCommand(tid("T"), tArg(-1)))
	if errKind(err) != ErrTemplatePreconditionViolated {
		t.Fatalf("precondition: got %v", err)
	}
	res, err := e.Submit(ctx, alice, CreateCommand(tid("T"), tArg(0)))
	if err != nil {
		t.Fatal(err)
	}
	store.commit(res.Transaction)
	cid := res.Results[0].(ContractID)

	res, err = e.Submit(ctx, alice,
		ExerciseCommand(tid("T"), "Peek", cid, arg),
		ExerciseCommand(tid("T"), "TryBump", cid, arg),
		ExerciseCommand(tid("T"), "Bump", cid, arg))
	if err != nil {
		t.Fatal(err)
	}
	want := "Peek(Fetch) TryBump(Rollback(Boom!(Create))) Bump(Create)"
	if got := txShape(res.Transaction); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if diff := cmp.Diff([]Value{tArg(0), Int64(0)}, res.Results[:2], cmp.Comparer(valueEq)); diff != "" {
		t.Errorf("results: %s", diff)
	}
	// The Bump's new contract is the third contract id drawn (the first
	// one was rolled back).
	if c := res.Transaction.Nodes[len(res.Transaction.Nodes)-1].(*tx.Create); c.Arg.(value.Record).Fields[1].Value != value.Int64(1) {
		t.Errorf("bumped %v", c.Arg)
	}
	// NUCK mode: the rollback of Boom's create and consumption fails.
	nuck := alice
	nuck.ForbidEffectfulRollback = true
	_, err = e.Submit(ctx, nuck, ExerciseCommand(tid("T"), "TryBump", cid, arg))
	var effectful *tx.EffectfulRollbackError
	if errKind(err) != ErrEffectfulRollback || !errors.As(err, &effectful) || len(effectful.Nodes) != 2 {
		t.Errorf("NUCK rollback: got %v", err)
	}
	// An exception in a choice's controllers is not catchable.
	_, err = e.Submit(ctx, alice, ExerciseCommand(tid("T"), "TryBadCtrl", cid, arg))
	if ee, ok := err.(*Error); !ok || ee.Kind != ErrFailureStatus || ee.Message != "E: controllers" {
		t.Errorf("throw in controllers inside try: got %v", err)
	}
	// bob cannot fetch alice's contract.
	_, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store}, ExerciseCommand(tid("T"), "Peek", cid, arg))
	if errKind(err) != ErrFailedAuthorization {
		t.Errorf("bob Peek: got %v", err)
	}
	wantAuth(t, err, tx.ExerciseMissingAuthorization, []string{"alice"}, []string{"bob"})
}

func TestInterfaces(t *testing.T) {
	e := newTestEngine(nil, Options{})
	ctx := context.Background()
	tcon := func(n string) lf.Type { return &lf.TCon{ID: tid(n)} }
	rec := &lf.ERecCon{Type: lf.TypeConApp{ID: tid("T")}, Fields: []lf.FieldExpr{{Name: "owner", Expr: &lf.EText{Value: "x"}}, {Name: "n", Expr: i64(7)}}}
	toI := &lf.EToInterface{Interface: tid("I"), Template: tid("T"), Expr: rec}
	tests := []struct {
		name string
		x    lf.Expr
		want Value
	}{
		{"call_interface", &lf.ECallInterface{Interface: tid("I"), Method: "getN", Expr: toI}, Int64(7)},
		{"view_interface", &lf.EViewInterface{Interface: tid("I"), Expr: toI}, Int64(107)},
		{"interface_template_type_rep", &lf.EInterfaceTemplateTypeRep{Interface: tid("I"), Expr: toI}, TypeRep{Type: tcon("T")}},
		{"from_interface", &lf.EFromInterface{Interface: tid("I"), Template: tid("T"), Expr: toI}, Some(recV2(Text("x"), Int64(7)))},
		{"from_interface other", &lf.EFromInterface{Interface: tid("I"), Template: tid("R"), Expr: toI}, None},
		{"to_required_interface", &lf.EFromRequiredInterface{Required: tid("I"), Requiring: tid("I"), Expr: &lf.EToRequiredInterface{Required: tid("I"), Requiring: tid("I"), Expr: toI}},
			Some(&Any{Type: tcon("T"), Value: recV2(Text("x"), Int64(7))})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustEval(t, e, tc.x)
			if !valueEq(got, tc.want) {
				t.Errorf("got %s, want %s", show(got), show(tc.want))
			}
		})
	}
	_, err := e.Eval(ctx, &lf.EUnsafeFromInterface{Interface: tid("I"), Template: tid("R"), ContractID: &lf.EText{Value: "cid"}, Expr: toI})
	if errKind(err) != ErrWronglyTypedContract {
		t.Errorf("unsafe_from_interface: got %v", err)
	}

	store := memStore{}
	alice := Submission{ActAs: []string{"alice"}, Contracts: store}
	targ, _ := e.NewRecord(tid("T"), Party("alice"), Int64(5))
	arg, _ := e.NewRecord(tid("Arg"))
	res, err := e.Submit(ctx, alice, CreateCommand(tid("T"), targ))
	if err != nil {
		t.Fatal(err)
	}
	store.commit(res.Transaction)
	cid := res.Results[0].(ContractID)
	res, err = e.Submit(ctx, alice, ExerciseInterfaceCommand(tid("I"), "Get", cid, arg))
	if err != nil {
		t.Fatal(err)
	}
	ex := res.Transaction.Nodes[0].(*tx.Exercise)
	if ex.InterfaceID == nil || *ex.InterfaceID != tid("I") || ex.TemplateID != tid("T") || ex.Result != value.Int64(5) || ex.Consuming {
		t.Errorf("interface exercise node %+v", ex)
	}
	_, err = e.Submit(ctx, Submission{ActAs: []string{"bob"}, Contracts: store}, ExerciseInterfaceCommand(tid("I"), "Get", cid, arg))
	if errKind(err) != ErrFailedAuthorization {
		t.Errorf("bob: got %v", err)
	}
}

func recV2(a, b Value) Value {
	return &Record{Type: &RecordType{ID: tid("T"), Fields: []string{"owner", "n"}}, Fields: []Value{a, b}}
}

// TestConcurrentSubmits runs submissions on one shared engine from many
// goroutines (run with -race).
func TestConcurrentSubmits(t *testing.T) {
	e := newTestEngine(map[string]lf.Expr{"sumR": sumR}, Options{})
	ctx := context.Background()
	targ, _ := e.NewRecord(tid("T"), Party("alice"), Int64(5))
	done := make(chan error, 8)
	for g := range 8 {
		go func() {
			for range 20 {
				if _, err := e.Submit(ctx, Submission{ActAs: []string{"alice"}}, CreateCommand(tid("T"), targ)); err != nil {
					done <- err
					return
				}
				v, err := e.Eval(ctx, app(val("sumR"), cons(nilE(), i64(int64(g)), i64(1))))
				if err != nil || v != Int64(int64(g)+1) {
					done <- fmt.Errorf("sumR: %v %v", v, err)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestContractIDDerivation recomputes the seeds and discriminators of
// Canton's crypto/Hash.scala (deriveTransactionSeed, deriveNodeSeed,
// deriveContractDiscriminator) by hand for two root creates.
func TestContractIDDerivation(t *testing.T) {
	e := newTestEngine(nil, Options{})
	mac := func(key []byte, data ...[]byte) []byte {
		h := hmac.New(sha256.New, key)
		for _, d := range data {
			h.Write(d)
		}
		return h.Sum(nil)
	}
	u32 := func(i uint32) []byte { return binary.BigEndian.AppendUint32(nil, i) }
	u64 := func(i uint64) []byte { return binary.BigEndian.AppendUint64(nil, i) }
	str := func(s string) []byte { return append(u32(uint32(len(s))), s...) }
	var seed [32]byte
	seed[0] = 7
	const let = 1_700_000_000_000_000
	sub := Submission{ActAs: []string{"alice"}, LedgerTime: let, SubmissionSeed: seed, ParticipantID: "participant1"}
	targ, _ := e.NewRecord(tid("T"), Party("alice"), Int64(1))
	res, err := e.Submit(context.Background(), sub, CreateCommand(tid("T"), targ), CreateCommand(tid("T"), targ))
	if err != nil {
		t.Fatal(err)
	}
	txSeed := mac(seed[:], str("participant1"), u64(let))
	for i := range 2 {
		nodeSeed := mac(txSeed, u32(uint32(i)))
		want := "00" + hex.EncodeToString(mac(nodeSeed, u64(let), u32(1), str("alice")))
		c := res.Transaction.Nodes[i].(*tx.Create)
		seed, _ := res.Transaction.Seed(tx.NodeID(i))
		if string(c.ContractID) != want || !bytes.Equal(seed[:], nodeSeed) {
			t.Errorf("create %d: id %s, want %s", i, c.ContractID, want)
		}
	}
}

func TestLedgerTime(t *testing.T) {
	e := newTestEngine(nil, Options{})
	ctx := context.Background()
	tests := []struct {
		name   string
		u      lf.Expr
		want   Value
		bounds tx.TimeBounds
	}{
		{"get_time", upd(&lf.UGetTime{}), Timestamp(100), tx.TimeBounds{Min: 100, Max: 100}},
		{"lt true", upd(&lf.ULedgerTimeLT{Expr: &lf.ETimestamp{Micros: 150}}), Bool(true), tx.TimeBounds{Min: tx.MinTimestamp, Max: 149}},
		{"lt false", upd(&lf.ULedgerTimeLT{Expr: &lf.ETimestamp{Micros: 50}}), Bool(false), tx.TimeBounds{Min: 50, Max: tx.MaxTimestamp}},
		{"pure", upd(&lf.UPure{Expr: i64(1)}), Int64(1), tx.Unconstrained},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, err := e.Eval(ctx, tc.u)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Submit(ctx, Submission{LedgerTime: 100}, u)
			if err != nil {
				t.Fatal(err)
			}
			if res.Results[0] != tc.want {
				t.Errorf("got %v", res.Results[0])
			}
			if diff := cmp.Diff(tc.bounds, res.TimeBounds); diff != "" {
				t.Errorf("time bounds: %s", diff)
			}
		})
	}
}

func TestCheckSerializable(t *testing.T) {
	nest := func(n int) Value {
		var v Value = Int64(0)
		for range n {
			v = Some(v)
		}
		return v
	}
	tests := []struct {
		name string
		v    Value
		kind ErrorKind
	}{
		{"nesting 100", nest(100), 0},
		{"nesting 101", nest(101), ErrValueNesting},
		{"list level", ListOf(nest(99)), 0},
		{"list too deep", ListOf(nest(100)), ErrValueNesting},
		{"NUL", Text("a\x00"), ErrMalformedText},
		{"function", Identity(), ErrInternal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckSerializable(tc.v)
			var k ErrorKind
			if err != nil {
				k = err.Kind
			}
			if k != tc.kind {
				t.Errorf("got %v, want %v", err, tc.kind)
			}
		})
	}
}
