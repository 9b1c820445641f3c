package ledger_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/vetting"
)

const darDir = "../../shared/testdata/dars"

// realDAR reads the DAR name of the project's shared test data (../shared,
// outside the repository), or skips tb when it is absent. It stays here
// rather than in ledgertest: an application's tests have no ../shared.
func realDAR(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(darDir, name))
	if err != nil {
		tb.Skipf("../shared not found: skipping the real-DAR test (%v)", err)
	}
	return b
}

var owner = lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}

func dar(t *testing.T, main lftest.Package, deps ...lftest.Package) ([]byte, []string) {
	t.Helper()
	return lftest.DAR(main, deps...)
}

func vet(refs ...vetting.Ref) vetting.Change { return vetting.Change{Op: vetting.Vet, Refs: refs} }

func unvet(refs ...vetting.Ref) vetting.Change { return vetting.Change{Op: vetting.Unvet, Refs: refs} }

func byID(id string) vetting.Ref { return vetting.Ref{PackageID: id} }

// vettingUpdate is the past and new states UpdateVettedPackages returns.
type vettingUpdate struct {
	Past *vetting.State
	New  vetting.State
}

func updateVetting(ctx context.Context, n *ledger.Node, req ledger.UpdateVettedPackagesRequest) (vettingUpdate, error) {
	past, next, err := n.UpdateVettedPackages(ctx, req)
	return vettingUpdate{past, next}, err
}

func vettedIDs(v vetting.State) []string {
	var ids []string
	for _, p := range v.Packages {
		ids = append(ids, p.PackageID)
	}
	return ids
}

func listVetted(t *testing.T, n *ledger.Node) []vetting.State {
	t.Helper()
	l, next, err := n.ListVettedPackages(context.Background(), ledger.ListVettedPackagesRequest{})
	if err != nil || next != "" {
		t.Fatal(next, err)
	}
	return l
}

func TestRealDARs(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(darDir); err != nil {
		t.Skipf("../shared not found: skipping the real-DAR test (%v)", err)
	}
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		file string
		code *apierr.Code
	}{
		{"canton-builtin-admin-workflow-ping.dar", nil},
		{"canton-builtin-admin-workflow-party-replication-alpha.dar", nil},
		{"DamlDefinitionsServiceMain.dar", &apierr.AllowedLanguageVersions},
		{"dummy-1.15.dar", &apierr.AllowedLanguageVersions},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data := realDAR(t, tc.file)
			before := ledger.StoreDumpForTest(t, n)
			err := n.ValidateDAR(ctx, data, "")
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
				t.Fatalf("validation changed the store:\n%s", diff)
			}
			uerr := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: data})
			if tc.code != nil {
				if !errors.Is(err, *tc.code) || !errors.Is(uerr, *tc.code) {
					t.Fatalf("validate: %v; upload: %v; want %s", err, uerr, tc.code.Name)
				}
				if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
					t.Fatalf("refused upload changed the store:\n%s", diff)
				}
				return
			}
			if err != nil || uerr != nil {
				t.Fatalf("validate: %v; upload: %v", err, uerr)
			}
		})
	}
	ping := "de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54"
	st, err := n.PackageStatus(ctx, ping)
	if err != nil || !st {
		t.Errorf("ping status = %+v, %v", st, err)
	}
	arch, err := n.GetPackage(ctx, ping)
	if err != nil || arch.Hash != ping || len(arch.Payload) == 0 {
		t.Errorf("GetPackage(ping) = %d bytes, hash %q, %v", len(arch.Payload), arch.Hash, err)
	}
	l := listVetted(t, n)
	if len(l) != 1 || l[0].Serial != 2 {
		t.Fatalf("vetting state after two uploads: %+v", l)
	}
	// Uploading the same DAR again is idempotent.
	before := ledger.StoreDumpForTest(t, n)
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: realDAR(t, "canton-builtin-admin-workflow-ping.dar")}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
		t.Errorf("second upload of the same DAR changed the store:\n%s", diff)
	}
	// DamlDefinitionsServiceMain is accepted with dev LF allowed.
	dev := ledgertest.Open(t, ledger.Options{AllowDevLF: true})
	if err := dev.UploadDAR(ctx, ledger.UploadDARRequest{DAR: realDAR(t, "DamlDefinitionsServiceMain.dar")}); err != nil {
		t.Errorf("2.dev DAR with AllowDevLF: %v", err)
	}
}

func TestPackageReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	n, err := ledger.Open(ledger.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	d, ids := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner))
	ledgertest.MustUploadDAR(t, n, d)
	want := listVetted(t, n)
	n.Close()
	n, err = ledger.Open(ledger.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if diff := cmp.Diff(want, listVetted(t, n)); diff != "" {
		t.Errorf("vetting after reopen (-want +got):\n%s", diff)
	}
	v2, _ := dar(t, lftest.TemplatePackage("app", "2.0.0", nil, owner, lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))}))
	if err := n.ValidateDAR(ctx, v2, ""); err != nil {
		t.Errorf("a valid upgrade after reopen: %v", err)
	}
	if st, _ := n.PackageStatus(ctx, ids[0]); !st {
		t.Errorf("package lost after reopen")
	}
}

func TestUpgradeChecksOnUploadAndVetting(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	v1, _ := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner))
	ledgertest.MustUploadDAR(t, n, v1)
	good, _ := dar(t, lftest.TemplatePackage("app", "2.0.0", nil, owner, lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))}))
	bad, badIDs := dar(t, lftest.TemplatePackage("app", "3.0.0", nil, owner, lftest.Field{Name: "amount", Type: lftest.B(lftest.Int64)}))
	sameVersion, _ := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner, lftest.Field{Name: "x", Type: lftest.Opt(lftest.B(lftest.Int64))}))
	for _, tc := range []struct {
		name string
		dar  []byte
		code *apierr.Code
	}{
		{"non-optional field added", bad, &apierr.NotValidUpgradePackage},
		{"same name and version", sameVersion, &apierr.KnownPackageVersion},
		{"garbage", []byte("not a zip"), &apierr.InvalidDar},
		{"valid upgrade", good, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := ledger.StoreDumpForTest(t, n)
			verr := n.ValidateDAR(ctx, tc.dar, "")
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
				t.Fatalf("validation changed the store:\n%s", diff)
			}
			uerr := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: tc.dar})
			if tc.code == nil {
				if verr != nil || uerr != nil {
					t.Fatalf("validate %v, upload %v", verr, uerr)
				}
				return
			}
			if !errors.Is(verr, *tc.code) || !errors.Is(uerr, *tc.code) {
				t.Fatalf("validate %v, upload %v; want %s", verr, uerr, tc.code.Name)
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
				t.Fatalf("refused upload changed the store:\n%s", diff)
			}
		})
	}
	// Without vetting the incompatible package is stored; vetting it fails
	// unless forced.
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: bad, DontVet: true}); err != nil {
		t.Fatal(err)
	}
	req := ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID(badIDs[0]))}}
	if _, _, err := n.UpdateVettedPackages(ctx, req); !errors.Is(err, apierr.NotValidUpgradePackage) {
		t.Fatalf("vetting an incompatible upgrade: %v", err)
	}
	req.Flags.AllowVetIncompatibleUpgrades = true
	if _, _, err := n.UpdateVettedPackages(ctx, req); err != nil {
		t.Fatalf("forced: %v", err)
	}
}

func TestVettingChanges(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	lib := lftest.TemplatePackage("lib", "1.0.0", nil, owner)
	libID, _ := lftest.Dalf(lib)
	app := lftest.TemplatePackage("app", "1.0.0", []string{libID}, owner)
	d, ids := dar(t, app, lib)
	appID := ids[0]
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d, DontVet: true}); err != nil {
		t.Fatal(err)
	}
	other, otherIDs := dar(t, lftest.TemplatePackage("other", "1.0.0", nil, owner))
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: other, DontVet: true}); err != nil {
		t.Fatal(err)
	}
	twin, _ := dar(t, lftest.TemplatePackage("other", "2.0.0", nil, owner))
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: twin, DontVet: true}); err != nil {
		t.Fatal(err)
	}
	prior := func(v int32) vetting.SerialExpectation { return vetting.PriorSerial(v) }
	noPrior := vetting.NoPriorSerial{}
	for _, tc := range []struct {
		name string
		req  ledger.UpdateVettedPackagesRequest
		code apierr.Code
	}{
		{"dependency not vetted", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID(appID))}}, apierr.TopologyDependenciesNotVetted},
		{"unknown package id", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID("00ff"))}}, apierr.TopologyCannotVetDueToMissingPackages},
		{"unknown name", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(vetting.Ref{PackageName: "nope"})}}, apierr.UnresolvedVettingReference},
		{"ambiguous name", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(vetting.Ref{PackageName: "other"})}}, apierr.AmbiguousVettingReference},
		{"empty ref", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(vetting.Ref{PackageVersion: "1.0.0"})}}, apierr.InvalidArgument},
		{"no changes", ledger.UpdateVettedPackagesRequest{}, apierr.MissingField},
		{"empty operation", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{{}}}, apierr.MissingField},
		{"wrong prior serial", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID(libID))}, ExpectedSerial: prior(3)}, apierr.TopologySerialMismatch},
		{"unknown synchronizer", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID(libID))}, SynchronizerID: "x::1220ab"}, apierr.PackageServiceNotConnectedToSynchronizer},
		{"not admin", ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID(libID))}}, apierr.PermissionDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ctx
			if tc.code == apierr.PermissionDenied {
				c = ledger.WithPrincipal(ctx, identity.Principal{UserID: "u"})
			}
			before := ledger.StoreDumpForTest(t, n)
			for _, dry := range []bool{true, false} {
				r := tc.req
				r.DryRun = dry
				if _, _, err := n.UpdateVettedPackages(c, r); !errors.Is(err, tc.code) {
					t.Fatalf("dryRun=%v: err = %v, want %s", dry, err, tc.code.Name)
				}
			}
			if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
				t.Fatalf("state changed:\n%s", diff)
			}
		})
	}

	// A dry run answers what the real run does, and changes nothing.
	req := ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{vet(byID(appID), byID(libID))}, ExpectedSerial: noPrior, DryRun: true}
	before := ledger.StoreDumpForTest(t, n)
	dry, err := updateVetting(ctx, n, req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
		t.Fatalf("dry run changed the store:\n%s", diff)
	}
	req.DryRun = false
	real, err := updateVetting(ctx, n, req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(dry, real); diff != "" {
		t.Errorf("dry run and real run differ (-dry +real):\n%s", diff)
	}
	if real.Past != nil || real.New.Serial != 1 {
		t.Errorf("first change set: past %+v, serial %d", real.Past, real.New.Serial)
	}
	if diff := cmp.Diff([]string{appID, libID}, vettedIDs(real.New)); diff != "" {
		t.Errorf("vetted, sorted by name (-want +got):\n%s", diff)
	}
	if p := real.New.Packages[0]; p.PackageName != "app" || p.PackageVersion != "1.0.0" {
		t.Errorf("vetted package %+v lacks name and version", p)
	}

	// Bounds overwrite; unvet keeps the others; serial moves by one.
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	withBounds := vet(byID(otherIDs[0]))
	withBounds.ValidFrom = &from
	resp, err := updateVetting(ctx, n, ledger.UpdateVettedPackagesRequest{
		Changes: []vetting.Change{withBounds, unvet(byID(appID))}, ExpectedSerial: prior(1)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.New.Serial != 2 || resp.Past == nil || resp.Past.Serial != 1 {
		t.Errorf("second change set serials: %+v", resp)
	}
	if diff := cmp.Diff([]string{libID, otherIDs[0]}, vettedIDs(resp.New)); diff != "" {
		t.Errorf("after unvet (-want +got):\n%s", diff)
	}
	if got := resp.New.Packages[1].ValidFrom; got == nil || !got.Equal(from) {
		t.Errorf("bounds = %v", got)
	}
	// Unvetting a dependency of a vetted package is refused.
	if _, _, err := n.UpdateVettedPackages(ctx, ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{
		vet(byID(appID)), unvet(byID(libID))}}); !errors.Is(err, apierr.TopologyDependenciesNotVetted) {
		t.Errorf("unvetting a dependency: %v", err)
	}
	if _, _, err := n.UpdateVettedPackages(ctx, ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{
		vet(byID(appID)), unvet(byID(libID))}, Flags: vetting.Flags{AllowUnvettedDependencies: true}}); err != nil {
		t.Errorf("unvetting a dependency, forced: %v", err)
	}
}

func TestVettingSynchronizerAutodetect(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{Synchronizers: []string{"a::1220aa", "b::1220bb"}})
	ctx := context.Background()
	d, ids := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner))
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d}); !errors.Is(err, apierr.PackageServiceCannotAutodetectSynchronizer) {
		t.Fatalf("upload with two synchronizers: %v", err)
	}
	if err := n.ValidateDAR(ctx, d, ""); err != nil {
		t.Fatalf("validate uses the default synchronizer: %v", err)
	}
	if err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d, SynchronizerID: "b::1220bb"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := n.UpdateVettedPackages(ctx, ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{unvet(byID(ids[0]))}}); !errors.Is(err, apierr.PackageServiceCannotAutodetectSynchronizer) {
		t.Fatalf("vetting with two synchronizers: %v", err)
	}
	l := listVetted(t, n)
	if len(l) != 1 || l[0].SynchronizerID != "b::1220bb" {
		t.Fatalf("vetting states: %+v", l)
	}
	f, _, _ := n.ListVettedPackages(ctx, ledger.ListVettedPackagesRequest{SynchronizerIDs: []string{"a::1220aa"}})
	if len(f) != 0 {
		t.Errorf("filtered by synchronizer a: %+v", f)
	}
	f, _, _ = n.ListVettedPackages(ctx, ledger.ListVettedPackagesRequest{PackageNamePrefixes: []string{"zz"}})
	if len(f) != 0 {
		t.Errorf("filtered by name prefix zz: %+v", f)
	}
	if st, _ := n.PackageStatus(ctx, "00ff"); st {
		t.Errorf("unknown package status %+v", st)
	}
	if _, err := n.GetPackage(ctx, "00ff"); !errors.Is(err, apierr.PackageNotFound) {
		t.Errorf("unknown package: %v", err)
	}
}

// A refused upload must not remove the payload of a package that a
// concurrent upload of the same DAR records (helper-found race).
func TestConcurrentUploadsKeepPayloads(t *testing.T) {
	t.Parallel()
	for round := range 20 {
		n := ledgertest.Open(t, ledger.Options{})
		ctx := context.Background()
		y, _ := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner))
		ledgertest.MustUploadDAR(t, n, y)
		x, ids := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner, lftest.Field{Name: "x", Type: lftest.Opt(lftest.B(lftest.Text))}))
		done := make(chan error, 2)
		go func() { err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: x, DontVet: true}); done <- err }()
		go func() { err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: x}); done <- err }()
		<-done
		<-done
		if st, _ := n.PackageStatus(ctx, ids[0]); st {
			if _, err := n.GetPackage(ctx, ids[0]); err != nil {
				t.Fatalf("round %d: registered package without payload: %v", round, err)
			}
		}
	}
}

func TestReuploadKeepsBounds(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	d, ids := dar(t, lftest.TemplatePackage("app", "1.0.0", nil, owner))
	ledgertest.MustUploadDAR(t, n, d)
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := vet(byID(ids[0]))
	c.ValidFrom = &from
	if _, _, err := n.UpdateVettedPackages(ctx, ledger.UpdateVettedPackagesRequest{Changes: []vetting.Change{c}}); err != nil {
		t.Fatal(err)
	}
	before := ledger.StoreDumpForTest(t, n)
	ledgertest.MustUploadDAR(t, n, d)
	if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
		t.Errorf("re-upload changed the store:\n%s", diff)
	}
}

// TestDamlAfterReopenAndRestore: a node reopened on its directory, or
// restored from a snapshot, runs the Daml of the packages it stores —
// creates and exercises, on contracts from before and after — though it
// never uploaded them itself. Each node has its own engine, which reads
// packages from its node's store; the separate-process tests of
// examples/ledgerd and TestDamlCrashRounds check the same where no
// process-wide cache exists at all.
func TestDamlAfterReopenAndRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, ids := lftest.DAR(lftest.IouPackage("1.0.0"))
	iou := ids[0] + ":Main:Iou"
	create := func(t *testing.T, n *ledger.Node, id, alice string) string {
		t.Helper()
		resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
			CommandID: id, ActAs: []string{alice}, UserID: "u",
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: iou,
				CreateArguments: json.RawMessage(`{"owner":"` + alice + `","amount":"1"}`)}}}}}))
		if err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
		return resp.Transaction.Events[0].CreatedEvent.ContractID
	}
	exercise := func(t *testing.T, n *ledger.Node, id, alice, cid, choice, arg string) {
		t.Helper()
		_, err := jsonapi.New(n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: id, ActAs: []string{alice}, UserID: "u",
			Commands: []jsonapi.JsCommand{{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: iou, ContractID: cid,
				Choice: choice, ChoiceArgument: json.RawMessage(arg)}}}})
		if err != nil {
			t.Fatalf("exercise %s: %v", choice, err)
		}
	}
	for _, tc := range []struct {
		name   string
		reopen func(t *testing.T, n *ledger.Node, dir string) *ledger.Node
	}{
		{"reopened directory", func(t *testing.T, n *ledger.Node, dir string) *ledger.Node {
			n.Close()
			m, err := ledger.Open(ledger.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}},
		{"restored snapshot", func(t *testing.T, n *ledger.Node, _ string) *ledger.Node {
			var snap bytes.Buffer
			if err := n.Snapshot(ctx, &snap); err != nil {
				t.Fatal(err)
			}
			n.Close()
			m, err := ledger.Open(ledger.Options{InMemory: true, Restore: &snap})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			n, err := ledger.Open(ledger.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			ledgertest.MustUploadDAR(t, n, d)
			alice := ledgertest.MustAllocate(t, n, "alice")
			before := create(t, n, "before", alice)
			n = tc.reopen(t, n, dir)
			defer n.Close()
			after := create(t, n, "after", alice)
			exercise(t, n, "peek", alice, after, "Peek", `{}`)
			exercise(t, n, "transfer", alice, before, "Transfer", `{"newOwner":"`+alice+`"}`)
		})
	}
}

// TestIllTypedDARRefused: a DAR with a package that does not type-check
// (a value of type Bool defined as ()) is refused on validate and on
// upload with DAR_VALIDATION_ERROR, its validator error in the context,
// and leaves no trace: the package is not listed and the ledger end does
// not move. Before the type checker ran on upload, both accepted it and
// the upload stored it.
func TestIllTypedDARRefused(t *testing.T) {
	t.Parallel()
	bad := lftest.Package{Name: "bad", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Mod",
		Values: []lftest.Value{{Name: "x", Type: lftest.B(lftest.Bool), Expr: &lf.EBuiltinCon{Con: lf.ConUnit}}}}}}
	synthetic, _ := lftest.DAR(bad)
	for _, tc := range []struct {
		name string
		dar  func(t *testing.T) []byte
	}{
		{"lftest value of the wrong type", func(*testing.T) []byte { return synthetic }},
		{"illformed.dar", func(t *testing.T) []byte { return realDAR(t, "illformed.dar") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := tc.dar(t)
			n := ledgertest.Open(t, ledger.Options{})
			ctx := t.Context()
			before, _ := n.LedgerEnd(ctx)
			for _, op := range []struct {
				name string
				run  func() error
			}{
				{"validate", func() error { err := n.ValidateDAR(ctx, d, ""); return err }},
				{"upload", func() error { err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d}); return err }},
				{"upload without vetting", func() error {
					err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d, DontVet: true})
					return err
				}},
			} {
				err := op.run()
				var ae *apierr.Error
				if !errors.As(err, &ae) || ae.Code != apierr.DarValidationError || ae.Cause != "Package validation failed." ||
					!strings.Contains(ae.Context["validationError"], "com.digitalasset.daml.lf.validation.ETypeMismatch: ") {
					t.Errorf("%s: %v (context %v), want DAR_VALIDATION_ERROR with an ETypeMismatch", op.name, err, ae)
				}
			}
			pkgs, err := n.ListPackages(ctx)
			if err != nil || len(pkgs) != 0 {
				t.Errorf("packages after the refusals: %v (%v), want none", pkgs, err)
			}
			if after, _ := n.LedgerEnd(ctx); after != before {
				t.Errorf("ledger end %v after the refusals, was %v", after, before)
			}
		})
	}
}

// TestStoredUncheckedPackageCheckedElsewhere: a node whose store holds a
// package that does not type-check (written before uploads were checked)
// takes it as it is when the DAR is uploaded again, but that does not make
// the package checked for the other nodes of the process: a node that does
// not store it still refuses the DAR with DAR_VALIDATION_ERROR, on
// validate and on upload, storing nothing.
func TestStoredUncheckedPackageCheckedElsewhere(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	// A package of its own (no other test's DAR shares its id): the type
	// checker's memory is the process's.
	bad := lftest.Package{Name: "bad-stored", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Mod",
		Values: []lftest.Value{{Name: "x", Type: lftest.B(lftest.Bool), Expr: &lf.EBuiltinCon{Con: lf.ConUnit}}}}}}
	d, _ := lftest.DAR(bad)
	old := ledgertest.Open(t, ledger.Options{})
	ledger.StoreDARUncheckedForTest(t, old, d)
	if err := old.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d, DontVet: true}); err != nil {
		t.Fatalf("uploading again the DAR the store holds: %v", err)
	}

	n := ledgertest.Open(t, ledger.Options{})
	before := ledger.StoreDumpForTest(t, n)
	for _, op := range []struct {
		name string
		run  func() error
	}{
		{"validate", func() error { err := n.ValidateDAR(ctx, d, ""); return err }},
		{"upload", func() error { err := n.UploadDAR(ctx, ledger.UploadDARRequest{DAR: d}); return err }},
	} {
		if err := op.run(); !errors.Is(err, apierr.DarValidationError) {
			t.Errorf("%s on a node without the package: %v, want DAR_VALIDATION_ERROR", op.name, err)
		}
	}
	if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, n)); diff != "" {
		t.Errorf("the refusals changed the store (-before +after):\n%s", diff)
	}
}
