// Command tail follows a ledger with the Go iterator: it prints every
// update as it is committed (here: parties allocated by a second
// goroutine), woken by the committer rather than by polling.
//
//	go run ./examples/tail
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/update"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := run(ctx, 5, func(s string) { fmt.Println(s) }); err != nil {
		log.Fatal(err)
	}
}

// run allocates n parties in the background and prints the topology
// updates as the tailing iterator receives them.
func run(ctx context.Context, n int, print func(string)) error {
	node, err := ledger.Open(ledger.Options{InMemory: true})
	if err != nil {
		return err
	}
	defer node.Close()
	go func() {
		for i := range n {
			time.Sleep(50 * time.Millisecond)
			node.AllocateParty(ctx, ledger.AllocatePartyRequest{PartyIDHint: fmt.Sprintf("p%d", i)})
		}
	}()
	all := ledger.UpdateReadFormat{Topology: &ledger.TopologyReadFormat{ParticipantAuthorizations: []string{}}}
	seen := 0
	for u, err := range node.Updates(ctx, all, ledger.OffsetRange{Tail: true}) {
		if err != nil {
			return err
		}
		t, ok := u.(*update.TopologyTransaction)
		if !ok {
			continue
		}
		print(fmt.Sprintf("offset %d: %s added", t.Offset, t.Events[0].PartyID))
		if seen++; seen == n {
			return nil // stopping the loop releases the iterator
		}
	}
	return nil
}
