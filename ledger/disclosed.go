package ledger

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// Explicit disclosure: a created event carries, when a filter asks for it
// (includeCreatedEventBlob), the contract's createdEventBlob in Canton's
// encoding (tx.EncodeContractBlob: the FatContractInstance of Daml-LF);
// a submission may bring contracts back as disclosedContracts, which lets
// parties that are not stakeholders use them (Splice apps disclose
// AmuletRules and the open mining rounds this way).

// storedCreate rebuilds the tx.Create of a stored create node, its
// argument normalized as the engine records values (trailing None fields
// dropped), and its creation time.
func storedCreate(eng *engine.Engine, lookup func(string) *lf.Package, c *txNode) (*tx.Create, value.Timestamp, error) {
	ec, err := storedContract(lookup, c)
	if err != nil {
		return nil, 0, err
	}
	rv, err := eng.FromValue(ec.Arg)
	if err != nil {
		return nil, 0, err
	}
	arg, err := engine.ToValue(rv)
	if err != nil {
		return nil, 0, err
	}
	at, err := time.Parse(time.RFC3339Nano, c.CreatedAt)
	if err != nil {
		return nil, 0, fmt.Errorf("contract %s: creation time %q: %w", c.ContractID, c.CreatedAt, err)
	}
	cr := &tx.Create{ContractID: value.ContractID(c.ContractID), PackageName: c.PackageName, TemplateID: ec.TemplateID, Arg: arg,
		Signatories: union(ec.Signatories), Stakeholders: ec.Stakeholders, Key: ec.Key, Version: tx.VersionNoKey}
	if cr.Key != nil {
		cr.Version = tx.VersionKeys
	}
	return cr, value.Timestamp(at.UnixMicro()), nil
}

// blobOf returns a contract's createdEventBlob, nil when it cannot have
// one (a contract with a key: ledgernode does not compute Canton's key
// hash the blob carries).
func blobOf(cr *tx.Create, at value.Timestamp) ([]byte, error) {
	b, err := tx.EncodeContractBlob(cr, at, tx.AuthenticationDataV1(tx.ContractSalt(cr.ContractID)))
	var be *tx.BlobError
	if errors.As(err, &be) && be.Kind == tx.BlobUnsupported {
		return nil, nil
	}
	return b, err
}

// encodeBlob returns a stored contract's createdEventBlob (nil: none, see
// blobOf).
func encodeBlob(eng *engine.Engine, lookup func(string) *lf.Package, c *txNode) ([]byte, error) {
	cr, at, err := storedCreate(eng, lookup, c)
	if err != nil {
		return nil, err
	}
	return blobOf(cr, at)
}

// contractBlob returns a created event's createdEventBlob (base64), ""
// when it has none (see blobOf) or it cannot be made (logged).
func (n *Node) contractBlob(c *txNode) string {
	b, err := encodeBlob(n.viewEngine(), n.cachedPackage, c)
	if err != nil {
		// A copy: c may be lent (VisitUpdatesPage), a handler may keep the record.
		n.log.Warn("cannot encode a created-event blob", "contractId", strings.Clone(c.ContractID), "err", err.Error())
		return ""
	}
	return base64.StdEncoding.EncodeToString(b)
}

// decodeDisclosed decodes a submission's disclosed contracts (the field
// paths in errors start with prefix, and are those of the JSON API): each
// blob must decode and name the contract id and template the entry
// names, when it names them.
func decodeDisclosed(dcs []DisclosedContract, prefix string) (map[string]*tx.ContractBlob, error) {
	if len(dcs) == 0 {
		return nil, nil
	}
	out := make(map[string]*tx.ContractBlob, len(dcs))
	for i, d := range dcs {
		b, err := decodeDisclosedEntry(d, fmt.Sprintf("%sdisclosedContracts[%d]", prefix, i))
		if err != nil {
			return nil, err
		}
		out[string(b.Create.ContractID)] = b
	}
	return out, nil
}

// decodeDisclosedEntry decodes the blob of a disclosed contract (at path)
// and checks it against the entry (decodeDisclosed).
func decodeDisclosedEntry(d DisclosedContract, path string) (*tx.ContractBlob, error) {
	if len(d.CreatedEventBlob) == 0 {
		return nil, apierr.MissingField.New("%s.createdEventBlob", path)
	}
	b, err := tx.DecodeContractBlob(d.CreatedEventBlob)
	if err != nil {
		return nil, apierr.InvalidArgument.New("%s.createdEventBlob: Unable to decode disclosed contract event payload: %v", path, err)
	}
	cid := b.Create.ContractID
	if d.ContractID != "" && d.ContractID != cid {
		return nil, apierr.InvalidArgument.New("%s.contractId: %s does not match the contract id of its createdEventBlob (%s)", path, apierr.Quote(string(d.ContractID)), cid)
	}
	if !d.Template.IsZero() && !disclosedTemplateMatches(d.Template, &b.Create) {
		return nil, disclosedTemplateMismatch(path, d.Template.String(), &b.Create)
	}
	if d.Template.IsZero() && d.TemplateText != "" {
		return nil, disclosedTemplateMismatch(path, d.TemplateText, &b.Create)
	}
	return b, nil
}

// disclosedTemplateMatches reports whether r names the template of c: its
// package id, or its package's name.
func disclosedTemplateMatches(r TemplateRef, c *tx.Create) bool {
	if r.ID.Module != c.TemplateID.Module || r.ID.Name != c.TemplateID.Name {
		return false
	}
	if !r.ByPackageName {
		return r.ID.PackageID == c.TemplateID.PackageID
	}
	if r.PackageName == "" {
		return r.ID.PackageID == c.TemplateID.PackageID // the package's own name
	}
	return r.PackageName == c.PackageName
}

// disclosedTemplateMismatch is the error of a disclosed contract whose
// template reference (as written) is not its blob's template.
func disclosedTemplateMismatch(path, ref string, c *tx.Create) error {
	return apierr.InvalidArgument.New("%s.templateId: %s does not match the template of its createdEventBlob (%s)", path, apierr.Quote(ref), c.TemplateID)
}

// disclosedBlobs returns decodeDisclosed(s.c.DisclosedContracts,
// prefix), decoded once per submission: the caller must not change the
// disclosed contracts afterwards, nor the map returned.
func (s *submission) disclosedBlobs(prefix string) (map[string]*tx.ContractBlob, error) {
	if s.disclosed == nil && len(s.c.DisclosedContracts) > 0 {
		out, err := decodeDisclosed(s.c.DisclosedContracts, prefix)
		if err != nil {
			return nil, err
		}
		s.disclosed = out
	}
	return s.disclosed, nil
}

// disclosedSet decodes a submission's disclosed contracts (once, see
// disclosedBlobs) and checks that each belongs to the submission's
// synchronizer (when it names one).
func (s *submission) disclosedSet(prefix string) (map[string]*tx.ContractBlob, error) {
	out, err := s.disclosedBlobs(prefix)
	if err != nil {
		return nil, err
	}
	for i, d := range s.c.DisclosedContracts {
		if d.SynchronizerID != "" && d.SynchronizerID != s.sync {
			return nil, apierr.InvalidArgument.New("%sdisclosedContracts[%d].synchronizerId: the disclosed contract is on %s, the submission on %s", prefix, i, apierr.Quote(d.SynchronizerID), s.sync)
		}
	}
	return out, nil
}

// matchesDisclosed checks that a disclosed blob describes the stored
// contract (ledgernode's stand-in for Canton's contract authentication).
func (v *pkgView) matchesDisclosed(b *tx.ContractBlob, c *txNode) error {
	cr, at, err := storedCreate(v.engine(), v.lookup, c)
	if err != nil {
		return err
	}
	same := cr.TemplateID == b.Create.TemplateID && cr.PackageName == b.Create.PackageName && at == b.CreatedAt &&
		slices.Equal(cr.Signatories, b.Create.Signatories) && slices.Equal(cr.Stakeholders, b.Create.Stakeholders)
	if same {
		mine, err1 := value.EncodeLFProto(cr.Arg)
		theirs, err2 := value.EncodeLFProto(b.Create.Arg)
		same = err1 == nil && err2 == nil && bytes.Equal(mine, theirs)
	}
	if !same {
		return apierr.UpgradeAuthenticationFailed.New("Interpretation error: Error: Error when authenticating contract %s against template %s: the disclosed contract does not match the ledger's", apierr.Quote(c.ContractID), c.TemplateID).
			WithResource("CONTRACT_ID", c.ContractID)
	}
	return nil
}
