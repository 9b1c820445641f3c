package ledger

import (
	"encoding/json"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf/lftest"
	"github.com/ledgernode/ledgernode/daml/value"
)

// TestSharedContractMemo checks the memo of a stored argument's
// conversion to engine values (engine.ArgMemo): every read for the
// engine (memoContract) of the same stored argument hands out the same
// memo with the same value, a read against another package another memo,
// and the other reads (storedContract, a copy the caller may change, and
// sharedContract, which the Daml Script runner converts itself) none.
func TestSharedContractMemo(t *testing.T) {
	t.Parallel()
	owner := lftest.Field{Name: "owner", Type: lftest.B(lftest.Party)}
	v1 := decodedTemplatePackage(t, "memo-test", "1.0.0", owner)
	impostor := *decodedTemplatePackage(t, "memo-test", "2.0.0", owner,
		lftest.Field{Name: "note", Type: lftest.Opt(lftest.B(lftest.Text))})
	impostor.ID = v1.ID
	c := &txNode{ContractID: "00cc", TemplateID: v1.ID + ":Main:T", Argument: json.RawMessage(`{"owner":"alice::ns"}`),
		Signatories: []string{"alice::ns"}}

	first, err := memoContract(value.PackageLookup(v1), c)
	if err != nil {
		t.Fatal(err)
	}
	again, err := memoContract(value.PackageLookup(v1), c)
	if err != nil {
		t.Fatal(err)
	}
	if first.Memo == nil || again.Memo != first.Memo {
		t.Errorf("shared reads: memos %p, %p; want one memo", first.Memo, again.Memo)
	}
	other, err := memoContract(value.PackageLookup(&impostor), c)
	if err != nil {
		t.Fatal(err)
	}
	if other.Memo == nil || other.Memo == first.Memo {
		t.Errorf("read against another package: memo %p, first %p; want another memo", other.Memo, first.Memo)
	}
	own, err := storedContract(value.PackageLookup(v1), c)
	if err != nil {
		t.Fatal(err)
	}
	if own.Memo != nil {
		t.Errorf("storedContract's copy has memo %p, want none", own.Memo)
	}
	shared, err := sharedContract(value.PackageLookup(v1), c)
	if err != nil {
		t.Fatal(err)
	}
	if shared.Memo != nil {
		t.Errorf("sharedContract has memo %p, want none", shared.Memo)
	}
}
