package pbvalue

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"

	"github.com/ledgernode/ledgernode/daml/value"
	ledgerv2 "github.com/ledgernode/ledgernode/grpcadapter/pb/v2"
)

// FuzzFromProto: any bytes a client sends as a Value, decoded by gRPC's
// codec (proto.Unmarshal) and converted with FromProto, give what
// daml/value's own wire codec (value.DecodeProto) gives for the same
// bytes that gRPC decodes: both refuse, or both accept with the same
// value. Nothing
// panics, and an accepted value written back (ToProto) reads back the same.
func FuzzFromProto(f *testing.F) {
	for _, v := range typedValues(f) {
		b, err := value.EncodeProto(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, m := range []*ledgerv2.Value{nest(48), nest(49), nest(60), {}, record(field("a", nil)), num("1.5")} {
		b, err := proto.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x72, 0x02, 0x12, 0x00})             // record { fields { } }
	f.Add([]byte{0x10, 0x01, 0x72, 0x00, 0x10, 0x00}) // bool, record, bool: the last wins
	f.Add([]byte{0x3a, 0x01, 0xff})                   // party: invalid UTF-8
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := value.DecodeProto(data)
		var m ledgerv2.Value
		if err := proto.Unmarshal(data, &m); err != nil {
			// gRPC refuses the request, as protobuf-java does in Canton.
			// value.DecodeProto may still accept such bytes: it does not
			// look into the messages it needs nothing of (a unit's Empty).
			return
		}
		got, err := FromProto(&m)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%x: FromProto error %v, value.DecodeProto error %v", data, err, werr)
		}
		if err != nil {
			return
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%x: FromProto differs from value.DecodeProto (-DecodeProto +FromProto):\n%s", data, d)
		}
		again, err := FromProto(wire(t, ToProto(got, true)))
		if err != nil {
			t.Fatalf("%x: the value written back does not read: %v", data, err)
		}
		if d := cmp.Diff(got, again); d != "" {
			t.Fatalf("%x: write-back round trip (-first +again):\n%s", data, d)
		}
	})
}
