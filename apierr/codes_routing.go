package apierr

// The Canton error codes of transaction routing that ledgernode raises
// (Canton's TransactionRoutingError.TopologyErrors, checked after
// interpretation, before anything is committed). Canton reports them as
// transaction errors that are no definite answer. Use them with New to
// build an error and with errors.Is to test for one.
var (
	// UnknownSubmitters: an actAs party of a submission is known on no
	// connected synchronizer; the cause is "The participant is not
	// connected to any synchronizer where the given submitters are
	// known.", the context unknownSubmitters lists the parties (404,
	// category InvalidGivenCurrentSystemStateResourceMissing).
	UnknownSubmitters = Code{Name: "UNKNOWN_SUBMITTERS", Category: InvalidGivenCurrentSystemStateResourceMissing}
	// UnknownInformees: an informee of the transaction (a stakeholder of
	// a created contract, an actor or choice observer of an exercise, …)
	// is known on no connected synchronizer; the cause is "The
	// participant is not connected to any synchronizer where the given
	// informees are known.", the context unknownInformees lists the
	// parties (404, category
	// InvalidGivenCurrentSystemStateResourceMissing).
	UnknownInformees = Code{Name: "UNKNOWN_INFORMEES", Category: InvalidGivenCurrentSystemStateResourceMissing}
)
