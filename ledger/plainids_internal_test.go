package ledger

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// TestRenderedTemplatePlainIDs checks renderedTemplate.plainIDs against
// jsontext.HTMLPlain of the template id and of each package name, in
// turn (the name is looked at again only when it changes), and that a
// created node noted plainIDs encodes as one that is not.
func TestRenderedTemplatePlainIDs(t *testing.T) {
	var r valueRenderer
	for _, id := range []lf.TypeConID{{PackageID: "ab12", Module: "M.N", Name: "T"}, {PackageID: "ab<12", Module: "M", Name: "T"}, {PackageID: "ab12", Module: "M", Name: "T&"}} {
		for _, pn := range []string{"pkg-a", "pkg-a", "pkg\"", "pkg\"", "", "pkg-b", "é"} {
			tt := r.template(id)
			want := jsontext.HTMLPlain(id.String()) && jsontext.HTMLPlain(pn)
			if got := tt.plainIDs(pn); got != want {
				t.Errorf("plainIDs of %s, %q = %v, want %v", id, pn, got, want)
			}
			nd := txNode{ContractID: "00ab", TemplateID: tt.idText, PackageName: pn, Argument: []byte(`{}`), Signatories: []string{"a"}, CreatedAt: "2026-01-01T00:00:00Z", Engine: true}
			noted := nd
			noted.plainIDs = want
			got, _, _, gotPlain := encodeOwnNodesInto([]txNode{noted}, nil)
			exp, _, _, expPlain := encodeOwnNodesInto(slices.Clone([]txNode{nd}), nil)
			if !bytes.Equal(got, exp) || gotPlain != expPlain {
				t.Errorf("%s, %q: noted plain encodes as %s (%v), want %s (%v)", id, pn, got, gotPlain, exp, expPlain)
			}
		}
	}
}

// TestPlainPartiesAcrossEncodings checks that committable's encodings
// sharing the parties found plain (valueRenderer.plains) write the bytes
// and plain of encodings of their own, whichever parties came before.
func TestPlainPartiesAcrossEncodings(t *testing.T) {
	parties := []string{"alice::1220ab", "bob::1220ab", "a<b", "c&d", "", "é", "carol::1", "dave::1", "eve::1", "alice::1220ab"}
	var shared plainParties
	for i := range parties {
		for j := range parties {
			sig, obs := parties[i], parties[(i+j)%len(parties)]
			nodes := []txNode{{ContractID: "00ab", TemplateID: "p:M:T", PackageName: "pkg", Argument: []byte(`{}`),
				Signatories: []string{sig}, Observers: []string{obs, parties[j]}, CreatedAt: "2026-01-01T00:00:00Z", Engine: true}}
			got, _, _, gotPlain := encodeNodesWith(slices.Clone(nodes), nil, true, nil, &shared)
			want, _, _, wantPlain := encodeNodesWith(slices.Clone(nodes), nil, true, nil, new(plainParties))
			plain := jsontext.HTMLPlain(sig) && jsontext.HTMLPlain(obs) && jsontext.HTMLPlain(parties[j])
			if !bytes.Equal(got, want) || gotPlain != wantPlain || gotPlain != plain {
				t.Errorf("%q %q: shared encoding %s (%v), own %s (%v), plain %v", sig, obs, got, gotPlain, want, wantPlain, plain)
			}
			for _, p := range shared.p {
				if !jsontext.HTMLPlain(p) {
					t.Fatalf("kept %q as plain", p)
				}
			}
		}
	}
}
