package console

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPaging: following the next-page links of the contracts and updates
// pages visits every item once, in order.
func TestPaging(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	mux := http.NewServeMux()
	mux.Handle(Prefix+"/", New(w.node, Options{PageSize: 2}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c := client(t)
	next := regexp.MustCompile(`id="next" href="([^"]+)"`)
	walk := func(start string, item *regexp.Regexp) []string {
		var out []string
		for path, pages := start, 0; path != ""; pages++ {
			if pages > 50 {
				t.Fatalf("%s: more than 50 pages", start)
			}
			status, body := get(t, c, srv.URL+path)
			if status != http.StatusOK {
				t.Fatalf("GET %s: %d", path, status)
			}
			items := item.FindAllStringSubmatch(body, -1)
			if len(items) > 2 {
				t.Fatalf("GET %s: %d items on a page of 2", path, len(items))
			}
			for _, m := range items {
				out = append(out, m[1])
			}
			path = ""
			if m := next.FindStringSubmatch(body); m != nil {
				path = strings.ReplaceAll(m[1], "&amp;", "&")
			}
		}
		return out
	}
	contracts := walk("/console/contracts?party="+url.QueryEscape(w.alice), regexp.MustCompile(`<tr class="contract"><td><a class="cid" href="[^"]*" title="([0-9a-f]+)">`))
	if len(contracts) != 2 || !slices.Contains(contracts, w.ping) || !slices.Contains(contracts, w.bong) {
		t.Errorf("alice's contracts over pages of 2: %v, want the Ping and the Bong", contracts)
	}
	offsets := walk("/console/updates?party="+url.QueryEscape(w.carol), regexp.MustCompile(`<tr class="(?:transaction|topology|reassignment)"><td>(\d+)</td>`))
	if len(offsets) < 5 {
		t.Fatalf("carol's updates over pages of 2: %v", offsets)
	}
	for i := 1; i < len(offsets); i++ {
		a, _ := strconv.Atoi(offsets[i-1])
		b, _ := strconv.Atoi(offsets[i])
		if b >= a {
			t.Errorf("carol's updates over pages of 2 are not newest first, once each: %v", offsets)
			break
		}
	}
}
