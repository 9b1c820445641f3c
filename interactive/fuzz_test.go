package interactive

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func FuzzDecodePreparedTransaction(f *testing.F) {
	f.Add(unhex(f, vecPTHex))
	f.Add(mustEncode(f, richPrepared(false, false)))
	f.Add(mustEncode(f, richPrepared(true, true)))
	f.Add([]byte{})
	f.Add([]byte{0x0a, 0x00, 0x12, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		pt, err := DecodePreparedTransaction(b)
		if err != nil {
			return
		}
		for _, v := range []HashingSchemeVersion{HashingSchemeVersionV2, HashingSchemeVersionV3} {
			r1, err1 := HashDetailed(pt, v, true)
			r2, err2 := HashDetailed(pt, v, false)
			if (err1 == nil) != (err2 == nil) || err1 == nil && string(r1.Hash) != string(r2.Hash) {
				t.Fatalf("verbose and plain hashing disagree: %v / %v", err1, err2)
			}
		}
		enc, err := EncodePreparedTransaction(pt)
		if err != nil {
			t.Fatalf("re-encoding a decoded transaction: %v", err)
		}
		pt2, err := DecodePreparedTransaction(enc)
		if err != nil {
			t.Fatalf("decoding the re-encoding: %v", err)
		}
		if d := cmp.Diff(pt, pt2, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("decode(encode(decode(b))) differs:\n%s", d)
		}
	})
}

func FuzzDecodeTopologyTransaction(f *testing.F) {
	f.Add(unhex(f, vecUVM))
	for _, m := range []TopologyMapping{
		{NamespaceDelegation: &NamespaceDelegation{Namespace: "ns", TargetKey: SigningKey{Format: KeyFormatRaw, PublicKey: []byte{1}, Usage: []SigningKeyUsage{1, 4}}, Restriction: 6, Mappings: []int32{9}}},
		{PartyToKeyMapping: &PartyToKeyMapping{Party: "p::ns", Threshold: 1, SigningKeys: []SigningKey{{Format: KeyFormatDER}}}},
		{Code: 8, Raw: []byte{0x0a, 0x00}},
	} {
		b, err := EncodeTopologyTransaction(&TopologyTransaction{Operation: 1, Serial: 2, Mapping: m})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := DecodeTopologyTransaction(b)
		if err != nil {
			return
		}
		if p := tx.Mapping.PartyToParticipant; p != nil {
			// Exercise the checks on arbitrary content.
			_, _ = VerifyOnboarding(OnboardingRequest{ParticipantUID: tP1, Transactions: []SignedTopologyTransaction{{Transaction: b}}})
			for _, k := range allKeys(tx) {
				_, _ = k.Fingerprint()
			}
		}
		enc, err := EncodeTopologyTransaction(tx)
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		tx2, err := DecodeTopologyTransaction(enc)
		if err != nil {
			t.Fatalf("decoding the re-encoding: %v", err)
		}
		if d := cmp.Diff(tx, tx2, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("decode(encode(decode(b))) differs:\n%s", d)
		}
	})
}

func allKeys(tx *TopologyTransaction) []SigningKey {
	var ks []SigningKey
	if p := tx.Mapping.PartyToParticipant; p != nil && p.PartySigningKeys != nil {
		ks = append(ks, p.PartySigningKeys.Keys...)
	}
	if d := tx.Mapping.NamespaceDelegation; d != nil {
		ks = append(ks, d.TargetKey)
	}
	if p := tx.Mapping.PartyToKeyMapping; p != nil {
		ks = append(ks, p.SigningKeys...)
	}
	return ks
}
