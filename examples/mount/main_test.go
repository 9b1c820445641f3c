package main

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

func TestMounted(t *testing.T) {
	t.Parallel()
	node, err := ledger.Open(ledger.Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	srv := httptest.NewServer(newMux(node, nil))
	defer srv.Close()
	for path, want := range map[string]string{"/hello": "hello", "/ledger/livez": "{}", "/ledger/v2/parties/participant-id": "participantId"} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d %s", path, resp.StatusCode, body)
		}
	}
}
