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
	all := ledger.UpdateFormat{IncludeTopologyEvents: &ledger.TopologyFormat{
		IncludeParticipantAuthorizationEvents: &ledger.ParticipantAuthorizationTopologyFormat{}}}
	seen := 0
	for u, err := range node.Updates(ctx, ledger.GetUpdatesPageRequest{UpdateFormat: all}) {
		if err != nil {
			return err
		}
		ev := u.TopologyTransaction.Value.Events[0].Event.ParticipantAuthorizationAdded.Value
		print(fmt.Sprintf("offset %d: %s added", u.Offset(), ev.PartyID))
		if seen++; seen == n {
			return nil // stopping the loop releases the iterator
		}
	}
	return nil
}
