package ledger

import (
	"github.com/ledgernode/ledgernode/apierr"
)

// Input rules of the Node methods that are not about JSON. The rules of
// a JSON request's shape (identifiers, one-of variants, enums, timestamps
// as Canton's JSON codecs check them) are the JSON layer's
// (ledger/jsonapi/shapes.go).

// checkTapsMaxPasses refuses a tapsMaxPasses that is set but not strictly
// positive, as Canton's CommandsValidator (validateTapsMaxPasses) does
// for submissions and prepare requests alike (a set value), after the other field
// checks. A value above the participant's limit is not an error there (it
// is capped), and ledgernode selects packages in one pass anyway.
func checkTapsMaxPasses(v int64) error {
	if v <= 0 {
		return apierr.InvalidArgument.New("taps_max_passes must be strictly positive, but got %d.", v)
	}
	return nil
}
