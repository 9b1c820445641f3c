package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// TestTapsMaxPassesRefused: a tapsMaxPasses that is not strictly positive
// is refused by every entry point that takes one, as Canton's
// CommandsValidator does (INVALID_ARGUMENT "taps_max_passes must be
// strictly positive, but got <n>."), leaving the store as it was; a
// positive value, however large, is accepted.
func TestTapsMaxPassesRefused(t *testing.T) {
	t.Parallel()
	entries := []struct {
		name string
		run  func(ctx context.Context, o *observedNode, cmdID string, taps *int32) error
	}{
		{"Submit", func(ctx context.Context, o *observedNode, cmdID string, taps *int32) error {
			_, err := jsonapi.New(o.n).SubmitAsync(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{o.alice}, TapsMaxPasses: taps,
				Commands: []jsonapi.JsCommand{o.createT(o.alice, o.alice)}})
			return err
		}},
		{"SubmitAndWait", func(ctx context.Context, o *observedNode, cmdID string, taps *int32) error {
			_, err := jsonapi.New(o.n).SubmitAndWait(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{o.alice}, TapsMaxPasses: taps,
				Commands: []jsonapi.JsCommand{o.createT(o.alice, o.alice)}})
			return err
		}},
		{"SubmitAndWaitForTransaction", func(ctx context.Context, o *observedNode, cmdID string, taps *int32) error {
			_, err := jsonapi.New(o.n).SubmitAndWaitForTransaction(ctx, jsonapi.SubmitAndWaitForTransactionRequest{Commands: jsonapi.JsCommands{
				CommandID: cmdID, ActAs: []string{o.alice}, TapsMaxPasses: taps, Commands: []jsonapi.JsCommand{o.createT(o.alice, o.alice)}}})
			return err
		}},
		{"SubmitAndWaitForTransactionTree", func(ctx context.Context, o *observedNode, cmdID string, taps *int32) error {
			_, err := jsonapi.New(o.n).SubmitAndWaitForTransactionTree(ctx, jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{o.alice}, TapsMaxPasses: taps,
				Commands: []jsonapi.JsCommand{o.createT(o.alice, o.alice)}})
			return err
		}},
		{"PrepareSubmission", func(ctx context.Context, o *observedNode, cmdID string, taps *int32) error {
			_, err := jsonapi.New(o.n).PrepareSubmission(ctx, jsonapi.JsPrepareSubmissionRequest{CommandID: cmdID, ActAs: []string{o.alice}, TapsMaxPasses: taps,
				Commands: []jsonapi.JsCommand{o.createT(o.alice, o.alice)}})
			return err
		}},
	}
	ptr := func(v int32) *int32 { return &v }
	for _, entry := range entries {
		t.Run(entry.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			o := newObservedNode(t, ledger.Options{})
			for _, taps := range []int32{-1, 0, -2147483648} {
				before := ledger.StoreDumpForTest(t, o.n)
				err := entry.run(ctx, o, fmt.Sprintf("c%d", taps), ptr(taps))
				want := fmt.Sprintf("The submitted request has invalid arguments: taps_max_passes must be strictly positive, but got %d.", taps)
				var ae *apierr.Error
				if !errors.As(err, &ae) || ae.Code != apierr.InvalidArgument || ae.Cause != want {
					t.Errorf("tapsMaxPasses %d: %v, want INVALID_ARGUMENT %q", taps, err, want)
				}
				if diff := cmp.Diff(before, ledger.StoreDumpForTest(t, o.n)); diff != "" {
					t.Errorf("tapsMaxPasses %d: the refusal changed the store (-before +after):\n%s", taps, diff)
				}
			}
			for i, taps := range []*int32{nil, ptr(1), ptr(2147483647)} {
				if err := entry.run(ctx, o, fmt.Sprintf("ok%d", i), taps); err != nil {
					t.Errorf("tapsMaxPasses %v: %v", taps, err)
				}
			}
		})
	}
}
