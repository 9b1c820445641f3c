package lf_test

import (
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// exampleDAR stands for os.ReadFile("model.dar"): a small DAR with one
// template, built by the tests' encoder.
func exampleDAR() []byte {
	self := func(n string) lftest.Type { return lftest.Con(lftest.Self(), "Iou", n) }
	iou := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Iou", Name: "Iou"}}
	transfer := lf.TypeConApp{ID: lf.TypeConID{PackageID: lftest.SelfID, Module: "Iou", Name: "Transfer"}}
	dar, _ := lftest.DAR(lftest.Package{Name: "iou", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{
		Name: "Iou",
		DataTypes: []lftest.DataType{
			{Name: "Iou", Serializable: true, Fields: []lftest.Field{
				{Name: "issuer", Type: lftest.B(lftest.Party)},
				{Name: "owner", Type: lftest.B(lftest.Party)},
				{Name: "amount", Type: lftest.Num(10)},
			}},
			{Name: "Transfer", Serializable: true, Fields: []lftest.Field{{Name: "newOwner", Type: lftest.B(lftest.Party)}}},
		},
		Templates: []lftest.Template{{Name: "Iou", Choices: []lftest.Choice{
			{Name: "Transfer", Consuming: true, Arg: self("Transfer"), Ret: lftest.CID(self("Iou")),
				// create @Iou (this with owner = arg.newOwner)
				Update: &lf.EUpdate{Update: &lf.UCreate{Template: iou.ID, Expr: &lf.ERecUpd{Type: iou, Field: "owner",
					Record: &lf.EVar{Name: "this"},
					Update: &lf.ERecProj{Type: transfer, Field: "newOwner", Record: &lf.EVar{Name: "arg"}}}}}},
		}}},
	}}})
	return dar
}

func Example() {
	data := exampleDAR() // os.ReadFile("model.dar")

	dar, err := lf.ReadDAR(data, lf.ReadOptions{})
	if err != nil {
		var e *lf.Error
		if errors.As(err, &e) {
			fmt.Println(e.Kind, e.Message) // e.g. ZipBomb, Parse
		}
		return
	}
	if err := dar.CheckDependencies(); err != nil {
		fmt.Println(err)
		return
	}
	p := dar.Main
	fmt.Println(p.Name, p.Version, "LF", p.LanguageVersion)
	for _, f := range p.DataType("Iou", "Iou").Fields {
		fmt.Printf("  %s : %s\n", f.Name, f.Type)
	}
	c := p.Choice("Iou", "Iou", "Transfer")
	fmt.Println("choice", c.Name, "consuming:", c.Consuming)
	// Output:
	// iou 1.0.0 LF 2.2
	//   issuer : Party
	//   owner : Party
	//   amount : Numeric 10
	// choice Transfer consuming: true
}
