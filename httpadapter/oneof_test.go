package httpadapter

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestOneOfWithoutVariant: a one-of sent as an object naming none of its
// variants ({} or a typo'd variant) is a decode failure, 400 text/plain,
// as Canton's codecs of these ADTs have it, and changes nothing; it is not
// read as an absent one-of (a deduplication over the maximum period, an
// unchecked topology serial, a wildcard filter). An absent one-of or null
// stays the relaxed default.
func TestOneOfWithoutVariant(t *testing.T) {
	t.Parallel()
	f := newLedgerFixture(t, ledger.Options{}, Options{}, nil)
	submit := func(id, dedup string) string {
		return fmt.Sprintf(`{"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"owner":%q,"amount":"1"}}}],`+
			`"commandId":%q,"actAs":[%q]%s}`, f.iou(), f.alice, id, f.alice, dedup)
	}
	unvet := func(serial string) string {
		return fmt.Sprintf(`{"changes":[{"operation":{"Unvet":{"value":{"packages":[{"packageId":%q}]}}}}],"expectedTopologySerial":%s}`, f.pkg, serial)
	}
	acs := func(filter string) string {
		return fmt.Sprintf(`{"activeAtOffset":%d,"eventFormat":{"filtersByParty":{%q:{"cumulative":[%s]}}}}`, f.end(), f.alice, filter)
	}
	prepare := func(time string) string {
		return fmt.Sprintf(`{"commands":[{"CreateCommand":{"templateId":%q,"createArguments":{"owner":%q,"amount":"1"}}}],`+
			`"commandId":"p","actAs":[%q],"synchronizerId":"","packageIdSelectionPreference":[],"minLedgerTime":{"time":%s}}`, f.iou(), f.alice, f.alice, time)
	}
	const dedupWant = "Invalid value for: body (expected one of DeduplicationDuration, DeduplicationOffset, Empty at 'deduplicationPeriod')"
	for _, tc := range []struct {
		name, target, body, want string
	}{
		{"deduplication period {}", "/v2/commands/submit-and-wait", submit("d1", `,"deduplicationPeriod":{}`), dedupWant},
		{"deduplication period with a typo", "/v2/commands/submit-and-wait",
			submit("d2", `,"deduplicationPeriod":{"DeduplicationOfset":{"value":0}}`), dedupWant},
		{"execute's deduplication period", "/v2/interactive-submission/execute",
			`{"preparedTransaction":"","submissionId":"s","deduplicationPeriod":{"Dedup":{}}}`, dedupWant},
		{"topology serial with a typo", "/v2/package-vetting/update", unvet(`{"serial":{"Prrior":{"value":7}}}`),
			"Invalid value for: body (expected one of Empty, NoPrior, Prior at 'expectedTopologySerial.serial')"},
		{"identifier filter {}", "/v2/state/active-contracts", acs(`{"identifierFilter":{}}`),
			"Invalid value for: body (expected one of Empty, InterfaceFilter, TemplateFilter, WildcardFilter at 'eventFormat.filtersByParty.cumulative.identifierFilter')"},
		{"minimum ledger time with a typo", "/v2/interactive-submission/prepare", prepare(`{"MinLedgerTimeAbz":{"value":"2025-01-01T00:00:00Z"}}`),
			"Invalid value for: body (expected one of Empty, MinLedgerTimeAbs, MinLedgerTimeRel at 'minLedgerTime.time')"},
		{"vetting operation with a typo", "/v2/package-vetting/update", `{"changes":[{"operation":{"Unvett":{"value":{}}}}]}`,
			"Invalid value for: body (expected one of Empty, Unvet, Vet at 'changes.operation')"},
		{"reassignment command {}", "/v2/commands/async/submit-reassignment",
			`{"reassignmentCommands":{"submitter":"x","commandId":"c","commands":[{"command":{}}]}}`,
			"Invalid value for: body (expected one of AssignCommand, Empty, UnassignCommand at 'reassignmentCommands.commands.command')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, vetted := f.state(), f.post("/v2/package-vetting/list", "{}").Body.String()
			wantText(t, f.post(tc.target, tc.body), http.StatusBadRequest, tc.want)
			if after := f.state(); after.End != before.End {
				t.Errorf("the ledger end moved from %d to %d", before.End, after.End)
			}
			if after := f.post("/v2/package-vetting/list", "{}").Body.String(); after != vetted {
				t.Errorf("the vetted packages changed:\n%s\n%s", vetted, after)
			}
		})
	}
	// An absent one-of, or null, is the relaxed default.
	for i, tc := range []struct{ target, body string }{
		{"/v2/commands/submit-and-wait", submit("d3", `,"deduplicationPeriod":null`)},
		{"/v2/commands/submit-and-wait", submit("d4", "")},
		{"/v2/package-vetting/update", unvet(`{}`)},
		{"/v2/state/active-contracts", acs(`{"identifierFilter":null}`)},
		{"/v2/state/active-contracts", acs(`{}`)},
	} {
		if rec := f.post(tc.target, tc.body); rec.Code != http.StatusOK {
			t.Errorf("%d. %s: %d %s, want 200", i, tc.target, rec.Code, rec.Body)
		}
	}
}
