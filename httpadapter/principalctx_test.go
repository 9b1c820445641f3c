package httpadapter

import (
	"context"
	"fmt"
	"testing"

	"github.com/ledgernode/ledgernode/ledger"
)

// TestPrincipalCtx: withAdmin's context, in an entry or not, answers as
// ledger.WithPrincipal's: the principal, the parent's other values, its
// deadline and cancellation, and the same String.
func TestPrincipalCtx(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	defer cancel()
	want := ledger.WithPrincipal(parent, adminPrincipal)
	for _, e := range []*accessEntry{nil, new(accessEntry)} {
		ctx := withAdmin(parent, e)
		if e != nil && ctx != context.Context(&e.pc) {
			t.Fatalf("withAdmin did not use the entry's context")
		}
		p, ok := ledger.PrincipalFrom(ctx)
		if wp, _ := ledger.PrincipalFrom(want); !ok || fmt.Sprint(p) != fmt.Sprint(wp) {
			t.Errorf("PrincipalFrom = %v, %v; want %v", p, ok, wp)
		}
		if got := ctx.Value(key{}); got != "v" {
			t.Errorf("Value(key) = %v, want v", got)
		}
		if got := ctx.Value("absent"); got != nil {
			t.Errorf("Value(absent) = %v, want nil", got)
		}
		if got, w := fmt.Sprint(ctx), fmt.Sprint(want); got != w {
			t.Errorf("String = %q, want %q", got, w)
		}
		if ctx.Done() != parent.Done() {
			t.Errorf("Done is not the parent's")
		}
	}
	// A context derived from it ends with the parent.
	child, stop := context.WithCancel(withAdmin(parent, new(accessEntry)))
	defer stop()
	cancel()
	<-child.Done()
}
