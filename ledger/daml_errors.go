package ledger

import (
	"errors"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/apierr"
)

// lfCodes is the Canton code of each kind of *lf.Error. Every kind
// daml/lf can return has an entry (TestDamlErrorTable checks it).
var lfCodes = map[lf.ErrorKind]apierr.Code{
	lf.KindInvalidDAR:      apierr.InvalidDar,
	lf.KindInvalidZipEntry: apierr.InvalidZipEntry,
	lf.KindZipBomb:         apierr.ZipBomb,
	lf.KindParse:           apierr.DarParseError,
	lf.KindLanguageVersion: apierr.AllowedLanguageVersions,
	lf.KindDependencies:    apierr.DarDependenciesNotValid,
	lf.KindIdentifier:      apierr.InvalidArgument,
}

// damlError is the one place where the typed errors of the daml/ packages
// become Canton errors: an *lf.Error (anywhere in err's chain) becomes the
// *apierr.Error of its kind's code, with the error's message as the cause
// and its structured fields as Canton's context keys; the daml error stays
// reachable through Unwrap. Any other error, nil included, is returned
// unchanged. Add a case here for each new typed error of daml/ (for
// example engine errors).
func damlError(err error) error {
	var le *lf.Error
	if errors.As(err, &le) {
		return fromLF(le)
	}
	var ve *value.Error
	if errors.As(err, &ve) {
		return fromValue(ve)
	}
	return err
}

// fromValue maps a *value.Error: each value.ErrorKind has one code, and
// the cause is the error's text ("<message> at '<path>'").
func fromValue(ve *value.Error) *apierr.Error {
	code := apierr.InternalError
	switch ve.Kind {
	case value.KindInvalid:
		code = apierr.InvalidArgument
	case value.KindPreprocessing:
		code = apierr.CommandPreprocessingFailed
	}
	return code.New("%s", ve.Error())
}

// fromLF maps an *lf.Error.
func fromLF(le *lf.Error) *apierr.Error {
	code, ok := lfCodes[le.Kind]
	if !ok {
		return apierr.InternalError.Wrap(le, "unmapped Daml-LF error %s: %s", le.Kind, le.Message)
	}
	e := code.Wrap(le, "%s", le.Message)
	switch le.Kind {
	case lf.KindInvalidZipEntry, lf.KindZipBomb:
		if le.Entry != "" {
			e.WithContext("entry", le.Entry)
		}
	case lf.KindParse:
		if le.Dalf != "" {
			e.WithContext("dalf", le.Dalf)
		}
	case lf.KindLanguageVersion:
		e.WithContext("packageId", le.PackageID).WithContext("languageVersion", le.LanguageVersion)
	case lf.KindDependencies:
		e.WithContext("mainPackageId", le.MainPackageID).
			WithContext("missingDependencies", strings.Join(le.Missing, ",")).
			WithContext("extraDependencies", strings.Join(le.Extra, ","))
	}
	return e
}
