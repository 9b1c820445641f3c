package httpadapter

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestEveryOperationAnswers walks every path × method of the OpenAPI
// document and checks that the adapter serves it: no router 404 (the
// legacy {"errors", "status"} body) and no 405. A 404 JsCantonError about
// a missing resource (USER_NOT_FOUND for a dummy user id) is an answer.
// Path parameters get dummy values; bodies are "{}".
func TestEveryOperationAnswers(t *testing.T) {
	t.Parallel()
	requireSpec(t)
	h := newHarness(t, Options{})
	param := regexp.MustCompile(`\{[^}]+\}`)
	paths := specDoc.Paths.InMatchingOrder()
	slices.Sort(paths)
	count := 0
	for _, path := range paths {
		item := specDoc.Paths.Find(path)
		for method := range item.Operations() {
			count++
			target := param.ReplaceAllStringFunc(path, func(p string) string {
				if strings.Contains(p, "offset") {
					return "1"
				}
				return "dummy"
			})
			call := httpCall{method: method, target: target}
			if method != http.MethodGet && method != http.MethodDelete {
				call.body = "{}"
			}
			t.Run(method+" "+path, func(t *testing.T) {
				rec := h.do(call)
				switch rec.Code {
				case http.StatusMethodNotAllowed:
					t.Fatalf("405: the method is not served; body %s", rec.Body)
				case http.StatusNotFound:
					var e map[string]json.RawMessage
					if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e["code"] == nil {
						t.Fatalf("404 without a JsCantonError (the path is not served): %s", rec.Body)
					}
				}
			})
		}
	}
	if count < 60 {
		t.Errorf("walked %d operations; the document has more", count)
	}
}
