package ledger

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// A Daml Script creates its users, grants them rights as it allocates
// parties and lists their rights (ListUserRights), each read decoding the
// user's stored JSON. On an in-memory script node (whose store keeps
// decoded forms: store.Tx.SetOwnedDecoded) a user record is written with
// its decoded form, which readers copy instead of decoding the bytes.

// userReader is a store.Reader or a store.Tx.
type userReader interface {
	Get(key []byte) ([]byte, error)
	Decoded(key []byte) (any, bool)
}

// readUserRecord reads user id's record from r: a copy of the decoded
// form its writer stored with it (setUserRecord), else the decoding of
// its bytes; store.ErrNotFound when there is none.
func readUserRecord(r userReader, id string) (userRecord, error) {
	key := store.UserKey(id)
	if d, ok := r.Decoded(key); ok {
		if u, ok := d.(*userRecord); ok {
			return u.clone(), nil
		}
	}
	raw, err := r.Get(key)
	if err != nil {
		return userRecord{}, err
	}
	var u userRecord
	if err := json.Unmarshal(raw, &u); err != nil {
		return userRecord{}, err
	}
	return u, nil
}

// setUserRecord stages the write of user record u, with its decoded form
// (a copy of u, which is what json.Unmarshal gives for the record's bytes:
// userRecordJSON writes every field, nil lists and maps as null and
// empty ones as [] and {}, which decode back alike) when every string of
// it is valid UTF-8 (the encoding replaces invalid bytes, which would not
// decode back to u).
func setUserRecord(t *store.Tx, u userRecord) {
	raw := userRecordJSON(u)
	if !u.validUTF8() {
		t.SetOwned(store.UserKey(u.User.ID), raw)
		return
	}
	d := u.clone()
	if verifyStoredRecords {
		var want userRecord
		if err := json.Unmarshal(raw, &want); err != nil || !reflect.DeepEqual(&want, &d) {
			panic(fmt.Sprintf("ledger: the decoded form of user record %s is not its decoding (%v):\n%+v\n%+v", u.User.ID, err, d, want))
		}
	}
	t.SetOwnedDecoded(store.UserKey(u.User.ID), raw, &d)
}

// clone returns a copy of u that shares no list or map with it.
func (u *userRecord) clone() userRecord {
	c := *u
	c.User.Metadata.Annotations = maps.Clone(u.User.Metadata.Annotations)
	c.Rights = slices.Clone(u.Rights)
	return c
}

// validUTF8 reports whether every string of u is valid UTF-8.
func (u *userRecord) validUTF8() bool {
	x := &u.User
	for _, s := range []string{x.ID, x.PrimaryParty, x.Metadata.ResourceVersion, x.IdentityProviderID} {
		if !utf8.ValidString(s) {
			return false
		}
	}
	for k, v := range x.Metadata.Annotations {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	for _, r := range u.Rights {
		if !utf8.ValidString(string(r.Kind)) || !utf8.ValidString(r.Party) {
			return false
		}
	}
	return true
}
