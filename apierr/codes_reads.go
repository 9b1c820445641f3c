package apierr

// The Canton error codes of the read services added for issue 13: the
// contract service and the interactive submission's package preference.
var (
	// ContractPayloadNotFound: the contract service does not know the
	// contract or does not show it to the querying parties (404).
	ContractPayloadNotFound = Code{Name: "CONTRACT_PAYLOAD_NOT_FOUND", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// PackageSelectionFailed: no synchronizer satisfies the package
	// vetting requirements of a preferred-package query (400).
	PackageSelectionFailed = Code{Name: "PACKAGE_SELECTION_FAILED", Category: InvalidGivenCurrentSystemStateOther}
)
