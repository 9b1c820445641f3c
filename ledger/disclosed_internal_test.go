package ledger

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// testBlob returns the createdEventBlob of a contract.
func testBlob(t *testing.T, cid value.ContractID) []byte {
	t.Helper()
	c := &tx.Create{ContractID: cid, PackageName: "p", TemplateID: lf.TypeConID{PackageID: strings.Repeat("ab", 32), Module: "M", Name: "T"},
		Arg: value.Record{}, Signatories: []string{"alice"}, Stakeholders: []string{"alice"}, Version: tx.VersionNoKey}
	b, err := tx.EncodeContractBlob(c, 5, tx.AuthenticationDataV1(tx.ContractSalt(cid)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDisclosedBlobsDecodedOnce: a submission's disclosed contracts are
// decoded once (disclosedBlobs, as the submission's checks call it) and
// the interpretation gets the same decoding (disclosedSet); a refused
// decoding keeps nothing, and disclosedSet still checks the synchronizer
// of every entry.
func TestDisclosedBlobsDecodedOnce(t *testing.T) {
	cid := value.ContractID("00" + strings.Repeat("1", 64) + "ca121220" + strings.Repeat("ab", 32)) // a committed ca12 id
	good := DisclosedContract{ContractID: cid, CreatedEventBlob: testBlob(t, cid)}

	s := newSubmission(&Commands{DisclosedContracts: []DisclosedContract{good}}, nil)
	first, err := s.disclosedBlobs("")
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 1 || first[string(cid)] == nil {
		t.Fatalf("after disclosedBlobs, decoded %v; want contract %s", first, cid)
	}
	s.sync = "sync-1"
	got, err := s.disclosedSet("")
	if err != nil {
		t.Fatal(err)
	}
	if got[string(cid)] != first[string(cid)] {
		t.Errorf("disclosedSet decoded the blob again (%p), want disclosedBlobs' decoding (%p)", got[string(cid)], first[string(cid)])
	}

	other := good
	other.SynchronizerID = "sync-2"
	o := newSubmission(&Commands{DisclosedContracts: []DisclosedContract{other}}, nil)
	o.sync = "sync-1"
	if _, err := o.disclosedSet(""); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("disclosed contract of another synchronizer: %v, want INVALID_ARGUMENT", err)
	}

	bad := newSubmission(&Commands{DisclosedContracts: []DisclosedContract{{CreatedEventBlob: []byte("!")}}}, nil)
	for range 2 {
		if got, err := bad.disclosedBlobs("commands."); !errors.Is(err, apierr.InvalidArgument) || got != nil || bad.disclosed != nil {
			t.Errorf("invalid blob: %v, %v (kept %v); want nothing kept, INVALID_ARGUMENT", got, err, bad.disclosed)
		}
	}

	got, err = newSubmission(&Commands{}, nil).disclosedBlobs("")
	if diff := cmp.Diff(map[string]*tx.ContractBlob(nil), got); err != nil || diff != "" {
		t.Errorf("no disclosed contracts: %v, %v; want nil, nil", got, err)
	}
}

// TestDisclosedTemplateText: an entry's template as written, where it is
// no identifier, names no blob's template; Check refuses it after the
// contract id, quoting it as written, and a parsed Template wins over it.
func TestDisclosedTemplateText(t *testing.T) {
	t.Parallel()
	cid := value.ContractID("00" + strings.Repeat("1", 64) + "ca121220" + strings.Repeat("ab", 32))
	blob := testBlob(t, cid)
	tid := lf.TypeConID{PackageID: strings.Repeat("ab", 32), Module: "M", Name: "T"}
	for _, tc := range []struct {
		name  string
		d     DisclosedContract
		cause string // "" when accepted
	}{
		{"not an identifier", DisclosedContract{CreatedEventBlob: blob, TemplateText: "M:T"},
			`x.templateId: M:T does not match the template of its createdEventBlob (` + tid.String() + ")"},
		{"the contract id first", DisclosedContract{CreatedEventBlob: blob, ContractID: "00ff", TemplateText: "M:T"},
			`x.contractId: 00ff does not match the contract id`},
		{"a parsed template wins", DisclosedContract{CreatedEventBlob: blob, Template: TemplateByID(tid), TemplateText: "M:T"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.d.Check("x")
			if tc.cause == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ae *apierr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apierr.InvalidArgument) || !strings.Contains(ae.Cause, tc.cause) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT with %q", err, tc.cause)
			}
		})
	}
}
