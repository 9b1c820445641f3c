package interactive

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ledgernode/ledgernode/daml/value"

	"github.com/ledgernode/ledgernode/identity"
)

// Worked vectors: a prepared transaction (vecPrepared) whose V2 hash the
// npm package @canton-network/core-tx-visualizer (hashPreparedTransaction)
// computes, and the onboarding of alice with an Ed25519 key, whose hashes
// it computes too (computeSha256CantonHash, computeMultiHashForTopology).

const (
	vecPkgID    = "9bf0ce026d24003c3c9708efcbd0768f6265a3fc43cfcaadc3d9e2997588fe2d"
	vecCID      = "00953039a7775f3654fdc52cf8d8ccabd4b1d84ac8112808ee714a0b2734ed3ba1"
	vecFP       = "1220680fc736bff3dc912d30af7dd7b515bc753799b6b1d218b23b35912f6b83389a"
	vecAlice    = "alice::" + vecFP
	vecSync     = "da::12205b3d950499d3c6c3439ef3d65e913440ab4367c089556bcc6dd290c49c94d727::35-0"
	vecUUID     = "c0ffee00-0000-4000-8000-000000000001"
	vecPrepTime = 1767225600000000
	vecPartic   = "participant1::1220818c4b7db5a055feb8ee6ac1ad0ab13487c18166a047ff3aa23f1ef3559acb59"

	vecPTHex = "0ab2040a03322e311201301a83040a0130c23efc030af9030a03322e3112423030393533303339613737373566333635346664633532636638643863636162643462316438346163383131323830386565373134613062323733346564336261311a0464656d6f224f0a403962663063653032366432343030336333633937303865666362643037363866363236356133666334336366636161646333643965323939373538386665326412044d61696e1a0541737365742abc0172b9010a4f0a403962663063653032366432343030336333633937303865666362643037363866363236356133666334336366636161646333643965323939373538386665326412044d61696e1a05417373657412560a056f776e6572124d3a4b616c6963653a3a3132323036383066633733366266663364633931326433306166376464376235313562633735333739396236623164323138623233623335393132663662383333383961120e0a046e616d6512064204676f6c64324b616c6963653a3a31323230363830666337333662666633646339313264333061663764643762353135626337353337393962366231643231386232336233353931326636623833333839613a4b616c6963653a3a313232303638306663373336626666336463393132643330616637646437623531356263373533373939623662316432313862323362333539313266366238333338396122221220111111111111111111111111111111111111111111111111111111111111111112d50112540a4b616c6963653a3a31323230363830666337333662666633646339313264333061663764643762353135626337353337393962366231643231386232336233353931326636623833333839611205636d642d311a4e64613a3a31323230356233643935303439396433633663333433396566336436356539313334343061623433363763303839353536626363366464323930633439633934643732373a3a33352d302a2463306666656530302d303030302d343030302d383030302d30303030303030303030303130808081b184e99103"

	vecNodeEnc = "0100000003322e31000111111111111111111111111111111111111111111111111111111111111111110000002100953039a7775f3654fdc52cf8d8ccabd4b1d84ac8112808ee714a0b2734ed3ba10000000464656d6f000000403962663063653032366432343030336333633937303865666362643037363866363236356133666334336366636161646333643965323939373538386665326400000001000000044d61696e000000010000000541737365740c01000000403962663063653032366432343030336333633937303865666362643037363866363236356133666334336366636161646333643965323939373538386665326400000001000000044d61696e000000010000000541737365740000000201000000056f776e6572060000004b616c6963653a3a313232303638306663373336626666336463393132643330616637646437623531356263373533373939623662316432313862323362333539313266366238333338396101000000046e616d650700000004676f6c64000000010000004b616c6963653a3a3132323036383066633733366266663364633931326433306166376464376235313562633735333739396236623164323138623233623335393132663662383333383961000000010000004b616c6963653a3a3132323036383066633733366266663364633931326433306166376464376235313562633735333739396236623164323138623233623335393132663662383333383961"
	vecMDPre   = "0000003001000000010000004b616c6963653a3a313232303638306663373336626666336463393132643330616637646437623531356263373533373939623662316432313862323362333539313266366238333338396100000005636d642d310000002463306666656530302d303030302d343030302d383030302d303030303030303030303031000000000000004e64613a3a31323230356233643935303439396433633663333433396566336436356539313334343061623433363763303839353536626363366464323930633439633934643732373a3a33352d300000000647484620400000000000"

	vecSPKI = "302a300506032b65700321008a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c"
	vecUVM  = "0aee01080110011ae7014ae4010a4b616c6963653a3a313232303638306663373336626666336463393132643330616637646437623531356263373533373939623662316432313862323362333539313266366238333338396110011a560a527061727469636970616e74313a3a31323230383138633462376462356130353566656238656536616331616430616231333438376331383136366130343766663361613233663165663335353961636235391002323b0a3710041a2c302a300506032b65700321008a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c2a0301050430011001101e"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func vecKey() ed25519.PrivateKey { return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, 32)) }

// vecPrepared is the prepared transaction of the worked vector.
func vecPrepared() *PreparedTransaction {
	tmpl := Identifier{PackageID: vecPkgID, ModuleName: "Main", EntityName: "Asset"}
	return &PreparedTransaction{
		Transaction: Transaction{
			Version: "2.1",
			Roots:   []string{"0"},
			Nodes: []Node{{NodeID: "0", Create: &Create{
				LFVersion:   "2.1",
				ContractID:  vecCID,
				PackageName: "demo",
				TemplateID:  tmpl,
				Argument: value.Record{RecordID: tcon(tmpl), Fields: []value.RecordField{
					{Label: "owner", Value: value.Party(vecAlice)},
					{Label: "name", Value: value.Text("gold")},
				}},
				Signatories:  []string{vecAlice},
				Stakeholders: []string{vecAlice},
			}}},
			NodeSeeds: []NodeSeed{{NodeID: 0, Seed: bytes.Repeat([]byte{0x11}, 32)}},
		},
		Metadata: Metadata{
			SubmitterInfo:   SubmitterInfo{ActAs: []string{vecAlice}, CommandID: "cmd-1"},
			SynchronizerID:  vecSync,
			TransactionUUID: vecUUID,
			PreparationTime: vecPrepTime,
		},
	}
}

func TestPreparedTransactionVectorEncoding(t *testing.T) {
	got, err := EncodePreparedTransaction(vecPrepared())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 781 {
		t.Errorf("encoded length = %d, want 781", len(got))
	}
	if h := hex.EncodeToString(got); h != vecPTHex {
		t.Errorf("encoding differs:\n got %s\nwant %s", h, vecPTHex)
	}
	dec, err := DecodePreparedTransaction(unhex(t, vecPTHex))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(vecPrepared(), dec, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("decoded model differs (-want +got):\n%s", d)
	}
}

func TestPreparedTransactionVectorHashV2(t *testing.T) {
	pt := vecPrepared()
	h := &hasher{v: HashingSchemeVersionV2, nodes: map[string]*Node{"0": &pt.Transaction.Nodes[0]},
		seeds: map[string][]byte{"0": pt.Transaction.NodeSeeds[0].Seed}, visited: map[string]bool{}}
	w := newBuilder(nil)
	if err := h.encodeNode(w, &pt.Transaction.Nodes[0], true); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(w.b); got != vecNodeEnc {
		t.Errorf("encode_node(create):\n got %s\nwant %s", got, vecNodeEnc)
	}
	nodeHash := sha256.Sum256(w.b)
	if got := hex.EncodeToString(nodeHash[:]); got != "61b60b4a242db4b1d18c86154f68c9d899220bdf662f53705a2334efd56e171f" {
		t.Errorf("sha256(node) = %s", got)
	}
	txPre := "0000003000000003322e310000000161b60b4a242db4b1d18c86154f68c9d899220bdf662f53705a2334efd56e171f"
	txHash := sha256.Sum256(unhex(t, txPre))
	mdHash := sha256.Sum256(unhex(t, vecMDPre))

	res, err := HashDetailed(pt, HashingSchemeVersionV2, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, got, want string }{
		{"tx pre-image hash", hex.EncodeToString(txHash[:]), "fc29897bb07b61c1e86354d9b553ce7dc33ece0cbb5eb15b018cfa525c83e1b3"},
		{"tx_hash", hex.EncodeToString(res.TransactionHash), "fc29897bb07b61c1e86354d9b553ce7dc33ece0cbb5eb15b018cfa525c83e1b3"},
		{"md pre-image hash", hex.EncodeToString(mdHash[:]), "99053bfe17dfc94cccafc3c243dabaff9e03bd5d9dfbf204350c41721d005cdd"},
		{"metadata_hash", hex.EncodeToString(res.MetadataHash), "99053bfe17dfc94cccafc3c243dabaff9e03bd5d9dfbf204350c41721d005cdd"},
		{"final", hex.EncodeToString(res.Hash), "b3a5199cc96b5b1c31c9b51f89479175a4fde8b41d453c83a7d74126c3bf1aec"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
		}
	}
	// The trace's top-level encoding is the final pre-image, and it shows
	// every hashed item.
	for _, want := range []string{
		"'00000030' # Hash Purpose\n'02' # 02 (Hashing Scheme Version)\n",
		"\n    '01' # 01 (Node Encoding Version)\n    # Create Node\n",
		"' # " + vecAlice + " (string)\n",
		"'fc29897bb07b61c1e86354d9b553ce7dc33ece0cbb5eb15b018cfa525c83e1b3' # Transaction\n",
		"'99053bfe17dfc94cccafc3c243dabaff9e03bd5d9dfbf204350c41721d005cdd' # Metadata\n",
	} {
		if !strings.Contains(res.Details, want) {
			t.Errorf("details lack %q:\n%s", want, res.Details)
		}
	}
	// Deterministic Ed25519 signature by alice's key over the 32-byte hash.
	sig := ed25519.Sign(vecKey(), res.Hash)
	if got := hex.EncodeToString(sig); got != "eb8808e1d5f8fc1b21ae97f87d2eb34613f114842b623f194dceb8e1f940bba3f8e9101adcace2209d20d0a8dd41a3394518bb353516619c028db37a3100480a" {
		t.Errorf("signature = %s", got)
	}
}

func TestPreparedTransactionVectorHashV3(t *testing.T) {
	res, err := HashDetailed(vecPrepared(), HashingSchemeVersionV3, false)
	if err != nil {
		t.Fatal(err)
	}
	pt := vecPrepared()
	h := &hasher{v: HashingSchemeVersionV3, nodes: map[string]*Node{"0": &pt.Transaction.Nodes[0]},
		seeds: map[string][]byte{"0": pt.Transaction.NodeSeeds[0].Seed}, visited: map[string]bool{}}
	node, err := h.nodeHash("0", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		got            []byte
		prefix, suffix string
	}{
		{"node", node, "4e10fdf6", "7734ea"},
		{"tx", res.TransactionHash, "1e47d579", "32dc24"},
		{"metadata", res.MetadataHash, "63d9d6d4", "d97a5a"},
		{"final", res.Hash, "873c505dcbb7583e4fe7c157c269d411de0b596ca38a117b3249243406c63a09", ""},
	} {
		s := hex.EncodeToString(c.got)
		if !strings.HasPrefix(s, c.prefix) || !strings.HasSuffix(s, c.suffix) {
			t.Errorf("%s hash = %s, want %s…%s", c.name, s, c.prefix, c.suffix)
		}
	}
}

// TestValueVectors checks the value encodings (Canton's
// LfValueHashBuilder).
func TestValueVectors(t *testing.T) {
	tests := []struct {
		name string
		v    value.Value
		want string
	}{
		{"unit", value.Unit{}, "00"},
		{"bool true", value.Bool(true), "0101"},
		{"int64 -2", value.Int64(-2), "02fffffffffffffffe"},
		{"numeric 1.5", value.Numeric("1.5"), "0300000003312e35"},
		{"timestamp", value.Timestamp(vecPrepTime), "040006474846204000"},
		{"date 20454", value.Date(20454), "0500004fe6"},
		{"party", value.Party("p"), "060000000170"},
		{"text", value.Text("t"), "070000000174"},
		{"contract id 00ab", value.ContractID("00ab"), "080000000200ab"},
		{"optional none", value.Optional{}, "0900"},
		{"optional some unit", value.Optional{Value: value.Unit{}}, "090100"},
		{"list", value.List{value.Text("a"), value.Bool(false)}, "0a0000000207000000016101" + "00"},
		{"text map", value.TextMap{{Key: "k", Value: value.Unit{}}}, "0b00000001000000016b00"},
		{"gen map", value.GenMap{{Key: value.Int64(1), Value: value.Unit{}}}, "0f0000000102000000000000000100"},
		{"variant", value.Variant{Constructor: "Some", Value: value.Unit{}}, "0d0000000004536f6d6500"},
		{"enum", value.Enum{Constructor: "Red"}, "0e0000000003526564"},
		{"record no id, one labelled field", value.Record{Fields: []value.RecordField{{Label: "a", Value: value.Unit{}}}}, "0c00" + "00000001" + "01" + "0000000161" + "00"},
		{"record empty label is None", value.Record{Fields: []value.RecordField{{Value: value.Unit{}}}}, "0c00000000010000"},
		{"negative zero numeric", value.Numeric("-0.00"), "0300000004302e3030"},
		{"text map sorted", value.TextMap{{Key: "b", Value: value.Unit{}}, {Key: "a", Value: value.Unit{}}}, "0b00000002" + "0000000161" + "00" + "0000000162" + "00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newBuilder(nil)
			if err := w.value(tc.v); err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(w.b); got != tc.want {
				t.Errorf("encoding = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestValueHashRejects(t *testing.T) {
	for _, v := range []value.Value{
		value.Numeric("1"), value.Numeric("01.5"), value.Numeric("1.5e3"), value.Numeric("+1.5"), value.Numeric("1." + strings.Repeat("0", 38)),
		value.ContractID(""), value.ContractID("0g"), value.ContractID("abc"), value.Party("bad party!"),
		value.TextMap{{Key: "a", Value: value.Unit{}}, {Key: "a", Value: value.Unit{}}},
		value.List{nil}, value.Record{Fields: []value.RecordField{{Label: "x"}}},
	} {
		if err := newBuilder(nil).value(v); err == nil {
			t.Errorf("value %#v hashed without error", v)
		}
	}
}

// TestOnboardingVector reproduces the onboarding vector of alice.
func TestOnboardingVector(t *testing.T) {
	priv := vecKey()
	raw := []byte(priv.Public().(ed25519.PublicKey))
	if got := hex.EncodeToString(raw); got != "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c" {
		t.Fatalf("raw public key = %s", got)
	}
	for _, in := range []SigningPublicKey{
		{Format: KeyFormatRaw, KeyData: raw, KeySpec: SigningKeySpecEcCurve25519},
		{Format: KeyFormatDERX509SubjectPublicKeyInfo, KeyData: unhex(t, vecSPKI), KeySpec: SigningKeySpecEcCurve25519},
	} {
		t.Run(in.Format.String(), func(t *testing.T) {
			res, err := GenerateTopology(GenerateTopologyRequest{PartyHint: "alice", PublicKey: in, ParticipantUID: vecPartic})
			if err != nil {
				t.Fatal(err)
			}
			if res.PublicKeyFingerprint != vecFP {
				t.Errorf("fingerprint = %s", res.PublicKeyFingerprint)
			}
			if res.PartyID != vecAlice {
				t.Errorf("party id = %s", res.PartyID)
			}
			if len(res.TopologyTransactions) != 1 {
				t.Fatalf("%d transactions", len(res.TopologyTransactions))
			}
			uvm := res.TopologyTransactions[0]
			if got := hex.EncodeToString(uvm); got != vecUVM || len(uvm) != 243 {
				t.Errorf("UVM (%d bytes) =\n %s\nwant\n %s", len(uvm), got, vecUVM)
			}
			var e pbEnc
			encodeSigningKey(&e, res.Transaction.Mapping.PartyToParticipant.PartySigningKeys.Keys[0])
			if got := hex.EncodeToString(e.B); got != "10041a2c"+vecSPKI+"2a030105043001" {
				t.Errorf("v30 SigningPublicKey = %s", got)
			}
			txHash := TopologyTransactionHash(uvm)
			if got := hex.EncodeToString(txHash); got != "1220e59ddf24ec305965f224c02444dd96563080750d05b8690da26a384e59f3e307" {
				t.Errorf("tx hash = %s", got)
			}
			if got := hex.EncodeToString(MultiHashPreimage([][]byte{txHash})); got != "00000001000000221220e59ddf24ec305965f224c02444dd96563080750d05b8690da26a384e59f3e307" {
				t.Errorf("multi pre-image = %s", got)
			}
			if got := hex.EncodeToString(res.MultiHash); got != "1220030ede769afa511bfa2617990e29d629b8fe720d116d97355ba61cb6a01aaaf5" {
				t.Errorf("multi hash = %s", got)
			}
			if got := hex.EncodeToString(ed25519.Sign(priv, res.MultiHash)); got != "93e5d28a6e49bb2a0f2746097e7be3ecaf02f40aa9be224f3f92eafdb152a3388036fcb77f3ae4249a39de518df70eea81e20ae34e62d31961d7897aa581e30f" {
				t.Errorf("signature over multi hash = %s", got)
			}
			if got := hex.EncodeToString(ed25519.Sign(priv, txHash)); got != "beb3c67cda1b72f631baecab0d6a643ba792c9c407d01ba3856b6a0c012b856c0ef77c4a82a80aec96820a7a6d6d1df3931f8886b5c40df01eae2d48f71d4607" {
				t.Errorf("signature over tx hash = %s", got)
			}
		})
	}
	// Hashing the SPKI instead of the raw key gives the wrong fingerprint
	// the notes warn about.
	if got := identity.Fingerprint(unhex(t, vecSPKI)); !strings.HasPrefix(got, "1220e74ba29f") || !strings.HasSuffix(got, "c6b2") {
		t.Errorf("SPKI-hash fingerprint = %s", got)
	}
	// The two-hash sort check.
	txHash := unhex(t, "1220e59ddf24ec305965f224c02444dd96563080750d05b8690da26a384e59f3e307")
	x := identity.CantonHash(identity.PurposeTopologyTransactionSignature, []byte("x"))
	if got := hex.EncodeToString(x); !strings.HasPrefix(got, "12205fdf") || !strings.HasSuffix(got, "033b") {
		t.Errorf("canton_hash(11, x) = %s", got)
	}
	for _, order := range [][][]byte{{txHash, x}, {x, txHash}} {
		pre := hex.EncodeToString(MultiHashPreimage(order))
		if want := "00000002" + "00000022" + hex.EncodeToString(x) + "00000022" + hex.EncodeToString(txHash); pre != want {
			t.Errorf("pre-image = %s, want %s", pre, want)
		}
		if got := hex.EncodeToString(MultiHash(order)); got != "12209ed39c7848c40b640e238a15305b573890c61255ea8b903f89046e56ac692fa3" {
			t.Errorf("two-hash multi = %s", got)
		}
	}
}

// TestEndToEndVector ties the two vectors together: the onboarding of
// alice, then the execute check of vecPrepared signed by her key.
func TestEndToEndVector(t *testing.T) {
	priv := vecKey()
	gen, err := GenerateTopology(GenerateTopologyRequest{PartyHint: "alice", ParticipantUID: vecPartic,
		PublicKey: SigningPublicKey{Format: KeyFormatRaw, KeyData: priv.Public().(ed25519.PublicKey), KeySpec: SigningKeySpecEcCurve25519}})
	if err != nil {
		t.Fatal(err)
	}
	party, err := VerifyOnboarding(OnboardingRequest{
		ParticipantUID:      vecPartic,
		Transactions:        []SignedTopologyTransaction{{Transaction: gen.TopologyTransactions[0]}},
		MultiHashSignatures: []Signature{edSig(priv, gen.MultiHash)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &OnboardedParty{
		PartyID: vecAlice, Namespace: vecFP, SigningKeys: gen.Transaction.Mapping.PartyToParticipant.PartySigningKeys.Keys,
		SigningThreshold: 1, Participants: []HostingParticipant{{ParticipantUID: vecPartic, Permission: ParticipantPermissionConfirmation}},
		ConfirmationThreshold: 1, Serial: 1, TransactionHashes: [][]byte{TopologyTransactionHash(gen.TopologyTransactions[0])}, MultiHash: gen.MultiHash,
	}
	if d := cmp.Diff(want, party); d != "" {
		t.Errorf("onboarded party (-want +got):\n%s", d)
	}
	keys := func(p string) (PartyKeys, bool) {
		if p != party.PartyID {
			return PartyKeys{}, false
		}
		return PartyKeys{Keys: party.SigningKeys, Threshold: party.SigningThreshold}, true
	}
	pt, err := DecodePreparedTransaction(unhex(t, vecPTHex))
	if err != nil {
		t.Fatal(err)
	}
	hash, err := Hash(pt, HashingSchemeVersionV2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifyExecute(ExecuteRequest{Prepared: pt, HashingScheme: HashingSchemeVersionV2, ProtocolVersion: 35,
		Synchronizer: "da::12205b3d950499d3c6c3439ef3d65e913440ab4367c089556bcc6dd290c49c94d727",
		Signatures:   []PartySignatures{{Party: vecAlice, Signatures: []Signature{edSig(priv, hash)}}}, PartyKeys: keys})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, hash) {
		t.Errorf("VerifyExecute hash = %x", got)
	}
}

func edSig(priv ed25519.PrivateKey, msg []byte) Signature {
	return Signature{
		Format:               SignatureFormatConcat,
		Signature:            ed25519.Sign(priv, msg),
		SignedBy:             identity.Fingerprint(priv.Public().(ed25519.PublicKey)),
		SigningAlgorithmSpec: SigningAlgorithmSpecEd25519,
	}
}
