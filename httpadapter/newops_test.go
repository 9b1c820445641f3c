package httpadapter

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
)

// Tests of the operations added for issue 13 item 6: latest pruned
// offsets, the deprecated transaction lookups, contract-by-id and the
// preferred packages. Every response is validated against the OpenAPI
// document by the harness.

// authFixture is a ledger fixture with four more users: reader
// (CanActAs and CanReadAs alice, the fixture's default caller), bobReader
// (CanReadAs bob), anyReader (CanReadAsAnyParty) and none (no rights).
type authFixture struct {
	*ledgerFixture
	admin, reader, bobReader, anyReader, none map[string]string
}

func newAuthFixture(t *testing.T) *authFixture {
	t.Helper()
	verifier := fakeVerifier{
		"admin-token":  {UserID: identity.DefaultParticipantAdmin},
		"reader-token": {UserID: "reader"},
		"any-token":    {UserID: "anyreader"},
		"none-token":   {UserID: "norights"},
		"bob-token":    {UserID: "bobreader"},
	}
	admin := bearer("admin-token")
	f := newLedgerFixture(t, ledger.Options{}, Options{Verifier: verifier}, admin)
	for _, u := range []ledger.CreateUserRequest{
		{User: identity.User{ID: "reader"}, Rights: []identity.Right{canReadAs(f.alice), canActAs(f.alice)}},
		{User: identity.User{ID: "anyreader"}, Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}},
		{User: identity.User{ID: "norights"}},
		{User: identity.User{ID: "bobreader"}, Rights: []identity.Right{canReadAs(f.bob)}},
	} {
		if _, err := f.node.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	f.auth = bearer("reader-token")
	return &authFixture{ledgerFixture: f, admin: admin, reader: f.auth, bobReader: bearer("bob-token"), anyReader: bearer("any-token"), none: bearer("none-token")}
}

func (f *authFixture) postAs(header map[string]string, target string, body any) *httptest.ResponseRecorder {
	f.t.Helper()
	s, ok := body.(string)
	if !ok {
		s = js(f.t, body)
	}
	return f.do(httpCall{method: "POST", target: target, body: s, header: header})
}

func TestLatestPrunedOffsets(t *testing.T) {
	f := newAuthFixture(t)
	f.create("c1", f.alice, 1)
	for _, header := range []map[string]string{f.admin, f.none} {
		rec := f.do(httpCall{method: "GET", target: "/v2/state/latest-pruned-offsets", header: header})
		got := decodeAs[ledger.GetLatestPrunedOffsetsResponse](t, rec)
		if diff := cmp.Diff(ledger.GetLatestPrunedOffsetsResponse{}, got); diff != "" {
			t.Errorf("pruned offsets (-want +got):\n%s", diff)
		}
		wantKeys(t, rec, []string{"allDivulgedContractsPrunedUpToInclusive", "participantPrunedUpToInclusive"})
	}
	wantCantonError(t, f.do(httpCall{method: "GET", target: "/v2/state/latest-pruned-offsets"}), 401, "NA")
}

func TestTransactionByIDAndOffset(t *testing.T) {
	f := newAuthFixture(t)
	c := f.create("c1", f.alice, 1)
	want := decodeAs[ledger.GetUpdateResponse](t, f.post("/v2/updates/update-by-offset", ledger.GetUpdateByOffsetRequest{Offset: c.Offset,
		UpdateFormat: ledger.UpdateFormat{IncludeTransactions: txFormat(f.alice, ledger.ShapeLedgerEffects)}})).Update.Transaction.Value
	id := want.UpdateID

	// The same transaction by id and by offset, with an explicit format or
	// with requesting parties (wildcard, verbose, ACS delta).
	for _, tc := range []struct {
		name, target string
		body         any
	}{
		{"by id, format", "/v2/updates/transaction-by-id", ledger.GetTransactionByIDRequest{UpdateID: id, TransactionFormat: txFormat(f.alice, ledger.ShapeLedgerEffects)}},
		{"by offset, format", "/v2/updates/transaction-by-offset", ledger.GetTransactionByOffsetRequest{Offset: c.Offset, TransactionFormat: txFormat(f.alice, ledger.ShapeLedgerEffects)}},
		{"by id, parties", "/v2/updates/transaction-by-id", ledger.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{f.alice}}},
		{"by offset, parties", "/v2/updates/transaction-by-offset", ledger.GetTransactionByOffsetRequest{Offset: c.Offset, RequestingParties: []string{f.alice}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.postAs(f.reader, tc.target, tc.body)
			got := decodeAs[ledger.GetTransactionResponse](t, rec)
			wantKeys(t, rec, []string{"transaction"})
			if diff := cmp.Diff(want, got.Transaction); diff != "" {
				t.Errorf("transaction (-update-by-offset +got):\n%s", diff)
			}
		})
	}

	before := f.state()
	unknown := "1220" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name, target string
		header       map[string]string
		body         any
		status       int
		code         string
	}{
		{"unknown id", "/v2/updates/transaction-by-id", f.reader, ledger.GetTransactionByIDRequest{UpdateID: unknown, RequestingParties: []string{f.alice}}, 404, "UPDATE_NOT_FOUND"},
		{"invisible to the party", "/v2/updates/transaction-by-offset", f.bobReader, ledger.GetTransactionByOffsetRequest{Offset: c.Offset, RequestingParties: []string{f.bob}}, 404, "UPDATE_NOT_FOUND"},
		{"a topology update", "/v2/updates/transaction-by-offset", f.reader, ledger.GetTransactionByOffsetRequest{Offset: 1, RequestingParties: []string{f.alice}}, 404, "UPDATE_NOT_FOUND"},
		{"offset 0", "/v2/updates/transaction-by-offset", f.reader, ledger.GetTransactionByOffsetRequest{RequestingParties: []string{f.alice}}, 400, "NON_POSITIVE_OFFSET"},
		{"both filters", "/v2/updates/transaction-by-id", f.reader, ledger.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{f.alice},
			TransactionFormat: txFormat(f.alice, ledger.ShapeACSDelta)}, 400, "INVALID_ARGUMENT"},
		{"no filter", "/v2/updates/transaction-by-offset", f.reader, ledger.GetTransactionByOffsetRequest{Offset: c.Offset}, 400, "INVALID_ARGUMENT"},
		{"no update id", "/v2/updates/transaction-by-id", f.reader, ledger.GetTransactionByIDRequest{RequestingParties: []string{f.alice}}, 400, "MISSING_FIELD"},
		{"another party's transaction", "/v2/updates/transaction-by-id", f.reader, ledger.GetTransactionByIDRequest{UpdateID: id, RequestingParties: []string{f.bob}}, 403, "NA"},
		{"no rights", "/v2/updates/transaction-by-offset", f.none, ledger.GetTransactionByOffsetRequest{Offset: c.Offset, RequestingParties: []string{f.alice}}, 403, "NA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.postAs(tc.header, tc.target, tc.body), tc.status, tc.code)
		})
	}
	wantText(t, f.post("/v2/updates/transaction-by-offset", `{"offset":"x"}`), 400, "Invalid value for: body (expected an integer (int64), got string at 'offset')")
	wantText(t, f.post("/v2/updates/transaction-by-id", fmt.Sprintf(`{"updateId":%q,"transactionFormat":{"eventFormat":{},"transactionShape":"TREE"}}`, id)), 400,
		`Invalid value for: body (unknown enum value "TREE"`)
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}

func TestContractByID(t *testing.T) {
	f := newAuthFixture(t)
	c := f.create("c1", f.alice, 1)

	wantEvent := c
	wantEvent.Offset, wantEvent.NodeID, wantEvent.ACSDelta = 0, 0, false
	wantEvent.CreatedEventBlob = ""
	check := func(t *testing.T, header map[string]string, req ledger.GetContractRequest) {
		t.Helper()
		rec := f.postAs(header, "/v2/contracts/contract-by-id", req)
		got := decodeAs[ledger.GetContractResponse](t, rec)
		wantKeys(t, rec, []string{"createdEvent"})
		if got.CreatedEvent.CreatedEventBlob == "" {
			t.Errorf("no created event blob: %s", rec.Body)
		}
		got.CreatedEvent.CreatedEventBlob = ""
		if diff := cmp.Diff(wantEvent, got.CreatedEvent); diff != "" {
			t.Errorf("created event (-want +got):\n%s", diff)
		}
	}
	t.Run("querying party", func(t *testing.T) {
		check(t, f.reader, ledger.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.alice}})
	})
	t.Run("any party", func(t *testing.T) { check(t, f.anyReader, ledger.GetContractRequest{ContractID: c.ContractID}) })

	// An archived contract is still found.
	decodeAs[ledger.SubmitAndWaitResponse](t, f.post("/v2/commands/submit-and-wait",
		commands("x", f.alice, exerciseIou(f.iou(), c.ContractID, "Transfer", transferTo(f.bob)))))
	t.Run("archived", func(t *testing.T) {
		check(t, f.reader, ledger.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.alice}})
	})

	before := f.state()
	for _, tc := range []struct {
		name   string
		header map[string]string
		body   any
		status int
		code   string
	}{
		{"unknown contract", f.anyReader, ledger.GetContractRequest{ContractID: "00" + strings.Repeat("ab", 32)}, 404, "CONTRACT_PAYLOAD_NOT_FOUND"},
		{"no querying party is a stakeholder", f.bobReader, ledger.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.bob}}, 404, "CONTRACT_PAYLOAD_NOT_FOUND"},
		{"no contract id", f.anyReader, ledger.GetContractRequest{}, 400, "MISSING_FIELD"},
		{"malformed party", f.reader, ledger.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{"a!b"}}, 400, "INVALID_FIELD"},
		{"any party without CanReadAsAnyParty", f.reader, ledger.GetContractRequest{ContractID: c.ContractID}, 403, "NA"},
		{"another party", f.reader, ledger.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.bob}}, 403, "NA"},
		{"no rights", f.none, ledger.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.alice}}, 403, "NA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.postAs(tc.header, "/v2/contracts/contract-by-id", tc.body), tc.status, tc.code)
		})
	}
	wantText(t, f.post("/v2/contracts/contract-by-id", `{"contractId":1}`), 400, "Invalid value for: body (expected a string, got number at 'contractId')")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}

func TestPreferredPackages(t *testing.T) {
	f := newAuthFixture(t)
	d2, ids2 := lftest.DAR(lftest.IouPackage("2.0.0"))
	wantEmptyObject(t, f.do(darCall("/v2/dars", d2, f.admin)))
	f.auth = f.admin
	sync := f.node.Synchronizers()[0]
	v2 := ledger.PackageReference{PackageID: ids2[0], PackageName: "iou", PackageVersion: "2.0.0"}

	// The newest vetted version, for any authenticated caller.
	rec := f.postAs(f.none, "/v2/interactive-submission/preferred-packages", ledger.GetPreferredPackagesRequest{
		PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{f.alice, f.bob}, PackageName: "iou"}}})
	got := decodeAs[ledger.GetPreferredPackagesResponse](t, rec)
	if diff := cmp.Diff(ledger.GetPreferredPackagesResponse{PackageReferences: []ledger.PackageReference{v2}, SynchronizerID: sync}, got); diff != "" {
		t.Errorf("preferred packages (-want +got):\n%s", diff)
	}
	q := url.Values{"parties": {f.alice}, "package-name": {"iou"}, "synchronizer-id": {sync}, "vetting_valid_at": {"2030-01-01T00:00:00Z"}}
	rec = f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?" + q.Encode(), header: f.none})
	pref := decodeAs[ledger.GetPreferredPackageVersionResponse](t, rec)
	if diff := cmp.Diff(&ledger.PackagePreference{PackageReference: v2, SynchronizerID: sync}, pref.PackagePreference); diff != "" {
		t.Errorf("preferred package version (-want +got):\n%s", diff)
	}

	// Once 2.0.0 is vetted only from 2030-06-01, the preference now is
	// 1.0.0, and 2.0.0 for a vettingValidAt past that date.
	from := "2030-06-01T00:00:00Z"
	vet := f.post("/v2/package-vetting/update", ledger.UpdateVettedPackagesRequest{Changes: []ledger.VettedPackagesChange{{
		Operation: ledger.VettingOperation{Vet: &ledger.Wrapped[ledger.VetOperation]{Value: ledger.VetOperation{
			Packages: []ledger.VettedPackagesRef{{PackageID: ids2[0]}}, NewValidFromInclusive: &from}}}}}})
	if vet.Code != http.StatusOK {
		t.Fatalf("vetting 2.0.0 from %s: %d %s", from, vet.Code, vet.Body)
	}
	v1 := ledger.PackageReference{PackageID: f.pkg, PackageName: "iou", PackageVersion: "1.0.0"}
	for _, tc := range []struct {
		at   string
		want ledger.PackageReference
	}{{"", v1}, {"2030-05-31T23:59:59Z", v1}, {from, v2}, {"2031-01-01T00:00:00.5Z", v2}} {
		got = decodeAs[ledger.GetPreferredPackagesResponse](t, f.postAs(f.none, "/v2/interactive-submission/preferred-packages", ledger.GetPreferredPackagesRequest{
			PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "iou"}}, SynchronizerID: sync, VettingValidAt: tc.at}))
		if diff := cmp.Diff([]ledger.PackageReference{tc.want}, got.PackageReferences); diff != "" {
			t.Errorf("preference at %q (-want +got):\n%s", tc.at, diff)
		}
	}

	// No package for the name: an error for POST, no preference for GET.
	rec = f.do(httpCall{method: "GET", target: "/v2/interactive-submission/preferred-package-version?package-name=nope&parties=" + url.QueryEscape(f.alice), header: f.none})
	if pref := decodeAs[ledger.GetPreferredPackageVersionResponse](t, rec); pref.PackagePreference != nil {
		t.Errorf("preference of an unknown name: %s", rec.Body)
	}
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"unknown package name", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "nope"}}}, 400, "PACKAGE_SELECTION_FAILED"},
		{"party not hosted", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{"carol::1220" + strings.Repeat("cd", 32)}, PackageName: "iou"}}}, 400, "PACKAGE_SELECTION_FAILED"},
		{"synchronizer not connected", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "iou"}}, SynchronizerID: "other::1220ab"}, 400, "PACKAGE_SELECTION_FAILED"},
		{"no requirements", ledger.GetPreferredPackagesRequest{}, 400, "MISSING_FIELD"},
		{"no parties", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{PackageName: "iou"}}}, 400, "MISSING_FIELD"},
		{"no package name", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{f.alice}}}}, 400, "MISSING_FIELD"},
		{"malformed party", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{"a!b"}, PackageName: "iou"}}}, 400, "INVALID_ARGUMENT"}, // Canton: requireParty names no field
		{"malformed time", ledger.GetPreferredPackagesRequest{PackageVettingRequirements: []ledger.PackageVettingRequirement{{Parties: []string{f.alice}, PackageName: "iou"}}, VettingValidAt: "yesterday"}, 400, "INVALID_FIELD"},
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
