// Command mount serves ledgernode's JSON Ledger API under /ledger/ in an
// existing net/http server, next to the application's own routes.
//
//	go run ./examples/mount      # then: curl localhost:8080/ledger/livez
package main

import (
	"log"
	"net/http"
	"os"

	"github.com/ledgernode/ledgernode/httpadapter"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

func main() {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer node.Close()
	addr := "127.0.0.1:8080"
	if a := os.Getenv("ADDR"); a != "" {
		addr = a
	}
	log.Printf("serving on %s: /hello and the ledger under /ledger/", addr)
	log.Fatal(http.ListenAndServe(addr, newMux(node, nil)))
}

// newMux mounts the adapter under /ledger/ beside an application route. A
// nil verifier runs the adapter without authentication (development only).
func newMux(node *ledger.Node, verifier identity.Verifier) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("hello from the application\n")) })
	mux.Handle("/ledger/", http.StripPrefix("/ledger", httpadapter.New(node, httpadapter.Options{Verifier: verifier})))
	return mux
}
