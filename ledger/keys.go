package ledger

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// Contract keys (LF 2.3, non-unique: the NUCK mode of Canton's
// NextGenContractStateMachine, community/daml-lf/transaction). The node
// indexes every active contract that has a key by a digest of the key's
// identity — the template's package name, module and name, and the key
// value — most recent first; the engine asks through ContractsByKey.

// keyHash is the digest of a key's identity. Values are hashed in their
// protobuf encoding, which is canonical for a normalized value.
func keyHash(pkgName, module, name string, key value.Value) ([]byte, error) {
	b, err := value.EncodeProto(stripTypes(key))
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, s := range []string{pkgName, module, name} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(b)
	return h.Sum(nil), nil
}

// stripTypes drops what differs between versions of a package from a
// key value: type ids (whose package ids differ), record labels and
// trailing None fields, so that the same key of two template versions
// has one identity.
func stripTypes(v value.Value) value.Value {
	switch x := v.(type) {
	case value.Record:
		fields := make([]value.RecordField, len(x.Fields))
		for i, f := range x.Fields {
			fields[i] = value.RecordField{Value: stripTypes(f.Value)}
		}
		for len(fields) > 0 {
			if o, ok := fields[len(fields)-1].Value.(value.Optional); ok && o.Value == nil {
				fields = fields[:len(fields)-1]
				continue
			}
			break
		}
		return value.Record{Fields: fields}
	case value.Variant:
		return value.Variant{Constructor: x.Constructor, Value: stripTypes(x.Value)}
	case value.Enum:
		return value.Enum{Constructor: x.Constructor}
	case value.Optional:
		if x.Value == nil {
			return value.Optional{}
		}
		return value.Optional{Value: stripTypes(x.Value)}
	case value.List:
		out := make(value.List, len(x))
		for i, e := range x {
			out[i] = stripTypes(e)
		}
		return out
	case value.TextMap:
		out := make(value.TextMap, len(x))
		for i, e := range x {
			out[i] = value.TextMapEntry{Key: e.Key, Value: stripTypes(e.Value)}
		}
		return out
	case value.GenMap:
		out := make(value.GenMap, len(x))
		for i, e := range x {
			out[i] = value.GenMapEntry{Key: stripTypes(e.Key), Value: stripTypes(e.Value)}
		}
		return out
	}
	return v
}

// nodeKeyHash returns the key digest of a stored create node, or nil when
// it has no key.
func (v *pkgView) nodeKeyHash(c *txNode) ([]byte, error) {
	if c.keyHash != nil || c.Key == nil {
		return c.keyHash, nil
	}
	id, err := splitTypeCon(c.TemplateID)
	if err != nil {
		return nil, err
	}
	k, err := storedKey(v.lookup, c, id)
	if err != nil || k == nil {
		return nil, err
	}
	return keyHash(c.PackageName, id.Module, id.Name, k.Key)
}

// ContractsByKey returns the visible active contracts with a key, most
// recent first (the engine's ContractKeyStore).
func (s *snapshotContracts) ContractsByKey(ctx context.Context, q engine.KeyQuery) ([]engine.ContractID, error) {
	h, err := keyHash(q.PackageName, q.TemplateID.Module, q.TemplateID.Name, q.Key)
	if err != nil {
		return nil, err
	}
	var out []engine.ContractID
	prefix := store.ContractKeyPrefix(h)
	err = s.tx.Scan(prefix, nil, func(k, _ []byte) (bool, error) {
		if len(k) < len(prefix)+store.ContractKeyEntryIDOffset {
			return true, nil
		}
		cid := string(k[len(prefix)+store.ContractKeyEntryIDOffset:])
		c, err := s.Contract(ctx, engine.ContractID(cid))
		switch {
		case errors.Is(err, apierr.ContractNotActive):
			// In transit or on another synchronizer: not a candidate.
		case err != nil:
			return false, err
		case c != nil:
			out = append(out, engine.ContractID(cid))
		}
		return len(out) < q.Limit, nil
	})
	return out, err
}

// indexKey writes or deletes the key index entry of a contract.
func (v *pkgView) indexKey(t *store.Tx, c *txNode, createdOffset int64, add bool) error {
	h, err := v.nodeKeyHash(c)
	if err != nil || h == nil {
		return err
	}
	k := store.ContractKeyEntry(h, createdOffset, c.ID, c.ContractID)
	if add {
		t.SetOwned(k, nil) // k is built for this write
	} else {
		t.Delete(k)
	}
	return nil
}

// splitTypeCon parses a stored template id ("<package id>:M:E").
func splitTypeCon(tid string) (lf.TypeConID, error) {
	id, err := lf.SplitIdentifier(tid)
	if err != nil {
		return lf.TypeConID{}, err
	}
	return lf.TypeConID{PackageID: id.PackageID, Module: id.Module, Name: id.Entity}, nil
}

// storedKey returns a stored create node's key with its maintainers, as
// the engine takes it, or nil.
func storedKey(lookup func(string) *lf.Package, c *txNode, tc lf.TypeConID) (*tx.KeyWithMaintainers, error) {
	if c.Key == nil {
		return nil, nil
	}
	pkg := lookup(tc.PackageID)
	if pkg == nil {
		return nil, fmt.Errorf("package %s of a keyed contract is unknown", tc.PackageID)
	}
	tmpl := pkg.Template(tc.Module, tc.Name)
	if tmpl == nil || tmpl.Key == nil {
		return nil, nil
	}
	k, err := value.FromJSON(c.Key, tmpl.Key.Type, lookup)
	if err != nil {
		return nil, err
	}
	return &tx.KeyWithMaintainers{Key: k, Maintainers: c.Maintainers}, nil
}
