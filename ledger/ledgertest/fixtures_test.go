package ledgertest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// notes is a one-template DAR (Main:T with an owner) and its template id.
func notes() ([]byte, string) {
	dar, ids := lftest.DAR(lftest.TemplatePackage("notes", "1.0.0", nil,
		lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}))
	return dar, ids[0] + ":Main:T"
}

// create commits a Main:T of owner and returns the transaction.
func create(t *testing.T, node *ledger.Node, tmpl, cmdID, owner string) jsonapi.JsTransaction {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"owner": owner})
	resp, err := jsonapi.DecodeAnswer[jsonapi.SubmitAndWaitForTransactionResponse](jsonapi.New(node).SubmitAndWaitForTransaction(context.Background(), jsonapi.SubmitAndWaitForTransactionRequest{
		Commands: jsonapi.JsCommands{CommandID: cmdID, ActAs: []string{owner},
			Commands: []jsonapi.JsCommand{{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: tmpl, CreateArguments: args}}}}}))
	if err != nil {
		t.Fatalf("creating %s: %v", cmdID, err)
	}
	return resp.Transaction
}

func TestStaticTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	node, clock := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
	alice := ledgertest.MustAllocate(t, node, "alice")
	dar, tmpl := notes()
	ledgertest.MustUploadDAR(t, node, dar)

	v, err := node.Version(ctx)
	if err != nil || !v.StaticTime {
		t.Fatalf("Version: static time supported = %v, %v; want true", v.StaticTime, err)
	}
	tx := create(t, node, tmpl, "c1", alice)
	if tx.EffectiveAt != "1970-01-01T00:00:00Z" || tx.RecordTime != "1970-01-01T00:00:00Z" {
		t.Errorf("at the epoch: effectiveAt %s, recordTime %s", tx.EffectiveAt, tx.RecordTime)
	}

	clock.Advance(90 * time.Minute)
	if tx := create(t, node, tmpl, "c2", alice); tx.EffectiveAt != "1970-01-01T01:30:00Z" || tx.RecordTime != tx.EffectiveAt {
		t.Errorf("after Advance: effectiveAt %s, recordTime %s", tx.EffectiveAt, tx.RecordTime)
	}
	at := time.Date(2025, 1, 1, 0, 0, 0, 123456789, time.UTC)
	if err := node.SetTime(ctx, at); err != nil {
		t.Fatal(err)
	}
	if got, err := node.Time(ctx); err != nil || !got.Equal(at.Truncate(time.Microsecond)) {
		t.Errorf("Time = %v, %v; want %v (microseconds)", got, err, at.Truncate(time.Microsecond))
	}
	if tx := create(t, node, tmpl, "c3", alice); tx.EffectiveAt != "2025-01-01T00:00:00.123456Z" {
		t.Errorf("after SetTime: effectiveAt %s", tx.EffectiveAt)
	}

	// Time never goes back; the clock is unchanged by a refused move.
	for name, err := range map[string]error{
		"SetTime before":       node.SetTime(ctx, at.Add(-time.Second)),
		"AdvanceTime negative": node.AdvanceTime(ctx, -time.Second),
		"StaticClock.Set":      clock.Static().Set(time.Unix(0, 0)),
		"StaticClock.Advance":  clock.Static().Advance(-time.Microsecond),
	} {
		if !errors.Is(err, apierr.InvalidArgument) {
			t.Errorf("%s: %v, want INVALID_ARGUMENT", name, err)
		}
	}
	if !clock.Now().Equal(at.Truncate(time.Microsecond)) {
		t.Errorf("a refused move changed the clock: %v", clock.Now())
	}
	if err := node.SetTime(ctx, clock.Now()); err != nil {
		t.Errorf("setting the current time again: %v", err)
	}

	// Only a participant admin moves the time.
	user := ledger.WithPrincipal(ctx, principalOf(alice))
	if err := node.AdvanceTime(user, time.Hour); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("AdvanceTime as a party's user: %v, want PERMISSION_DENIED", err)
	}
}

func TestWallClockNodeRefusesTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	node := ledgertest.Open(t, ledger.Options{})
	v, err := node.Version(ctx)
	if err != nil || v.StaticTime {
		t.Errorf("Version: static time supported = %v, %v; want false", v.StaticTime, err)
	}
	if err := node.SetTime(ctx, time.Now().Add(time.Hour)); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("SetTime: %v, want INVALID_ARGUMENT", err)
	}
	if err := node.AdvanceTime(ctx, time.Hour); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("AdvanceTime: %v, want INVALID_ARGUMENT", err)
	}
	if _, err := ledger.Open(ledger.Options{Clock: time.Now, StaticTime: ledger.NewStaticClock(time.Unix(0, 0))}); err == nil {
		t.Error("Open with both Clock and StaticTime: no error")
	}
}

func TestStaticTimeOverHTTP(t *testing.T) {
	t.Parallel()
	node, _ := ledgertest.OpenStatic(t, ledger.Options{}, time.Unix(0, 0))
	srv, token := ledgertest.Serve(t, node)
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		name, method, body string
		status             int
		want               string // the body's currentTime, or a substring of an error
	}{
		{"get", "GET", "", 200, "1970-01-01T00:00:00Z"},
		{"advance", "POST", `{"advance": "1h"}`, 200, "1970-01-01T01:00:00Z"},
		{"advanceMicros", "POST", `{"advanceMicros": 1500000}`, 200, "1970-01-01T01:00:01.5Z"},
		{"set", "POST", `{"currentTime": "2025-01-01T00:00:00Z"}`, 200, "2025-01-01T00:00:00Z"},
		{"back", "POST", `{"currentTime": "2024-12-31T23:59:59Z"}`, 400, "INVALID_ARGUMENT"},
		{"negative advance", "POST", `{"advance": "-1s"}`, 400, "INVALID_ARGUMENT"},
		{"two fields", "POST", `{"advance": "1s", "advanceMicros": 1}`, 400, "exactly one"},
		{"bad time", "POST", `{"currentTime": "yesterday"}`, 400, "RFC 3339"},
		{"unchanged by refusals", "GET", "", 200, "2025-01-01T00:00:00Z"},
	}
	for _, tt := range tests {
		status, body := do(tt.method, "/ledgernode/v1/time", tt.body)
		if status != tt.status {
			t.Errorf("%s: status %d, want %d (%s)", tt.name, status, tt.status, body)
			continue
		}
		if status == 200 {
			var got struct{ CurrentTime string }
			if err := json.Unmarshal([]byte(body), &got); err != nil || got.CurrentTime != tt.want {
				t.Errorf("%s: %s, want currentTime %s", tt.name, body, tt.want)
			}
		} else if !strings.Contains(body, tt.want) {
			t.Errorf("%s: %s, want it to mention %q", tt.name, body, tt.want)
		}
	}
	if status, body := do("GET", "/v2/version", ""); status != 200 || !strings.Contains(body, `"staticTime":{"supported":true}`) {
		t.Errorf("/v2/version: %d %s, want static time supported", status, body)
	}

	wall := ledgertest.Open(t, ledger.Options{})
	srv, token = ledgertest.Serve(t, wall)
	if status, body := do("POST", "/ledgernode/v1/time", `{"advance": "1h"}`); status != 400 || !strings.Contains(body, "UNSUPPORTED") {
		t.Errorf("advancing a wall-clock node: %d %s, want 400 UNSUPPORTED", status, body)
	}
	if status, body := do("GET", "/v2/version", ""); status != 200 || !strings.Contains(body, `"staticTime":{"supported":false}`) {
		t.Errorf("/v2/version: %d %s, want static time unsupported", status, body)
	}
}

func TestSnapshotRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, durable := range []bool{false, true} {
		name := map[bool]string{false: "in-memory", true: "durable"}[durable]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			opts := ledger.Options{}
			if durable {
				opts.Dir = t.TempDir()
			}
			src := ledgertest.Open(t, opts)
			alice := ledgertest.MustAllocate(t, src, "alice")
			bob := ledgertest.MustAllocate(t, src, "bob")
			dar, tmpl := notes()
			ledgertest.MustUploadDAR(t, src, dar)
			create(t, src, tmpl, "c1", alice)
			create(t, src, tmpl, "c2", bob)
			snap := ledgertest.Snapshot(t, src)

			// In memory from the in-memory node, into a new directory from
			// the durable one.
			var dst *ledger.Node
			if durable {
				dst = ledgertest.Open(t, ledger.Options{Dir: t.TempDir(), Restore: bytes.NewReader(snap)})
			} else {
				dst = ledgertest.OpenFrom(t, snap, ledger.Options{})
			}
			if dst.ParticipantIDString() != src.ParticipantIDString() {
				t.Errorf("participant %s, want %s", dst.ParticipantIDString(), src.ParticipantIDString())
			}
			state := func(n *ledger.Node) (int64, []string, []string, []*update.CreatedEvent) {
				t.Helper()
				end, err := n.LedgerEnd(ctx)
				if err != nil {
					t.Fatal(err)
				}
				ps, _, err := n.ListParties(ctx, ledger.ListPartiesRequest{})
				if err != nil {
					t.Fatal(err)
				}
				var parties []string
				for _, p := range ps {
					parties = append(parties, p.Party)
				}
				pkgs, err := n.ListPackages(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var acs []*update.CreatedEvent
				for c, err := range n.ActiveContractEvents(ctx, ledger.ReadFormat{AnyParty: []ledger.Filter{}}, end) {
					if err != nil {
						t.Fatal(err)
					}
					acs = append(acs, c)
				}
				return end, parties, pkgs, acs
			}
			e1, p1, k1, a1 := state(src)
			e2, p2, k2, a2 := state(dst)
			if e1 != e2 || e1 == 0 {
				t.Errorf("ledger end %d, want %d", e2, e1)
			}
			if diff := cmp.Diff(p1, p2); diff != "" {
				t.Errorf("parties (-source +restored):\n%s", diff)
			}
			if diff := cmp.Diff(k1, k2); diff != "" {
				t.Errorf("packages (-source +restored):\n%s", diff)
			}
			if diff := cmp.Diff(a1, a2); diff != "" || len(a1) != 2 {
				t.Errorf("active contracts (%d; -source +restored):\n%s", len(a1), diff)
			}

			// The copy goes on from the same end, gaplessly, on its own.
			tx := create(t, dst, tmpl, "c3", alice)
			if tx.Offset != e1+1 {
				t.Errorf("first commit on the copy at offset %d, want %d", tx.Offset, e1+1)
			}
			if end, _ := src.LedgerEnd(ctx); end != e1 {
				t.Errorf("the source moved to %d", end)
			}
			if p := ledgertest.MustAllocate(t, dst, "carol"); !strings.HasPrefix(p, "carol::") {
				t.Errorf("allocated %s", p)
			}
			if end, _ := dst.LedgerEnd(ctx); end != e1+2 {
				t.Errorf("ledger end of the copy %d, want %d", end, e1+2)
			}
		})
	}
}

func TestRestoreNeedsAnEmptyStore(t *testing.T) {
	t.Parallel()
	src := ledgertest.Open(t, ledger.Options{})
	snap := ledgertest.Snapshot(t, src)
	dir := t.TempDir()
	n, err := ledger.Open(ledger.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	n.Close()
	if n, err := ledger.Open(ledger.Options{Dir: dir, Restore: bytes.NewReader(snap)}); err == nil {
		n.Close()
		t.Error("restoring into a used directory: no error")
	}
	if n, err := ledger.Open(ledger.Options{Restore: strings.NewReader("not a snapshot")}); err == nil {
		n.Close()
		t.Error("restoring garbage: no error")
	}
	user := ledger.WithPrincipal(context.Background(), principalOf("alice::1220ab"))
	if err := src.Snapshot(user, io.Discard); !errors.Is(err, apierr.PermissionDenied) {
		t.Errorf("Snapshot as a party's user: %v, want PERMISSION_DENIED", err)
	}
}

// principalOf is a user who may only act as party.
func principalOf(party string) identity.Principal {
	return identity.Principal{UserID: "someone", Rights: []identity.Right{{Kind: identity.RightCanActAs, Party: party}}}
}
