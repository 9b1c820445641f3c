package tx

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// proposeAccept: Bob accepts Alice's proposal (a ledger contract, Alice
// signatory, Bob observer). The choice fetches Alice's Iou (observer
// Dave) and creates a Deal signed by both with Carol as observer. Then
// Bob looks at an Info contract of Alice's (observer Eve) with a
// non-consuming choice.
func proposeAccept(t *testing.T) *Transaction {
	b := newBuilder("bob")
	okN := must[NodeID](t)
	okN(b.BeginExercise(exercise(ledgerCid(1), "Proposal", "Accept", true, ps("bob"), ps("alice"), ps("alice", "bob"))))
	okN(b.Fetch(fetch(ledgerCid(2), "Iou", ps("alice"), ps("alice", "dave"))))
	must[value.ContractID](t)(b.Create(create("Deal", ps("alice", "bob"), ps("carol"))))
	okN(b.EndExercise(value.Unit{}))
	okN(b.BeginExercise(exercise(ledgerCid(3), "Info", "Look", false, ps("bob"), ps("alice"), ps("alice", "bob", "eve"))))
	okN(b.EndExercise(value.Unit{}))
	return must[*Result](t)(b.Finish()).Transaction
}

func TestInformeesAndWitnessesProposeAccept(t *testing.T) {
	tr := proposeAccept(t)
	if got := shape(tr); got != "XAccept(FIou#1 CDeal#2)#0 XLook()#3" {
		t.Fatalf("shape %s", got)
	}
	if got := tr.Nodes[2].(*Create).Observers(); !cmp.Equal(got, ps("carol")) {
		t.Errorf("Deal observers = %v", got)
	}
	if got := tr.Nodes[1].(*Fetch).ActingParties; !cmp.Equal(got, ps("alice")) {
		t.Errorf("fetch actingParties = %v (authorizers ∩ stakeholders)", got)
	}
	wantInf := map[NodeID][]string{
		0: ps("alice", "bob"),          // consuming: stakeholders ∪ actors
		1: ps("alice"),                 // fetch: signatories ∪ actors
		2: ps("alice", "bob", "carol"), // create: stakeholders
		3: ps("alice", "bob"),          // non-consuming: signatories ∪ actors, not Eve
	}
	for id, want := range wantInf {
		if got := Informees(tr.Nodes[id]); !cmp.Equal(got, want) {
			t.Errorf("Informees(%d) = %v, want %v", id, got, want)
		}
	}
	wantW := map[NodeID][]string{
		0: ps("alice", "bob"),
		1: ps("alice", "bob"),
		2: ps("alice", "bob", "carol"),
		3: ps("alice", "bob"),
	}
	if diff := cmp.Diff(wantW, tr.Witnesses()); diff != "" {
		t.Errorf("witnesses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[value.ContractID][]string{ledgerCid(2): ps("bob")}, tr.Divulgence()); diff != "" {
		t.Errorf("divulgence (-want +got):\n%s", diff)
	}
	// What Carol, Dave and Eve see.
	if got := tr.Events(ps("carol"), LedgerEffects); len(got) != 1 || got[0].NodeID != 2 || got[0].Kind != Created {
		t.Errorf("carol's ledger effects %+v", got)
	}
	if got := tr.Events(ps("dave", "eve"), LedgerEffects); len(got) != 0 {
		t.Errorf("dave and eve see %+v", got)
	}
	got := tr.Events(ps("alice", "carol"), AcsDelta)
	want := []Event{
		{Kind: Archived, NodeID: 0, LastDescendant: 2, Node: tr.Nodes[0], Witnesses: ps("alice"), AcsDelta: true},
		{Kind: Created, NodeID: 2, LastDescendant: 2, Node: tr.Nodes[2], Witnesses: ps("alice", "carol"), AcsDelta: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("acs delta (-want +got):\n%s", diff)
	}
}

// pingRespond: Bob responds to Alice's Ping (Alice signatory, Bob
// observer) with a Pong; inside, Bob also creates and archives a scratch
// contract (transient) and tries a create that an exception rolls back.
func TestPingRespondEvents(t *testing.T) {
	b := newBuilder("bob")
	okN, okC := must[NodeID](t), must[value.ContractID](t)
	ping := ledgerCid(1)
	okN(b.BeginExercise(exercise(ping, "Ping", "Respond", true, ps("bob"), ps("alice"), ps("alice", "bob"))))
	pong := okC(b.Create(create("Pong", ps("bob"), ps("alice"))))
	tmp := okC(b.Create(create("Tmp", ps("bob"), nil)))
	okN(b.BeginExercise(exercise(tmp, "Tmp", "Archive", true, ps("bob"), ps("bob"), ps("bob"))))
	okN(b.EndExercise(value.Unit{}))
	b.BeginTry()
	okC(b.Create(create("Lost", ps("bob"), ps("alice"))))
	if err := b.RollbackTry(); err != nil {
		t.Fatal(err)
	}
	okN(b.EndExercise(value.Unit{}))
	res := must[*Result](t)(b.Finish())
	tr := res.Transaction
	if got := shape(tr); got != "XRespond(CPong#1 CTmp#2 XArchive()#3 R(CLost#5)#4)#0" {
		t.Fatalf("shape %s", got)
	}
	wantEff := Effects{
		Inputs:     []value.ContractID{ping},
		Created:    []value.ContractID{pong},
		Archived:   []value.ContractID{ping},
		Transient:  []value.ContractID{tmp},
		ConsumedBy: map[value.ContractID]NodeID{ping: 0, tmp: 3},
	}
	if diff := cmp.Diff(wantEff, res.Effects); diff != "" {
		t.Errorf("effects (-want +got):\n%s", diff)
	}
	// Witnesses: the rollback node and its child are witnessed by the
	// exercise's witnesses, but are never events.
	w := tr.Witnesses()
	if !cmp.Equal(w[4], ps("alice", "bob")) || !cmp.Equal(w[5], ps("alice", "bob")) || !cmp.Equal(w[2], ps("alice", "bob")) {
		t.Errorf("witnesses %v", w)
	}
	type ev struct {
		Kind       EventKind
		Node, Last NodeID
		Witnesses  []string
		AcsDelta   bool
	}
	flat := func(es []Event) []ev {
		var out []ev
		for _, e := range es {
			out = append(out, ev{e.Kind, e.NodeID, e.LastDescendant, e.Witnesses, e.AcsDelta})
		}
		return out
	}
	tests := []struct {
		name    string
		parties []string
		shape   Shape
		want    []ev
	}{
		{"alice, ledger effects: the whole tree but the rollback", ps("alice"), LedgerEffects, []ev{
			{Exercised, 0, 5, ps("alice"), true},
			{Created, 1, 1, ps("alice"), true},
			{Created, 2, 2, ps("alice"), false},
			{Exercised, 3, 3, ps("alice"), false},
		}},
		{"alice, acs delta: the archive of the ping and the pong; not the transient", ps("alice"), AcsDelta, []ev{
			{Archived, 0, 5, ps("alice"), true},
			{Created, 1, 1, ps("alice"), true},
		}},
		{"wildcard, acs delta: all stakeholders", nil, AcsDelta, []ev{
			{Archived, 0, 5, ps("alice", "bob"), true},
			{Created, 1, 1, ps("alice", "bob"), true},
		}},
		{"a stranger sees nothing", ps("zed"), LedgerEffects, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, flat(tr.Events(tc.parties, tc.shape))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestVersionWithKeys(t *testing.T) {
	b := newBuilder("alice")
	in := create("K", ps("alice"), nil)
	in.Key = &KeyWithMaintainers{Key: value.Text("k"), Maintainers: ps("alice")}
	must[value.ContractID](t)(b.Create(in))
	tr := must[*Result](t)(b.Finish()).Transaction
	if tr.Nodes[0].(*Create).Version != VersionKeys || tr.Version() != VersionKeys {
		t.Errorf("versions %s %s", tr.Nodes[0].(*Create).Version, tr.Version())
	}
}
