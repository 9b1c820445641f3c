package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRun: alice's Ping and bob's Respond come back as typed trees, and
// bob reads both updates.
func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := "offset 3:\n" +
		`  create Ping:Ping {id: "ping-1", initiator: alice, responder: bob}` + "\n" +
		"offset 4:\n" +
		"  exercise Respond by bob, consuming true\n" +
		"bob's update at offset 3: 1 event(s)\n" +
		"bob's update at offset 4: 1 event(s)\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
