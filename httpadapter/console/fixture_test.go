package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger"
)

// pingDAR is Canton's built-in Ping workflow DAR (Ping and Bong).
var pingDAR = filepath.Join("..", "..", "..", "shared", "testdata", "dars", "canton-builtin-admin-workflow-ping.dar")

// readPingDAR reads the DAR or skips the test.
func readPingDAR(tb testing.TB) []byte {
	tb.Helper()
	dar, err := os.ReadFile(pingDAR)
	if err != nil {
		tb.Skipf("the ping DAR is not available (%v): ../shared/testdata/dars is needed", err)
	}
	return dar
}

// world is a node with the ping DAR, parties and a finished Bong
// workflow (maxLevel 2).
type world struct {
	node                    *ledger.Node
	pkg                     string
	alice, bob, carol, dave string
	ping                    string // a Ping alice -> dave, which bob does not see
	mergeRoot, mergeL       string // update ids of the ProcessMerge of paths "" and "L"
	bong                    string // the Bong contract
	collapsesL              []string
	explodeUpdate           string
}

func (w *world) tid(module, name string) lf.TypeConID {
	return lf.TypeConID{PackageID: w.pkg, Module: module, Name: name}
}

// submit runs one command from Daml JSON and returns the result.
func (w *world) submit(tb testing.TB, party string, cmd testCommand, argJSON string) *ledger.Committed {
	tb.Helper()
	ctx := context.Background()
	pm, err := w.node.PackageSource(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	lookup := func(id string) *lf.Package { return pm[id] }
	var t lf.Type
	if cmd.Kind == testCreate {
		t = value.TypeOf(cmd.TemplateID.PackageID, cmd.TemplateID.Module, cmd.TemplateID.Name)
	} else {
		t = pm[w.pkg].Choice(cmd.TemplateID.Module, cmd.TemplateID.Name, cmd.Choice).ArgType
	}
	v, err := value.FromJSON(json.RawMessage(argJSON), t, lookup)
	if err != nil {
		tb.Fatalf("%s: %v", argJSON, err)
	}
	if cmd.Kind == testCreate {
		cmd.CreateArgument = v
	} else {
		cmd.ChoiceArgument = v
	}
	res, err := submitCommands(ctx, w.node, []string{party}, []testCommand{cmd})
	if err != nil {
		tb.Fatalf("submit as %s: %v", party, err)
	}
	return res
}

// created returns the contracts a transaction created, by template name
// and path argument.
func created(t *tx.Transaction) map[string][]string {
	out := map[string][]string{}
	for _, n := range t.All() {
		c, ok := n.(*tx.Create)
		if !ok {
			continue
		}
		key := c.TemplateID.Name
		if r, ok := c.Arg.(value.Record); ok {
			for _, f := range r.Fields {
				if f.Label == "path" {
					key += ":" + string(f.Value.(value.Text))
				}
			}
		}
		out[key] = append(out[key], string(c.ContractID))
	}
	return out
}

var (
	worldOnce sync.Once
	worldSnap []byte
	worldBase world
)

// newWorld opens a node copied from one prepared world.
func newWorld(tb testing.TB) *world {
	tb.Helper()
	dar := readPingDAR(tb)
	worldOnce.Do(func() {
		n, err := ledger.Open(ledger.Options{InMemory: true})
		if err != nil {
			tb.Fatal(err)
		}
		defer n.Close()
		w := &world{node: n}
		buildWorld(tb, w, dar)
		var buf bytesBuffer
		if err := n.Snapshot(context.Background(), &buf); err != nil {
			tb.Fatal(err)
		}
		worldSnap, worldBase = buf.b, *w
	})
	if worldSnap == nil {
		tb.Fatal("the world could not be built")
	}
	w := worldBase
	n, err := ledger.Open(ledger.Options{InMemory: true, Restore: bytes.NewReader(worldSnap)})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { n.Close() })
	w.node = n
	return &w
}

type bytesBuffer struct{ b []byte }

func (b *bytesBuffer) Write(p []byte) (int, error) { b.b = append(b.b, p...); return len(p), nil }

func buildWorld(tb testing.TB, w *world, dar []byte) {
	ctx := context.Background()
	if err := w.node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: dar}); err != nil {
		tb.Fatal(err)
	}
	pm, err := w.node.PackageSource(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	for id, p := range pm {
		if p.Name == "canton-builtin-admin-workflow-ping" {
			w.pkg = id
		}
	}
	w.alice = allocate(tb, w.node, "alice")
	w.bob = allocate(tb, w.node, "bob")
	w.carol = allocate(tb, w.node, "carol")
	w.dave = allocate(tb, w.node, "dave")
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }

	res := w.submit(tb, w.alice, testCommand{Kind: testCreate, TemplateID: w.tid("Canton.Internal.Ping", "Ping")},
		js(map[string]any{"id": "ping-dave", "initiator": w.alice, "responder": w.dave}))
	w.ping = created(res.Transaction)["Ping"][0]

	bong := "Canton.Internal.Bong"
	res = w.submit(tb, w.alice, testCommand{Kind: testCreate, TemplateID: w.tid(bong, "BongProposal")},
		js(map[string]any{"id": "bong-1", "initiator": w.alice, "candidates": []string{w.bob}, "validators": []string{},
			"responders": []string{w.carol}, "maxLevel": "2", "timeout": "2030-01-01T00:00:00Z"}))
	prop := created(res.Transaction)["BongProposal"][0]
	res = w.submit(tb, w.bob, testCommand{Kind: testExercise, TemplateID: w.tid(bong, "BongProposal"), ContractID: prop, Choice: "Accept"},
		js(map[string]any{"validator": w.bob}))
	explode := created(res.Transaction)["Explode:"][0]
	res = w.submit(tb, w.carol, testCommand{Kind: testExercise, TemplateID: w.tid(bong, "Explode"), ContractID: explode, Choice: "ProcessExplode"},
		js(map[string]any{"winner": w.carol}))
	w.explodeUpdate = res.UpdateID
	top := created(res.Transaction)
	merges := map[string]string{"": top["Merge:"][0]}
	collapses := map[string][]string{}
	for _, p := range []string{"L", "R"} {
		id := top["Explode:"+p][0]
		r := w.submit(tb, w.carol, testCommand{Kind: testExercise, TemplateID: w.tid(bong, "Explode"), ContractID: id, Choice: "ProcessExplode"},
			js(map[string]any{"winner": w.carol}))
		c := created(r.Transaction)
		merges[p] = c["Merge:"+p][0]
		collapses[p] = c["Collapse:"+p]
	}
	w.collapsesL = collapses["L"]
	for _, p := range []string{"L", "R"} {
		r := w.submit(tb, w.carol, testCommand{Kind: testExercise, TemplateID: w.tid(bong, "Merge"), ContractID: merges[p], Choice: "ProcessMerge"},
			js(map[string]any{"winner": w.carol, "leftId": collapses[p][0], "rightId": collapses[p][1]}))
		collapses[""] = append(collapses[""], created(r.Transaction)["Collapse:"]...)
		if p == "L" {
			w.mergeL = r.UpdateID
		}
	}
	r := w.submit(tb, w.carol, testCommand{Kind: testExercise, TemplateID: w.tid(bong, "Merge"), ContractID: merges[""], Choice: "ProcessMerge"},
		js(map[string]any{"winner": w.carol, "leftId": collapses[""][0], "rightId": collapses[""][1]}))
	w.mergeRoot = r.UpdateID
	w.bong = created(r.Transaction)["Bong"][0]
}

func allocate(tb testing.TB, n *ledger.Node, hint string) string {
	tb.Helper()
	d, err := n.AllocateParty(context.Background(), ledger.AllocatePartyRequest{PartyIDHint: hint})
	if err != nil {
		tb.Fatal(fmt.Errorf("allocating %s: %w", hint, err))
	}
	return d.Party
}
