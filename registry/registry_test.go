package registry_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/registry"
)

func valid() registry.Instrument {
	return registry.Instrument{ID: "USDX", Name: "US Dollar X", Symbol: "USDX", Decimals: 2,
		SupportedAPIs: map[string]int32{registry.MetadataAPI: 1}}
}

func TestInstrumentValidate(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		name   string
		mutate func(*registry.Instrument)
		field  string // "" = valid
	}{
		{"valid", func(*registry.Instrument) {}, ""},
		{"all optional fields", func(i *registry.Instrument) {
			i.TotalSupply, i.TotalSupplyAsOf = "1234.56", "2026-01-02T03:04:05Z"
			i.Paused, i.PauseInfo = true, &registry.PauseInfo{Reason: "audit", Until: "2026-02-01T00:00:00.5+01:00"}
			i.ShowAccountInputFields = &yes
			i.AccountInputFieldsToShow = []registry.AccountInputField{registry.AccountInputProvider, registry.AccountInputAccountID}
		}, ""},
		{"empty id", func(i *registry.Instrument) { i.ID = " " }, "id"},
		{"empty name", func(i *registry.Instrument) { i.Name = "" }, "name"},
		{"empty symbol", func(i *registry.Instrument) { i.Symbol = "" }, "symbol"},
		{"decimals 0", func(i *registry.Instrument) { i.Decimals = 0 }, ""},
		{"decimals 10", func(i *registry.Instrument) { i.Decimals = 10 }, ""},
		{"decimals 11", func(i *registry.Instrument) { i.Decimals = 11 }, "decimals"},
		{"decimals -1", func(i *registry.Instrument) { i.Decimals = -1 }, "decimals"},
		{"empty api name", func(i *registry.Instrument) { i.SupportedAPIs[""] = 0 }, "supportedApis"},
		{"negative minor", func(i *registry.Instrument) { i.SupportedAPIs["x"] = -1 }, "supportedApis"},
		{"supply not a number", func(i *registry.Instrument) { i.TotalSupply = "12a" }, "totalSupply"},
		{"supply negative", func(i *registry.Instrument) { i.TotalSupply = "-1" }, "totalSupply"},
		{"supply exponent", func(i *registry.Instrument) { i.TotalSupply = "1e5" }, "totalSupply"},
		{"supply too many decimals", func(i *registry.Instrument) { i.TotalSupply = "1.234" }, "totalSupply"},
		{"supply 38 digits", func(i *registry.Instrument) { i.TotalSupply = "000" + strings.Repeat("9", 36) + ".99" }, ""},
		{"supply 39 digits", func(i *registry.Instrument) { i.TotalSupply = strings.Repeat("9", 37) + ".99" }, "totalSupply"},
		{"as-of not RFC 3339", func(i *registry.Instrument) { i.TotalSupplyAsOf = "2026-01-02" }, "totalSupplyAsOf"},
		{"pause info without pause", func(i *registry.Instrument) { i.PauseInfo = &registry.PauseInfo{Reason: "x"} }, "pauseInfo"},
		{"pause until bad", func(i *registry.Instrument) {
			i.Paused, i.PauseInfo = true, &registry.PauseInfo{Until: "tomorrow"}
		}, "pauseInfo.until"},
		{"unknown input field", func(i *registry.Instrument) {
			i.AccountInputFieldsToShow = []registry.AccountInputField{"iban"}
		}, "accountInputFieldsToShow"},
		{"duplicate input field", func(i *registry.Instrument) {
			i.AccountInputFieldsToShow = []registry.AccountInputField{"provider", "provider"}
		}, "accountInputFieldsToShow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			tc.mutate(&in)
			err := in.Validate()
			var fe *registry.FieldError
			switch {
			case tc.field == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tc.field != "" && !errors.As(err, &fe):
				t.Fatalf("Validate() = %v, want a FieldError on %s", err, tc.field)
			case tc.field != "" && (fe.Field != tc.field || fe.Instrument != in.ID):
				t.Fatalf("error names instrument %q field %q, want %q %q", fe.Instrument, fe.Field, in.ID, tc.field)
			}
		})
	}
}

func TestDecimalsDefault(t *testing.T) {
	var in registry.Instrument
	if err := json.Unmarshal([]byte(`{"id":"a","name":"A","symbol":"A","supportedApis":{}}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.Decimals != 10 {
		t.Errorf("decimals = %d, want the default 10", in.Decimals)
	}
	if err := json.Unmarshal([]byte(`{"id":"a","decimals":0}`), &in); err != nil || in.Decimals != 0 {
		t.Errorf("explicit 0 decimals = %d, %v", in.Decimals, err)
	}
	out, _ := json.Marshal(registry.Instrument{ID: "a", Name: "A", Symbol: "A", SupportedAPIs: map[string]int32{}})
	if want := `{"id":"a","name":"A","symbol":"A","decimals":0,"supportedApis":{}}`; string(out) != want {
		t.Errorf("minimal instrument encodes as %s, want %s", out, want)
	}
}

const goodFile = `{
  "adminId": "registry::1220ab",
  "supportedApis": {"splice-api-token-metadata-v1": 1},
  "instruments": [
    {"id": "A", "name": "Alpha", "symbol": "ALP", "supportedApis": {}},
    {"id": "B", "name": "Beta", "symbol": "BET", "decimals": 2, "totalSupply": "10.5", "supportedApis": {}}
  ]
}`

func TestParseFile(t *testing.T) {
	f, err := registry.ParseFile([]byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	want := registry.File{
		Info: registry.Info{AdminID: "registry::1220ab", SupportedAPIs: map[string]int32{registry.MetadataAPI: 1}},
		Instruments: []registry.Instrument{
			{ID: "A", Name: "Alpha", Symbol: "ALP", Decimals: 10, SupportedAPIs: map[string]int32{}},
			{ID: "B", Name: "Beta", Symbol: "BET", Decimals: 2, TotalSupply: "10.5", SupportedAPIs: map[string]int32{}},
		},
	}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ name, file, mention string }{
		{"not json", `{`, "instruments file"},
		{"no admin", `{"instruments": []}`, "adminId"},
		{"bad instrument", `{"adminId":"a","instruments":[{"id":"X","name":"x","symbol":"x","decimals":12}]}`, "instrument X: field decimals"},
		{"missing id", `{"adminId":"a","instruments":[{"name":"x","symbol":"x"}]}`, "instrument #0: field id"},
		{"duplicate id", `{"adminId":"a","instruments":[{"id":"X","name":"x","symbol":"x"},{"id":"X","name":"y","symbol":"y"}]}`, "instrument X: field id: duplicate"},
	} {
		_, err := registry.ParseFile([]byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.mention)
		}
	}
}

// FuzzParseFile feeds arbitrary bytes to the instruments file loader: it
// never panics, and whatever it accepts is valid.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(goodFile))
	f.Add([]byte(`{"adminId":"a","instruments":[{"id":"X","name":"x","symbol":"x","totalSupply":"1.0"}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := registry.ParseFile(data)
		if err != nil {
			return
		}
		if err := file.Info.Validate(); err != nil {
			t.Fatalf("accepted invalid info: %v", err)
		}
		ids := map[string]bool{}
		for _, in := range file.Instruments {
			if err := in.Validate(); err != nil {
				t.Fatalf("accepted invalid instrument: %v", err)
			}
			if ids[in.ID] {
				t.Fatalf("accepted duplicate id %q", in.ID)
			}
			ids[in.ID] = true
		}
	})
}
