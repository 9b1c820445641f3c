package console

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
)

// TestInterfaces: on a node with Splice's Amulet, the token-standard
// Holding package lists the Holding interface with its view type and
// Amulet among its implementations, and an Amulet's page shows its
// Holding view, computed by the node.
func TestInterfaces(t *testing.T) {
	t.Parallel()
	dar, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "dars", "splice-amulet-0.1.8.dar"))
	if err != nil {
		t.Skipf("the Amulet DAR is not available: %v", err)
	}
	ctx := context.Background()
	n, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		t.Fatal(err)
	}
	dso, owner := allocate(t, n, "dso"), allocate(t, n, "owner")
	pm, err := n.PackageSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var amuletPkg, holdingPkg string
	for id, p := range pm {
		switch p.Name {
		case "splice-amulet":
			amuletPkg = id
		case "splice-api-token-holding-v1":
			holdingPkg = id
		}
	}
	amulet := lf.TypeConID{PackageID: amuletPkg, Module: "Splice.Amulet", Name: "Amulet"}
	raw, _ := json.Marshal(map[string]any{"dso": dso, "owner": owner, "amount": map[string]any{"initialAmount": "12.5",
		"createdAt": map[string]any{"number": "0"}, "ratePerRound": map[string]any{"rate": "0.0001"}}})
	arg, err := value.FromJSON(raw, value.TypeOf(amuletPkg, amulet.Module, amulet.Name), func(id string) *lf.Package { return pm[id] })
	if err != nil {
		t.Fatal(err)
	}
	res, err := submitCommands(ctx, n, []string{dso, owner}, []testCommand{{Kind: testCreate, TemplateID: amulet, CreateArgument: arg}})
	if err != nil {
		t.Fatal(err)
	}
	cid := created(res.Transaction)["Amulet"][0]

	srv := serve(t, &world{node: n}, false, "")
	c := client(t)
	// The create form nests the records of the argument; acting as both
	// signatories, it creates the same Amulet.
	_, form := get(t, c, srv.URL+"/console/create?template="+url.QueryEscape(amulet.String()))
	for _, want := range []string{`name="f.amount.initialAmount"`, `name="f.amount.createdAt.number"`, `name="f.amount.ratePerRound.rate"`, "<fieldset><legend>amount"} {
		if !strings.Contains(form, want) {
			t.Errorf("the Amulet create form has no %s", want)
		}
	}
	status, body, _ := post(t, c, srv.URL+"/console/create", url.Values{"csrf": {csrfOf(t, form)}, "template": {amulet.String()},
		"party": {dso + ", " + owner}, "f.dso": {dso}, "f.owner": {owner}, "f.amount.initialAmount": {"12.5"},
		"f.amount.createdAt.number": {"0"}, "f.amount.ratePerRound.rate": {"0.0001"}})
	if status != 200 || !strings.Contains(body, `id="result-contract"`) {
		t.Errorf("creating an Amulet through the form: %d\n%s", status, body)
	}
	_, pkgPage := get(t, c, srv.URL+"/console/packages/"+holdingPkg)
	for _, want := range []string{"interface Holding", "view: <code>Splice.Api.Token.HoldingV1:HoldingView</code>", amulet.String()} {
		if !strings.Contains(pkgPage, want) {
			t.Errorf("the Holding package page does not show %q", want)
		}
	}
	_, page := get(t, c, srv.URL+"/console/contracts/"+cid+"?party="+url.QueryEscape(owner))
	i := strings.Index(page, "<h2>Interface views</h2>")
	if i < 0 {
		t.Fatalf("the Amulet's page shows no interface view")
	}
	view := page[i:]
	for _, want := range []string{"Splice.Api.Token.HoldingV1:Holding", "12.5", "instrumentId"} {
		if !strings.Contains(view, want) {
			t.Errorf("the Holding view does not show %q", want)
		}
	}
}
