package tx

import (
	"bytes"
	"encoding/base64"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Golden blobs: createdEventBlob values that Canton printed, from
// Canton's documentation (docs-open/src/sphinx/sdk/explanations/json-api/
// index.rst and .../tutorials/app-dev/external_signing_submission.rst),
// with the fields of the created events they came with.
const (
	goldenIouTransfer = "CgMyLjES0QQKRQCv7o2SR1HUZ3rn8J7Xw4yEuehgG7LHW8MPgy+GaJZ1XcoQEiC2K+w5ypNS9ZnMQyu8oZaaM9NooO5M2tVgkyJvJxA9whILbW9kZWwtdGVzdHMaVApAMTliOWZjMjk3ZDQ2NDliYWI5ZmQwZWViM2NlMjNkYTc2M2NiOWVkN2RmYWVkZWIxMjgxYWM3ZDdmNjVhNzg4MxIDSW91GgtJb3VUcmFuc2ZlciKiAmqfAgrLAQrIAWrFAQpPCk06S0FsaWNlOjoxMjIwNzQzOTI2YWRhMWJhNTIxNTA1OTZjMDc3MTI5OTVmNGExZDJjNDNlZmNjOWQ5ZTU2OWJiODJiMTk5OGE0NmM1NQpPCk06S0FsaWNlOjoxMjIwNzQzOTI2YWRhMWJhNTIxNTA1OTZjMDc3MTI5OTVmNGExZDJjNDNlZmNjOWQ5ZTU2OWJiODJiMTk5OGE0NmM1NQoHCgVCA1VTRAoSChAyDjk5OS45OTAwMDAwMDAwCgQKAloACk8KTTpLQWxpY2U6OjEyMjA3NDM5MjZhZGExYmE1MjE1MDU5NmMwNzcxMjk5NWY0YTFkMmM0M2VmY2M5ZDllNTY5YmI4MmIxOTk4YTQ2YzU1KktBbGljZTo6MTIyMDc0MzkyNmFkYTFiYTUyMTUwNTk2YzA3NzEyOTk1ZjRhMWQyYzQzZWZjYzlkOWU1NjliYjgyYjE5OThhNDZjNTU5Agm71LEsBgBCKgomCiQIARIgyJpshr25uq/bCHZXro6K5Wl3FyO/llMqF2W5DbrzoKAQHg=="
	goldenPing        = "CgMyLjESuQQKRQBjTUl2dyqzat8236jWAVQ7N5fKufP9tC25XfYKc8tcGMoQEiCC572aoJidPFPbnuK4QKF9wAuxGP1l7xumvhhNwM7khRIOQWRtaW5Xb3JrZmxvd3MaYApAOWExOWU5Y2MxNTI1MzhkM2FkM2I5OWI5MzNjY2Y4ODFlNTNiMTkzZWU2YWYxN2JkZDlhNjU5MDVhNmUxZjhhYhIGQ2FudG9uEghJbnRlcm5hbBIEUGluZxoEUGluZyKwAWqtAQoLCglCB3BpbmdfaWQKTwpNOkthbGljZTo6MTIyMGQ0NjZhNWQ5NmEzNTA5NzM2YzgyMWUyNWZlODFmYzhhNzNmMjI2ZDkyZTU3ZTk0YTY1MTcwZTU4YjA3ZmMwOGUKTQpLOklib2I6OjEyMjAyNTRkMDYwOTViNDA3ZjhjNmEzNzhiNmZjNDQzYTY3ZDMzNTZhYjhlZGZiZjEzNzhjYjNlNDQyMThkZTMyYzhhKkthbGljZTo6MTIyMGQ0NjZhNWQ5NmEzNTA5NzM2YzgyMWUyNWZlODFmYzhhNzNmMjI2ZDkyZTU3ZTk0YTY1MTcwZTU4YjA3ZmMwOGUySWJvYjo6MTIyMDI1NGQwNjA5NWI0MDdmOGM2YTM3OGI2ZmM0NDNhNjdkMzM1NmFiOGVkZmJmMTM3OGNiM2U0NDIxOGRlMzJjOGE544B3nIAuBgBCKgomCiQIARIgZrl+7TfHbM1LcYFnlh0pNxS091G09Le5mhD5PUCvwmkQHg=="
)

func micros(t *testing.T, s string) value.Timestamp {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return value.Timestamp(tm.UnixMicro())
}

func TestDecodeContractBlobGolden(t *testing.T) {
	const alice1 = "Alice::1220743926ada1ba52150596c07712995f4a1d2c43efcc9d9e569bb82b1998a46c55"
	const alice2 = "alice::1220d466a5d96a3509736c821e25fe81fc8a73f226d92e57e94a65170e58b07fc08e"
	const bob2 = "bob::1220254d06095b407f8c6a378b6fc443a67d3356ab8edfbf1378cb3e44218de32c8a"
	rec := func(vs ...value.Value) value.Record {
		r := value.Record{Fields: []value.RecordField{}}
		for _, v := range vs {
			r.Fields = append(r.Fields, value.RecordField{Value: v})
		}
		return r
	}
	for _, tc := range []struct {
		name      string
		blob      string
		want      Create
		createdAt string
	}{
		{
			name: "IouTransfer",
			blob: goldenIouTransfer,
			want: Create{
				ContractID:  "00afee8d924751d4677ae7f09ed7c38c84b9e8601bb2c75bc30f832f866896755dca101220b62bec39ca9352f599cc432bbca1969a33d368a0ee4cdad56093226f27103dc2",
				PackageName: "model-tests",
				TemplateID:  lf.TypeConID{PackageID: "19b9fc297d4649bab9fd0eeb3ce23da763cb9ed7dfaedeb1281ac7d7f65a7883", Module: "Iou", Name: "IouTransfer"},
				Arg: rec(
					rec(value.Party(alice1), value.Party(alice1), value.Text("USD"), value.Numeric("999.9900000000"), value.List{}),
					value.Party(alice1)),
				Signatories:  []string{alice1},
				Stakeholders: []string{alice1},
				Version:      VersionNoKey,
			},
			createdAt: "2025-01-27T15:35:50.124802Z",
		},
		{
			// The documentation's event around this blob names
			// another contract id and the package
			// canton-builtin-admin-workflow-ping; the blob, from
			// another run, carries its own id and AdminWorkflows.
			name: "Ping with observer and dotted module",
			blob: goldenPing,
			want: Create{
				ContractID:   "00634d4976772ab36adf36dfa8d601543b3797cab9f3fdb42db95df60a73cb5c18ca10122082e7bd9aa0989d3c53db9ee2b840a17dc00bb118fd65ef1ba6be184dc0cee485",
				PackageName:  "AdminWorkflows",
				TemplateID:   lf.TypeConID{PackageID: "9a19e9cc152538d3ad3b99b933ccf881e53b193ee6af17bdd9a65905a6e1f8ab", Module: "Canton.Internal.Ping", Name: "Ping"},
				Arg:          rec(value.Text("ping_id"), value.Party(alice2), value.Party(bob2)),
				Signatories:  []string{alice2},
				Stakeholders: []string{alice2, bob2},
				Version:      VersionNoKey,
			},
			createdAt: "2025-02-19T15:42:56.032995Z",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blob, err := base64.StdEncoding.DecodeString(tc.blob)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeContractBlob(blob)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.Create); d != "" {
				t.Errorf("contract (-want +got):\n%s", d)
			}
			if want := micros(t, tc.createdAt); got.CreatedAt != want {
				t.Errorf("CreatedAt = %d, want %d", got.CreatedAt, want)
			}
			salt, err := ParseAuthenticationDataV1(got.AuthData)
			if err != nil {
				t.Fatalf("authentication data: %v", err)
			}
			if d := cmp.Diff(AuthenticationDataV1(salt), got.AuthData); d != "" {
				t.Errorf("AuthenticationDataV1 of the salt (-want +got):\n%s", d)
			}
			again, err := EncodeContractBlob(&got.Create, got.CreatedAt, got.AuthData)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, blob) {
				t.Errorf("re-encoded blob differs:\n got %s\nwant %s", base64.StdEncoding.EncodeToString(again), tc.blob)
			}
		})
	}
}

// blobCid is a committed ca12 contract id.
func blobCid(n byte) value.ContractID {
	return value.ContractID("00" + strings.Repeat(string("0123456789abcdef"[n%16]), 64) + "ca121220" + strings.Repeat("ab", 32))
}

func blobCases() []struct {
	name      string
	c         Create
	createdAt value.Timestamp
	auth      []byte
} {
	deep := value.Value(value.Int64(1))
	for range value.MaxLFNesting - 1 { // the record is level 0
		deep = value.Optional{Value: deep}
	}
	return []struct {
		name      string
		c         Create
		createdAt value.Timestamp
		auth      []byte
	}{
		{
			name: "observers and ca12 auth",
			c: Create{ContractID: blobCid(1), PackageName: "my-pkg", TemplateID: tpl("T"),
				Arg:         value.Record{Fields: []value.RecordField{{Value: value.Party("alice")}, {Value: value.List{value.Party("bob")}}}},
				Signatories: []string{"alice"}, Stakeholders: []string{"alice", "bob", "carol"}, Version: VersionNoKey},
			createdAt: 1_700_000_000_000_001,
			auth:      AuthenticationDataV1(ContractSalt(blobCid(1))),
		},
		{
			name: "several signatories, epoch, no auth, version 2",
			c: Create{ContractID: blobCid(2), PackageName: "p", TemplateID: lf.TypeConID{PackageID: pkg, Module: "A.B", Name: "C.D"},
				Arg:         value.Record{Fields: []value.RecordField{{Value: value.Enum{Constructor: "Red"}}, {Value: value.Variant{Constructor: "V", Value: value.Unit{}}}}},
				Signatories: []string{"a", "b"}, Stakeholders: []string{"a", "b"}, Version: VersionKeys},
			createdAt: 0,
		},
		{
			name: "V2 contract id, negative time, deep argument",
			c: Create{ContractID: value.ContractID("01" + strings.Repeat("11", 12) + "80" + strings.Repeat("22", 32)), PackageName: "p", TemplateID: tpl("Deep"),
				Arg:         value.Record{Fields: []value.RecordField{{Value: deep}}},
				Signatories: []string{"a"}, Stakeholders: []string{"a", "z"}, Version: VersionNoKey},
			createdAt: -1,
			auth:      []byte{1, 2, 3},
		},
		{
			name: "maps and values of every kind",
			c: Create{ContractID: blobCid(3), PackageName: "p", TemplateID: tpl("All"),
				Arg: value.Record{Fields: []value.RecordField{
					{Value: value.TextMap{{Key: "a", Value: value.Int64(-5)}, {Key: "b", Value: value.Numeric("1.50")}}},
					{Value: value.GenMap{{Key: value.Date(3), Value: value.Timestamp(4)}}},
					{Value: value.ContractID(blobCid(9))},
					{Value: value.Bool(false)},
					{Value: value.Text("")},
				}},
				Signatories: []string{"a"}, Stakeholders: []string{"a"}, Version: VersionNoKey},
			createdAt: value.MaxTimestamp,
		},
	}
}

func TestContractBlobRoundTrip(t *testing.T) {
	for _, tc := range blobCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, err := EncodeContractBlob(&tc.c, tc.createdAt, tc.auth)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeContractBlob(b)
			if err != nil {
				t.Fatal(err)
			}
			want := &ContractBlob{Create: tc.c, CreatedAt: tc.createdAt, AuthData: tc.auth}
			// reflect.DeepEqual: go-cmp's slice diff is exponential
			// in the nesting of the deep argument.
			if !reflect.DeepEqual(want, got) {
				t.Errorf("round trip = %.2000v, want %.2000v", got, want)
			}
		})
	}
}

// TestEncodeContractBlobNormalizes: parties are sorted and deduplicated,
// and the stakeholders that are signatories are not repeated.
func TestEncodeContractBlobNormalizes(t *testing.T) {
	c := Create{ContractID: blobCid(1), PackageName: "p", TemplateID: tpl("T"), Arg: value.Record{},
		Signatories: []string{"b", "a", "b"}, Stakeholders: []string{"c", "b", "a"}, Version: VersionNoKey}
	b, err := EncodeContractBlob(&c, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeContractBlob(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a", "b"}, got.Create.Signatories); d != "" {
		t.Errorf("signatories (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a", "b", "c"}, got.Create.Stakeholders); d != "" {
		t.Errorf("stakeholders (-want +got):\n%s", d)
	}
}

func TestEncodeContractBlobErrors(t *testing.T) {
	base := func() Create {
		return Create{ContractID: blobCid(1), PackageName: "p", TemplateID: tpl("T"), Arg: value.Record{},
			Signatories: []string{"a"}, Stakeholders: []string{"a"}, Version: VersionNoKey}
	}
	tooDeep := value.Value(value.Unit{})
	for range value.MaxLFNesting + 1 {
		tooDeep = value.List{tooDeep}
	}
	for _, tc := range []struct {
		name   string
		mutate func(*Create)
		at     value.Timestamp
		kind   BlobErrorKind
		path   string
	}{
		{"key", func(c *Create) { c.Key = &KeyWithMaintainers{Key: value.Unit{}, Maintainers: []string{"a"}} }, 0, BlobUnsupported, "payload.contract_key_with_maintainers"},
		{"local id", func(c *Create) { c.ContractID = value.ContractID("00" + strings.Repeat("ab", 32)) }, 0, BlobInvalid, "payload.contract_id"},
		{"bad id", func(c *Create) { c.ContractID = "xyz" }, 0, BlobInvalid, "payload.contract_id"},
		{"version", func(c *Create) { c.Version = "" }, 0, BlobInvalid, "version"},
		{"package name", func(c *Create) { c.PackageName = "" }, 0, BlobInvalid, "payload.package_name"},
		{"template", func(c *Create) { c.TemplateID.Module = "" }, 0, BlobInvalid, "payload.template_id"},
		{"no signatory", func(c *Create) { c.Signatories = nil }, 0, BlobInvalid, "payload.non_maintainer_signatories"},
		{"bad party", func(c *Create) { c.Stakeholders = []string{"a", "b!"} }, 0, BlobInvalid, "payload"},
		{"time", func(*Create) {}, value.MaxTimestamp + 1, BlobInvalid, "payload.created_at"},
		{"deep arg", func(c *Create) { c.Arg = value.Record{Fields: []value.RecordField{{Value: tooDeep}}} }, 0, BlobLimit, "payload.create_arg$.fields[0]" + strings.Repeat("[0]", value.MaxLFNesting)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.mutate(&c)
			_, err := EncodeContractBlob(&c, tc.at, nil)
			var be *BlobError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v, want *BlobError", err)
			}
			if be.Kind != tc.kind || be.Path != tc.path {
				t.Errorf("err = %v (%v at %q), want %v at %q", err, be.Kind, be.Path, tc.kind, tc.path)
			}
		})
	}
	if _, err := EncodeContractBlob(nil, 0, nil); err == nil {
		t.Error("EncodeContractBlob(nil) succeeded")
	}
}

// blobWith returns a blob whose payload is that of a valid contract with
// extra appended (later fields override or add, as protobuf parses) and
// whose version is version.
func blobWith(t *testing.T, version string, extra []byte) []byte {
	t.Helper()
	c := Create{ContractID: blobCid(1), PackageName: "p", TemplateID: tpl("T"), Arg: value.Record{},
		Signatories: []string{"b"}, Stakeholders: []string{"b"}, Version: VersionNoKey}
	b, err := EncodeContractBlob(&c, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rewrap(t, b, version, extra)
}

func pbStr(num protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), s)
}

func pbMsg(num protowire.Number, parts ...[]byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), slices.Concat(parts...))
}

func pbFixed(num protowire.Number, v uint64) []byte {
	return protowire.AppendFixed64(protowire.AppendTag(nil, num, protowire.Fixed64Type), v)
}

func TestDecodeContractBlobKey(t *testing.T) {
	unit := pbMsg(1)
	hash := string(bytes.Repeat([]byte{7}, 32))
	key := pbMsg(fFCIKey, pbMsg(fKeyKey, unit), pbStr(fKeyMaintainers, "b"), pbStr(fKeyHash, hash))
	// A contract with non-maintainer signatory a, to which the key adds
	// the maintainer b as a signatory.
	c := Create{ContractID: blobCid(1), PackageName: "p", TemplateID: tpl("T"), Arg: value.Record{},
		Signatories: []string{"a"}, Stakeholders: []string{"a"}, Version: VersionKeys}
	b, err := EncodeContractBlob(&c, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	withKey := rewrap(t, b, VersionKeys, key)
	got, err := DecodeContractBlob(withKey)
	if err != nil {
		t.Fatal(err)
	}
	want := &ContractBlob{
		Create: Create{ContractID: blobCid(1), PackageName: "p", TemplateID: tpl("T"), Arg: value.Record{Fields: []value.RecordField{}},
			Signatories: []string{"a", "b"}, Stakeholders: []string{"a", "b"}, Version: VersionKeys,
			Key: &KeyWithMaintainers{Key: value.Unit{}, Maintainers: []string{"b"}}},
		CreatedAt: 7,
		KeyHash:   []byte(hash),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("keyed contract (-want +got):\n%s", d)
	}
	for _, tc := range []struct {
		name    string
		version string
		key     []byte
		path    string
	}{
		{"no hash in version 2", VersionKeys, pbMsg(fFCIKey, pbMsg(fKeyKey, unit), pbStr(fKeyMaintainers, "b")), "payload.contract_key_with_maintainers.hash"},
		{"hash in version 2.1", VersionNoKey, key, "payload.contract_key_with_maintainers.hash"},
		{"no maintainers", VersionKeys, pbMsg(fFCIKey, pbMsg(fKeyKey, unit), pbStr(fKeyHash, hash)), "payload.contract_key_with_maintainers.maintainers"},
		{"maintainer is non-maintainer signatory", VersionKeys, pbMsg(fFCIKey, pbMsg(fKeyKey, unit), pbStr(fKeyMaintainers, "a"), pbStr(fKeyHash, hash)), "payload.non_maintainer_signatories"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeContractBlob(rewrap(t, b, tc.version, tc.key))
			var be *BlobError
			if !errors.As(err, &be) || be.Path != tc.path {
				t.Errorf("err = %v, want a *BlobError at %q", err, tc.path)
			}
		})
	}
}

// rewrap returns blob b with its version replaced and extra appended to
// its payload.
func rewrap(t *testing.T, b []byte, version string, extra []byte) []byte {
	t.Helper()
	var payload []byte
	if err := pbwire.Walk(b, func(f pbwire.Field) error {
		if f.Num == fVersionedPayload {
			payload = f.Bytes
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var e pbwire.Encoder
	e.String(fVersionedVersion, version)
	e.BytesAlways(fVersionedPayload, slices.Concat(payload, extra))
	return e.B
}

func TestDecodeContractBlobErrors(t *testing.T) {
	valid := blobWith(t, VersionNoKey, nil)
	if _, err := DecodeContractBlob(valid); err != nil {
		t.Fatalf("base blob: %v", err)
	}
	deepArg := pbMsg(1) // unit
	for range value.MaxLFNesting + 1 {
		deepArg = pbMsg(11, pbMsg(1, deepArg))
	}
	for _, tc := range []struct {
		name string
		b    []byte
		kind BlobErrorKind
		path string
	}{
		{"empty", nil, BlobInvalid, "version"},
		{"too large", make([]byte, MaxContractBlobSize+1), BlobLimit, ""},
		{"truncated", valid[:len(valid)-3], BlobMalformed, ""},
		{"unknown envelope field", append(slices.Clone(valid), pbStr(3, "x")...), BlobMalformed, ""},
		{"version", blobWith(t, "2.2", nil), BlobInvalid, "version"},
		{"unknown field", blobWith(t, VersionNoKey, pbStr(10, "x")), BlobMalformed, "payload"},
		{"wire type", blobWith(t, VersionNoKey, []byte{0x10, 1}), BlobMalformed, "payload.package_name"},
		{"contract id", blobWith(t, VersionNoKey, pbStr(fFCIContractID, "\x05")), BlobInvalid, "payload.contract_id"},
		{"package name", blobWith(t, VersionNoKey, pbStr(fFCIPackageName, "a b")), BlobInvalid, "payload.package_name"},
		{"template id name", blobWith(t, VersionNoKey, pbMsg(fFCITemplateID, pbStr(fIdentName, "1x"))), BlobInvalid, "payload.template_id"},
		{"template id field", blobWith(t, VersionNoKey, pbMsg(fFCITemplateID, pbStr(4, "x"))), BlobMalformed, "payload.template_id"},
		{"unsorted signatories", blobWith(t, VersionNoKey, pbStr(fFCINonMaintainerSigs, "a")), BlobInvalid, "payload.non_maintainer_signatories"},
		{"duplicate signatory", blobWith(t, VersionNoKey, pbStr(fFCINonMaintainerSigs, "b")), BlobInvalid, "payload.non_maintainer_signatories"},
		{"signatory is observer", blobWith(t, VersionNoKey, pbStr(fFCINonSigStakeholder, "b")), BlobInvalid, "payload.non_signatory_stakeholders"},
		{"bad party", blobWith(t, VersionNoKey, pbStr(fFCINonSigStakeholder, "c!")), BlobInvalid, "payload.non_signatory_stakeholders"},
		{"created_at now", blobWith(t, VersionNoKey, pbFixed(fFCICreatedAt, 1<<63)), BlobInvalid, "payload.created_at"},
		{"created_at out of range", blobWith(t, VersionNoKey, pbFixed(fFCICreatedAt, uint64(value.MaxTimestamp)+1)), BlobInvalid, "payload.created_at"},
		{"arg not set", blobWith(t, VersionNoKey, pbMsg(fFCICreateArg)), BlobMalformed, "payload.create_arg$"},
		{"arg party", blobWith(t, VersionNoKey, pbMsg(fFCICreateArg, pbMsg(13, pbMsg(1, pbMsg(1, pbStr(8, ""))), pbMsg(1, pbMsg(1, pbStr(7, "!")))))), BlobInvalid, "payload.create_arg$.fields[1]"},
		{"arg too deep", blobWith(t, VersionNoKey, pbMsg(fFCICreateArg, deepArg)), BlobLimit, "payload.create_arg$" + strings.Repeat("[0]", value.MaxLFNesting+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeContractBlob(tc.b)
			var be *BlobError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v, want *BlobError", err)
			}
			if be.Kind != tc.kind || be.Path != tc.path {
				t.Errorf("err = %v (%v at %q), want %v at %q", err, be.Kind, be.Path, tc.kind, tc.path)
			}
		})
	}
}

func TestNoSignatoryBlob(t *testing.T) {
	c := Create{ContractID: blobCid(1), PackageName: "p", TemplateID: tpl("T"), Arg: value.Record{},
		Signatories: []string{"a"}, Stakeholders: []string{"a"}, Version: VersionNoKey}
	b, err := EncodeContractBlob(&c, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Rebuild the payload without field 5.
	var payload []byte
	_ = pbwire.Walk(b, func(f pbwire.Field) error {
		if f.Num == fVersionedPayload {
			payload = f.Bytes
		}
		return nil
	})
	var p pbwire.Encoder
	_ = pbwire.Walk(payload, func(f pbwire.Field) error {
		switch {
		case f.Num == fFCINonMaintainerSigs:
		case f.Type == protowire.Fixed64Type:
			p.Fixed64Always(f.Num, f.Uint)
		default:
			p.BytesAlways(f.Num, f.Bytes)
		}
		return nil
	})
	var e pbwire.Encoder
	e.String(fVersionedVersion, VersionNoKey)
	e.BytesAlways(fVersionedPayload, p.B)
	_, err = DecodeContractBlob(e.B)
	var be *BlobError
	if !errors.As(err, &be) || be.Kind != BlobInvalid || be.Path != "payload.non_maintainer_signatories" {
		t.Errorf("err = %v, want no-signatory *BlobError", err)
	}
}

func TestParseAuthenticationDataV1(t *testing.T) {
	salt := ContractSalt(blobCid(1))
	got, err := ParseAuthenticationDataV1(AuthenticationDataV1(salt))
	if err != nil || got != salt {
		t.Errorf("ParseAuthenticationDataV1 = %x, %v; want %x", got, err, salt)
	}
	for _, b := range [][]byte{nil, {0xff}, pbMsg(1), append(pbMsg(1, pbMsg(1, []byte{8, 2}, pbStr(2, "x"))), 0x10, 30), append(pbMsg(1, pbMsg(1, []byte{8, 1}, pbStr(2, "short"))), 0x10, 30)} {
		if _, err := ParseAuthenticationDataV1(b); err == nil {
			t.Errorf("ParseAuthenticationDataV1(%x) succeeded", b)
		}
	}
}

// FuzzDecodeContractBlob: DecodeContractBlob never panics and fails only
// with a *BlobError; a contract it accepts that EncodeContractBlob can
// write (no key, suffixed id) re-encodes to a blob that decodes to the
// same contract.
func FuzzDecodeContractBlob(f *testing.F) {
	for _, s := range []string{goldenIouTransfer, goldenPing} {
		b, _ := base64.StdEncoding.DecodeString(s)
		f.Add(b)
	}
	for _, tc := range blobCases() {
		b, err := EncodeContractBlob(&tc.c, tc.createdAt, tc.auth)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := DecodeContractBlob(b)
		if err != nil {
			var be *BlobError
			if !errors.As(err, &be) {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		if got.Create.Key != nil || IsLocalContractID(got.Create.ContractID) || got.Create.Version == VersionDev {
			return
		}
		again, err := EncodeContractBlob(&got.Create, got.CreatedAt, got.AuthData)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		back, err := DecodeContractBlob(again)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		got.PackageVersion = nil
		if len(got.AuthData) == 0 {
			got.AuthData = nil
		}
		if !reflect.DeepEqual(got, back) {
			t.Fatalf("re-decode = %.2000v, want %.2000v", back, got)
		}
	})
}
