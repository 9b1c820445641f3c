package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/ledgertest"
	"github.com/ledgernode/ledgernode/registry"
)

func instrument(id string) registry.Instrument {
	return registry.Instrument{ID: id, Name: "Name " + id, Symbol: id, Decimals: 10,
		SupportedAPIs: map[string]int32{registry.MetadataAPI: 1}}
}

func allInstruments(t *testing.T, n *ledger.Node) []registry.Instrument {
	t.Helper()
	var out []registry.Instrument
	for in, err := range n.AllInstruments(context.Background(), 100) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, in)
	}
	return out
}

func TestRegistryPagingUnderConcurrentInserts(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for i := range 50 {
		if _, err := n.PutInstrument(ctx, instrument(fmt.Sprintf("i%03d", i*2))); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	token := ""
	for added := 0; ; added++ {
		page, next, err := n.ListInstruments(ctx, 7, token)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range page {
			seen[in.ID]++
		}
		// Insert between pages, before and after the cursor.
		for _, id := range []string{fmt.Sprintf("i%03d", added*2+1), fmt.Sprintf("a%03d", added)} {
			if _, err := n.PutInstrument(ctx, instrument(id)); err != nil {
				t.Fatal(err)
			}
		}
		if next == "" {
			break
		}
		token = next
	}
	for i := range 50 {
		id := fmt.Sprintf("i%03d", i*2)
		if seen[id] != 1 {
			t.Errorf("instrument %s seen %d times, want exactly once", id, seen[id])
		}
	}
	for id, c := range seen {
		if c != 1 {
			t.Errorf("instrument %s seen %d times", id, c)
		}
	}
}

func TestRegistryReopenAndErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	n, err := ledger.Open(ledger.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.RegistryInfo(ctx); !errors.Is(err, apierr.RegistryInfoNotSet) {
		t.Errorf("info before set: %v", err)
	}
	file := registry.File{Info: registry.Info{AdminID: "admin::1220ab", SupportedAPIs: map[string]int32{registry.MetadataAPI: 1}},
		Instruments: []registry.Instrument{instrument("A"), instrument("B")}}
	if err := n.PutInstruments(ctx, file); err != nil {
		t.Fatal(err)
	}
	bad := instrument("C")
	bad.Decimals = 11
	user := ledger.WithPrincipal(ctx, identity.Principal{UserID: "u"})
	for _, tc := range []struct {
		name string
		call func() error
		code apierr.Code
	}{
		{"invalid instrument", func() error { _, err := n.PutInstrument(ctx, bad); return err }, apierr.InvalidArgument},
		{"invalid batch", func() error {
			return n.PutInstruments(ctx, registry.File{Info: file.Info, Instruments: []registry.Instrument{instrument("D"), bad}})
		}, apierr.InvalidArgument},
		{"not admin", func() error { _, err := n.PutInstrument(user, instrument("E")); return err }, apierr.PermissionDenied},
		{"delete unknown", func() error { return n.DeleteInstrument(ctx, "nope") }, apierr.InstrumentNotFound},
		{"bad info", func() error { _, err := n.SetRegistryInfo(ctx, registry.Info{}); return err }, apierr.InvalidArgument},
		{"page size 101", func() error {
			_, _, err := n.ListInstruments(ctx, 101, "")
			return err
		}, apierr.InvalidArgument},
		{"bad token", func() error {
			_, _, err := n.ListInstruments(ctx, 0, "%%")
			return err
		}, apierr.InvalidArgument},
	} {
		before := allInstruments(t, n)
		if err := tc.call(); !errors.Is(err, tc.code) {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.code.Name)
		}
		if diff := cmp.Diff(before, allInstruments(t, n)); diff != "" {
			t.Errorf("%s changed the instruments:\n%s", tc.name, diff)
		}
	}
	if _, err := n.GetInstrument(user, "A"); err != nil {
		t.Errorf("reading needs no right: %v", err)
	}
	if err := n.DeleteInstrument(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	n.Close()

	n, err = ledger.Open(ledger.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if diff := cmp.Diff([]registry.Instrument{instrument("A")}, allInstruments(t, n)); diff != "" {
		t.Errorf("instruments after reopen (-want +got):\n%s", diff)
	}
	info, err := n.RegistryInfo(ctx)
	if err != nil || !cmp.Equal(file.Info, info) {
		t.Errorf("info after reopen = %+v, %v", info, err)
	}
	if _, err := n.GetInstrument(ctx, "B"); !errors.Is(err, apierr.InstrumentNotFound) {
		t.Errorf("deleted instrument: %v", err)
	}
}

func TestAllInstrumentsStops(t *testing.T) {
	t.Parallel()
	n := ledgertest.Open(t, ledger.Options{})
	ctx := context.Background()
	for i := range 30 {
		n.PutInstrument(ctx, instrument(fmt.Sprintf("x%02d", i)))
	}
	count := 0
	for _, err := range n.AllInstruments(ctx, 5) {
		if err != nil {
			t.Fatal(err)
		}
		if count++; count == 12 {
			break
		}
	}
	if count != 12 || len(allInstruments(t, n)) != 30 {
		t.Errorf("count %d", count)
	}
}
