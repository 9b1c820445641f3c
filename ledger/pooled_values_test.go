package ledger_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestParallelCreatesReadBackAsAnswered commits Ping creates from
// parallel submitters and checks that each transaction as its
// submission answered it (rendered from the node's memory) is the one a
// later read of the store gives: the stored forms' buffers, reused once
// committed (store.Tx.SetPooled), are kept by nothing the answer or the
// node's caches hold.
func TestParallelCreatesReadBackAsAnswered(t *testing.T) {
	t.Parallel()
	p := newPingBench(t)
	a := jsonapi.New(p.n)
	const workers, each = 8, 25
	type answer struct {
		updateID string
		tx       json.RawMessage
	}
	var mu sync.Mutex
	var answers []answer
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("p-%d-%d", w, i)
				body, err := a.SubmitAndWaitForTransaction(t.Context(), jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
					CommandID: id, ActAs: []string{p.alice}, UserID: "u1",
					Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: p.pingID,
						CreateArguments: json.RawMessage(fmt.Sprintf(`{"id": %q, "initiator": %q, "responder": %q}`, id, p.alice, p.bob))}}},
				}})
				if err != nil {
					t.Error(err)
					return
				}
				var got struct {
					Transaction json.RawMessage `json:"transaction"`
				}
				var head struct {
					UpdateID string `json:"updateId"`
				}
				if err := json.Unmarshal(body, &got); err != nil {
					t.Error(err)
					return
				}
				if err := json.Unmarshal(got.Transaction, &head); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				answers = append(answers, answer{head.UpdateID, bytes.Clone(got.Transaction)})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(answers) != workers*each {
		t.Fatalf("%d answers, want %d", len(answers), workers*each)
	}
	for _, ans := range answers {
		body, err := a.TransactionByID(t.Context(), jsonapi.GetTransactionByIDRequest{UpdateID: ans.updateID, RequestingParties: []string{p.alice}})
		if err != nil {
			t.Fatal(err)
		}
		var read struct {
			Transaction json.RawMessage `json:"transaction"`
		}
		if err := json.Unmarshal(body, &read); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(read.Transaction, ans.tx) {
			t.Fatalf("update %s: answered\n%s\nread back\n%s", ans.updateID, ans.tx, read.Transaction)
		}
	}
}
