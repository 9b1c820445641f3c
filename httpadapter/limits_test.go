package httpadapter

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestHugeInputIsNotEchoed sends a 1.5 MiB bad value in one field of each
// endpoint that quotes that field in its error: the error body stays under
// 4 KB, because every cause, resource and context value quoting outside
// input goes through apierr.Quote.
func TestHugeInputIsNotEchoed(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	huge := strings.Repeat("x", 3<<19) // 1.5 MiB
	hugeB64 := base64.StdEncoding.EncodeToString([]byte(huge))
	cid := f.create("huge-setup", f.alice, 1).ContractID
	sync := f.node.Synchronizers()[0]
	create := map[string]any{"CreateCommand": map[string]any{"templateId": f.iou(), "createArguments": map[string]any{"owner": f.alice, "amount": "1"}}}
	cmds := func(extra map[string]any) map[string]any {
		c := map[string]any{"commands": []any{create}, "commandId": "huge", "actAs": []string{f.alice}}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	bySync := map[string]any{"synchronizerId": huge}
	unassign := func(source string) map[string]any {
		return map[string]any{"commandId": "huge", "submitter": f.alice, "commands": []any{map[string]any{"command": map[string]any{
			"UnassignCommand": map[string]any{"value": map[string]any{"contractId": cid, "source": source, "target": sync}}}}}}
	}
	format := map[string]any{"includeTransactions": map[string]any{"eventFormat": partyFormat(f.alice), "transactionShape": "TRANSACTION_SHAPE_ACS_DELTA"}}
	mask := map[string]any{"paths": []string{huge}}
	tests := []struct {
		name   string
		method string
		target string
		body   any
	}{
		{"submit-and-wait synchronizerId", "POST", "/v2/commands/submit-and-wait", cmds(bySync)},
		{"submit-and-wait-for-transaction synchronizerId", "POST", "/v2/commands/submit-and-wait-for-transaction", map[string]any{"commands": cmds(bySync)}},
		{"submit-and-wait-for-transaction-tree synchronizerId", "POST", "/v2/commands/submit-and-wait-for-transaction-tree", cmds(bySync)},
		{"async/submit synchronizerId", "POST", "/v2/commands/async/submit", cmds(bySync)},
		{"submit-and-wait-for-reassignment source", "POST", "/v2/commands/submit-and-wait-for-reassignment", map[string]any{"reassignmentCommands": unassign(huge)}},
		{"async/submit-reassignment source", "POST", "/v2/commands/async/submit-reassignment", map[string]any{"reassignmentCommands": unassign(huge)}},
		{"submit contractId", "POST", "/v2/commands/submit-and-wait", map[string]any{"commands": []any{map[string]any{"ExerciseCommand": map[string]any{
			"templateId": f.iou(), "contractId": huge, "choice": "Archive", "choiceArgument": map[string]any{}}}}, "commandId": "huge", "actAs": []string{f.alice}}},
		{"prepare synchronizerId", "POST", "/v2/interactive-submission/prepare", cmds(map[string]any{"synchronizerId": huge, "userId": "participant_admin"})},
		{"external allocate synchronizer", "POST", "/v2/parties/external/allocate", map[string]any{"synchronizer": huge, "onboardingTransactions": []any{}}},
		{"generate-topology synchronizer", "POST", "/v2/parties/external/generate-topology", map[string]any{"synchronizer": huge, "partyHint": "p",
			"publicKey": map[string]any{"format": "CRYPTO_KEY_FORMAT_RAW", "keyData": base64.StdEncoding.EncodeToString(make([]byte, 32)), "keySpec": "SIGNING_KEY_SPEC_EC_CURVE25519"}}},
		{"generate-topology partyHint", "POST", "/v2/parties/external/generate-topology", map[string]any{"synchronizer": sync, "partyHint": huge,
			"publicKey": map[string]any{"format": "CRYPTO_KEY_FORMAT_RAW", "keyData": base64.StdEncoding.EncodeToString(make([]byte, 32)), "keySpec": "SIGNING_KEY_SPEC_EC_CURVE25519"}}},
		{"package-vetting synchronizerId", "POST", "/v2/package-vetting", map[string]any{"changes": []any{}, "synchronizerId": huge}},
		{"events-by-contract-id contractId", "POST", "/v2/events/events-by-contract-id", map[string]any{"contractId": huge, "eventFormat": partyFormat(f.alice)}},
		{"update-by-id updateId", "POST", "/v2/updates/update-by-id", map[string]any{"updateId": huge, "updateFormat": format}},
		{"transaction-tree-by-id update-id", "GET", "/v2/updates/transaction-tree-by-id/" + huge + "?parties=" + url.QueryEscape(f.alice), nil},
		{"get-updates-page pageToken", "POST", "/v2/updates/get-updates-page", map[string]any{"updateFormat": format, "pageToken": hugeB64}},
		{"active-contracts-page pageToken", "POST", "/v2/state/active-contracts-page", map[string]any{"eventFormat": partyFormat(f.alice), "pageToken": hugeB64}},
		{"vetted packages pageToken", "POST", "/v2/package-vetting/list", map[string]any{"pageToken": huge}},
		{"list parties pageToken", "GET", "/v2/parties?pageToken=" + huge, nil},
		{"list users pageToken", "GET", "/v2/users?pageToken=" + huge, nil},
		{"allocate partyIdHint", "POST", "/v2/parties", map[string]any{"partyIdHint": huge}},
		{"get party", "GET", "/v2/parties/" + huge, nil},
		{"create user id", "POST", "/v2/users", map[string]any{"user": map[string]any{"id": huge}}},
		{"get user id", "GET", "/v2/users/" + huge, nil},
		{"create idp jwksUrl", "POST", "/v2/idps", map[string]any{"identityProviderConfig": map[string]any{"identityProviderId": "idp1", "issuer": "i", "jwksUrl": huge}}},
		{"create idp id", "POST", "/v2/idps", map[string]any{"identityProviderConfig": map[string]any{"identityProviderId": huge, "issuer": "i", "jwksUrl": "https://x/jwks"}}},
		{"update user mask", "PATCH", "/v2/users/participant_admin", map[string]any{"user": map[string]any{"id": "participant_admin"}, "updateMask": mask}},
		{"update party mask", "PATCH", "/v2/parties/" + url.PathEscape(f.alice), map[string]any{"partyDetails": map[string]any{"party": f.alice}, "updateMask": mask}},
		{"update idp mask", "PATCH", "/v2/idps/idp0", map[string]any{"identityProviderConfig": map[string]any{"identityProviderId": "idp0"}, "updateMask": mask}},
		{"package status id", "GET", "/v2/packages/" + huge + "/status", nil},
		{"get package id", "GET", "/v2/packages/" + huge, nil},
		{"tree by offset (decode)", "GET", "/v2/updates/transaction-tree-by-offset/" + huge + "?parties=" + url.QueryEscape(f.alice), nil},
		{"list parties pageSize (decode)", "GET", "/v2/parties?pageSize=" + huge, nil},
		{"number in an int field (decode)", "POST", "/v2/updates", `{"beginExclusive": ` + strings.Repeat("9", 3<<19) + `}`},
		{"vetting force flag (decode)", "POST", "/v2/package-vetting", map[string]any{"changes": []any{}, "updateVettedPackagesForceFlags": []string{huge}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := httpCall{method: tc.method, target: tc.target, header: f.auth}
			switch b := tc.body.(type) {
			case nil:
			case string:
				c.body = b
			default:
				c.body = js(t, b)
			}
			rec := serve(t, f.h, c)
			if rec.Code < 400 {
				t.Fatalf("status %d, want an error", rec.Code)
			}
			if n := rec.Body.Len(); n >= 4096 {
				t.Errorf("status %d, error body of %d bytes, want < 4096; starts %.300s", rec.Code, n, rec.Body)
			}
			if rec.Code == http.StatusInternalServerError {
				t.Errorf("status 500: %.300s", rec.Body)
			}
		})
	}
}
