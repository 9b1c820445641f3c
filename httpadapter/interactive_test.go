package httpadapter

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// testSigner signs as an external party's key.
type testSigner struct {
	publicKey map[string]any
	fp        string
	sign      func(msg []byte) map[string]any
}

func newEd25519Signer(t testing.TB) *testSigner {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s := &testSigner{publicKey: map[string]any{"format": "CRYPTO_KEY_FORMAT_RAW", "keyData": base64.StdEncoding.EncodeToString(pub),
		"keySpec": "SIGNING_KEY_SPEC_EC_CURVE25519"}}
	s.sign = func(msg []byte) map[string]any {
		return map[string]any{"format": "SIGNATURE_FORMAT_CONCAT", "signature": base64.StdEncoding.EncodeToString(ed25519.Sign(priv, msg)),
			"signedBy": s.fp, "signingAlgorithmSpec": "SIGNING_ALGORITHM_SPEC_ED25519"}
	}
	return s
}

func newP256Signer(t testing.TB) *testSigner {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	s := &testSigner{publicKey: map[string]any{"format": "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO",
		"keyData": base64.StdEncoding.EncodeToString(der), "keySpec": "SIGNING_KEY_SPEC_EC_P256"}}
	s.sign = func(msg []byte) map[string]any {
		d := sha256.Sum256(msg)
		sig, err := ecdsa.SignASN1(rand.Reader, priv, d[:])
		if err != nil {
			t.Fatal(err)
		}
		return map[string]any{"format": "SIGNATURE_FORMAT_DER", "signature": base64.StdEncoding.EncodeToString(sig),
			"signedBy": s.fp, "signingAlgorithmSpec": "SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256"}
	}
	return s
}

// onboardExternal onboards hint over HTTP with s and returns the party.
func (h *harness) onboardExternal(t *testing.T, hint string, s *testSigner, auth map[string]string) string {
	t.Helper()
	sync := h.node.Synchronizers()[0]
	g := decodeAs[jsonapi.GenerateExternalPartyTopologyResponse](t, h.do(httpCall{method: "POST", target: "/v2/parties/external/generate-topology",
		body: js(t, map[string]any{"synchronizer": sync, "partyHint": hint, "publicKey": s.publicKey}), header: auth}))
	s.fp = g.PublicKeyFingerprint
	txs := []map[string]any{}
	for _, tx := range g.TopologyTransactions {
		txs = append(txs, map[string]any{"transaction": base64.StdEncoding.EncodeToString(tx), "signatures": []any{}})
	}
	body := map[string]any{"synchronizer": sync, "onboardingTransactions": txs, "multiHashSignatures": []any{s.sign(g.MultiHash)},
		"userId": "participant_admin"}
	resp := decodeAs[jsonapi.AllocateExternalPartyResponse](t, h.do(httpCall{method: "POST", target: "/v2/parties/external/allocate",
		body: js(t, body), header: auth}))
	if resp.PartyID != g.PartyID {
		t.Fatalf("allocated %s, generated %s", resp.PartyID, g.PartyID)
	}
	return resp.PartyID
}

func TestExternalPartyOverHTTP(t *testing.T) {
	t.Parallel()
	for name, newSigner := range map[string]func(testing.TB) *testSigner{"ed25519": newEd25519Signer, "p256": newP256Signer} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Options{Verifier: testVerifier})
			auth := bearer("admin-token")
			s := newSigner(t)
			sync := h.node.Synchronizers()[0]
			g := decodeAs[jsonapi.GenerateExternalPartyTopologyResponse](t, h.do(httpCall{method: "POST", target: "/v2/parties/external/generate-topology",
				body: js(t, map[string]any{"synchronizer": sync, "partyHint": "ext", "publicKey": s.publicKey}), header: auth}))
			s.fp = g.PublicKeyFingerprint
			tx := base64.StdEncoding.EncodeToString(g.TopologyTransactions[0])
			before := h.state()

			// A signature over something else is refused.
			body := map[string]any{"synchronizer": sync, "onboardingTransactions": []any{map[string]any{"transaction": tx}},
				"multiHashSignatures": []any{s.sign([]byte("not the multi-hash"))}}
			rec := h.do(httpCall{method: "POST", target: "/v2/parties/external/allocate", body: js(t, body), header: auth})
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("bad signature: %d %s", rec.Code, rec.Body)
			}
			decodeCantonError(t, rec)
			if after := h.state(); after.End != before.End || len(after.Parties.PartyDetails) != len(before.Parties.PartyDetails) {
				t.Fatalf("state changed after a rejection")
			}

			body["multiHashSignatures"] = []any{s.sign(g.MultiHash)}
			resp := decodeAs[jsonapi.AllocateExternalPartyResponse](t, h.do(httpCall{method: "POST", target: "/v2/parties/external/allocate",
				body: js(t, body), header: auth}))
			if resp.PartyID != g.PartyID {
				t.Fatalf("party %s, want %s", resp.PartyID, g.PartyID)
			}
			rec = h.do(httpCall{method: "POST", target: "/v2/parties/external/allocate", body: js(t, body), header: auth})
			if e := decodeCantonError(t, rec); rec.Code != http.StatusConflict || e.Code != "EXTERNAL_PARTY_ALREADY_EXISTS" {
				t.Fatalf("duplicate: %d %s", rec.Code, rec.Body)
			}
			// Without a token.
			rec = h.do(httpCall{method: "POST", target: "/v2/parties/external/generate-topology",
				body: js(t, map[string]any{"synchronizer": sync, "partyHint": "ext2", "publicKey": s.publicKey})})
			if rec.Code != http.StatusUnauthorized {
				t.Fatalf("no token: %d", rec.Code)
			}
		})
	}
}

func TestInteractiveSubmissionOverHTTP(t *testing.T) {
	t.Parallel()
	auth := bearer("admin-token")
	f := newLedgerFixture(t, ledger.Options{}, Options{Verifier: testVerifier}, auth)
	s := newEd25519Signer(t)
	ext := f.onboardExternal(t, "ext", s, auth)

	prepare := func(cmdID string, extra map[string]any, cmds ...jsonapi.JsCommand) jsonapi.JsPrepareSubmissionResponse {
		t.Helper()
		body := map[string]any{"commandId": cmdID, "actAs": []string{ext}, "commands": cmds}
		for k, v := range extra {
			body[k] = v
		}
		return decodeAs[jsonapi.JsPrepareSubmissionResponse](t, f.post("/v2/interactive-submission/prepare", body))
	}
	execBody := func(p jsonapi.JsPrepareSubmissionResponse, submission string) map[string]any {
		return map[string]any{
			"preparedTransaction":  base64.StdEncoding.EncodeToString(p.PreparedTransaction),
			"partySignatures":      map[string]any{"signatures": []any{map[string]any{"party": ext, "signatures": []any{s.sign(p.PreparedTransactionHash)}}}},
			"submissionId":         submission,
			"hashingSchemeVersion": p.HashingSchemeVersion,
			"deduplicationPeriod":  map[string]any{"Empty": map[string]any{}},
		}
	}

	// Create, V2 with the verbose trace.
	p := prepare("create-1", map[string]any{"verboseHashing": true}, createIou(f.iou(), ext, 10))
	if p.HashingSchemeVersion != "HASHING_SCHEME_VERSION_V2" || p.HashingDetails == nil {
		t.Fatalf("prepare: %+v", p)
	}
	before := f.end()
	// A bad signature (over another hash) is FAILED_TO_EXECUTE_TRANSACTION.
	bad := execBody(p, "s0")
	bad["partySignatures"] = map[string]any{"signatures": []any{map[string]any{"party": ext, "signatures": []any{s.sign(make([]byte, 32))}}}}
	rec := f.post("/v2/interactive-submission/executeAndWait", bad)
	if e := decodeCantonError(t, rec); rec.Code != http.StatusBadRequest || e.Code != "FAILED_TO_EXECUTE_TRANSACTION" {
		t.Fatalf("bad signature: %d %s", rec.Code, rec.Body)
	}
	if f.end() != before {
		t.Fatal("a rejected execute moved the ledger end")
	}
	// A one-of holding two variants is a decode failure, as for a submission.
	for _, tc := range []struct{ field, want string }{
		{"deduplicationPeriod", "Invalid value for: body (a one-of holds 2 variants, expected one at 'deduplicationPeriod')"},
		{"minLedgerTime", "Invalid value for: body (a one-of holds 2 variants, expected one at 'minLedgerTime.time')"},
	} {
		two := execBody(p, "s0")
		if tc.field == "deduplicationPeriod" {
			two["deduplicationPeriod"] = map[string]any{"Empty": map[string]any{}, "DeduplicationOffset": map[string]any{"value": 0}}
		} else {
			two["minLedgerTime"] = map[string]any{"time": map[string]any{"Empty": map[string]any{}, "MinLedgerTimeRel": map[string]any{"value": map[string]any{"seconds": 0}}}}
		}
		wantText(t, f.post("/v2/interactive-submission/executeAndWait", two), http.StatusBadRequest, tc.want)
		if f.end() != before {
			t.Fatalf("an execute with two %s variants moved the ledger end", tc.field)
		}
	}
	r := decodeAs[jsonapi.ExecuteSubmissionAndWaitResponse](t, f.post("/v2/interactive-submission/executeAndWait", execBody(p, "s1")))
	if r.CompletionOffset != before+1 {
		t.Fatalf("offset %d, want %d", r.CompletionOffset, before+1)
	}
	u := decodeAs[jsonapi.GetUpdateResponse](t, f.post("/v2/updates/update-by-id", jsonapi.GetUpdateByIDRequest{UpdateID: r.UpdateID,
		UpdateFormat: &jsonapi.UpdateFormat{IncludeTransactions: txFormat(ext, jsonapi.ShapeACSDelta)}}))
	if u.Update.Transaction == nil || len(u.Update.Transaction.Value.Events) != 1 || u.Update.Transaction.Value.Events[0].CreatedEvent == nil {
		t.Fatalf("update: %+v", u)
	}
	cid := u.Update.Transaction.Value.Events[0].CreatedEvent.ContractID

	// Transfer to bob, V3, executeAndWaitForTransaction.
	p2 := prepare("transfer-1", map[string]any{"hashingSchemeVersion": "HASHING_SCHEME_VERSION_V3"},
		exerciseIou(f.iou(), cid, "Transfer", transferTo(f.bob)))
	body := execBody(p2, "s2")
	body["transactionFormat"] = txFormat(ext, jsonapi.ShapeLedgerEffects)
	tx := decodeAs[jsonapi.ExecuteSubmissionAndWaitForTransactionResponse](t, f.post("/v2/interactive-submission/executeAndWaitForTransaction", body))
	if evs := tx.Transaction.Events; len(evs) != 1 || evs[0].ExercisedEvent == nil || evs[0].ExercisedEvent.ContractID != cid {
		t.Fatalf("transfer: %+v", tx.Transaction)
	}

	// execute answers {}.
	p3 := prepare("create-2", nil, createIou(f.iou(), ext, 3))
	wantEmptyObject(t, f.post("/v2/interactive-submission/execute", execBody(p3, "s3")))
	if f.end() != before+3 {
		t.Fatalf("ledger end %d, want %d", f.end(), before+3)
	}
}

func TestPreferredPackages(t *testing.T) {
	t.Parallel()
	f := newAuthFixture(t)
	d2, ids2 := lftest.DAR(lftest.IouPackage("2.0.0"))
	wantEmptyObject(t, f.do(darCall("/v2/dars", d2, f.admin)))
	f.auth = f.admin
	sync := f.node.Synchronizers()[0]
	v2 := jsonapi.PackageReference{PackageID: ids2[0], PackageName: "iou", PackageVersion: "2.0.0"}

	// The newest vetted version, for any authenticated caller.
	rec := f.postAs(f.none, "/v2/interactive-submission/preferred-packages", jsonapi.GetPreferredPackagesRequest{
		PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{f.alice, f.bob}, PackageName: "iou"}}})
	got := decodeAs[jsonapi.GetPreferredPackagesResponse](t, rec)
	if diff := cmp.Diff(jsonapi.GetPreferredPackagesResponse{PackageReferences: []jsonapi.PackageReference{v2}, SynchronizerID: sync}, got); diff != "" {
		t.Errorf("preferred packages (-want +got):\n%s", diff)
	}
	q := url.Values{"parties": {f.alice}, "package-name": {"iou"}, "synchronizer-id": {sync}, "vetting_valid_at": {"2030-01-01T00:00:00Z"}}
	rec = f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?" + q.Encode(), header: f.none})
	pref := decodeAs[jsonapi.GetPreferredPackageVersionResponse](t, rec)
	if diff := cmp.Diff(&jsonapi.PackagePreference{PackageReference: v2, SynchronizerID: sync}, pref.PackagePreference); diff != "" {
		t.Errorf("preferred package version (-want +got):\n%s", diff)
	}

	// Once 2.0.0 is vetted only from 2030-06-01, the preference now is
	// 1.0.0, and 2.0.0 for a vettingValidAt past that date.
	from := "2030-06-01T00:00:00Z"
	vet := f.post("/v2/package-vetting/update", jsonapi.UpdateVettedPackagesRequest{Changes: []jsonapi.VettedPackagesChange{{
		Operation: jsonapi.VettingOperation{Vet: &jsonapi.Wrapped[jsonapi.VetOperation]{Value: jsonapi.VetOperation{
			Packages: []jsonapi.VettedPackagesRef{{PackageID: ids2[0]}}, NewValidFromInclusive: &from}}}}}})
	if vet.Code != http.StatusOK {
		t.Fatalf("vetting 2.0.0 from %s: %d %s", from, vet.Code, vet.Body)
	}
	v1 := jsonapi.PackageReference{PackageID: f.pkg, PackageName: "iou", PackageVersion: "1.0.0"}
	for _, tc := range []struct {
		at   string
		want jsonapi.PackageReference
	}{{"", v1}, {"2030-05-31T23:59:59Z", v1}, {from, v2}, {"2031-01-01T00:00:00.5Z", v2}} {
		got = decodeAs[jsonapi.GetPreferredPackagesResponse](t, f.postAs(f.none, "/v2/interactive-submission/preferred-packages", jsonapi.GetPreferredPackagesRequest{
			PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "iou"}}, SynchronizerID: sync, VettingValidAt: tc.at}))
		if diff := cmp.Diff([]jsonapi.PackageReference{tc.want}, got.PackageReferences); diff != "" {
			t.Errorf("preference at %q (-want +got):\n%s", tc.at, diff)
		}
	}

	// No package for the name: an error for POST, no preference for GET.
	rec = f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?package-name=nope&parties=" + url.QueryEscape(f.alice), header: f.none})
	if pref := decodeAs[jsonapi.GetPreferredPackageVersionResponse](t, rec); pref.PackagePreference != nil {
		t.Errorf("preference of an unknown name: %s", rec.Body)
	}
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"unknown package name", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "nope"}}}, 400, "PACKAGE_SELECTION_FAILED"},
		{"party not hosted", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{"carol::1220" + strings.Repeat("cd", 32)}, PackageName: "iou"}}}, 400, "PACKAGE_SELECTION_FAILED"},
		{"synchronizer not connected", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "iou"}}, SynchronizerID: "other::1220ab"}, 400, "PACKAGE_SELECTION_FAILED"},
		{"no requirements", jsonapi.GetPreferredPackagesRequest{}, 400, "MISSING_FIELD"},
		{"no parties", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{PackageName: "iou"}}}, 400, "MISSING_FIELD"},
		{"no package name", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{f.alice}}}}, 400, "MISSING_FIELD"},
		{"malformed party", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{"a!b"}, PackageName: "iou"}}}, 400, "INVALID_ARGUMENT"}, // Canton: requireParty names no field
		{"malformed time", jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "iou"}}, VettingValidAt: "yesterday"}, 400, "INVALID_FIELD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.postAs(f.none, "/v2/interactive-submission/preferred-packages", tc.body), tc.status, tc.code)
		})
	}
	wantText(t, f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?parties=" + f.alice, header: f.none}), 400,
		"Invalid value for: query parameter package-name (missing)")
	wantText(t, f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?package-name=iou&vetting_valid_at=soon", header: f.none}), 400,
		"Invalid value for: query parameter vetting_valid_at")
	wantCantonError(t, f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?package-name=iou"}), 401, "NA")
}
