package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// contractMap is an in-memory ContractStore: the active contracts by id.
type contractMap map[engine.ContractID]*engine.Contract

// Contract returns the active contract id, or nil.
func (m contractMap) Contract(_ context.Context, id engine.ContractID) (*engine.Contract, error) {
	return m[id], nil
}

// commit adds the contracts a transaction creates and removes those it
// archives. (A participant would also give the new contracts their
// committed ids: Transaction.WithSuffixes.)
func (m contractMap) commit(t *tx.Transaction) {
	eff := t.Effects()
	created := map[value.ContractID]bool{}
	for _, c := range eff.Created {
		created[c] = true
	}
	for _, n := range t.All() {
		if c, ok := n.(*tx.Create); ok && created[c.ContractID] {
			m[engine.ContractID(c.ContractID)] = &engine.Contract{ID: engine.ContractID(c.ContractID), TemplateID: c.TemplateID,
				Arg: c.Arg, Signatories: c.Signatories, Stakeholders: c.Stakeholders}
		}
	}
	for _, a := range eff.Archived {
		delete(m, engine.ContractID(a))
	}
}

// Example runs the Ping workflow of Canton's built-in admin DAR: alice
// creates a Ping for bob, bob responds, which archives it. It reads the
// DAR from ../shared, so it is compiled but not run.
func Example() {
	data, err := os.ReadFile("../../../shared/testdata/dars/canton-builtin-admin-workflow-ping.dar")
	if err != nil {
		fmt.Println(err)
		return
	}
	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	e := engine.New(dar, engine.Options{})
	ctx := context.Background()
	ping := lf.TypeConID{PackageID: dar.Main.ID, Module: "Canton.Internal.Ping", Name: "Ping"}
	respond := lf.TypeConID{PackageID: dar.Main.ID, Module: "Canton.Internal.Ping", Name: "Respond"}
	store := contractMap{}

	arg, err := e.NewRecord(ping, engine.Text("ping-1"), engine.Party("alice"), engine.Party("bob"))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := e.Submit(ctx, engine.Submission{ActAs: []string{"alice"}, Contracts: store}, engine.CreateCommand(ping, arg))
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Transaction.Nodes[0].(*tx.Create)
	fmt.Println("created", c.TemplateID.Name, "signatories", c.Signatories, "observers", c.Observers())
	store.commit(res.Transaction)

	rarg, err := e.NewRecord(respond)
	if err != nil {
		fmt.Println(err)
		return
	}
	cid := res.Results[0].(engine.ContractID)
	res, err = e.Submit(ctx, engine.Submission{ActAs: []string{"bob"}, Contracts: store}, engine.ExerciseCommand(ping, "Respond", cid, rarg))
	if err != nil {
		fmt.Println(err)
		return
	}
	store.commit(res.Transaction)
	fmt.Println("Respond result", res.Results[0], "archived", len(res.Effects.Archived), "active contracts", len(store))
	// Prints:
	// created Ping signatories [alice] observers [bob]
	// Respond result {} archived 1 active contracts 0
}

// ExampleEngine_Submit builds a one-template package in code (template Iou
// with issuer, owner: signatory issuer, observer owner), creates an Iou
// and commits it to an in-memory contract map.
func ExampleEngine_Submit() {
	iou := lf.TypeConID{PackageID: "iou-pkg", Module: "Iou", Name: "Iou"}
	field := func(name string) lf.Expr {
		return &lf.ERecProj{Type: lf.TypeConApp{ID: iou}, Field: name, Record: &lf.EVar{Name: "this"}}
	}
	party := &lf.TBuiltin{Builtin: lf.BuiltinParty}
	pkg := &lf.Package{ID: iou.PackageID, Name: "iou", Version: "1.0.0", Modules: []*lf.Module{{
		Name: "Iou",
		DataTypes: []*lf.DataType{{Name: "Iou", Variety: lf.RecordVariety, Serializable: true,
			Fields: []lf.Field{{Name: "issuer", Type: party}, {Name: "owner", Type: party}}}},
		Templates: []*lf.Template{{Name: "Iou", Param: "this",
			Signatories: &lf.ECons{Front: []lf.Expr{field("issuer")}, Tail: &lf.ENil{}},
			Observers:   &lf.ECons{Front: []lf.Expr{field("owner")}, Tail: &lf.ENil{}}}},
	}}}
	pkg.Index()
	e := engine.New(engine.PackageMap{pkg.ID: pkg}, engine.Options{})
	store := contractMap{}

	arg, err := e.NewRecord(iou, engine.Party("bank"), engine.Party("alice"))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := e.Submit(context.Background(), engine.Submission{ActAs: []string{"bank"}, Contracts: store}, engine.CreateCommand(iou, arg))
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Transaction.Nodes[0].(*tx.Create)
	fmt.Println(c.PackageName, c.TemplateID.Name, "signatories", c.Signatories, "observers", c.Observers())
	fmt.Println("argument", string(value.AppendJSON(nil, c.Arg)))
	store.commit(res.Transaction)
	fmt.Println("active contracts", len(store), "result is the id:", res.Results[0] == engine.ContractID(c.ContractID))

	// alice cannot create an Iou the bank signs.
	_, err = e.Submit(context.Background(), engine.Submission{ActAs: []string{"alice"}, Contracts: store}, engine.CreateCommand(iou, arg))
	var ee *engine.Error
	if errors.As(err, &ee) {
		fmt.Println(ee.Kind)
	}
	// Output:
	// iou Iou signatories [bank] observers [alice]
	// argument {"issuer":"bank","owner":"alice"}
	// active contracts 1 result is the id: true
	// FailedAuthorization
}
