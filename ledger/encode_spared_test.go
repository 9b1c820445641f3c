package ledger

import (
	"bytes"
	"testing"
	"time"
)

// TestEncodeSparedChecks: an entry whose nodes encodeNodes wrote
// (rawsStored when it wrote every raw member as it is) and whose times
// are formatTime's of instants wireInstant accepts (wireTimes) is stored
// as it is without the flags, with every kind of string and raw member of
// the samples.
func TestEncodeSparedChecks(t *testing.T) {
	times := []time.Time{time.Date(2026, 11, 29, 9, 0, 0, 123456000, time.UTC), time.Unix(0, 1), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)}
	stored := 0
	for i, e := range binarySamples() {
		if len(e.Topology) > 0 {
			continue
		}
		e.Nodes = append([]txNode(nil), e.Nodes...)
		_, _, asIs := encodeNodesInto(e.Nodes, nil)
		let, now := times[i%len(times)], times[(i+1)%len(times)]
		e.EffectiveAt, e.RecordTime = formatTime(let), formatTime(now)
		want := e.encode()
		e.rawsStored, e.wireTimes = asIs, wireInstant(let) && wireInstant(now)
		if asIs {
			stored++
		}
		if got := e.encode(); !bytes.Equal(got, want) {
			t.Errorf("entry %d (rawsStored %v): stored\n%q\nwant\n%q", i, asIs, got, want)
		}
	}
	if stored == 0 {
		t.Error("no sample has its raw members written as they are")
	}
}

// TestWireInstant: wireInstant(t) is wireTime(formatTime(t)).
func TestWireInstant(t *testing.T) {
	for _, tm := range []time.Time{{}, time.Time{}.Add(1), time.Time{}.Add(-1), time.Date(0, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC), time.Unix(0, 0), time.Now(), time.Date(2026, 3, 1, 1, 2, 3, 4, time.FixedZone("x", -3600)),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), wireEnd, wireEnd.Add(-1), wireEnd.Add(1), time.Date(10000, 1, 1, 0, 30, 0, 0, time.FixedZone("y", 3600)),
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(123456, 1, 1, 0, 0, 0, 0, time.UTC), lastTimestamp} {
		if got, want := wireInstant(tm), wireTime(formatTime(tm)); got != want {
			t.Errorf("wireInstant(%v) = %v, wireTime(%q) = %v", tm, got, formatTime(tm), want)
		}
	}
}
