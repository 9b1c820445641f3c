package ledger

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/interactive"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
	"github.com/ledgernode/ledgernode/ledger/update"
)

// partyRecord is a stored party hosted on this participant.
type partyRecord struct {
	Party              string              `json:"party"`
	IdentityProviderID string              `json:"identityProviderId"`
	Metadata           identity.ObjectMeta `json:"metadata"`
	SynchronizerID     string              `json:"synchronizerId"`
	Offset             int64               `json:"offset"`
	// SigningKeys and SigningThreshold are an external party's protocol
	// keys (empty for a local party).
	SigningKeys      []interactive.SigningKey `json:"signingKeys,omitempty"`
	SigningThreshold int                      `json:"signingThreshold,omitempty"`
}

// details applies Canton's visibility rule: isLocal, identityProviderId and
// the local metadata are shown only to requests scoped to the party's own
// identity provider.
func (p partyRecord) details(idp string) identity.Party {
	if p.IdentityProviderID != idp {
		return identity.Party{Party: p.Party, LocalMetadata: identity.ObjectMeta{Annotations: map[string]string{}}}
	}
	meta := p.Metadata
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	return identity.Party{Party: p.Party, IsLocal: true, LocalMetadata: meta, IdentityProviderID: p.IdentityProviderID}
}

// ParticipantID returns the participant's id (any authenticated caller).
func (n *Node) ParticipantID(ctx context.Context) (string, error) {
	if err := n.public(ctx); err != nil {
		return "", err
	}
	return n.participantID, nil
}

// AllocateParty allocates a party hint::namespace on this participant and
// appends a topology transaction with a ParticipantAuthorizationAdded event
// at a new offset. A participant admin may allocate in any identity
// provider, an identity-provider admin only in its own. Allocating an
// existing party fails with INVALID_ARGUMENT and changes nothing.
func (n *Node) AllocateParty(ctx context.Context, req AllocatePartyRequest) (identity.Party, error) {
	idp, err := requireIDPAdmin(ctx, req.IdentityProviderID)
	if err != nil {
		return identity.Party{}, err
	}
	if err := identity.ValidateIdentityProviderID(idp); err != nil {
		return identity.Party{}, apierr.InvalidField.New("identity_provider_id: %v", err)
	}
	hint := req.PartyIDHint
	if hint == "" {
		hint = "party-" + randomHex(16)
	} else if err := identity.ValidateUIDIdentifier(hint); err != nil {
		return identity.Party{}, apierr.InvalidArgument.New("invalid party id hint: %v", err)
	}
	meta := identity.ObjectMeta{ResourceVersion: "0", Annotations: map[string]string{}}
	if m := req.LocalMetadata; m != nil {
		if m.ResourceVersion != "" {
			return identity.Party{}, apierr.InvalidField.New("local_metadata.resource_version: must be empty when allocating a party")
		}
		if err := identity.ValidateAnnotations(m.Annotations, false); err != nil {
			if errors.Is(err, identity.ErrAnnotationsTooLarge) {
				return identity.Party{}, apierr.MaxPartyAnnotationsSizeExceeded.New("%v", err)
			}
			return identity.Party{}, apierr.InvalidField.New("local_metadata.annotations: %v", err)
		}
		maps.Copy(meta.Annotations, m.Annotations)
	}
	syncID, err := n.synchronizer(req.SynchronizerID)
	if err != nil {
		return identity.Party{}, err
	}
	if req.UserID != "" {
		if err := identity.ValidateUserID(req.UserID); err != nil {
			return identity.Party{}, apierr.InvalidField.New("user_id: %v", err)
		}
	}
	party := hint + "::" + n.namespace
	if err := identity.ValidatePartyString(party); err != nil {
		return identity.Party{}, apierr.InvalidArgument.New("invalid party id hint: %v", err)
	}

	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		rec := partyRecord{Party: party, IdentityProviderID: idp, Metadata: meta, SynchronizerID: syncID}
		return n.registerParty(tx, rec, req.UserID, update.PermissionSubmission, func() error {
			return apierr.InvalidArgument.New("Party already exists: party %s is already allocated on this node", apierr.Quote(party)).
				WithResource("PARTY", party)
		})
	})
	if err != nil {
		return identity.Party{}, storeErr(err)
	}
	n.log.InfoContext(ctx, "party allocated", "party", party, "synchronizerId", syncID, "user", req.UserID)
	return v.(partyRecord).details(idp), nil
}

// registerParty records a party hosted here, inside an allocation: its
// identity provider must exist and the party must not (exists builds that
// error); the user, when named, gets CanActAs on it; a topology transaction
// with a ParticipantAuthorizationAdded event is appended at a new offset.
func (n *Node) registerParty(tx *store.Tx, rec partyRecord, userID string, permission update.ParticipantPermission, exists func() error) (partyRecord, error) {
	if err := requireIDPExists(tx, rec.IdentityProviderID); err != nil {
		return rec, err
	}
	taken, err := tx.Has(store.PartyKey(rec.Party))
	if err != nil {
		return rec, err
	}
	if taken {
		return rec, exists()
	}
	if userID != "" {
		if err := n.grantActAs(tx, userID, rec.IdentityProviderID, rec.Party); err != nil {
			return rec, err
		}
	}
	rec.Offset = tx.NextOffset()
	now := formatTime(n.now())
	updateID := newUpdateID("party", rec.Party, n.participantID, strconv.FormatInt(rec.Offset, 10), now)
	tx.Set(store.PartyKey(rec.Party), partyRecordJSON(rec))
	tx.Set(store.IDPMemberKey(rec.IdentityProviderID, "p", rec.Party), nil)
	appendEntry(tx, &logEntry{Kind: kindTopology, Offset: rec.Offset, UpdateID: updateID, RecordTime: now, SynchronizerID: rec.SynchronizerID,
		Topology: []topologyEvent{{Event: topologyEventKind{ParticipantAuthorizationAdded: &wrapped[participantAuthorization]{
			Value: participantAuthorization{PartyID: rec.Party, ParticipantID: n.participantID, ParticipantPermission: permission}}}}}})
	return rec, nil
}

// grantActAs gives a user CanActAs on a new party inside an allocation.
func (n *Node) grantActAs(tx *store.Tx, userID, idp, party string) error {
	u, err := readUserRecord(tx, userID)
	notFound := apierr.UserNotFound.New("user %s not found", apierr.Quote(userID)).WithResource("USER", userID)
	if errors.Is(err, store.ErrNotFound) {
		return notFound
	}
	if err != nil {
		return err
	}
	if u.User.IdentityProviderID != idp {
		return notFound
	}
	right := identity.Right{Kind: identity.RightCanActAs, Party: party}
	for _, r := range u.Rights {
		if r == right {
			return nil
		}
	}
	if len(u.Rights)+1 > n.opts.MaxRightsPerUser {
		return apierr.TooManyUserRights.New("user %s would have more than %d rights", apierr.Quote(userID), n.opts.MaxRightsPerUser).
			WithResource("USER", userID)
	}
	u.Rights = append(u.Rights, right)
	setUserRecord(tx, u)
	return nil
}

// ListParties returns a page of the parties known to the participant,
// ordered by party id, and the token of the next page ("" on the last). It needs ParticipantAdmin, or IdentityProviderAdmin
// for the request's identity provider.
func (n *Node) ListParties(ctx context.Context, req ListPartiesRequest) (parties []identity.Party, nextPageToken string, err error) {
	idp, err := requireIDPAdmin(ctx, req.IdentityProviderID)
	if err != nil {
		return nil, "", err
	}
	if err := identity.ValidateIdentityProviderID(idp); err != nil {
		return nil, "", apierr.InvalidField.New("identity_provider_id: %v", err)
	}
	limit := int(req.PageSize)
	switch {
	case limit < 0:
		return nil, "", apierr.InvalidArgument.New("Page size must be non-negative")
	case limit == 0:
		limit = n.opts.MaxPartiesPageSize
	case limit > n.opts.MaxPartiesPageSize:
		return nil, "", apierr.InvalidArgument.New("Page size must not exceed the server's maximum of %d", n.opts.MaxPartiesPageSize)
	}
	var after string
	if req.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.PageToken)
		if err != nil || identity.ValidatePartyString(string(b)) != nil {
			return nil, "", apierr.InvalidArgument.New("Invalid page token")
		}
		after = string(b)
	}
	prefix := []byte(store.PrefixParty + req.FilterParty)
	var start []byte
	if after != "" {
		start = append(store.PartyKey(after), 0) // strictly after the last party
	}
	parties = []identity.Party{}
	var last string
	more := false
	err = n.st.View(func(r *store.Reader) error {
		return r.Scan(prefix, start, func(_, v []byte) (bool, error) {
			if len(parties) == limit {
				more = true
				return false, nil
			}
			var rec partyRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return false, err
			}
			parties = append(parties, rec.details(idp))
			last = rec.Party
			return true, nil
		})
	})
	if err != nil {
		return nil, "", storeErr(err)
	}
	if more {
		nextPageToken = base64.RawURLEncoding.EncodeToString([]byte(last))
	}
	return parties, nextPageToken, nil
}

// GetParties returns the details of the known parties among parties, each
// once, in the order asked; unknown parties are left out (the answer is not
// an error). parties must not be empty (MISSING_FIELD) and each must be a
// valid party id (INVALID_FIELD). identityProviderID scopes the answer's
// IsLocal and IdentityProviderID: "" is the default identity provider. It
// needs ParticipantAdmin, or IdentityProviderAdmin for identityProviderID.
func (n *Node) GetParties(ctx context.Context, parties []string, identityProviderID string) ([]identity.Party, error) {
	idp, err := requireIDPAdmin(ctx, identityProviderID)
	if err != nil {
		return nil, err
	}
	if err := identity.ValidateIdentityProviderID(idp); err != nil {
		return nil, apierr.InvalidField.New("identity_provider_id: %v", err)
	}
	if len(parties) == 0 {
		return nil, apierr.MissingField.New("parties")
	}
	for _, p := range parties {
		if err := identity.ValidatePartyString(p); err != nil {
			return nil, apierr.InvalidField.New("parties: %v", err)
		}
	}
	found := []identity.Party{}
	seen := map[string]bool{}
	err = n.st.View(func(r *store.Reader) error {
		for _, p := range parties {
			if seen[p] {
				continue
			}
			seen[p] = true
			raw, err := r.Get(store.PartyKey(p))
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var rec partyRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return err
			}
			found = append(found, rec.details(idp))
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return found, nil
}

// checkPartiesKnown refuses a transaction whose submitters or informees
// are not known, as Canton's routing does before it picks a synchronizer
// (AdmissibleSynchronizersComputation.forParties): UNKNOWN_SUBMITTERS when
// a submitter, else UNKNOWN_INFORMEES when an informee (tx.Informees of
// any node, rolled-back ones included), is known on no connected
// synchronizer. A party is known once allocated on this participant, on
// any of its synchronizers (parties are never removed). t is the read
// snapshot the transaction was interpreted on; a party found there once
// is remembered (partyKnown), so a submission by known parties reads
// nothing from the store. submitters are the locally hosted submitters:
// the actAs parties of a submission, none for an externally signed one.
func (n *Node) checkPartiesKnown(t *store.Tx, submitters []string, tr *tx.Transaction) error {
	var unknown []string
	check := func(p string) error {
		if slices.Contains(unknown, p) {
			return nil
		}
		ok, err := n.partyKnown(t, p)
		if err != nil {
			return err
		}
		if !ok {
			unknown = append(unknown, p)
		}
		return nil
	}
	for _, p := range submitters {
		if err := check(p); err != nil {
			return err
		}
	}
	if len(unknown) > 0 {
		return unknownParties(apierr.UnknownSubmitters, "submitters", unknown)
	}
	for _, nd := range tr.All() {
		var informees []string
		if c, ok := nd.(*tx.Create); ok {
			informees = c.Stakeholders // what tx.Informees would copy
		} else {
			informees = tx.Informees(nd)
		}
		for _, p := range informees {
			if err := check(p); err != nil {
				return err
			}
		}
	}
	if len(unknown) > 0 {
		return unknownParties(apierr.UnknownInformees, "informees", unknown)
	}
	return nil
}

// partyKnown reports whether party p is allocated on the participant: from
// the node's memory when a read found it before (parties are never
// removed), else from the read snapshot t, remembering it when found. t
// must be a read-only snapshot (what it sees is committed).
func (n *Node) partyKnown(t *store.Tx, p string) (bool, error) {
	if _, ok := n.knownParties.Load(p); ok {
		return true, nil
	}
	ok, err := t.Has(store.PartyKey(p))
	if ok {
		n.knownParties.Store(p, struct{}{})
	}
	return ok, err
}

// maxPartySetContext bounds the party list of an UNKNOWN_SUBMITTERS or
// UNKNOWN_INFORMEES context (Canton fits an error's details in 4 KiB,
// cutting a context value that does not fit to its head and "...").
const maxPartySetContext = 3500

// unknownParties is Canton's TopologyErrors.UnknownSubmitters or
// UnknownInformees error (what is "submitters" or "informees"): its
// fixed cause, the parties in the context key unknown<What> as Scala
// prints a Set (sorted here, each party bounded by apierr.Quote), and
// definite_answer false, as for every routing error.
func unknownParties(code apierr.Code, what string, parties []string) error {
	slices.Sort(parties)
	var b strings.Builder
	b.WriteString("Set(")
	if len(parties) > 4 {
		// Scala's immutable Set prints as a HashSet above four elements.
		b.Reset()
		b.WriteString("HashSet(")
	}
	for i, p := range parties {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(apierr.Quote(p))
	}
	b.WriteString(")")
	set := b.String()
	if len(set) > maxPartySetContext {
		set = set[:maxPartySetContext-3] + "..." // party ids are ASCII
	}
	e := code.New("The participant is not connected to any synchronizer where the given %s are known.", what)
	e.Context = map[string]string{"unknown" + strings.ToUpper(what[:1]) + what[1:]: set, "definite_answer": "false"}
	return e
}

// partyRecordJSON is a party's stored record: json.Marshal's bytes for
// partyRecord, written without reflection for a local party (a Daml
// Script allocates several); an external party's signing keys take
// json.Marshal.
func partyRecordJSON(p partyRecord) []byte {
	if len(p.SigningKeys) > 0 {
		return mustJSON(p)
	}
	dst := make([]byte, 0, 160+len(p.Party))
	dst = append(dst, `{"party":`...)
	dst = jsontext.AppendString(dst, p.Party, true)
	dst = append(dst, `,"identityProviderId":`...)
	dst = jsontext.AppendString(dst, p.IdentityProviderID, true)
	dst = append(dst, `,"metadata":`...)
	dst = appendObjectMetaJSON(dst, p.Metadata)
	dst = append(dst, `,"synchronizerId":`...)
	dst = jsontext.AppendString(dst, p.SynchronizerID, true)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, p.Offset, 10)
	if p.SigningThreshold != 0 {
		dst = append(dst, `,"signingThreshold":`...)
		dst = strconv.AppendInt(dst, int64(p.SigningThreshold), 10)
	}
	return append(dst, '}')
}
