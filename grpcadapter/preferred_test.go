package grpcadapter_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/ledgernode/ledgernode/grpcadapter/pb/v2/interactive"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestPreferredPackagesSameAsJSON: GetPreferredPackages and
// GetPreferredPackageVersion answer as the JSON API's
// /v2/interactive-submission/preferred-packages and
// preferred-package-version on the same node: the Ping package for alice
// and bob, and the same refusals.
func TestPreferredPackagesSameAsJSON(t *testing.T) {
	t.Parallel()
	p := newPingEnv(t)
	c := interactive.NewInteractiveSubmissionServiceClient(p.conn)
	req := &interactive.GetPreferredPackagesRequest{PackageVettingRequirements: []*interactive.PackageVettingRequirement{
		{Parties: []string{p.alice, p.bob}, PackageName: p.pkgName}}}
	got, err := c.GetPreferredPackages(p.grpcCtx, req)
	if err != nil {
		t.Fatal(err)
	}
	var want jsonapi.GetPreferredPackagesResponse
	p.postOK("/v2/interactive-submission/preferred-packages",
		`{"packageVettingRequirements":[{"parties":["`+p.alice+`","`+p.bob+`"],"packageName":"`+p.pkgName+`"}]}`, &want)
	if len(got.PackageReferences) != 1 || got.PackageReferences[0].PackageId != p.pkgID || got.PackageReferences[0].PackageVersion != p.pkgVersion {
		t.Errorf("GetPreferredPackages: %v, want the Ping package %s %s", got, p.pkgID, p.pkgVersion)
	}
	gotRefs := []jsonapi.PackageReference{}
	for _, r := range got.PackageReferences {
		gotRefs = append(gotRefs, jsonapi.PackageReference{PackageID: r.PackageId, PackageName: r.PackageName, PackageVersion: r.PackageVersion})
	}
	if d := cmp.Diff(want, jsonapi.GetPreferredPackagesResponse{PackageReferences: gotRefs, SynchronizerID: got.SynchronizerId}); d != "" {
		t.Errorf("preferred packages (-JSON API +gRPC):\n%s", d)
	}

	v, err := c.GetPreferredPackageVersion(p.grpcCtx, &interactive.GetPreferredPackageVersionRequest{Parties: []string{p.alice}, PackageName: p.pkgName})
	if err != nil {
		t.Fatal(err)
	}
	var wantV jsonapi.GetPreferredPackageVersionResponse
	q := url.Values{"parties": {p.alice}, "package-name": {p.pkgName}}
	p.getOK("/v2/interactive-submission/preferred-package-version?"+q.Encode(), &wantV)
	pref := v.GetPackagePreference()
	if wantV.PackagePreference == nil || pref == nil || pref.PackageReference.PackageId != wantV.PackagePreference.PackageReference.PackageID ||
		pref.SynchronizerId != wantV.PackagePreference.SynchronizerID {
		t.Errorf("preferred package version: JSON %+v, gRPC %v", wantV.PackagePreference, pref)
	}

	for _, tc := range []struct {
		name string
		req  *interactive.GetPreferredPackagesRequest
		body string
	}{
		{"no requirement", &interactive.GetPreferredPackagesRequest{}, `{"packageVettingRequirements":[]}`},
		{"no parties", &interactive.GetPreferredPackagesRequest{PackageVettingRequirements: []*interactive.PackageVettingRequirement{{PackageName: p.pkgName}}},
			`{"packageVettingRequirements":[{"parties":[],"packageName":"` + p.pkgName + `"}]}`},
		{"unknown package name", &interactive.GetPreferredPackagesRequest{PackageVettingRequirements: []*interactive.PackageVettingRequirement{{Parties: []string{p.alice}, PackageName: "nope"}}},
			`{"packageVettingRequirements":[{"parties":["` + p.alice + `"],"packageName":"nope"}]}`},
		{"malformed synchronizer id", &interactive.GetPreferredPackagesRequest{SynchronizerId: "no-namespace", PackageVettingRequirements: req.PackageVettingRequirements},
			`{"synchronizerId":"no-namespace","packageVettingRequirements":[{"parties":["` + p.alice + `","` + p.bob + `"],"packageName":"` + p.pkgName + `"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.GetPreferredPackages(p.grpcCtx, tc.req)
			if d := cmp.Diff(jsonError(t, p.post("/v2/interactive-submission/preferred-packages", tc.body)), fromGRPC(t, err)); d != "" {
				t.Errorf("(-JSON API +gRPC):\n%s", d)
			}
		})
	}

	if _, err := c.GetPreferredPackages(as("not-a-token"), req); status.Code(err) != codes.Unauthenticated {
		t.Errorf("a bad token: %v, want UNAUTHENTICATED", err)
	}
}

// getOK sends a GET to the HTTP API that must succeed and decodes its
// answer.
func (p *pingEnv) getOK(path string, out any) {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodGet, p.srv+path, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.httpToken)
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	decodeOK(p.t, resp, out)
}
