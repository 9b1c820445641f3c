package script

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// Queries (the library's Internal/Questions/Query.daml).

// queryACS answers QueryACS {parties, tplId}: the visible active
// contracts of exactly tplId, as (cid, AnyTemplate tplId payload).
func (s *session) queryACS(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	ps, tpl, err := partiesType(f)
	if err != nil {
		return nil, err
	}
	cs, err := s.contractsOf(ctx, ps, tpl)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Value, 0, len(cs))
	for i := range cs {
		arg, err := s.contractArg(&cs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, s.tuple2(cs[i].ID, s.anyTemplate(tpl, arg)))
	}
	return list(out), nil
}

// contractsOf reads the visible active contracts of exactly template tpl:
// through the ledger's TemplateContracts when it has one.
func (s *session) contractsOf(ctx context.Context, ps []string, tpl lf.TypeConID) ([]engine.Contract, error) {
	if tl, ok := s.l.(TemplateContracts); ok {
		return tl.ContractsOfTemplate(ctx, ps, tpl)
	}
	return s.l.Contracts(ctx, ps, func(t lf.TypeConID) bool { return t == tpl })
}

// partiesType reads the leading {parties, type rep} fields every query
// question starts with.
func partiesType(f []engine.Value) ([]string, lf.TypeConID, error) {
	ps, err := parties(f[0])
	if err != nil {
		return nil, lf.TypeConID{}, err
	}
	id, err := typeRepID(f[1])
	if err != nil {
		return nil, lf.TypeConID{}, err
	}
	return ps, id, nil
}

// partiesTypeCID reads the payload {parties, type rep, contract id} of a
// question by contract id.
func partiesTypeCID(f []engine.Value, question string) ([]string, lf.TypeConID, engine.ContractID, error) {
	ps, id, err := partiesType(f)
	if err != nil {
		return nil, lf.TypeConID{}, "", err
	}
	cid, ok := f[2].(engine.ContractID)
	if !ok {
		return nil, lf.TypeConID{}, "", fmt.Errorf("%s: expected a contract id, got %T", question, f[2])
	}
	return ps, id, cid, nil
}

// queryContractID answers QueryContractId {parties, tplId, cid}:
// Some (AnyTemplate, TemplateTypeRep, blob) when the contract is active
// and visible.
func (s *session) queryContractID(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	ps, tpl, cid, err := partiesTypeCID(f, "QueryContractId")
	if err != nil {
		return nil, err
	}
	// The blob (lowercase hex) for queryDisclosure, when the ledger gives
	// contract blobs.
	var c *engine.Contract
	var blob []byte
	if cb, ok := s.l.(ContractBlobs); ok {
		c, blob, err = cb.ContractWithBlob(ctx, ps, string(cid))
	} else {
		c, err = s.l.ContractByID(ctx, ps, string(cid))
	}
	if err != nil || c == nil {
		return engine.None, err
	}
	arg, err := s.contractArg(c)
	if err != nil {
		return nil, err
	}
	return some(s.tuple3(s.anyTemplate(tpl, arg), s.templateTypeRep(tpl), engine.Text(hex.EncodeToString(blob)))), nil
}

// view computes a contract's interface view; a failing view is None.
func (s *session) view(ctx context.Context, iface lf.TypeConID, c *engine.Contract) engine.Value {
	v, err := s.eng.InterfaceView(ctx, iface, c, nil)
	if err != nil {
		return engine.None
	}
	ev, err := s.fromValue(v)
	if err != nil {
		return engine.None
	}
	return some(ev)
}

// queryInterface answers QueryInterface {parties, interfaceId}: the
// visible active contracts implementing it with their views.
func (s *session) queryInterface(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	ps, iface, err := partiesType(f)
	if err != nil {
		return nil, err
	}
	cs, err := s.l.Contracts(ctx, ps, func(t lf.TypeConID) bool { return s.eng.Implements(t, iface) })
	if err != nil {
		return nil, err
	}
	out := make([]engine.Value, 0, len(cs))
	for i := range cs {
		out = append(out, s.tuple2(cs[i].ID, s.view(ctx, iface, &cs[i])))
	}
	return list(out), nil
}

// queryInterfaceContractID answers QueryInterfaceContractId {parties,
// interfaceId, cid}: the view of the contract, None when not visible.
func (s *session) queryInterfaceContractID(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	ps, iface, cid, err := partiesTypeCID(f, "QueryInterfaceContractId")
	if err != nil {
		return nil, err
	}
	c, err := s.l.ContractByID(ctx, ps, string(cid))
	if err != nil || c == nil || !s.eng.Implements(c.TemplateID, iface) {
		return engine.None, err
	}
	return s.view(ctx, iface, c), nil
}

// queryContractKey answers QueryContractKey (QueryByKey from 3.5 on)
// {parties, tplId, key}: Some (cid, AnyTemplate) of the visible active
// contract with the key, the newest when several have it.
func (s *session) queryContractKey(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	ps, tpl, err := partiesType(f)
	if err != nil {
		return nil, err
	}
	key, err := contractKey(field(p, "key"))
	if err != nil {
		return nil, err
	}
	cs, err := s.contractsByKey(ctx, ps, tpl, key, 1)
	if err != nil || len(cs) == 0 {
		return engine.None, err
	}
	return some(cs[0]), nil
}

// queryNByKey answers QueryNByKey {parties, tplId, contractKey, limit}
// (3.5 on, for the non-unique keys of LF 2.3): up to limit visible active
// contracts with the key, as [(cid, AnyTemplate)].
func (s *session) queryNByKey(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	ps, tpl, err := partiesType(f)
	if err != nil {
		return nil, err
	}
	key, err := contractKey(field(p, "contractKey"))
	if err != nil {
		return nil, err
	}
	limit, ok := field(p, "limit").(engine.Int64)
	if !ok {
		return nil, fmt.Errorf("QueryNByKey limit: expected an Int, got %T", field(p, "limit"))
	}
	cs, err := s.contractsByKey(ctx, ps, tpl, key, int64(limit))
	if err != nil {
		return nil, err
	}
	return list(cs), nil
}

// contractsByKey returns (cid, AnyTemplate) of up to limit visible active
// contracts of tpl with the key, newest first, as the JVM runner's ledger
// client answers (queryNByKey). A negative limit is no limit: the
// library's queryNByKey refuses one, and the JVM runner reads the
// queryAllByKey limit maxBound, truncated to -1, as unlimited.
func (s *session) contractsByKey(ctx context.Context, ps []string, tpl lf.TypeConID, key engine.Value, limit int64) ([]engine.Value, error) {
	cs, err := s.contractsOf(ctx, ps, tpl)
	if err != nil {
		return nil, err
	}
	var out []engine.Value
	for i := len(cs) - 1; i >= 0 && (limit < 0 || int64(len(out)) < limit); i-- {
		if cs[i].Key == nil {
			continue
		}
		k, err := s.fromValue(cs[i].Key.Key)
		if err != nil {
			return nil, err
		}
		eq, err := engine.Equal(k, key)
		if err != nil {
			return nil, err
		}
		if !eq {
			continue
		}
		arg, err := s.contractArg(&cs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, s.tuple2(cs[i].ID, s.anyTemplate(tpl, arg)))
	}
	return out, nil
}

// Parties (the library's Internal/Questions/PartyManagement.daml).

// newPartySuffix is 8 random hex digits.
func newPartySuffix() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// allocateParty answers AllocateParty {requestedName (displayName in
// the 3.2 library), idHint, participant (v1) or participants (v2)}. The
// participant fields name the participant that hosts the party; the
// script's ledger is one participant, so they are not read.
func (s *session) allocateParty(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	if display := field(p, "displayName"); display != nil {
		return s.allocateParty32(ctx, p, display)
	}
	name, err := asText(field(p, "requestedName"))
	if err != nil {
		return nil, fmt.Errorf("AllocateParty requestedName: %w", err)
	}
	hint, err := asText(field(p, "idHint"))
	if err != nil {
		return nil, fmt.Errorf("AllocateParty idHint: %w", err)
	}
	switch {
	case hint == "" && name == "":
		hint = "party-" + newPartySuffix()
	case hint == "":
		hint = name + "-" + newPartySuffix()
	case name != "" && name != hint:
		return nil, runnerErrorf("Requested name '%s' cannot be different from id hint '%s'", name, hint)
	}
	return s.allocateHint(ctx, hint)
}

// allocateParty32 allocates a party as the 3.2 runner's ledger does for
// the 3.2 library's AllocateParty {displayName, idHint, participant}: the
// hint when it is not empty (the display name may differ), else the
// display name ("party" when empty) made unique among the known parties
// with a numeric suffix (alice, alice1, alice2 …), with no random suffix.
func (s *session) allocateParty32(ctx context.Context, p *engine.Record, display engine.Value) (engine.Value, error) {
	name, err := asText(display)
	if err != nil {
		return nil, fmt.Errorf("AllocateParty displayName: %w", err)
	}
	hint, err := asText(field(p, "idHint"))
	if err != nil {
		return nil, fmt.Errorf("AllocateParty idHint: %w", err)
	}
	if hint == "" {
		if name == "" {
			name = "party"
		}
		known, err := s.l.KnownParties(ctx)
		if err != nil {
			return nil, err
		}
		used := make(map[string]bool, len(known))
		for _, k := range known {
			h, _, _ := strings.Cut(k.Party, "::")
			used[h] = true
		}
		hint = name
		for i := 1; used[hint]; i++ {
			hint = name + strconv.Itoa(i)
		}
	}
	return s.allocateHint(ctx, hint)
}

// allocateHint allocates a party with a hint that must be a valid party.
func (s *session) allocateHint(ctx context.Context, hint string) (engine.Value, error) {
	if !lf.IsParty(hint) {
		return nil, runnerErrorf("Invalid party name: %s", hint)
	}
	party, err := s.l.AllocateParty(ctx, hint)
	if err != nil {
		return nil, err
	}
	return engine.Party(party), nil
}

// listKnownParties answers ListKnownParties {participant} with the
// library's PartyDetails: {party, isLocal}, and in the 3.2 library also
// displayName (Some of the party's name, as the 3.2 runner fills it).
func (s *session) listKnownParties(ctx context.Context, _ *engine.Record, _ engine.Value) (engine.Value, error) {
	ps, err := s.l.KnownParties(ctx)
	if err != nil {
		return nil, err
	}
	id := s.dsID("Questions.PartyManagement", "PartyDetails")
	out := make([]engine.Value, 0, len(ps))
	for _, p := range ps {
		name, _, _ := strings.Cut(p.Party, "::")
		out = append(out, s.recordOf(id, map[string]engine.Value{"party": engine.Party(p.Party),
			"isLocal": engine.Bool(p.IsLocal), "displayName": some(engine.Text(name))}))
	}
	return list(out), nil
}

// Time (the library's Internal/Questions/Time.daml).

func (s *session) getTime(ctx context.Context, _ *engine.Record, _ engine.Value) (engine.Value, error) {
	t, err := s.l.Time(ctx)
	if err != nil {
		return nil, err
	}
	return engine.Timestamp(t.UnixMicro()), nil
}

func (s *session) setTime(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	t, ok := f[0].(engine.Timestamp)
	if !ok {
		return nil, fmt.Errorf("SetTime: expected a Timestamp, got %T", f[0])
	}
	if err := s.l.SetTime(ctx, time.UnixMicro(int64(t)).UTC()); err != nil {
		return nil, err
	}
	return engine.Unit{}, nil
}

// sleep answers Sleep {duration: RelTime {microseconds}}: it sleeps for
// real (wall time), as the official runner does.
func (s *session) sleep(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	r, err := asRecord(f[0], "RelTime")
	if err != nil {
		return nil, err
	}
	us, _ := r.Fields[0].(engine.Int64)
	t := time.NewTimer(time.Duration(us) * time.Microsecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
	}
	return engine.Unit{}, nil
}

// Users (the library's Internal/Questions/UserManagement.daml).

const userIDChars = "@^$.!`-#+'~_|:"

// validUserID reports the reason a user id is invalid, or "".
func validUserID(id string) string {
	ok := len(id) >= 1 && len(id) <= 128
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(userIDChars, c) >= 0)
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("User ID \"%s\" does not match regex \"[a-zA-Z0-9@^$.!`\\-#+'~_|:]{1,128}\"", id)
}

func (s *session) validateUserID(_ context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	id, err := asText(f[0])
	if err != nil {
		return nil, err
	}
	if msg := validUserID(id); msg != "" {
		return some(engine.Text(msg)), nil
	}
	return engine.None, nil
}

// userID reads a UserId newtype {unpack}, re-validated.
func userID(v engine.Value) (string, error) {
	r, err := asRecord(v, "UserId")
	if err != nil {
		return "", err
	}
	id, err := asText(r.Fields[0])
	if err != nil {
		return "", err
	}
	if msg := validUserID(id); msg != "" {
		return "", fmt.Errorf("%s", msg)
	}
	return id, nil
}

func (s *session) readUser(v engine.Value) (User, error) {
	r, err := asRecord(v, "User")
	if err != nil {
		return User{}, err
	}
	id, err := userID(r.Fields[0])
	if err != nil {
		return User{}, err
	}
	u := User{ID: id}
	if o, ok := r.Fields[1].(engine.Optional); ok && o.Value != nil {
		p, _ := o.Value.(engine.Party)
		u.PrimaryParty = string(p)
	}
	return u, nil
}

func (s *session) userValue(u User) engine.Value {
	var pp engine.Value = engine.None
	if u.PrimaryParty != "" {
		pp = some(engine.Party(u.PrimaryParty))
	}
	uid := s.record(s.dsID("Questions.UserManagement", "UserId"), engine.Text(u.ID))
	return s.record(s.dsID("Questions.UserManagement", "User"), uid, pp)
}

func (s *session) readRights(v engine.Value) ([]UserRight, error) {
	l, _ := v.(*engine.List)
	var out []UserRight
	for _, x := range l.Slice() {
		vr, ok := x.(*engine.Variant)
		if !ok {
			return nil, fmt.Errorf("UserRight: expected a variant, got %T", x)
		}
		r := UserRight{Kind: RightKind(vr.Rank)}
		if r.Kind == CanActAs || r.Kind == CanReadAs {
			p, ok := vr.Value.(engine.Party)
			if !ok {
				return nil, fmt.Errorf("UserRight: expected a Party, got %T", vr.Value)
			}
			r.Party = string(p)
		}
		out = append(out, r)
	}
	return out, nil
}

var rightCons = []string{"ParticipantAdmin", "CanActAs", "CanReadAs", "CanReadAsAnyParty"}

func (s *session) rightsValue(rs []UserRight) engine.Value {
	id := s.dsID("Questions.UserManagement", "UserRight")
	out := make([]engine.Value, 0, len(rs))
	for _, r := range rs {
		var arg engine.Value = engine.Unit{}
		if r.Kind == CanActAs || r.Kind == CanReadAs {
			arg = engine.Party(r.Party)
		}
		out = append(out, &engine.Variant{ID: id, Con: rightCons[r.Kind], Rank: int(r.Kind), Value: arg})
	}
	return list(out)
}

func optionalUnit(ok bool) engine.Value {
	if ok {
		return some(engine.Unit{})
	}
	return engine.None
}

func (s *session) createUser(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	u, err := s.readUser(f[0])
	if err != nil {
		return nil, err
	}
	rights, err := s.readRights(f[1])
	if err != nil {
		return nil, err
	}
	ok, err := s.l.CreateUser(ctx, u, rights)
	if err != nil {
		return nil, err
	}
	return optionalUnit(ok), nil
}

func (s *session) getUser(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	id, err := userID(f[0])
	if err != nil {
		return nil, err
	}
	u, err := s.l.GetUser(ctx, id)
	if err != nil || u == nil {
		return engine.None, err
	}
	return some(s.userValue(*u)), nil
}

func (s *session) deleteUser(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	id, err := userID(f[0])
	if err != nil {
		return nil, err
	}
	ok, err := s.l.DeleteUser(ctx, id)
	if err != nil {
		return nil, err
	}
	return optionalUnit(ok), nil
}

func (s *session) listAllUsers(ctx context.Context, _ *engine.Record, _ engine.Value) (engine.Value, error) {
	us, err := s.l.ListUsers(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(us, func(a, b User) int { return strings.Compare(a.ID, b.ID) })
	out := make([]engine.Value, 0, len(us))
	for _, u := range us {
		out = append(out, s.userValue(u))
	}
	return list(out), nil
}

func (s *session) userRights(ctx context.Context, f []engine.Value, op func(ctx context.Context, id string, rs []UserRight) ([]UserRight, bool, error)) (engine.Value, error) {
	id, err := userID(f[0])
	if err != nil {
		return nil, err
	}
	var rights []UserRight
	if len(f) > 2 {
		if rights, err = s.readRights(f[1]); err != nil {
			return nil, err
		}
	}
	rs, ok, err := op(ctx, id, rights)
	if err != nil || !ok {
		return engine.None, err
	}
	return some(s.rightsValue(rs)), nil
}

func (s *session) grantUserRights(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	return s.userRights(ctx, f, s.l.GrantUserRights)
}

func (s *session) revokeUserRights(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	return s.userRights(ctx, f, s.l.RevokeUserRights)
}

func (s *session) listUserRights(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	f := p.Fields
	return s.userRights(ctx, f, func(ctx context.Context, id string, _ []UserRight) ([]UserRight, bool, error) {
		return s.l.ListUserRights(ctx, id)
	})
}

// Packages (the library's Internal/Questions/Packages.daml).

func (s *session) readPackageNames(v engine.Value) ([]PackageInfo, error) {
	l, _ := v.(*engine.List)
	var out []PackageInfo
	for _, x := range l.Slice() {
		r, err := asRecord(x, "PackageName")
		if err != nil {
			return nil, err
		}
		n, err := asText(r.Fields[0])
		if err != nil {
			return nil, err
		}
		ver, err := asText(r.Fields[1])
		if err != nil {
			return nil, err
		}
		out = append(out, PackageInfo{Name: n, Version: ver})
	}
	return out, nil
}

// setVetted answers VetPackages and UnvetPackages {packages} (to 3.3 of
// April 2025) or {packages, participant}: the packages field is read by
// name. The participant is not: the script's ledger is one participant.
func (s *session) setVetted(ctx context.Context, p *engine.Record, vetted bool) (engine.Value, error) {
	pv := field(p, "packages")
	if pv == nil {
		return nil, fmt.Errorf("no packages field in %v", p.Type.Fields)
	}
	ps, err := s.readPackageNames(pv)
	if err != nil {
		return nil, err
	}
	if err := s.l.SetVetted(ctx, ps, vetted); err != nil {
		return nil, err
	}
	return engine.Unit{}, nil
}

func (s *session) vetPackages(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	return s.setVetted(ctx, p, true)
}

func (s *session) unvetPackages(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	return s.setVetted(ctx, p, false)
}

func (s *session) listPackages(ctx context.Context, onlyVetted bool) (engine.Value, error) {
	ps, err := s.l.Packages(ctx)
	if err != nil {
		return nil, err
	}
	id := s.dsID("Questions.Packages", "PackageName")
	var out []engine.Value
	for _, p := range ps {
		if onlyVetted && !p.Vetted {
			continue
		}
		out = append(out, s.record(id, engine.Text(p.Name), engine.Text(p.Version)))
	}
	return list(out), nil
}

func (s *session) listVettedPackages(ctx context.Context, _ *engine.Record, _ engine.Value) (engine.Value, error) {
	return s.listPackages(ctx, true)
}

func (s *session) listAllPackages(ctx context.Context, _ *engine.Record, _ engine.Value) (engine.Value, error) {
	return s.listPackages(ctx, false)
}
