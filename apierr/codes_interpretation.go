package apierr

import "time"

// The Canton error codes of command interpretation: the errors the Daml
// engine raises while it runs a command (Canton's CommandExecutionErrors
// .Interpreter and ConsistencyErrors, which RejectionGenerators maps the
// engine's errors to). Their causes have no fixed prefix: the ledger passes
// the engine's rendered message ("Interpretation error: Error: …") as the
// whole cause.
var (
	// DamlFailure: FAIL_WITH_STATUS or an unhandled exception. Its category
	// is chosen by the Daml code (8 or 9 in practice); this value carries
	// 9, the category of unhandled exceptions. Build the code of one
	// failure with InCategory.
	DamlFailure = Code{Name: "DAML_FAILURE", Category: InvalidGivenCurrentSystemStateOther}
	// InterpretationUserError: the ERROR builtin (User abort) (400).
	InterpretationUserError = Code{Name: "INTERPRETATION_USER_ERROR", Category: InvalidGivenCurrentSystemStateOther}
	// TemplatePreconditionViolated: a template's ensure clause returned
	// False (400).
	TemplatePreconditionViolated = Code{Name: "TEMPLATE_PRECONDITION_VIOLATED", Category: InvalidIndependentOfSystemState}
	// WronglyTypedContract: a contract id used at another template (400).
	WronglyTypedContract = Code{Name: "WRONGLY_TYPED_CONTRACT", Category: InvalidGivenCurrentSystemStateOther}
	// ContractDoesNotImplementInterface: an interface fetch or exercise on
	// a contract whose template does not implement the interface (400).
	ContractDoesNotImplementInterface = Code{Name: "CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE", Category: InvalidIndependentOfSystemState}
	// ContractDoesNotImplementRequiringInterface: a conversion to a
	// requiring interface the contract does not implement (400).
	ContractDoesNotImplementRequiringInterface = Code{Name: "CONTRACT_DOES_NOT_IMPLEMENT_REQUIRING_INTERFACE", Category: InvalidIndependentOfSystemState}
	// NonComparableValues: a comparison of function values (400).
	NonComparableValues = Code{Name: "NON_COMPARABLE_VALUES", Category: InvalidIndependentOfSystemState}
	// ContractIDComparability: a global contract id compared with a local
	// one of the same discriminator (400).
	ContractIDComparability = Code{Name: "CONTRACT_ID_COMPARABILITY", Category: InvalidIndependentOfSystemState}
	// ValueNesting: a value nested deeper than 100 levels (400).
	ValueNesting = Code{Name: "VALUE_NESTING", Category: InvalidIndependentOfSystemState}
	// MalformedText: a text with a NUL character or invalid UTF-8 (400).
	MalformedText = Code{Name: "MALFORMED_TEXT", Category: InvalidIndependentOfSystemState}
	// DamlEffectfulRollbackError: a rolled-back try block that created or
	// consumed contracts where the protocol forbids it (400).
	DamlEffectfulRollbackError = Code{Name: "DAML_EFFECTFUL_ROLLBACK_ERROR", Category: InvalidIndependentOfSystemState}
	// UnresolvedPackageName: interpretation met a package name that no
	// vetted package has (404).
	UnresolvedPackageName = Code{Name: "UNRESOLVED_PACKAGE_NAME", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// UpgradeValidationFailed: a contract's metadata recomputed under
	// another template version differs from the stored one (400).
	UpgradeValidationFailed = Code{Name: "INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED", Category: InvalidIndependentOfSystemState}
	// UpgradeTranslationFailed: a contract cannot be translated to the
	// template version it is used at (400).
	UpgradeTranslationFailed = Code{Name: "INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED", Category: InvalidIndependentOfSystemState}
	// UpgradeAuthenticationFailed: a contract handed to the engine (a
	// disclosed contract) does not authenticate against the ledger's (400).
	UpgradeAuthenticationFailed = Code{Name: "INTERPRETATION_UPGRADE_ERROR_AUTHENTICATION_FAILED", Category: InvalidIndependentOfSystemState}
	// CryptoMalformedByteEncoding: a malformed hex argument of a crypto
	// builtin (400).
	CryptoMalformedByteEncoding = Code{Name: "INTERPRETATION_CRYPTO_ERROR_MALFORMED_BYTE_ENCODING", Category: InvalidGivenCurrentSystemStateOther}
	// CryptoMalformedKey: a malformed public key (400).
	CryptoMalformedKey = Code{Name: "INTERPRETATION_CRYPTO_ERROR_MALFORMED_KEY", Category: InvalidGivenCurrentSystemStateOther}
	// CryptoMalformedSignature: a malformed signature (400).
	CryptoMalformedSignature = Code{Name: "INTERPRETATION_CRYPTO_ERROR_MALFORMED_SIGNATURE", Category: InvalidGivenCurrentSystemStateOther}
	// ContractKeyNotFound: a fetch or exercise by key whose key matches no
	// active contract (404).
	ContractKeyNotFound = Code{Name: "CONTRACT_KEY_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// CreateEmptyContractKeyMaintainers: a create whose key has no
	// maintainers (400).
	CreateEmptyContractKeyMaintainers = Code{Name: "CREATE_EMPTY_CONTRACT_KEY_MAINTAINERS", Category: InvalidIndependentOfSystemState}
	// FetchEmptyContractKeyMaintainers: a key lookup whose key has no
	// maintainers (400).
	FetchEmptyContractKeyMaintainers = Code{Name: "FETCH_EMPTY_CONTRACT_KEY_MAINTAINERS", Category: InvalidIndependentOfSystemState}
	// ContractIDInContractKey: a contract key containing a contract id
	// (400).
	ContractIDInContractKey = Code{Name: "CONTRACT_ID_IN_CONTRACT_KEY", Category: InvalidIndependentOfSystemState}
	// InterpretationDevError: an error of an in-development engine feature
	// (limits, choice guards, the cost budget) (400).
	InterpretationDevError = Code{Name: "INTERPRETATION_DEV_ERROR", Category: InvalidGivenCurrentSystemStateOther}
	// InterpretationTimeExceeded: interpretation ran past the ledger
	// effective time plus the ledger-time/record-time tolerance (409).
	// Canton advertises a retry after 60 s, not the category's 1 s: use
	// Error.Retry.
	InterpretationTimeExceeded = Code{Name: "INTERPRETATION_TIME_EXCEEDED", Category: ContentionOnSharedResources, retry: 60 * time.Second}
)
