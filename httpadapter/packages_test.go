package httpadapter

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Tests of the DAR, package and vetting routes.

// darDir holds the real DARs, relative to this package's directory.
const darDir = "../../shared/testdata/dars"

// pingID is the main package of the ping DAR.
const pingID = "de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54"

func realDAR(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(darDir, name))
	if err != nil {
		t.Skipf("../shared not found: skipping the real-DAR test (%v)", err)
	}
	return b
}

var owner = lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}

// darCall is a request with a raw DAR body and no Content-Type.
func darCall(target string, dar []byte, header map[string]string) httpCall {
	return httpCall{method: "POST", target: target, body: string(dar), header: header}
}

// pkgState is the package and vetting state as the API shows it.
type pkgState struct {
	Packages []string // GET /v2/packages, sorted
	Vetting  jsonapi.ListVettedPackagesResponse
}

func (h *harness) pkgState(header map[string]string) pkgState {
	h.t.Helper()
	l := decodeAs[jsonapi.ListPackagesResponse](h.t, h.do(httpCall{method: "GET", target: "/v2/packages", header: header}))
	slices.Sort(l.PackageIDs)
	v := decodeAs[jsonapi.ListVettedPackagesResponse](h.t, h.do(httpCall{method: "POST", target: "/v2/package-vetting/list", body: `{}`, header: header}))
	return pkgState{Packages: l.PackageIDs, Vetting: v}
}

// wantUnchanged fails when the state differs from before.
func (h *harness) wantUnchanged(before pkgState, header map[string]string, what string) {
	h.t.Helper()
	if diff := cmp.Diff(before, h.pkgState(header)); diff != "" {
		h.t.Errorf("%s changed the state (-before +after):\n%s", what, diff)
	}
}

// wantEmptyObject checks a 200 "{}" answer.
func wantEmptyObject(t testing.TB, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != "{}" {
		t.Fatalf("%d %s, want 200 {}", rec.Code, rec.Body)
	}
}

func TestRealDARsOverHTTP(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(darDir); err != nil {
		t.Skipf("../shared not found: skipping the real-DAR test (%v)", err)
	}
	h := newHarness(t, Options{})
	for _, tc := range []struct {
		file   string
		upload string // the upload route
		code   string // "" when accepted
	}{
		{"canton-builtin-admin-workflow-ping.dar", "/v2/dars", ""},
		{"canton-builtin-admin-workflow-party-replication-alpha.dar", "/v2/packages", ""},
		{"DamlDefinitionsServiceMain.dar", "/v2/dars", "ALLOWED_LANGUAGE_VERSIONS"},
		{"DamlDefinitionsServiceMain.dar", "/v2/packages", "ALLOWED_LANGUAGE_VERSIONS"},
		{"dummy-1.15.dar", "/v2/dars", "ALLOWED_LANGUAGE_VERSIONS"},
		{"dummy-1.15.dar", "/v2/packages", "ALLOWED_LANGUAGE_VERSIONS"},
	} {
		t.Run(tc.file+" "+tc.upload, func(t *testing.T) {
			data := realDAR(t, tc.file)
			before := h.pkgState(nil)
			rec := h.do(darCall("/v2/dars/validate", data, nil))
			if tc.code == "" {
				wantEmptyObject(t, rec)
			} else {
				wantCantonError(t, rec, 400, tc.code)
			}
			h.wantUnchanged(before, nil, "validation")

			rec = h.do(darCall(tc.upload, data, nil))
			if tc.code != "" {
				wantCantonError(t, rec, 400, tc.code)
				h.wantUnchanged(before, nil, "a refused upload")
				return
			}
			wantEmptyObject(t, rec)
			after := h.pkgState(nil)
			if len(after.Packages) <= len(before.Packages) {
				t.Errorf("upload stored no package: %d before, %d after", len(before.Packages), len(after.Packages))
			}
			// Uploading the same DAR again, on either route, is idempotent.
			for _, route := range []string{"/v2/dars", "/v2/packages"} {
				wantEmptyObject(t, h.do(darCall(route, data, nil)))
				h.wantUnchanged(after, nil, "a second upload of "+tc.file+" to "+route)
			}
			// Validating an uploaded DAR succeeds and changes nothing.
			wantEmptyObject(t, h.do(darCall("/v2/dars/validate", data, nil)))
			h.wantUnchanged(after, nil, "validating an uploaded DAR")
		})
	}
	st := h.pkgState(nil)
	if !slices.Contains(st.Packages, pingID) {
		t.Fatalf("the ping package %s is not listed", pingID)
	}
	if len(st.Vetting.VettedPackages) != 1 || st.Vetting.VettedPackages[0].TopologySerial != 2 {
		t.Fatalf("vetting state after two uploads: %+v", st.Vetting)
	}
	vetted := map[string]bool{}
	for _, p := range st.Vetting.VettedPackages[0].Packages {
		vetted[p.PackageID] = true
	}
	// Every stored package: its bytes hash to its id, which the header
	// carries; it is registered and (uploaded with vetting) vetted.
	for _, id := range st.Packages {
		rec := h.do(httpCall{method: "GET", target: "/v2/packages/" + id})
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/octet-stream" {
			t.Fatalf("GET package %s: %d %q %s", id, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		sum := sha256.Sum256(rec.Body.Bytes())
		if got := hex.EncodeToString(sum[:]); got != id || rec.Header().Get("Canton-Package-Hash") != id {
			t.Errorf("package %s: SHA-256 %s, Canton-Package-Hash %q", id, got, rec.Header().Get("Canton-Package-Hash"))
		}
		if json.Valid(rec.Body.Bytes()) {
			t.Errorf("package %s: the payload came back as JSON", id)
		}
		status := decodeAs[jsonapi.PackageStatusResponse](t, h.do(httpCall{method: "GET", target: "/v2/packages/" + id + "/status"}))
		if status.PackageStatus != jsonapi.PackageStatusRegistered {
			t.Errorf("package %s: status %s", id, status.PackageStatus)
		}
		if !vetted[id] {
			t.Errorf("package %s is not vetted", id)
		}
	}
	unknown := strings.Repeat("0f", 32)
	status := decodeAs[jsonapi.PackageStatusResponse](t, h.do(httpCall{method: "GET", target: "/v2/packages/" + unknown + "/status"}))
	if status.PackageStatus != jsonapi.PackageStatusUnspecified {
		t.Errorf("unknown package: status %s", status.PackageStatus)
	}
	e := wantCantonError(t, h.do(httpCall{method: "GET", target: "/v2/packages/" + unknown}), 404, "PACKAGE_NOT_FOUND")
	if diff := cmp.Diff([][2]string{{"PACKAGE", unknown}}, e.Resources); diff != "" {
		t.Errorf("PACKAGE_NOT_FOUND resources (-want +got):\n%s", diff)
	}
	// The status route is not confused with the package route.
	rec := h.do(httpCall{method: "GET", target: "/v2/packages/" + pingID + "/status"})
	if rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("status answered %q", rec.Header().Get("Content-Type"))
	}
}

// vettingFixture is a node with synthetic packages, all stored without
// vetting:
//
//	lib 1.0.0; app 1.0.0 importing lib;
//	other 1.0.0 and other 2.0.0 (so the name "other" is ambiguous);
//	up 1.0.0, up 2.0.0 with a non-optional field added (not a valid
//	upgrade), and a different up 1.0.0 (a known version).
type vettingFixture struct {
	*harness
	lib, app, other1, up1, upBad, upSame string
}

func newVettingFixture(t *testing.T, lopts ledger.Options) *vettingFixture {
	t.Helper()
	h := newHarnessWith(t, lopts, Options{})
	f := &vettingFixture{harness: h}
	lib := lftest.TemplatePackage("lib", "1.0.0", nil, owner)
	f.lib, _ = lftest.Dalf(lib)
	upload := func(main lftest.Package, deps ...lftest.Package) []string {
		d, ids := lftest.DAR(main, deps...)
		wantEmptyObject(t, h.do(darCall("/v2/dars?vetAllPackages=false", d, nil)))
		return ids
	}
	f.app = upload(lftest.TemplatePackage("app", "1.0.0", []string{f.lib}, owner), lib)[0]
	f.other1 = upload(lftest.TemplatePackage("other", "1.0.0", nil, owner))[0]
	upload(lftest.TemplatePackage("other", "2.0.0", nil, owner))
	f.up1 = upload(lftest.TemplatePackage("up", "1.0.0", nil, owner))[0]
	f.upBad = upload(lftest.TemplatePackage("up", "2.0.0", nil, owner, lftest.Field{Name: "amount", Type: lftest.B(lftest.Int64)}))[0]
	f.upSame = upload(lftest.TemplatePackage("up", "1.0.0", nil, owner, lftest.Field{Name: "x", Type: lftest.Opt(lftest.B(lftest.Int64))}))[0]
	if st := h.pkgState(nil); len(st.Packages) != 7 || len(st.Vetting.VettedPackages) != 0 {
		t.Fatalf("fixture state: %+v", st)
	}
	return f
}

func vetChange(refs ...jsonapi.VettedPackagesRef) jsonapi.VettedPackagesChange {
	return jsonapi.VettedPackagesChange{Operation: jsonapi.VettingOperation{Vet: &jsonapi.Wrapped[jsonapi.VetOperation]{Value: jsonapi.VetOperation{Packages: refs}}}}
}

func unvetChange(refs ...jsonapi.VettedPackagesRef) jsonapi.VettedPackagesChange {
	return jsonapi.VettedPackagesChange{Operation: jsonapi.VettingOperation{Unvet: &jsonapi.Wrapped[jsonapi.UnvetOperation]{Value: jsonapi.UnvetOperation{Packages: refs}}}}
}

func ref(id string) jsonapi.VettedPackagesRef { return jsonapi.VettedPackagesRef{PackageID: id} }

func prior(v int32) *jsonapi.PriorTopologySerial {
	return &jsonapi.PriorTopologySerial{Serial: jsonapi.SerialKind{Prior: &jsonapi.Wrapped[int32]{Value: v}}}
}

var (
	noPrior     = &jsonapi.PriorTopologySerial{Serial: jsonapi.SerialKind{NoPrior: &struct{}{}}}
	emptySerial = &jsonapi.PriorTopologySerial{Serial: jsonapi.SerialKind{Empty: &struct{}{}}}
)

func updateReq(changes ...jsonapi.VettedPackagesChange) jsonapi.UpdateVettedPackagesRequest {
	return jsonapi.UpdateVettedPackagesRequest{Changes: changes}
}

func withSerial(r jsonapi.UpdateVettedPackagesRequest, s *jsonapi.PriorTopologySerial) jsonapi.UpdateVettedPackagesRequest {
	r.ExpectedTopologySerial = s
	return r
}

func withFlags(r jsonapi.UpdateVettedPackagesRequest, flags ...string) jsonapi.UpdateVettedPackagesRequest {
	r.UpdateVettedPackagesForceFlags = flags
	return r
}

// vettingRejection is a vetting request the node or the decoder must refuse.
type vettingRejection struct {
	name   string
	body   string
	status int
	code   string // the JsCantonError code, or "" for a 400 text/plain
	text   string // the text prefix of a 400 text/plain
}

// update posts an UpdateVettedPackagesRequest body to the deprecated path.
func (f *vettingFixture) update(body string) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.do(httpCall{method: "POST", target: "/v2/package-vetting", body: body})
}

// reject runs each rejection as a real run and as a dry run (when its
// body is an object) and checks that the state did not change.
func (f *vettingFixture) reject(t *testing.T, rs []vettingRejection) {
	t.Helper()
	for _, r := range rs {
		t.Run(r.name, func(t *testing.T) {
			before := f.pkgState(nil)
			bodies := []string{r.body}
			var m map[string]any
			if json.Unmarshal([]byte(r.body), &m) == nil && m != nil {
				m["dryRun"] = true
				bodies = append(bodies, js(t, m))
			}
			for _, body := range bodies {
				rec := f.update(body)
				if r.code == "" {
					wantText(t, rec, 400, r.text)
				} else {
					wantCantonError(t, rec, r.status, r.code)
				}
			}
			f.wantUnchanged(before, nil, r.name)
		})
	}
}

// ok applies a request that must succeed; a dry run first must give the
// same answer and change nothing.
func (f *vettingFixture) ok(t *testing.T, req jsonapi.UpdateVettedPackagesRequest) jsonapi.UpdateVettedPackagesResponse {
	t.Helper()
	before := f.pkgState(nil)
	req.DryRun = true
	dry := decodeAs[jsonapi.UpdateVettedPackagesResponse](t, f.update(js(t, req)))
	f.wantUnchanged(before, nil, "a dry run")
	req.DryRun = false
	rec := f.update(js(t, req))
	real := decodeAs[jsonapi.UpdateVettedPackagesResponse](t, rec)
	if diff := cmp.Diff(dry, real); diff != "" {
		t.Errorf("dry run and real run differ (-dry +real):\n%s", diff)
	}
	// The list shows the new state.
	l := f.pkgState(nil).Vetting
	if len(l.VettedPackages) != 1 {
		t.Fatalf("vetting states after a change: %+v", l)
	}
	if diff := cmp.Diff(real.NewVettedPackages, l.VettedPackages[0]); diff != "" {
		t.Errorf("listed state differs from the answer (-answer +list):\n%s", diff)
	}
	return real
}

func vettedIDs(v jsonapi.VettedPackages) []string {
	ids := []string{}
	for _, p := range v.Packages {
		ids = append(ids, p.PackageID)
	}
	slices.Sort(ids)
	return ids
}

func sorted(ids ...string) []string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return ids
}

// TestVettingRules drives every vetting rule and error through the
// deprecated POST /v2/package-vetting.
func TestVettingRules(t *testing.T) {
	t.Parallel()
	f := newVettingFixture(t, ledger.Options{})
	sync := f.node.Synchronizers()[0]
	b := func(r jsonapi.UpdateVettedPackagesRequest) string { return js(t, r) }
	unknownID := strings.Repeat("ab", 32)

	// No vetting state yet.
	f.reject(t, []vettingRejection{
		{"dependency not vetted", b(updateReq(vetChange(ref(f.app)))), 400, "TOPOLOGY_DEPENDENCIES_NOT_VETTED", ""},
		{"unknown package id", b(updateReq(vetChange(ref(unknownID)))), 404, "TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES", ""},
		{"unknown package name", b(updateReq(vetChange(jsonapi.VettedPackagesRef{PackageName: "nope"}))), 404, "UNRESOLVED_VETTING_REFERENCE", ""},
		{"unvet an unknown name", b(updateReq(unvetChange(jsonapi.VettedPackagesRef{PackageName: "nope"}))), 404, "UNRESOLVED_VETTING_REFERENCE", ""},
		{"unknown version", b(updateReq(vetChange(jsonapi.VettedPackagesRef{PackageName: "lib", PackageVersion: "9.9.9"}))), 404, "UNRESOLVED_VETTING_REFERENCE", ""},
		{"ambiguous name", b(updateReq(vetChange(jsonapi.VettedPackagesRef{PackageName: "other"}))), 400, "AMBIGUOUS_VETTING_REFERENCE", ""},
		{"ambiguous name and version", b(updateReq(vetChange(jsonapi.VettedPackagesRef{PackageName: "up", PackageVersion: "1.0.0"}))), 400, "AMBIGUOUS_VETTING_REFERENCE", ""},
		{"reference without id or name", b(updateReq(vetChange(jsonapi.VettedPackagesRef{PackageVersion: "1.0.0"}))), 400, "INVALID_ARGUMENT", ""},
		{"prior serial on no state", b(withSerial(updateReq(vetChange(ref(f.lib))), prior(1))), 400, "TOPOLOGY_SERIAL_MISMATCH", ""},
		{"unknown synchronizer", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.lib + `"}]}}}}],"synchronizerId":"nope::1220ab"}`,
			400, "PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER", ""},
		{"no changes", `{"changes":[]}`, 400, "MISSING_FIELD", ""},
		{"changes absent", `{}`, 400, "MISSING_FIELD", ""},
		{"empty operation", `{"changes":[{"operation":{"Empty":{}}}]}`, 400, "MISSING_FIELD", ""},
		{"bad from timestamp", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.lib + `"}],"newValidFromInclusive":"tomorrow"}}}}]}`,
			400, "", "Invalid value for: body (text \"tomorrow\" could not be parsed as a timestamp at 'changes[0].operation.Vet.value.newValidFromInclusive')"},
		{"bad until timestamp", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.lib + `"}],"newValidUntilExclusive":"2026-13-01T00:00:00Z"}}}}]}`,
			400, "", "Invalid value for: body (text \"2026-13-01T00:00:00Z\" could not be parsed as a timestamp at 'changes[0].operation.Vet.value.newValidUntilExclusive')"},
		{"timestamp of the wrong type", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.lib + `"}],"newValidFromInclusive":5}}}}]}`,
			400, "", "Invalid value for: body (expected a string, got number at 'changes.operation.Vet.value.newValidFromInclusive')"},
		{"bad force flag", b(withFlags(updateReq(vetChange(ref(f.app))), "ALLOW_EVERYTHING")),
			400, "", "Invalid value for: body (unknown enum value \"ALLOW_EVERYTHING\", expected one of UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED, "},
		{"force flag UNRECOGNIZED", b(withFlags(updateReq(vetChange(ref(f.lib))), "UNRECOGNIZED")), 400, "INVALID_FIELD", ""},
		{"two variants in an operation", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.lib + `"}]}},"Unvet":{"value":{"packages":[]}}}}]}`,
			400, "", "Invalid value for: body (a one-of holds 2 variants, expected one at 'changes[0].operation')"},
		{"two variants in a serial", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.lib + `"}]}}}}],"expectedTopologySerial":{"serial":{"NoPrior":{},"Prior":{"value":0}}}}`,
			400, "", "Invalid value for: body (a one-of holds 2 variants, expected one at 'expectedTopologySerial.serial')"},
		{"malformed JSON", `{"changes":`, 400, "", "Invalid value for: body (malformed JSON"},
		{"empty body", ``, 400, "", "Invalid value for: body (the body is empty"},
	})

	// Serial 1: app alone, with its dependency left unvetted by force; the
	// first change set has no past state, printed as null.
	req := withFlags(withSerial(updateReq(vetChange(ref(f.app))), noPrior), jsonapi.ForceFlagAllowUnvettedDependencies)
	dry := req
	dry.DryRun = true
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(f.update(js(t, dry)).Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw["pastVettedPackages"]) != "null" {
		t.Errorf("the first change set printed pastVettedPackages %s, want null", raw["pastVettedPackages"])
	}
	r1 := f.ok(t, req)
	if r1.PastVettedPackages != nil || r1.NewVettedPackages.TopologySerial != 1 {
		t.Fatalf("first change set: past %+v, serial %d", r1.PastVettedPackages, r1.NewVettedPackages.TopologySerial)
	}
	want1 := jsonapi.VettedPackages{Packages: []jsonapi.VettedPackage{{PackageID: f.app, PackageName: "app", PackageVersion: "1.0.0"}},
		ParticipantID: r1.NewVettedPackages.ParticipantID, SynchronizerID: sync, TopologySerial: 1}
	if diff := cmp.Diff(want1, r1.NewVettedPackages); diff != "" || r1.NewVettedPackages.ParticipantID == "" {
		t.Errorf("first state (-want +got):\n%s", diff)
	}

	// Serial 2: lib, with bounds, guarded by the prior serial.
	// The node prints bounds as Java's Instant.toString does: UTC, with
	// 0, 3, 6 or 9 fraction digits.
	from, until, untilPrinted := "2026-01-01T00:00:00Z", "2027-06-30T12:00:00.5+02:00", "2027-06-30T10:00:00.500Z"
	withBounds := vetChange(ref(f.lib))
	withBounds.Operation.Vet.Value.NewValidFromInclusive = &from
	withBounds.Operation.Vet.Value.NewValidUntilExclusive = &until
	r2 := f.ok(t, withSerial(updateReq(withBounds), prior(1)))
	if r2.PastVettedPackages == nil || r2.PastVettedPackages.TopologySerial != 1 || r2.NewVettedPackages.TopologySerial != 2 {
		t.Fatalf("second change set serials: %+v", r2)
	}
	if diff := cmp.Diff(want1, *r2.PastVettedPackages); diff != "" {
		t.Errorf("past state (-want +got):\n%s", diff)
	}
	var libVetted *jsonapi.VettedPackage
	for i, p := range r2.NewVettedPackages.Packages {
		if p.PackageID == f.lib {
			libVetted = &r2.NewVettedPackages.Packages[i]
		}
	}
	if libVetted == nil || libVetted.ValidFromInclusive == nil || *libVetted.ValidFromInclusive != from ||
		libVetted.ValidUntilExclusive == nil || *libVetted.ValidUntilExclusive != untilPrinted {
		t.Errorf("lib bounds: %+v", libVetted)
	}

	// Serial 3: up 1.0.0, with no serial check ({"Empty": {}}).
	r3 := f.ok(t, withSerial(updateReq(vetChange(ref(f.up1))), emptySerial))
	if r3.NewVettedPackages.TopologySerial != 3 {
		t.Fatalf("third change set serial %d", r3.NewVettedPackages.TopologySerial)
	}

	// Rejections against an existing state.
	f.reject(t, []vettingRejection{
		{"no prior expected", b(withSerial(updateReq(vetChange(ref(f.other1))), noPrior)), 400, "TOPOLOGY_SERIAL_MISMATCH", ""},
		{"stale prior", b(withSerial(updateReq(vetChange(ref(f.other1))), prior(2))), 400, "TOPOLOGY_SERIAL_MISMATCH", ""},
		{"future prior", b(withSerial(updateReq(vetChange(ref(f.other1))), prior(4))), 400, "TOPOLOGY_SERIAL_MISMATCH", ""},
		{"prior given raw", `{"changes":[{"operation":{"Vet":{"value":{"packages":[{"packageId":"` + f.other1 + `"}]}}}}],"expectedTopologySerial":{"serial":{"Prior":{"value":7}}}}`,
			400, "TOPOLOGY_SERIAL_MISMATCH", ""},
		{"unvet a vetted dependency", b(updateReq(unvetChange(ref(f.lib)))), 400, "TOPOLOGY_DEPENDENCIES_NOT_VETTED", ""},
		{"not a valid upgrade", b(updateReq(vetChange(ref(f.upBad)))), 400, "NOT_VALID_UPGRADE_PACKAGE", ""},
		{"known package version", b(updateReq(vetChange(ref(f.upSame)))), 400, "KNOWN_PACKAGE_VERSION", ""},
		{"a failing change after a valid one", b(updateReq(vetChange(ref(f.other1)), vetChange(ref(unknownID)))), 404, "TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES", ""},
		{"serial checked before the changes", b(withSerial(updateReq(vetChange(ref(unknownID))), prior(1))), 400, "TOPOLOGY_SERIAL_MISMATCH", ""},
	})

	// Serial 4: the incompatible upgrade, forced.
	r4 := f.ok(t, withSerial(withFlags(updateReq(vetChange(ref(f.upBad))), jsonapi.ForceFlagAllowVetIncompatibleUpgrades), prior(3)))
	if r4.NewVettedPackages.TopologySerial != 4 {
		t.Fatalf("fourth change set serial %d", r4.NewVettedPackages.TopologySerial)
	}
	if diff := cmp.Diff(sorted(f.app, f.lib, f.up1, f.upBad), vettedIDs(r4.NewVettedPackages)); diff != "" {
		t.Errorf("vetted after four change sets (-want +got):\n%s", diff)
	}
	// Serial 5: unvetting a dependency, forced.
	r5 := f.ok(t, withSerial(withFlags(updateReq(unvetChange(ref(f.lib))), jsonapi.ForceFlagAllowUnvettedDependencies), prior(4)))
	if r5.NewVettedPackages.TopologySerial != 5 {
		t.Fatalf("fifth change set serial %d", r5.NewVettedPackages.TopologySerial)
	}
	// Unvet by name: every "up" goes. Serial 6.
	// (app's dependency lib stays unvetted, so the flag is still needed.)
	r6 := f.ok(t, withSerial(withFlags(updateReq(unvetChange(jsonapi.VettedPackagesRef{PackageName: "up"})), jsonapi.ForceFlagAllowUnvettedDependencies), prior(5)))
	if diff := cmp.Diff([]string{f.app}, vettedIDs(r6.NewVettedPackages)); diff != "" || r6.NewVettedPackages.TopologySerial != 6 {
		t.Errorf("after unvetting up (serial %d) (-want +got):\n%s", r6.NewVettedPackages.TopologySerial, diff)
	}
	// A change set that changes nothing keeps the serial.
	r7 := f.ok(t, withSerial(withFlags(updateReq(vetChange(ref(f.app))), jsonapi.ForceFlagAllowUnvettedDependencies), prior(6)))
	if r7.NewVettedPackages.TopologySerial != 6 {
		t.Errorf("a no-op change set moved the serial to %d", r7.NewVettedPackages.TopologySerial)
	}

	// The list routes: POST /list, the deprecated GET with a body, and
	// the GET with no body at all; filters and page size.
	full := f.pkgState(nil).Vetting
	for _, c := range []httpCall{
		{method: "POST", target: "/v2/package-vetting/list", body: `{}`},
		{method: "POST", target: "/v2/package-vetting/list", body: `{"pageSize":0,"pageToken":""}`},
		{method: "GET", target: "/v2/package-vetting", body: `{}`},
		{method: "GET", target: "/v2/package-vetting", body: ` `},
		{method: "GET", target: "/v2/package-vetting"},
		{method: "GET", target: "/v2/package-vetting", body: `{"topologyStateFilter":{"synchronizerIds":["` + sync + `"]}}`},
	} {
		got := decodeAs[jsonapi.ListVettedPackagesResponse](t, f.do(c))
		if diff := cmp.Diff(full, got); diff != "" {
			t.Errorf("%s %s %q (-want +got):\n%s", c.method, c.target, c.body, diff)
		}
	}
	filtered := decodeAs[jsonapi.ListVettedPackagesResponse](t, f.do(httpCall{method: "POST", target: "/v2/package-vetting/list",
		body: `{"topologyStateFilter":{"synchronizerIds":["other::1220ab"]}}`}))
	if len(filtered.VettedPackages) != 0 {
		t.Errorf("filtered by another synchronizer: %+v", filtered)
	}
	wantCantonError(t, f.do(httpCall{method: "POST", target: "/v2/package-vetting/list", body: `{"pageSize":101}`}), 400, "INVALID_ARGUMENT")
	wantText(t, f.do(httpCall{method: "POST", target: "/v2/package-vetting/list", body: ``}), 400, "Invalid value for: body (the body is empty")
	wantText(t, f.do(httpCall{method: "GET", target: "/v2/package-vetting", body: `{"pageSize":"x"}`}), 400, "Invalid value for: body (expected an integer")
}

// TestVettingSynchronizers covers autodetection with two synchronizers.
func TestVettingSynchronizers(t *testing.T) {
	t.Parallel()
	const a, b = "a::1220aa", "b::1220bb"
	h := newHarnessWith(t, ledger.Options{Synchronizers: []string{a, b}}, Options{})
	d, ids := lftest.DAR(lftest.TemplatePackage("app", "1.0.0", nil, owner))
	before := h.pkgState(nil)
	for _, route := range []string{"/v2/dars", "/v2/packages", "/v2/dars?vetAllPackages=true"} {
		wantCantonError(t, h.do(darCall(route, d, nil)), 400, "PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER")
	}
	wantCantonError(t, h.do(darCall("/v2/dars?synchronizerId=c::1220cc", d, nil)), 400, "PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER")
	wantCantonError(t, h.do(darCall("/v2/dars/validate?synchronizerId=c::1220cc", d, nil)), 400, "PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER")
	h.wantUnchanged(before, nil, "refused uploads")
	// Validation has no side effects, so it defaults to the first one.
	wantEmptyObject(t, h.do(darCall("/v2/dars/validate", d, nil)))
	wantEmptyObject(t, h.do(darCall("/v2/dars/validate?synchronizerId="+b, d, nil)))
	h.wantUnchanged(before, nil, "validation")

	wantEmptyObject(t, h.do(darCall("/v2/dars?synchronizerId="+b, d, nil)))
	st := h.pkgState(nil)
	if len(st.Vetting.VettedPackages) != 1 || st.Vetting.VettedPackages[0].SynchronizerID != b {
		t.Fatalf("vetting after an upload to b: %+v", st.Vetting)
	}

	unvet := js(t, updateReq(unvetChange(ref(ids[0]))))
	vetOnA := js(t, jsonapi.UpdateVettedPackagesRequest{Changes: []jsonapi.VettedPackagesChange{vetChange(ref(ids[0]))}, SynchronizerID: a})
	for _, path := range []string{"/v2/package-vetting", "/v2/package-vetting/update"} {
		wantCantonError(t, h.do(httpCall{method: "POST", target: path, body: unvet}), 400, "PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER")
	}
	h.wantUnchanged(st, nil, "refused vetting changes")

	// Vetting on a is independent of b: serial 1 there.
	r := decodeAs[jsonapi.UpdateVettedPackagesResponse](t, h.do(httpCall{method: "POST", target: "/v2/package-vetting/update", body: vetOnA}))
	if r.PastVettedPackages != nil || r.NewVettedPackages.SynchronizerID != a || r.NewVettedPackages.TopologySerial != 1 {
		t.Errorf("vetting on a: %+v", r)
	}
	l := h.pkgState(nil).Vetting
	var got []string
	for _, v := range l.VettedPackages {
		got = append(got, v.SynchronizerID)
	}
	if diff := cmp.Diff([]string{a, b}, got); diff != "" {
		t.Errorf("vetting states (-want +got):\n%s", diff)
	}
	// Filters and paging over synchronizers.
	one := decodeAs[jsonapi.ListVettedPackagesResponse](t, h.do(httpCall{method: "POST", target: "/v2/package-vetting/list", body: `{"pageSize":1}`}))
	if len(one.VettedPackages) != 1 || one.VettedPackages[0].SynchronizerID != a || one.NextPageToken == "" {
		t.Fatalf("first page: %+v", one)
	}
	next := decodeAs[jsonapi.ListVettedPackagesResponse](t, h.do(httpCall{method: "POST", target: "/v2/package-vetting/list",
		body: `{"pageSize":1,"pageToken":"` + one.NextPageToken + `"}`}))
	if len(next.VettedPackages) != 1 || next.VettedPackages[0].SynchronizerID != b || next.NextPageToken != "" {
		t.Errorf("second page: %+v", next)
	}
	onlyB := decodeAs[jsonapi.ListVettedPackagesResponse](t, h.do(httpCall{method: "GET", target: "/v2/package-vetting",
		body: `{"topologyStateFilter":{"synchronizerIds":["` + b + `"]},"packageMetadataFilter":{"packageIds":["` + ids[0] + `"]}}`}))
	if len(onlyB.VettedPackages) != 1 || onlyB.VettedPackages[0].SynchronizerID != b || len(onlyB.VettedPackages[0].Packages) != 1 {
		t.Errorf("filtered to b: %+v", onlyB)
	}
}

// TestDARBodies covers the raw DAR body: Content-Types, chunking, the body
// limit, the vetAllPackages query and bodies that are not DARs.
func TestDARBodies(t *testing.T) {
	t.Parallel()
	d, ids := lftest.DAR(lftest.TemplatePackage("app", "1.0.0", nil, owner))
	t.Run("content types", func(t *testing.T) {
		t.Parallel()
		for _, ct := range []string{"", "application/octet-stream", "application/json", "text/plain", "multipart/form-data"} {
			h := newHarness(t, Options{})
			var header map[string]string
			if ct != "" {
				header = map[string]string{"Content-Type": ct}
			}
			wantEmptyObject(t, h.do(darCall("/v2/dars/validate", d, header)))
			wantEmptyObject(t, h.do(darCall("/v2/packages", d, header)))
			c := darCall("/v2/dars", d, header)
			c.chunked = true
			wantEmptyObject(t, h.do(c))
			if st := h.pkgState(nil); len(st.Packages) != 1 || len(st.Vetting.VettedPackages) != 1 {
				t.Errorf("Content-Type %q: state %+v", ct, st)
			}
		}
	})
	t.Run("vetAllPackages", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			query string
			vet   bool
		}{{"", true}, {"?vetAllPackages=true", true}, {"?vetAllPackages=false", false}, {"?vetAllPackages=false&synchronizerId=", false}} {
			for _, route := range []string{"/v2/dars", "/v2/packages"} {
				h := newHarness(t, Options{})
				wantEmptyObject(t, h.do(darCall(route+tc.query, d, nil)))
				st := h.pkgState(nil)
				if diff := cmp.Diff([]string{ids[0]}, st.Packages); diff != "" {
					t.Errorf("%s%s: packages (-want +got):\n%s", route, tc.query, diff)
				}
				if vetted := len(st.Vetting.VettedPackages) == 1; vetted != tc.vet {
					t.Errorf("%s%s: vetting %+v, want vetted %v", route, tc.query, st.Vetting, tc.vet)
				}
				status := decodeAs[jsonapi.PackageStatusResponse](t, h.do(httpCall{method: "GET", target: "/v2/packages/" + ids[0] + "/status"}))
				if status.PackageStatus != jsonapi.PackageStatusRegistered {
					t.Errorf("%s%s: status %s", route, tc.query, status.PackageStatus)
				}
			}
		}
	})
	t.Run("rejected", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, Options{MaxBodyBytes: int64(len(d)) - 1})
		before := h.pkgState(nil)
		for _, route := range []string{"/v2/dars/validate", "/v2/dars", "/v2/packages"} {
			for _, chunked := range []bool{false, true} {
				c := darCall(route, d, nil)
				c.chunked = chunked
				e := wantCantonError(t, h.do(c), 413, "REQUEST_ENTITY_TOO_LARGE")
				if !strings.Contains(e.Cause, "limit") {
					t.Errorf("413 cause %q", e.Cause)
				}
			}
			wantCantonError(t, h.do(darCall(route, []byte("not a zip"), nil)), 400, "INVALID_DAR")
			wantCantonError(t, h.do(httpCall{method: "POST", target: route}), 400, "INVALID_DAR")
		}
		for _, route := range []string{"/v2/dars", "/v2/packages"} {
			for _, v := range []string{"yes", "1", "TRUE", ""} {
				wantText(t, h.do(darCall(route+"?vetAllPackages="+v, d[:10], nil)), 400,
					"Invalid value for: query parameter vetAllPackages (For input string: \""+v+"\")")
			}
		}
		h.wantUnchanged(before, nil, "rejected DAR bodies")
		// A DAR at the limit is accepted.
		h2 := newHarness(t, Options{MaxBodyBytes: int64(len(d))})
		wantEmptyObject(t, h2.do(darCall("/v2/dars", d, nil)))
	})
	t.Run("real DAR over the default limit", func(t *testing.T) {
		t.Parallel()
		ping := realDAR(t, "canton-builtin-admin-workflow-ping.dar")
		big := append(slices.Clone(ping), make([]byte, int(DefaultMaxBodyBytes)+1-len(ping))...)
		h := newHarness(t, Options{})
		wantCantonError(t, h.do(darCall("/v2/dars", big, nil)), 413, "REQUEST_ENTITY_TOO_LARGE")
		h.wantUnchanged(pkgState{Packages: []string{}, Vetting: jsonapi.ListVettedPackagesResponse{VettedPackages: []jsonapi.VettedPackages{}}}, nil, "a DAR over 8 MiB")
	})
}

// TestPackageAuthorization: uploads, validation and vetting changes need
// ParticipantAdmin; reads need any authenticated user.
func TestPackageAuthorization(t *testing.T) {
	t.Parallel()
	verifier := fakeVerifier{
		"admin-token": {UserID: identity.DefaultParticipantAdmin},
		"alice-token": {UserID: "alice"},
	}
	h := newHarness(t, Options{Verifier: verifier})
	if _, err := jsonapi.New(h.node).CreateUser(context.Background(), jsonapi.CreateUserRequest{User: identity.User{ID: "alice"}}); err != nil {
		t.Fatal(err)
	}
	admin, alice := bearer("admin-token"), bearer("alice-token")
	d, ids := lftest.DAR(lftest.TemplatePackage("app", "1.0.0", nil, owner))
	d2, ids2 := lftest.DAR(lftest.TemplatePackage("app2", "1.0.0", nil, owner))
	wantEmptyObject(t, h.do(darCall("/v2/dars", d, admin)))
	wantEmptyObject(t, h.do(darCall("/v2/dars?vetAllPackages=false", d2, admin)))
	before := h.pkgState(admin)
	update := js(t, updateReq(vetChange(ref(ids2[0]))))

	writes := []httpCall{
		darCall("/v2/dars/validate", d2, nil),
		darCall("/v2/dars", d2, nil),
		darCall("/v2/packages", d2, nil),
		{method: "POST", target: "/v2/package-vetting", body: update},
		{method: "POST", target: "/v2/package-vetting/update", body: update},
	}
	for _, c := range writes {
		c.header = alice
		e := wantCantonError(t, h.do(c), 403, "NA")
		if e.GRPCCodeValue == nil || *e.GRPCCodeValue != 7 {
			t.Errorf("%s %s: %+v, want the redacted PERMISSION_DENIED", c.method, c.target, e)
		}
	}
	reads := []httpCall{
		{method: "GET", target: "/v2/packages"},
		{method: "GET", target: "/v2/packages/" + ids[0]},
		{method: "GET", target: "/v2/packages/" + ids[0] + "/status"},
		{method: "POST", target: "/v2/package-vetting/list", body: `{}`},
		{method: "GET", target: "/v2/package-vetting"},
	}
	for _, c := range append(writes, reads...) {
		c.header = nil
		wantCantonError(t, h.do(c), 401, "NA")
	}
	for _, c := range reads {
		c.header = alice
		if rec := h.do(c); rec.Code != http.StatusOK {
			t.Errorf("alice %s %s: %d %s", c.method, c.target, rec.Code, rec.Body)
		}
	}
	h.wantUnchanged(before, admin, "denied requests")
	if diff := cmp.Diff(before, h.pkgState(alice)); diff != "" {
		t.Errorf("alice sees another state (-admin +alice):\n%s", diff)
	}
	// The admin may do what alice may not.
	for _, c := range writes {
		c.header = admin
		if rec := h.do(c); rec.Code != http.StatusOK {
			t.Errorf("admin %s %s: %d %s", c.method, c.target, rec.Code, rec.Body)
		}
	}
}

func TestPackageRoutesWrongMethod(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{})
	for _, tt := range []struct{ method, target, allow string }{
		{"GET", "/v2/dars", "POST"},
		{"GET", "/v2/dars/validate", "POST"},
		{"PUT", "/v2/packages", "GET, POST"},
		{"POST", "/v2/packages/00ff", "GET"},
		{"DELETE", "/v2/packages/00ff/status", "GET"},
		{"PUT", "/v2/package-vetting", "GET, POST"},
		{"GET", "/v2/package-vetting/list", "POST"},
		{"GET", "/v2/package-vetting/update", "POST"},
	} {
		rec := h.do(httpCall{method: tt.method, target: tt.target})
		wantText(t, rec, http.StatusMethodNotAllowed, "Method Not Allowed")
		if got := rec.Header().Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: Allow %q, want %q", tt.method, tt.target, got, tt.allow)
		}
	}
	for _, target := range []string{"/v2/packages/", "/v2/packages/00ff/", "/v2/packages/00ff/status/x", "/v2/package-vetting/x"} {
		if rec := h.do(httpCall{method: "GET", target: target}); rec.Code != 404 {
			t.Errorf("GET %s: %d, want 404", target, rec.Code)
		}
	}
}

// TestBinaryResponse checks the binary result type on its own.
func TestBinaryResponse(t *testing.T) {
	a := New(nil, Options{Logger: discardLogger()}).(*handler).a
	rec := httptest.NewRecorder()
	payload := []byte{0, 1, 2, 0xff}
	a.respond(rec, httptest.NewRequest("GET", "/x", nil), binary{contentType: "application/octet-stream",
		header: http.Header{"canton-package-hash": {"abc"}}, body: payload})
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), payload) ||
		rec.Header().Get("Content-Type") != "application/octet-stream" ||
		rec.Header().Get("Canton-Package-Hash") != "abc" || rec.Header().Get("Content-Length") != "4" {
		t.Errorf("binary answer: %d %v %q", rec.Code, rec.Header(), rec.Body.Bytes())
	}
}
