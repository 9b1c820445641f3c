package interactive

import (
	"bytes"
	"crypto/elliptic"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
)

const (
	tP1 = "participant1::1220818c4b7db5a055feb8ee6ac1ad0ab13487c18166a047ff3aa23f1ef3559acb59"
	tP2 = "participant2::12200000000000000000000000000000000000000000000000000000000000000022"
	tP3 = "participant3::12200000000000000000000000000000000000000000000000000000000000000033"
)

func encodeTx(t testing.TB, m TopologyMapping) []byte {
	t.Helper()
	b, err := EncodeTopologyTransaction(&TopologyTransaction{Operation: TopologyOperationAddReplace, Serial: 1, Mapping: m})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func p2pMapping(party string, threshold uint32, hosts []HostingParticipant, keys *SigningKeysWithThreshold) TopologyMapping {
	return TopologyMapping{PartyToParticipant: &PartyToParticipant{Party: party, Threshold: threshold, Participants: hosts, PartySigningKeys: keys}}
}

func confirming(uids ...string) []HostingParticipant {
	var hs []HostingParticipant
	for _, u := range uids {
		hs = append(hs, HostingParticipant{ParticipantUID: u, Permission: ParticipantPermissionConfirmation})
	}
	return hs
}

func TestGenerateTopology(t *testing.T) {
	ed := newEdKey(t, 1)
	p256 := newECKey(t, elliptic.P256(), KeyFormatDER)
	tests := []struct {
		name      string
		req       GenerateTopologyRequest
		wantHosts []HostingParticipant
		wantThr   uint32
		wantErr   string
	}{
		{"single", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1}, confirming(tP1), 1, ""},
		{"p256", GenerateTopologyRequest{PartyHint: "alice", PublicKey: p256.pub, ParticipantUID: tP1}, confirming(tP1), 1, ""},
		{"multi", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1, OtherConfirmingParticipantUIDs: []string{tP2}, ObservingParticipantUIDs: []string{tP3}},
			append(confirming(tP1, tP2), HostingParticipant{ParticipantUID: tP3, Permission: ParticipantPermissionObservation}), 2, ""},
		{"threshold 1 of 2", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1, OtherConfirmingParticipantUIDs: []string{tP2}, ConfirmationThreshold: 1},
			confirming(tP1, tP2), 1, ""},
		{"local observer", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1, LocalParticipantObservationOnly: true, OtherConfirmingParticipantUIDs: []string{tP2}},
			[]HostingParticipant{{ParticipantUID: tP1, Permission: ParticipantPermissionObservation}, {ParticipantUID: tP2, Permission: ParticipantPermissionConfirmation}}, 1, ""},
		{"no confirmer", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1, LocalParticipantObservationOnly: true}, nil, 0, "at least one confirming"},
		{"threshold too high", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1, ConfirmationThreshold: 2}, nil, 0, "higher than"},
		{"duplicate host", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: tP1, ObservingParticipantUIDs: []string{tP1}}, nil, 0, "more than once"},
		{"bad hint", GenerateTopologyRequest{PartyHint: "a::b", PublicKey: ed.pub, ParticipantUID: tP1}, nil, 0, "party hint"},
		{"long hint", GenerateTopologyRequest{PartyHint: strings.Repeat("a", 186), PublicKey: ed.pub, ParticipantUID: tP1}, nil, 0, "party hint"},
		{"bad key", GenerateTopologyRequest{PartyHint: "alice", PublicKey: SigningPublicKey{Format: KeyFormatRaw, KeyData: []byte{1}, KeySpec: SigningKeySpecEcCurve25519}, ParticipantUID: tP1}, nil, 0, "public key"},
		{"bad participant", GenerateTopologyRequest{PartyHint: "alice", PublicKey: ed.pub, ParticipantUID: "p1"}, nil, 0, "participant uid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := GenerateTopology(tc.req)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, apierr.InvalidArgument) {
					t.Fatalf("err = %v, want INVALID_ARGUMENT with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			dec, err := DecodeTopologyTransaction(res.TopologyTransactions[0])
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(res.Transaction, dec); d != "" {
				t.Errorf("decode(encode) (-want +got):\n%s", d)
			}
			p := dec.Mapping.PartyToParticipant
			if d := cmp.Diff(tc.wantHosts, p.Participants); d != "" || p.Threshold != tc.wantThr {
				t.Errorf("threshold %d, hosts (-want +got):\n%s", p.Threshold, d)
			}
			if got := MultiHash([][]byte{TopologyTransactionHash(res.TopologyTransactions[0])}); !bytes.Equal(got, res.MultiHash) {
				t.Error("multi hash mismatch")
			}
		})
	}
}

func TestTopologyCodec(t *testing.T) {
	ed := newEdKey(t, 1)
	prot := newEdKey(t, 2, SigningKeyUsageProtocol, SigningKeyUsageProofOfOwnership)
	for name, m := range map[string]TopologyMapping{
		"nsd all":      {Code: 1, NamespaceDelegation: &NamespaceDelegation{Namespace: ed.fp, TargetKey: ed.key, Restriction: 4}},
		"nsd specific": {Code: 1, NamespaceDelegation: &NamespaceDelegation{Namespace: ed.fp, TargetKey: ed.key, IsRootDelegation: true, Restriction: 6, Mappings: []int32{9, 16}}},
		"p2k":          {Code: 16, PartyToKeyMapping: &PartyToKeyMapping{Party: "a::" + ed.fp, Threshold: 2, SigningKeys: []SigningKey{ed.key, prot.key}}},
		"p2p":          {Code: 9, PartyToParticipant: &PartyToParticipant{Party: "a::" + ed.fp, Threshold: 1, Participants: []HostingParticipant{{ParticipantUID: tP1, Permission: 2, Onboarding: true}}}},
		"other":        {Code: 8, Raw: []byte{0x0a, 0x01, 0x78}},
	} {
		t.Run(name, func(t *testing.T) {
			tx := &TopologyTransaction{Operation: TopologyOperationRemove, Serial: 7, Mapping: m}
			b, err := EncodeTopologyTransaction(tx)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeTopologyTransaction(b)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tx, got); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
		})
	}
	for name, b := range map[string][]byte{
		"empty":       nil,
		"version 31":  {0x0a, 0x00, 0x10, 0x1f},
		"no mapping":  {0x0a, 0x02, 0x08, 0x01, 0x10, 0x1e},
		"empty oneof": {0x0a, 0x02, 0x1a, 0x00, 0x10, 0x1e},
		"truncated":   unhex(t, vecUVM)[:100],
		"bad format":  {0x0a, 0x0a, 0x1a, 0x08, 0x4a, 0x06, 0x32, 0x04, 0x0a, 0x02, 0x10, 0x07, 0x10, 0x1e},
	} {
		if _, err := DecodeTopologyTransaction(b); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

type onboardCase struct {
	txs   []SignedTopologyTransaction
	multi []Signature
}

// singleKeyOnboarding is the standard onboarding of a party with one key,
// signed over the multi-hash.
func singleKeyOnboarding(t testing.TB, k testKey) onboardCase {
	gen, err := GenerateTopology(GenerateTopologyRequest{PartyHint: "alice", PublicKey: k.pub, ParticipantUID: tP1})
	if err != nil {
		t.Fatal(err)
	}
	return onboardCase{
		txs:   []SignedTopologyTransaction{{Transaction: gen.TopologyTransactions[0]}},
		multi: []Signature{k.sign(gen.MultiHash)},
	}
}

func multiOf(txs ...[]byte) []byte {
	var hs [][]byte
	for _, b := range txs {
		hs = append(hs, TopologyTransactionHash(b))
	}
	return MultiHash(hs)
}

func TestVerifyOnboarding(t *testing.T) {
	ed := newEdKey(t, 1)
	p256 := newECKey(t, elliptic.P256(), KeyFormatDER)
	p384 := newECKey(t, elliptic.P384(), KeyFormatDERX509SubjectPublicKeyInfo)
	other := newEdKey(t, 9)
	prot := newEdKey(t, 5, SigningKeyUsageProtocol, SigningKeyUsageProofOfOwnership)
	party := "alice::" + ed.fp

	tests := []struct {
		name        string
		build       func() onboardCase
		wantCode    error
		wantErr     string
		wantPending []string
		wantKeys    int
		wantThr     int
	}{
		{name: "ed25519 multi-hash signature", build: func() onboardCase { return singleKeyOnboarding(t, ed) }, wantKeys: 1, wantThr: 1},
		{name: "p256", build: func() onboardCase { return singleKeyOnboarding(t, p256) }, wantKeys: 1, wantThr: 1},
		{name: "p384", build: func() onboardCase { return singleKeyOnboarding(t, p384) }, wantKeys: 1, wantThr: 1},
		{name: "own transaction signature", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.txs[0].Signatures = []Signature{ed.sign(TopologyTransactionHash(c.txs[0].Transaction))}
			c.multi = nil
			return c
		}, wantKeys: 1, wantThr: 1},
		{name: "raw signature format", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi[0].Format = SignatureFormatRaw
			return c
		}, wantKeys: 1, wantThr: 1},
		{name: "no signature", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi = nil
			return c
		}, wantCode: apierr.TopologyUnauthorizedTransaction, wantErr: "missing authorizations by namespaces=" + ed.fp},
		{name: "bad signature", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi[0].Signature[0] ^= 1
			return c
		}, wantCode: apierr.TopologyInvalidTxSignature},
		{name: "tx hash signed as multi-hash", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi = []Signature{ed.sign(TopologyTransactionHash(c.txs[0].Transaction))}
			return c
		}, wantCode: apierr.TopologyInvalidTxSignature},
		{name: "raw 32-byte digest signed", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi = []Signature{ed.sign(multiOf(c.txs[0].Transaction)[2:])}
			return c
		}, wantCode: apierr.TopologyInvalidTxSignature},
		{name: "unknown signer", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi = append(c.multi, other.sign(multiOf(c.txs[0].Transaction)))
			return c
		}, wantCode: apierr.TopologyUnauthorizedTransaction, wantErr: other.fp},
		{name: "unspecified format", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi[0].Format = 0
			return c
		}, wantCode: apierr.InvalidArgument, wantErr: "format must be set"},
		{name: "der for ed25519", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.multi[0].Format = SignatureFormatDER
			return c
		}, wantCode: apierr.InvalidArgument, wantErr: "not supported"},
		{name: "multi-hosted", build: func() onboardCase {
			b := encodeTx(t, p2pMapping(party, 1, confirming(tP2, tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantKeys: 1, wantThr: 1, wantPending: []string{tP2}},
		{name: "single observing host", build: func() onboardCase {
			b := encodeTx(t, p2pMapping(party, 1, []HostingParticipant{{ParticipantUID: tP1, Permission: ParticipantPermissionObservation}}, &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.InvalidArgument, wantErr: "at least one confirming"},
		{name: "submission permission", build: func() onboardCase {
			hs := append(confirming(tP1), HostingParticipant{ParticipantUID: tP2, Permission: ParticipantPermissionSubmission})
			b := encodeTx(t, p2pMapping(party, 1, hs, &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.InvalidArgument, wantErr: "SUBMISSION"},
		{name: "not hosted here", build: func() onboardCase {
			b := encodeTx(t, p2pMapping(party, 1, confirming(tP2), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.InvalidArgument, wantErr: "must host the party"},
		{name: "signing threshold too high", build: func() onboardCase {
			b := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 2}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.TopologySigningThresholdCannotBeReached},
		{name: "two keys, both sign", build: func() onboardCase {
			b := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key, prot.key}, Threshold: 2}))
			m := multiOf(b)
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(m), prot.sign(m)}}
		}, wantKeys: 2, wantThr: 2},
		{name: "two keys, no proof of ownership", build: func() onboardCase {
			b := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key, prot.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.TopologyUnauthorizedTransaction, wantErr: prot.fp},
		{name: "key without protocol usage", build: func() onboardCase {
			ns := newEdKey(t, 1, SigningKeyUsageNamespace, SigningKeyUsageProofOfOwnership)
			b := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ns.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ns.sign(multiOf(b))}}
		}, wantCode: apierr.InvalidArgument, wantErr: "usage SIGNING_KEY_USAGE_PROTOCOL"},
		{name: "root delegation plus protocol key", build: func() onboardCase {
			ns := newEdKey(t, 1, SigningKeyUsageNamespace)
			nsd := encodeTx(t, TopologyMapping{NamespaceDelegation: &NamespaceDelegation{Namespace: ns.fp, TargetKey: ns.key, Restriction: 4}})
			p2p := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{prot.key}, Threshold: 1}))
			m := multiOf(nsd, p2p)
			return onboardCase{
				txs:   []SignedTopologyTransaction{{Transaction: nsd}, {Transaction: p2p, Signatures: []Signature{prot.sign(TopologyTransactionHash(p2p))}}},
				multi: []Signature{ns.sign(m)},
			}
		}, wantKeys: 1, wantThr: 1},
		{name: "non-root delegation", build: func() onboardCase {
			nsd := encodeTx(t, TopologyMapping{NamespaceDelegation: &NamespaceDelegation{Namespace: ed.fp, TargetKey: prot.key, Restriction: 4}})
			p2p := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{prot.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: nsd}, {Transaction: p2p}}}
		}, wantCode: apierr.InvalidArgument, wantErr: "root certificate"},
		{name: "legacy party to key mapping", build: func() onboardCase {
			p2k := encodeTx(t, TopologyMapping{PartyToKeyMapping: &PartyToKeyMapping{Party: party, Threshold: 1, SigningKeys: []SigningKey{ed.key}}})
			p2p := encodeTx(t, p2pMapping(party, 1, confirming(tP1), nil))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: p2p}, {Transaction: p2k}}, multi: []Signature{ed.sign(multiOf(p2p, p2k))}}
		}, wantKeys: 1, wantThr: 1},
		{name: "keys in both places", build: func() onboardCase {
			p2k := encodeTx(t, TopologyMapping{PartyToKeyMapping: &PartyToKeyMapping{Party: party, Threshold: 1, SigningKeys: []SigningKey{ed.key}}})
			p2p := encodeTx(t, p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: p2p}, {Transaction: p2k}}, multi: []Signature{ed.sign(multiOf(p2p, p2k))}}
		}, wantCode: apierr.InvalidArgument, wantErr: "not both"},
		{name: "no keys", build: func() onboardCase {
			p2p := encodeTx(t, p2pMapping(party, 1, confirming(tP1), nil))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: p2p}}}
		}, wantCode: apierr.InvalidArgument, wantErr: "no signing keys"},
		{name: "unsupported mapping", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.txs = append(c.txs, SignedTopologyTransaction{Transaction: encodeTx(t, TopologyMapping{Code: 8, Raw: []byte{}})})
			return c
		}, wantCode: apierr.InvalidArgument, wantErr: "Unsupported transactions found"},
		{name: "two party to participant", build: func() onboardCase {
			c := singleKeyOnboarding(t, ed)
			c.txs = append(c.txs, c.txs[0])
			return c
		}, wantCode: apierr.InvalidArgument, wantErr: "only one PartyToParticipant"},
		{name: "namespace key unknown", build: func() onboardCase {
			b := encodeTx(t, p2pMapping("alice::"+other.fp, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1}))
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.TopologyUnauthorizedTransaction, wantErr: "missing namespace delegations"},
		{name: "remove operation", build: func() onboardCase {
			b, _ := EncodeTopologyTransaction(&TopologyTransaction{Operation: TopologyOperationRemove, Serial: 1,
				Mapping: p2pMapping(party, 1, confirming(tP1), &SigningKeysWithThreshold{Keys: []SigningKey{ed.key}, Threshold: 1})})
			return onboardCase{txs: []SignedTopologyTransaction{{Transaction: b}}, multi: []Signature{ed.sign(multiOf(b))}}
		}, wantCode: apierr.InvalidArgument, wantErr: "operation must be"},
		{name: "none", build: func() onboardCase { return onboardCase{} }, wantCode: apierr.InvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.build()
			got, err := VerifyOnboarding(OnboardingRequest{ParticipantUID: tP1, Transactions: c.txs, MultiHashSignatures: c.multi})
			if tc.wantCode != nil {
				if err == nil || !errors.Is(err, tc.wantCode) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %v containing %q", err, tc.wantCode, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got.SigningKeys) != tc.wantKeys || got.SigningThreshold != tc.wantThr {
				t.Errorf("keys %d threshold %d, want %d %d", len(got.SigningKeys), got.SigningThreshold, tc.wantKeys, tc.wantThr)
			}
			if d := cmp.Diff(tc.wantPending, got.PendingParticipants); d != "" {
				t.Errorf("pending (-want +got):\n%s", d)
			}
		})
	}
}

// TestOnboardingTamper: changing any byte of a signed onboarding
// transaction makes verification fail.
func TestOnboardingTamper(t *testing.T) {
	for _, k := range []testKey{newEdKey(t, 1), newECKey(t, elliptic.P256(), KeyFormatDER)} {
		c := singleKeyOnboarding(t, k)
		if _, err := VerifyOnboarding(OnboardingRequest{ParticipantUID: tP1, Transactions: c.txs, MultiHashSignatures: c.multi}); err != nil {
			t.Fatal(err)
		}
		orig := c.txs[0].Transaction
		for i := range orig {
			for _, flip := range []byte{0x01, 0x80} {
				b := bytes.Clone(orig)
				b[i] ^= flip
				_, err := VerifyOnboarding(OnboardingRequest{ParticipantUID: tP1,
					Transactions: []SignedTopologyTransaction{{Transaction: b}}, MultiHashSignatures: c.multi})
				if err == nil {
					t.Errorf("byte %d ^ %02x accepted", i, flip)
				}
			}
		}
		for i := range c.multi[0].Signature {
			s := c.multi[0]
			s.Signature = bytes.Clone(s.Signature)
			s.Signature[i] ^= 0x01
			if _, err := VerifyOnboarding(OnboardingRequest{ParticipantUID: tP1, Transactions: c.txs, MultiHashSignatures: []Signature{s}}); err == nil {
				t.Errorf("signature byte %d tampered but accepted", i)
			}
		}
	}
}
