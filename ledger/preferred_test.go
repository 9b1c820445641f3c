package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
)

// maxRefusal bounds the size of a refusal of malformed input: the cause
// quotes the input truncated, so the answer does not grow with it.
const maxRefusal = 1024

// TestPreferredPackagesMalformedInput: both preferred-package endpoints
// validate their parameters as Canton 3.5 does
// (GetPreferredPackagesRequestValidator): a malformed synchronizer id,
// package name, party or vetting time is refused with Canton's code and
// a bounded cause, in Go and over HTTP, and changes nothing; the
// deprecated GET no longer answers 200 {"packagePreference": null} to
// them.
func TestPreferredPackagesMalformedInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	node := ledgertest.Open(t, ledger.Options{})
	dar, _ := lftest.DAR(lftest.Package{Name: "pref", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "T", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}}}}}})
	ledgertest.MustUploadDAR(t, node, dar)
	alice := ledgertest.MustAllocate(t, node, "alice")
	sync := node.Synchronizers()[0]
	srv, token := ledgertest.Serve(t, node)
	endBefore, err := node.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}

	get := func(t *testing.T, q url.Values) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/v2/interactive-submission/preferred-package-version?"+q.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		return doPreferred(t, req)
	}
	post := func(t *testing.T, body jsonapi.GetPreferredPackagesRequest) (int, []byte) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", srv.URL+"/v2/interactive-submission/preferred-packages", strings.NewReader(string(b)))
		req.Header.Set("Authorization", "Bearer "+token)
		return doPreferred(t, req)
	}

	// The valid query the bad ones vary.
	status, body := get(t, url.Values{"parties": {alice}, "package-name": {"pref"}, "synchronizer-id": {sync}})
	if status != 200 || !strings.Contains(string(body), `"packageName":"pref"`) {
		t.Fatalf("valid query: %d %s", status, body)
	}

	long := strings.Repeat("x", 10<<10)
	tests := []struct {
		name    string
		parties []string
		pkg     string
		sync    string
		at      string
		code    string
		cause   string // a prefix of the cause
	}{
		{name: "synchronizer id of 10 KB", sync: long, code: "INVALID_FIELD",
			cause: "The submitted command has a field with invalid value: Invalid field synchronizer_id/synchronizerId: "},
		{name: "synchronizer id of 10 KB with a namespace", sync: long + "::1220ab", code: "INVALID_FIELD",
			cause: "The submitted command has a field with invalid value: Invalid field synchronizer_id/synchronizerId: "},
		{name: "synchronizer id NUL", sync: "\x00", code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field synchronizer_id/synchronizerId: "},
		{name: "synchronizer id with a NUL", sync: "sync\x00::1220ab", code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field synchronizer_id/synchronizerId: "},
		{name: "synchronizer id not an id", sync: "not an id", code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field synchronizer_id/synchronizerId: "},
		{name: "synchronizer id without namespace", sync: "sync::", code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field synchronizer_id/synchronizerId: "},
		{name: "package name of 10 KB", pkg: long, code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field package_name/packageName: "},
		{name: "package name with a NUL", pkg: "pref\x00", code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field package_name/packageName: non expected character 0x0"},
		{name: "package name not a name", pkg: "a.b", code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field package_name/packageName: "},
		{name: "empty package name", pkg: "-", code: "MISSING_FIELD", cause: "The submitted command is missing a mandatory field: package_name/packageName"},
		{name: "no parties", parties: []string{}, code: "MISSING_FIELD", cause: "The submitted command is missing a mandatory field: parties"},
		{name: "party of 10 KB", parties: []string{long}, code: "INVALID_ARGUMENT", cause: "The submitted request has invalid arguments: Daml-LF Party is too long"},
		{name: "party with a NUL", parties: []string{"alice\x00"}, code: "INVALID_ARGUMENT", cause: "The submitted request has invalid arguments: non expected character 0x0 in Daml-LF Party"},
		{name: "empty party", parties: []string{""}, code: "INVALID_ARGUMENT", cause: "The submitted request has invalid arguments: Daml-LF Party is empty"},
		{name: "vetting time of 10 KB", at: long, code: "INVALID_FIELD", cause: "The submitted command has a field with invalid value: Invalid field vetting_valid_at/vettingValidAt: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parties, pkg, s := []string{alice}, "pref", sync
			if tc.parties != nil {
				parties = tc.parties
			}
			switch tc.pkg {
			case "":
			case "-":
				pkg = ""
			default:
				pkg = tc.pkg
			}
			if tc.sync != "" {
				s = tc.sync
			}
			check := func(what string, err error) {
				t.Helper()
				var ae *apierr.Error
				if !errors.As(err, &ae) {
					t.Fatalf("%s: err = %v, want %s", what, err, tc.code)
				}
				if ae.Code.Name != tc.code || !strings.HasPrefix(ae.Cause, tc.cause) || len(ae.Cause) > maxRefusal {
					t.Errorf("%s: %s %q (%d bytes), want %s %q… of at most %d bytes", what, ae.Code.Name, truncForLog(ae.Cause), len(ae.Cause), tc.code, tc.cause, maxRefusal)
				}
			}
			_, err := jsonapi.New(node).PreferredPackageVersion(ctx, jsonapi.GetPreferredPackageVersionRequest{Parties: parties, PackageName: pkg, SynchronizerID: s, VettingValidAt: tc.at})
			check("PreferredPackageVersion", err)
			preq := jsonapi.GetPreferredPackagesRequest{PackageVettingRequirements: []jsonapi.PackageVettingRequirement{{Parties: parties, PackageName: pkg}},
				SynchronizerID: s, VettingValidAt: tc.at}
			_, err = jsonapi.New(node).PreferredPackages(ctx, preq)
			check("PreferredPackages", err)

			// Over HTTP: the POST answers Canton's error; so does the GET,
			// except for a vetting time, which its query decoder refuses
			// first (400 text/plain, as Canton's).
			status, body := post(t, preq)
			if status != 400 || !strings.Contains(string(body), `"code":"`+tc.code+`"`) || len(body) > 2*maxRefusal {
				t.Errorf("POST preferred-packages: %d %q (%d bytes), want 400 %s, bounded", status, truncForLog(string(body)), len(body), tc.code)
			}
			q := url.Values{"parties": parties, "package-name": {pkg}, "synchronizer-id": {s}}
			if tc.at != "" {
				q.Set("vetting_valid_at", tc.at)
			}
			status, body = get(t, q)
			wantCode := tc.at == "" // a bad vetting time is the query decoder's
			if status != 400 || wantCode && !strings.Contains(string(body), `"code":"`+tc.code+`"`) || len(body) > 2*maxRefusal {
				t.Errorf("GET preferred-package-version: %d %q (%d bytes), want 400 %s, bounded", status, truncForLog(string(body)), len(body), tc.code)
			}
		})
	}
	if end, err := node.LedgerEnd(ctx); err != nil || end != endBefore {
		t.Errorf("ledger end %v (%v) after the refusals, want %v", end, err, endBefore)
	}
}

func doPreferred(t *testing.T, req *http.Request) (int, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func truncForLog(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
