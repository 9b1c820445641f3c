package ledger

import (
	"encoding/json"

	"github.com/ledgernode/ledgernode/vetting"
)

// checkValue validates a Daml value against an LF type (TEMPORARY: until
// vetting.CheckValue lands it only compacts the JSON).
func checkValue(raw json.RawMessage, t vetting.Type, path string, lookup func(string) *vetting.Package) (json.RawMessage, error) {
	return raw, nil
}
