package ledger_test

import (
	"encoding/json"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// decodeAnswer decodes an answer of a JSON API method that returns the
// bytes the route writes (jsonapi.Body) into its wire type T, for tests
// that read the answer's fields.
func decodeAnswer[T any](b jsonapi.Body, err error) (T, error) {
	var out T
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(b, &out)
	return out, err
}
