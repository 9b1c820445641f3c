package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// TestLargeValues: every value a client may legally send is storable in
// memory as on disk: a create whose Text argument is 1 MiB or 7 MiB
// (Canton accepts an 8 MiB JSON body), or a command of eight creates of 900
// KiB each, commits and reads back equal (on disk, after a restart too).
func TestLargeValues(t *testing.T) {
	t.Parallel()
	for _, disk := range []bool{false, true} {
		opts := ledger.Options{}
		name := "in memory"
		if disk {
			opts.Dir, name = t.TempDir(), "on disk"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			n := ledgertest.Open(t, opts)
			d, ids := lftest.DAR(lftest.TemplatePackage("note", "1.0.0", nil, owner, lftest.Field{Name: "text", Type: lftest.B(lftest.Text)}))
			ledgertest.MustUploadDAR(t, n, d)
			alice := ledgertest.MustAllocate(t, n, "alice")
			readBack := map[string]string{} // contract id -> text
			check := func(n *ledger.Node) {
				t.Helper()
				for cid, text := range readBack {
					ev, err := n.ContractEvents(ctx, value.ContractID(cid), ledger.ReadFormat{AnyParty: []ledger.Filter{}})
					if err != nil {
						t.Fatalf("reading back: %v", err)
					}
					rec, _ := ev.Created.Argument.(value.Record)
					var got value.Text
					for _, f := range rec.Fields {
						if f.Label == "text" {
							got, _ = f.Value.(value.Text)
						}
					}
					if string(got) != text {
						t.Fatalf("read back a %d-byte text (%T), want the %d bytes sent", len(got), ev.Created.Argument, len(text))
					}
				}
			}
			for _, tc := range []struct {
				size, creates int
			}{{1 << 20, 1}, {7 << 20, 1}, {900 << 10, 8}} {
				var cmds []jsonapi.JsCommand
				var texts []string
				for i := range tc.creates {
					text := strings.Repeat(fmt.Sprint(i), tc.size)
					args, _ := json.Marshal(map[string]string{"owner": alice, "text": text})
					texts = append(texts, text)
					cmds = append(cmds, jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:T", CreateArguments: args}})
				}
				resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
					CommandID: fmt.Sprint("big", tc.size, tc.creates), ActAs: []string{alice}, UserID: "u1", Commands: cmds}}))
				if err != nil {
					t.Fatalf("%d creates of a %d-byte Text: %.300v", tc.creates, tc.size, err)
				}
				for i, e := range resp.Transaction.Events {
					readBack[e.CreatedEvent.ContractID] = texts[i]
				}
			}
			check(n)
			if disk { // and after a restart
				n.Close()
				check(ledgertest.Open(t, opts))
			}
		})
	}
}
