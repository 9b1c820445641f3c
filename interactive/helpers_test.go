package interactive

import (
	"bytes"
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

const (
	tAlice = "alice::1220680fc736bff3dc912d30af7dd7b515bc753799b6b1d218b23b35912f6b83389a"
	tBob   = "bob::12200000000000000000000000000000000000000000000000000000000000000002"
	tCarol = "carol::12200000000000000000000000000000000000000000000000000000000000000003"
	tPkg   = "9bf0ce026d24003c3c9708efcbd0768f6265a3fc43cfcaadc3d9e2997588fe2d"
	tIface = "1111111111111111111111111111111111111111111111111111111111111111"
)

func cid(b byte) string {
	return "00" + string(bytes.Repeat([]byte{"0123456789abcdef"[b>>4], "0123456789abcdef"[b&15]}, 32)) + "ca12" + string(bytes.Repeat([]byte("ab"), 32))
}

func seed(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

func u64(v uint64) *uint64 { return &v }

// tcon converts an Identifier to the type id of a value.
func tcon(id Identifier) *lf.TypeConID {
	return &lf.TypeConID{PackageID: id.PackageID, Module: id.ModuleName, Name: id.EntityName}
}

// allValues is a record with every value kind.
func allValues() value.Value {
	tmpl := tcon(Identifier{PackageID: tPkg, ModuleName: "Main.Sub", EntityName: "Everything"})
	color := tcon(Identifier{PackageID: tPkg, ModuleName: "Main", EntityName: "Color"})
	shape := tcon(Identifier{PackageID: tPkg, ModuleName: "Main", EntityName: "Shape.Inner"})
	return value.Record{RecordID: tmpl, Fields: []value.RecordField{
		{Label: "unit", Value: value.Unit{}},
		{Label: "yes", Value: value.Bool(true)},
		{Label: "no", Value: value.Bool(false)},
		{Label: "int", Value: value.Int64(-9007199254740991)},
		{Label: "zero", Value: value.Int64(0)},
		{Label: "amount", Value: value.Numeric("12.5000000000")},
		{Label: "when", Value: value.Timestamp(1767225600123456)},
		{Label: "day", Value: value.Date(20454)},
		{Label: "who", Value: value.Party(tBob)},
		{Label: "text", Value: value.Text("héllo ✓")},
		{Label: "empty", Value: value.Text("")},
		{Label: "ref", Value: value.ContractID(cid(7))},
		{Label: "some", Value: value.Optional{Value: value.Int64(42)}},
		{Label: "none", Value: value.Optional{}},
		{Label: "nested", Value: value.Optional{Value: value.Optional{Value: value.Unit{}}}},
		{Label: "list", Value: value.List{value.Text("a"), value.Text("b")}},
		{Label: "emptyList", Value: value.List{}},
		{Label: "map", Value: value.TextMap{{Key: "a", Value: value.Int64(1)}, {Key: "b", Value: value.Int64(2)}}},
		{Label: "gmap", Value: value.GenMap{{Key: value.Int64(2), Value: value.Text("two")}, {Key: value.Int64(1), Value: value.Text("one")}}},
		{Label: "variant", Value: value.Variant{VariantID: shape, Constructor: "Circle", Value: value.Numeric("1.")}},
		{Label: "enum", Value: value.Enum{EnumID: color, Constructor: "Red"}},
		{Label: "record", Value: value.Record{Fields: []value.RecordField{{Label: "x", Value: value.Int64(1)}}}},
	}}
}

// richPrepared is a transaction with an exercise root whose children are a
// create, a fetch and a rollback (holding a create), two input contracts
// and all metadata options. Party lists are given unsorted unless sorted
// is true (Canton hashes them sorted either way). With keys, nodes carry
// contract keys and a QueryByKey node is added (V3 only).
func richPrepared(sorted, keys bool) *PreparedTransaction {
	tmpl := Identifier{PackageID: tPkg, ModuleName: "Main", EntityName: "Asset"}
	ps := func(p ...string) []string {
		if sorted {
			p = slices.Clone(p)
			slices.Sort(p)
		}
		return p
	}
	lf := "2.1"
	if keys {
		lf = "2"
	}
	create := func(c string, owner string) *Create {
		return &Create{LFVersion: lf, ContractID: c, PackageName: "demo", TemplateID: tmpl,
			Argument: value.Record{RecordID: tcon(tmpl), Fields: []value.RecordField{
				{Label: "owner", Value: value.Party(owner)}, {Label: "name", Value: value.Text("gold")}}},
			Signatories: ps(owner), Stakeholders: ps(tCarol, owner)}
	}
	pt := &PreparedTransaction{
		Transaction: Transaction{
			Version: lf,
			Roots:   []string{"0"},
			Nodes: []Node{
				{NodeID: "3", Rollback: &Rollback{Children: []string{"4"}}},
				{NodeID: "0", Exercise: &Exercise{
					LFVersion: lf, ContractID: cid(1), PackageName: "demo", TemplateID: tmpl,
					Signatories: ps(tBob, tAlice), Stakeholders: ps(tCarol, tBob, tAlice), ActingParties: ps(tAlice),
					InterfaceID: &Identifier{PackageID: tIface, ModuleName: "Iface", EntityName: "Transferable"},
					ChoiceID:    "Transfer", ChosenValue: allValues(), Consuming: true,
					Children:        []string{"1", "2", "3"},
					ExerciseResult:  value.ContractID(cid(2)),
					ChoiceObservers: ps(tCarol),
				}},
				{NodeID: "1", Create: create(cid(2), tAlice)},
				{NodeID: "2", Fetch: &Fetch{LFVersion: lf, ContractID: cid(3), PackageName: "demo", TemplateID: tmpl,
					Signatories: ps(tBob), Stakeholders: ps(tCarol, tBob), ActingParties: ps(tAlice, tBob)}},
				{NodeID: "4", Create: create(cid(4), tBob)},
				{NodeID: "9", Create: create(cid(9), tBob)}, // unreachable: not hashed
			},
			NodeSeeds: []NodeSeed{{NodeID: 4, Seed: seed(0x44)}, {NodeID: 0, Seed: seed(0x10)}, {NodeID: 1, Seed: seed(0x11)}, {NodeID: 2, Seed: seed(0x22)}},
		},
		Metadata: Metadata{
			SubmitterInfo:          SubmitterInfo{ActAs: ps(tBob, tAlice), CommandID: "cmd-rich"},
			SynchronizerID:         "da::12205b3d950499d3c6c3439ef3d65e913440ab4367c089556bcc6dd290c49c94d727::35-0",
			MediatorGroup:          1,
			TransactionUUID:        "0a1b2c3d-4e5f-4a6b-8c7d-0123456789ab",
			PreparationTime:        1767225600000000,
			MinLedgerEffectiveTime: u64(1767225500000000),
			MaxLedgerEffectiveTime: u64(1767225700000000),
			MaxRecordTime:          u64(1767225800000000),
			InputContracts: []InputContract{
				{Contract: *create(cid(3), tBob), CreatedAt: 1767000000000000, EventBlob: []byte("blob-3")},
				{Contract: *create(cid(1), tAlice), CreatedAt: 1766000000000000, EventBlob: []byte("blob-1")},
			},
		},
	}
	if sorted {
		slices.SortFunc(pt.Metadata.InputContracts, func(a, b InputContract) int {
			return bytes.Compare([]byte(a.Contract.ContractID), []byte(b.Contract.ContractID))
		})
	}
	if keys {
		key := &KeyWithMaintainers{Key: GlobalKey{TemplateID: tmpl, PackageName: "demo", Key: value.Party(tAlice), Hash: seed(0x77)}, Maintainers: ps(tBob, tAlice)}
		n := pt.Transaction.Nodes
		n[1].Exercise.Key, n[1].Exercise.ByKey = key, true
		n[2].Create.Key = key
		n[3].Fetch.Key, n[3].Fetch.ByKey = key, true
		n = append(n, Node{NodeID: "5", QueryByKey: &QueryByKey{LFVersion: "2", PackageName: "demo", TemplateID: tmpl,
			Exhaustive: true, Key: *key, Result: []string{cid(3)}}})
		n[1].Exercise.Children = append(n[1].Exercise.Children, "5")
		pt.Transaction.Nodes = n
		pt.Metadata.GlobalKeyMapping = []GlobalKeyMappingEntry{{Key: key.Key, Value: value.ContractID(cid(3))}}
	}
	return pt
}
