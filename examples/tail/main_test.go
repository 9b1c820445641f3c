package main

import (
	"context"
	"testing"
	"time"
)

func TestTail(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var lines []string
	if err := run(ctx, 3, func(s string) { lines = append(lines, s) }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 {
		t.Fatalf("printed %v", lines)
	}
}
