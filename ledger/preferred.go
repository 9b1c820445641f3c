package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/vetting"
)

// PreferredPackages computes, for each requirement, the highest-versioned
// package of its name that is vetted (valid at vettingValidAt; the zero
// time means now) by every participant hosting its parties — on ledgernode the one
// participant, which hosts exactly the parties it knows. The first
// synchronizer (synchronizerID, else each connected one in connection
// order) that
// satisfies every requirement is used; PACKAGE_SELECTION_FAILED
// (FAILED_PRECONDITION) when none does. It returns one reference per
// requirement, in the requirements' order, and the synchronizer they were
// computed for. The request is validated first as Canton's
// (checkPreferredRequest). Any authenticated caller may ask.
func (n *Node) PreferredPackages(ctx context.Context, reqs []vetting.Requirement, synchronizerID string, vettingValidAt time.Time) (refs []vetting.Ref, chosenSynchronizerID string, err error) {
	if err := n.public(ctx); err != nil {
		return nil, "", err
	}
	at, err := n.checkPreferredRequest(reqs, synchronizerID, vettingValidAt)
	if err != nil {
		return nil, "", err
	}
	return n.preferredPackages(reqs, synchronizerID, at)
}

// PreferredPackageVersion is PreferredPackages for one package name
// (deprecated). The request is validated as one requirement of
// PreferredPackages, so its parties are required and a malformed
// parameter is an error, as in Canton 3.5; only when no synchronizer
// satisfies a valid query is there no preference (nil ref). It returns the
// preferred package and the synchronizer it was computed for.
func (n *Node) PreferredPackageVersion(ctx context.Context, req vetting.Requirement, synchronizerID string, vettingValidAt time.Time) (ref *vetting.Ref, chosenSynchronizerID string, err error) {
	if err := n.public(ctx); err != nil {
		return nil, "", err
	}
	reqs := []vetting.Requirement{req}
	at, err := n.checkPreferredRequest(reqs, synchronizerID, vettingValidAt)
	if err != nil {
		return nil, "", err
	}
	refs, sync, err := n.preferredPackages(reqs, synchronizerID, at)
	if errors.Is(err, apierr.PackageSelectionFailed) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	return &refs[0], sync, nil
}

// checkPreferredRequest applies Canton's rules to a preferred-packages
// request, in Canton's order, and returns the time the vetting must be
// valid at (now when not given). Canton 3.5 validates both endpoints'
// requests the same way (GetPreferredPackagesRequestValidator, used by
// ApiInteractiveSubmissionService for GetPreferredPackages and
// GetPreferredPackageVersion):
//   - no requirement: MISSING_FIELD package_vetting_requirements/packageVettingRequirements;
//   - per requirement, an empty package name: MISSING_FIELD
//     package_name/packageName; a malformed one: INVALID_FIELD; no
//     parties: MISSING_FIELD parties; a malformed party: INVALID_ARGUMENT
//     (Canton's requireParty names no field);
//   - a synchronizer id that is not a unique identifier (id::namespace):
//     INVALID_FIELD synchronizer_id/synchronizerId;
//
// A vetting time that is not a timestamp is the JSON layer's refusal
// (INVALID_FIELD vetting_valid_at/vettingValidAt, package jsonapi).
//
// Causes quote the input truncated (apierr.Quote), so a refusal does not
// grow with it.
func (n *Node) checkPreferredRequest(reqs []vetting.Requirement, synchronizerID string, validAt time.Time) (time.Time, error) {
	if len(reqs) == 0 {
		return time.Time{}, apierr.MissingField.New("package_vetting_requirements/packageVettingRequirements")
	}
	for _, r := range reqs {
		if r.PackageName == "" {
			return time.Time{}, apierr.MissingField.New("package_name/packageName")
		}
		if err := lf.CheckPackageName(r.PackageName); err != nil {
			return time.Time{}, invalidPreferredField("package_name/packageName", syntaxMessage(err))
		}
		if len(r.Parties) == 0 {
			return time.Time{}, apierr.MissingField.New("parties")
		}
		for _, p := range r.Parties {
			if err := lf.CheckParty(p); err != nil {
				return time.Time{}, apierr.InvalidArgument.New("%s", syntaxMessage(err))
			}
		}
	}
	if synchronizerID != "" {
		if _, err := identity.ParseUID(synchronizerID); err != nil {
			return time.Time{}, invalidPreferredField("synchronizer_id/synchronizerId", err.Error())
		}
	}
	if validAt.IsZero() {
		return n.now(), nil
	}
	return validAt, nil
}

// invalidPreferredField is Canton's INVALID_FIELD of a preferred-packages
// request ("Invalid field <name>: <message>").
func invalidPreferredField(field, msg string) error {
	return apierr.InvalidField.New("Invalid field %s: %s", field, msg)
}

// syntaxMessage is the message of a Daml-LF name-syntax error (Canton's
// Ref.*.fromString message) with the input quoted truncated.
func syntaxMessage(err error) string {
	var se *lf.SyntaxError
	if errors.As(err, &se) && se.Problem == lf.SyntaxBadChar {
		return fmt.Sprintf("non expected character 0x%x in %s %q", se.Char, se.Syntax, apierr.Quote(se.Input))
	}
	return err.Error()
}

// preferredPackages answers a request checkPreferredRequest accepted, for
// the vetting valid at at.
func (n *Node) preferredPackages(reqs []vetting.Requirement, synchronizerID string, at time.Time) ([]vetting.Ref, string, error) {
	syncs := n.syncs
	if synchronizerID != "" {
		if !slices.Contains(n.syncs, synchronizerID) {
			return nil, "", apierr.PackageSelectionFailed.New("The participant is not connected to synchronizer %s", apierr.Quote(synchronizerID)).
				WithResource("SYNCHRONIZER_ID", synchronizerID)
		}
		syncs = []string{synchronizerID}
	}
	var refs []vetting.Ref
	var chosen string
	var reasons []string
	err := n.st.View(func(r *store.Reader) error {
		for _, rq := range reqs {
			for _, p := range rq.Parties {
				hosted, err := hasKey(r, store.PartyKey(p))
				if err != nil {
					return err
				}
				if !hosted {
					reasons = append(reasons, fmt.Sprintf("party %s is not hosted on any participant", apierr.Quote(p)))
					return nil
				}
			}
		}
		known, err := n.knownPackages(r)
		if err != nil {
			return err
		}
		lookup := lookupIn(known)
		for _, sync := range syncs {
			st, err := loadVetting(r, sync)
			if err != nil {
				return err
			}
			found, missing := preferredIn(st.Packages, lookup, reqs, at)
			if missing != "" {
				reasons = append(reasons, fmt.Sprintf("%s: no vetted package for package-name %s", sync, apierr.Quote(missing)))
				continue
			}
			refs, chosen = found, sync
			return nil
		}
		return nil
	})
	if err != nil {
		return nil, "", storeErr(err)
	}
	if chosen == "" {
		return nil, "", apierr.PackageSelectionFailed.New("No synchronizers satisfy the topology requirements for the package vetting requirements: %s", strings.Join(reasons, "; "))
	}
	return refs, chosen, nil
}

// preferredIn picks, for each requirement, the highest version of its
// package name among the vetted packages valid at t. It returns the first
// name without a vetted package when one is missing.
func preferredIn(vetted []vetting.VettedPackage, lookup func(string) *lf.Package, reqs []vetting.Requirement, t time.Time) ([]vetting.Ref, string) {
	var refs []vetting.Ref
	for _, req := range reqs {
		var best *lf.Package
		for _, v := range vetted {
			if v.ValidFrom != nil && t.Before(*v.ValidFrom) || v.ValidUntil != nil && !t.Before(*v.ValidUntil) {
				continue
			}
			p := lookup(v.PackageID)
			if p != nil && p.Name == req.PackageName && (best == nil || lf.CompareVersions(p.Version, best.Version) > 0) {
				best = p
			}
		}
		if best == nil {
			return nil, req.PackageName
		}
		refs = append(refs, vetting.Ref{PackageID: best.ID, PackageName: best.Name, PackageVersion: best.Version})
	}
	return refs, ""
}
