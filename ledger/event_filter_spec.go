package ledger

import "slices"

// Read specs: the one compiled form of a read's format that the read
// internals (checks, rights, filters, renderers, page tokens) work on.
// The reads compile their ReadFormat and UpdateReadFormat into it
// (typedEventSpec, typedUpdateSpec).

// filterSpecKind is what a compiled filter selects.
type filterSpecKind uint8

const (
	// specNone is an identifier filter with no variant set (the proto's
	// unset one-of, the JSON wire's Empty or no variant); cantonEmpties
	// resolves it before a read uses the filters.
	specNone filterSpecKind = iota
	specWildcard
	specTemplate
	specInterface
)

// filterSpec is one cumulative filter. Its fields are exported for the
// page tokens' fingerprint (mustJSON) only.
type filterSpec struct {
	Kind filterSpecKind
	// ID is the template or interface id as the JSON filters write it
	// ("pkg:M:E" or "#name:M:E").
	ID    string
	Blobs bool
	Views bool
}

// eventSpec is a compiled event format: the parties read as, each with
// its filters (none: every template), and the filters for any party.
type eventSpec struct {
	ByParty map[string][]filterSpec
	// AnyParty holds the filters for any party when HasAny.
	AnyParty []filterSpec
	HasAny   bool
	Verbose  bool
}

// txSpec is an event spec with the transaction shape, by its Ledger API
// name (shapeACSDelta or shapeLedgerEffects): a page token's fingerprint
// binds to the spec as JSON, so the names keep the tokens already handed
// out valid.
type txSpec struct {
	Events eventSpec
	Shape  string
}

// plain reports whether no filter of the spec names an interface or
// asks for blobs: the events it shows have neither blobs nor interface
// views nor implemented interfaces (what the wire page writes).
func (f *eventSpec) plain() bool {
	plain := func(fs []filterSpec) bool {
		for _, x := range fs {
			if x.Kind == specInterface || x.Blobs {
				return false
			}
		}
		return true
	}
	for _, fs := range f.ByParty {
		if !plain(fs) {
			return false
		}
	}
	return plain(f.AnyParty)
}

// effects reports whether transactions are read in the ledger-effects
// shape.
func (t *txSpec) effects() bool { return t.Shape == shapeLedgerEffects }

// The shape names of txSpec.Shape (Canton's TransactionShape enum names).
const (
	shapeACSDelta      = "TRANSACTION_SHAPE_ACS_DELTA"
	shapeLedgerEffects = "TRANSACTION_SHAPE_LEDGER_EFFECTS"
)

// updateSpec is a compiled update format: an absent part is not read.
type updateSpec struct {
	Tx *txSpec
	Ra *eventSpec
	// Topo is set when topology events are asked for; TopoAuth when
	// participant authorization events are, of TopoParties (nil: all;
	// never empty, so that equal formats have equal fingerprints).
	Topo        bool
	TopoAuth    bool
	TopoParties []string
}

// typedEventSpec compiles a typed format.
func (n *Node) typedEventSpec(f ReadFormat) eventSpec {
	s := eventSpec{ByParty: make(map[string][]filterSpec, len(f.Parties)), Verbose: f.Verbose}
	for p, fs := range f.Parties {
		s.ByParty[p] = n.typedFilterSpecs(fs)
	}
	if f.AnyParty != nil {
		s.AnyParty, s.HasAny = n.typedFilterSpecs(f.AnyParty), true
	}
	return s
}

func (n *Node) typedFilterSpecs(fs []Filter) []filterSpec {
	if len(fs) == 0 {
		return nil
	}
	out := make([]filterSpec, 0, len(fs))
	for _, f := range fs {
		c := filterSpec{Blobs: f.blobs}
		switch f.kind {
		case wildcardFilter:
			c.Kind = specWildcard
		case templateFilter:
			c.Kind, c.ID = specTemplate, n.filterID(f)
		case interfaceFilter:
			c.Kind, c.ID, c.Views = specInterface, n.filterID(f), f.views
		case noneFilter:
			c.Kind = specNone
		}
		out = append(out, c)
	}
	return cantonEmpties(out)
}

// filterID is a template or interface filter's id as the specs write
// it: its text as written, else its reference's.
func (n *Node) filterID(f Filter) string {
	if f.written {
		return f.text
	}
	return n.refString(f.ref)
}

// typedTxSpec is typedEventSpec with the shape.
func (n *Node) typedTxSpec(f ReadFormat) *txSpec {
	shape := shapeACSDelta
	if f.Shape == LedgerEffects {
		shape = shapeLedgerEffects
	}
	return &txSpec{Events: n.typedEventSpec(f), Shape: shape}
}

// typedUpdateSpec compiles a typed update format.
func (n *Node) typedUpdateSpec(f UpdateReadFormat) updateSpec {
	var s updateSpec
	if f.Transactions != nil {
		s.Tx = n.typedTxSpec(*f.Transactions)
	}
	if f.Reassignments != nil {
		ra := n.typedEventSpec(*f.Reassignments)
		s.Ra = &ra
	}
	if t := f.Topology; t != nil {
		s.Topo = true
		if a := t.ParticipantAuthorizations; a != nil {
			s.TopoAuth = true
			if len(a) > 0 {
				s.TopoParties = a
			}
		}
	}
	return s
}

// cantonEmpties applies Canton's rule for identifier filters with no
// variant (FormatValidator.validateFilters, ledger-api-core): a party
// whose filters are all such reads every template, as with no filters;
// otherwise they are dropped.
func cantonEmpties(fs []filterSpec) []filterSpec {
	none := 0
	for _, f := range fs {
		if f.Kind == specNone {
			none++
		}
	}
	switch none {
	case 0:
		return fs
	case len(fs):
		return nil
	}
	return slices.DeleteFunc(fs, func(f filterSpec) bool { return f.Kind == specNone })
}

// partiesSpec reads as the parties every template (the requesting
// parties of the deprecated reads).
func partiesSpec(parties []string, verbose bool) eventSpec {
	s := eventSpec{ByParty: make(map[string][]filterSpec, len(parties)), Verbose: verbose}
	for _, p := range parties {
		s.ByParty[p] = nil
	}
	return s
}

// actAsSpec is the default transaction format of a typed submission: the
// actAs and readAs parties' view, every template, in the ACS-delta shape
// (the JSON API's default, jsonapi.actAsFormat).
func actAsSpec(actAs, readAs []string) *txSpec {
	return &txSpec{Events: partiesSpec(append(slices.Clone(actAs), readAs...), true), Shape: shapeACSDelta}
}
