package httpadapter

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestBadFieldsAreRefused sends one bad field per request, each of which
// ledgernode used to accept: a value of the wrong JSON type is a decode
// failure (400 text/plain), a value breaking Canton's rule for the field
// a 400 JsCantonError.
func TestBadFieldsAreRefused(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	create := map[string]any{"CreateCommand": map[string]any{"templateId": f.iou(), "createArguments": map[string]any{"owner": f.alice, "amount": "1"}}}
	submit := func(field string, v any) string {
		m := map[string]any{"commands": []any{create}, "commandId": "bad-field", "actAs": []string{f.alice}, field: v}
		return js(t, m)
	}
	prepare := func(field string, v any) string {
		m := map[string]any{"commands": []any{create}, "commandId": "bad-field", "actAs": []string{f.alice},
			"userId": "participant_admin", field: v}
		return js(t, m)
	}
	reassign := func(field, v string) string {
		rc := map[string]any{"commandId": "bad-field", "submitter": f.alice, "commands": []any{}, field: v}
		return js(t, map[string]any{"reassignmentCommands": rc})
	}
	completions := func(user string) string {
		return js(t, map[string]any{"userId": user, "parties": []string{f.alice}})
	}
	mask := func(unknown string) string {
		return `{"user": {"id": "participant_admin"}, "updateMask": {"paths": ["primary_party"], "unknownFields": {"fields": ` + unknown + `}}}`
	}
	idp := func(jwks string) string {
		return `{"identityProviderConfig": {"identityProviderId": "idp-bad", "issuer": "https://issuer.bad", "jwksUrl": "` + jwks + `"}}`
	}
	const text = "" // a decode failure
	tests := []struct {
		name   string
		method string
		target string
		body   string
		code   string // the JsCantonError code; "" for a 400 text/plain, or its detail ("The …")
	}{
		{"submissionId of 256 characters", "POST", "/v2/commands/submit-and-wait", submit("submissionId", strings.Repeat("s", 256)), "INVALID_FIELD"},
		{"submissionId of 1.5 MiB", "POST", "/v2/commands/submit-and-wait", submit("submissionId", strings.Repeat("s", 3<<19)), "INVALID_FIELD"},
		{"submissionId with NUL", "POST", "/v2/commands/submit-and-wait", submit("submissionId", "a\x00b"), "INVALID_FIELD"},
		{"submissionId not UTF-8", "POST", "/v2/commands/submit-and-wait", strings.Replace(submit("submissionId", "a-b"), "a-b", "a\xffb", 1), text},
		{"submissionId of a reassignment", "POST", "/v2/commands/async/submit-reassignment", reassign("submissionId", strings.Repeat("s", 256)), "INVALID_FIELD"},
		{"workflowId of a reassignment", "POST", "/v2/commands/async/submit-reassignment", reassign("workflowId", "a\x00b"), "INVALID_FIELD"},
		{"userId of a reassignment", "POST", "/v2/commands/async/submit-reassignment", reassign("userId", "a b"), "INVALID_FIELD"},
		{"completions userId with a space", "POST", "/v2/commands/completions", completions("a b"), "INVALID_FIELD"},
		{"completions userId of 129 characters", "POST", "/v2/commands/completions", completions(strings.Repeat("u", 129)), "INVALID_FIELD"},
		{"tapsMaxPasses a string", "POST", "/v2/commands/submit-and-wait", submit("tapsMaxPasses", "12abc"), text},
		{"prefetchContractKeys a string", "POST", "/v2/commands/submit-and-wait", submit("prefetchContractKeys", "x"), text},
		{"estimateTrafficCost an array", "POST", "/v2/interactive-submission/prepare", prepare("estimateTrafficCost", []any{}), text},
		{"estimateTrafficCost an unknown signature", "POST", "/v2/interactive-submission/prepare",
			prepare("estimateTrafficCost", map[string]any{"expectedSignatures": []string{"RSA"}}), text},
		{"minLedgerTime a number", "POST", "/v2/interactive-submission/prepare", prepare("minLedgerTime", 5), text},
		{"disclosedContracts of prepare", "POST", "/v2/interactive-submission/prepare",
			prepare("disclosedContracts", []any{map[string]any{"createdEventBlob": "AA=="}}), "INVALID_ARGUMENT"},
		{"streamContinuationToken", "POST", "/v2/state/active-contracts",
			js(t, map[string]any{"eventFormat": partyFormat(f.alice), "streamContinuationToken": "AAAA"}), "INVALID_ARGUMENT"},
		{"updateMask.unknownFields.fields an array", "PATCH", "/v2/users/participant_admin", mask(`[]`), text},
		{"updateMask.unknownFields.fields of strings", "PATCH", "/v2/users/participant_admin", mask(`{"1": "x"}`), text},
		{"package status id traversal", "GET", "/v2/packages/" + url.PathEscape("../../etc/passwd") + "/status", "", "INVALID_ARGUMENT"},
		{"package status id of 10 KB", "GET", "/v2/packages/" + strings.Repeat("a", 10<<10) + "/status", "", "INVALID_ARGUMENT"},
		{"package status id with NUL", "GET", "/v2/packages/ab%00cd/status", "", "INVALID_ARGUMENT"},
		{"package id with NUL", "GET", "/v2/packages/ab%00cd", "", "INVALID_ARGUMENT"},
		{"jwksUrl not UTF-8", "POST", "/v2/idps", idp("https://jwks.bad/\xff"), text},
		{"preparedTransaction not base64", "POST", "/v2/interactive-submission/execute",
			`{"preparedTransaction": "!!", "submissionId": "s"}`, "The string is not a valid Base64: illegal base64 data at input byte 0"},
	}
	before := f.end()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := serve(t, f.h, httpCall{method: tc.method, target: tc.target, body: tc.body, header: f.auth})
			if tc.code == text || strings.HasPrefix(tc.code, "The ") {
				wantText(t, rec, http.StatusBadRequest, "Invalid value for: body ("+tc.code)
				return
			}
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("status %d, want 400; body %.300s", rec.Code, rec.Body)
			}
			if e := decodeCantonError(t, rec); e.Code != tc.code {
				t.Errorf("code %s (%.200s), want %s", e.Code, e.Cause, tc.code)
			}
		})
	}
	if got := f.end(); got != before {
		t.Errorf("refused requests moved the ledger end from %d to %d", before, got)
	}
	var cfgs struct {
		IdentityProviderConfigs []json.RawMessage `json:"identityProviderConfigs"`
	}
	if err := json.Unmarshal(f.get("/v2/idps").Body.Bytes(), &cfgs); err != nil || len(cfgs.IdentityProviderConfigs) != 0 {
		t.Errorf("identity providers after the refused one: %s (%v)", cfgs.IdentityProviderConfigs, err)
	}
}
