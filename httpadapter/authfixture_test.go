package httpadapter

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// authFixture is a ledger fixture with four more users: reader
// (CanActAs and CanReadAs alice, the fixture's default caller), bobReader
// (CanReadAs bob), anyReader (CanReadAsAnyParty) and none (no rights).
type authFixture struct {
	*ledgerFixture
	admin, reader, bobReader, anyReader, none map[string]string
}

// newAuthFixture opens the fixture; its default caller is reader. Every
// response is validated against the OpenAPI document by the harness.
func newAuthFixture(t *testing.T) *authFixture {
	t.Helper()
	verifier := fakeVerifier{
		"admin-token":  {UserID: identity.DefaultParticipantAdmin},
		"reader-token": {UserID: "reader"},
		"any-token":    {UserID: "anyreader"},
		"none-token":   {UserID: "norights"},
		"bob-token":    {UserID: "bobreader"},
	}
	admin := bearer("admin-token")
	f := newLedgerFixture(t, ledger.Options{}, Options{Verifier: verifier}, admin)
	for _, u := range []jsonapi.CreateUserRequest{
		{User: identity.User{ID: "reader"}, Rights: []identity.Right{canReadAs(f.alice), canActAs(f.alice)}},
		{User: identity.User{ID: "anyreader"}, Rights: []identity.Right{{Kind: identity.RightCanReadAsAnyParty}}},
		{User: identity.User{ID: "norights"}},
		{User: identity.User{ID: "bobreader"}, Rights: []identity.Right{canReadAs(f.bob)}},
	} {
		if _, err := jsonapi.New(f.node).CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	f.auth = bearer("reader-token")
	return &authFixture{ledgerFixture: f, admin: admin, reader: f.auth, bobReader: bearer("bob-token"), anyReader: bearer("any-token"), none: bearer("none-token")}
}

// postAs posts body (a string as it is, anything else as JSON) with the
// header's token.
func (f *authFixture) postAs(header map[string]string, target string, body any) *httptest.ResponseRecorder {
	f.t.Helper()
	s, ok := body.(string)
	if !ok {
		s = js(f.t, body)
	}
	return f.do(httpCall{method: "POST", target: target, body: s, header: header})
}
