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

// TestDisclosedBlobsDecodedOnce: a submission's disclosed contracts are
// decoded by its first check and the interpretation gets the same
// decoding; a refused decoding is not kept, and disclosedSet still checks
// the synchronizer of every entry.
func TestDisclosedBlobsDecodedOnce(t *testing.T) {
	cid := value.ContractID("00" + strings.Repeat("1", 64) + "ca121220" + strings.Repeat("ab", 32)) // a committed ca12 id
	good := JsDisclosedContract{ContractID: string(cid), CreatedEventBlob: testBlob(t, cid)}

	c := &JsCommands{DisclosedContracts: []JsDisclosedContract{good}}
	if err := checkJsCommandFields(c, ""); err != nil {
		t.Fatal(err)
	}
	first := c.disclosed
	if len(first) != 1 || first[string(cid)] == nil {
		t.Fatalf("after checkJsCommandFields, decoded %v; want contract %s", first, cid)
	}
	got, err := (&pkgView{}).disclosedSet(c, "sync-1", "")
	if err != nil {
		t.Fatal(err)
	}
	if got[string(cid)] != first[string(cid)] {
		t.Errorf("disclosedSet decoded the blob again (%p), want checkJsCommandFields' decoding (%p)", got[string(cid)], first[string(cid)])
	}

	other := &JsCommands{DisclosedContracts: []JsDisclosedContract{{ContractID: good.ContractID, CreatedEventBlob: good.CreatedEventBlob, SynchronizerID: "sync-2"}}}
	if _, err := (&pkgView{}).disclosedSet(other, "sync-1", ""); !errors.Is(err, apierr.InvalidArgument) {
		t.Errorf("disclosed contract of another synchronizer: %v, want INVALID_ARGUMENT", err)
	}

	bad := &JsCommands{DisclosedContracts: []JsDisclosedContract{{CreatedEventBlob: "!"}}}
	for range 2 {
		if err := checkJsCommandFields(bad, "commands."); !errors.Is(err, apierr.InvalidArgument) {
			t.Errorf("invalid blob: %v, want INVALID_ARGUMENT", err)
		}
		if bad.disclosed != nil {
			t.Errorf("a refused decoding was kept: %v", bad.disclosed)
		}
	}

	none := &JsCommands{}
	got, err = none.disclosedBlobs("")
	if diff := cmp.Diff(map[string]*tx.ContractBlob(nil), got); err != nil || diff != "" {
		t.Errorf("no disclosed contracts: %v, %v; want nil, nil", got, err)
	}
}
