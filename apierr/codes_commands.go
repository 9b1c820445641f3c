package apierr

// The Canton error codes of command submission that concern the values in a
// command: the checks the Daml engine's preprocessing (ValueTranslator)
// applies to create and choice arguments before interpretation (Canton's
// CommandExecutionErrors.Preprocessing). Syntax errors in the same values
// (bad JSON shape, malformed Numeric or party strings, unknown record
// fields, out-of-range dates) are INVALID_ARGUMENT. Use the codes with
// New/Wrap to build an error and with errors.Is to test for one.
var (
	// CommandPreprocessingFailed: the engine's command preprocessing
	// rejected a value: a non-optional record field is missing ("Missing
	// non-optional fields: …"), a Numeric cannot be represented at its
	// type's scale without loss of precision or is out of bounds for it, a
	// contract id is local or relative, or a value does not match its type
	// (400, category InvalidIndependentOfSystemState). Canton puts the
	// engine's message in the cause without a fixed prefix.
	CommandPreprocessingFailed = Code{Name: "COMMAND_PREPROCESSING_FAILED", Category: InvalidIndependentOfSystemState}
)
