package store

import (
	"bytes"
	"testing"
)

// TestACSIndexValues: both forms of an index entry's value decode to
// their offset, template and package name; only the record form gives a
// record, the stored bytes as they were (0 bytes and all).
func TestACSIndexValues(t *testing.T) {
	t.Parallel()
	record := []byte("{\"cid\":\"00ab\"}\x00tail")
	for _, tc := range []struct {
		name   string
		v      []byte
		record []byte
	}{
		{"without a record", ACSIndexValue(42, "pkg:Main:T", "acsidx"), nil},
		{"with a record", ACSIndexRecordValue(42, "pkg:Main:T", "acsidx", record), record},
		{"with an empty record", ACSIndexRecordValue(42, "pkg:Main:T", "acsidx", nil), []byte{}},
	} {
		co, tid, pkg, got, ok := DecodeACSIndexValue(tc.v)
		if !ok || co != 42 || string(tid) != "pkg:Main:T" || string(pkg) != "acsidx" {
			t.Errorf("%s: DecodeACSIndexValue = %d %q %q %v", tc.name, co, tid, pkg, ok)
		}
		if (got == nil) != (tc.record == nil) || !bytes.Equal(got, tc.record) {
			t.Errorf("%s: its record = %q, want %q", tc.name, got, tc.record)
		}
	}
	// The appending forms, after a caller's bytes, and the size.
	for _, rec := range [][]byte{nil, record} {
		want := ACSIndexValue(42, "pkg:Main:T", "acsidx")
		got := AppendACSIndexValue([]byte("prefix"), 42, "pkg:Main:T", "acsidx")
		size := ACSIndexValueSize("pkg:Main:T", "acsidx")
		if rec != nil {
			want = ACSIndexRecordValue(42, "pkg:Main:T", "acsidx", rec)
			got = AppendACSIndexRecordValue([]byte("prefix"), 42, "pkg:Main:T", "acsidx", rec)
			size += 1 + len(rec)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) || size != len(want) {
			t.Errorf("record %q: appended %q, size %d; want %q, size %d", rec, got, size, want, len(want))
		}
	}
	for _, v := range []string{"short", "12345678no zero byte"} {
		if _, _, _, _, ok := DecodeACSIndexValue([]byte(v)); ok {
			t.Errorf("DecodeACSIndexValue accepts %q", v)
		}
	}
}
