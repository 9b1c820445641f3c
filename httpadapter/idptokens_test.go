package httpadapter

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// jwksServer serves a JSON Web Key Set that a test can change.
type jwksServer struct {
	*httptest.Server
	mu   sync.Mutex
	keys []map[string]string
}

func newJWKSServer(t *testing.T) *jwksServer {
	t.Helper()
	s := &jwksServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": s.keys})
	}))
	t.Cleanup(s.Close)
	return s
}

// serve replaces the served keys (public keys of *rsa.PrivateKey or
// *ecdsa.PrivateKey, by kid).
func (s *jwksServer) serve(t *testing.T, keys map[string]any) {
	t.Helper()
	var out []map[string]string
	b64 := base64.RawURLEncoding.EncodeToString
	for kid, k := range keys {
		switch k := k.(type) {
		case *rsa.PrivateKey:
			out = append(out, map[string]string{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
				"n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())})
		case *ecdsa.PrivateKey:
			pub, err := k.PublicKey.ECDH()
			if err != nil {
				t.Fatal(err)
			}
			pt := pub.Bytes() // 0x04 || X || Y
			out = append(out, map[string]string{"kty": "EC", "kid": kid, "use": "sig", "crv": "P-256",
				"x": b64(pt[1:33]), "y": b64(pt[33:])})
		default:
			t.Fatalf("unsupported key %T", k)
		}
	}
	s.mu.Lock()
	s.keys = out
	s.mu.Unlock()
}

// signJWT signs claims with key (RS256 for RSA, ES256 for EC) under kid.
func signJWT(t *testing.T, key any, kid string, claims jwt.MapClaims) string {
	t.Helper()
	var m jwt.SigningMethod
	switch key.(type) {
	case *rsa.PrivateKey:
		m = jwt.SigningMethodRS256
	case *ecdsa.PrivateKey:
		m = jwt.SigningMethodES256
	default:
		t.Fatalf("unsupported key %T", key)
	}
	tok := jwt.NewWithClaims(m, claims)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIdentityProviderTokens runs the real token path: the adapter's own
// HS256 verifier wrapped by the node's identity-provider-aware verifier,
// and an identity provider whose keys an httptest JWKS server serves.
func TestIdentityProviderTokens(t *testing.T) {
	t.Parallel()
	const secret, issuer, userID = "S", "https://idp1.example", "idpuser"
	node, err := ledger.Open(ledger.Options{InMemory: true, Logger: discardLogger(),
		// Every unknown kid refetches the set at once (key rotation
		// without waiting).
		JWKS: identity.JWKSOptions{MinRefreshInterval: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	own, err := identity.ParseAuthSpec("hs256:"+secret, identity.VerifyOptions{ParticipantID: node.ParticipantIDString()})
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	h := &harness{t: t, node: node, h: New(node, Options{Verifier: own, Logger: discardLogger()}), logs: logs}

	mint := func(user string) map[string]string {
		t.Helper()
		tok, err := identity.MintHS256([]byte(secret), user, time.Hour, nil)
		if err != nil {
			t.Fatal(err)
		}
		return bearer(tok)
	}
	admin := mint(identity.DefaultParticipantAdmin)

	rsa1, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ec1, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys := newJWKSServer(t)
	keys.serve(t, map[string]any{"rsa1": rsa1, "ec1": ec1})

	decodeAs[jsonapi.IdentityProviderConfigResponse](t, h.do(httpCall{method: "POST", target: "/v2/idps", header: admin,
		body: js(t, jsonapi.IdentityProviderConfigRequest{IdentityProviderConfig: identity.IdentityProviderConfig{
			IdentityProviderID: "idp1", Issuer: issuer, JWKSURL: keys.URL}})}))
	reader := h.allocate("reader", admin).Party
	decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "POST", target: "/v2/users", header: admin,
		body: js(t, jsonapi.CreateUserRequest{User: identity.User{ID: userID, IdentityProviderID: "idp1"}, Rights: []identity.Right{canReadAs(reader)}})}))

	idpToken := func(key any, kid string, extra jwt.MapClaims) map[string]string {
		t.Helper()
		c := jwt.MapClaims{"sub": userID, "iss": issuer, "scope": "daml_ledger_api", "exp": time.Now().Add(time.Hour).Unix()}
		for k, v := range extra {
			c[k] = v
		}
		return bearer(signJWT(t, key, kid, c))
	}
	whoami := func(header map[string]string) *httptest.ResponseRecorder {
		t.Helper()
		return h.do(httpCall{method: "GET", target: "/v2/authenticated-user", header: header})
	}
	wantUser := func(header map[string]string, idp string) {
		t.Helper()
		got := decodeAs[jsonapi.UserResponse](t, whoami(header))
		want := identity.User{ID: userID, IdentityProviderID: idp, Metadata: identity.ObjectMeta{ResourceVersion: got.User.Metadata.ResourceVersion, Annotations: map[string]string{}}}
		if diff := cmp.Diff(jsonapi.UserResponse{User: want}, got); diff != "" {
			t.Errorf("authenticated user (-want +got):\n%s", diff)
		}
	}
	wantRejected := func(header map[string]string, status int) {
		t.Helper()
		e := wantCantonError(t, whoami(header), status, "NA")
		if grpc := map[int]int{401: 16, 403: 7}[status]; e.GRPCCodeValue == nil || *e.GRPCCodeValue != grpc {
			t.Errorf("grpc code %v, want %d", e.GRPCCodeValue, grpc)
		}
	}
	patchIDP := func(c identity.IdentityProviderConfig, paths ...string) {
		t.Helper()
		c.IdentityProviderID = "idp1"
		decodeAs[jsonapi.IdentityProviderConfigResponse](t, h.do(httpCall{method: "PATCH", target: "/v2/idps/idp1", header: admin,
			body: js(t, jsonapi.UpdateIdentityProviderConfigRequest{IdentityProviderConfig: c, UpdateMask: jsonapi.FieldMask{Paths: paths}})}))
	}

	t.Run("RSA and EC keys", func(t *testing.T) {
		wantUser(idpToken(rsa1, "rsa1", nil), "idp1")
		wantUser(idpToken(ec1, "ec1", nil), "idp1")
		// The user reads itself and its rights with the provider's token.
		tok := idpToken(ec1, "ec1", nil)
		got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/" + userID + "?identity-provider-id=idp1", header: tok}))
		if got.User.ID != userID {
			t.Errorf("GET own user: %+v", got.User)
		}
		// A provider's user is not an admin.
		wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/users", header: tok}), 403, "NA")
		// The same user through the node's own key is not in the default
		// provider.
		wantRejected(mint(userID), 403)
	})

	t.Run("a provider's user reads itself without naming the provider", func(t *testing.T) {
		// Canton's authorizer fills an empty identityProviderId with the
		// caller's provider, and GET /v2/users/{id}/rights always sends ""
		// (Canton's JsUserManagementService). ledger.GetUser and ledger.ListUserRights
		// (requireSelfOrIDPAdmin) compare "" with the caller's provider
		// instead and answer 403.
		tok := idpToken(ec1, "ec1", nil)
		if got := decodeAs[jsonapi.UserResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/" + userID, header: tok})); got.User.ID != userID {
			t.Errorf("GET own user: %+v", got.User)
		}
		rights := decodeAs[jsonapi.ListUserRightsResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/" + userID + "/rights", header: tok}))
		if diff := cmp.Diff([]identity.Right{canReadAs(reader)}, rights.Rights); diff != "" {
			t.Errorf("own rights (-want +got):\n%s", diff)
		}
	})

	t.Run("unknown key", func(t *testing.T) {
		stranger, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		wantRejected(idpToken(stranger, "stranger", nil), 401)
		wantRejected(idpToken(stranger, "rsa1", nil), 401) // known kid, wrong key
		wantRejected(idpToken(ec1, "rsa1", nil), 401)      // EC signature under the RSA kid
		// Another issuer falls to the node's own verifier, which rejects it.
		wantRejected(idpToken(rsa1, "rsa1", jwt.MapClaims{"iss": "https://elsewhere.example"}), 401)
	})

	t.Run("key rotation", func(t *testing.T) {
		rsa2, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		keys.serve(t, map[string]any{"rsa2": rsa2, "ec1": ec1})
		wantUser(idpToken(rsa2, "rsa2", nil), "idp1")
		// The retired key is gone once the set was refetched.
		wantRejected(idpToken(rsa1, "rsa1", nil), 401)
		wantUser(idpToken(ec1, "ec1", nil), "idp1")
	})

	t.Run("audience", func(t *testing.T) {
		const aud = "https://ledger.example/aud"
		patchIDP(identity.IdentityProviderConfig{Audience: aud}, "audience")
		wantRejected(idpToken(ec1, "ec1", nil), 401)
		wantRejected(idpToken(ec1, "ec1", jwt.MapClaims{"aud": "https://other.example"}), 401)
		wantUser(idpToken(ec1, "ec1", jwt.MapClaims{"aud": aud}), "idp1")
		wantUser(idpToken(ec1, "ec1", jwt.MapClaims{"aud": []string{"https://other.example", aud}}), "idp1")
		patchIDP(identity.IdentityProviderConfig{}, "audience")
		wantUser(idpToken(ec1, "ec1", nil), "idp1")
	})

	t.Run("deactivation", func(t *testing.T) {
		patchIDP(identity.IdentityProviderConfig{IsDeactivated: true}, "is_deactivated")
		wantRejected(idpToken(ec1, "ec1", nil), 401)
		// Still an admin of the node through its own key.
		decodeAs[jsonapi.IdentityProviderConfigResponse](t, h.do(httpCall{method: "GET", target: "/v2/idps/idp1", header: admin}))
		patchIDP(identity.IdentityProviderConfig{IsDeactivated: false}, "is_deactivated")
		wantUser(idpToken(ec1, "ec1", nil), "idp1")
	})

	t.Run("move to the default provider", func(t *testing.T) {
		decodeAs[jsonapi.Empty](t, h.do(httpCall{method: "PATCH", target: "/v2/users/" + userID + "/identity-provider-id", header: admin,
			body: js(t, jsonapi.UpdateUserIdentityProviderRequest{UserID: userID, SourceIdentityProviderID: "idp1", TargetIdentityProviderID: ""})}))
		wantRejected(idpToken(ec1, "ec1", nil), 403)
		e := decodeCantonError(t, whoami(idpToken(ec1, "ec1", nil)))
		if diff := cmp.Diff(map[string]string{"ledger_api_error": "invalid token"}, e.Context); diff != "" {
			t.Errorf("403 context (-want +got):\n%s", diff)
		}
		hs := mint(userID)
		wantUser(hs, "")
		rights := decodeAs[jsonapi.ListUserRightsResponse](t, h.do(httpCall{method: "GET", target: "/v2/users/" + userID + "/rights", header: hs}))
		if diff := cmp.Diff([]identity.Right{canReadAs(reader)}, rights.Rights); diff != "" {
			t.Errorf("own rights after the move (-want +got):\n%s", diff)
		}
		// The provider has no users left and can be deleted.
		decodeAs[jsonapi.Empty](t, h.do(httpCall{method: "DELETE", target: "/v2/idps/idp1", header: admin}))
		wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/idps/idp1", header: admin}), 404, apierr.IDPConfigNotFound.Name)
	})
}
