package tx

import (
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// AuthorizationKind names a failed authorization rule with Speedy's name
// for it (the cases of ledger.FailedAuthorization, in
// community/daml-lf/transaction/src/main/scala/com/digitalasset/daml/lf/ledger/Authorization.scala).
type AuthorizationKind uint8

// The authorization failures, in Speedy's terms.
const (
	// CreateMissingAuthorization: a create's signatories are not all
	// authorizers.
	CreateMissingAuthorization AuthorizationKind = iota + 1
	// NoSignatories: a create has no signatories.
	NoSignatories
	// MaintainersNotSubsetOfSignatories: a create's key maintainers are
	// not all signatories.
	MaintainersNotSubsetOfSignatories
	// FetchMissingAuthorization: no stakeholder of a fetched contract is
	// an authorizer.
	FetchMissingAuthorization
	// NoControllers: an exercise has no controllers.
	NoControllers
	// NoAuthorizers: an exercise's explicit choice authorizers are empty
	// (LF dev).
	NoAuthorizers
	// ExerciseMissingAuthorization: an exercise's controllers (and
	// explicit choice authorizers) are not all authorizers.
	ExerciseMissingAuthorization
	// LookupByKeyMissingAuthorization: a key query's maintainers are not
	// all authorizers.
	LookupByKeyMissingAuthorization
)

// String returns Speedy's name of the failure.
func (k AuthorizationKind) String() string {
	switch k {
	case CreateMissingAuthorization:
		return "CreateMissingAuthorization"
	case NoSignatories:
		return "NoSignatories"
	case MaintainersNotSubsetOfSignatories:
		return "MaintainersNotSubsetOfSignatories"
	case FetchMissingAuthorization:
		return "FetchMissingAuthorization"
	case NoControllers:
		return "NoControllers"
	case NoAuthorizers:
		return "NoAuthorizers"
	case ExerciseMissingAuthorization:
		return "ExerciseMissingAuthorization"
	case LookupByKeyMissingAuthorization:
		return "LookupByKeyMissingAuthorization"
	}
	return fmt.Sprintf("AuthorizationKind(%d)", uint8(k))
}

// AuthorizationError is Speedy's FailedAuthorization(nodeId, failure):
// the first rule a node breaks. It is fatal (no try catches it); the
// ledger maps it to DAML_AUTHORIZATION_ERROR. Error() is Speedy's text
// (Pretty.prettyFailedAuthorization), without the "Interpretation error:
// Error: " prefix the ledger adds.
type AuthorizationError struct {
	// Kind is the rule that failed.
	Kind AuthorizationKind
	// NodeID is the node: the id it was given, or, when the builder refuses
	// a fetch or exercise before allocating it, the id it would have had
	// (ids during building are not the final ones: Finish renumbers them).
	NodeID NodeID
	// TemplateID is the node's template.
	TemplateID lf.TypeConID
	// Choice is the choice of an exercise failure.
	Choice string
	// Required are the parties whose authority was needed: the
	// signatories (create), the controllers ∪ choice authorizers
	// (exercise), the maintainers (lookup by key).
	Required []string
	// Authorizers are the authorizers at the node.
	Authorizers []string
	// Stakeholders are the fetched contract's stakeholders (fetch).
	Stakeholders []string
	// Signatories and Maintainers are those of a
	// MaintainersNotSubsetOfSignatories failure.
	Signatories, Maintainers []string
}

// Error returns Speedy's message, e.g. "node NodeId(0) (pkg:M:T) requires
// authorizers a,b, but only c were given".
func (e *AuthorizationError) Error() string {
	node := fmt.Sprintf("node NodeId(%d)", e.NodeID)
	tpl := " (" + e.TemplateID.String() + ")"
	switch e.Kind {
	case NoControllers:
		return node + tpl + " has no controllers"
	case NoAuthorizers:
		return node + tpl + " has no authorizers"
	case NoSignatories:
		return node + tpl + " has no signatories"
	case CreateMissingAuthorization, ExerciseMissingAuthorization:
		return node + tpl + " requires authorizers " + strings.Join(e.Required, ",") + ", but only " + strings.Join(e.Authorizers, ",") + " were given"
	case FetchMissingAuthorization:
		return node + " requires one of the stakeholders " + scalaSet(e.Stakeholders) + " of the fetched contract to be an authorizer, but authorizers were " + scalaSet(e.Authorizers)
	case LookupByKeyMissingAuthorization:
		return node + tpl + " requires authorizers " + strings.Join(e.Required, ",") + " for lookup by key, but it only has " + strings.Join(e.Authorizers, ",")
	case MaintainersNotSubsetOfSignatories:
		return node + tpl + " has maintainers " + strings.Join(e.Maintainers, ",") + " which are not a subset of the signatories " + scalaSet(e.Signatories)
	}
	return node + tpl + " failed authorization"
}

// ContractNotActiveError is Speedy's ContractNotActive: the contract was
// consumed earlier in this transaction (by node ConsumedBy, an id during
// building). The ledger maps it to CONTRACT_NOT_ACTIVE.
type ContractNotActiveError struct {
	// ContractID is the contract.
	ContractID value.ContractID
	// TemplateID is the template the fetch or exercise used.
	TemplateID lf.TypeConID
	// ConsumedBy is the consuming exercise node.
	ConsumedBy NodeID
}

// Error returns Speedy's message (two lines).
func (e *ContractNotActiveError) Error() string {
	return fmt.Sprintf("Update failed due to fetch of an inactive contract %s (%s).\nThe contract had been consumed in sub-transaction #NodeId(%d):",
		e.ContractID, prettyTypeConID(e.TemplateID), e.ConsumedBy)
}

// ContractNotFoundError is Speedy's ContractNotFound for a contract this
// transaction created inside a try block that was rolled back. The ledger
// maps it to CONTRACT_NOT_FOUND.
type ContractNotFoundError struct {
	// ContractID is the contract.
	ContractID value.ContractID
}

// Error returns "Contract could not be found with id <cid>", the cause
// Canton gives for ContractNotFound (Interpretation.DamlException.message,
// in community/daml-lf/engine/src/main/scala/com/digitalasset/daml/lf/engine/Error.scala).
func (e *ContractNotFoundError) Error() string {
	return "Contract could not be found with id " + string(e.ContractID)
}

// EffectfulRollbackError is Speedy's EffectfulRollback: in ModeNUCK a try
// block whose exception was caught created contracts or consumed contracts
// (PartialTransaction.rollbackTry). The ledger maps it to
// DAML_EFFECTFUL_ROLLBACK_ERROR.
type EffectfulRollbackError struct {
	// Nodes are the offending Create and consuming Exercise nodes, in
	// the order they were built.
	Nodes []Node
}

// Error returns Speedy's message, e.g. "Tried to rollback side-effectful
// node(s): Create of M:T@pkg8(cid), Consuming exercise of Ch on
// M:T@pkg8(cid)".
func (e *EffectfulRollbackError) Error() string {
	parts := make([]string, 0, len(e.Nodes))
	for _, n := range e.Nodes {
		switch n := n.(type) {
		case *Create:
			parts = append(parts, fmt.Sprintf("Create of %s(%s)", prettyTypeConID(n.TemplateID), n.ContractID))
		case *Exercise:
			how := "exercise"
			if n.ByKey {
				how = "exercise by key"
			}
			parts = append(parts, fmt.Sprintf("Consuming %s of %s on %s(%s)", how, n.Choice, prettyTypeConID(n.TemplateID), n.TargetID))
		}
	}
	return "Tried to rollback side-effectful node(s): " + strings.Join(parts, ", ")
}

// DuplicateContractIDError reports a derived contract id that the
// transaction already knows (an internal error in Speedy; it does not
// happen unless seeds repeat).
type DuplicateContractIDError struct {
	// ContractID is the id.
	ContractID value.ContractID
}

// Error returns the message.
func (e *DuplicateContractIDError) Error() string {
	return "duplicate contract id " + string(e.ContractID)
}

// BuilderStateError reports a Builder call that does not fit the open
// contexts (EndExercise with no open exercise, Finish with an open try,
// …): a bug of the caller, an internal error.
type BuilderStateError struct {
	// Op is the call.
	Op string
	// Problem says what is wrong.
	Problem string
}

// Error returns "tx.Builder.<Op>: <Problem>".
func (e *BuilderStateError) Error() string { return "tx.Builder." + e.Op + ": " + e.Problem }

// prettyTypeConID prints a template id as Speedy's Pretty does:
// "Module:Name@<first 8 characters of the package id>".
func prettyTypeConID(id lf.TypeConID) string {
	pkg := id.PackageID
	if len(pkg) > 8 {
		pkg = pkg[:8]
	}
	return id.Module + ":" + id.Name + "@" + pkg
}
