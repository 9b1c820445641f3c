package interactive

import (
	"crypto/elliptic"
	"errors"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
)

func TestVerifyPartySignatures(t *testing.T) {
	pt := richPrepared(true, false)
	hash := mustHash(t, pt, HashingSchemeVersionV2)
	a1, a2 := newEdKey(t, 1), newECKey(t, elliptic.P256(), KeyFormatDER)
	b1 := newECKey(t, elliptic.P384(), KeyFormatDER)
	stranger := newEdKey(t, 7)
	keys := map[string]PartyKeys{
		tAlice: {Keys: []SigningKey{a1.key, a2.key}, Threshold: 2},
		tBob:   {Keys: []SigningKey{b1.key}, Threshold: 1},
	}
	lookup := func(p string) (PartyKeys, bool) { k, ok := keys[p]; return k, ok }
	sigs := func(p string, ks ...testKey) PartySignatures {
		ps := PartySignatures{Party: p}
		for _, k := range ks {
			ps.Signatures = append(ps.Signatures, k.sign(hash))
		}
		return ps
	}
	tests := []struct {
		name    string
		actAs   []string
		sigs    []PartySignatures
		pv      int
		wantErr string
	}{
		{"ok", []string{tAlice, tBob}, []PartySignatures{sigs(tAlice, a1, a2), sigs(tBob, b1)}, 35, ""},
		{"split entries merge", []string{tAlice}, []PartySignatures{sigs(tAlice, a1), sigs(tAlice, a2)}, 35, ""},
		{"extra party ignored", []string{tBob}, []PartySignatures{sigs(tBob, b1), sigs(tCarol, stranger)}, 35, ""},
		{"missing party", []string{tAlice, tBob}, []PartySignatures{sigs(tAlice, a1, a2)}, 35, "did not provide an external signature: " + tBob},
		{"below threshold", []string{tAlice}, []PartySignatures{sigs(tAlice, a1)}, 35, "Received 1 valid signatures from distinct keys (0 invalid), but expected at least 2 valid for " + tAlice},
		{"same key twice", []string{tAlice}, []PartySignatures{sigs(tAlice, a1, a1)}, 35, "Received 1 valid signatures from distinct keys (0 invalid), but expected at least 2"},
		{"unknown key", []string{tBob}, []PartySignatures{sigs(tBob, stranger)}, 35, "Received 0 valid signatures from distinct keys (1 invalid)"},
		{"too many signatures", []string{tBob}, []PartySignatures{sigs(tBob, b1, stranger)}, 35, "2 external signatures were provided, which is more than the 1"},
		{"too many allowed on pv34", []string{tBob}, []PartySignatures{sigs(tBob, b1, stranger)}, 34, ""},
		{"no keys", []string{tCarol}, []PartySignatures{sigs(tCarol, stranger)}, 35, "Could not find party signing keys for " + tCarol},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyPartySignatures(hash, tc.actAs, tc.sigs, lookup, tc.pv)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, apierr.FailedToExecuteTransaction) {
				t.Fatalf("err = %v, want FAILED_TO_EXECUTE_TRANSACTION with %q", err, tc.wantErr)
			}
			var e *apierr.Error
			if errors.As(err, &e) && !strings.HasPrefix(e.Cause, "The participant failed to execute the transaction: ") {
				t.Errorf("cause = %q", e.Cause)
			}
		})
	}
}

func TestVerifyExecute(t *testing.T) {
	alice := newEdKey(t, 1)
	bob := newEdKey(t, 2)
	lookup := func(p string) (PartyKeys, bool) {
		switch p {
		case tAlice:
			return PartyKeys{Keys: []SigningKey{alice.key}, Threshold: 1}, true
		case tBob:
			return PartyKeys{Keys: []SigningKey{bob.key}, Threshold: 1}, true
		}
		return PartyKeys{}, false
	}
	const logical = "da::12205b3d950499d3c6c3439ef3d65e913440ab4367c089556bcc6dd290c49c94d727"
	req := func(v HashingSchemeVersion, mutate func(*PreparedTransaction)) ExecuteRequest {
		pt := richPrepared(true, false)
		h := mustHash(t, pt, v)
		if mutate != nil {
			mutate(pt)
		}
		return ExecuteRequest{Prepared: pt, HashingScheme: v, ProtocolVersion: 35, Synchronizer: logical, PartyKeys: lookup,
			Signatures: []PartySignatures{{Party: tAlice, Signatures: []Signature{alice.sign(h)}}, {Party: tBob, Signatures: []Signature{bob.sign(h)}}}}
	}
	tests := []struct {
		name    string
		r       ExecuteRequest
		wantErr string
	}{
		{"v2", req(HashingSchemeVersionV2, nil), ""},
		{"v3", req(HashingSchemeVersionV3, nil), ""},
		{"v3 on pv34", func() ExecuteRequest {
			r := req(HashingSchemeVersionV3, nil)
			r.ProtocolVersion = 34
			r.Synchronizer = ""
			return r
		}(), "not supported on protocol version 34"},
		{"tampered", req(HashingSchemeVersionV2, func(pt *PreparedTransaction) { pt.Metadata.SubmitterInfo.CommandID = "x" }), "Received 0 valid signatures from distinct keys (1 invalid)"},
		{"logical id on pv35", req(HashingSchemeVersionV2, func(pt *PreparedTransaction) { pt.Metadata.SynchronizerID = logical }), "Please use a Physical Synchronizer ID"},
		{"wrong pv in id", req(HashingSchemeVersionV2, func(pt *PreparedTransaction) { pt.Metadata.SynchronizerID = logical + "::34-0" }), "Please use a Physical Synchronizer ID"},
		{"unhashable", req(HashingSchemeVersionV2, func(pt *PreparedTransaction) { pt.Transaction.NodeSeeds = nil }), "Failed to compute the transaction hash: missing node seed"},
		{"missing", ExecuteRequest{HashingScheme: HashingSchemeVersionV2, ProtocolVersion: 35}, "missing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyExecute(tc.r)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, apierr.FailedToExecuteTransaction) {
				t.Fatalf("err = %v, want FAILED_TO_EXECUTE_TRANSACTION with %q", err, tc.wantErr)
			}
		})
	}
}

func TestPhysicalSynchronizerID(t *testing.T) {
	const logical = "da::12205b3d950499d3c6c3439ef3d65e913440ab4367c089556bcc6dd290c49c94d727"
	id := PhysicalSynchronizerID(logical, 35, 0)
	if id != logical+"::35-0" {
		t.Fatalf("id = %s", id)
	}
	l, pv, serial, err := ParsePhysicalSynchronizerID(id)
	if err != nil || l != logical || pv != 35 || serial != 0 {
		t.Errorf("parse = %s %d %d %v", l, pv, serial, err)
	}
	for _, bad := range []string{logical, logical + "::35", logical + "::35-x", logical + "::035-0", "::35-0", "da::35-0x"} {
		if _, _, _, err := ParsePhysicalSynchronizerID(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if err := CheckMetadataSynchronizer(logical, logical, 34); err != nil {
		t.Errorf("pv34 logical: %v", err)
	}
	if err := CheckMetadataSynchronizer(id, logical, 34); err == nil {
		t.Error("pv34 accepted a physical id")
	}
}
