package tx

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

func TestNormalize(t *testing.T) {
	c := func(name string) *Create { return &Create{TemplateID: tpl(name)} }
	tests := []struct {
		name string
		in   *Transaction
		want string
	}{
		{"renumbered in pre-order", &Transaction{
			Nodes: []Node{c("b"), &Exercise{Choice: "x", Result: value.Unit{}, Children: []NodeID{0, 2}}, &Fetch{TemplateID: tpl("f")}},
			Roots: []NodeID{1},
		}, "Xx(Cb#1 Ff#2)#0"},
		{"empty rollback dropped", &Transaction{
			Nodes: []Node{&Rollback{}, c("a")},
			Roots: []NodeID{0, 1},
		}, "Ca#0"},
		{"rollback of only an empty rollback dropped", &Transaction{
			Nodes: []Node{&Rollback{}, &Rollback{Children: []NodeID{0}}, c("a")},
			Roots: []NodeID{2, 1},
		}, "Ca#0"},
		{"leading rollback split", &Transaction{
			Nodes: []Node{c("a"), &Rollback{Children: []NodeID{0}}, c("b"), &Rollback{Children: []NodeID{1, 2}}},
			Roots: []NodeID{3},
		}, "R(Ca#1)#0 R(Cb#3)#2"},
		{"trailing rollback flattened", &Transaction{
			Nodes: []Node{c("a"), c("b"), &Rollback{Children: []NodeID{1}}, &Rollback{Children: []NodeID{0, 2}}},
			Roots: []NodeID{3},
		}, "R(Ca#1 Cb#2)#0"},
		{"rollback of a single rollback collapses", &Transaction{
			Nodes: []Node{c("a"), c("b"), &Rollback{Children: []NodeID{0, 1}}, &Rollback{Children: []NodeID{2}}},
			Roots: []NodeID{3},
		}, "R(Ca#1 Cb#2)#0"},
		{"middle rollback kept", &Transaction{
			Nodes: []Node{c("a"), c("b"), &Rollback{Children: []NodeID{1}}, c("c"), &Rollback{Children: []NodeID{0, 2, 3}}},
			Roots: []NodeID{4},
		}, "R(Ca#1 R(Cb#3)#2 Cc#4)#0"},
		{"rollback inside an exercise", &Transaction{
			Nodes: []Node{c("a"), &Rollback{Children: []NodeID{0}}, &Exercise{Choice: "x", Result: value.Unit{}, Children: []NodeID{1, 3}}, c("d")},
			Roots: []NodeID{2},
		}, "Xx(R(Ca#2)#1 Cd#3)#0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, shape(tc.in.Normalize())); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestNormalizeKeepsSeedsWithTheirNodes(t *testing.T) {
	in := &Transaction{
		Nodes:     []Node{&Create{TemplateID: tpl("a")}, &Rollback{Children: []NodeID{0}}, &Exercise{Choice: "x", Children: []NodeID{1, 3}}, &Create{TemplateID: tpl("d")}},
		Roots:     []NodeID{2},
		NodeSeeds: []NodeSeed{{0, Hash{0xa}}, {2, Hash{0x2}}, {3, Hash{0xd}}},
	}
	got := in.Normalize()
	want := []NodeSeed{{0, Hash{0x2}}, {2, Hash{0xa}}, {3, Hash{0xd}}}
	if diff := cmp.Diff(want, got.NodeSeeds); diff != "" {
		t.Error(diff)
	}
	if _, ok := in.Nodes[2].(*Exercise); !ok || in.Nodes[2].(*Exercise).Children[0] != 1 {
		t.Error("Normalize modified its input")
	}
}

// hmacRef is an independent HMAC-SHA256 for the derivation tests: the
// data is written by hand, not by the package's encoder.
func hmacRef(key Hash, data ...[]byte) Hash {
	m := hmac.New(sha256.New, key[:])
	for _, d := range data {
		m.Write(d)
	}
	var h Hash
	copy(h[:], m.Sum(nil))
	return h
}

// TestSeedDerivation checks the seed and discriminator derivations
// (Canton's Hash.deriveTransactionSeed, deriveNodeSeed and
// deriveContractDiscriminator) against hand-encoded HMAC inputs. With no
// published vector, the expected values are HMAC-SHA256 over byte strings
// written out literally here: big-endian integers, strings as a 4-byte
// length and the bytes.
func TestSeedDerivation(t *testing.T) {
	var sub Hash
	for i := range sub {
		sub[i] = byte(i)
	}
	const time = value.Timestamp(0x0102030405060708)
	txSeed := TransactionSeed(sub, "p1", time)
	// str("p1") = 00000002 7031; int64(time) = 0102030405060708.
	if want := hmacRef(sub, []byte{0, 0, 0, 2, 'p', '1', 1, 2, 3, 4, 5, 6, 7, 8}); txSeed != want {
		t.Errorf("TransactionSeed = %s, want %s", txSeed, want)
	}
	n3 := DeriveNodeSeed(txSeed, 3)
	if want := hmacRef(txSeed, []byte{0, 0, 0, 3}); n3 != want {
		t.Errorf("DeriveNodeSeed = %s, want %s", n3, want)
	}
	// Stakeholders are sorted and unique: "b", "a", "b" → a, b.
	d := Discriminator(n3, time, []string{"b", "a", "b"})
	want := hmacRef(n3, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{0, 0, 0, 2}, []byte{0, 0, 0, 1, 'a'}, []byte{0, 0, 0, 1, 'b'})
	if d != want {
		t.Errorf("Discriminator = %s, want %s", d, want)
	}
	cid := LocalContractID(d)
	if len(cid) != 66 || !strings.HasPrefix(string(cid), "00") || string(cid[2:]) != hex.EncodeToString(want[:]) {
		t.Errorf("LocalContractID = %s", cid)
	}
	if !IsLocalContractID(cid) {
		t.Error("IsLocalContractID(local) = false")
	}
	var u Hash
	u[0] = 0xee
	g, err := SuffixContractID(cid, u)
	if err != nil {
		t.Fatal(err)
	}
	if wantG := string(cid) + "ca121220" + hex.EncodeToString(u[:]); string(g) != wantG || len(g) != 138 {
		t.Errorf("SuffixContractID = %s (len %d)", g, len(g))
	}
	if IsLocalContractID(g) {
		t.Error("IsLocalContractID(suffixed) = true")
	}
	if _, err := SuffixContractID(g, u); err == nil {
		t.Error("suffixing a suffixed id succeeded")
	}
}

// TestBuilderSeedsAndIDs builds a Bong-like tree and checks node ids,
// children order, node seeds and contract ids:
//
//	0 Create Bong                     seed r0
//	1 Exercise Play (non-consuming)   seed r1
//	  2 Fetch Ball                    (index 0, no seed)
//	  3 Fetch Ball                    (index 1)
//	  4 Exercise Hit (consuming)      seed r1/2
//	    5 Exercise Bounce (consuming) seed r1/2/0
//	      6 Create Ball               seed r1/2/0/0
//	  7 Create Score                  seed r1/3
func TestBuilderSeedsAndIDs(t *testing.T) {
	b := newBuilder("alice", "bob")
	okC, okN := must[value.ContractID](t), must[NodeID](t)
	bong := okC(b.Create(create("Bong", ps("alice"), ps("bob"))))
	ball := ledgerCid(1)
	okN(b.BeginExercise(exercise(bong, "Bong", "Play", false, ps("bob"), ps("alice"), ps("alice", "bob"))))
	okN(b.Fetch(fetch(ball, "Ball", ps("alice"), ps("alice"))))
	okN(b.Fetch(fetch(ball, "Ball", ps("alice"), ps("alice"))))
	okN(b.BeginExercise(exercise(ball, "Ball", "Hit", true, ps("alice"), ps("alice"), ps("alice"))))
	okN(b.BeginExercise(exercise(ledgerCid(2), "Wall", "Bounce", true, ps("alice"), ps("alice"), ps("alice", "bob"))))
	ball2 := okC(b.Create(create("Ball", ps("alice"), nil)))
	okN(b.EndExercise(value.ContractID(ball2)))
	okN(b.EndExercise(value.Unit{}))
	score := okC(b.Create(create("Score", ps("bob"), ps("alice"))))
	if id := okN(b.EndExercise(value.Unit{})); id != 1 {
		t.Errorf("EndExercise = %d, want 1", id)
	}
	res, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transaction
	if got, want := shape(tr), "CBong#0 XPlay(FBall#2 FBall#3 XHit(XBounce(CBall#6)#5)#4 CScore#7)#1"; got != want {
		t.Errorf("shape = %s, want %s", got, want)
	}
	root := Hash{1, 2, 3}
	r1 := DeriveNodeSeed(root, 1)
	hit := DeriveNodeSeed(r1, 2)
	bounce := DeriveNodeSeed(hit, 0)
	wantSeeds := []NodeSeed{
		{0, DeriveNodeSeed(root, 0)}, {1, r1}, {4, hit}, {5, bounce},
		{6, DeriveNodeSeed(bounce, 0)}, {7, DeriveNodeSeed(r1, 3)},
	}
	if diff := cmp.Diff(wantSeeds, tr.NodeSeeds); diff != "" {
		t.Errorf("seeds (-want +got):\n%s", diff)
	}
	const tm = value.Timestamp(1_700_000_000_000_000)
	for _, c := range []struct {
		cid  value.ContractID
		seed Hash
		stk  []string
	}{{bong, wantSeeds[0].Seed, ps("alice", "bob")}, {ball2, wantSeeds[4].Seed, ps("alice")}, {score, wantSeeds[5].Seed, ps("alice", "bob")}} {
		if want := LocalContractID(Discriminator(c.seed, tm, c.stk)); c.cid != want {
			t.Errorf("cid %s, want %s", c.cid, want)
		}
	}
	if tr.Nodes[7].(*Create).ContractID != score {
		t.Error("node 7 is not the Score create")
	}
	if got := tr.LastDescendant(1); got != 7 {
		t.Errorf("LastDescendant(1) = %d", got)
	}
	if got := tr.LastDescendant(4); got != 6 {
		t.Errorf("LastDescendant(4) = %d", got)
	}
	wantEff := Effects{
		Inputs:     []value.ContractID{ball, ledgerCid(2)},
		Created:    []value.ContractID{bong, ball2, score},
		Archived:   []value.ContractID{ball, ledgerCid(2)},
		ConsumedBy: map[value.ContractID]NodeID{ball: 4, ledgerCid(2): 5},
	}
	if diff := cmp.Diff(wantEff, res.Effects); diff != "" {
		t.Errorf("effects (-want +got):\n%s", diff)
	}
	if tr.Version() != VersionNoKey {
		t.Errorf("Version = %s", tr.Version())
	}
	if err := Authorize(tr, ps("alice", "bob")); err != nil {
		t.Errorf("Authorize: %v", err)
	}
}

func TestWithSuffixes(t *testing.T) {
	b := newBuilder("alice")
	c1 := must[value.ContractID](t)(b.Create(create("A", ps("alice"), nil)))
	in := create("B", ps("alice"), nil)
	in.Arg = value.Record{Fields: []value.RecordField{{Label: "ref", Value: value.List{value.Optional{Value: c1}}}}}
	c2 := must[value.ContractID](t)(b.Create(in))
	must[NodeID](t)(b.BeginExercise(exercise(c2, "B", "Use", false, ps("alice"), ps("alice"), ps("alice"))))
	must[NodeID](t)(b.EndExercise(value.GenMap{{Key: c1, Value: c2}}))
	res := must[*Result](t)(b.Finish())
	out, m, err := res.Transaction.WithSuffixes(func(n NodeID, _ *Create) Hash { return UnicumOf("upd", n) })
	if err != nil {
		t.Fatal(err)
	}
	g1, g2 := m[c1], m[c2]
	if len(m) != 2 || len(g1) != 138 || len(g2) != 138 || g1 == g2 || !strings.HasPrefix(string(g1), string(c1)) {
		t.Fatalf("mapping %v", m)
	}
	if out.Nodes[0].(*Create).ContractID != g1 || out.Nodes[2].(*Exercise).TargetID != g2 {
		t.Error("node ids not suffixed")
	}
	wantArg := value.Record{Fields: []value.RecordField{{Label: "ref", Value: value.List{value.Optional{Value: g1}}}}}
	if diff := cmp.Diff(wantArg, out.Nodes[1].(*Create).Arg); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(value.GenMap{{Key: g1, Value: g2}}, out.Nodes[2].(*Exercise).Result); diff != "" {
		t.Error(diff)
	}
	if res.Transaction.Nodes[0].(*Create).ContractID != c1 {
		t.Error("WithSuffixes modified its input")
	}
}

func TestWellFormed(t *testing.T) {
	c := &Create{TemplateID: tpl("a")}
	tests := []struct {
		name string
		tr   *Transaction
		ok   bool
	}{
		{"fine", &Transaction{Nodes: []Node{&Exercise{Children: []NodeID{1}}, c}, Roots: []NodeID{0}, NodeSeeds: []NodeSeed{{0, Hash{}}, {1, Hash{}}}}, true},
		{"root out of range", &Transaction{Nodes: []Node{c}, Roots: []NodeID{1}}, false},
		{"negative child", &Transaction{Nodes: []Node{&Rollback{Children: []NodeID{-1}}}, Roots: []NodeID{0}}, false},
		{"nil node", &Transaction{Nodes: []Node{nil}, Roots: []NodeID{0}}, false},
		{"cycle", &Transaction{Nodes: []Node{&Exercise{Children: []NodeID{0}}}, Roots: []NodeID{0}}, false},
		{"shared child", &Transaction{Nodes: []Node{&Rollback{Children: []NodeID{1}}, c}, Roots: []NodeID{0, 1}}, false},
		{"seed of a fetch", &Transaction{Nodes: []Node{&Fetch{}}, Roots: []NodeID{0}, NodeSeeds: []NodeSeed{{0, Hash{}}}}, false},
		{"seed of an unreached create", &Transaction{Nodes: []Node{c, c}, Roots: []NodeID{0}, NodeSeeds: []NodeSeed{{1, Hash{}}}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.tr.WellFormed(); (err == nil) != tc.ok {
				t.Errorf("WellFormed = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
