package lf

import (
	"path"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const (
	pingMain        = "de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54"
	pingPrim        = "590736e6f7bc01492007ecb27f3fe75995c19fbd3d41b384aada69619fd4f76c"
	pingStdlib      = "99ea07e101ed25cdb8584e072278d8df62e10d72c172bfe1621ba0a51cee61ce"
	prMain          = "8541ef08471ba3c76985347802fce4f7133435cb12110b9c9a1c050c7cb8b8c5"
	prStdlib        = "4727ae8764b266701d92dbc3832178d3f68da99446035523d97b0bb05b519890"
	defsMain        = "14f62ac81f5802d0a02aaf6516ac066a96b0ccb170bd64d271cc69ff4bd92da8"
	defsDep         = "8647afd5a9d03559ca543929fd840e28dfe8c76cd495f049d9df781c5ac387ee"
	illformedID     = "dc0563f935abf08b498003bcf8ec6b070a619ff05ae4a091572863947cc8901c"
	daTypes         = "5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4"
	daInternalTempl = "9e70a8b3510d617f8a136213f33d6a903a10ca0eeec76bb06ba55d1ed9680f69"
)

// pkgSummary is what the table below checks of a package.
type pkgSummary struct {
	ID, Name, Version, LF string
}

func TestRealDARs(t *testing.T) {
	idInName := regexp.MustCompile(`-([0-9a-f]{64})\.dalf$`)
	tests := []struct {
		file     string
		opts     ReadOptions
		wantKind ErrorKind
		main     pkgSummary
		// also: packages that must be in the DAR, with their metadata
		others  []pkgSummary
		modules []string
		imports []string
		count   int
	}{
		{
			file: "canton-builtin-admin-workflow-ping.dar",
			main: pkgSummary{pingMain, "canton-builtin-admin-workflow-ping", "3.4.0", "2.2"},
			others: []pkgSummary{
				{pingPrim, "daml-prim", "0.0.0", "2.2"},
				{pingStdlib, "daml-stdlib", "3.4.0.20251020.14338.0", "2.2"},
				{daTypes, "daml-prim-DA-Types", "1.0.0", "2.1"},
				{"6f8e6085f5769861ae7a40dccd618d6f747297d59b37cab89b93e2fa80b0c024", "ghc-stdlib-DA-Internal-Any", "1.0.0", "2.1"},
				{daInternalTempl, "ghc-stdlib-DA-Internal-Template", "1.0.0", "2.1"},
			},
			modules: []string{"Canton.Internal.Bong", "Canton.Internal.Ping", "CantonBuiltinAdminWorkflowPing"},
			imports: []string{pingPrim, pingStdlib},
			count:   30,
		},
		{
			file: "canton-builtin-admin-workflow-party-replication-alpha.dar",
			main: pkgSummary{prMain, "canton-builtin-admin-workflow-party-replication-alpha", "3.5.0", "2.2"},
			others: []pkgSummary{
				{pingPrim, "daml-prim", "0.0.0", "2.2"},
				{prStdlib, "daml-stdlib", "3.5.0.20251016.14332.0", "2.2"},
			},
			count: 30,
		},
		{file: "DamlDefinitionsServiceMain.dar", wantKind: KindLanguageVersion},
		{
			file: "DamlDefinitionsServiceMain.dar",
			opts: ReadOptions{AllowDevLF: true},
			main: pkgSummary{defsMain, "DamlDefinitionsServiceMain", "3.4.0", "2.dev"},
			others: []pkgSummary{
				{defsDep, "DamlDefinitionsServiceDep", "3.4.0", "2.dev"},
			},
			count: 31,
		},
		{file: "dummy-1.15.dar", wantKind: KindLanguageVersion},
		{file: "dummy-1.15.dar", opts: ReadOptions{AllowDevLF: true}, wantKind: KindLanguageVersion},
		{
			// Decodes; only a type checker rejects it (DAR_VALIDATION_ERROR).
			file:    "illformed.dar",
			main:    pkgSummary{illformedID, "encoder_binary", "1.0.0", "2.1"},
			modules: []string{"Mod"},
			count:   1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file+map[bool]string{true: "/dev", false: ""}[tt.opts.AllowDevLF], func(t *testing.T) {
			dar, err := ReadDAR(realDAR(t, tt.file), tt.opts)
			if got := kindOf(err); got != tt.wantKind {
				t.Fatalf("ReadDAR: kind %v (%v), want %v", got, err, tt.wantKind)
			}
			if err != nil {
				return
			}
			sum := func(p *Package) pkgSummary {
				return pkgSummary{p.ID, p.Name, p.Version, p.LanguageVersion.String()}
			}
			if diff := cmp.Diff(tt.main, sum(dar.Main)); diff != "" {
				t.Errorf("main package (-want +got):\n%s", diff)
			}
			for _, want := range tt.others {
				p := dar.Package(want.ID)
				if p == nil {
					t.Errorf("package %s (%s) missing", want.ID, want.Name)
					continue
				}
				if diff := cmp.Diff(want, sum(p)); diff != "" {
					t.Errorf("package %s (-want +got):\n%s", want.Name, diff)
				}
			}
			if len(dar.Packages) != tt.count || len(dar.Manifest.Dalfs)+1 != tt.count {
				t.Errorf("%d packages, %d dependency dalfs; want %d packages", len(dar.Packages), len(dar.Manifest.Dalfs), tt.count)
			}
			// Every dalf's package id (SHA-256 of its payload, equal to its
			// hash field) is the id in its file name.
			for id, p := range dar.DalfPaths {
				if m := idInName.FindStringSubmatch(path.Base(p)); m != nil && m[1] != id {
					t.Errorf("dalf %s decodes to package id %s", p, id)
				}
				if PackageID(dar.Package(id).Payload) != id {
					t.Errorf("package %s: payload hash mismatch", id)
				}
			}
			if tt.modules != nil {
				var mods []string
				for _, m := range dar.Main.Modules {
					mods = append(mods, m.Name)
				}
				if diff := cmp.Diff(tt.modules, mods, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
					t.Errorf("modules (-want +got):\n%s", diff)
				}
			}
			if tt.imports != nil {
				if diff := cmp.Diff(tt.imports, dar.Main.Imports); diff != "" || !dar.Main.ImportsDeclared {
					t.Errorf("imports (declared %v) (-want +got):\n%s", dar.Main.ImportsDeclared, diff)
				}
			}
			// The real DARs are self-consistent.
			if err := dar.CheckDependencies(); err != nil {
				t.Errorf("CheckDependencies: %v", err)
			}
			// Stable packages are the LF 2.1 utility packages; daml-prim and
			// daml-stdlib are utility packages.
			for _, p := range dar.Packages {
				if p.IsStable() && (p.LanguageVersion != LF21 || p.Version != "1.0.0") {
					t.Errorf("stable package %s is %s %s", p.Name, p.LanguageVersion, p.Version)
				}
				if (p.Name == "daml-prim" || p.Name == "daml-stdlib") && !p.IsUtility() {
					t.Errorf("%s %s is not a utility package", p.Name, p.ID)
				}
			}
		})
	}
}

func TestRealStablePackages(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var inDAR []string
	for _, p := range dar.Packages {
		if p.IsStable() {
			inDAR = append(inDAR, p.ID)
		}
	}
	if diff := cmp.Diff(StablePackageIDs(), inDAR, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("stable packages in the ping DAR (-want +got):\n%s", diff)
	}
}

var ignoreIndexes = cmp.Options{cmpopts.IgnoreUnexported(Package{}, Module{}),
	// A value compares by its name, type and body, decoded or not.
	cmp.Transformer("DefValue", func(v *DefValue) defValueView {
		if v == nil {
			return defValueView{}
		}
		return defValueView{v.Name, v.Type, v.Body()}
	})}

// defValueView is what a DefValue holds, for cmp.
type defValueView struct {
	Name string
	Type Type
	Body Expr
}

func TestRealPingTemplates(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-ping.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := dar.Main
	ping := func(n string) Type { return tcon(pingMain, "Canton.Internal.Ping", n) }
	bong := func(n string) Type { return tcon(pingMain, "Canton.Internal.Bong", n) }
	archive := tcon(daInternalTempl, "DA.Internal.Template", "Archive")
	unit := tb(BuiltinUnit)
	party := tb(BuiltinParty)
	text := tb(BuiltinText)
	parties := tapp(tb(BuiltinList), party)
	cid := func(t Type) Type { return tapp(tb(BuiltinContractID), t) }
	either := func(a, b Type) Type { return tapp(tcon(daTypes, "DA.Types", "Either"), a, b) }
	tuple2 := func(a, b Type) Type { return tapp(tcon(daTypes, "DA.Types", "Tuple2"), a, b) }

	dataTypes := []struct {
		module string
		want   *DataType
	}{
		{"Canton.Internal.Ping", &DataType{Name: "Ping", Serializable: true, Variety: RecordVariety, Fields: []Field{
			{"id", text}, {"initiator", party}, {"responder", party}}}},
		{"Canton.Internal.Ping", &DataType{Name: "Respond", Serializable: true, Variety: RecordVariety}},
		{"Canton.Internal.Ping", &DataType{Name: "AbortPing", Serializable: true, Variety: RecordVariety, Fields: []Field{{"anyone", party}}}},
		{"Canton.Internal.Bong", &DataType{Name: "Collapse", Serializable: true, Variety: RecordVariety, Fields: []Field{
			{"id", text}, {"initiator", party}, {"validators", parties}, {"responders", parties},
			{"path", text}, {"timeout", tb(BuiltinTimestamp)}}}},
		{"Canton.Internal.Bong", &DataType{Name: "ProcessMerge", Serializable: true, Variety: RecordVariety, Fields: []Field{
			{"winner", party}, {"leftId", cid(bong("Collapse"))}, {"rightId", cid(bong("Collapse"))}}}},
		{"Canton.Internal.Bong", &DataType{Name: "Explode", Serializable: true, Variety: RecordVariety, Fields: []Field{
			{"id", text}, {"initiator", party}, {"validators", parties}, {"responders", parties},
			{"path", text}, {"maxLevel", tb(BuiltinInt64)}, {"timeout", tb(BuiltinTimestamp)}}}},
	}
	for _, tt := range dataTypes {
		got := p.DataType(tt.module, tt.want.Name)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("data type %s:%s (-want +got):\n%s", tt.module, tt.want.Name, diff)
		}
	}

	choices := []struct {
		module, template string
		want             *Choice
	}{
		{"Canton.Internal.Ping", "Ping", &Choice{Name: "Respond", Consuming: true, ArgBinder: "arg", ArgType: ping("Respond"), ReturnType: unit, SelfBinder: "self"}},
		{"Canton.Internal.Ping", "Ping", &Choice{Name: "Archive", Consuming: true, ArgBinder: "arg", ArgType: archive, ReturnType: unit, SelfBinder: "self"}},
		{"Canton.Internal.Ping", "Ping", &Choice{Name: "AbortPing", Consuming: true, ArgBinder: "arg", ArgType: ping("AbortPing"), ReturnType: unit, SelfBinder: "self"}},
		{"Canton.Internal.Bong", "BongProposal", &Choice{Name: "Accept", Consuming: true, ArgBinder: "arg", ArgType: bong("Accept"),
			ReturnType: either(cid(bong("BongProposal")), cid(bong("Explode"))), SelfBinder: "self"}},
		{"Canton.Internal.Bong", "Explode", &Choice{Name: "ProcessExplode", Consuming: true, ArgBinder: "arg", ArgType: bong("ProcessExplode"),
			ReturnType: tuple2(cid(bong("Merge")), either(tuple2(cid(bong("Explode")), cid(bong("Explode"))), tuple2(cid(bong("Collapse")), cid(bong("Collapse"))))),
			SelfBinder: "self"}},
		{"Canton.Internal.Bong", "Merge", &Choice{Name: "ProcessMerge", Consuming: true, ArgBinder: "arg", ArgType: bong("ProcessMerge"),
			ReturnType: either(cid(bong("Bong")), cid(bong("Collapse"))), SelfBinder: "self"}},
	}
	for _, tt := range choices {
		got := p.Choice(tt.module, tt.template, tt.want.Name)
		// The expressions are checked by TestRealPingExpressions.
		if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Choice{}, "Controllers", "Observers", "Update")); diff != "" {
			t.Errorf("choice %s:%s.%s (-want +got):\n%s", tt.module, tt.template, tt.want.Name, diff)
		}
	}

	// Templates: payload record of the same name, no key, no interfaces;
	// every template has Archive.
	wantChoices := map[string][]string{
		"Canton.Internal.Ping:Ping":         {"Respond", "Archive", "AbortPing"},
		"Canton.Internal.Bong:Bong":         {"Ack", "AbortBong", "Archive"},
		"Canton.Internal.Bong:BongProposal": {"Accept", "AbortBongProposal", "Archive"},
		"Canton.Internal.Bong:Collapse":     {"ProcessCollapse", "AbortCollapse", "Archive"},
		"Canton.Internal.Bong:Explode":      {"ProcessExplode", "AbortExplode", "Archive"},
		"Canton.Internal.Bong:Merge":        {"ProcessMerge", "AbortMerge", "Archive"},
	}
	gotChoices := map[string][]string{}
	for _, m := range p.Modules {
		for _, tpl := range m.Templates {
			if tpl.Key != nil || len(tpl.Implements) > 0 || tpl.Param != "this" {
				t.Errorf("template %s: key %v, implements %v, param %q", tpl.Name, tpl.Key, tpl.Implements, tpl.Param)
			}
			if dt := m.DataType(tpl.Name); dt == nil || dt.Variety != RecordVariety || !dt.Serializable {
				t.Errorf("template %s has no serializable payload record", tpl.Name)
			}
			for _, c := range tpl.Choices {
				gotChoices[m.Name+":"+tpl.Name] = append(gotChoices[m.Name+":"+tpl.Name], c.Name)
			}
		}
	}
	if diff := cmp.Diff(wantChoices, gotChoices, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("template choices (-want +got):\n%s", diff)
	}

	// The stable DA.Types package is LF 2.1: its applications come from
	// argument lists, and decode to the same binary applications.
	dt := dar.Package(daTypes)
	want := []*DataType{
		{Name: "Either", Params: []TypeParam{{"a", star}, {"b", star}}, Serializable: true, Variety: VariantVariety,
			Fields: []Field{{"Left", tvar("a")}, {"Right", tvar("b")}}},
		{Name: "Tuple2", Params: []TypeParam{{"t1", star}, {"t2", star}}, Serializable: true, Variety: RecordVariety,
			Fields: []Field{{"_1", tvar("t1")}, {"_2", tvar("t2")}}},
	}
	for _, w := range want {
		if diff := cmp.Diff(w, dt.DataType("DA.Types", w.Name)); diff != "" {
			t.Errorf("DA.Types:%s (-want +got):\n%s", w.Name, diff)
		}
	}
	if s := p.Choice("Canton.Internal.Bong", "Merge", "ProcessMerge").ReturnType.String(); s != daTypes+":DA.Types:Either (ContractId "+pingMain+":Canton.Internal.Bong:Bong) (ContractId "+pingMain+":Canton.Internal.Bong:Collapse)" {
		t.Errorf("String() = %s", s)
	}
}

func TestRealPartyReplication(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "canton-builtin-admin-workflow-party-replication-alpha.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var enum *DataType
	var templates []string
	for _, m := range dar.Main.Modules {
		if dt := m.DataType("ParticipantPermission"); dt != nil {
			enum = dt
		}
		for _, tpl := range m.Templates {
			templates = append(templates, tpl.Name)
			if tpl.Name == "PartyReplicationProposal" {
				accept := tpl.Choice("Accept")
				if accept == nil || accept.ReturnType.String() != "ContractId "+prMain+":"+m.Name+":PartyReplicationAgreement" {
					t.Errorf("Accept: %+v", accept)
				}
			}
		}
	}
	if diff := cmp.Diff(&DataType{Name: "ParticipantPermission", Serializable: true, Variety: EnumVariety,
		Constructors: []string{"Submission", "Confirmation", "Observation"}}, enum); diff != "" {
		t.Errorf("enum (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"PartyReplicationAgreement", "PartyReplicationProposal"}, templates,
		cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("templates (-want +got):\n%s", diff)
	}
}

func TestRealIllformedDecodes(t *testing.T) {
	dar, err := ReadDAR(realDAR(t, "illformed.dar"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Package{ID: illformedID, LanguageVersion: LF21, Name: "encoder_binary", Version: "1.0.0",
		Modules: []*Module{{Name: "Mod", Values: []*DefValue{NewDefValue("x", tb(BuiltinBool), &EBuiltinCon{Con: ConUnit})}}}}
	if diff := cmp.Diff(want, dar.Main, ignoreIndexes, cmpopts.IgnoreFields(Package{}, "Payload"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func BenchmarkReadDAR(b *testing.B) {
	data := realDAR(b, "canton-builtin-admin-workflow-ping.dar")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDAR(data, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadDARAmulet decodes the largest real DAR (Splice Amulet's
// test DAR, ~3.2 MB of dalf payloads), without a cache.
func BenchmarkReadDARAmulet(b *testing.B) {
	data := realDAR(b, "splice-amulet-test-0.1.8.dar")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDAR(data, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
