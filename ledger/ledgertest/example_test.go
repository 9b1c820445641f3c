package ledgertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// In a test, open a node, allocate parties and upload the application's
// DAR; the node is closed when the test ends. (t is the test's *testing.T;
// the examples run their body with a stand-in, see runExample.)
func ExampleOpen() {
	runExample(func(t testing.TB) {
		node := ledgertest.Open(t, ledger.Options{})
		alice := ledgertest.MustAllocate(t, node, "alice")
		dar, ids := lftest.DAR(lftest.TemplatePackage("notes", "1.0.0", nil,
			lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}))
		ledgertest.MustUploadDAR(t, node, dar)

		args, _ := json.Marshal(map[string]string{"owner": alice})
		resp, err := jsonapi.New(node).SubmitAndWait(context.Background(), jsonapi.JsCommands{CommandID: "c1", ActAs: []string{alice},
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ids[0] + ":Main:T", CreateArguments: args}}}})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(strings.HasPrefix(alice, "alice::1220"), resp.CompletionOffset)
	})
	// Output: true 2
}

// Serve the node over HTTP, as Canton's JSON Ledger API, for a client
// under test.
func ExampleServe() {
	runExample(func(t testing.TB) {
		node := ledgertest.Open(t, ledger.Options{})
		srv, token := ledgertest.Serve(t, node)

		req, _ := http.NewRequest("GET", srv.URL+"/v2/version", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v struct{ Version string }
		body, _ := io.ReadAll(resp.Body)
		json.Unmarshal(body, &v)
		fmt.Println(resp.StatusCode, v.Version)

		anonymous, _ := srv.Client().Get(srv.URL + "/v2/version")
		anonymous.Body.Close()
		fmt.Println(anonymous.StatusCode)
	})
	// Output:
	// 200 3.5.10
	// 401
}

// exampleT stands in for a test's *testing.T in the examples: Fatal ends
// the example, Cleanup functions run when it ends. Embedding testing.TB
// (nil) makes it one; only the methods ledgertest and the examples call
// are implemented.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (*exampleT) Helper()                        {}
func (t *exampleT) Cleanup(f func())             { t.cleanups = append(t.cleanups, f) }
func (*exampleT) Errorf(format string, a ...any) { fmt.Printf("error: "+format+"\n", a...) }
func (t *exampleT) Fatalf(format string, a ...any) {
	t.Errorf(format, a...)
	panic(t)
}
func (t *exampleT) Fatal(a ...any) { t.Fatalf("%s", fmt.Sprint(a...)) }

// runExample runs body as a test would, then its cleanups.
func runExample(body func(t testing.TB)) {
	t := &exampleT{}
	defer func() {
		for i := len(t.cleanups) - 1; i >= 0; i-- {
			t.cleanups[i]()
		}
		if p := recover(); p != nil && p != t {
			panic(p)
		}
	}()
	body(t)
}
