package engine

import (
	"reflect"
	"testing"

	"github.com/ledgernode/ledgernode/daml/value"
)

// TestFromValueKept checks FromValueKept against FromValue and
// IsLedgerValueOf: for the normalized values of values of every kind and
// every single change of them (TestIsLedgerValueOf's), it converts as
// FromValue does and keeps the value exactly when IsLedgerValueOf accepts
// it for the conversion.
func TestFromValueKept(t *testing.T) {
	e := newTestEngine(nil, Options{})
	rt, ins := ledgerValueSamples(t, e)
	check := func(lv value.Value) {
		t.Helper()
		want, wantErr := e.FromValue(lv)
		got, kept, err := e.FromValueKept(lv)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("FromValueKept(%#v): error %v, FromValue's %v", lv, err, wantErr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("FromValueKept(%#v) = %s, FromValue gives %s", lv, show(got), show(want))
		}
		if is := IsLedgerValueOf(got, lv); (kept != nil) != is || (kept != nil && !reflect.DeepEqual(kept, lv)) {
			t.Errorf("FromValueKept(%#v) kept %#v, IsLedgerValueOf says %v", lv, kept, is)
		}
	}
	for _, v := range ins {
		lv, err := toLedgerValue(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range append(ledgerValueChanges(lv), lv) {
			check(c)
		}
	}
	for _, lv := range []value.Value{
		value.Text("\x00"), value.Text("\xff"), value.TextMap{{Key: "\x00", Value: value.Unit{}}},
		value.Record{RecordID: &rt.ID, Fields: []value.RecordField{{Label: "a", Value: value.Text("a\x00")}}},
	} {
		check(lv)
	}
	for _, n := range []int{MaxNesting, MaxNesting + 1} {
		lv := value.Value(value.Int64(0))
		for range n {
			lv = value.Optional{Value: lv}
		}
		check(lv)
		if _, kept, _ := e.FromValueKept(lv); (kept != nil) != (n <= MaxNesting) {
			t.Errorf("FromValueKept of %d nested optionals kept %v", n, kept != nil)
		}
	}
}
