package ledger

import (
	"errors"

	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/apierr"
)

// valueErr maps an error of daml/value to Canton's error: each
// value.ErrorKind has one code, and the cause is the error's text
// ("<message> at '<path>'") after the code's prefix. Other errors pass
// through unchanged.
func valueErr(err error) error {
	var ve *value.Error
	if !errors.As(err, &ve) {
		return err
	}
	code := apierr.InternalError
	switch ve.Kind {
	case value.KindInvalid:
		code = apierr.InvalidArgument
	case value.KindPreprocessing:
		code = apierr.CommandPreprocessingFailed
	}
	return code.New("%s", ve.Error())
}
