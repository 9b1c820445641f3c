package interactive

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// DecodePreparedTransaction parses PreparedTransaction bytes (proto3
// rules: unknown fields and fields with an unexpected wire type are
// skipped, a repeated singular message is merged, strings must be UTF-8,
// nesting is limited to 100 levels like protobuf-java). The transaction
// and metadata fields, every node's node type, every value's sum and every
// required nested value must be present. It does not check the content
// (ids, versions, seeds): Hash does that.
func DecodePreparedTransaction(b []byte) (*PreparedTransaction, error) {
	pt := &PreparedTransaction{}
	var tx, md pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		switch {
		case f.Num == fPreparedTransaction && f.IsBytes():
			tx.Add(f.Bytes)
		case f.Num == fPreparedMetadata && f.IsBytes():
			md.Add(f.Bytes)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("invalid prepared transaction: %w", err)
	}
	if !tx.Set {
		return nil, errors.New("invalid prepared transaction: field transaction is not set")
	}
	if !md.Set {
		return nil, errors.New("invalid prepared transaction: field metadata is not set")
	}
	if err := decodeTransaction(tx.B, &pt.Transaction); err != nil {
		return nil, fmt.Errorf("invalid prepared transaction: transaction: %w", err)
	}
	if err := decodeMetadata(md.B, &pt.Metadata); err != nil {
		return nil, fmt.Errorf("invalid prepared transaction: metadata: %w", err)
	}
	return pt, nil
}

func decodeTransaction(b []byte, t *Transaction) error {
	return pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if !f.IsBytes() {
			return nil
		}
		switch f.Num {
		case fTransactionVersion:
			var err error
			t.Version, err = f.NamedText("version")
			return err
		case fTransactionRoots:
			s, err := f.NamedText("root")
			t.Roots = append(t.Roots, s)
			return err
		case fTransactionNodes:
			n, err := decodeTxNode(f.Bytes)
			if err != nil {
				return fmt.Errorf("node %d: %w", len(t.Nodes), err)
			}
			t.Nodes = append(t.Nodes, n)
		case fTransactionNodeSeeds:
			var s NodeSeed
			err := pbwire.WalkSkippingGroups(f.Bytes, func(g pbwire.Field) error {
				switch {
				case g.Num == fNodeSeedNodeID && g.IsVarint():
					s.NodeID = int32(g.Uint)
				case g.Num == fNodeSeedSeed && g.IsBytes():
					s.Seed = bytes.Clone(g.Bytes)
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("node seed: %w", err)
			}
			t.NodeSeeds = append(t.NodeSeeds, s)
		}
		return nil
	})
}

// decodeTxNode decodes DamlTransaction.Node (depth 3).
func decodeTxNode(b []byte) (Node, error) {
	var n Node
	var v1 pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		var err error
		switch {
		case f.Num == fTxNodeNodeID && f.IsBytes():
			n.NodeID, err = f.NamedText("node_id")
		case f.Num == fTxNodeV1 && f.IsBytes():
			v1.Add(f.Bytes)
		}
		return err
	})
	if err != nil {
		return n, err
	}
	if !v1.Set {
		return n, fmt.Errorf("node %q has no versioned node", n.NodeID)
	}
	err = decodeV1Node(v1.B, &n, 4)
	return n, err
}

func decodeV1Node(b []byte, n *Node, depth int) error {
	var kind protowire.Number
	var acc pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if f.Num < fNodeCreate || f.Num > fNodeQueryByKey || !f.IsBytes() {
			return nil
		}
		if f.Num != kind {
			acc = pbwire.Acc{}
		}
		kind = f.Num
		acc.Add(f.Bytes)
		return nil
	})
	if err != nil {
		return err
	}
	d := depth + 1
	switch kind {
	case fNodeCreate:
		n.Create = &Create{}
		err = decodeCreate(acc.B, n.Create, d)
	case fNodeFetch:
		n.Fetch = &Fetch{}
		err = decodeFetch(acc.B, n.Fetch, d)
	case fNodeExercise:
		n.Exercise = &Exercise{}
		err = decodeExercise(acc.B, n.Exercise, d)
	case fNodeRollback:
		n.Rollback = &Rollback{}
		err = pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
			if f.Num == fRollbackChildren && f.IsBytes() {
				s, err := f.NamedText("child")
				n.Rollback.Children = append(n.Rollback.Children, s)
				return err
			}
			return nil
		})
	case fNodeQueryByKey:
		n.QueryByKey = &QueryByKey{}
		err = decodeQueryByKey(acc.B, n.QueryByKey, d)
	default:
		return fmt.Errorf("node %q has no node type", n.NodeID)
	}
	if err != nil {
		return fmt.Errorf("node %q: %w", n.NodeID, err)
	}
	return nil
}

// common node fields: lf_version=1, contract_id=2, package_name=3,
// template_id=4 in Create, Exercise and Fetch.
func decodeNodeHead(f pbwire.Field, lf, cid, pkg *string, tmpl *pbwire.Acc) (bool, error) {
	if !f.IsBytes() {
		return false, nil
	}
	var err error
	switch f.Num {
	case fNodeLFVersion:
		*lf, err = f.NamedText("lf_version")
	case fNodeContractID:
		*cid, err = f.NamedText("contract_id")
	case fNodePackageName:
		*pkg, err = f.NamedText("package_name")
	case fNodeTemplateID:
		tmpl.Add(f.Bytes)
	default:
		return false, nil
	}
	return true, err
}

func appendStr(f pbwire.Field, dst *[]string, what string) error {
	s, err := f.NamedText(what)
	*dst = append(*dst, s)
	return err
}

func decodeCreate(b []byte, c *Create, depth int) error {
	if depth > pbwire.MaxDepth {
		return pbwire.ErrTooDeep
	}
	var tmpl, arg, key pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if ok, err := decodeNodeHead(f, &c.LFVersion, &c.ContractID, &c.PackageName, &tmpl); ok || err != nil {
			return err
		}
		if !f.IsBytes() {
			return nil
		}
		switch f.Num {
		case fCreateArgument:
			arg.Add(f.Bytes)
		case fCreateSignatories:
			return appendStr(f, &c.Signatories, "signatory")
		case fCreateStakeholders:
			return appendStr(f, &c.Stakeholders, "stakeholder")
		case fCreateKey:
			key.Add(f.Bytes)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if c.TemplateID, err = decodeIdentifier(tmpl.B, depth+1); err != nil {
		return err
	}
	if c.Argument, err = decodeRequiredValue(arg, depth+1, "create argument"); err != nil {
		return err
	}
	c.Key, err = decodeOptKey(key, depth+1)
	return err
}

func decodeExercise(b []byte, x *Exercise, depth int) error {
	if depth > pbwire.MaxDepth {
		return pbwire.ErrTooDeep
	}
	var tmpl, iface, chosen, result, key pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if ok, err := decodeNodeHead(f, &x.LFVersion, &x.ContractID, &x.PackageName, &tmpl); ok || err != nil {
			return err
		}
		if f.IsVarint() {
			switch f.Num {
			case fExerciseConsuming:
				x.Consuming = f.Uint != 0
			case fExerciseByKey:
				x.ByKey = f.Uint != 0
			}
			return nil
		}
		if !f.IsBytes() {
			return nil
		}
		var err error
		switch f.Num {
		case fExerciseSignatories:
			return appendStr(f, &x.Signatories, "signatory")
		case fExerciseStakeholders:
			return appendStr(f, &x.Stakeholders, "stakeholder")
		case fExerciseActingParties:
			return appendStr(f, &x.ActingParties, "acting party")
		case fExerciseInterfaceID:
			iface.Add(f.Bytes)
		case fExerciseChoiceID:
			x.ChoiceID, err = f.NamedText("choice_id")
		case fExerciseChosenValue:
			chosen.Add(f.Bytes)
		case fExerciseChildren:
			return appendStr(f, &x.Children, "child")
		case fExerciseExerciseResult:
			result.Add(f.Bytes)
		case fExerciseChoiceObservers:
			return appendStr(f, &x.ChoiceObservers, "choice observer")
		case fExerciseKey:
			key.Add(f.Bytes)
		}
		return err
	})
	if err != nil {
		return err
	}
	if x.TemplateID, err = decodeIdentifier(tmpl.B, depth+1); err != nil {
		return err
	}
	if x.InterfaceID, err = decodeOptIdentifier(iface, depth+1); err != nil {
		return err
	}
	if x.ChosenValue, err = decodeRequiredValue(chosen, depth+1, "chosen value"); err != nil {
		return err
	}
	if result.Set {
		if x.ExerciseResult, err = decodeValue(result.B, depth+1); err != nil {
			return err
		}
	}
	x.Key, err = decodeOptKey(key, depth+1)
	return err
}

func decodeFetch(b []byte, x *Fetch, depth int) error {
	if depth > pbwire.MaxDepth {
		return pbwire.ErrTooDeep
	}
	var tmpl, iface, key pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if ok, err := decodeNodeHead(f, &x.LFVersion, &x.ContractID, &x.PackageName, &tmpl); ok || err != nil {
			return err
		}
		if f.Num == fFetchByKey && f.IsVarint() {
			x.ByKey = f.Uint != 0
			return nil
		}
		if !f.IsBytes() {
			return nil
		}
		switch f.Num {
		case fFetchSignatories:
			return appendStr(f, &x.Signatories, "signatory")
		case fFetchStakeholders:
			return appendStr(f, &x.Stakeholders, "stakeholder")
		case fFetchActingParties:
			return appendStr(f, &x.ActingParties, "acting party")
		case fFetchInterfaceID:
			iface.Add(f.Bytes)
		case fFetchKey:
			key.Add(f.Bytes)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if x.TemplateID, err = decodeIdentifier(tmpl.B, depth+1); err != nil {
		return err
	}
	if x.InterfaceID, err = decodeOptIdentifier(iface, depth+1); err != nil {
		return err
	}
	x.Key, err = decodeOptKey(key, depth+1)
	return err
}

func decodeQueryByKey(b []byte, q *QueryByKey, depth int) error {
	if depth > pbwire.MaxDepth {
		return pbwire.ErrTooDeep
	}
	var tmpl, key pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if f.Num == fQueryByKeyExhaustive && f.IsVarint() {
			q.Exhaustive = f.Uint != 0
			return nil
		}
		if !f.IsBytes() {
			return nil
		}
		var err error
		switch f.Num {
		case fQueryByKeyLFVersion:
			q.LFVersion, err = f.NamedText("lf_version")
		case fQueryByKeyPackageName:
			q.PackageName, err = f.NamedText("package_name")
		case fQueryByKeyTemplateID:
			tmpl.Add(f.Bytes)
		case fQueryByKeyKey:
			key.Add(f.Bytes)
		case fQueryByKeyResult:
			return appendStr(f, &q.Result, "result")
		}
		return err
	})
	if err != nil {
		return err
	}
	if q.TemplateID, err = decodeIdentifier(tmpl.B, depth+1); err != nil {
		return err
	}
	if !key.Set {
		return errors.New("query by key has no key")
	}
	k, err := decodeOptKey(key, depth+1)
	if err == nil {
		q.Key = *k
	}
	return err
}

func decodeOptKey(acc pbwire.Acc, depth int) (*KeyWithMaintainers, error) {
	if !acc.Set {
		return nil, nil
	}
	if depth > pbwire.MaxDepth {
		return nil, pbwire.ErrTooDeep
	}
	k := &KeyWithMaintainers{}
	var gk pbwire.Acc
	err := pbwire.WalkSkippingGroups(acc.B, func(f pbwire.Field) error {
		switch {
		case f.Num == fKeyWithMaintainersKey && f.IsBytes():
			gk.Add(f.Bytes)
		case f.Num == fKeyWithMaintainersMaintainers && f.IsBytes():
			return appendStr(f, &k.Maintainers, "maintainer")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	k.Key, err = decodeGlobalKey(gk.B, depth+1)
	return k, err
}

func decodeGlobalKey(b []byte, depth int) (GlobalKey, error) {
	var k GlobalKey
	if depth > pbwire.MaxDepth {
		return k, pbwire.ErrTooDeep
	}
	var tmpl, val pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if !f.IsBytes() {
			return nil
		}
		var err error
		switch f.Num {
		case fGlobalKeyTemplateID:
			tmpl.Add(f.Bytes)
		case fGlobalKeyPackageName:
			k.PackageName, err = f.NamedText("package_name")
		case fGlobalKeyKey:
			val.Add(f.Bytes)
		case fGlobalKeyHash:
			k.Hash = bytes.Clone(f.Bytes)
		}
		return err
	})
	if err != nil {
		return k, err
	}
	if k.TemplateID, err = decodeIdentifier(tmpl.B, depth+1); err != nil {
		return k, err
	}
	k.Key, err = decodeRequiredValue(val, depth+1, "key value")
	return k, err
}

func decodeMetadata(b []byte, m *Metadata) error {
	var sub pbwire.Acc
	u64 := func(v uint64) *uint64 { return &v }
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if f.IsVarint() {
			switch f.Num {
			case fMetadataMediatorGroup:
				m.MediatorGroup = uint32(f.Uint)
			case fMetadataPreparationTime:
				m.PreparationTime = f.Uint
			case fMetadataMinLedgerEffectiveTime:
				m.MinLedgerEffectiveTime = u64(f.Uint)
			case fMetadataMaxLedgerEffectiveTime:
				m.MaxLedgerEffectiveTime = u64(f.Uint)
			case fMetadataMaxRecordTime:
				m.MaxRecordTime = u64(f.Uint)
			}
			return nil
		}
		if !f.IsBytes() {
			return nil
		}
		var err error
		switch f.Num {
		case fMetadataSubmitterInfo:
			sub.Add(f.Bytes)
		case fMetadataSynchronizerID:
			m.SynchronizerID, err = f.NamedText("synchronizer_id")
		case fMetadataTransactionUUID:
			m.TransactionUUID, err = f.NamedText("transaction_uuid")
		case fMetadataInputContracts:
			var ic InputContract
			if err = decodeInputContract(f.Bytes, &ic); err != nil {
				return fmt.Errorf("input contract %d: %w", len(m.InputContracts), err)
			}
			m.InputContracts = append(m.InputContracts, ic)
		case fMetadataGlobalKeyMapping:
			var g GlobalKeyMappingEntry
			var key, val pbwire.Acc
			err = pbwire.WalkSkippingGroups(f.Bytes, func(h pbwire.Field) error {
				switch {
				case h.Num == fKeyMappingKey && h.IsBytes():
					key.Add(h.Bytes)
				case h.Num == fKeyMappingValue && h.IsBytes():
					val.Add(h.Bytes)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if g.Key, err = decodeGlobalKey(key.B, 4); err != nil {
				return err
			}
			if val.Set {
				if g.Value, err = decodeValue(val.B, 4); err != nil {
					return err
				}
			}
			m.GlobalKeyMapping = append(m.GlobalKeyMapping, g)
		}
		return err
	})
	if err != nil {
		return err
	}
	return pbwire.WalkSkippingGroups(sub.B, func(f pbwire.Field) error {
		if !f.IsBytes() {
			return nil
		}
		switch f.Num {
		case fSubmitterInfoActAs:
			return appendStr(f, &m.SubmitterInfo.ActAs, "act_as")
		case fSubmitterInfoCommandID:
			var err error
			m.SubmitterInfo.CommandID, err = f.NamedText("command_id")
			return err
		}
		return nil
	})
}

func decodeInputContract(b []byte, ic *InputContract) error {
	var v1 pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		switch {
		case f.Num == fInputContractV1 && f.IsBytes():
			v1.Add(f.Bytes)
		case f.Num == fInputContractCreatedAt && f.IsVarint():
			ic.CreatedAt = f.Uint
		case f.Num == fInputContractEventBlob && f.IsBytes():
			ic.EventBlob = bytes.Clone(f.Bytes)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !v1.Set {
		return errors.New("field contract is not set")
	}
	return decodeCreate(v1.B, &ic.Contract, 4)
}
