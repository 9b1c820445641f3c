package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func TestStaticTimeFlag(t *testing.T) {
	tests := []struct {
		args    []string
		set     bool
		want    time.Time
		wantErr bool
	}{
		{nil, false, time.Time{}, false},
		{[]string{"-static-time"}, true, time.Unix(0, 0).UTC(), false},
		{[]string{"-static-time=2025-01-01T00:00:00Z"}, true, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{[]string{"-static-time", "-in-memory"}, true, time.Unix(0, 0).UTC(), false},
		{[]string{"-static-time=yesterday"}, false, time.Time{}, true},
	}
	for _, tt := range tests {
		c, err := parseFlags(tt.args, io.Discard)
		if (err != nil) != tt.wantErr {
			t.Errorf("%v: error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && (c.staticTime.set != tt.set || !c.staticTime.at.Equal(tt.want)) {
			t.Errorf("%v: static time %v %v, want %v %v", tt.args, c.staticTime.set, c.staticTime.at, tt.set, tt.want)
		}
	}
}

// TestSnapshotRestoreStaticTimeMetrics: a node on static time whose time
// moves over HTTP, whose /metrics counts requests, and whose snapshot
// written on shutdown starts another node with the same parties.
func TestSnapshotRestoreStaticTimeMetrics(t *testing.T) {
	t.Parallel()
	snap := filepath.Join(t.TempDir(), "node.snapshot")
	var party string
	t.Run("first", func(t *testing.T) {
		base, _ := start(t, "-in-memory", "-auth", "none", "-static-time=2025-01-01T00:00:00Z", "-snapshot", snap)
		code, body := call(t, "POST", base+"/v2/parties", "", `{"partyIdHint": "alice"}`)
		if code != 200 {
			t.Fatalf("allocating: %d %v", code, body)
		}
		party = body["partyDetails"].(map[string]any)["party"].(string)
		if code, body := call(t, "POST", base+"/ledgernode/v1/time", "", `{"advance": "24h"}`); code != 200 || body["currentTime"] != "2025-01-02T00:00:00Z" {
			t.Errorf("advancing: %d %v", code, body)
		}
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		p := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := p.TextToMetricFamilies(resp.Body)
		if err != nil {
			t.Fatalf("parsing /metrics: %v", err)
		}
		found := false
		for _, m := range fams["ledgernode_http_requests_total"].GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "route" && l.GetValue() == "/v2/parties" && m.GetCounter().GetValue() == 1 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("/metrics does not count the POST /v2/parties: %v", fams["ledgernode_http_requests_total"])
		}
	})
	base, _ := start(t, "-in-memory", "-auth", "none", "-restore", snap, "-metrics-addr", "off")
	code, body := call(t, "GET", base+"/v2/parties", "", "")
	if code != 200 || !strings.Contains(strings.Join(partiesOf(body), ","), party) {
		t.Errorf("the restored node's parties: %d %v, want %s", code, body, party)
	}
	if code, body := call(t, "GET", base+"/v2/state/ledger-end", "", ""); code != 200 || body["offset"] != float64(1) {
		t.Errorf("the restored node's ledger end: %d %v, want 1", code, body)
	}
	if resp, err := http.Get(base + "/metrics"); err != nil || resp.StatusCode == 200 {
		t.Errorf("-metrics-addr off still serves /metrics: %v %v", resp.StatusCode, err)
	}
}

func partiesOf(body map[string]any) []string {
	var out []string
	ds, _ := body["partyDetails"].([]any)
	for _, d := range ds {
		if m, ok := d.(map[string]any); ok {
			out = append(out, m["party"].(string))
		}
	}
	return out
}
