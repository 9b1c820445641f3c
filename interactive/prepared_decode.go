package interactive

import (
	"bytes"
	"errors"
	"fmt"
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
	var tx, md msgAcc
	err := pbFields(b, func(f pbField) error {
		switch {
		case f.num == 1 && f.isBytes():
			tx.add(f.b)
		case f.num == 2 && f.isBytes():
			md.add(f.b)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("invalid prepared transaction: %w", err)
	}
	if !tx.set {
		return nil, errors.New("invalid prepared transaction: field transaction is not set")
	}
	if !md.set {
		return nil, errors.New("invalid prepared transaction: field metadata is not set")
	}
	if err := decodeTransaction(tx.b, &pt.Transaction); err != nil {
		return nil, fmt.Errorf("invalid prepared transaction: transaction: %w", err)
	}
	if err := decodeMetadata(md.b, &pt.Metadata); err != nil {
		return nil, fmt.Errorf("invalid prepared transaction: metadata: %w", err)
	}
	return pt, nil
}

func decodeTransaction(b []byte, t *Transaction) error {
	return pbFields(b, func(f pbField) error {
		if !f.isBytes() {
			return nil
		}
		switch f.num {
		case 1:
			var err error
			t.Version, err = f.str("version")
			return err
		case 2:
			s, err := f.str("root")
			t.Roots = append(t.Roots, s)
			return err
		case 3:
			n, err := decodeTxNode(f.b)
			if err != nil {
				return fmt.Errorf("node %d: %w", len(t.Nodes), err)
			}
			t.Nodes = append(t.Nodes, n)
		case 4:
			var s NodeSeed
			err := pbFields(f.b, func(g pbField) error {
				switch {
				case g.num == 1 && g.isVarint():
					s.NodeID = int32(g.u)
				case g.num == 2 && g.isBytes():
					s.Seed = bytes.Clone(g.b)
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
	var v1 msgAcc
	err := pbFields(b, func(f pbField) error {
		var err error
		switch {
		case f.num == 1 && f.isBytes():
			n.NodeID, err = f.str("node_id")
		case f.num == 1000 && f.isBytes():
			v1.add(f.b)
		}
		return err
	})
	if err != nil {
		return n, err
	}
	if !v1.set {
		return n, fmt.Errorf("node %q has no versioned node", n.NodeID)
	}
	err = decodeV1Node(v1.b, &n, 4)
	return n, err
}

func decodeV1Node(b []byte, n *Node, depth int) error {
	var kind int
	var acc msgAcc
	err := pbFields(b, func(f pbField) error {
		if f.num < 1 || f.num > 5 || !f.isBytes() {
			return nil
		}
		if int(f.num) != kind {
			acc = msgAcc{}
		}
		kind = int(f.num)
		acc.add(f.b)
		return nil
	})
	if err != nil {
		return err
	}
	d := depth + 1
	switch kind {
	case 1:
		n.Create = &Create{}
		err = decodeCreate(acc.b, n.Create, d)
	case 2:
		n.Fetch = &Fetch{}
		err = decodeFetch(acc.b, n.Fetch, d)
	case 3:
		n.Exercise = &Exercise{}
		err = decodeExercise(acc.b, n.Exercise, d)
	case 4:
		n.Rollback = &Rollback{}
		err = pbFields(acc.b, func(f pbField) error {
			if f.num == 1 && f.isBytes() {
				s, err := f.str("child")
				n.Rollback.Children = append(n.Rollback.Children, s)
				return err
			}
			return nil
		})
	case 5:
		n.QueryByKey = &QueryByKey{}
		err = decodeQueryByKey(acc.b, n.QueryByKey, d)
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
func decodeNodeHead(f pbField, lf, cid, pkg *string, tmpl *msgAcc) (bool, error) {
	if !f.isBytes() {
		return false, nil
	}
	var err error
	switch f.num {
	case 1:
		*lf, err = f.str("lf_version")
	case 2:
		*cid, err = f.str("contract_id")
	case 3:
		*pkg, err = f.str("package_name")
	case 4:
		tmpl.add(f.b)
	default:
		return false, nil
	}
	return true, err
}

func appendStr(f pbField, dst *[]string, what string) error {
	s, err := f.str(what)
	*dst = append(*dst, s)
	return err
}

func decodeCreate(b []byte, c *Create, depth int) error {
	if depth > maxProtoDepth {
		return errTooDeep
	}
	var tmpl, arg, key msgAcc
	err := pbFields(b, func(f pbField) error {
		if ok, err := decodeNodeHead(f, &c.LFVersion, &c.ContractID, &c.PackageName, &tmpl); ok || err != nil {
			return err
		}
		if !f.isBytes() {
			return nil
		}
		switch f.num {
		case 5:
			arg.add(f.b)
		case 6:
			return appendStr(f, &c.Signatories, "signatory")
		case 7:
			return appendStr(f, &c.Stakeholders, "stakeholder")
		case 8:
			key.add(f.b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if c.TemplateID, err = decodeIdentifier(tmpl.b, depth+1); err != nil {
		return err
	}
	if c.Argument, err = decodeRequiredValue(arg, depth+1, "create argument"); err != nil {
		return err
	}
	c.Key, err = decodeOptKey(key, depth+1)
	return err
}

func decodeExercise(b []byte, x *Exercise, depth int) error {
	if depth > maxProtoDepth {
		return errTooDeep
	}
	var tmpl, iface, chosen, result, key msgAcc
	err := pbFields(b, func(f pbField) error {
		if ok, err := decodeNodeHead(f, &x.LFVersion, &x.ContractID, &x.PackageName, &tmpl); ok || err != nil {
			return err
		}
		if f.isVarint() {
			switch f.num {
			case 11:
				x.Consuming = f.u != 0
			case 16:
				x.ByKey = f.u != 0
			}
			return nil
		}
		if !f.isBytes() {
			return nil
		}
		var err error
		switch f.num {
		case 5:
			return appendStr(f, &x.Signatories, "signatory")
		case 6:
			return appendStr(f, &x.Stakeholders, "stakeholder")
		case 7:
			return appendStr(f, &x.ActingParties, "acting party")
		case 8:
			iface.add(f.b)
		case 9:
			x.ChoiceID, err = f.str("choice_id")
		case 10:
			chosen.add(f.b)
		case 12:
			return appendStr(f, &x.Children, "child")
		case 13:
			result.add(f.b)
		case 14:
			return appendStr(f, &x.ChoiceObservers, "choice observer")
		case 15:
			key.add(f.b)
		}
		return err
	})
	if err != nil {
		return err
	}
	if x.TemplateID, err = decodeIdentifier(tmpl.b, depth+1); err != nil {
		return err
	}
	if x.InterfaceID, err = decodeOptIdentifier(iface, depth+1); err != nil {
		return err
	}
	if x.ChosenValue, err = decodeRequiredValue(chosen, depth+1, "chosen value"); err != nil {
		return err
	}
	if result.set {
		if x.ExerciseResult, err = decodeValue(result.b, depth+1); err != nil {
			return err
		}
	}
	x.Key, err = decodeOptKey(key, depth+1)
	return err
}

func decodeFetch(b []byte, x *Fetch, depth int) error {
	if depth > maxProtoDepth {
		return errTooDeep
	}
	var tmpl, iface, key msgAcc
	err := pbFields(b, func(f pbField) error {
		if ok, err := decodeNodeHead(f, &x.LFVersion, &x.ContractID, &x.PackageName, &tmpl); ok || err != nil {
			return err
		}
		if f.num == 10 && f.isVarint() {
			x.ByKey = f.u != 0
			return nil
		}
		if !f.isBytes() {
			return nil
		}
		switch f.num {
		case 5:
			return appendStr(f, &x.Signatories, "signatory")
		case 6:
			return appendStr(f, &x.Stakeholders, "stakeholder")
		case 7:
			return appendStr(f, &x.ActingParties, "acting party")
		case 8:
			iface.add(f.b)
		case 9:
			key.add(f.b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if x.TemplateID, err = decodeIdentifier(tmpl.b, depth+1); err != nil {
		return err
	}
	if x.InterfaceID, err = decodeOptIdentifier(iface, depth+1); err != nil {
		return err
	}
	x.Key, err = decodeOptKey(key, depth+1)
	return err
}

func decodeQueryByKey(b []byte, q *QueryByKey, depth int) error {
	if depth > maxProtoDepth {
		return errTooDeep
	}
	var tmpl, key msgAcc
	err := pbFields(b, func(f pbField) error {
		if f.num == 4 && f.isVarint() {
			q.Exhaustive = f.u != 0
			return nil
		}
		if !f.isBytes() {
			return nil
		}
		var err error
		switch f.num {
		case 1:
			q.LFVersion, err = f.str("lf_version")
		case 2:
			q.PackageName, err = f.str("package_name")
		case 3:
			tmpl.add(f.b)
		case 5:
			key.add(f.b)
		case 6:
			return appendStr(f, &q.Result, "result")
		}
		return err
	})
	if err != nil {
		return err
	}
	if q.TemplateID, err = decodeIdentifier(tmpl.b, depth+1); err != nil {
		return err
	}
	if !key.set {
		return errors.New("query by key has no key")
	}
	k, err := decodeOptKey(key, depth+1)
	if err == nil {
		q.Key = *k
	}
	return err
}

func decodeOptKey(acc msgAcc, depth int) (*KeyWithMaintainers, error) {
	if !acc.set {
		return nil, nil
	}
	if depth > maxProtoDepth {
		return nil, errTooDeep
	}
	k := &KeyWithMaintainers{}
	var gk msgAcc
	err := pbFields(acc.b, func(f pbField) error {
		switch {
		case f.num == 1 && f.isBytes():
			gk.add(f.b)
		case f.num == 2 && f.isBytes():
			return appendStr(f, &k.Maintainers, "maintainer")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	k.Key, err = decodeGlobalKey(gk.b, depth+1)
	return k, err
}

func decodeGlobalKey(b []byte, depth int) (GlobalKey, error) {
	var k GlobalKey
	if depth > maxProtoDepth {
		return k, errTooDeep
	}
	var tmpl, val msgAcc
	err := pbFields(b, func(f pbField) error {
		if !f.isBytes() {
			return nil
		}
		var err error
		switch f.num {
		case 1:
			tmpl.add(f.b)
		case 2:
			k.PackageName, err = f.str("package_name")
		case 3:
			val.add(f.b)
		case 4:
			k.Hash = bytes.Clone(f.b)
		}
		return err
	})
	if err != nil {
		return k, err
	}
	if k.TemplateID, err = decodeIdentifier(tmpl.b, depth+1); err != nil {
		return k, err
	}
	k.Key, err = decodeRequiredValue(val, depth+1, "key value")
	return k, err
}

func decodeMetadata(b []byte, m *Metadata) error {
	var sub msgAcc
	u64 := func(v uint64) *uint64 { return &v }
	err := pbFields(b, func(f pbField) error {
		if f.isVarint() {
			switch f.num {
			case 4:
				m.MediatorGroup = uint32(f.u)
			case 6:
				m.PreparationTime = f.u
			case 9:
				m.MinLedgerEffectiveTime = u64(f.u)
			case 10:
				m.MaxLedgerEffectiveTime = u64(f.u)
			case 11:
				m.MaxRecordTime = u64(f.u)
			}
			return nil
		}
		if !f.isBytes() {
			return nil
		}
		var err error
		switch f.num {
		case 2:
			sub.add(f.b)
		case 3:
			m.SynchronizerID, err = f.str("synchronizer_id")
		case 5:
			m.TransactionUUID, err = f.str("transaction_uuid")
		case 7:
			var ic InputContract
			if err = decodeInputContract(f.b, &ic); err != nil {
				return fmt.Errorf("input contract %d: %w", len(m.InputContracts), err)
			}
			m.InputContracts = append(m.InputContracts, ic)
		case 8:
			var g GlobalKeyMappingEntry
			var key, val msgAcc
			err = pbFields(f.b, func(h pbField) error {
				switch {
				case h.num == 1 && h.isBytes():
					key.add(h.b)
				case h.num == 2 && h.isBytes():
					val.add(h.b)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if g.Key, err = decodeGlobalKey(key.b, 4); err != nil {
				return err
			}
			if val.set {
				if g.Value, err = decodeValue(val.b, 4); err != nil {
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
	return pbFields(sub.b, func(f pbField) error {
		if !f.isBytes() {
			return nil
		}
		switch f.num {
		case 1:
			return appendStr(f, &m.SubmitterInfo.ActAs, "act_as")
		case 2:
			var err error
			m.SubmitterInfo.CommandID, err = f.str("command_id")
			return err
		}
		return nil
	})
}

func decodeInputContract(b []byte, ic *InputContract) error {
	var v1 msgAcc
	err := pbFields(b, func(f pbField) error {
		switch {
		case f.num == 1 && f.isBytes():
			v1.add(f.b)
		case f.num == 1000 && f.isVarint():
			ic.CreatedAt = f.u
		case f.num == 1002 && f.isBytes():
			ic.EventBlob = bytes.Clone(f.b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !v1.set {
		return errors.New("field contract is not set")
	}
	return decodeCreate(v1.b, &ic.Contract, 4)
}
