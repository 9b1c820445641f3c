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

// fieldList encodes one field at a time.
type fieldList []nodeField

func (l *fieldList) add(name string, enc func(e *pbEnc)) {
	var e pbEnc
	enc(&e)
	*l = append(*l, nodeField{name: name, enc: e.B})
}

// nodeFields returns the encoded fields of a node of a known kind, in
// field-number order.
func nodeFields(n Node) fieldList {
	var l fieldList
	switch {
	case n.Create != nil:
		c := n.Create
		l.add("lf_version", func(e *pbEnc) { e.String(fNodeLFVersion, c.LFVersion) })
		l.add("contract_id", func(e *pbEnc) { e.String(fNodeContractID, c.ContractID) })
		l.add("package_name", func(e *pbEnc) { e.String(fNodePackageName, c.PackageName) })
		l.add("template_id", func(e *pbEnc) { encodeIdentifier(e, c.TemplateID) })
		l.add("argument", func(e *pbEnc) { encodeValueField(e, fCreateArgument, c.Argument) })
		l.add("signatories", func(e *pbEnc) { e.Strings(fCreateSignatories, c.Signatories) })
		l.add("stakeholders", func(e *pbEnc) { e.Strings(fCreateStakeholders, c.Stakeholders) })
		l.add("key", func(e *pbEnc) { encodeOptKey(e, fCreateKey, c.Key) })
	case n.Fetch != nil:
		f := n.Fetch
		l.add("lf_version", func(e *pbEnc) { e.String(fNodeLFVersion, f.LFVersion) })
		l.add("contract_id", func(e *pbEnc) { e.String(fNodeContractID, f.ContractID) })
		l.add("package_name", func(e *pbEnc) { e.String(fNodePackageName, f.PackageName) })
		l.add("template_id", func(e *pbEnc) { encodeIdentifier(e, f.TemplateID) })
		l.add("signatories", func(e *pbEnc) { e.Strings(fFetchSignatories, f.Signatories) })
		l.add("stakeholders", func(e *pbEnc) { e.Strings(fFetchStakeholders, f.Stakeholders) })
		l.add("acting_parties", func(e *pbEnc) { e.Strings(fFetchActingParties, f.ActingParties) })
		l.add("interface_id", func(e *pbEnc) { encodeOptIdentifier(e, fFetchInterfaceID, f.InterfaceID) })
		l.add("key", func(e *pbEnc) { encodeOptKey(e, fFetchKey, f.Key) })
		l.add("by_key", func(e *pbEnc) { e.Bool(fFetchByKey, f.ByKey) })
	case n.Exercise != nil:
		x := n.Exercise
		l.add("lf_version", func(e *pbEnc) { e.String(fNodeLFVersion, x.LFVersion) })
		l.add("contract_id", func(e *pbEnc) { e.String(fNodeContractID, x.ContractID) })
		l.add("package_name", func(e *pbEnc) { e.String(fNodePackageName, x.PackageName) })
		l.add("template_id", func(e *pbEnc) { encodeIdentifier(e, x.TemplateID) })
		l.add("signatories", func(e *pbEnc) { e.Strings(fExerciseSignatories, x.Signatories) })
		l.add("stakeholders", func(e *pbEnc) { e.Strings(fExerciseStakeholders, x.Stakeholders) })
		l.add("acting_parties", func(e *pbEnc) { e.Strings(fExerciseActingParties, x.ActingParties) })
		l.add("interface_id", func(e *pbEnc) { encodeOptIdentifier(e, fExerciseInterfaceID, x.InterfaceID) })
		l.add("choice_id", func(e *pbEnc) { e.String(fExerciseChoiceID, x.ChoiceID) })
		l.add("chosen_value", func(e *pbEnc) { encodeValueField(e, fExerciseChosenValue, x.ChosenValue) })
		l.add("consuming", func(e *pbEnc) { e.Bool(fExerciseConsuming, x.Consuming) })
		l.add("children", func(e *pbEnc) { e.Strings(fExerciseChildren, x.Children) })
		l.add("exercise_result", func(e *pbEnc) { encodeValueField(e, fExerciseExerciseResult, x.ExerciseResult) })
		l.add("choice_observers", func(e *pbEnc) { e.Strings(fExerciseChoiceObservers, x.ChoiceObservers) })
		l.add("key", func(e *pbEnc) { encodeOptKey(e, fExerciseKey, x.Key) })
		l.add("by_key", func(e *pbEnc) { e.Bool(fExerciseByKey, x.ByKey) })
	case n.Rollback != nil:
		r := n.Rollback
		l.add("children", func(e *pbEnc) { e.Strings(fRollbackChildren, r.Children) })
	case n.QueryByKey != nil:
		q := n.QueryByKey
		l.add("lf_version", func(e *pbEnc) { e.String(fQueryByKeyLFVersion, q.LFVersion) })
		l.add("package_name", func(e *pbEnc) { e.String(fQueryByKeyPackageName, q.PackageName) })
		l.add("template_id", func(e *pbEnc) { encodeIdentifier(e, q.TemplateID) })
		l.add("exhaustive", func(e *pbEnc) { e.Bool(fQueryByKeyExhaustive, q.Exhaustive) })
		l.add("key", func(e *pbEnc) { encodeKey(e, q.Key) })
		l.add("result", func(e *pbEnc) { e.Strings(fQueryByKeyResult, q.Result) })
	}
	return l
}
