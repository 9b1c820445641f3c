package ledger

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/engine/prim"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/typecheck"
	"github.com/ledgernode/ledgernode/daml/value"
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
// unchanged. An *engine.Error is mapped by fromEngine. Add a case here
// for each new typed error of daml/.
func damlError(err error) error {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return fromEngine(ee)
	}
	var le *lf.Error
	if errors.As(err, &le) {
		return fromLF(le)
	}
	var ve *value.Error
	if errors.As(err, &ve) {
		return fromValue(ve)
	}
	var te *typecheck.Error
	if errors.As(err, &te) {
		return fromTypecheck(te)
	}
	return err
}

// fromTypecheck maps a package the type checker refused to Canton's
// DAR_VALIDATION_ERROR (PackageServiceErrors.Validation.ValidationError):
// a fixed cause, and the validator's error in the validationError context
// entry (bounded: a type printed in it may be long).
func fromTypecheck(te *typecheck.Error) *apierr.Error {
	return apierr.DarValidationError.Wrap(te, "Package validation failed.").
		WithContext("validationError", apierr.Quote(te.CantonString()))
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

// engineCodes is the Canton code of each kind of *engine.Error (Canton's
// RejectionGenerators, with the codes of CommandExecutionErrors and
// ConsistencyErrors). Every kind has an entry except engine.ErrCanceled,
// which is the caller's context ending and is no Canton error (see
// fromEngine); TestEngineErrorTable checks it. ErrFailureStatus's code
// takes its category from the error.
var engineCodes = map[engine.ErrorKind]apierr.Code{
	engine.ErrInternal:                                   apierr.InternalError,
	engine.ErrPackage:                                    apierr.InternalError,
	engine.ErrUserError:                                  apierr.InterpretationUserError,
	engine.ErrFailureStatus:                              apierr.DamlFailure,
	engine.ErrNonComparableValues:                        apierr.NonComparableValues,
	engine.ErrContractIDComparability:                    apierr.ContractIDComparability,
	engine.ErrValueNesting:                               apierr.ValueNesting,
	engine.ErrMalformedText:                              apierr.MalformedText,
	engine.ErrWronglyTypedContract:                       apierr.WronglyTypedContract,
	engine.ErrContractDoesNotImplementRequiringInterface: apierr.ContractDoesNotImplementRequiringInterface,
	engine.ErrCryptoMalformedByteEncoding:                apierr.CryptoMalformedByteEncoding,
	engine.ErrCryptoMalformedKey:                         apierr.CryptoMalformedKey,
	engine.ErrCryptoMalformedSignature:                   apierr.CryptoMalformedSignature,
	engine.ErrStepLimit:                                  apierr.InterpretationDevError,
	engine.ErrUnsupported:                                apierr.Unimplemented,
	engine.ErrContractNotFound:                           apierr.ContractNotFound,
	engine.ErrContractNotActive:                          apierr.ContractNotActive,
	engine.ErrFailedAuthorization:                        apierr.DamlAuthorizationError,
	engine.ErrTemplatePreconditionViolated:               apierr.TemplatePreconditionViolated,
	engine.ErrContractDoesNotImplementInterface:          apierr.ContractDoesNotImplementInterface,
	engine.ErrEffectfulRollback:                          apierr.DamlEffectfulRollbackError,
	engine.ErrUpgradeTranslationFailed:                   apierr.UpgradeTranslationFailed,
	engine.ErrUpgradeValidationFailed:                    apierr.UpgradeValidationFailed,
	engine.ErrContractKeyNotFound:                        apierr.ContractKeyNotFound,
	engine.ErrUnresolvedPackageName:                      apierr.UnresolvedPackageName,
	engine.ErrCreateEmptyContractKeyMaintainers:          apierr.CreateEmptyContractKeyMaintainers,
	engine.ErrFetchEmptyContractKeyMaintainers:           apierr.FetchEmptyContractKeyMaintainers,
	engine.ErrContractIDInContractKey:                    apierr.ContractIDInContractKey,
}

// interpretationPrefix is what Canton puts before the engine's rendered
// message (engine.Error.Interpretation.DamlException.message).
const interpretationPrefix = "Interpretation error: Error: "

// contractNotFoundPrefix starts the message, and Canton's cause, of
// ContractNotFound.
const contractNotFoundPrefix = "Contract could not be found with id "

// fromEngine maps an *engine.Error to Canton's error.
//
// The cause is Canton's: "Interpretation error: Error: " followed by
// Speedy's message, which the engine's Message holds (for ErrUserError
// and ErrFailureStatus the engine keeps only the user's text, and the
// "User abort: " / "User failure: <id> (error category <cat>): " head is
// added here). ContractNotFound and ContractKeyNotFound messages are the
// whole cause, as in Canton. Internal crashes and package errors are
// LEDGER_API_INTERNAL_ERROR (category 4, redacted for clients). The step
// budget of engine.Options.MaxSteps, which Canton does not have, is
// reported as Speedy's cost-budget error (INTERPRETATION_DEV_ERROR,
// "Cost budget has been exceeded").
//
// ErrCanceled is the caller's context ending: it becomes
// INTERPRETATION_TIME_EXCEEDED when the context was ended by the deadline
// of withInterpretationDeadline (an *interpretationDeadline in the error
// chain), and otherwise the bare context error (context.Canceled or
// context.DeadlineExceeded), as the ledger reports cancellations
// everywhere.
func fromEngine(ee *engine.Error) error {
	if ee.Kind == engine.ErrCanceled {
		var dl *interpretationDeadline
		if errors.As(ee.Cause, &dl) {
			return dl.apiError(ee)
		}
		if ee.Cause != nil {
			return ee.Cause
		}
		return apierr.InternalError.Wrap(ee, "%s", ee.Error())
	}
	code, ok := engineCodes[ee.Kind]
	if !ok {
		return apierr.InternalError.Wrap(ee, "unmapped Daml engine error %s: %s", ee.Kind, ee.Message)
	}
	switch ee.Kind {
	case engine.ErrInternal:
		return code.Wrap(ee, "Daml-Engine interpretation failed with internal error: %s", ee.Message)
	case engine.ErrPackage, engine.ErrUnsupported:
		return code.Wrap(ee, "%s", ee.Message)
	case engine.ErrContractNotFound, engine.ErrContractKeyNotFound:
		e := code.Wrap(ee, "%s", ee.Message)
		if ee.Kind == engine.ErrContractNotFound {
			if cid := notFoundCID(ee); cid != "" {
				e.WithResource("CONTRACT_ID", cid)
			}
		}
		return e
	case engine.ErrFailureStatus:
		return damlFailure(ee)
	case engine.ErrUserError:
		return code.Wrap(ee, "%sUser abort: %s", interpretationPrefix, ee.Message).
			WithResource("EXCEPTION_TEXT", ee.Message)
	case engine.ErrStepLimit:
		return code.Wrap(ee, "%sCost budget has been exceeded:\n%s", interpretationPrefix, ee.Message).
			WithResource("DEV_ERROR_TYPE", "Cost")
	}
	e := code.Wrap(ee, "%s%s", interpretationPrefix, ee.Message)
	switch ee.Kind {
	case engine.ErrContractNotActive:
		var na *tx.ContractNotActiveError
		if errors.As(ee.Cause, &na) {
			if na.TemplateID.Name != "" {
				e.WithResource("TEMPLATE_ID", na.TemplateID.String())
			}
			e.WithResource("CONTRACT_ID", string(na.ContractID))
		}
	case engine.ErrCryptoMalformedByteEncoding, engine.ErrCryptoMalformedKey, engine.ErrCryptoMalformedSignature:
		var ce *prim.CryptoError
		if errors.As(ee.Cause, &ce) {
			e.WithResource("CRYPTO_VALUE", ce.Value)
		}
	}
	return e
}

// notFoundCID is the contract id of a ContractNotFound error: the
// *tx.ContractNotFoundError's when that is the cause, otherwise the id the
// message ends with (the engine's message is Canton's fixed
// "Contract could not be found with id <cid>"), or "" when neither.
func notFoundCID(ee *engine.Error) string {
	var nf *tx.ContractNotFoundError
	if errors.As(ee.Cause, &nf) {
		return string(nf.ContractID)
	}
	if cid, ok := strings.CutPrefix(ee.Message, contractNotFoundPrefix); ok && cid != "" && !strings.ContainsAny(cid, " \n") {
		return cid
	}
	return ""
}

// damlFailure maps FAIL_WITH_STATUS and unhandled exceptions to Canton's
// DAML_FAILURE (CommandExecutionErrors.Interpreter.FailureStatus): the
// category is the failure's own, the context holds the failure's
// metadata and then error_id (which a metadata key of that name cannot
// override). A category that is not Canton's becomes
// LEDGER_API_INTERNAL_ERROR with Canton's text. Canton also adds the
// transaction trace as exercise_trace; the engine does not report one, so
// that key is absent.
func damlFailure(ee *engine.Error) *apierr.Error {
	cause := fmt.Sprintf("%sUser failure: %s (error category %d): %s", interpretationPrefix, ee.ErrorID, ee.Category, ee.Message)
	cat := apierr.Category(ee.Category)
	if int64(cat) != ee.Category || !cat.Valid() {
		return apierr.InternalError.Wrap(ee, "Error category ordinal %d is not a valid error category. "+
			"This is likely a programming bug. Please report this error. Original raised error cause: %s", ee.Category, cause)
	}
	e := apierr.DamlFailure.InCategory(cat).Wrap(ee, "%s", cause)
	keys := make([]string, 0, len(ee.Metadata))
	for k := range ee.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e.WithContext(k, ee.Metadata[k])
	}
	return e.WithContext("error_id", ee.ErrorID)
}

// interpretationDeadline is the cause of a context ended by the
// interpretation time limit: the ledger effective time plus the
// ledger-time/record-time tolerance (Canton's
// StoreBackedCommandInterpreter). Build the context with
// withInterpretationDeadline.
type interpretationDeadline struct {
	let       time.Time
	tolerance time.Duration
}

// Error returns a short description; the client sees apiError instead.
func (d *interpretationDeadline) Error() string {
	return "interpretation time limit " + d.let.Add(d.tolerance).UTC().Format(time.RFC3339Nano) + " exceeded"
}

// apiError is Canton's INTERPRETATION_TIME_EXCEEDED for the deadline,
// with its cause text (RejectionGenerators; the engine reports no
// transaction trace, so none is appended). It is retryable after 60 s
// (apierr.Error.Retry). It wraps err, the engine's error.
func (d *interpretationDeadline) apiError(err error) *apierr.Error {
	return apierr.InterpretationTimeExceeded.Wrap(err, "Time exceeds limit of Ledger Effective Time (%s) + tolerance (%s). Interpretation aborted.",
		javaInstant(d.let), javaDuration(d.tolerance))
}

// withInterpretationDeadline returns a context that ends at let +
// tolerance with an *interpretationDeadline as its cause. An engine run
// under it that is cut off reports ErrCanceled; pass that error to
// interpretationError to get INTERPRETATION_TIME_EXCEEDED.
func withInterpretationDeadline(ctx context.Context, let time.Time, tolerance time.Duration) (context.Context, context.CancelFunc) {
	return context.WithDeadlineCause(ctx, let.Add(tolerance), &interpretationDeadline{let: let, tolerance: tolerance})
}

// interpretationError is damlError for an engine run under ctx: when err
// is the engine's ErrCanceled and ctx ended because of its
// interpretationDeadline (context.Cause; the engine itself keeps only
// ctx.Err()), it is INTERPRETATION_TIME_EXCEEDED.
func interpretationError(ctx context.Context, err error) error {
	var ee *engine.Error
	var dl *interpretationDeadline
	if errors.As(err, &ee) && ee.Kind == engine.ErrCanceled && errors.As(context.Cause(ctx), &dl) {
		return dl.apiError(ee)
	}
	return damlError(err)
}

// javaInstant prints t as java.time.Instant.toString does (UTC, the
// fraction in groups of 3 digits, none when zero), the form Canton prints
// a ledger time in.
func javaInstant(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	switch ns := t.Nanosecond(); {
	case ns == 0:
	case ns%1_000_000 == 0:
		s += fmt.Sprintf(".%03d", ns/1_000_000)
	case ns%1_000 == 0:
		s += fmt.Sprintf(".%06d", ns/1_000)
	default:
		s += fmt.Sprintf(".%09d", ns)
	}
	return s + "Z"
}

// javaDuration prints a non-negative d as Canton's Pretty prints a
// java.time.Duration: its ISO form without "PT", units in lower case and
// separated by spaces ("1m", "1m 30s", "2h 0.5s", "0s").
func javaDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	h := int64(d / time.Hour)
	m := int64(d % time.Hour / time.Minute)
	rest := d % time.Minute
	var parts []string
	if h != 0 {
		parts = append(parts, strconv.FormatInt(h, 10)+"h")
	}
	if m != 0 {
		parts = append(parts, strconv.FormatInt(m, 10)+"m")
	}
	if rest != 0 || len(parts) == 0 {
		sec := strconv.FormatInt(int64(rest/time.Second), 10)
		if ns := int64(rest % time.Second); ns != 0 {
			sec += strings.TrimRight(fmt.Sprintf(".%09d", ns), "0")
		}
		parts = append(parts, sec+"s")
	}
	return strings.Join(parts, " ")
}
