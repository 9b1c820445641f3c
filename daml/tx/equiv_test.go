package tx

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/value"
)

// randTx builds a random well-formed transaction, not necessarily
// normalized: nested and empty Rollbacks, contracts created, fetched,
// exercised (consuming or not, inside Rollbacks or not, twice), key
// queries, keys, values holding contract ids (of the transaction and of
// the ledger) in every container, nil and empty containers, and now and
// then a node no root reaches or a Create whose id is not local.
func randTx(r *rand.Rand) *Transaction {
	parties := ps("a", "b", "c", "d")
	set := func() []string {
		var out []string
		for _, p := range parties {
			if r.IntN(2) == 0 {
				out = append(out, p)
			}
		}
		return union(out)
	}
	var local []value.ContractID
	pool := []value.ContractID{ledgerCid(1), ledgerCid(2), ledgerCid(3)}
	cid := func() value.ContractID {
		if len(local) > 0 && r.IntN(2) == 0 {
			return local[r.IntN(len(local))]
		}
		return pool[r.IntN(len(pool))]
	}
	var val func(depth int) value.Value
	val = func(depth int) value.Value {
		k := r.IntN(11)
		if depth > 3 {
			k = r.IntN(3)
		}
		id := tpl("V")
		switch k {
		case 0:
			return value.Text("t")
		case 1:
			return cid()
		case 2:
			return value.Int64(r.Int64N(10))
		case 3:
			if r.IntN(3) == 0 {
				return value.Optional{}
			}
			return value.Optional{Value: val(depth + 1)}
		case 4:
			if r.IntN(3) == 0 {
				return value.List(nil)
			}
			l := make(value.List, r.IntN(3))
			for i := range l {
				l[i] = val(depth + 1)
			}
			return l
		case 5:
			if r.IntN(3) == 0 {
				return value.TextMap(nil)
			}
			m := make(value.TextMap, r.IntN(3))
			for i := range m {
				m[i] = value.TextMapEntry{Key: fmt.Sprint(i), Value: val(depth + 1)}
			}
			return m
		case 6:
			if r.IntN(3) == 0 {
				return value.GenMap(nil)
			}
			m := make(value.GenMap, r.IntN(3))
			for i := range m {
				m[i] = value.GenMapEntry{Key: val(depth + 1), Value: val(depth + 1)}
			}
			return m
		case 7, 8:
			if r.IntN(4) == 0 {
				return value.Record{RecordID: &id}
			}
			fs := make([]value.RecordField, r.IntN(4))
			for i := range fs {
				fs[i] = value.RecordField{Label: fmt.Sprint("f", i), Value: val(depth + 1)}
			}
			return value.Record{RecordID: &id, Fields: fs}
		case 9:
			return value.Variant{VariantID: &id, Constructor: "C", Rank: 1, Value: val(depth + 1)}
		}
		return value.Enum{EnumID: &id, Constructor: "E"}
	}
	key := func() *KeyWithMaintainers {
		if r.IntN(4) != 0 {
			return nil
		}
		return &KeyWithMaintainers{Key: val(1), Maintainers: set()}
	}
	t := &Transaction{}
	add := func(n Node) NodeID {
		t.Nodes = append(t.Nodes, n)
		return NodeID(len(t.Nodes) - 1)
	}
	var kids func(depth int) []NodeID
	node := func(depth int) NodeID {
		k := r.IntN(6)
		if depth > 3 {
			k = r.IntN(3)
		}
		switch k {
		case 0:
			var h Hash
			h[0], h[1] = byte(r.IntN(256)), byte(len(t.Nodes))
			c := LocalContractID(h)
			if r.IntN(40) == 0 {
				c = ledgerCid(9) // not local: WithSuffixes fails
			}
			local = append(local, c)
			sigs := set()
			return add(&Create{ContractID: c, PackageName: "p", TemplateID: tpl("C"), Arg: val(0), Signatories: sigs,
				Stakeholders: union(sigs, set()), Key: key(), Version: VersionNoKey})
		case 1:
			return add(&Fetch{ContractID: cid(), TemplateID: tpl("F"), ActingParties: set(), Signatories: set(), Stakeholders: set(), Key: key()})
		case 2:
			res := make([]value.ContractID, r.IntN(3))
			for i := range res {
				res[i] = cid()
			}
			return add(&QueryByKey{TemplateID: tpl("Q"), Key: KeyWithMaintainers{Key: val(1), Maintainers: set()}, Result: res})
		case 3:
			rb := &Rollback{}
			id := add(rb)
			rb.Children = kids(depth + 1)
			return id
		}
		ex := &Exercise{TargetID: cid(), TemplateID: tpl("X"), Choice: "Ch", Consuming: r.IntN(2) == 0, ActingParties: set(),
			ChosenValue: val(0), Signatories: set(), Stakeholders: set(), ChoiceObservers: set(), Key: key()}
		if r.IntN(5) == 0 {
			ex.ChoiceAuthorizers = set()
		}
		id := add(ex)
		ex.Children = kids(depth + 1)
		if r.IntN(6) != 0 {
			ex.Result = val(0)
		}
		return id
	}
	kids = func(depth int) []NodeID {
		out := make([]NodeID, r.IntN(4))
		for i := range out {
			out[i] = node(depth)
		}
		return out
	}
	t.Roots = kids(0)
	if r.IntN(10) == 0 {
		node(0) // unreachable
	}
	for id, n := range t.All() {
		switch n.(type) {
		case *Create, *Exercise:
			t.NodeSeeds = append(t.NodeSeeds, NodeSeed{Node: id, Seed: Hash{byte(id)}})
		}
	}
	if err := t.WellFormed(); err != nil {
		panic(err)
	}
	return t
}

// TestViewsMatchReference pins WithSuffixes, Effects, Witnesses and
// Events to the reference implementations (ref_test.go) on random
// transactions and on the hand-built ones of the other tests.
func TestViewsMatchReference(t *testing.T) {
	var txs []*Transaction
	for seed := range uint64(400) {
		txs = append(txs, randTx(rand.New(rand.NewPCG(seed, 11))))
	}
	txs = append(txs, pingCreateTx(t), pingRespondTx(t), proposeAccept(t), &Transaction{})
	partySets := [][]string{nil, {}, ps("a"), ps("b", "a"), ps("c", "d", "zed"), ps("alice", "bob")}
	unicum := func(n NodeID, c *Create) Hash { return UnicumOf("upd-"+string(c.ContractID[:6]), n) }
	var failed, suffixed int
	for i, tr := range txs {
		before := fmt.Sprintf("%#v", tr)
		got, gotMap, gotErr := tr.WithSuffixes(unicum)
		want, wantMap, wantErr := refWithSuffixes(tr, unicum)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("tx %d: WithSuffixes error %v, want %v", i, gotErr, wantErr)
		}
		if gotErr != nil {
			failed++
		} else {
			suffixed++
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("tx %d: WithSuffixes (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(wantMap, gotMap); diff != "" {
			t.Fatalf("tx %d: WithSuffixes mapping (-want +got):\n%s", i, diff)
		}
		if s, err := tr.Suffixed(unicum); (err == nil) != (gotErr == nil) || cmp.Diff(got, s) != "" {
			t.Fatalf("tx %d: Suffixed is not WithSuffixes's transaction (%v):\n%s", i, err, cmp.Diff(got, s))
		}
		if after := fmt.Sprintf("%#v", tr); after != before {
			t.Fatalf("tx %d: WithSuffixes modified its input", i)
		}
		views := []*Transaction{tr}
		if got != nil {
			views = append(views, got)
		}
		for _, v := range views {
			if diff := cmp.Diff(refEffects(v), v.Effects()); diff != "" {
				t.Fatalf("tx %d: Effects (-want +got):\n%s", i, diff)
			}
			if diff := cmp.Diff(refWitnesses(v), v.Witnesses()); diff != "" {
				t.Fatalf("tx %d: Witnesses (-want +got):\n%s", i, diff)
			}
			for _, parties := range partySets {
				for _, shape := range []Shape{LedgerEffects, AcsDelta} {
					if diff := cmp.Diff(refEvents(v, parties, shape), v.Events(parties, shape)); diff != "" {
						t.Fatalf("tx %d: Events(%v, %v) (-want +got):\n%s", i, parties, shape, diff)
					}
				}
			}
		}
	}
	if failed == 0 || suffixed < len(txs)/2 {
		t.Errorf("the random transactions did not cover both outcomes of WithSuffixes: %d failed, %d suffixed", failed, suffixed)
	}
}

func TestSuffixContractIDMatchesReference(t *testing.T) {
	var h Hash
	for i := range h {
		h[i] = byte(i * 7)
	}
	loc := string(LocalContractID(h))
	cids := []string{
		loc,
		strings.ToUpper(loc),
		"00" + strings.Repeat("A", 64),
		loc[:64],
		loc + "00",
		loc + "ca121220" + strings.Repeat("ab", 32),
		"01" + loc[2:],
		"01" + strings.Repeat("00", 32) + "00",
		"",
		"0",
		"00",
		"zz" + loc[2:],
		"00" + strings.Repeat("g", 64),
		"00" + strings.Repeat("0", 63) + "/",
	}
	for _, c := range cids {
		for _, u := range []Hash{{}, h} {
			got, gotErr := SuffixContractID(value.ContractID(c), u)
			want, wantErr := refSuffixContractID(value.ContractID(c), u)
			if got != want || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
				t.Errorf("SuffixContractID(%q) = %q, %v; want %q, %v", c, got, gotErr, want, wantErr)
			}
		}
	}
}

func TestUnicumOfMatchesReference(t *testing.T) {
	for _, id := range []string{"", "tx-1", strings.Repeat("x", 121), strings.Repeat("é", 300)} {
		for _, n := range []NodeID{0, 1, 1 << 20, -1} {
			if got, want := UnicumOf(id, n), refUnicumOf(id, n); got != want {
				t.Errorf("UnicumOf(%q, %d) = %s, want %s", id, n, got, want)
			}
		}
	}
}

// TestBuilderStateMatchesReference drives Builders (both modes) with
// random creates, fetches, exercises and tries, uses contracts that are
// consumed or rolled back too, and checks after every step that Status
// of every contract seen and the errors (ContractNotActive,
// ContractNotFound, EffectfulRollback with its nodes) are those of the
// reference contract state (refState).
func TestBuilderStateMatchesReference(t *testing.T) {
	var nuckFailures, rolledBackUses, consumedUses, maxLocal, maxConsumed int
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 3))
		nuck := seed%2 == 1
		mode := ModeNoKey
		if nuck {
			mode = ModeNUCK
		}
		b := NewBuilder(Config{ActAs: ps("a"), TransactionSeed: Hash{byte(seed)}, PreparationTime: 7, Mode: mode})
		ref := newRefState()
		pool := []value.ContractID{ledgerCid(1), ledgerCid(2)}
		var open []bool // true: exercise, false: try
		check := func(step int) {
			t.Helper()
			for _, c := range pool {
				gs, gn := b.Status(c)
				ws, wn := ref.status(c, b.Inputs())
				if gs != ws || gn != wn {
					t.Fatalf("seed %d step %d: Status(%s) = %v %d, want %v %d", seed, step, c, gs, gn, ws, wn)
				}
			}
		}
	steps:
		for step := 0; step < 200; step++ {
			switch op := r.IntN(8); {
			case op == 0:
				in := create("T", ps("a"), nil)
				in.Arg = value.Int64(step) // a new contract id every time
				cid, err := b.Create(in)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				pool = append(pool, cid)
				ref.create(b.Local(cid), NodeID(len(b.nodes)-1))
			case op <= 2:
				// Now and then a contract that may be consumed or rolled
				// back (which ends the run), else a usable one.
				c := pool[r.IntN(len(pool))]
				if r.IntN(30) != 0 {
					var usable []value.ContractID
					for _, c := range pool {
						if st, _ := ref.status(c, b.Inputs()); st == StatusActive || st == StatusUnknown {
							usable = append(usable, c)
						}
					}
					if len(usable) == 0 {
						break
					}
					c = usable[r.IntN(len(usable))]
				}
				want, _ := ref.status(c, b.Inputs())
				consuming := r.IntN(2) == 0 && len(open) < 6
				var err error
				if consuming {
					_, err = b.BeginExercise(exercise(c, "T", "Ch", true, ps("a"), ps("a"), ps("a")))
				} else {
					_, err = b.Fetch(fetch(c, "T", ps("a"), ps("a")))
				}
				var na *ContractNotActiveError
				var nf *ContractNotFoundError
				switch want {
				case StatusConsumed:
					consumedUses++
					if !errors.As(err, &na) {
						t.Fatalf("seed %d: using consumed %s: %v", seed, c, err)
					}
					break steps
				case StatusRolledBack:
					rolledBackUses++
					if !errors.As(err, &nf) {
						t.Fatalf("seed %d: using rolled-back %s: %v", seed, c, err)
					}
					break steps
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if consuming {
					nid := NodeID(len(b.nodes) - 1)
					ref.consume(b.nodes[nid].(*Exercise), nid)
					open = append(open, true)
				}
			case op == 3 && len(open) < 6:
				b.BeginTry()
				ref.beginTry()
				open = append(open, false)
			case op >= 4 && len(open) > 0:
				if open[len(open)-1] {
					if _, err := b.EndExercise(value.Unit{}); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					open = open[:len(open)-1]
					break
				}
				if r.IntN(2) == 0 {
					if err := b.EndTry(); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					ref.endTry()
					open = open[:len(open)-1]
					break
				}
				wantBad := ref.rollbackTry(nuck)
				err := b.RollbackTry()
				if wantBad != nil {
					var er *EffectfulRollbackError
					if !errors.As(err, &er) {
						t.Fatalf("seed %d: RollbackTry = %v, want an EffectfulRollbackError", seed, err)
					}
					if diff := cmp.Diff(wantBad, er.Nodes); diff != "" {
						t.Fatalf("seed %d: rolled-back effects (-want +got):\n%s", seed, diff)
					}
					nuckFailures++
					break steps
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				open = open[:len(open)-1]
			}
			check(step)
		}
		maxLocal, maxConsumed = max(maxLocal, len(b.local.list)), max(maxConsumed, len(b.consumed.list))
	}
	if maxLocal <= cidSetListMax || maxConsumed <= cidSetListMax {
		t.Errorf("no run indexed its logs: at most %d local and %d consumed contracts", maxLocal, maxConsumed)
	}
	if nuckFailures == 0 || rolledBackUses == 0 || consumedUses == 0 {
		t.Errorf("the runs missed a path: %d effectful rollbacks, %d uses of rolled-back contracts, %d of consumed ones", nuckFailures, rolledBackUses, consumedUses)
	}
}

// TestHMACMatchesCryptoHMAC pins hmacData.sumInPlace to crypto/hmac over
// keys and data of every length up to several SHA-256 blocks.
func TestHMACMatchesCryptoHMAC(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		var key Hash
		for i := range key {
			key[i] = byte(r.IntN(256))
		}
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		if got, want := hmacSum(data, key), hmacRef(key, data); got != want {
			t.Fatalf("%d bytes: %s, want %s", n, got, want)
		}
	}
}

// hmacSum is sumInPlace of data, copied after the room newHMACInput
// leaves.
func hmacSum(data []byte, key Hash) Hash {
	return hmacData(append(make([]byte, hmacBlock), data...)).sumInPlace(key)
}
