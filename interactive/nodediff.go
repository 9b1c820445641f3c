package interactive

import (
	"bytes"
	"fmt"
)

// NodeDifference compares two nodes field by field, as their protobuf
// encodings (EncodePreparedTransaction): it returns "" when they are equal,
// else a description of the first field that differs in field-number order
// ("node kind", "contract_id", "chosen_value", "children", …). Party lists
// and children are compared in order; node ids are not compared.
func NodeDifference(a, b Node) string {
	ka, kb := a.Kind(), b.Kind()
	if ka != kb {
		return fmt.Sprintf("node kind (%s, not %s)", kb, ka)
	}
	fa, fb := nodeFields(a), nodeFields(b)
	for i := range fa {
		if !bytes.Equal(fa[i].enc, fb[i].enc) {
			return fa[i].name
		}
	}
	return ""
}

// CreateDifference is NodeDifference of two create nodes (input contracts
// of the metadata).
func CreateDifference(a, b *Create) string {
	return NodeDifference(Node{Create: a}, Node{Create: b})
}

type nodeField struct {
	name string
	enc  []byte
}

// nodeFields returns the encoded fields of a node of a known kind, in
// field-number order (encodeNodeFields, split where it marks a field).
func nodeFields(n Node) []nodeField {
	var e pbEnc
	var out []nodeField
	start := 0
	encodeNodeFields(&e, n, func(name string) {
		out = append(out, nodeField{name: name, enc: e.B[start:len(e.B):len(e.B)]})
		start = len(e.B)
	})
	return out
}
