package grpcadapter_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/grpcadapter"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/admin"
	"github.com/ledgernode/ledgernode/interactive"
)

// TestExternalParty: an external party is onboarded over gRPC: the
// participant generates its topology for an Ed25519 key, the client signs
// the multi-hash, and the allocation hosts the party; a signature by
// another key is refused with the Node's code and allocates nothing.
func TestExternalParty(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, grpcadapter.Options{})
	ctx := as(e.admin)
	c := admin.NewPartyManagementServiceClient(e.conn)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	sync := e.node.Synchronizers()[0]
	g, err := c.GenerateExternalPartyTopology(ctx, &admin.GenerateExternalPartyTopologyRequest{
		Synchronizer: sync,
		PartyHint:    "ext",
		PublicKey: &ledgerv2.SigningPublicKey{Format: ledgerv2.CryptoKeyFormat_CRYPTO_KEY_FORMAT_RAW, KeyData: pub,
			KeySpec: ledgerv2.SigningKeySpec_SIGNING_KEY_SPEC_EC_CURVE25519},
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.PartyId == "" || len(g.TopologyTransactions) == 0 || len(g.MultiHash) == 0 || g.PublicKeyFingerprint == "" {
		t.Fatalf("generated %v", g)
	}
	req := func(key ed25519.PrivateKey) *admin.AllocateExternalPartyRequest {
		r := &admin.AllocateExternalPartyRequest{Synchronizer: sync, MultiHashSignatures: []*ledgerv2.Signature{{
			Format: ledgerv2.SignatureFormat_SIGNATURE_FORMAT_CONCAT, Signature: ed25519.Sign(key, g.MultiHash), SignedBy: g.PublicKeyFingerprint,
			SigningAlgorithmSpec: ledgerv2.SigningAlgorithmSpec_SIGNING_ALGORITHM_SPEC_ED25519,
		}}}
		for _, tx := range g.TopologyTransactions {
			r.OnboardingTransactions = append(r.OnboardingTransactions, &admin.AllocateExternalPartyRequest_SignedTransaction{Transaction: tx})
		}
		return r
	}
	_, err = c.AllocateExternalParty(ctx, req(otherPriv))
	nodeReq := interactive.PartyAllocationRequest{Synchronizer: sync, MultiHashSignatures: []interactive.Signature{{
		Format: interactive.SignatureFormatConcat, Signature: ed25519.Sign(otherPriv, g.MultiHash), SignedBy: g.PublicKeyFingerprint,
		SigningAlgorithmSpec: interactive.SigningAlgorithmSpecEd25519,
	}}}
	for _, tx := range g.TopologyTransactions {
		nodeReq.OnboardingTransactions = append(nodeReq.OnboardingTransactions, interactive.SignedTopologyTransaction{Transaction: tx})
	}
	_, nodeErr := e.node.AllocateExternalParty(context.Background(), nodeReq)
	var ae *apierr.Error
	if !errors.As(nodeErr, &ae) {
		t.Fatalf("the Node accepts a wrong signature: %v", nodeErr)
	}
	// A security alert: redacted, with the category's code.
	wantCode(t, err, codes.Code(ae.GRPCCode()), "")
	if got, err := e.node.GetParties(context.Background(), []string{g.PartyId}, ""); err != nil || len(got) != 0 {
		t.Fatalf("a refused allocation hosts %s (or the Node cannot say): %v, %v", g.PartyId, got, err)
	}
	res, err := c.AllocateExternalParty(ctx, req(priv))
	if err != nil {
		t.Fatal(err)
	}
	if res.PartyId != g.PartyId {
		t.Errorf("allocated %s, generated %s", res.PartyId, g.PartyId)
	}
	if got, err := e.node.GetParties(context.Background(), []string{g.PartyId}, ""); err != nil || len(got) != 1 {
		t.Errorf("the Node does not host %s: %v, %v", g.PartyId, got, err)
	}
}
