package ledger

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// testBlob returns the createdEventBlob (base64) of a contract.
func testBlob(t *testing.T, cid value.ContractID) string {
	t.Helper()
	c := &tx.Create{ContractID: cid, PackageName: "p", TemplateID: lf.TypeConID{PackageID: strings.Repeat("ab", 32), Module: "M", Name: "T"},
		Arg: value.Record{}, Signatories: []string{"alice"}, Stakeholders: []string{"alice"}, Version: tx.VersionNoKey}
	b, err := tx.EncodeContractBlob(c, 5, tx.AuthenticationDataV1(tx.ContractSalt(cid)))
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestDisclosedBlobsDecodedOnce: a JSON submission's disclosed contracts
// are decoded by its conversion (jsonFields) and the interpretation gets
// the same decoding; a refused decoding gives no submission, and
// disclosedSet still checks the synchronizer of every entry.
func TestDisclosedBlobsDecodedOnce(t *testing.T) {
	cid := value.ContractID("00" + strings.Repeat("1", 64) + "ca121220" + strings.Repeat("ab", 32)) // a committed ca12 id
	good := JsDisclosedContract{ContractID: string(cid), CreatedEventBlob: testBlob(t, cid)}

	s, err := jsonFields(&JsCommands{DisclosedContracts: []JsDisclosedContract{good}}, "")
	if err != nil {
		t.Fatal(err)
	}
	first := s.disclosed
	if len(first) != 1 || first[string(cid)] == nil {
		t.Fatalf("after jsonFields, decoded %v; want contract %s", first, cid)
	}
	s.sync = "sync-1"
	got, err := s.disclosedSet("")
	if err != nil {
		t.Fatal(err)
	}
	if got[string(cid)] != first[string(cid)] {
		t.Errorf("disclosedSet decoded the blob again (%p), want jsonFields' decoding (%p)", got[string(cid)], first[string(cid)])
	}

	other, err := jsonFields(&JsCommands{DisclosedContracts: []JsDisclosedContract{{ContractID: good.ContractID, CreatedEventBlob: good.CreatedEventBlob, SynchronizerID: "sync-2"}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	other.sync = "sync-1"
	if _, err := other.disclosedSet(""); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("disclosed contract of another synchronizer: %v, want INVALID_ARGUMENT", err)
	}

	bad := &JsCommands{DisclosedContracts: []JsDisclosedContract{{CreatedEventBlob: "!"}}}
	for range 2 {
		if s, err := jsonFields(bad, "commands."); !errors.Is(err, apierr.InvalidArgument) || s != nil {
			t.Errorf("invalid blob: %v, %v; want no submission, INVALID_ARGUMENT", s, err)
		}
	}

	got, err = newSubmission(&Commands{}, nil).disclosedBlobs("")
	if diff := cmp.Diff(map[string]*tx.ContractBlob(nil), got); err != nil || diff != "" {
		t.Errorf("no disclosed contracts: %v, %v; want nil, nil", got, err)
	}
}
