package lf

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSyntaxes(t *testing.T) {
	tests := []struct {
		name    string
		check   func(string) error
		in      string
		problem SyntaxProblem // 0: valid
		msg     string
	}{
		{"name", CheckName, "Iou_$1", 0, ""},
		{"name empty", CheckName, "", SyntaxEmpty, "Daml-LF Name is empty"},
		{"name digit first", CheckName, "1a", SyntaxBadChar, `non expected first character 0x31 in Daml-LF Name "1a"`},
		{"name dash", CheckName, "a-b", SyntaxBadChar, `non expected non first character 0x2d in Daml-LF Name "a-b"`},
		{"name long", CheckName, strings.Repeat("a", 1001), SyntaxTooLong, "Name is too long (max: 1000)"},
		{"name 1000", CheckName, strings.Repeat("a", 1000), 0, ""},
		{"dotted", CheckDottedName, "DA.Internal.Template", 0, ""},
		{"dotted empty", CheckDottedName, "", SyntaxEmpty, "Expected a non-empty string"},
		{"dotted empty segment", CheckDottedName, "A..B", SyntaxEmpty, "Daml-LF Name is empty"},
		{"dotted trailing dot", CheckDottedName, "A.", SyntaxEmpty, "Daml-LF Name is empty"},
		{"dotted bad segment", CheckDottedName, "A.b c", SyntaxBadChar, `non expected non first character 0x20 in Daml-LF Name "b c"`},
		{"dotted long", CheckDottedName, strings.Repeat("a.", 500) + "a", SyntaxTooLong, "DottedName is too long (max: 1000)"},
		{"package id", CheckPackageID, strings.Repeat("ab", 32), 0, ""},
		{"package id long", CheckPackageID, strings.Repeat("ab", 32) + "a", SyntaxTooLong, "Daml-LF Package ID is too long (max: 64)"},
		{"package id dot", CheckPackageID, "a.b", SyntaxBadChar, `non expected character 0x2e in Daml-LF Package ID "a.b"`},
		{"package name", CheckPackageName, "canton-builtin-admin-workflow-ping", 0, ""},
		{"package name dot", CheckPackageName, "a.b", SyntaxBadChar, `non expected character 0x2e in Daml-LF Package Name "a.b"`},
		{"package name empty", CheckPackageName, "", SyntaxEmpty, "Daml-LF Package Name is empty"},
		{"party", CheckParty, "alice::1220ab", 0, ""},
		{"party space", CheckParty, "Alice Smith", 0, ""},
		{"party empty", CheckParty, "", SyntaxEmpty, "Daml-LF Party is empty"},
		{"party hash", CheckParty, "a#b", SyntaxBadChar, `non expected character 0x23 in Daml-LF Party "a#b"`},
		{"party non-ASCII", CheckParty, "é", SyntaxBadChar, `non expected character 0xc3 in Daml-LF Party "é"`},
		{"party long", CheckParty, strings.Repeat("p", 256), SyntaxTooLong, "Daml-LF Party is too long (max: 255)"},
		{"party 255", CheckParty, strings.Repeat("p", 255), 0, ""},
		{"ledger string", CheckLedgerString, "cmd-1.a/b#c:d e_f", 0, ""},
		{"ledger string bad", CheckLedgerString, "a@b", SyntaxBadChar, `non expected character 0x40 in Daml-LF Ledger String "a@b"`},
		{"ledger string long", CheckLedgerString, strings.Repeat("x", 256), SyntaxTooLong, "Daml-LF Ledger String is too long (max: 255)"},
		{"user id", CheckUserID, "alice@example.com(1)|~", 0, ""},
		{"user id bad", CheckUserID, "a b", SyntaxBadForm, `User ID "a b" does not match regex "[a-zA-Z0-9@^$.!` + "`" + `\-#+'~_|:\(\)]{1,128}"`},
		{"user id empty", CheckUserID, "", SyntaxBadForm, ""},
		{"user id long", CheckUserID, strings.Repeat("u", 129), SyntaxBadForm, ""},
		{"user id 128", CheckUserID, strings.Repeat("u", 128), 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check(tt.in)
			if tt.problem == 0 {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Problem != tt.problem {
				t.Errorf("problem %d, want %d", se.Problem, tt.problem)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestSyntaxErrorFields(t *testing.T) {
	err := CheckParty("ab#c")
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatal(err)
	}
	want := SyntaxError{Syntax: "Daml-LF Party", Input: "ab#c", Problem: SyntaxBadChar, Char: '#', Index: 2}
	if diff := cmp.Diff(want, *se, cmp.AllowUnexported(SyntaxError{}), cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".msg" }, cmp.Ignore())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	err = CheckParty(strings.Repeat("p", 300))
	if !errors.As(err, &se) || se.Max != MaxPartyLength {
		t.Errorf("too long: %#v", err)
	}
}

func TestIdentifier(t *testing.T) {
	pkg := strings.Repeat("0a", 32)
	tests := []struct {
		in        string
		want      Identifier
		splitErr  bool
		field     string // the invalid part, for a valid split
		str, qual string
	}{
		{in: pkg + ":Iou:Iou", want: Identifier{PackageID: pkg, Module: "Iou", Entity: "Iou"}, str: pkg + ":Iou:Iou", qual: "Iou:Iou"},
		{in: "#model-tests:Mod.Sub:Ent.Name", want: Identifier{PackageName: "model-tests", Module: "Mod.Sub", Entity: "Ent.Name"},
			str: "#model-tests:Mod.Sub:Ent.Name", qual: "Mod.Sub:Ent.Name"},
		{in: "p:M:E:", want: Identifier{PackageID: "p", Module: "M", Entity: "E"}, str: "p:M:E", qual: "M:E"},
		{in: "p:M:E::", want: Identifier{PackageID: "p", Module: "M", Entity: "E"}, str: "p:M:E", qual: "M:E"},
		{in: "not-a-valid-template-id", splitErr: true},
		{in: "", splitErr: true},
		{in: "p:M", splitErr: true},
		{in: "p:M:E:x", splitErr: true},
		{in: "p::E", want: Identifier{PackageID: "p", Entity: "E"}, field: "module_name"},
		{in: ":M:E", want: Identifier{Module: "M", Entity: "E"}, field: "package reference"},
		{in: "#:M:E", want: Identifier{Module: "M", Entity: "E"}, field: "package reference"},
		{in: "#a.b:M:E", want: Identifier{PackageName: "a.b", Module: "M", Entity: "E"}, field: "package reference"},
		{in: "p:M:E-1", want: Identifier{PackageID: "p", Module: "M", Entity: "E-1"}, field: "entity_name"},
		{in: "p:Bad Module:E", want: Identifier{PackageID: "p", Module: "Bad Module", Entity: "E"}, field: "module_name"},
		{in: strings.Repeat("a", 65) + ":M:E", want: Identifier{PackageID: strings.Repeat("a", 65), Module: "M", Entity: "E"}, field: "package reference"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			id, err := SplitIdentifier(tt.in)
			if tt.splitErr {
				var le *Error
				if !errors.As(err, &le) || le.Kind != KindIdentifier || le.Field != "" {
					t.Fatalf("SplitIdentifier: %#v", err)
				}
				want := "Invalid identifier format (" + tt.in + ") not matching the expected format (<package>:<moduleName>:<entityName>)"
				if le.Message != want {
					t.Errorf("message %q, want %q", le.Message, want)
				}
				if _, err := ParseIdentifier(tt.in); err == nil {
					t.Error("ParseIdentifier accepts it")
				}
				return
			}
			if err != nil {
				t.Fatalf("SplitIdentifier: %v", err)
			}
			if diff := cmp.Diff(tt.want, id); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			parsed, err := ParseIdentifier(tt.in)
			if tt.field != "" {
				var le *Error
				var se *SyntaxError
				if !errors.As(err, &le) || le.Kind != KindIdentifier || le.Field != tt.field || !errors.As(err, &se) {
					t.Fatalf("ParseIdentifier: %#v, want field %s", err, tt.field)
				}
				if !strings.HasPrefix(le.Message, "Invalid field "+tt.field+": ") {
					t.Errorf("message %q", le.Message)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseIdentifier: %v", err)
			}
			if parsed != id || id.String() != tt.str || id.QualifiedName() != tt.qual {
				t.Errorf("parsed %v, String %q, QualifiedName %q", parsed, id.String(), id.QualifiedName())
			}
			again, err := ParseIdentifier(id.String())
			if err != nil || again != id {
				t.Errorf("round trip: %v %v", again, err)
			}
		})
	}
}

func TestContractID(t *testing.T) {
	disc := strings.Repeat("ab", 32)
	unicum := "1220" + strings.Repeat("cd", 32)
	tests := []struct {
		name     string
		in       string
		ok       bool
		version  ContractIDVersion
		local    bool
		relative bool
		detail   string
	}{
		{name: "V1 committed", in: "00" + disc + "ca12" + unicum, ok: true, version: ContractIDV1},
		{name: "V1 unsuffixed", in: "00" + disc, ok: true, version: ContractIDV1, local: true},
		{name: "V1 suffix 94 bytes", in: "00" + disc + strings.Repeat("ee", 94), ok: true, version: ContractIDV1},
		{name: "V1 suffix 95 bytes", in: "00" + disc + strings.Repeat("ee", 95), detail: "the suffix is too long, expected at most 94 bytes, but got 95"},
		{name: "V1 short", in: "00" + disc[:62]},
		{name: "V2 absolute", in: "01" + strings.Repeat("11", 12) + "80" + strings.Repeat("22", 32), ok: true, version: ContractIDV2},
		{name: "V2 relative", in: "01" + strings.Repeat("11", 12) + "00" + strings.Repeat("22", 10), ok: true, version: ContractIDV2, relative: true},
		{name: "V2 local", in: "01" + strings.Repeat("11", 12), ok: true, version: ContractIDV2, local: true},
		{name: "V2 suffix 34 bytes", in: "01" + strings.Repeat("11", 12) + strings.Repeat("80", 34), detail: "the suffix is too long, expected at most 33 bytes, but got 34"},
		{name: "V2 short", in: "01" + strings.Repeat("11", 11)},
		{name: "uppercase", in: "00" + strings.ToUpper(disc)},
		{name: "odd length", in: "00" + disc + "a"},
		{name: "unknown version", in: "02" + disc},
		{name: "empty", in: ""},
		{name: "not hex", in: "00" + disc[:62] + "zz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseContractID(tt.in)
			if IsContractID(tt.in) != tt.ok {
				t.Errorf("IsContractID = %v", !tt.ok)
			}
			if !tt.ok {
				var se *SyntaxError
				if !errors.As(err, &se) || se.Problem != SyntaxBadForm || se.Detail != tt.detail {
					t.Fatalf("error %#v, want detail %q", err, tt.detail)
				}
				want := `cannot parse ContractId "` + tt.in + `"`
				if tt.detail != "" {
					want += ": " + tt.detail
				}
				if err.Error() != want {
					t.Errorf("message %q, want %q", err.Error(), want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Version != tt.version || c.IsLocal() != tt.local || c.IsRelative() != tt.relative || c.String() != tt.in {
				t.Errorf("got %+v local=%v relative=%v String=%s", c, c.IsLocal(), c.IsRelative(), c)
			}
		})
	}
}

// TestSplitIdentifierIsJavaSplit compares SplitIdentifier with the rule
// it implements, written out as Canton's codec applies it (split on every
// ':', drop trailing empty parts, exactly three parts), on ids of every
// shape of up to six characters from ':', '#' and two letters; and checks
// that a well-formed id splits without allocating (stored ids are split
// on every read).
func TestSplitIdentifierIsJavaSplit(t *testing.T) {
	javaSplit := func(s string) (Identifier, bool) {
		parts := strings.Split(s, ":")
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		if len(parts) != 3 {
			return Identifier{}, false
		}
		id := Identifier{Module: parts[1], Entity: parts[2]}
		if name, ok := strings.CutPrefix(parts[0], "#"); ok {
			id.PackageName = name
		} else {
			id.PackageID = parts[0]
		}
		return id, true
	}
	alphabet := []byte{':', '#', 'a', 'b'}
	var ids []string
	var gen func(prefix []byte)
	gen = func(prefix []byte) {
		ids = append(ids, string(prefix))
		if len(prefix) == 6 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c))
		}
	}
	gen(nil)
	for _, s := range ids {
		want, ok := javaSplit(s)
		got, err := SplitIdentifier(s)
		if (err == nil) != ok || got != want {
			t.Errorf("SplitIdentifier(%q) = %+v, %v; the split rule gives %+v, %v", s, got, err, want, ok)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = SplitIdentifier("pkg:Mod.Sub:Ent") }); n != 0 {
		t.Errorf("SplitIdentifier allocates %v times", n)
	}
}
