package httpadapter_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/ledger"
)

// Example mounts the adapter under /ledger/ in an existing net/http mux,
// next to the embedder's own routes.
func Example() {
	node, err := ledger.Open(ledger.Options{InMemory: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer node.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "hi") })
	api := httpadapter.New(node, httpadapter.Options{
		// Verifier: a JWT verifier from package identity; nil is auth mode
		// "none" (every caller is a participant admin), for local use only.
		Logger: slog.New(slog.DiscardHandler),
	})
	mux.Handle("/ledger/", http.StripPrefix("/ledger", api))

	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, path := range []string{"/hello", "/ledger/livez", "/ledger/readyz", "/ledger/v2/parties/participant-id"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if path == "/ledger/v2/parties/participant-id" {
			body = []byte(fmt.Sprintf("%.30s…", body))
		}
		fmt.Printf("%s %d %q\n", path, resp.StatusCode, body)
	}
	// Output:
	// /hello 200 "hi"
	// /ledger/livez 200 "{}\n"
	// /ledger/readyz 200 "[+] ledger ok (SERVING)\nreadyz check passed\n"
	// /ledger/v2/parties/participant-id 200 "{\"participantId\":\"participant1…"
}
