package apierr

import "net/http"

// The Canton error codes ledgernode returns, with the category Canton gives
// each (Canton's error groups in
// community/ledger/ledger-api-core/src/main/scala/com/digitalasset/canton/ledger/error/:
// RequestValidationErrors, UserManagementServiceErrors,
// PartyManagementServiceErrors, IdentityProviderConfigServiceErrors,
// LedgerApiErrors, …). Use them with New/Wrap to build an error and with
// errors.Is to test for one.
var (
	// InvalidArgument: a request argument is invalid (400).
	InvalidArgument = Code{Name: "INVALID_ARGUMENT", Category: InvalidIndependentOfSystemState, prefix: "The submitted request has invalid arguments: "}
	// MissingField: a mandatory field is absent (400).
	MissingField = Code{Name: "MISSING_FIELD", Category: InvalidIndependentOfSystemState, prefix: "The submitted command is missing a mandatory field: "}
	// InvalidField: a field holds an invalid value (400).
	InvalidField = Code{Name: "INVALID_FIELD", Category: InvalidIndependentOfSystemState, prefix: "The submitted command has a field with invalid value: "}
	// InvalidToken: the token's claims are malformed (400).
	InvalidToken = Code{Name: "INVALID_TOKEN", Category: InvalidIndependentOfSystemState}

	// Unauthenticated: no valid credentials (401, redacted).
	Unauthenticated = Code{Name: "UNAUTHENTICATED", Category: AuthInterceptorInvalidAuthenticationCredentials}
	// PermissionDenied: the caller lacks a right (403, redacted).
	PermissionDenied = Code{Name: "PERMISSION_DENIED", Category: InsufficientPermission}
	// InternalAuthorizationError: authorization failed internally (500, redacted).
	InternalAuthorizationError = Code{Name: "INTERNAL_AUTHORIZATION_ERROR", Category: SystemInternalAssumptionViolated}
	// InternalError: an unexpected failure inside the node (500).
	InternalError = Code{Name: "LEDGER_API_INTERNAL_ERROR", Category: SystemInternalAssumptionViolated}
	// ServiceNotRunning: the node is closed or shutting down (503).
	ServiceNotRunning = Code{Name: "SERVICE_NOT_RUNNING", Category: TransientServerFailure}
	// ServerIsShuttingDown: a stream open when the server stops
	// (Canton's CommonErrors.ServerIsShuttingDown, which its streaming
	// services end their streams with at shutdown).
	ServerIsShuttingDown = Code{Name: "SERVER_IS_SHUTTING_DOWN", Category: TransientServerFailure}
	// IndexDBSQLTransientError: Canton's answer when its database fails a
	// request transiently (IndexErrors.DatabaseErrors.SqlTransientError;
	// 503, retryable); ledgernode's, when its store refuses a write
	// because the disk is nearly full.
	IndexDBSQLTransientError = Code{Name: "INDEX_DB_SQL_TRANSIENT_ERROR", Category: TransientServerFailure, prefix: "Processing the request failed due to a transient database error: "}
	// RequestTimeOut: the request did not finish in time (504).
	RequestTimeOut = Code{Name: "REQUEST_TIME_OUT", Category: DeadlineExceededRequestStateUnknown}
	// Unimplemented: the operation is not supported by ledgernode (501, redacted).
	Unimplemented = Code{Name: "UNSUPPORTED_OPERATION", Category: InternalUnsupportedOperation}
	// RequestTooLarge: the HTTP request body exceeds the configured limit
	// (413). ledgernode's own code: Canton's HTTP server answers such
	// bodies itself.
	RequestTooLarge = Code{Name: "REQUEST_ENTITY_TOO_LARGE", Category: InvalidIndependentOfSystemState, status: http.StatusRequestEntityTooLarge}
	// MaximumListElementsReached: a list endpoint matched more elements than
	// the node's list limit; Canton forces HTTP 413 for it.
	MaximumListElementsReached = Code{Name: "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED", Category: ContentionOnSharedResources, status: http.StatusRequestEntityTooLarge}

	// Parties.

	// PartyNotFound: an update names an unknown party (404).
	PartyNotFound = Code{Name: "PARTY_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// ConcurrentPartyDetailsUpdate: a stale resourceVersion (409).
	ConcurrentPartyDetailsUpdate = Code{Name: "CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED", Category: ContentionOnSharedResources}
	// InvalidPartyDetailsUpdate: a bad party update request (400).
	InvalidPartyDetailsUpdate = Code{Name: "INVALID_PARTY_DETAILS_UPDATE_REQUEST", Category: InvalidIndependentOfSystemState}
	// MaxPartyAnnotationsSizeExceeded: party annotations over 256 KiB (400).
	MaxPartyAnnotationsSizeExceeded = Code{Name: "MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED", Category: InvalidGivenCurrentSystemStateOther}

	// Users.

	// UserNotFound: no such user (404).
	UserNotFound = Code{Name: "USER_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// UserAlreadyExists: a user with that id exists (409).
	UserAlreadyExists = Code{Name: "USER_ALREADY_EXISTS", Category: InvalidGivenCurrentSystemStateResourceExists}
	// TooManyUserRights: more rights than the per-user maximum (400).
	TooManyUserRights = Code{Name: "TOO_MANY_USER_RIGHTS", Category: InvalidGivenCurrentSystemStateOther}
	// InvalidUserUpdate: a bad user update request or mask (400).
	InvalidUserUpdate = Code{Name: "INVALID_USER_UPDATE_REQUEST", Category: InvalidIndependentOfSystemState}
	// ConcurrentUserUpdate: a stale resourceVersion (409).
	ConcurrentUserUpdate = Code{Name: "CONCURRENT_USER_UPDATE_DETECTED", Category: ContentionOnSharedResources}
	// UserDeletedWhileUpdating: the user vanished during an update (409).
	UserDeletedWhileUpdating = Code{Name: "USER_DELETED_WHILE_UPDATING", Category: ContentionOnSharedResources}
	// MaxUserAnnotationsSizeExceeded: user annotations over 256 KiB (400).
	MaxUserAnnotationsSizeExceeded = Code{Name: "MAX_USER_ANNOTATIONS_SIZE_EXCEEDED", Category: InvalidGivenCurrentSystemStateOther}

	// Identity providers.

	// IDPConfigNotFound: no such identity provider (404).
	IDPConfigNotFound = Code{Name: "IDP_CONFIG_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// IDPConfigAlreadyExists: the provider id is taken (409).
	IDPConfigAlreadyExists = Code{Name: "IDP_CONFIG_ALREADY_EXISTS", Category: InvalidGivenCurrentSystemStateResourceExists}
	// IDPConfigIssuerAlreadyExists: another provider has that issuer (409).
	IDPConfigIssuerAlreadyExists = Code{Name: "IDP_CONFIG_ISSUER_ALREADY_EXISTS", Category: InvalidGivenCurrentSystemStateResourceExists}
	// IDPConfigByIssuerNotFound: no provider has that issuer (404).
	IDPConfigByIssuerNotFound = Code{Name: "IDP_CONFIG_BY_ISSUER_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// InvalidIdentityProviderUpdate: a bad provider update request (400).
	InvalidIdentityProviderUpdate = Code{Name: "INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST", Category: InvalidIndependentOfSystemState}
	// TooManyIdentityProviderConfigs: more than 16 providers (400).
	TooManyIdentityProviderConfigs = Code{Name: "TOO_MANY_IDENTITY_PROVIDER_CONFIGS", Category: InvalidGivenCurrentSystemStateOther}

	// Offsets and updates.

	// OffsetAfterLedgerEnd: an offset beyond the ledger end (400).
	OffsetAfterLedgerEnd = Code{Name: "OFFSET_AFTER_LEDGER_END", Category: InvalidGivenCurrentSystemStateSeekAfterEnd}
	// OffsetOutOfRange: an offset outside the allowed range (400).
	OffsetOutOfRange = Code{Name: "OFFSET_OUT_OF_RANGE", Category: InvalidGivenCurrentSystemStateOther}
	// NegativeOffset: an offset below zero (400).
	NegativeOffset = Code{Name: "NEGATIVE_OFFSET", Category: InvalidIndependentOfSystemState}
	// NonPositiveOffset: an offset that must be positive is not (400).
	NonPositiveOffset = Code{Name: "NON_POSITIVE_OFFSET", Category: InvalidIndependentOfSystemState}
	// SubmissionSynchronizerNotReady: a command names a synchronizer the
	// participant is not connected to (404; Canton's
	// TransactionRoutingError.ConfigurationErrors).
	SubmissionSynchronizerNotReady = Code{Name: "SUBMISSION_SYNCHRONIZER_NOT_READY", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// UpdateNotFound: no visible update with that id or offset (404).
	UpdateNotFound = Code{Name: "UPDATE_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
)

// IDPConfigInUse reports deleting an identity provider that users or parties
// still belong to. Canton's store refuses such a delete through a foreign
// key and has no dedicated code; ledgernode reports it as this
// FAILED_PRECONDITION-class error (400) and deletes nothing.
var IDPConfigInUse = Code{Name: "IDP_CONFIG_IN_USE", Category: InvalidGivenCurrentSystemStateOther}

// InstrumentNotFound reports that the registry has no instrument with that id (404).
var InstrumentNotFound = Code{Name: "INSTRUMENT_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}

// RegistryInfoNotSet reports that the registry's info (admin id) has not been set (404).
var RegistryInfoNotSet = Code{Name: "REGISTRY_INFO_NOT_SET", Category: InvalidGivenCurrentSystemStateResourceMissing}

// Update reading and command submission.
var (
	// InvalidUpdatesPageToken: a page token that is malformed or belongs to
	// another request (400).
	InvalidUpdatesPageToken = Code{Name: "INVALID_UPDATES_PAGE_TOKEN", Category: InvalidIndependentOfSystemState}
	// DescendingOrderMissingEnd: descending order without an end offset (400).
	DescendingOrderMissingEnd = Code{Name: "DESCENDING_ORDER_MISSING_END", Category: InvalidIndependentOfSystemState}
	// ContractNotFound: the contract is unknown or archived (404).
	ContractNotFound = Code{Name: "CONTRACT_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// ContractNotActive: the contract is not active where it is used, e.g.
	// in transit between synchronizers (404).
	ContractNotActive = Code{Name: "CONTRACT_NOT_ACTIVE", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// DuplicateCommand: a command with the same change id was already
	// accepted within the deduplication period (409).
	DuplicateCommand = Code{Name: "DUPLICATE_COMMAND", Category: InvalidGivenCurrentSystemStateResourceExists}
	// DamlAuthorizationError: the submitters may not perform an action,
	// e.g. exercise a choice on a contract they are no stakeholder of (400).
	DamlAuthorizationError = Code{Name: "DAML_AUTHORIZATION_ERROR", Category: InvalidIndependentOfSystemState}
	// TemplatesOrInterfacesNotFound: a command names a template that no
	// vetted package has (404).
	TemplatesOrInterfacesNotFound = Code{Name: "TEMPLATES_OR_INTERFACES_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// PackageNamesNotFound: a #package-name reference names no vetted
	// package (404).
	PackageNamesNotFound = Code{Name: "PACKAGE_NAMES_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// ReassignmentNotFound: an assignment names no open unassignment (404).
	// Canton's code for this case was not determined; this is ledgernode's.
	ReassignmentNotFound = Code{Name: "REASSIGNMENT_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// ReassignmentMismatch: an assignment's synchronizers differ from its
	// unassignment's, or the reassignment is already completed (400).
	ReassignmentMismatch = Code{Name: "INVALID_REASSIGNMENT", Category: InvalidGivenCurrentSystemStateOther}
)

// ContractEventsNotFound reports no visible events for that contract id (404).
var ContractEventsNotFound = Code{Name: "CONTRACT_EVENTS_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}

// InvalidACSPageToken reports an active-contracts page token that is malformed or
// belongs to another request (400).
var InvalidACSPageToken = Code{Name: "INVALID_ACS_PAGE_TOKEN", Category: InvalidIndependentOfSystemState}
