package ledger_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// extKey is an external party's key in a test.
type extKey struct {
	pub  interactive.SigningPublicKey
	sign func(msg []byte) jsonapi.Signature
	fp   string
}

func ed25519Key(t testing.TB) *extKey {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := &extKey{pub: interactive.SigningPublicKey{Format: interactive.KeyFormatRaw, KeyData: pub, KeySpec: interactive.SigningKeySpecEcCurve25519}}
	k.sign = func(msg []byte) jsonapi.Signature {
		return jsonapi.Signature{Format: "SIGNATURE_FORMAT_CONCAT", Signature: ed25519.Sign(priv, msg), SignedBy: k.fp,
			SigningAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519"}
	}
	return k
}

func p256Key(t testing.TB) *extKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	k := &extKey{pub: interactive.SigningPublicKey{Format: interactive.KeyFormatDERX509SubjectPublicKeyInfo, KeyData: der, KeySpec: interactive.SigningKeySpecEcP256}}
	k.sign = func(msg []byte) jsonapi.Signature {
		d := sha256.Sum256(msg)
		sig, err := ecdsa.SignASN1(rand.Reader, priv, d[:])
		if err != nil {
			t.Fatal(err)
		}
		return jsonapi.Signature{Format: "SIGNATURE_FORMAT_DER", Signature: sig, SignedBy: k.fp,
			SigningAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256"}
	}
	return k
}

// onboard generates and signs the onboarding transactions of hint with k.
func onboard(t testing.TB, ctx context.Context, n *ledger.Node, hint string, k *extKey) (*interactive.GenerateTopologyResult, interactive.PartyAllocationRequest) {
	t.Helper()
	g, err := n.GenerateExternalPartyTopology(ctx, interactive.PartyTopologyRequest{
		Synchronizer: n.Synchronizers()[0], PartyHint: hint, PublicKey: &k.pub})
	if err != nil {
		t.Fatalf("GenerateExternalPartyTopology: %v", err)
	}
	k.fp = g.PublicKeyFingerprint
	req := interactive.PartyAllocationRequest{Synchronizer: n.Synchronizers()[0],
		MultiHashSignatures: []interactive.Signature{typedSignature(t, k.sign(g.MultiHash))}}
	for _, tx := range g.TopologyTransactions {
		req.OnboardingTransactions = append(req.OnboardingTransactions, interactive.SignedTopologyTransaction{Transaction: tx})
	}
	return g, req
}

func TestExternalPartyOnboarding(t *testing.T) {
	t.Parallel()
	for name, newKey := range map[string]func(testing.TB) *extKey{"ed25519": ed25519Key, "p256": p256Key} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := ledgertest.Open(t, ledger.Options{})
			ctx := context.Background()
			if _, err := n.CreateUser(ctx, identity.User{ID: "ext-user"}, nil); err != nil {
				t.Fatal(err)
			}
			k := newKey(t)
			g, req := onboard(t, ctx, n, "ext", k)
			if g.PartyID != "ext::"+g.PublicKeyFingerprint || len(g.TopologyTransactions) != 1 || len(g.MultiHash) != 34 {
				t.Fatalf("generate: %+v", g)
			}
			before, _ := n.LedgerEnd(ctx)

			// A bad signature is refused and changes nothing.
			bad := req
			sig := k.sign(g.MultiHash)
			sig.Signature = append([]byte(nil), sig.Signature...)
			sig.Signature[len(sig.Signature)-1] ^= 1
			bad.MultiHashSignatures = []interactive.Signature{typedSignature(t, sig)}
			if name == "p256" {
				other := p256Key(t)
				other.fp = k.fp
				bad.MultiHashSignatures = []interactive.Signature{typedSignature(t, other.sign(g.MultiHash))}
			}
			if _, err := n.AllocateExternalParty(ctx, bad); !errors.Is(err, apierr.TopologyInvalidTxSignature) {
				t.Fatalf("bad signature: %v", err)
			}
			// A signature without signedBy: Canton's INVALID_ARGUMENT.
			unsignedBy := req
			noSigner := typedSignature(t, k.sign(g.MultiHash))
			noSigner.SignedBy = ""
			unsignedBy.MultiHashSignatures = []interactive.Signature{noSigner}
			if _, err := n.AllocateExternalParty(ctx, unsignedBy); !errors.Is(err, apierr.InvalidArgument) {
				t.Fatalf("signature without signedBy: %v, want INVALID_ARGUMENT", err)
			}
			// No signature at all.
			unsigned := req
			unsigned.MultiHashSignatures = nil
			if _, err := n.AllocateExternalParty(ctx, unsigned); err == nil {
				t.Fatal("unsigned onboarding accepted")
			}
			if end, _ := n.LedgerEnd(ctx); end != before {
				t.Fatalf("ledger end moved after rejections: %v -> %v", before, end)
			}
			if got, _ := n.GetParties(ctx, []string{g.PartyID}, ""); len(got) != 0 {
				t.Fatalf("party registered after rejections: %+v", got)
			}

			req.UserID = "ext-user"
			party, err := n.AllocateExternalParty(ctx, req)
			if err != nil {
				t.Fatalf("AllocateExternalParty: %v", err)
			}
			if party != g.PartyID {
				t.Fatalf("party %s, want %s", party, g.PartyID)
			}
			end, _ := n.LedgerEnd(ctx)
			if end != before+1 {
				t.Fatalf("ledger end %d, want %d", end, before+1)
			}
			got, err := n.GetParties(ctx, []string{g.PartyID}, "")
			if err != nil || len(got) != 1 || !got[0].IsLocal {
				t.Fatalf("GetParties: %+v %v", got, err)
			}
			rights, err := n.ListUserRights(ctx, "ext-user", "")
			if err != nil || len(rights) != 1 {
				t.Fatalf("rights: %+v %v", rights, err)
			}
			u, _ := ledger.UpdateAtForTest(t, n, end).(*update.TopologyTransaction)
			if u == nil || len(u.Events) != 1 || u.Events[0].Change != update.AuthorizationAdded ||
				u.Events[0].Permission != update.PermissionConfirmation {
				t.Fatalf("topology update: %+v", u)
			}

			// Again: the party exists.
			if _, err := n.AllocateExternalParty(ctx, req); !errors.Is(err, apierr.ExternalPartyAlreadyExists) {
				t.Fatalf("second allocation: %v", err)
			}
			if end2, _ := n.LedgerEnd(ctx); end2 != end {
				t.Fatalf("ledger end moved after the duplicate")
			}
		})
	}
}

func TestExternalPartyAuthorization(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := ledger.WithPrincipal(context.Background(), identity.Principal{UserID: "u"})
	k := ed25519Key(t)
	_, err := n.GenerateExternalPartyTopology(ctx, interactive.PartyTopologyRequest{
		Synchronizer: n.Synchronizers()[0], PartyHint: "x", PublicKey: &k.pub})
	if !errors.Is(err, apierr.PermissionDenied) {
		t.Fatalf("generate as a plain user: %v", err)
	}
	_, req := onboard(t, context.Background(), n, "x", k)
	if _, err := n.AllocateExternalParty(ctx, req); !errors.Is(err, apierr.PermissionDenied) {
		t.Fatalf("allocate as a plain user: %v", err)
	}
	req.Synchronizer = "other::1220" + "00"
	if _, err := n.AllocateExternalParty(context.Background(), req); err == nil {
		t.Fatal("unknown synchronizer accepted")
	}
}
