package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// TestSeededArgs: a Daml Script's submission (AllowEffectfulRollback)
// puts the arguments of the contracts it creates in the cache of decoded
// arguments, under their stored bytes, as the first read would decode
// them: the entry is there before any read and equals the uncached
// decoding of the stored JSON, for an argument whose JSON the store
// escapes (<, &) and whose trailing Optional the engine drops (None). A
// Ledger API submission leaves the cache to the first read.
func TestSeededArgs(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	p := lftest.TemplatePackage("seed-test", "1.0.0", nil,
		lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)},
		lftest.Field{Name: "label", Type: lftest.B(lftest.Text)},
		lftest.Field{Name: "tags", Type: lftest.ListOf(lftest.B(lftest.Text))},
		lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))})
	dar, _ := lftest.DAR(p)
	if err := n.UploadDAR(ctx, UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	pkgID, _ := lftest.Dalf(p)
	tid := lf.TypeConID{PackageID: pkgID, Module: "Main", Name: "T"}
	alice, err := n.AllocateParty(ctx, AllocatePartyRequest{PartyIDHint: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		name   string
		script bool
	}{{"script", true}, {"ledger API", false}} {
		label := value.Text("a <b> & c " + c.name)
		arg := value.Record{RecordID: &tid, Fields: []value.RecordField{
			{Label: "owner", Value: value.Party(alice.Party)}, {Label: "label", Value: label},
			{Label: "tags", Value: value.List{value.Text("x"), value.Text(c.name)}}, {Label: "note", Value: value.Optional{}}}}
		var opts []SubmitOption
		if c.script {
			opts = append(opts, AllowEffectfulRollback())
		}
		res, err := n.Submit(ctx, Commands{ActAs: []string{alice.Party}, CommandID: "seed-" + string(rune('a'+i)),
			Commands: []Command{CreateCommand{Template: TemplateByID(tid), Arguments: arg}}}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		cid := string(res.Created()[0].ContractID)
		err = n.st.View(func(r *store.Reader) error {
			rec, err := loadSharedRecord(r, cid)
			if err != nil {
				return err
			}
			pkgs, err := n.snapshotPkgView(store.ReadOnlyTx(r), rec.SynchronizerID)
			if err != nil {
				return err
			}
			pkg := pkgs.lookup(pkgID)
			e, ok := storedArgs.gens.get(rec.Create.Argument, func(e argEntry) bool { return e.templateID == rec.Create.TemplateID && e.pkg == pkg })
			if ok != c.script {
				t.Fatalf("%s: an entry before any read: %v, want %v", c.name, ok, c.script)
			}
			if ok {
				if d := cmp.Diff(uncached(t, pkgs.lookup, &rec.Create), e.v); d != "" {
					t.Errorf("%s: the seeded argument (-decoded +seeded):\n%s", c.name, d)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
