package main

import (
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/ledgernode/ledgernode/httpadapter"
)

// consoleConfig is the browser console's part of the command line.
type consoleConfig struct {
	on    bool
	token string
}

// consoleFlags registers -console and -console-token.
func consoleFlags(fs *flag.FlagSet, c *consoleConfig) {
	fs.BoolVar(&c.on, "console", true, "serve the browser console at /console on the API address")
	fs.StringVar(&c.token, "console-token", "", "access token the console uses for browsers that have not logged in (default: each browser logs in with a token)")
}

// apply sets the adapter's console options.
func (c consoleConfig) apply(o *httpadapter.Options) {
	o.Console, o.ConsoleToken = c.on, c.token
}

// banner prints the console's URL.
func (c consoleConfig) banner(w io.Writer, addr string) {
	if !c.on {
		return
	}
	host, port, err := net.SplitHostPort(addr)
	if err == nil && (host == "" || host == "0.0.0.0" || host == "::") {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	fmt.Fprintf(w, "Console: http://%s/console/\n", addr)
}
