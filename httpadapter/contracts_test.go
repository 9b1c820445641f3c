package httpadapter

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

func TestContractByID(t *testing.T) {
	t.Parallel()
	f := newAuthFixture(t)
	c := f.create("c1", f.alice, 1)

	wantEvent := c
	wantEvent.Offset, wantEvent.NodeID, wantEvent.ACSDelta = 0, 0, false
	wantEvent.CreatedEventBlob = ""
	check := func(t *testing.T, header map[string]string, req jsonapi.GetContractRequest) {
		t.Helper()
		rec := f.postAs(header, "/v2/contracts/contract-by-id", req)
		got := decodeAs[jsonapi.GetContractResponse](t, rec)
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
		check(t, f.reader, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.alice}})
	})
	t.Run("any party", func(t *testing.T) { check(t, f.anyReader, jsonapi.GetContractRequest{ContractID: c.ContractID}) })

	// An archived contract is still found.
	decodeAs[jsonapi.SubmitAndWaitResponse](t, f.post("/v2/commands/submit-and-wait",
		commands("x", f.alice, exerciseIou(f.iou(), c.ContractID, "Transfer", transferTo(f.bob)))))
	t.Run("archived", func(t *testing.T) {
		check(t, f.reader, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.alice}})
	})

	before := f.state()
	for _, tc := range []struct {
		name   string
		header map[string]string
		body   any
		status int
		code   string
	}{
		{"unknown contract", f.anyReader, jsonapi.GetContractRequest{ContractID: "00" + strings.Repeat("ab", 32)}, 404, "CONTRACT_PAYLOAD_NOT_FOUND"},
		{"no querying party is a stakeholder", f.bobReader, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.bob}}, 404, "CONTRACT_PAYLOAD_NOT_FOUND"},
		{"no contract id", f.anyReader, jsonapi.GetContractRequest{}, 400, "MISSING_FIELD"},
		// Canton authorizes first (the reader may not read as a!b), then
		// requireParties refuses it with INVALID_ARGUMENT.
		{"malformed party", f.reader, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{"a!b"}}, 403, "NA"},
		{"malformed party, any-party reader", f.anyReader, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{"a!b"}}, 400, "INVALID_ARGUMENT"},
		{"malformed contract id", f.anyReader, jsonapi.GetContractRequest{ContractID: "00nope"}, 400, "INVALID_FIELD"},
		{"malformed contract id, querying party", f.reader, jsonapi.GetContractRequest{ContractID: "zz", QueryingParties: []string{f.alice}}, 400, "INVALID_FIELD"},
		// Authorization before the id's syntax (Canton's
		// ContractServiceAuthorization before requireContractId).
		{"malformed contract id, another party", f.reader, jsonapi.GetContractRequest{ContractID: "zz", QueryingParties: []string{f.bob}}, 403, "NA"},
		{"malformed contract id, any party without CanReadAsAnyParty", f.reader, jsonapi.GetContractRequest{ContractID: "zz"}, 403, "NA"},
		{"malformed contract id, no rights", f.none, jsonapi.GetContractRequest{ContractID: "zz", QueryingParties: []string{f.alice}}, 403, "NA"},
		{"any party without CanReadAsAnyParty", f.reader, jsonapi.GetContractRequest{ContractID: c.ContractID}, 403, "NA"},
		{"another party", f.reader, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.bob}}, 403, "NA"},
		{"no rights", f.none, jsonapi.GetContractRequest{ContractID: c.ContractID, QueryingParties: []string{f.alice}}, 403, "NA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCantonError(t, f.postAs(tc.header, "/v2/contracts/contract-by-id", tc.body), tc.status, tc.code)
		})
	}
	// Canton's words for a malformed id, the gRPC adapter's too
	// (grpcadapter's TestGetContractSameAsJSON compares the two).
	e := wantCantonError(t, f.postAs(f.reader, "/v2/contracts/contract-by-id", jsonapi.GetContractRequest{ContractID: "zz", QueryingParties: []string{f.alice}}), 400, "INVALID_FIELD")
	if want := `The submitted command has a field with invalid value: Invalid field contract_id: cannot parse ContractId "zz"`; e.Cause != want {
		t.Errorf("cause %q, want %q", e.Cause, want)
	}
	wantText(t, f.post("/v2/contracts/contract-by-id", `{"contractId":1}`), 400, "Invalid value for: body (expected a string, got number at 'contractId')")
	if diff := cmp.Diff(before, f.state()); diff != "" {
		t.Errorf("refused reads changed the state (-before +after):\n%s", diff)
	}
}
