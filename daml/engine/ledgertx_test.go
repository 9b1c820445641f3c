package engine

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestContractList checks contractList against a map, through the
// growth from its buffer to a list and to an indexed list, with
// replacements on the way.
func TestContractList(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, contractListMax, contractListMax + 1, 3 * contractListMax} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var l contractList
			want := map[ContractID]*contractInfo{}
			for i := range n {
				c := &contractInfo{id: ContractID(fmt.Sprint("c", i))}
				l.put(c)
				want[c.id] = c
				if i%3 == 0 { // replace an earlier one
					r := &contractInfo{id: ContractID(fmt.Sprint("c", i/2)), local: true}
					l.put(r)
					want[r.id] = r
				}
				for id, c := range want {
					if got := l.get(id); got != c {
						t.Fatalf("after %d puts: get(%s) = %p, want %p", i+1, id, got, c)
					}
				}
				if got := l.get("absent"); got != nil {
					t.Fatalf("get(absent) = %v", got)
				}
			}
			if len(l.list) != len(want) {
				t.Errorf("list holds %d contracts, want %d", len(l.list), len(want))
			}
			if (l.index != nil) != (len(want) > contractListMax) {
				t.Errorf("%d contracts: indexed %v", len(want), l.index != nil)
			}
		})
	}
}

// TestAppendPartySet checks that appendPartySet gives partySet's sets and
// errors whatever the buffer, and uses the buffer when the set fits.
func TestAppendPartySet(t *testing.T) {
	var buf [4]string
	bufs := map[string]func() []string{
		"nil":           func() []string { return nil },
		"small":         func() []string { return buf[:0:2] },
		"with contents": func() []string { return append(buf[:0:4], "zz", "yy") },
		"second half":   func() []string { return buf[2:] },
		"empty non-nil": func() []string { return []string{} },
	}
	values := []struct {
		name string
		v    Value
	}{
		{"party", Party("p")},
		{"list", ListOf(Party("b"), Party("a"), Party("b"))},
		{"long list", ListOf(Party("e"), Party("d"), Party("c"), Party("b"), Party("a"))},
		{"empty list", (*List)(nil)},
		{"not a party", ListOf(Party("a"), Int64(1))},
		{"not a list", Int64(1)},
	}
	for _, tc := range values {
		want, wantErr := partySet(tc.v)
		for bname, mk := range bufs {
			t.Run(tc.name+"/"+bname, func(t *testing.T) {
				b := mk()
				got, err := appendPartySet(b, tc.v)
				if (err == nil) != (wantErr == nil) || err != nil && err.Message != wantErr.Message {
					t.Fatalf("error %v, want %v", err, wantErr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("(-partySet +appendPartySet):\n%s", diff)
				}
				n := 1 // the parties before duplicates go
				if l, ok := tc.v.(*List); ok {
					n = 0
					for ; l != nil; l = l.Tail {
						n++
					}
				}
				if len(got) > 0 && n <= cap(b) && &got[0] != &b[:1][0] {
					t.Errorf("a set of %d parties that fits the buffer (cap %d) is not in it", n, cap(b))
				}
			})
		}
	}
}

// TestNewRecord checks the records newRecord makes for every size class:
// n nil fields, clipped, the given type.
func TestNewRecord(t *testing.T) {
	for n := range 11 {
		rt := &RecordType{ID: tid("R"), Fields: make([]string, n)}
		r := newRecord(rt)
		if r.Type != rt || len(r.Fields) != n || cap(r.Fields) != n || r.Fields == nil {
			t.Fatalf("%d fields: type %p, len %d, cap %d, nil %v", n, r.Type, len(r.Fields), cap(r.Fields), r.Fields == nil)
		}
		for i, f := range r.Fields {
			if f != nil {
				t.Fatalf("%d fields: field %d is %v", n, i, f)
			}
		}
	}
}

// TestAppendUnion checks appendUnion against union whatever the buffer.
func TestAppendUnion(t *testing.T) {
	var buf [4]string
	for _, tc := range []struct{ a, b []string }{
		{nil, nil}, {[]string{"a"}, nil}, {[]string{"a", "c"}, []string{"b", "c"}}, {[]string{"a", "b", "c"}, []string{"d", "e"}},
	} {
		if diff := cmp.Diff(union(tc.a, tc.b), appendUnion(buf[1:1:3], tc.a, tc.b), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%v ∪ %v (-union +appendUnion):\n%s", tc.a, tc.b, diff)
		}
	}
}
