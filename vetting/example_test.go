package vetting_test

import (
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/internal/lfenc"
	"github.com/ledgernode/ledgernode/ledger/apierr"
	"github.com/ledgernode/ledgernode/vetting"
)

// exampleDAR stands for os.ReadFile("model.dar"): a small DAR with one
// template, built by the tests' encoder.
func exampleDAR() []byte {
	self := func(n string) lfenc.Type { return lfenc.Con(lfenc.Self(), "Iou", n) }
	dar, _ := lfenc.DAR(lfenc.Package{Name: "iou", Version: "1.0.0", Imports: []string{}, Modules: []lfenc.Module{{
		Name: "Iou",
		DataTypes: []lfenc.DataType{
			{Name: "Iou", Serializable: true, Fields: []lfenc.Field{
				{Name: "issuer", Type: lfenc.B(lfenc.Party)},
				{Name: "owner", Type: lfenc.B(lfenc.Party)},
				{Name: "amount", Type: lfenc.Num(10)},
			}},
			{Name: "Transfer", Serializable: true, Fields: []lfenc.Field{{Name: "newOwner", Type: lfenc.B(lfenc.Party)}}},
		},
		Templates: []lfenc.Template{{Name: "Iou", Choices: []lfenc.Choice{
			{Name: "Transfer", Consuming: true, Arg: self("Transfer"), Ret: lfenc.CID(self("Iou"))},
		}}},
	}}})
	return dar
}

func Example() {
	data := exampleDAR() // os.ReadFile("model.dar")

	dar, err := vetting.ReadDAR(data, vetting.ReadOptions{})
	if err != nil {
		var e *apierr.Error
		if errors.As(err, &e) {
			fmt.Println(e.Code.Name, e.Cause) // e.g. ZIP_BOMB, DAR_PARSE_ERROR
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
