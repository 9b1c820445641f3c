package identity

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rightSamples are rights whose kind or party take each path of
// AppendJSON and parsePlainRight: plain ones, and ones with bytes
// json.Marshal escapes (quotes, backslashes, HTML, control characters,
// DEL, U+2028, invalid UTF-8), unknown and empty kinds.
func rightSamples() []Right {
	kinds := []RightKind{RightParticipantAdmin, RightIdentityProviderAdmin, RightCanActAs, RightCanReadAs,
		RightCanReadAsAnyParty, RightCanExecuteAs, RightCanExecuteAsAnyParty, "", "Unknown", `Can"Act`, "Can<Act>&", "Can\x7fAct", "Can\u2028Act"}
	parties := []string{"", "alice::1220ab", "party-0123456789abcdef::ns", "a-b_c:d::e", `a"b`, `a\b`, "a<b>&c", "a\nb", "a\x00b", "a\x7fb",
		"a\u2028b", "é::ns", "a\xffb", "}}}}", `"}}}}`, `{"party":"x"}`}
	var out []Right
	for _, k := range kinds {
		for _, p := range parties {
			out = append(out, Right{Kind: k, Party: p})
		}
	}
	return out
}

func TestRightMarshalJSONIsTheMapsEncoding(t *testing.T) {
	t.Parallel()
	for _, r := range rightSamples() {
		want, err := r.marshalMaps()
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.MarshalJSON()
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if string(got) != string(want) {
			t.Errorf("%+v: MarshalJSON %s, the maps encoding %s", r, got, want)
		}
		// Inside a record, as users' stored records hold rights.
		in, err := json.Marshal(struct{ R []Right }{[]Right{r, r}})
		if err != nil {
			t.Fatal(err)
		}
		if w := `{"R":[` + string(want) + "," + string(want) + "]}"; string(in) != w {
			t.Errorf("%+v: in a record %s, want %s", r, in, w)
		}
	}
}

// unmarshalGeneral is UnmarshalJSON's general reading (without the plain
// fast path), the reading before it.
func unmarshalGeneral(b []byte) (Right, error) {
	var r Right
	err := r.unmarshalGeneral(b)
	return r, err
}

func TestRightUnmarshalJSONReadsAsTheGeneralReading(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`{"kind":{"CanActAs":{"value":{"party":"alice::ns"}}}}`,
		`{"kind":{"CanReadAsAnyParty":{"value":{}}}}`,
		`{"kind":{"ParticipantAdmin":{"value":{"party":"x"}}}}`,
		`{"kind":{"CanActAs":{"value":{}}}}`,
		`{"kind":{"CanActAs":{"value":{"party":""}}}}`,
		`{"kind":{"Unknown":{"value":{}}}}`,
		`{"kind":{"CanActAs":{"value":{"party":"a\u0026b"}}}}`,
		`{"kind":{"CanActAs":{"value":{"party":"a\"}}}}"}}}}`,
		`{"kind":{"CanActAs":{"value":{"party":"x"},"other":1}}}`,
		`{"kind":{"CanActAs":{"value":null}}}`,
		`{"kind":{"CanActAs":{"value":{"party":"}}}}`,
		`{"kind":{"CanActAs":{"value":{"party":"x"}}}}}`,
		`{"kind":{"CanActAs":{"value":{}}}}}`,
		`{"kind":{"CanActAs"`,
		`{"kind":{}}`,
	}
	for _, r := range rightSamples() {
		b, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		want, wantErr := unmarshalGeneral([]byte(in))
		var got Right
		gotErr := json.Unmarshal([]byte(in), &got)
		if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && got != want) {
			t.Errorf("%s: read %+v, %v; the general reading %+v, %v", in, got, gotErr, want, wantErr)
		}
		got = Right{Kind: "stale", Party: "stale"}
		gotErr = got.UnmarshalJSON([]byte(in))
		if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && got != want) {
			t.Errorf("%s: UnmarshalJSON %+v, %v; the general reading %+v, %v", in, got, gotErr, want, wantErr)
		}
	}
}

func TestRightJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, r := range rightSamples() {
		if r.Validate() != nil {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Right
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if diff := cmp.Diff(r, back); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", b, diff)
		}
	}
}

func FuzzRightJSON(f *testing.F) {
	for _, r := range rightSamples() {
		f.Add(string(r.Kind), r.Party)
	}
	f.Fuzz(func(t *testing.T, kind, party string) {
		r := Right{Kind: RightKind(kind), Party: party}
		want, err := r.marshalMaps()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := r.MarshalJSON()
		if string(got) != string(want) {
			t.Fatalf("%+v: MarshalJSON %s, the maps encoding %s", r, got, want)
		}
		for _, in := range [][]byte{got, []byte(party), []byte(`{"kind":{"` + kind + `":{"value":{"party":"` + party + `"}}}}`)} {
			w, wErr := unmarshalGeneral(in)
			var g Right
			gErr := g.UnmarshalJSON(in)
			if (gErr == nil) != (wErr == nil) || (gErr == nil && g != w) {
				t.Fatalf("%q: UnmarshalJSON %+v, %v; the general reading %+v, %v", in, g, gErr, w, wErr)
			}
		}
	})
}

// BenchmarkRightJSON writes and reads a CanActAs right: "plain" as
// MarshalJSON and UnmarshalJSON do, "general" by the maps encoding and the
// general reading (what they did before).
func BenchmarkRightJSON(b *testing.B) {
	r := Right{Kind: RightCanActAs, Party: "party-0123456789abcdef::1220abcdef"}
	raw, _ := r.MarshalJSON()
	b.Run("write/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = r.MarshalJSON()
		}
	})
	b.Run("write/general", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = r.marshalMaps()
		}
	})
	b.Run("read/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var x Right
			_ = x.UnmarshalJSON(raw)
		}
	})
	b.Run("read/general", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var x Right
			_ = x.unmarshalGeneral(raw)
		}
	})
}
