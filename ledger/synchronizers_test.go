package ledger_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

func TestConnectedSynchronizers(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{ParticipantID: "p1", Synchronizers: []string{"a::1220aa", "b::1220bb"}})
	alice := ledgertest.MustAllocate(t, n, "alice")
	both := []ledger.SynchronizerConnection{
		{Alias: "a", ID: "a::1220aa", Permission: update.PermissionSubmission},
		{Alias: "b", ID: "b::1220bb", Permission: update.PermissionSubmission},
	}
	tests := []struct {
		name, party, participant string
		want                     []ledger.SynchronizerConnection
	}{
		{"every synchronizer", "", "", both},
		{"a local party", alice, "", both},
		{"this participant", alice, n.ParticipantIDString(), both},
		{"an unknown party", "nobody::1220cc", "", []ledger.SynchronizerConnection{}},
		{"another participant", "", "p2::1220dd", []ledger.SynchronizerConnection{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := n.ConnectedSynchronizers(context.Background(), tt.party, tt.participant)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ConnectedSynchronizers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConnectedSynchronizersRefusals: a party or participant id that
// cannot name one is INVALID_FIELD, as Canton's
// ApiStateService.getConnectedSynchronizers validates them, not an empty
// answer.
func TestConnectedSynchronizersRefusals(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	for _, tt := range []struct{ name, party, participant, cause string }{
		{"a party that is not a party string", "not a party!", "", "party: non expected character 0x21"},
		{"a participant id without namespace", "", "participant1", "participant_id: "},
		{"a participant id that is not a party string", "", "p!::1220aa", "participant_id: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := n.ConnectedSynchronizers(context.Background(), tt.party, tt.participant)
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code.Name != apierr.InvalidField.Name || !strings.Contains(ae.Cause, tt.cause) {
				t.Errorf("ConnectedSynchronizers(%q, %q): %v, want INVALID_FIELD with %q", tt.party, tt.participant, err, tt.cause)
			}
		})
	}
}

func TestLedgerEndOffset(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	before, err := n.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.MustAllocate(t, n, "alice") // one topology update
	after, err := n.LedgerEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after != before+1 {
		t.Errorf("LedgerEnd = %d after one update, want %d", after, before+1)
	}
	// A caller that has gone away is answered with its context's error.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := n.LedgerEnd(gone); !errors.Is(err, context.Canceled) {
		t.Errorf("LedgerEnd with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := n.ConnectedSynchronizers(gone, "", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("ConnectedSynchronizers with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestReopenWithOtherSynchronizers: a store reopened with another
// synchronizer list takes it (synchronizers connect and disconnect), and
// warns about the ones left out, whose contracts become unusable; one
// reopened without a list keeps the stored one, silently.
func TestReopenWithOtherSynchronizers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := "a::1220aa", "b::1220bb"
	n, err := ledger.Open(ledger.Options{Dir: dir, Synchronizers: []string{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	n.Close()
	for _, tc := range []struct {
		name  string
		list  []string
		want  []string
		warns bool
	}{
		{"without a list", nil, []string{a, b}, false},
		{"with one left out", []string{a}, []string{a}, true},
		{"with it back", []string{a, b}, []string{a, b}, false},
	} {
		var logs strings.Builder
		n, err := ledger.Open(ledger.Options{Dir: dir, Synchronizers: tc.list, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		got := n.Synchronizers()
		n.Close()
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: synchronizers (-want +got):\n%s", tc.name, diff)
		}
		if warned := strings.Contains(logs.String(), "no longer all connected") && strings.Contains(logs.String(), b); warned != tc.warns {
			t.Errorf("%s: warned %v, want %v; logs:\n%s", tc.name, warned, tc.warns, logs.String())
		}
	}
}
