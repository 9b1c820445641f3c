package apierr

// The Canton error codes of package management, DAR upload and validation,
// and package vetting, with the category Canton gives each. Canton
// declares them in PackageServiceErrors and CommandExecutionErrors
// (community/ledger/ledger-api-core), CantonPackageServiceError
// (community/participant) and TopologyManagerError (community/base). Use
// them with New/Wrap to build an error and with errors.Is to test for one.
var (
	// DARs and archives.

	// InvalidDar: the DAR is not a readable zip, or its manifest is missing
	// or invalid (for example "Unsupported format") (400).
	InvalidDar = Code{Name: "INVALID_DAR", Category: InvalidIndependentOfSystemState}
	// InvalidZipEntry: a zip entry is unusable: a path trick (absolute
	// path, "..", backslash), a dalf listed in the manifest but absent, a
	// corrupt or truncated entry (400).
	InvalidZipEntry = Code{Name: "INVALID_ZIP_ENTRY", Category: InvalidIndependentOfSystemState}
	// ZipBomb: a zip entry, or the DAR as a whole, inflates beyond the size
	// limits (1 GiB per entry by default), whether its header says so or
	// not (400).
	ZipBomb = Code{Name: "ZIP_BOMB", Category: InvalidIndependentOfSystemState}
	// DarParseError: a dalf is not a well-formed Daml-LF archive: malformed
	// or unknown protobuf, mismatching hashes, an unknown LF version, a
	// package that does not decode (400).
	DarParseError = Code{Name: "DAR_PARSE_ERROR", Category: InvalidIndependentOfSystemState}
	// DarValidationError: a package of the DAR does not type-check (400).
	DarValidationError = Code{Name: "DAR_VALIDATION_ERROR", Category: InvalidIndependentOfSystemState}
	// DarDependenciesNotValid: the DAR's packages are not exactly the
	// transitive dependencies of its main package (Canton's
	// DarSelfConsistency); the cause names the missing and extra ids (400).
	DarDependenciesNotValid = Code{Name: "DAR_DEPENDENCIES_NOT_VALID", Category: InvalidIndependentOfSystemState}
	// AllowedLanguageVersions: a package uses a Daml-LF version the
	// participant does not accept (LF 1.x always; 2.dev unless enabled) (400).
	AllowedLanguageVersions = Code{Name: "ALLOWED_LANGUAGE_VERSIONS", Category: InvalidIndependentOfSystemState}

	// Upgrades (raised when vetting).

	// NotValidUpgradePackage: a package to be vetted is not a valid upgrade
	// of the previous (or next) version of its name in the vetted set (400).
	NotValidUpgradePackage = Code{Name: "NOT_VALID_UPGRADE_PACKAGE", Category: InvalidIndependentOfSystemState}
	// KnownPackageVersion: two distinct packages with the same name and
	// version would be vetted together (400).
	KnownPackageVersion = Code{Name: "KNOWN_PACKAGE_VERSION", Category: InvalidIndependentOfSystemState}
	// DamlPrimNotUtilityPackage: a package named daml-prim or daml-stdlib
	// that is not a utility package was to be vetted (400).
	DamlPrimNotUtilityPackage = Code{Name: "DAML_PRIM_NOT_UTILITY_PACKAGE", Category: InvalidIndependentOfSystemState}

	// Vetting.

	// TopologyDependenciesNotVetted: a vetted package would have a
	// dependency that is not vetted in the resulting state (400).
	TopologyDependenciesNotVetted = Code{Name: "TOPOLOGY_DEPENDENCIES_NOT_VETTED", Category: InvalidGivenCurrentSystemStateOther}
	// TopologyCannotVetDueToMissingPackages: a package to be vetted, or one
	// of its dependencies, is not in the local package store (404).
	TopologyCannotVetDueToMissingPackages = Code{Name: "TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// TopologySerialMismatch: the expected topology serial of a vetting
	// change is not the current one (400).
	TopologySerialMismatch = Code{Name: "TOPOLOGY_SERIAL_MISMATCH", Category: InvalidGivenCurrentSystemStateOther}
	// AmbiguousVettingReference: a package reference to vet matches more
	// than one known package (400).
	AmbiguousVettingReference = Code{Name: "AMBIGUOUS_VETTING_REFERENCE", Category: InvalidGivenCurrentSystemStateOther}
	// UnresolvedVettingReference: a package reference to vet matches no
	// known package (404).
	UnresolvedVettingReference = Code{Name: "UNRESOLVED_VETTING_REFERENCE", Category: InvalidGivenCurrentSystemStateResourceMissing}

	// Package service.

	// PackageNotFound: no package with that id is known (404).
	PackageNotFound = Code{Name: "PACKAGE_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// PackageServiceCannotAutodetectSynchronizer: no synchronizer id was
	// given and the participant is not connected to exactly one (400).
	PackageServiceCannotAutodetectSynchronizer = Code{Name: "PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER", Category: InvalidGivenCurrentSystemStateOther}
	// PackageServiceNotConnectedToSynchronizer: the given synchronizer is
	// not one the participant is connected to (400).
	PackageServiceNotConnectedToSynchronizer = Code{Name: "PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER", Category: InvalidGivenCurrentSystemStateOther}
)
