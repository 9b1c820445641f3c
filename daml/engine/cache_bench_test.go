package engine_test

import (
	"context"
	"testing"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// BenchmarkFreshEngine measures a command's first submission on a new
// engine (as on a node opened per script or per test): with a cache of its
// own the engine compiles every definition the command uses; sharing a
// Cache another engine has filled, it compiles none and evaluates no
// top-level value again.
func BenchmarkFreshEngine(b *testing.B) {
	ping := func(b *testing.B) (*lf.DAR, engine.Submission, engine.Value) {
		d := loadDAR(b, pingDARName)
		id := typeID(b, d, pingPkgName, "Canton.Internal.Ping", "Ping")
		arg, err := engine.New(d, engine.Options{}).NewRecord(id, engine.Text("ping-1"), engine.Party("alice"), engine.Party("bob"))
		if err != nil {
			b.Fatal(err)
		}
		return d, engine.Submission{ActAs: []string{"alice"}}, engine.CreateCommand(id, arg)
	}
	amulet := func(b *testing.B) (*lf.DAR, engine.Submission, engine.Value) {
		a := newAmulet(b)
		const dso, owner = "dso::1220aa", "alice::1220bb"
		arg := a.amuletArg(b, dso, owner, "100.0", 3, "0.001")
		return loadDAR(b, amuletDARName), engine.Submission{ActAs: []string{dso, owner}}, engine.CreateCommand(a.amulet, arg)
	}
	for _, bc := range []struct {
		name   string
		cmd    func(*testing.B) (*lf.DAR, engine.Submission, engine.Value)
		shared bool
	}{
		{"PingCreate/own", ping, false},
		{"PingCreate/shared", ping, true},
		{"AmuletCreate/own", amulet, false},
		{"AmuletCreate/shared", amulet, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d, sub, cmd := bc.cmd(b)
			ctx := context.Background()
			var c *engine.Cache
			if bc.shared {
				c = engine.NewCache()
				if _, err := engine.New(d, engine.Options{Cache: c}).Submit(ctx, sub, cmd); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := engine.New(d, engine.Options{Cache: c}).Submit(ctx, sub, cmd); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
