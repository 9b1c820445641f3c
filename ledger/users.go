package ledger

import (
	"context"
	"encoding/base64"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

func userNotFound(id string) *apierr.Error {
	return apierr.UserNotFound.New("getting user failed for unknown user \"%s\"", apierr.Quote(id)).WithResource("USER", id)
}

func validUserID(field, id string) error {
	if id == "" {
		// Canton's requireUserId: an absent id is missing, not invalid.
		return apierr.MissingField.New("%s", field)
	}
	if err := identity.ValidateUserID(id); err != nil {
		return apierr.InvalidField.New("%s: %v", field, err)
	}
	return nil
}

func validIDP(field, id string) error {
	if err := identity.ValidateIdentityProviderID(id); err != nil {
		return apierr.InvalidField.New("%s: %v", field, err)
	}
	return nil
}

// checkRights checks rights and, for a caller that is not a participant
// admin, that none of them is ParticipantAdmin.
func checkRights(ctx context.Context, rights []identity.Right) error {
	p := caller(ctx)
	for _, r := range rights {
		if err := r.Validate(); err != nil {
			return apierr.InvalidArgument.New("invalid right: %v", err)
		}
		if r.Kind == identity.RightParticipantAdmin && !p.IsParticipantAdmin() {
			return denied("an identity provider admin cannot grant ParticipantAdmin")
		}
	}
	return nil
}

// loadUser reads a user inside an identity provider (USER_NOT_FOUND when it
// is absent or belongs to another provider).
func loadUser(r userReader, id, idp string) (userRecord, error) {
	u, err := readUserRecord(r, id)
	if errors.Is(err, store.ErrNotFound) {
		return userRecord{}, userNotFound(id)
	}
	if err != nil {
		return userRecord{}, err
	}
	if u.User.IdentityProviderID != idp {
		return userRecord{}, userNotFound(id)
	}
	return u, nil
}

func (u userRecord) view() identity.User {
	out := u.User
	if out.Metadata.Annotations == nil {
		out.Metadata.Annotations = map[string]string{}
	}
	return out
}

// resourceVersion reads the resource version an update expects, as
// Canton's FieldValidator.requireResourceVersion does (a Java long, so
// "007" is 7): set is false for "" (no check); one that is not a number
// is INVALID_FIELD at field. A stored version is compared as a number.
func resourceVersion(field, rv string) (v int64, set bool, err error) {
	if rv == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseInt(rv, 10, 64)
	if err != nil {
		return 0, false, apierr.InvalidField.New("%s: Invalid resource version number", field)
	}
	return v, true, nil
}

// staleVersion reports whether an expected resource version (resourceVersion)
// differs from the stored one.
func staleVersion(want int64, set bool, stored string) bool {
	cur, _ := strconv.ParseInt(stored, 10, 64)
	return set && want != cur
}

func nextVersion(v string) string {
	n, _ := strconv.ParseInt(v, 10, 64)
	return strconv.FormatInt(n+1, 10)
}

// CreateUser creates a user with its rights. It needs ParticipantAdmin, or
// IdentityProviderAdmin of the user's provider (which cannot grant
// ParticipantAdmin).
func (n *Node) CreateUser(ctx context.Context, u identity.User, rights []identity.Right) (identity.User, error) {
	idp, err := requireIDPAdmin(ctx, u.IdentityProviderID)
	if err != nil {
		return identity.User{}, err
	}
	u.IdentityProviderID = idp
	if err := validUserID("user.id", u.ID); err != nil {
		return identity.User{}, err
	}
	if err := validIDP("user.identity_provider_id", idp); err != nil {
		return identity.User{}, err
	}
	if u.PrimaryParty != "" {
		if err := identity.ValidatePartyString(u.PrimaryParty); err != nil {
			return identity.User{}, apierr.InvalidField.New("user.primary_party: %v", err)
		}
	}
	if u.Metadata.ResourceVersion != "" {
		return identity.User{}, apierr.InvalidField.New("user.metadata.resource_version: must be empty when creating a user")
	}
	if err := annotationsErr(u.Metadata.Annotations, false, apierr.MaxUserAnnotationsSizeExceeded, "user.metadata.annotations"); err != nil {
		return identity.User{}, err
	}
	if err := checkRights(ctx, rights); err != nil {
		return identity.User{}, err
	}
	rights = dedupRights(rights)
	if len(rights) > n.opts.MaxRightsPerUser {
		return identity.User{}, apierr.TooManyUserRights.New("%d rights exceed the maximum of %d", len(rights), n.opts.MaxRightsPerUser).
			WithResource("USER", u.ID)
	}
	u.Metadata = identity.ObjectMeta{ResourceVersion: "0", Annotations: maps.Clone(u.Metadata.Annotations)}
	rec := userRecord{User: u, Rights: rights}
	_, err = n.st.Submit(func(tx *store.Tx) (any, error) {
		if err := requireIDPExists(tx, u.IdentityProviderID); err != nil {
			return nil, err
		}
		exists, err := tx.Has(store.UserKey(u.ID))
		if err != nil {
			return nil, err
		}
		if exists {
			return nil, apierr.UserAlreadyExists.New("creating user failed, as user \"%s\" already exists", apierr.Quote(u.ID)).WithResource("USER", u.ID)
		}
		setUserRecord(tx, rec)
		tx.Set(store.IDPMemberKey(u.IdentityProviderID, "u", u.ID), nil)
		return nil, nil
	})
	if err != nil {
		return identity.User{}, storeErr(err)
	}
	n.log.InfoContext(ctx, "user created", "user", u.ID, "identityProviderId", u.IdentityProviderID, "rights", len(rights))
	return rec.view(), nil
}

func annotationsErr(a map[string]string, forUpdate bool, tooLarge apierr.Code, field string) error {
	if err := identity.ValidateAnnotations(a, forUpdate); err != nil {
		if errors.Is(err, identity.ErrAnnotationsTooLarge) {
			return tooLarge.New("%v", err)
		}
		return apierr.InvalidField.New("%s: %v", field, err)
	}
	return nil
}

func dedupRights(rs []identity.Right) []identity.Right {
	out := make([]identity.Right, 0, len(rs))
	for _, r := range rs {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// selfIfEmpty reads an empty user id of a user read (GetUser,
// ListUserRights) as the caller's own, in the caller's provider, as
// Canton's MatchUserIdForUserManagement claim does.
func selfIfEmpty(ctx context.Context, id, idp string) (string, string, error) {
	if id != "" {
		return id, idp, nil
	}
	p := caller(ctx)
	if p.Wildcard && p.UserID == "" {
		return "", "", apierr.InvalidArgument.New("the caller is not an authenticated user")
	}
	return p.UserID, p.IdentityProviderID, nil
}

// GetUser returns the user id of identity provider idp ("" is the default
// provider). An empty id means the caller's own user (GET
// /v2/authenticated-user). A user may read itself; otherwise it needs
// ParticipantAdmin or IdentityProviderAdmin of the provider.
func (n *Node) GetUser(ctx context.Context, id, idp string) (identity.User, error) {
	id, idp, err := selfIfEmpty(ctx, id, idp)
	if err != nil {
		return identity.User{}, err
	}
	idp, err = requireSelfOrIDPAdmin(ctx, id, idp)
	if err != nil {
		return identity.User{}, err
	}
	if err := validIDP("identity_provider_id", idp); err != nil {
		return identity.User{}, err
	}
	if err := validUserID("user_id", id); err != nil {
		return identity.User{}, err
	}
	var u userRecord
	err = n.st.View(func(r *store.Reader) (err error) { u, err = loadUser(r, id, idp); return err })
	if err != nil {
		return identity.User{}, storeErr(err)
	}
	return u.view(), nil
}

// ListUsers returns a page of the users of identity provider
// identityProviderID, ordered by id, and the token of the next page (""
// on the last page); pageToken is the previous page's ("" for the first).
// pageSize 0 means the maximum (Options.MaxUsersPageSize); larger values
// are capped. It needs ParticipantAdmin or IdentityProviderAdmin of the
// provider.
func (n *Node) ListUsers(ctx context.Context, pageSize int32, pageToken, identityProviderID string) (users []identity.User, nextPageToken string, err error) {
	idp, err := requireIDPAdmin(ctx, identityProviderID)
	if err != nil {
		return nil, "", err
	}
	if err := validIDP("identity_provider_id", idp); err != nil {
		return nil, "", err
	}
	limit := int(pageSize)
	if limit < 0 {
		// Canton's words here (the party list says "Page size").
		return nil, "", apierr.InvalidArgument.New("Max page size must be non-negative")
	}
	if limit == 0 || limit > n.opts.MaxUsersPageSize {
		limit = n.opts.MaxUsersPageSize
	}
	prefix := store.IDPMemberPrefix(idp, "u")
	var start []byte
	if pageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(pageToken)
		if err != nil || identity.ValidateUserID(string(b)) != nil {
			return nil, "", apierr.InvalidArgument.New("Invalid page token")
		}
		start = append(append(slices.Clone(prefix), b...), 0)
	}
	users = []identity.User{}
	var last string
	more := false
	err = n.st.View(func(r *store.Reader) error {
		return r.Scan(prefix, start, func(k, _ []byte) (bool, error) {
			if len(users) == limit {
				more = true
				return false, nil
			}
			id := string(k[len(prefix):])
			u, err := loadUser(r, id, idp)
			if err != nil {
				return false, err
			}
			users = append(users, u.view())
			last = id
			return true, nil
		})
	})
	if err != nil {
		return nil, "", storeErr(err)
	}
	if more {
		nextPageToken = base64.RawURLEncoding.EncodeToString([]byte(last))
	}
	return users, nextPageToken, nil
}

// DeleteUser deletes the user id of provider idp. It needs ParticipantAdmin or
// IdentityProviderAdmin of the provider. A user cannot delete itself
// (INVALID_ARGUMENT, as Canton).
func (n *Node) DeleteUser(ctx context.Context, id, idp string) error {
	idp, err := requireIDPAdmin(ctx, idp)
	if err != nil {
		return err
	}
	if err := validUserID("user_id", id); err != nil {
		return err
	}
	if err := validIDP("identity_provider_id", idp); err != nil {
		return err
	}
	if p := caller(ctx); !p.Wildcard && p.UserID == id {
		return apierr.InvalidArgument.New("Requesting user cannot delete itself")
	}
	_, err = n.st.Submit(func(tx *store.Tx) (any, error) {
		if _, err := loadUser(tx, id, idp); err != nil {
			return nil, err
		}
		tx.Delete(store.UserKey(id))
		tx.Delete(store.IDPMemberKey(idp, "u", id))
		return nil, nil
	})
	if err != nil {
		return storeErr(err)
	}
	n.log.InfoContext(ctx, "user deleted", "user", id, "identityProviderId", idp)
	return nil
}

var userMaskPaths = []string{"primary_party", "is_deactivated", "metadata", "metadata.annotations",
	"metadata.resource_version", "identity_provider_id", "primary_party_authentication"}

// UpdateUser applies to the stored user u.ID the fields of u that paths
// names (proto snake_case field paths, as in an update mask:
// primary_party, is_deactivated, metadata, metadata.annotations,
// metadata.resource_version, identity_provider_id,
// primary_party_authentication), and returns the updated user. A
// non-empty u.Metadata.ResourceVersion must equal the stored one. It needs
// ParticipantAdmin or IdentityProviderAdmin of the user's provider; a user
// cannot deactivate itself. A stale resourceVersion fails with
// CONCURRENT_USER_UPDATE_DETECTED and changes nothing.
func (n *Node) UpdateUser(ctx context.Context, u identity.User, paths []string) (identity.User, error) {
	idp, err := requireIDPAdmin(ctx, u.IdentityProviderID)
	if err != nil {
		return identity.User{}, err
	}
	if err := validUserID("user.id", u.ID); err != nil {
		return identity.User{}, err
	}
	if err := validIDP("user.identity_provider_id", idp); err != nil {
		return identity.User{}, err
	}
	version, checkVersion, err := resourceVersion("user.metadata.resource_version", u.Metadata.ResourceVersion)
	if err != nil {
		return identity.User{}, err
	}
	if len(paths) == 0 {
		return identity.User{}, apierr.InvalidUserUpdate.New("Update operation for user id '%s' failed due to: The update mask contains no entries", apierr.Quote(u.ID))
	}
	set := map[string]bool{}
	for _, p := range paths {
		if !slices.Contains(userMaskPaths, p) {
			return identity.User{}, apierr.InvalidUserUpdate.New("Update operation for user id '%s' failed due to: The update path: '%s' is invalid", apierr.Quote(u.ID), apierr.Quote(p))
		}
		set[p] = true
	}
	if set["primary_party"] && u.PrimaryParty != "" {
		if err := identity.ValidatePartyString(u.PrimaryParty); err != nil {
			return identity.User{}, apierr.InvalidField.New("user.primary_party: %v", err)
		}
	}
	if set["is_deactivated"] && u.IsDeactivated {
		if p := caller(ctx); !p.Wildcard && p.UserID == u.ID {
			return identity.User{}, apierr.InvalidArgument.New("Requesting user cannot self-deactivate")
		}
	}
	annotations := set["metadata"] || set["metadata.annotations"]
	if annotations {
		if err := annotationsErr(u.Metadata.Annotations, true, apierr.MaxUserAnnotationsSizeExceeded, "user.metadata.annotations"); err != nil {
			return identity.User{}, err
		}
	}
	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		cur, err := loadUser(tx, u.ID, idp)
		if err != nil {
			return nil, err
		}
		if staleVersion(version, checkVersion, cur.User.Metadata.ResourceVersion) {
			return nil, apierr.ConcurrentUserUpdate.New("Update operation for user '%s' failed due a concurrent update to the same user", apierr.Quote(u.ID)).
				WithResource("USER", u.ID)
		}
		next := cur
		if set["primary_party"] {
			next.User.PrimaryParty = u.PrimaryParty
		}
		if set["is_deactivated"] {
			next.User.IsDeactivated = u.IsDeactivated
		}
		if set["primary_party_authentication"] {
			next.User.PrimaryPartyAuthentication = u.PrimaryPartyAuthentication
		}
		if annotations {
			merged, err := mergeAnnotations(cur.User.Metadata.Annotations, u.Metadata.Annotations, apierr.MaxUserAnnotationsSizeExceeded)
			if err != nil {
				return nil, err
			}
			next.User.Metadata.Annotations = merged
		}
		next.User.Metadata.ResourceVersion = nextVersion(cur.User.Metadata.ResourceVersion)
		setUserRecord(tx, next)
		return next, nil
	})
	if err != nil {
		return identity.User{}, storeErr(err)
	}
	return v.(userRecord).view(), nil
}

// mergeAnnotations applies an update's annotations (an empty value deletes
// the key) and checks the size of the result.
func mergeAnnotations(cur, upd map[string]string, tooLarge apierr.Code) (map[string]string, error) {
	out := maps.Clone(cur)
	if out == nil {
		out = map[string]string{}
	}
	for k, v := range upd {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	if err := identity.ValidateAnnotations(out, false); err != nil {
		if errors.Is(err, identity.ErrAnnotationsTooLarge) {
			return nil, tooLarge.New("%v", err)
		}
		return nil, apierr.InvalidField.New("metadata.annotations: %v", err)
	}
	return out, nil
}

// ListUserRights returns the rights of the user id of provider idp (an
// empty id: the caller's own user). A user may read its own; otherwise it
// needs ParticipantAdmin or IdentityProviderAdmin of the provider.
func (n *Node) ListUserRights(ctx context.Context, id, idp string) ([]identity.Right, error) {
	id, idp, err := selfIfEmpty(ctx, id, idp)
	if err != nil {
		return nil, err
	}
	idp, err = requireSelfOrIDPAdmin(ctx, id, idp)
	if err != nil {
		return nil, err
	}
	if err := validUserID("user_id", id); err != nil {
		return nil, err
	}
	if err := validIDP("identity_provider_id", idp); err != nil {
		return nil, err
	}
	var u userRecord
	err = n.st.View(func(r *store.Reader) (err error) { u, err = loadUser(r, id, idp); return err })
	if err != nil {
		return nil, storeErr(err)
	}
	return append([]identity.Right{}, u.Rights...), nil
}

// GrantUserRights adds rights to the user id of provider idp and returns
// those it did not have.
// It needs ParticipantAdmin or IdentityProviderAdmin of the provider (which
// cannot grant ParticipantAdmin). A user has at most MaxRightsPerUser rights.
func (n *Node) GrantUserRights(ctx context.Context, id, idp string, rights []identity.Right) ([]identity.Right, error) {
	return n.changeRights(ctx, id, idp, rights, true)
}

// RevokeUserRights removes rights from the user id of provider idp and
// returns those it had. A
// user cannot revoke its own ParticipantAdmin right (INVALID_ARGUMENT, as
// Canton).
func (n *Node) RevokeUserRights(ctx context.Context, id, idp string, rights []identity.Right) ([]identity.Right, error) {
	return n.changeRights(ctx, id, idp, rights, false)
}

func (n *Node) changeRights(ctx context.Context, id, idp string, rights []identity.Right, grant bool) ([]identity.Right, error) {
	idp, err := requireIDPAdmin(ctx, idp)
	if err != nil {
		return nil, err
	}
	if err := validUserID("user_id", id); err != nil {
		return nil, err
	}
	if err := validIDP("identity_provider_id", idp); err != nil {
		return nil, err
	}
	if err := checkRights(ctx, rights); err != nil {
		return nil, err
	}
	if p := caller(ctx); !grant && !p.Wildcard && p.UserID == id &&
		slices.Contains(rights, identity.Right{Kind: identity.RightParticipantAdmin}) {
		return nil, apierr.InvalidArgument.New("Requesting user cannot remove own admin rights")
	}
	rights = dedupRights(rights)
	v, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		u, err := loadUser(tx, id, idp)
		if err != nil {
			return nil, err
		}
		changed := []identity.Right{}
		for _, r := range rights {
			has := slices.Contains(u.Rights, r)
			switch {
			case grant && !has:
				u.Rights = append(u.Rights, r)
				changed = append(changed, r)
			case !grant && has:
				u.Rights = slices.DeleteFunc(u.Rights, func(x identity.Right) bool { return x == r })
				changed = append(changed, r)
			}
		}
		if len(u.Rights) > n.opts.MaxRightsPerUser {
			return nil, apierr.TooManyUserRights.New("granting %d rights would exceed the maximum of %d", len(changed), n.opts.MaxRightsPerUser).
				WithResource("USER", id)
		}
		if len(changed) > 0 {
			setUserRecord(tx, u)
		}
		return changed, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return v.([]identity.Right), nil
}

// UpdateUserIdentityProvider moves the user id from provider src to provider
// dst ("" is the default provider). Only a participant admin may. Both providers must exist and
// the user must belong to the source (USER_NOT_FOUND otherwise). Tokens of
// the old provider stop working for the user; tokens of the new one work.
func (n *Node) UpdateUserIdentityProvider(ctx context.Context, id, src, dst string) error {
	if err := requireParticipantAdmin(ctx, "moving a user between identity providers"); err != nil {
		return err
	}
	if err := validUserID("user_id", id); err != nil {
		return err
	}
	if err := validIDP("source_identity_provider_id", src); err != nil {
		return err
	}
	if err := validIDP("target_identity_provider_id", dst); err != nil {
		return err
	}
	_, err := n.st.Submit(func(tx *store.Tx) (any, error) {
		if err := requireIDPExists(tx, src); err != nil {
			return nil, err
		}
		if err := requireIDPExists(tx, dst); err != nil {
			return nil, err
		}
		u, err := loadUser(tx, id, src)
		if err != nil {
			return nil, err
		}
		if src == dst {
			return nil, nil
		}
		u.User.IdentityProviderID = dst
		u.User.Metadata.ResourceVersion = nextVersion(u.User.Metadata.ResourceVersion)
		setUserRecord(tx, u)
		tx.Delete(store.IDPMemberKey(src, "u", id))
		tx.Set(store.IDPMemberKey(dst, "u", id), nil)
		return nil, nil
	})
	return storeErr(err)
}

func validPartyField(field, p string) error {
	if err := identity.ValidatePartyString(p); err != nil {
		return apierr.InvalidField.New("%s: %v", field, err)
	}
	return nil
}

// userRecordJSON is a user's stored record: json.Marshal's bytes for
// userRecord, written without reflection (a user's rights change with
// every party a Daml Script allocates for it).
func userRecordJSON(u userRecord) []byte {
	dst := make([]byte, 0, 192+64*len(u.Rights))
	dst = append(dst, `{"user":{"id":`...)
	dst = jsontext.AppendString(dst, u.User.ID, true)
	dst = append(dst, `,"primaryParty":`...)
	dst = jsontext.AppendString(dst, u.User.PrimaryParty, true)
	dst = append(dst, `,"isDeactivated":`...)
	dst = strconv.AppendBool(dst, u.User.IsDeactivated)
	dst = append(dst, `,"metadata":`...)
	dst = appendObjectMetaJSON(dst, u.User.Metadata)
	dst = append(dst, `,"identityProviderId":`...)
	dst = jsontext.AppendString(dst, u.User.IdentityProviderID, true)
	dst = append(dst, `,"primaryPartyAuthentication":`...)
	dst = strconv.AppendBool(dst, u.User.PrimaryPartyAuthentication)
	dst = append(dst, `},"rights":`...)
	if u.Rights == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, r := range u.Rights {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = r.AppendJSON(dst)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendObjectMetaJSON appends m as json.Marshal writes it: annotations
// null when nil, else sorted by key.
func appendObjectMetaJSON(dst []byte, m identity.ObjectMeta) []byte {
	dst = append(dst, `{"resourceVersion":`...)
	dst = jsontext.AppendString(dst, m.ResourceVersion, true)
	dst = append(dst, `,"annotations":`...)
	if m.Annotations == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '{')
		for i, k := range slices.Sorted(maps.Keys(m.Annotations)) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsontext.AppendString(dst, k, true)
			dst = append(dst, ':')
			dst = jsontext.AppendString(dst, m.Annotations[k], true)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
