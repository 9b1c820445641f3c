package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/scriptledger"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// scriptFlags declares -dar and -init-script (issue 14).
func scriptFlags(fs *flag.FlagSet, c *config) {
	fs.Var(&c.dars, "dar", "upload and vet this DAR at start (repeatable)")
	fs.Var(&c.initScripts, "init-script", "run this Daml Script (Module.Name:value of a -dar's main package) against the node before serving (repeatable, in order), as a Canton sandbox is seeded")
}

// seed uploads the -dar files and runs the -init-script scripts. A script
// runs as a trusted in-process caller, in the node's own contract-state
// mode and on its clock (setTime needs -static-time).
func (c config) seed(ctx context.Context, node *ledger.Node, logger *slog.Logger) error {
	var mains []*lf.Package
	for _, path := range c.dars {
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("-dar: %w", err)
		}
		if err := node.UploadDAR(ctx, ledger.UploadDARRequest{DAR: data}); err != nil {
			return fmt.Errorf("-dar %s: %w", path, err)
		}
		dar, err := lf.ReadDAR(data, lf.ReadOptions{MaxTotalSize: c.maxDARInflation})
		if err != nil {
			return fmt.Errorf("-dar %s: %w", path, err)
		}
		// The node logs "DAR uploaded" with the main package id.
		mains = append(mains, dar.Main)
	}
	if len(c.initScripts) == 0 {
		return nil
	}
	pkgs, err := node.PackageSource(ctx)
	if err != nil {
		return err
	}
	r := script.NewRunner(pkgs, script.Options{Trace: func(id lf.TypeConID, msg string) {
		logger.Info("script trace", "script", script.Name(id), "msg", msg)
	}})
	l := scriptledger.New(node, scriptledger.Options{NodeContractState: true})
	for _, name := range c.initScripts {
		id, err := findScript(mains, name)
		if err != nil {
			return fmt.Errorf("-init-script: %w", err)
		}
		start := time.Now()
		if _, err := r.Run(ctx, id, l); err != nil {
			return fmt.Errorf("-init-script: %w", err)
		}
		logger.Info("init script done", "script", name, "ms", time.Since(start).Milliseconds())
	}
	return nil
}

// findScript looks a script name up in the main packages of the -dar
// files, first DAR first.
func findScript(mains []*lf.Package, name string) (lf.TypeConID, error) {
	for _, p := range mains {
		id, err := script.ParseName(p.ID, name)
		if err != nil {
			return lf.TypeConID{}, err
		}
		if p.Value(id.Module, id.Name) != nil {
			return id, nil
		}
	}
	return lf.TypeConID{}, fmt.Errorf("no script %s in the main package of a -dar", name)
}
