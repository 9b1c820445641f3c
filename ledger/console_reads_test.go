package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestTransactionNodes: the re-interpretation of a committed Bong
// ProcessMerge is the transaction the engine committed, node for node:
// its two fetches included, with committed contract ids. It is read with
// the rights of an update read.
func TestTransactionNodes(t *testing.T) {
	t.Parallel()
	dar := realDAR(t, "canton-builtin-admin-workflow-ping.dar")
	ctx := context.Background()
	n := ledgertest.Open(t, ledger.Options{})
	ledgertest.MustUploadDAR(t, n, dar)
	alice, bob, dave := ledgertest.MustAllocate(t, n, "alice"), ledgertest.MustAllocate(t, n, "bob"), ledgertest.MustAllocate(t, n, "dave")
	pm, err := n.PackageSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var pkg string
	for id, p := range pm {
		if p.Name == "canton-builtin-admin-workflow-ping" {
			pkg = id
		}
	}
	lookup := func(id string) *lf.Package { return pm[id] }
	tid := func(name string) lf.TypeConID {
		return lf.TypeConID{PackageID: pkg, Module: "Canton.Internal.Bong", Name: name}
	}
	// submit creates a contract of template (cid == "") or exercises
	// choice on the contract cid, as party, with arg in Daml JSON.
	submit := func(party, template, cid, choice string, arg map[string]any) *ledger.Committed {
		t.Helper()
		raw, _ := json.Marshal(arg)
		id := tid(template)
		typ := value.TypeOf(pkg, id.Module, id.Name)
		if cid != "" {
			typ = pm[pkg].Choice(id.Module, id.Name, choice).ArgType
		}
		v, err := value.FromJSON(raw, typ, lookup)
		if err != nil {
			t.Fatal(err)
		}
		var cmd ledger.Command = ledger.CreateCommand{Template: ledger.TemplateByID(id), Arguments: v}
		if cid != "" {
			cmd = ledger.ExerciseCommand{Template: ledger.TemplateByID(id), ContractID: value.ContractID(cid), Choice: choice, Argument: v}
		}
		return ledgertest.Submit(t, n, ledger.Commands{ActAs: []string{party}, Commands: []ledger.Command{cmd}})
	}
	createdBy := func(t *tx.Transaction, name string) []string {
		var out []string
		for _, nd := range t.All() {
			if c, ok := nd.(*tx.Create); ok && c.TemplateID.Name == name {
				out = append(out, string(c.ContractID))
			}
		}
		return out
	}
	r := submit(alice, "BongProposal", "", "", map[string]any{"id": "b", "initiator": alice,
		"candidates": []string{bob}, "validators": []string{}, "responders": []string{bob}, "maxLevel": "1", "timeout": "2030-01-01T00:00:00Z"})
	r = submit(bob, "BongProposal", createdBy(r.Transaction, "BongProposal")[0], "Accept",
		map[string]any{"validator": bob})
	r = submit(bob, "Explode", createdBy(r.Transaction, "Explode")[0], "ProcessExplode",
		map[string]any{"winner": bob})
	coll := createdBy(r.Transaction, "Collapse")
	merge := submit(bob, "Merge", createdBy(r.Transaction, "Merge")[0], "ProcessMerge",
		map[string]any{"winner": bob, "leftId": coll[0], "rightId": coll[1]})

	for _, parties := range [][]string{nil, {bob}} {
		got, err := n.TransactionNodes(ctx, merge.UpdateID, parties)
		if err != nil {
			t.Fatalf("parties %v: %v", parties, err)
		}
		if diff := cmp.Diff(merge.Transaction.Nodes, got.Nodes, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("parties %v: re-interpreted nodes (-committed +got):\n%s", parties, diff)
		}
		var fetched []string
		for _, nd := range got.Nodes {
			if f, ok := nd.(*tx.Fetch); ok {
				fetched = append(fetched, string(f.ContractID))
			}
		}
		if !cmp.Equal(fetched, coll) {
			t.Errorf("parties %v: fetches of %v, want the Collapses %v", parties, fetched, coll)
		}
	}
	refusals := []struct {
		name    string
		ctx     context.Context
		id      string
		parties []string
		code    apierr.Code
	}{
		{"a party that does not see it", ctx, merge.UpdateID, []string{dave}, apierr.UpdateNotFound},
		{"an unknown update", ctx, "1220" + strings.Repeat("00", 32), nil, apierr.UpdateNotFound},
		{"a malformed update id", ctx, "1220" + merge.UpdateID[4:10], nil, apierr.InvalidArgument},
		{"a user who may not read as bob", ledger.WithPrincipal(ctx, identity.Principal{UserID: "u", Rights: []identity.Right{{Kind: identity.RightCanReadAs, Party: dave}}}),
			merge.UpdateID, []string{bob}, apierr.PermissionDenied},
	}
	for _, rc := range refusals {
		_, err := n.TransactionNodes(rc.ctx, rc.id, rc.parties)
		var e *apierr.Error
		if !errors.As(err, &e) || e.Code.Name != rc.code.Name {
			t.Errorf("%s: %v, want %s", rc.name, err, rc.code.Name)
		}
	}
}
