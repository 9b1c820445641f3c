package console

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// TestReassignmentPages: on a node with two synchronizers, a Ping moved
// from the first to the second shows on alice's updates page as two
// reassignment rows, and each reassignment's page names the contract, the
// source and target synchronizers and the reassignment counter; the
// contract's page shows it active on its new synchronizer.
func TestReassignmentPages(t *testing.T) {
	t.Parallel()
	dar := readPingDAR(t)
	syncs := []string{"sync-a::1220" + strings.Repeat("a", 64), "sync-b::1220" + strings.Repeat("b", 64)}
	node, err := ledger.Open(ledger.Options{InMemory: true, Synchronizers: syncs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Close() })
	ctx := t.Context()
	for _, sync := range syncs {
		if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar, SynchronizerID: sync}); err != nil {
			t.Fatal(err)
		}
	}
	alice := allocate(t, node, "alice")

	ping := ledger.TemplateByName("canton-builtin-admin-workflow-ping", "Canton.Internal.Ping", "Ping")
	created, err := node.Submit(ctx, ledger.Commands{ActAs: []string{alice}, CommandID: "ping-moved", Commands: []ledger.Command{
		ledger.CreateCommand{Template: ping, Arguments: value.Record{Fields: []value.RecordField{
			{Label: "id", Value: value.Text("moved")}, {Label: "initiator", Value: value.Party(alice)}, {Label: "responder", Value: value.Party(alice)}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	cid := created.Created()[0].ContractID
	un, err := node.Reassign(ctx, ledger.ReassignCommands{CommandID: "unassign-1", Submitter: alice, Commands: []ledger.ReassignCommand{
		ledger.UnassignContract{ContractID: cid, Source: syncs[0], Target: syncs[1]}}}, ledger.ReassignmentEvents(ledger.ReadAs(alice)))
	if err != nil {
		t.Fatal(err)
	}
	unassigned, ok := un.Events[0].(*update.UnassignedEvent)
	if !ok {
		t.Fatalf("the unassignment's event is a %T", un.Events[0])
	}
	as, err := node.Reassign(ctx, ledger.ReassignCommands{CommandID: "assign-1", Submitter: alice, Commands: []ledger.ReassignCommand{
		ledger.AssignContract{ReassignmentID: unassigned.ReassignmentID, Source: syncs[0], Target: syncs[1]}}})
	if err != nil {
		t.Fatal(err)
	}

	srv := serve(t, &world{node: node}, false, "")
	c := client(t)
	contains := func(page string, want ...string) {
		t.Helper()
		code, body := get(t, c, srv.URL+page)
		body = html.UnescapeString(body)
		if code != 200 {
			t.Fatalf("GET %s: %d\n%s", page, code, body)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: no %q in the page", page, w)
			}
		}
	}
	contains("/console/updates?party="+url.QueryEscape(alice), `<tr class="reassignment">`, un.UpdateID[:8], as.UpdateID[:8])
	contains("/console/updates/"+url.PathEscape(un.UpdateID)+"?party="+url.QueryEscape(alice),
		"unassigned "+string(cid), "from "+syncs[0]+" to "+syncs[1], "counter 1")
	contains("/console/updates/"+url.PathEscape(as.UpdateID)+"?party="+url.QueryEscape(alice),
		"assigned "+string(cid), "from "+syncs[0]+" to "+syncs[1], "counter 1")
	contains("/console/contracts/"+url.PathEscape(string(cid)), "Ping", alice)
}
