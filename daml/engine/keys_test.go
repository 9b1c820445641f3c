package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

const keyPkg = "keypkg"

func kid(name string) lf.TypeConID { return lf.TypeConID{PackageID: keyPkg, Module: "K", Name: name} }

// keyPackage is a package of the given LF version with record KR {p:
// Party, id: Text} and three templates over the record {owner, id,
// other} (signatory owner, observer other), each keyed by KR: K
// (maintainers [p], key p = owner; choices Get (non-consuming, returns
// id) and Archive), KOther (key p = other: maintainers not signatories)
// and KEmpty (no maintainers).
func keyPackage(version lf.LFVersion) *lf.Package {
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	text := &lf.TBuiltin{Builtin: lf.BuiltinText}
	tpl := func(name, keyParty string, maintainers lf.Expr) *lf.Template {
		proj := func(f string) lf.Expr {
			return &lf.ERecProj{Type: lf.TypeConApp{ID: kid(name)}, Field: f, Record: v("this")}
		}
		return &lf.Template{Name: name, Param: "this",
			Signatories: cons(nilE(), proj("owner")),
			Observers:   cons(nilE(), proj("other")),
			Key: &lf.TemplateKey{Type: &lf.TCon{ID: kid("KR")},
				Body:        &lf.ERecCon{Type: lf.TypeConApp{ID: kid("KR")}, Fields: []lf.FieldExpr{{Name: "p", Expr: proj(keyParty)}, {Name: "id", Expr: proj("id")}}},
				Maintainers: maintainers},
			Choices: []*lf.Choice{
				{Name: "Get", ArgBinder: "arg", SelfBinder: "self", Controllers: cons(nilE(), proj("owner")), Update: upd(&lf.UPure{Expr: proj("id")})},
				{Name: "Archive", Consuming: true, ArgBinder: "arg", SelfBinder: "self", Controllers: cons(nilE(), proj("owner")), Update: upd(&lf.UPure{Expr: unit()})},
			}}
	}
	kp := lam(cons(nilE(), &lf.ERecProj{Type: lf.TypeConApp{ID: kid("KR")}, Field: "p", Record: v("k")}), "k")
	fields := []lf.Field{{Name: "owner", Type: party}, {Name: "id", Type: text}, {Name: "other", Type: party}}
	p := &lf.Package{ID: keyPkg, Name: "keys", Version: "1.0.0", LanguageVersion: version, Modules: []*lf.Module{{
		Name: "K",
		DataTypes: []*lf.DataType{
			{Name: "KR", Variety: lf.RecordVariety, Serializable: true, Fields: []lf.Field{{Name: "p", Type: party}, {Name: "id", Type: text}}},
			{Name: "K", Variety: lf.RecordVariety, Serializable: true, Fields: fields},
			{Name: "KOther", Variety: lf.RecordVariety, Serializable: true, Fields: fields},
			{Name: "KEmpty", Variety: lf.RecordVariety, Serializable: true, Fields: fields},
			{Name: "Unit", Variety: lf.RecordVariety, Serializable: true},
		},
		Templates: []*lf.Template{tpl("K", "owner", kp), tpl("KOther", "other", kp), tpl("KEmpty", "owner", lam(nilE(), "k"))},
	}}}
	p.Index()
	return p
}

// keyStore is a ContractStore and ContractKeyStore over committed
// transactions.
type keyStore struct {
	contracts map[ContractID]*Contract
	creates   map[ContractID]*tx.Create
	order     []ContractID
	queries   []KeyQuery
}

func newKeyStore() *keyStore {
	return &keyStore{contracts: map[ContractID]*Contract{}, creates: map[ContractID]*tx.Create{}}
}

func (s *keyStore) Contract(_ context.Context, id ContractID) (*Contract, error) {
	return s.contracts[id], nil
}

func (s *keyStore) ContractsByKey(_ context.Context, q KeyQuery) ([]ContractID, error) {
	s.queries = append(s.queries, q)
	var out []ContractID
	for _, id := range s.order {
		c := s.creates[id]
		if c == nil || c.Key == nil || c.PackageName != q.PackageName || c.TemplateID.Module != q.TemplateID.Module ||
			c.TemplateID.Name != q.TemplateID.Name || !value.Equal(c.Key.Key, q.Key) {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, id)
	}
	return out, nil
}

func (s *keyStore) commit(t *tx.Transaction) {
	eff := t.Effects()
	created := map[value.ContractID]bool{}
	for _, c := range eff.Created {
		created[c] = true
	}
	for _, n := range t.All() {
		if c, ok := n.(*tx.Create); ok && created[c.ContractID] {
			id := ContractID(c.ContractID)
			s.contracts[id] = &Contract{ID: id, TemplateID: c.TemplateID, Arg: c.Arg, Signatories: c.Signatories, Stakeholders: c.Stakeholders, Key: c.Key}
			s.creates[id] = c
			s.order = append(s.order, id)
		}
	}
	for _, a := range eff.Archived {
		delete(s.contracts, ContractID(a))
		delete(s.creates, ContractID(a))
	}
}

// plainStore is a ContractStore without key lookups.
type plainStore map[ContractID]*Contract

func (s plainStore) Contract(_ context.Context, id ContractID) (*Contract, error) { return s[id], nil }

type keyFixture struct {
	t     *testing.T
	e     *Engine
	seeds byte // submissions so far: each gets its own seed, so contract ids differ
}

func newKeyFixture(t *testing.T, version lf.LFVersion) *keyFixture {
	return &keyFixture{t: t, e: New(PackageMap{keyPkg: keyPackage(version)}, Options{})}
}

func (f *keyFixture) rec(id lf.TypeConID, fields ...Value) *Record {
	f.t.Helper()
	r, err := f.e.NewRecord(id, fields...)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func (f *keyFixture) create(tpl, owner, id, other string) Value {
	return CreateCommand(kid(tpl), f.rec(kid(tpl), Party(owner), Text(id), Party(other)))
}

func (f *keyFixture) key(p, id string) *Record { return f.rec(kid("KR"), Party(p), Text(id)) }

// eval compiles an update expression (e.g. a query_n_by_key application)
// to a command value.
func (f *keyFixture) eval(x lf.Expr) Value {
	f.t.Helper()
	u, err := f.e.Eval(context.Background(), x)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

func (f *keyFixture) apply(fn Value, args ...Value) Value {
	f.t.Helper()
	u, err := f.e.Apply(context.Background(), fn, args...)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

func (f *keyFixture) submit(store ContractStore, actAs string, cmds ...Value) (*Result, error) {
	f.seeds++
	return f.e.Submit(context.Background(), Submission{ActAs: []string{actAs}, Contracts: store, SubmissionSeed: [32]byte{f.seeds}}, cmds...)
}

func (f *keyFixture) mustSubmit(store ContractStore, actAs string, cmds ...Value) *Result {
	f.t.Helper()
	r, err := f.submit(store, actAs, cmds...)
	if err != nil {
		f.t.Fatalf("Submit: %v", err)
	}
	return r
}

func wantKR(p, id string) value.Value {
	return value.Record{RecordID: &lf.TypeConID{PackageID: keyPkg, Module: "K", Name: "KR"},
		Fields: []value.RecordField{{Label: "p", Value: value.Party(p)}, {Label: "id", Value: value.Text(id)}}}
}

func TestCreateWithKey(t *testing.T) {
	f := newKeyFixture(t, lf.LF23)
	r := f.mustSubmit(nil, "alice", f.create("K", "alice", "k1", "bob"))
	c := r.Transaction.Nodes[0].(*tx.Create)
	want := &tx.KeyWithMaintainers{Key: wantKR("alice", "k1"), Maintainers: []string{"alice"}}
	if diff := cmp.Diff(want, c.Key); diff != "" {
		t.Errorf("Create key (-want +got):\n%s", diff)
	}
	if c.Version != tx.VersionKeys {
		t.Errorf("Create version = %q, want %q", c.Version, tx.VersionKeys)
	}
}

func TestCreateKeyErrors(t *testing.T) {
	f := newKeyFixture(t, lf.LF23)
	tests := []struct {
		name     string
		cmd      Value
		kind     ErrorKind
		authKind tx.AuthorizationKind
	}{
		{"maintainers not signatories", f.create("KOther", "alice", "k1", "bob"), ErrFailedAuthorization, tx.MaintainersNotSubsetOfSignatories},
		{"empty maintainers", f.create("KEmpty", "alice", "k1", "bob"), ErrCreateEmptyContractKeyMaintainers, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.submit(nil, "alice", tc.cmd)
			if got := errKind(err); got != tc.kind {
				t.Fatalf("error kind = %v (%v), want %v", got, err, tc.kind)
			}
			var ae *tx.AuthorizationError
			if tc.authKind != 0 && (!errors.As(err, &ae) || ae.Kind != tc.authKind) {
				t.Errorf("error %v: want an AuthorizationError %v", err, tc.authKind)
			}
		})
	}
}

// A template of an LF 2.1 package has no key even if the AST holds one
// (the decoder rejects keys before 2.3), and its key updates fail.
func TestKeysIgnoredBeforeLF23(t *testing.T) {
	for _, ver := range []lf.LFVersion{lf.LF21, lf.LF22} {
		f := newKeyFixture(t, ver)
		r := f.mustSubmit(nil, "alice", f.create("K", "alice", "k1", "bob"), f.create("KEmpty", "alice", "k2", "bob"))
		for _, n := range r.Transaction.Nodes {
			c := n.(*tx.Create)
			if c.Key != nil || c.Version != tx.VersionNoKey {
				t.Errorf("LF %s: Create of %s has key %v, version %s", ver, c.TemplateID.Name, c.Key, c.Version)
			}
		}
		_, err := f.submit(nil, "alice", f.create("K", "alice", "k1", "bob"), FetchByKeyCommand(kid("K"), f.key("alice", "k1")))
		if got := errKind(err); got != ErrPackage {
			t.Errorf("LF %s: fetch_by_key error kind = %v (%v), want Package", ver, got, err)
		}
	}
}

func TestFetchByKey(t *testing.T) {
	f := newKeyFixture(t, lf.LF23)
	fbk := func(p, id string) Value { return FetchByKeyCommand(kid("K"), f.key(p, id)) }

	t.Run("created in the transaction, most recent first", func(t *testing.T) {
		r := f.mustSubmit(nil, "alice", f.create("K", "alice", "k1", "bob"), f.create("K", "alice", "k1", "carol"), fbk("alice", "k1"))
		second := r.Results[1].(ContractID)
		pair, ok := r.Results[2].(*Record)
		if !ok || pair.Type.ID != tuple2ID || len(pair.Fields) != 2 {
			t.Fatalf("result = %#v, want a DA.Types:Tuple2", r.Results[2])
		}
		if pair.Fields[0] != second {
			t.Errorf("fetched %v, want the most recent %v", pair.Fields[0], second)
		}
		if other := pair.Fields[1].(*Record).Fields[2]; other != Party("carol") {
			t.Errorf("contract other = %v, want carol", other)
		}
		fn := r.Transaction.Nodes[2].(*tx.Fetch)
		want := &tx.KeyWithMaintainers{Key: wantKR("alice", "k1"), Maintainers: []string{"alice"}}
		if !fn.ByKey || fn.ContractID != value.ContractID(second) || !cmp.Equal(want, fn.Key) {
			t.Errorf("Fetch node = %+v, want byKey of %v with key %v", fn, second, want)
		}
	})

	t.Run("archived in the transaction is skipped", func(t *testing.T) {
		r := f.mustSubmit(nil, "alice", f.create("K", "alice", "k1", "bob"), f.create("K", "alice", "k1", "carol"),
			ExerciseByKeyCommand(kid("K"), "Archive", f.key("alice", "k1"), f.rec(kid("Unit"))), fbk("alice", "k1"))
		if got, want := r.Results[3].(*Record).Fields[0], r.Results[0]; got != want {
			t.Errorf("fetched %v after archiving the most recent, want %v", got, want)
		}
	})

	store := newKeyStore()
	created := f.mustSubmit(store, "alice", f.create("K", "alice", "k1", "bob"))
	store.commit(created.Transaction)
	ledgerCid := created.Results[0].(ContractID)

	t.Run("ledger contract", func(t *testing.T) {
		r := f.mustSubmit(store, "alice", fbk("alice", "k1"))
		if got := r.Results[0].(*Record).Fields[0]; got != ledgerCid {
			t.Errorf("fetched %v, want %v", got, ledgerCid)
		}
		if fn := r.Transaction.Nodes[0].(*tx.Fetch); !fn.ByKey || fn.Key == nil {
			t.Errorf("Fetch node %+v: want byKey with a key", fn)
		}
		if len(r.Effects.Inputs) != 1 || r.Effects.Inputs[0] != value.ContractID(ledgerCid) {
			t.Errorf("inputs = %v, want [%v]", r.Effects.Inputs, ledgerCid)
		}
		q := store.queries[len(store.queries)-1]
		if q.PackageName != "keys" || q.TemplateID != kid("K") || q.Limit != 1 || !value.Equal(q.Key, wantKR("alice", "k1")) {
			t.Errorf("store query = %+v", q)
		}
	})

	t.Run("ledger contract archived in the transaction is skipped", func(t *testing.T) {
		_, err := f.submit(store, "alice", ExerciseByKeyCommand(kid("K"), "Archive", f.key("alice", "k1"), f.rec(kid("Unit"))), fbk("alice", "k1"))
		if got := errKind(err); got != ErrContractKeyNotFound {
			t.Errorf("error kind = %v (%v), want ContractKeyNotFound", got, err)
		}
	})

	tests := []struct {
		name  string
		store ContractStore
		cmd   Value
		kind  ErrorKind
	}{
		{"not found", store, fbk("alice", "nope"), ErrContractKeyNotFound},
		{"other maintainer", store, fbk("bob", "k1"), ErrContractKeyNotFound},
		{"store without key lookups", plainStore(store.contracts), fbk("alice", "k1"), ErrContractKeyNotFound},
		{"empty maintainers", store, FetchByKeyCommand(kid("KEmpty"), f.key("alice", "k1")), ErrFetchEmptyContractKeyMaintainers},
		{"contract id in key", store, FetchByKeyCommand(kid("K"), f.rec(kid("KR"), Party("alice"), ledgerCid)), ErrContractIDInContractKey},
		{"not a stakeholder", store, FetchByKeyCommand(kid("K"), f.key("alice", "k1")), ErrFailedAuthorization},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			actAs := "alice"
			if tc.kind == ErrFailedAuthorization {
				actAs = "dave"
			}
			_, err := f.submit(tc.store, actAs, tc.cmd)
			if got := errKind(err); got != tc.kind {
				t.Errorf("error kind = %v (%v), want %v", got, err, tc.kind)
			}
		})
	}
}

func TestExerciseByKey(t *testing.T) {
	f := newKeyFixture(t, lf.LF23)
	store := newKeyStore()
	r0 := f.mustSubmit(store, "alice", f.create("K", "alice", "k1", "bob"))
	store.commit(r0.Transaction)
	cid := r0.Results[0].(ContractID)

	// Through the compiled update form: exercise_by_key @K Get key arg.
	x := lam(upd(&lf.UExerciseByKey{Template: kid("K"), Choice: "Get", Key: v("k"), Arg: &lf.ERecCon{Type: lf.TypeConApp{ID: kid("Unit")}}}), "k")
	r := f.mustSubmit(store, "alice", f.apply(f.eval(x), f.key("alice", "k1")))
	if r.Results[0] != Text("k1") {
		t.Errorf("result = %v, want k1", r.Results[0])
	}
	ex := r.Transaction.Nodes[0].(*tx.Exercise)
	if !ex.ByKey || ex.Key == nil || ex.TargetID != value.ContractID(cid) || ex.Choice != "Get" {
		t.Errorf("Exercise node = %+v, want Get byKey on %v", ex, cid)
	}
	if _, err := f.submit(store, "alice", ExerciseByKeyCommand(kid("K"), "Get", f.key("alice", "nope"), f.rec(kid("Unit")))); errKind(err) != ErrContractKeyNotFound {
		t.Errorf("error = %v, want ContractKeyNotFound", err)
	}
}

func TestQueryNByKey(t *testing.T) {
	f := newKeyFixture(t, lf.LF23)
	store := newKeyStore()
	r0 := f.mustSubmit(store, "alice", f.create("K", "alice", "k1", "bob"))
	store.commit(r0.Transaction)
	ledgerCid := r0.Results[0].(ContractID)
	query := func(n int64) Value {
		return f.apply(f.eval(lam(app(upd(&lf.UQueryNByKey{Template: kid("K")}), i64(n), v("k")), "k")), f.key("alice", "k1"))
	}
	tests := []struct {
		n          int64
		want       int // results: 0 = the ledger's, 1 and 2 the local ones
		exhaustive bool
	}{
		{n: 1, want: 1},
		{n: 2, want: 2},
		{n: 3, want: 3},
		{n: 10, want: 3, exhaustive: true},
	}
	for _, tc := range tests {
		r := f.mustSubmit(store, "alice", f.create("K", "alice", "k1", "bob"), f.create("K", "alice", "k1", "carol"), query(tc.n))
		order := []ContractID{r.Results[1].(ContractID), r.Results[0].(ContractID), ledgerCid}[:tc.want]
		got := []ContractID{}
		for l := r.Results[2].(Optional).Value.(*List); l != nil; l = l.Tail {
			got = append(got, l.Head.(*Record).Fields[0].(ContractID))
		}
		if diff := cmp.Diff(order, got); diff != "" {
			t.Errorf("n=%d: results (-want +got):\n%s", tc.n, diff)
		}
		q := r.Transaction.Nodes[2].(*tx.QueryByKey)
		wantRes := make([]value.ContractID, len(order))
		for i, c := range order {
			wantRes[i] = value.ContractID(c)
		}
		if diff := cmp.Diff(wantRes, q.Result); diff != "" || q.Exhaustive != tc.exhaustive || q.Key.Maintainers[0] != "alice" {
			t.Errorf("n=%d: QueryByKey node %+v, want result %v exhaustive %v", tc.n, q, wantRes, tc.exhaustive)
		}
	}
	if _, err := f.submit(store, "alice", query(0)); errKind(err) != ErrInternal {
		t.Errorf("query n=0: %v, want an internal error", err)
	}
	// bob sees the contract but is not a maintainer.
	_, err := f.submit(store, "bob", query(1))
	var ae *tx.AuthorizationError
	if !errors.As(err, &ae) || ae.Kind != tx.LookupByKeyMissingAuthorization {
		t.Errorf("query as bob: %v, want LookupByKeyMissingAuthorization", err)
	}
}

// A plain fetch or exercise of a keyed contract records its key (not
// byKey): the Create node's for a local contract, Contract.Key for a
// ledger one.
func TestPlainUseRecordsKey(t *testing.T) {
	f := newKeyFixture(t, lf.LF23)
	want := &tx.KeyWithMaintainers{Key: wantKR("alice", "k1"), Maintainers: []string{"alice"}}
	store := newKeyStore()
	r0 := f.mustSubmit(store, "alice", f.create("K", "alice", "k1", "bob"))
	store.commit(r0.Transaction)
	cid := r0.Results[0].(ContractID)

	createFetch := f.apply(f.eval(lam(upd(&lf.UBlock{
		Bindings: []lf.Binding{{Var: lf.VarWithType{Name: "c"}, Bound: upd(&lf.UCreate{Template: kid("K"), Expr: v("r")})}},
		Body:     upd(&lf.UFetch{Template: kid("K"), ContractID: v("c")})}), "r")), f.rec(kid("K"), Party("alice"), Text("k1"), Party("bob")))
	fetch := f.apply(f.eval(lam(upd(&lf.UFetch{Template: kid("K"), ContractID: v("c")}), "c")), cid)
	r := f.mustSubmit(store, "alice", createFetch, fetch, ExerciseCommand(kid("K"), "Get", cid, f.rec(kid("Unit"))))
	var got []*tx.KeyWithMaintainers
	for _, n := range r.Transaction.Nodes {
		switch n := n.(type) {
		case *tx.Fetch:
			if n.ByKey {
				t.Errorf("plain fetch %v is byKey", n.ContractID)
			}
			got = append(got, n.Key)
		case *tx.Exercise:
			if n.ByKey {
				t.Errorf("plain exercise %v is byKey", n.TargetID)
			}
			got = append(got, n.Key)
		}
	}
	if diff := cmp.Diff([]*tx.KeyWithMaintainers{want, want, want}, got); diff != "" {
		t.Errorf("keys of the local fetch, ledger fetch and ledger exercise (-want +got):\n%s", diff)
	}
}
