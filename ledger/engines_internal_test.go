package ledger

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestEngineCacheKeepsPackagesApart: nodes share the process's engine
// cache (Options.EngineCache nil), yet a node whose store lacks a package
// — a fresh node, or one restored from a snapshot taken before the upload
// — answers as if no node of the process had run it: its engine fails
// with "unknown package" after another node's engine compiled the
// template, a create is refused with the same error as before and leaves
// the ledger end where it was, and once the node stores the package it
// runs it.
func TestEngineCacheKeepsPackagesApart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// A package of its own (no other test uploads it), so that its
	// definitions are compiled by this test's nodes only.
	pkg := lftest.IouPackage("1.0.0")
	pkg.Name = "engine-cache-iou"
	d, ids := lftest.DAR(pkg)
	iou := lf.TypeConID{PackageID: ids[0], Module: "Main", Name: "Iou"}
	open := openTestNode
	party := func(t *testing.T, n *Node) string { return allocateParties(t, n, "alice")[0] }
	create := func(n *Node, alice, id string) error {
		_, err := n.submitCmds(ctx, Commands{
			CommandID: id, ActAs: []string{alice}, UserID: "u",
			Commands: []Command{CreateCommand{Template: TemplateByID(iou), Arguments: value.Record{Fields: []value.RecordField{
				{Label: "owner", Value: value.Party(alice)}, {Label: "amount", Value: value.Int64(1)}}}}}})
		return err
	}
	// engineCalls run the create on the node's engine directly, past the
	// ledger's own package checks.
	engineCalls := []struct {
		name string
		run  func(n *Node, alice string) error
	}{
		{"NewRecord", func(n *Node, alice string) error {
			_, err := n.eng.NewRecord(iou, engine.Party(alice), engine.Int64(1))
			return err
		}},
		{"Submit", func(n *Node, alice string) error {
			arg := &engine.Record{Type: &engine.RecordType{ID: iou, Fields: []string{"owner", "amount"}},
				Fields: []engine.Value{engine.Party(alice), engine.Int64(1)}}
			_, err := n.eng.Submit(ctx, engine.Submission{ActAs: []string{alice}}, engine.CreateCommand(iou, arg))
			return err
		}},
	}
	for _, tc := range []struct {
		name string
		node func(t *testing.T) *Node // a node without the package
	}{
		{"fresh node", func(t *testing.T) *Node { return open(t, Options{}) }},
		{"restored from before the upload", func(t *testing.T) *Node {
			old := open(t, Options{})
			var snap bytes.Buffer
			if err := old.Snapshot(ctx, &snap); err != nil {
				t.Fatal(err)
			}
			return open(t, Options{Restore: &snap})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			without := tc.node(t)
			alice := party(t, without)
			errBefore := create(without, alice, "before")
			var ae *apierr.Error
			if !errors.As(errBefore, &ae) {
				t.Fatalf("create without the package: got %v, want a refusal", errBefore)
			}

			with := open(t, Options{})
			if err := with.UploadDAR(ctx, UploadDARRequest{DAR: d}); err != nil {
				t.Fatal(err)
			}
			if err := create(with, party(t, with), "with"); err != nil {
				t.Fatal(err)
			}
			for _, c := range engineCalls {
				if err := c.run(with, "alice"); err != nil {
					t.Fatalf("%s on the node with the package: %v", c.name, err)
				}
				if err := c.run(without, alice); err == nil || !strings.Contains(err.Error(), "unknown package "+ids[0]) {
					t.Errorf("%s on the node without the package: got %v, want unknown package", c.name, err)
				}
			}
			end, err := without.LedgerEnd(ctx)
			if err != nil {
				t.Fatal(err)
			}
			errAfter := create(without, alice, "after")
			if errAfter == nil || errAfter.Error() != errBefore.Error() {
				t.Errorf("create without the package after another node ran it:\n got %v\nwant %v", errAfter, errBefore)
			}
			if after, err := without.LedgerEnd(ctx); err != nil || after != end {
				t.Errorf("ledger end after the refusal: %v (%v), want %v", after, err, end)
			}

			if err := without.UploadDAR(ctx, UploadDARRequest{DAR: d}); err != nil {
				t.Fatal(err)
			}
			if err := create(without, alice, "uploaded"); err != nil {
				t.Errorf("create once the node stores the package: %v", err)
			}
		})
	}
}
