package tx

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

func TestBuilderAuthorization(t *testing.T) {
	lc := ledgerCid(7)
	T := tpl("T")
	tests := []struct {
		name  string
		actAs []string
		run   func(b *Builder) error
		want  *AuthorizationError // nil: success
		msg   string
	}{
		{"create by its signatories", ps("alice", "bob"), func(b *Builder) error {
			_, err := b.Create(create("T", ps("bob", "alice"), ps("carol")))
			return err
		}, nil, ""},
		{"create missing a signatory", ps("alice"), func(b *Builder) error {
			_, err := b.Create(create("T", ps("bob", "alice"), nil))
			return err
		}, &AuthorizationError{Kind: CreateMissingAuthorization, NodeID: 0, TemplateID: T, Required: ps("alice", "bob"), Authorizers: ps("alice")},
			"node NodeId(0) (" + pkg + ":M:T) requires authorizers alice,bob, but only alice were given"},
		{"create with no signatories", ps("alice"), func(b *Builder) error {
			_, err := b.Create(create("T", nil, ps("alice")))
			return err
		}, &AuthorizationError{Kind: NoSignatories, NodeID: 0, TemplateID: T, Authorizers: ps("alice")},
			"node NodeId(0) (" + pkg + ":M:T) has no signatories"},
		{"create whose maintainers are not signatories", ps("alice"), func(b *Builder) error {
			in := create("T", ps("alice"), ps("bob"))
			in.Key = &KeyWithMaintainers{Key: value.Text("k"), Maintainers: ps("bob")}
			_, err := b.Create(in)
			return err
		}, &AuthorizationError{Kind: MaintainersNotSubsetOfSignatories, NodeID: 0, TemplateID: T, Authorizers: ps("alice"), Signatories: ps("alice"), Maintainers: ps("bob")},
			"node NodeId(0) (" + pkg + ":M:T) has maintainers bob which are not a subset of the signatories Set(alice)"},
		{"create with maintainers among signatories", ps("alice"), func(b *Builder) error {
			in := create("T", ps("alice"), nil)
			in.Key = &KeyWithMaintainers{Key: value.Text("k"), Maintainers: ps("alice")}
			_, err := b.Create(in)
			return err
		}, nil, ""},
		{"readAs is not authority: fetch by an observer's reader fails", ps("carol"), func(b *Builder) error {
			_, err := b.Fetch(fetch(lc, "T", ps("alice"), ps("alice", "bob")))
			return err
		}, &AuthorizationError{Kind: FetchMissingAuthorization, NodeID: 0, TemplateID: T, Stakeholders: ps("alice", "bob"), Authorizers: ps("carol")},
			"node NodeId(0) requires one of the stakeholders Set(alice, bob) of the fetched contract to be an authorizer, but authorizers were Set(carol)"},
		{"fetch by an observer", ps("bob"), func(b *Builder) error {
			_, err := b.Fetch(fetch(lc, "T", ps("alice"), ps("alice", "bob")))
			return err
		}, nil, ""},
		{"exercise by its controller", ps("bob"), func(b *Builder) error {
			_, err := b.BeginExercise(exercise(lc, "T", "Ch", true, ps("bob"), ps("alice"), ps("alice", "bob")))
			return err
		}, nil, ""},
		{"exercise with no controllers", ps("bob"), func(b *Builder) error {
			_, err := b.BeginExercise(exercise(lc, "T", "Ch", true, nil, ps("alice"), ps("alice", "bob")))
			return err
		}, &AuthorizationError{Kind: NoControllers, NodeID: 0, TemplateID: T, Choice: "Ch", Authorizers: ps("bob")},
			"node NodeId(0) (" + pkg + ":M:T) has no controllers"},
		{"exercise missing a controller", ps("bob"), func(b *Builder) error {
			_, err := b.BeginExercise(exercise(lc, "T", "Ch", false, ps("bob", "alice"), ps("alice"), ps("alice", "bob")))
			return err
		}, &AuthorizationError{Kind: ExerciseMissingAuthorization, NodeID: 0, TemplateID: T, Choice: "Ch", Required: ps("alice", "bob"), Authorizers: ps("bob")},
			"node NodeId(0) (" + pkg + ":M:T) requires authorizers alice,bob, but only bob were given"},
		{"exercise with empty explicit authorizers", ps("bob"), func(b *Builder) error {
			in := exercise(lc, "T", "Ch", false, ps("bob"), ps("alice"), ps("alice", "bob"))
			in.HasChoiceAuthorizers = true
			_, err := b.BeginExercise(in)
			return err
		}, &AuthorizationError{Kind: NoAuthorizers, NodeID: 0, TemplateID: T, Choice: "Ch", Authorizers: ps("bob")},
			"node NodeId(0) (" + pkg + ":M:T) has no authorizers"},
		{"explicit authorizers must be authorizers", ps("bob"), func(b *Builder) error {
			in := exercise(lc, "T", "Ch", false, ps("bob"), ps("alice"), ps("alice", "bob"))
			in.HasChoiceAuthorizers, in.ChoiceAuthorizers = true, ps("carol")
			_, err := b.BeginExercise(in)
			return err
		}, &AuthorizationError{Kind: ExerciseMissingAuthorization, NodeID: 0, TemplateID: T, Choice: "Ch", Required: ps("bob", "carol"), Authorizers: ps("bob")},
			"node NodeId(0) (" + pkg + ":M:T) requires authorizers bob,carol, but only bob were given"},
		{"inside a choice: controllers ∪ signatories authorize a create", ps("bob"), func(b *Builder) error {
			if _, err := b.BeginExercise(exercise(lc, "T", "Accept", true, ps("bob"), ps("alice"), ps("alice", "bob"))); err != nil {
				return err
			}
			if got := b.Authorizers(); !cmp.Equal(got, ps("alice", "bob")) {
				t.Errorf("authorizers in the choice = %v", got)
			}
			_, err := b.Create(create("Deal", ps("alice", "bob"), nil))
			return err
		}, nil, ""},
		{"inside a choice: a third party's signature is missing", ps("bob"), func(b *Builder) error {
			if _, err := b.BeginExercise(exercise(lc, "T", "Accept", true, ps("bob"), ps("alice"), ps("alice", "bob"))); err != nil {
				return err
			}
			if _, err := b.Fetch(fetch(ledgerCid(8), "Other", ps("dave"), ps("alice", "dave"))); err != nil {
				return err
			}
			_, err := b.Create(create("Deal", ps("alice", "carol"), nil))
			return err
		}, &AuthorizationError{Kind: CreateMissingAuthorization, NodeID: 2, TemplateID: tpl("Deal"), Required: ps("alice", "carol"), Authorizers: ps("alice", "bob")},
			"node NodeId(2) (" + pkg + ":M:Deal) requires authorizers alice,carol, but only alice,bob were given"},
		{"explicit choice authorizers replace controllers ∪ signatories", ps("bob", "carol"), func(b *Builder) error {
			in := exercise(lc, "T", "Ch", false, ps("bob"), ps("alice"), ps("alice", "bob"))
			in.HasChoiceAuthorizers, in.ChoiceAuthorizers = true, ps("carol")
			if _, err := b.BeginExercise(in); err != nil {
				return err
			}
			_, err := b.Create(create("U", ps("bob"), nil))
			return err
		}, &AuthorizationError{Kind: CreateMissingAuthorization, NodeID: 1, TemplateID: tpl("U"), Required: ps("bob"), Authorizers: ps("carol")},
			"node NodeId(1) (" + pkg + ":M:U) requires authorizers bob, but only carol were given"},
		{"a try keeps the authorizers", ps("alice"), func(b *Builder) error {
			b.BeginTry()
			_, err := b.Create(create("T", ps("bob"), nil))
			return err
		}, &AuthorizationError{Kind: CreateMissingAuthorization, NodeID: 1, TemplateID: T, Required: ps("bob"), Authorizers: ps("alice")},
			"node NodeId(1) (" + pkg + ":M:T) requires authorizers bob, but only alice were given"},
		{"lookup by key needs the maintainers", ps("alice"), func(b *Builder) error {
			_, err := b.QueryByKey(QueryByKeyInput{PackageName: "p", TemplateID: T, Key: KeyWithMaintainers{Key: value.Text("k"), Maintainers: ps("bob", "alice")}, Exhaustive: true})
			return err
		}, &AuthorizationError{Kind: LookupByKeyMissingAuthorization, NodeID: 0, TemplateID: T, Required: ps("alice", "bob"), Authorizers: ps("alice")},
			"node NodeId(0) (" + pkg + ":M:T) requires authorizers alice,bob for lookup by key, but it only has alice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(newBuilder(tc.actAs...))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var ae *AuthorizationError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v, want an *AuthorizationError", err)
			}
			if diff := cmp.Diff(tc.want, ae); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if ae.Error() != tc.msg {
				t.Errorf("message %q\nwant     %q", ae.Error(), tc.msg)
			}
		})
	}
}

// TestAuthorizeTransaction checks the whole-transaction check the ledger
// uses on transactions it did not build.
func TestAuthorizeTransaction(t *testing.T) {
	// Alice's proposal to Bob, accepted by Bob: Bob's authority with the
	// proposal's signatory Alice authorizes the Deal signed by both.
	accept := func(dealSigs []string) *Transaction {
		return &Transaction{
			Nodes: []Node{
				&Exercise{TargetID: ledgerCid(1), TemplateID: tpl("Proposal"), Choice: "Accept", Consuming: true, ActingParties: ps("bob"),
					Signatories: ps("alice"), Stakeholders: ps("alice", "bob"), Children: []NodeID{1, 2}, Result: value.Unit{}},
				&Rollback{Children: []NodeID{3}},
				&Create{TemplateID: tpl("Deal"), Signatories: dealSigs, Stakeholders: dealSigs},
				&Fetch{ContractID: ledgerCid(2), TemplateID: tpl("Iou"), Signatories: ps("carol"), Stakeholders: ps("carol", "dave")},
			},
			Roots: []NodeID{0},
		}
	}
	if err := Authorize(accept(ps("alice", "bob")), ps("bob")); err == nil {
		t.Error("a fetch under a rollback is checked too: want FetchMissingAuthorization")
	} else if ae := (*AuthorizationError)(nil); !errors.As(err, &ae) || ae.Kind != FetchMissingAuthorization || ae.NodeID != 3 {
		t.Errorf("error %v", err)
	}
	tr := accept(ps("alice", "bob"))
	tr.Nodes[1].(*Rollback).Children = nil
	if err := Authorize(tr, ps("bob")); err != nil {
		t.Errorf("Authorize: %v", err)
	}
	if err := Authorize(tr, ps("carol")); err == nil {
		t.Error("carol may not exercise bob's choice")
	}
	tr = accept(ps("alice", "bob", "eve"))
	tr.Nodes[1].(*Rollback).Children = nil
	var ae *AuthorizationError
	if err := Authorize(tr, ps("bob")); !errors.As(err, &ae) || ae.Kind != CreateMissingAuthorization || ae.NodeID != 2 || !cmp.Equal(ae.Authorizers, ps("alice", "bob")) {
		t.Errorf("error %v", err)
	}
}
