package tx

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// The ledger model's authorization rules as Speedy's
// DefaultAuthorizationChecker applies them; each returns the first failure,
// in Speedy's order, or nil. Party sets are sorted. An error holds a copy
// of the authorizers, which may be in the Builder's own buffer (Init).

// authorizeCreate checks signatories ⊆ authorizers, then signatories ≠
// ∅, then maintainers ⊆ signatories.
func authorizeCreate(nid NodeID, c *Create, auth []string) *AuthorizationError {
	if !subset(c.Signatories, auth) {
		return &AuthorizationError{Kind: CreateMissingAuthorization, NodeID: nid, TemplateID: c.TemplateID, Required: c.Signatories, Authorizers: slices.Clone(auth)}
	}
	if len(c.Signatories) == 0 {
		return &AuthorizationError{Kind: NoSignatories, NodeID: nid, TemplateID: c.TemplateID, Authorizers: slices.Clone(auth)}
	}
	if c.Key != nil && !subset(c.Key.Maintainers, c.Signatories) {
		return &AuthorizationError{Kind: MaintainersNotSubsetOfSignatories, NodeID: nid, TemplateID: c.TemplateID, Authorizers: slices.Clone(auth), Signatories: c.Signatories, Maintainers: c.Key.Maintainers}
	}
	return nil
}

// authorizeFetch checks stakeholders ∩ authorizers ≠ ∅.
func authorizeFetch(nid NodeID, t lf.TypeConID, stakeholders, auth []string) *AuthorizationError {
	if len(intersect(stakeholders, auth)) == 0 {
		return &AuthorizationError{Kind: FetchMissingAuthorization, NodeID: nid, TemplateID: t, Stakeholders: stakeholders, Authorizers: slices.Clone(auth)}
	}
	return nil
}

// authorizeExercise checks controllers ≠ ∅, then explicit authorizers ≠
// ∅ when given, then controllers ∪ explicit authorizers ⊆ authorizers.
func authorizeExercise(nid NodeID, t lf.TypeConID, choice string, controllers []string, explicit bool, choiceAuthorizers, auth []string) *AuthorizationError {
	if len(controllers) == 0 {
		return &AuthorizationError{Kind: NoControllers, NodeID: nid, TemplateID: t, Choice: choice, Authorizers: slices.Clone(auth)}
	}
	if explicit && len(choiceAuthorizers) == 0 {
		return &AuthorizationError{Kind: NoAuthorizers, NodeID: nid, TemplateID: t, Choice: choice, Authorizers: slices.Clone(auth)}
	}
	if req := union(controllers, choiceAuthorizers); !subset(req, auth) {
		return &AuthorizationError{Kind: ExerciseMissingAuthorization, NodeID: nid, TemplateID: t, Choice: choice, Required: req, Authorizers: slices.Clone(auth)}
	}
	return nil
}

// authorizeLookup checks maintainers ⊆ authorizers.
func authorizeLookup(nid NodeID, t lf.TypeConID, maintainers, auth []string) *AuthorizationError {
	if !subset(maintainers, auth) {
		return &AuthorizationError{Kind: LookupByKeyMissingAuthorization, NodeID: nid, TemplateID: t, Required: maintainers, Authorizers: slices.Clone(auth)}
	}
	return nil
}

// childAuthorizers returns the authorizers of an exercise's children: the
// explicit choice authorizers when the choice has them, else controllers
// ∪ the contract's signatories.
func childAuthorizers(e *Exercise) []string {
	if e.ChoiceAuthorizers != nil {
		return e.ChoiceAuthorizers
	}
	return union(e.ActingParties, e.Signatories)
}

// Authorize checks a whole transaction against the ledger model's
// authorization as Speedy does while building it: the roots are authorized
// by actAs (readAs parties are never authorizers), the children of an
// exercise by its controllers ∪ the contract's signatories (or its explicit
// choice authorizers), and a Rollback passes its authorizers on. It returns
// the first failure in pre-order, an *AuthorizationError naming the node by
// its id in t, or nil. The ledger uses it on transactions it did not build
// (e.g. prepared externally). Nodes under a Rollback are checked too, as
// Speedy checked them.
func Authorize(t *Transaction, actAs []string) error {
	type item struct {
		id   NodeID
		auth []string
	}
	root := sortedSet(actAs)
	var stack []item
	for i := len(t.Roots) - 1; i >= 0; i-- {
		stack = append(stack, item{t.Roots[i], root})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var fail *AuthorizationError
		var kids []NodeID
		kidAuth := it.auth
		switch n := t.Node(it.id).(type) {
		case *Create:
			fail = authorizeCreate(it.id, n, it.auth)
		case *Fetch:
			fail = authorizeFetch(it.id, n.TemplateID, n.Stakeholders, it.auth)
		case *Exercise:
			fail = authorizeExercise(it.id, n.TemplateID, n.Choice, n.ActingParties, n.ChoiceAuthorizers != nil, n.ChoiceAuthorizers, it.auth)
			kids, kidAuth = n.Children, childAuthorizers(n)
		case *QueryByKey:
			fail = authorizeLookup(it.id, n.TemplateID, n.Key.Maintainers, it.auth)
		case *Rollback:
			kids = n.Children
		}
		if fail != nil {
			return fail
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], kidAuth})
		}
	}
	return nil
}
