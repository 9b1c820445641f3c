package interactive

import (
	"bytes"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/daml/value"
	"google.golang.org/protobuf/encoding/protowire"
)

func mustEncode(t testing.TB, pt *PreparedTransaction) []byte {
	t.Helper()
	b, err := EncodePreparedTransaction(pt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustHash(t testing.TB, pt *PreparedTransaction, v HashingSchemeVersion) []byte {
	t.Helper()
	h, err := Hash(pt, v)
	if err != nil {
		t.Fatalf("Hash(%v): %v", v, err)
	}
	return h
}

func TestPreparedRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name         string
		sorted, keys bool
	}{{"unsorted", false, false}, {"sorted", true, false}, {"keys", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			pt := richPrepared(tc.sorted, tc.keys)
			b := mustEncode(t, pt)
			got, err := DecodePreparedTransaction(b)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(pt, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
			if b2 := mustEncode(t, got); !bytes.Equal(b, b2) {
				t.Errorf("re-encoding differs")
			}
		})
	}
}

// TestHashCanonicalization: Canton hashes the decoded LF transaction, so
// party-list order and duplicates, input-contract order, node order,
// text-map entry order and UUID case do not change the hash.
func TestHashCanonicalization(t *testing.T) {
	for _, v := range []HashingSchemeVersion{HashingSchemeVersionV2, HashingSchemeVersionV3} {
		want := mustHash(t, richPrepared(true, false), v)
		variants := map[string]func(pt *PreparedTransaction){
			"unsorted": func(pt *PreparedTransaction) {},
			"duplicate parties": func(pt *PreparedTransaction) {
				x := pt.Transaction.Nodes[1].Exercise
				x.Signatories = append(x.Signatories, x.Signatories...)
				pt.Metadata.SubmitterInfo.ActAs = append(pt.Metadata.SubmitterInfo.ActAs, tAlice)
			},
			"node order": func(pt *PreparedTransaction) { slices.Reverse(pt.Transaction.Nodes) },
			"seed order": func(pt *PreparedTransaction) { slices.Reverse(pt.Transaction.NodeSeeds) },
			"uuid case": func(pt *PreparedTransaction) {
				pt.Metadata.TransactionUUID = strings.ToUpper(pt.Metadata.TransactionUUID)
			},
			"duplicate input contract": func(pt *PreparedTransaction) {
				pt.Metadata.InputContracts = append(pt.Metadata.InputContracts, pt.Metadata.InputContracts[0])
			},
			"text map order": func(pt *PreparedTransaction) {
				m := pt.Transaction.Nodes[1].Exercise.ChosenValue.(value.Record).Fields[17].Value.(value.TextMap)
				slices.Reverse(m)
			},
		}
		for name, mutate := range variants {
			pt := richPrepared(name == "unsorted", false)
			mutate(pt)
			if got := mustHash(t, pt, v); !bytes.Equal(got, want) {
				t.Errorf("%v %s: hash %x, want %x", v, name, got, want)
			}
		}
	}
}

// TestNotHashed: changes to what Canton's TransactionHash does not hash
// (fields, unreachable nodes, node ids) leave the hash as it is.
func TestNotHashed(t *testing.T) {
	for _, v := range []HashingSchemeVersion{HashingSchemeVersionV2, HashingSchemeVersionV3} {
		want := mustHash(t, richPrepared(true, false), v)
		for name, mutate := range map[string]func(pt *PreparedTransaction){
			"event blob": func(pt *PreparedTransaction) { pt.Metadata.InputContracts[0].EventBlob = []byte("other") },
			"global key mapping": func(pt *PreparedTransaction) {
				pt.Metadata.GlobalKeyMapping = []GlobalKeyMappingEntry{{Value: value.Unit{}}}
			},
			"unreachable node": func(pt *PreparedTransaction) { pt.Transaction.Nodes[5].Create.PackageName = "x" },
			"fetch seed":       func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds[3].Seed = seed(0x99) },
			"renumbered node": func(pt *PreparedTransaction) {
				pt.Transaction.Nodes[0].NodeID = "7"
				pt.Transaction.Nodes[1].Exercise.Children[2] = "7"
			},
		} {
			pt := richPrepared(true, false)
			mutate(pt)
			if got := mustHash(t, pt, v); !bytes.Equal(got, want) {
				t.Errorf("%v %s changed the hash", v, name)
			}
		}
	}
	// max_record_time is hashed by V3 only.
	a, b := richPrepared(true, false), richPrepared(true, false)
	b.Metadata.MaxRecordTime = nil
	if !bytes.Equal(mustHash(t, a, HashingSchemeVersionV2), mustHash(t, b, HashingSchemeVersionV2)) {
		t.Error("max_record_time changed the V2 hash")
	}
	if bytes.Equal(mustHash(t, a, HashingSchemeVersionV3), mustHash(t, b, HashingSchemeVersionV3)) {
		t.Error("max_record_time did not change the V3 hash")
	}
}

// TestHashTamperModel: every hashed field changes the hash.
func TestHashTamperModel(t *testing.T) {
	ex := func(pt *PreparedTransaction) *Exercise { return pt.Transaction.Nodes[1].Exercise }
	rec := func(pt *PreparedTransaction) []value.RecordField { return ex(pt).ChosenValue.(value.Record).Fields }
	mutations := map[string]func(pt *PreparedTransaction){
		"tx version":      func(pt *PreparedTransaction) { pt.Transaction.Version = "2.x" },
		"exercise seed":   func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds[1].Seed = seed(0x12) },
		"create seed":     func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds[0].Seed = seed(0x45) },
		"cid":             func(pt *PreparedTransaction) { ex(pt).ContractID = cid(0x31) },
		"package name":    func(pt *PreparedTransaction) { ex(pt).PackageName = "demo2" },
		"template module": func(pt *PreparedTransaction) { ex(pt).TemplateID.ModuleName = "Main.X" },
		"signatory":       func(pt *PreparedTransaction) { ex(pt).Signatories = []string{tAlice} },
		"stakeholder":     func(pt *PreparedTransaction) { ex(pt).Stakeholders = ex(pt).Stakeholders[1:] },
		"acting party":    func(pt *PreparedTransaction) { ex(pt).ActingParties = []string{tBob} },
		"interface":       func(pt *PreparedTransaction) { ex(pt).InterfaceID = nil },
		"choice":          func(pt *PreparedTransaction) { ex(pt).ChoiceID = "Transfer2" },
		"int64":           func(pt *PreparedTransaction) { rec(pt)[3].Value = value.Int64(-9007199254740990) },
		"numeric scale":   func(pt *PreparedTransaction) { rec(pt)[5].Value = value.Numeric("12.500000000") },
		"label":           func(pt *PreparedTransaction) { rec(pt)[0].Label = "unit2" },
		"empty label":     func(pt *PreparedTransaction) { rec(pt)[0].Label = "" },
		"record id": func(pt *PreparedTransaction) {
			r := ex(pt).ChosenValue.(value.Record)
			r.RecordID = nil
			ex(pt).ChosenValue = r
		},
		"gen map order":    func(pt *PreparedTransaction) { slices.Reverse(rec(pt)[18].Value.(value.GenMap)) },
		"consuming":        func(pt *PreparedTransaction) { ex(pt).Consuming = false },
		"result":           func(pt *PreparedTransaction) { ex(pt).ExerciseResult = nil },
		"choice observers": func(pt *PreparedTransaction) { ex(pt).ChoiceObservers = nil },
		"children order":   func(pt *PreparedTransaction) { slices.Reverse(ex(pt).Children) },
		"fetch acting":     func(pt *PreparedTransaction) { pt.Transaction.Nodes[3].Fetch.ActingParties = []string{tAlice} },
		"fetch interface":  func(pt *PreparedTransaction) { pt.Transaction.Nodes[3].Fetch.InterfaceID = &Identifier{} },
		"rollback create":  func(pt *PreparedTransaction) { pt.Transaction.Nodes[4].Create.Argument = value.Unit{} },
		"act as":           func(pt *PreparedTransaction) { pt.Metadata.SubmitterInfo.ActAs = []string{tAlice} },
		"command id":       func(pt *PreparedTransaction) { pt.Metadata.SubmitterInfo.CommandID = "cmd" },
		"synchronizer":     func(pt *PreparedTransaction) { pt.Metadata.SynchronizerID += "1" },
		"mediator":         func(pt *PreparedTransaction) { pt.Metadata.MediatorGroup = 0 },
		"uuid":             func(pt *PreparedTransaction) { pt.Metadata.TransactionUUID = "0a1b2c3d-4e5f-4a6b-8c7d-0123456789ac" },
		"preparation time": func(pt *PreparedTransaction) { pt.Metadata.PreparationTime++ },
		"min let":          func(pt *PreparedTransaction) { pt.Metadata.MinLedgerEffectiveTime = nil },
		"max let":          func(pt *PreparedTransaction) { *pt.Metadata.MaxLedgerEffectiveTime++ },
		"input created at": func(pt *PreparedTransaction) { pt.Metadata.InputContracts[0].CreatedAt++ },
		"input contract":   func(pt *PreparedTransaction) { pt.Metadata.InputContracts[1].Contract.Signatories = []string{tCarol} },
		"input dropped":    func(pt *PreparedTransaction) { pt.Metadata.InputContracts = pt.Metadata.InputContracts[1:] },
		"max record time":  func(pt *PreparedTransaction) { *pt.Metadata.MaxRecordTime++ },
		"key maintainers":  func(pt *PreparedTransaction) { ex(pt).Key.Maintainers = []string{tBob} },
		"key hash":         func(pt *PreparedTransaction) { ex(pt).Key.Key.Hash = seed(0x78) },
		"by key":           func(pt *PreparedTransaction) { pt.Transaction.Nodes[3].Fetch.ByKey = false },
		"create key":       func(pt *PreparedTransaction) { pt.Transaction.Nodes[2].Create.Key = nil },
		"query exhaustive": func(pt *PreparedTransaction) { pt.Transaction.Nodes[6].QueryByKey.Exhaustive = false },
		"query result":     func(pt *PreparedTransaction) { pt.Transaction.Nodes[6].QueryByKey.Result = nil },
		"unicode text":     func(pt *PreparedTransaction) { rec(pt)[9].Value = value.Text("hèllo ✓") },
		"optional nesting": func(pt *PreparedTransaction) { rec(pt)[14].Value = value.Optional{Value: value.Unit{}} },
		"variant ctor": func(pt *PreparedTransaction) {
			v := rec(pt)[19].Value.(value.Variant)
			v.Constructor = "Square"
			rec(pt)[19].Value = v
		},
		"enum id": func(pt *PreparedTransaction) {
			e := rec(pt)[20].Value.(value.Enum)
			e.EnumID = nil
			rec(pt)[20].Value = e
		},
		"date":              func(pt *PreparedTransaction) { rec(pt)[7].Value = value.Date(20455) },
		"timestamp":         func(pt *PreparedTransaction) { rec(pt)[6].Value = value.Timestamp(1) },
		"party value":       func(pt *PreparedTransaction) { rec(pt)[8].Value = value.Party(tCarol) },
		"contract id value": func(pt *PreparedTransaction) { rec(pt)[11].Value = value.ContractID(cid(8)) },
	}
	want := mustHash(t, richPrepared(true, true), HashingSchemeVersionV3)
	for name, mutate := range mutations {
		pt := richPrepared(true, true)
		mutate(pt)
		got, err := Hash(pt, HashingSchemeVersionV3)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if bytes.Equal(got, want) {
			t.Errorf("%s did not change the hash", name)
		}
	}
}

// TestHashTamperBytes flips one bit in every byte of an encoded prepared
// transaction: the result must fail to decode or hash, or hash differently.
func TestHashTamperBytes(t *testing.T) {
	for _, v := range []HashingSchemeVersion{HashingSchemeVersionV2, HashingSchemeVersionV3} {
		pt := richPrepared(true, v == HashingSchemeVersionV3)
		// Everything in the fixture is hashed except these.
		pt.Metadata.GlobalKeyMapping = nil
		pt.Transaction.Nodes = pt.Transaction.Nodes[:5]
		pt.Transaction.NodeSeeds = pt.Transaction.NodeSeeds[:3]
		if v == HashingSchemeVersionV2 {
			pt.Metadata.MaxRecordTime = nil
		} else {
			pt.Transaction.Nodes = append(pt.Transaction.Nodes, richPrepared(true, true).Transaction.Nodes[6])
		}
		for i := range pt.Metadata.InputContracts {
			pt.Metadata.InputContracts[i].EventBlob = nil
		}
		b := mustEncode(t, pt)
		want := mustHash(t, pt, v)
		same, hashed := 0, 0
		for i := range b {
			c := bytes.Clone(b)
			c[i] ^= 0x01
			d, err := DecodePreparedTransaction(c)
			if err != nil {
				continue
			}
			got, err := Hash(d, v)
			if err == nil {
				hashed++
			}
			if err == nil && bytes.Equal(got, want) {
				same++
				t.Errorf("%v: flipping byte %d (%02x) kept the hash", v, i, b[i])
			}
		}
		if same > 0 {
			t.Logf("encoding: %s", hex.EncodeToString(b))
		}
		t.Logf("%v: %d bytes, %d tampered encodings still decode and hash (all differently)", v, len(b), hashed)
		if hashed < len(b)/4 {
			t.Errorf("only %d of %d tampered encodings hashed; the test is too weak", hashed, len(b))
		}
	}
}

func TestHashErrors(t *testing.T) {
	ex := func(pt *PreparedTransaction) *Exercise { return pt.Transaction.Nodes[1].Exercise }
	tests := []struct {
		name    string
		v       HashingSchemeVersion
		mutate  func(pt *PreparedTransaction)
		wantErr string
	}{
		{"scheme V1", 1, func(*PreparedTransaction) {}, "unsupported hashing scheme"},
		{"no exercise seed", 2, func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds = pt.Transaction.NodeSeeds[:1] }, "missing node seed for exercise node 0"},
		{"no create seed", 2, func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds = pt.Transaction.NodeSeeds[1:] }, "missing node seed for create node 4"},
		{"short seed", 2, func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds[0].Seed = seed(1)[:31] }, "must be 32 bytes"},
		{"duplicate seed", 2, func(pt *PreparedTransaction) {
			pt.Transaction.NodeSeeds = append(pt.Transaction.NodeSeeds, pt.Transaction.NodeSeeds[0])
		}, "more than one node seed"},
		{"duplicate node id", 2, func(pt *PreparedTransaction) { pt.Transaction.Nodes[5].NodeID = "1" }, "used by more than one node"},
		{"non-canonical node id", 2, func(pt *PreparedTransaction) { pt.Transaction.Nodes[5].NodeID = "09" }, "invalid node id"},
		{"dangling child", 2, func(pt *PreparedTransaction) { ex(pt).Children = append(ex(pt).Children, "42") }, "does not contain a node with nodeId 42"},
		{"child twice", 2, func(pt *PreparedTransaction) { ex(pt).Children = append(ex(pt).Children, "1") }, "referenced more than once"},
		{"cycle", 2, func(pt *PreparedTransaction) { pt.Transaction.Nodes[0].Rollback.Children = []string{"0"} }, "referenced more than once"},
		{"root twice", 2, func(pt *PreparedTransaction) { pt.Transaction.Roots = []string{"0", "0"} }, "referenced more than once"},
		{"lf 2 under V2", 2, func(pt *PreparedTransaction) { ex(pt).LFVersion = "2" }, `LF serialization version "2" using hashing scheme HASHING_SCHEME_VERSION_V2`},
		{"lf dev", 3, func(pt *PreparedTransaction) { ex(pt).LFVersion = "dev" }, `LF serialization version "dev"`},
		{"key under V2", 2, func(pt *PreparedTransaction) {
			ex(pt).Key = &KeyWithMaintainers{Key: GlobalKey{Key: value.Unit{}, Hash: seed(1)}}
		}, "does the transaction use contract keys"},
		{"key with lf 2.1 under V3", 3, func(pt *PreparedTransaction) { ex(pt).ByKey = true }, "not supported in nodes with LF serialization version 2.1"},
		{"query by key under V2", 2, func(pt *PreparedTransaction) {
			pt.Transaction.Nodes[5] = Node{NodeID: "9", QueryByKey: &QueryByKey{LFVersion: "2"}}
			ex(pt).Children = append(ex(pt).Children, "9")
		}, "query-by-key node 9 cannot be hashed"},
		{"two node kinds", 2, func(pt *PreparedTransaction) { pt.Transaction.Nodes[0].Fetch = &Fetch{} }, "exactly one node type"},
		{"bad uuid", 2, func(pt *PreparedTransaction) { pt.Metadata.TransactionUUID = "not-a-uuid" }, "not a canonical UUID"},
		{"mediator group", 2, func(pt *PreparedTransaction) { pt.Metadata.MediatorGroup = 1 << 31 }, "mediator group"},
		{"uppercase cid", 2, func(pt *PreparedTransaction) { ex(pt).ContractID = strings.ToUpper(ex(pt).ContractID) }, "not lowercase hex"},
		{"bad act_as", 2, func(pt *PreparedTransaction) { pt.Metadata.SubmitterInfo.ActAs = []string{"a b!"} }, "act_as"},
		{"conflicting input contracts", 2, func(pt *PreparedTransaction) {
			ic := pt.Metadata.InputContracts[0]
			ic.CreatedAt++
			pt.Metadata.InputContracts = append(pt.Metadata.InputContracts, ic)
		}, "given twice with different content"},
		{"missing argument", 2, func(pt *PreparedTransaction) { pt.Transaction.Nodes[2].Create.Argument = nil }, "required value is missing"},
		{"bad numeric", 2, func(pt *PreparedTransaction) { ex(pt).ChosenValue = value.Numeric("1") }, "Daml-LF form"},
		{"short key hash", 3, func(pt *PreparedTransaction) {}, "global key hash must be 32 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pt := richPrepared(true, false)
			if tc.name == "short key hash" {
				pt = richPrepared(true, true)
				pt.Transaction.Nodes[1].Exercise.Key.Key.Hash = seed(1)[:4]
			}
			tc.mutate(pt)
			_, err := Hash(pt, tc.v)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	good := mustEncode(t, richPrepared(true, false))
	var deep []byte
	deep = mustValueBytes(t, value.Unit{})
	for range 120 {
		var e pbEnc
		e.BytesAlways(10, protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), deep))
		deep = e.B
	}
	tests := []struct {
		name    string
		b       []byte
		wantErr string
	}{
		{"empty", nil, "field transaction is not set"},
		{"truncated", good[:len(good)-3], "malformed"},
		{"no metadata", protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), nil), "field metadata is not set"},
		{"node without type", ptWith(t, func(e *pbEnc) {
			e.Message(3, func(e *pbEnc) { e.String(1, "0"); e.Message(1000, func(*pbEnc) {}) })
		}), "has no node type"},
		{"node without v1", ptWith(t, func(e *pbEnc) { e.Message(3, func(e *pbEnc) { e.String(1, "0") }) }), "no versioned node"},
		{"value without sum", ptWith(t, func(e *pbEnc) {
			e.Message(3, func(e *pbEnc) {
				e.String(1, "0")
				e.Message(1000, func(e *pbEnc) { e.Message(1, func(e *pbEnc) { e.Message(5, func(*pbEnc) {}) }) })
			})
		}), "no sum"},
		{"missing create argument", ptWith(t, func(e *pbEnc) {
			e.Message(3, func(e *pbEnc) { e.String(1, "0"); e.Message(1000, func(e *pbEnc) { e.Message(1, func(*pbEnc) {}) }) })
		}), "create argument is missing"},
		{"invalid utf-8", ptWith(t, func(e *pbEnc) { e.BytesAlways(1, []byte{0xff}) }), "UTF-8"},
		{"too deep", ptWith(t, func(e *pbEnc) {
			e.Message(3, func(e *pbEnc) {
				e.String(1, "0")
				e.Message(1000, func(e *pbEnc) { e.Message(1, func(e *pbEnc) { e.BytesAlways(5, deep) }) })
			})
		}), "nesting exceeds 100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodePreparedTransaction(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

func mustValueBytes(t testing.TB, v value.Value) []byte {
	b, err := value.EncodeProto(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ptWith builds PreparedTransaction bytes with the given DamlTransaction
// fields and an empty metadata.
func ptWith(t testing.TB, tx func(e *pbEnc)) []byte {
	var e pbEnc
	e.Message(1, tx)
	e.Message(2, func(*pbEnc) {})
	return e.B
}

// TestDecodeProtoSemantics: split singular messages merge, unknown fields
// and wrong wire types are skipped, packed and unpacked agree.
func TestDecodeProtoSemantics(t *testing.T) {
	pt := vecPrepared()
	b := mustEncode(t, pt)
	// Split: transaction field, then metadata in two halves (submitter info
	// and synchronizer in one, the rest in another), plus unknown fields.
	var e pbEnc
	e.Varint(99, 7)                                         // unknown varint
	e.BytesAlways(98, []byte("junk"))                       // unknown bytes
	e.B = protowire.AppendTag(e.B, 1, protowire.VarintType) // wrong wire type for transaction
	e.B = protowire.AppendVarint(e.B, 5)
	full, err := DecodePreparedTransaction(b)
	if err != nil {
		t.Fatal(err)
	}
	m := pt.Metadata
	e.Message(2, func(e *pbEnc) {
		e.Message(2, func(e *pbEnc) { e.Strings(1, m.SubmitterInfo.ActAs) })
		e.String(3, m.SynchronizerID)
	})
	rest := b[:]
	e.B = append(e.B, rest...) // transaction (field 1) and the full metadata again
	e.Message(2, func(e *pbEnc) { e.Message(2, func(e *pbEnc) { e.String(2, "cmd-1") }) })
	got, err := DecodePreparedTransaction(e.B)
	if err != nil {
		t.Fatal(err)
	}
	// act_as was given twice (merged repeated field); the rest merges back.
	want := *full
	want.Metadata.SubmitterInfo.ActAs = []string{vecAlice, vecAlice}
	if d := cmp.Diff(&want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("merged decode (-want +got):\n%s", d)
	}
	if !bytes.Equal(mustHash(t, got, HashingSchemeVersionV2), mustHash(t, full, HashingSchemeVersionV2)) {
		t.Error("merged decode hashes differently")
	}
}
