package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// KnownPackage is one package the participant stores: Canton's
// PackageDetails of PackageManagementService.ListKnownPackages.
type KnownPackage struct {
	// PackageID is the package's id.
	PackageID string
	// PackageSize is the size of the package's archive in bytes.
	PackageSize int64
	// KnownSince is when the participant first stored the package.
	KnownSince time.Time
	// Name and Version are the package's metadata.
	Name    string
	Version string
}

// ListKnownPackages returns the details of every package the participant
// stores, in package-id order (ParticipantAdmin), as Canton's
// ApiPackageManagementService.listKnownPackages does from its package
// store (PackageManagementServiceAuthorization: RequiredClaim.Admin).
func (n *Node) ListKnownPackages(ctx context.Context) ([]KnownPackage, error) {
	if err := n.public(ctx); err != nil {
		return nil, err
	}
	if err := requireParticipantAdmin(ctx, "listing the known packages"); err != nil {
		return nil, err
	}
	pkgs := []KnownPackage{}
	err := n.st.View(func(r *store.Reader) error {
		return r.Scan([]byte(store.PrefixPackage), nil, func(k, v []byte) (bool, error) {
			var rec packageRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return false, fmt.Errorf("package record %s: %w", k, err)
			}
			since, err := time.Parse(time.RFC3339Nano, rec.KnownSince)
			if err != nil {
				return false, fmt.Errorf("package record %s: %w", k, err)
			}
			pkgs = append(pkgs, KnownPackage{
				PackageID: rec.ID, PackageSize: int64(rec.Size), KnownSince: since.UTC(),
				Name: rec.Name, Version: rec.Version,
			})
			return true, nil
		})
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return pkgs, nil
}
