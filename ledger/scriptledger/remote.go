package scriptledger

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Remote is a script.Ledger over a participant's JSON Ledger API v2
// (ledgerd, or Canton 3.5), the way the official runner talks gRPC to a
// participant (Daml's GrpcLedgerClient, in sdk/daml-script/runner):
// submissions through submit-and-wait-for-transaction (ledger effects),
// queries as linear searches of the active contracts, parties, users. Time
// questions use ledgernode's /ledgernode/v1/time extension, which answers
// as Canton's gRPC TimeService (the JSON Ledger API has no time service):
// the time is the participant's, shared by every client, and only moves
// forward; package vetting is not supported. Values are rendered to and
// read from Daml JSON with the types of the script's packages.
type Remote struct {
	base   string
	token  string
	client *http.Client
	pkgs   engine.PackageSource
}

// NewRemote returns a Remote for the JSON Ledger API at baseURL
// ("http://127.0.0.1:7575"), sending token as a bearer token (empty: none)
// and reading values with the types of pkgs (the script's DAR).
func NewRemote(baseURL, token string, pkgs engine.PackageSource) *Remote {
	return &Remote{base: strings.TrimRight(baseURL, "/"), token: token, client: &http.Client{Timeout: 2 * time.Minute}, pkgs: pkgs}
}

var _ script.Ledger = (*Remote)(nil)

// RemoteError is an error response of the participant: the HTTP status
// and Canton's JsCantonError code, cause and resources.
type RemoteError struct {
	// Status is the HTTP status.
	Status int
	// Code is the error code id; empty when the body was not a
	// JsCantonError.
	Code string
	// Cause is the error's cause, or the response body when Code is empty.
	Cause string
	// Resources are the (resource type, name) pairs of the error.
	Resources [][2]string
}

// Error returns the code and the cause.
func (e *RemoteError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("HTTP %d: %s", e.Status, e.Cause)
	}
	return e.Code + ": " + e.Cause
}

func (r *Remote) lookup(id string) *lf.Package { return r.pkgs.Package(id) }

// do sends a request with a JSON body (nil: none) and decodes a JSON
// answer into out (nil: discarded).
func (r *Remote) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		e := &RemoteError{Status: resp.StatusCode}
		var jc struct {
			Code      string      `json:"code"`
			Cause     string      `json:"cause"`
			Resources [][2]string `json:"resources"`
		}
		if json.Unmarshal(data, &jc) == nil && jc.Code != "" {
			e.Code, e.Cause, e.Resources = jc.Code, jc.Cause, jc.Resources
		} else {
			e.Cause = strings.TrimSpace(string(data))
		}
		return e
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// Submit submits through POST /v2/commands/submit-and-wait-for-transaction
// and rebuilds the transaction from its ledger-effects events.
func (r *Remote) Submit(ctx context.Context, s *script.Submission) (*tx.Transaction, error) {
	c := jsonapi.JsCommands{ActAs: s.ActAs, ReadAs: s.ReadAs, CommandID: commandID(),
		PackageIDSelectionPreference: s.PackagePreference, DisclosedContracts: disclosedContracts(s.Disclosures)}
	for i, cmd := range s.Commands {
		jc, err := r.command(cmd)
		if err != nil {
			return nil, fmt.Errorf("command %d: %w", i, err)
		}
		c.Commands = append(c.Commands, jc)
	}
	f := &jsonapi.TransactionFormat{EventFormat: jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{}, Verbose: true},
		TransactionShape: jsonapi.ShapeLedgerEffects}
	for _, p := range append(slices.Clone(s.ActAs), s.ReadAs...) {
		f.EventFormat.FiltersByParty[p] = jsonapi.Filters{}
	}
	var resp jsonapi.SubmitAndWaitForTransactionResponse
	err := r.do(ctx, http.MethodPost, "/v2/commands/submit-and-wait-for-transaction", jsonapi.SubmitAndWaitForTransactionRequest{Commands: c, TransactionFormat: f}, &resp)
	var re *RemoteError
	if errors.As(err, &re) && re.Code != "" {
		return nil, newSubmitError(re.Code, re.Cause, re.Resources)
	}
	if err != nil {
		return nil, err
	}
	return r.transaction(resp.Transaction.Events)
}

// command renders a command as JSON Ledger API command.
func (r *Remote) command(c script.Command) (jsonapi.JsCommand, error) {
	p := r.pkgs.Package(c.TemplateID.PackageID)
	if p == nil {
		return jsonapi.JsCommand{}, fmt.Errorf("unknown package %s", c.TemplateID.PackageID)
	}
	ref := c.TemplateID.String()
	if !c.ExplicitPackageID {
		ref = "#" + p.Name + ":" + c.TemplateID.Module + ":" + c.TemplateID.Name
	}
	tmplType := value.TypeOf(p.ID, c.TemplateID.Module, c.TemplateID.Name)
	var argType lf.Type
	if c.Kind != script.CreateCmd {
		ch := p.Choice(c.TemplateID.Module, c.TemplateID.Name, c.Choice)
		if ch == nil {
			return jsonapi.JsCommand{}, fmt.Errorf("no choice %s on %s", c.Choice, c.TemplateID)
		}
		argType = ch.ArgType
	}
	js := func(v value.Value, t lf.Type) json.RawMessage { return value.AppendJSONAs(nil, v, t, r.lookup) }
	switch c.Kind {
	case script.CreateCmd:
		return jsonapi.JsCommand{CreateCommand: &jsonapi.JsCreateCommand{TemplateID: ref, CreateArguments: js(c.Arg, tmplType)}}, nil
	case script.ExerciseCmd:
		return jsonapi.JsCommand{ExerciseCommand: &jsonapi.JsExerciseCommand{TemplateID: ref, ContractID: c.ContractID, Choice: c.Choice,
			ChoiceArgument: js(c.ChoiceArg, argType)}}, nil
	case script.CreateAndExerciseCmd:
		return jsonapi.JsCommand{CreateAndExerciseCommand: &jsonapi.JsCreateAndExerciseCommand{TemplateID: ref, CreateArguments: js(c.Arg, tmplType),
			Choice: c.Choice, ChoiceArgument: js(c.ChoiceArg, argType)}}, nil
	case script.ExerciseByKeyCmd:
		t := p.Template(c.TemplateID.Module, c.TemplateID.Name)
		if t == nil || t.Key == nil {
			return jsonapi.JsCommand{}, fmt.Errorf("template %s has no key", c.TemplateID)
		}
		return jsonapi.JsCommand{ExerciseByKeyCommand: &jsonapi.JsExerciseByKeyCommand{TemplateID: ref, ContractKey: js(c.Key, t.Key.Type),
			Choice: c.Choice, ChoiceArgument: js(c.ChoiceArg, argType)}}, nil
	}
	return jsonapi.JsCommand{}, fmt.Errorf("unknown command kind %d", c.Kind)
}

// transaction rebuilds a transaction (creates and exercises, roots and
// children from node ids and last descendants) from ledger-effects
// events.
func (r *Remote) transaction(events []jsonapi.JsEvent) (*tx.Transaction, error) {
	type open struct {
		idx  tx.NodeID
		last int32
	}
	sort.SliceStable(events, func(i, j int) bool { return nodeID(events[i]) < nodeID(events[j]) })
	t := &tx.Transaction{}
	var stack []open
	for _, ev := range events {
		id := nodeID(ev)
		for len(stack) > 0 && stack[len(stack)-1].last < id {
			stack = stack[:len(stack)-1]
		}
		var node tx.Node
		switch {
		case ev.CreatedEvent != nil:
			c, err := r.contract(ev.CreatedEvent)
			if err != nil {
				return nil, err
			}
			node = &tx.Create{ContractID: value.ContractID(c.ID), TemplateID: c.TemplateID, Arg: c.Arg, Signatories: c.Signatories, Stakeholders: c.Stakeholders}
		case ev.ExercisedEvent != nil:
			x, err := r.exercise(ev.ExercisedEvent)
			if err != nil {
				return nil, err
			}
			node = x
		default:
			continue
		}
		idx := tx.NodeID(len(t.Nodes))
		t.Nodes = append(t.Nodes, node)
		if len(stack) == 0 {
			t.Roots = append(t.Roots, idx)
		} else {
			parent := t.Nodes[stack[len(stack)-1].idx].(*tx.Exercise)
			parent.Children = append(parent.Children, idx)
		}
		if ev.ExercisedEvent != nil {
			stack = append(stack, open{idx: idx, last: ev.ExercisedEvent.LastDescendantNodeID})
		}
	}
	return t, nil
}

func nodeID(ev jsonapi.JsEvent) int32 {
	switch {
	case ev.CreatedEvent != nil:
		return ev.CreatedEvent.NodeID
	case ev.ExercisedEvent != nil:
		return ev.ExercisedEvent.NodeID
	case ev.ArchivedEvent != nil:
		return ev.ArchivedEvent.NodeID
	}
	return 0
}

func (r *Remote) typeCon(s string) (lf.TypeConID, *lf.Package, error) {
	id, err := lf.SplitIdentifier(s)
	if err != nil || id.PackageID == "" {
		return lf.TypeConID{}, nil, fmt.Errorf("template id %q: not package:Module:Entity", s)
	}
	p := r.pkgs.Package(id.PackageID)
	if p == nil {
		return lf.TypeConID{}, nil, fmt.Errorf("package %s of %s is not one of the script's packages", id.PackageID, s)
	}
	return lf.TypeConID{PackageID: id.PackageID, Module: id.Module, Name: id.Entity}, p, nil
}

// contract reads a created event as an engine.Contract.
func (r *Remote) contract(ev *jsonapi.JsCreatedEvent) (*engine.Contract, error) {
	tc, p, err := r.typeCon(ev.TemplateID)
	if err != nil {
		return nil, err
	}
	arg, err := value.FromJSON(ev.CreateArgument, value.TypeOf(tc.PackageID, tc.Module, tc.Name), r.lookup)
	if err != nil {
		return nil, fmt.Errorf("contract %s: %w", ev.ContractID, err)
	}
	c := &engine.Contract{ID: engine.ContractID(ev.ContractID), TemplateID: tc, Arg: arg, Signatories: ev.Signatories,
		Stakeholders: union(ev.Signatories, ev.Observers)}
	if t := p.Template(tc.Module, tc.Name); t != nil && t.Key != nil && len(ev.ContractKey) > 0 && string(ev.ContractKey) != "null" {
		k, err := value.FromJSON(ev.ContractKey, t.Key.Type, r.lookup)
		if err != nil {
			return nil, fmt.Errorf("contract %s: key: %w", ev.ContractID, err)
		}
		c.Key = &tx.KeyWithMaintainers{Key: k}
	}
	return c, nil
}

func (r *Remote) exercise(ev *jsonapi.JsExercisedEvent) (*tx.Exercise, error) {
	tc, p, err := r.typeCon(ev.TemplateID)
	if err != nil {
		return nil, err
	}
	owner, op := tc, p
	x := &tx.Exercise{TargetID: value.ContractID(ev.ContractID), TemplateID: tc, Choice: ev.Choice, Consuming: ev.Consuming, ActingParties: ev.ActingParties}
	if ev.InterfaceID != nil && *ev.InterfaceID != "" {
		ic, ip, err := r.typeCon(*ev.InterfaceID)
		if err != nil {
			return nil, err
		}
		x.InterfaceID = &ic
		owner, op = ic, ip
	}
	ch := op.Choice(owner.Module, owner.Name, ev.Choice)
	if ch == nil {
		return nil, fmt.Errorf("no choice %s on %s", ev.Choice, owner)
	}
	if x.ChosenValue, err = value.FromJSON(ev.ChoiceArgument, ch.ArgType, r.lookup); err != nil {
		return nil, fmt.Errorf("choice argument of %s: %w", ev.Choice, err)
	}
	if x.Result, err = value.FromJSON(ev.ExerciseResult, ch.ReturnType, r.lookup); err != nil {
		return nil, fmt.Errorf("result of %s: %w", ev.Choice, err)
	}
	return x, nil
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

// Contracts reads the active contracts at the ledger end visible to the
// parties (a wildcard filter) and keeps those match accepts.
func (r *Remote) Contracts(ctx context.Context, parties []string, match func(lf.TypeConID) bool) ([]engine.Contract, error) {
	var end jsonapi.LedgerEnd
	if err := r.do(ctx, http.MethodGet, "/v2/state/ledger-end", nil, &end); err != nil {
		return nil, err
	}
	f := &jsonapi.EventFormat{FiltersByParty: map[string]jsonapi.Filters{}, Verbose: true}
	for _, p := range parties {
		f.FiltersByParty[p] = jsonapi.Filters{}
	}
	var resp []jsonapi.GetActiveContractsResponse
	if err := r.do(ctx, http.MethodPost, "/v2/state/active-contracts", jsonapi.GetActiveContractsRequest{ActiveAtOffset: end.Offset, EventFormat: f}, &resp); err != nil {
		return nil, err
	}
	var out []engine.Contract
	for _, a := range resp {
		ac := a.ContractEntry.JsActiveContract
		if ac == nil {
			continue
		}
		if match != nil {
			tc, _, err := r.typeCon(ac.CreatedEvent.TemplateID)
			if err != nil || !match(tc) {
				continue
			}
		}
		c, err := r.contract(&ac.CreatedEvent)
		if err != nil {
			return nil, err
		}
		out = append(out, *c)
	}
	return out, nil
}

// ContractByID is a linear search of Contracts, as the official runner
// does over gRPC.
func (r *Remote) ContractByID(ctx context.Context, parties []string, cid string) (*engine.Contract, error) {
	cs, err := r.Contracts(ctx, parties, nil)
	if err != nil {
		return nil, err
	}
	for i := range cs {
		if string(cs[i].ID) == cid {
			return &cs[i], nil
		}
	}
	return nil, nil
}

// AllocateParty allocates through POST /v2/parties.
func (r *Remote) AllocateParty(ctx context.Context, hint string) (string, error) {
	var resp allocatePartyResponse
	if err := r.do(ctx, http.MethodPost, "/v2/parties", allocatePartyRequest{PartyIDHint: hint}, &resp); err != nil {
		return "", err
	}
	return resp.PartyDetails.Party, nil
}

// KnownParties pages through GET /v2/parties.
func (r *Remote) KnownParties(ctx context.Context) ([]script.PartyDetails, error) {
	var out []script.PartyDetails
	token := ""
	for {
		var resp listPartiesResponse
		if err := r.do(ctx, http.MethodGet, "/v2/parties?pageToken="+url.QueryEscape(token), nil, &resp); err != nil {
			return nil, err
		}
		for _, p := range resp.PartyDetails {
			out = append(out, script.PartyDetails{Party: p.Party, IsLocal: p.IsLocal})
		}
		if token = resp.NextPageToken; token == "" {
			return out, nil
		}
	}
}

type timeBody struct {
	CurrentTime string `json:"currentTime"`
}

// Time reads ledgernode's GET /ledgernode/v1/time (Canton's
// TimeService.GetTime).
func (r *Remote) Time(ctx context.Context) (time.Time, error) {
	s, err := r.currentTime(ctx)
	if err != nil {
		return time.Time{}, err
	}
	return time.Parse(time.RFC3339Nano, s)
}

func (r *Remote) currentTime(ctx context.Context) (string, error) {
	var resp timeBody
	if err := r.do(ctx, http.MethodGet, "/ledgernode/v1/time", nil, &resp); err != nil {
		return "", fmt.Errorf("the JSON Ledger API has no time service and /ledgernode/v1/time failed: %w", err)
	}
	return resp.CurrentTime, nil
}

// SetTime sets a static time as Daml Script's ledger client does over
// gRPC: it reads the current time, then asks the time service to move it
// from that time to t (Canton's TimeService.SetTime, here ledgernode's
// POST /ledgernode/v1/time with currentTime and newTime). So, as against
// a Canton participant on static time, a t before the participant's time
// fails ("Setting time backwards is not allowed"), and so does a move
// that races with another client's ("current_time mismatch").
func (r *Remote) SetTime(ctx context.Context, t time.Time) error {
	current, err := r.currentTime(ctx)
	if err != nil {
		return err
	}
	req := setTimeRequest{CurrentTime: current, NewTime: t.UTC().Format(time.RFC3339Nano)}
	if err := r.do(ctx, http.MethodPost, "/ledgernode/v1/time", req, nil); err != nil {
		return fmt.Errorf("setting the time through /ledgernode/v1/time: %w", err)
	}
	return nil
}

func isRemoteCode(err error, code string) bool {
	var re *RemoteError
	return errors.As(err, &re) && re.Code == code
}

// CreateUser creates through POST /v2/users; false when it exists.
func (r *Remote) CreateUser(ctx context.Context, u script.User, rights []script.UserRight) (bool, error) {
	err := r.do(ctx, http.MethodPost, "/v2/users", createUserRequest{User: identity.User{ID: u.ID, PrimaryParty: u.PrimaryParty}, Rights: toRights(rights)}, nil)
	if isRemoteCode(err, "USER_ALREADY_EXISTS") {
		return false, nil
	}
	return err == nil, err
}

// GetUser reads GET /v2/users/{id}; nil when unknown.
func (r *Remote) GetUser(ctx context.Context, id string) (*script.User, error) {
	var resp userResponse
	err := r.do(ctx, http.MethodGet, "/v2/users/"+url.PathEscape(id), nil, &resp)
	if isRemoteCode(err, "USER_NOT_FOUND") {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &script.User{ID: resp.User.ID, PrimaryParty: resp.User.PrimaryParty}, nil
}

// DeleteUser deletes through DELETE /v2/users/{id}; false when unknown.
func (r *Remote) DeleteUser(ctx context.Context, id string) (bool, error) {
	err := r.do(ctx, http.MethodDelete, "/v2/users/"+url.PathEscape(id), nil, nil)
	if isRemoteCode(err, "USER_NOT_FOUND") {
		return false, nil
	}
	return err == nil, err
}

// ListUsers pages through GET /v2/users.
func (r *Remote) ListUsers(ctx context.Context) ([]script.User, error) {
	var out []script.User
	token := ""
	for {
		var resp listUsersResponse
		if err := r.do(ctx, http.MethodGet, "/v2/users?pageToken="+url.QueryEscape(token), nil, &resp); err != nil {
			return nil, err
		}
		for _, u := range resp.Users {
			out = append(out, script.User{ID: u.ID, PrimaryParty: u.PrimaryParty})
		}
		if token = resp.NextPageToken; token == "" {
			return out, nil
		}
	}
}

// GrantUserRights grants through POST /v2/users/{id}/rights.
func (r *Remote) GrantUserRights(ctx context.Context, id string, rights []script.UserRight) ([]script.UserRight, bool, error) {
	var resp grantUserRightsResponse
	return r.userRights(ctx, http.MethodPost, id, userRightsRequest{UserID: id, Rights: toRights(rights)}, &resp,
		func() []identity.Right { return resp.NewlyGrantedRights })
}

// RevokeUserRights revokes through PATCH /v2/users/{id}/rights.
func (r *Remote) RevokeUserRights(ctx context.Context, id string, rights []script.UserRight) ([]script.UserRight, bool, error) {
	var resp revokeUserRightsResponse
	return r.userRights(ctx, http.MethodPatch, id, userRightsRequest{UserID: id, Rights: toRights(rights)}, &resp,
		func() []identity.Right { return resp.NewlyRevokedRights })
}

// ListUserRights reads GET /v2/users/{id}/rights.
func (r *Remote) ListUserRights(ctx context.Context, id string) ([]script.UserRight, bool, error) {
	var resp listUserRightsResponse
	return r.userRights(ctx, http.MethodGet, id, nil, &resp, func() []identity.Right { return resp.Rights })
}

// userRights sends in to /v2/users/{id}/rights, decodes the answer into
// out and returns the rights rights reads from it; false when the user is
// unknown.
func (r *Remote) userRights(ctx context.Context, method, id string, in, out any, rights func() []identity.Right) ([]script.UserRight, bool, error) {
	err := r.do(ctx, method, "/v2/users/"+url.PathEscape(id)+"/rights", in, out)
	if isRemoteCode(err, "USER_NOT_FOUND") {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return fromRights(rights()), true, nil
}

// Packages lists GET /v2/packages, named with the script's packages (a
// package the script does not know is left out).
func (r *Remote) Packages(ctx context.Context) ([]script.PackageInfo, error) {
	var resp listPackagesResponse
	if err := r.do(ctx, http.MethodGet, "/v2/packages", nil, &resp); err != nil {
		return nil, err
	}
	var out []script.PackageInfo
	for _, id := range resp.PackageIDs {
		if p := r.pkgs.Package(id); p != nil {
			out = append(out, script.PackageInfo{Name: p.Name, Version: p.Version, Vetted: true})
		}
	}
	return out, nil
}

// SetVetted is not supported over the JSON Ledger API (as over gRPC for
// the official runner).
func (r *Remote) SetVetted(context.Context, []script.PackageInfo, bool) error {
	return errors.New("vetPackages/unvetPackages is not supported when running Daml Script over the JSON Ledger API")
}

// disclosedContracts renders a script's disclosures as the Ledger API's
// disclosed contracts (the blob base64).
func disclosedContracts(ds []script.Disclosure) []jsonapi.JsDisclosedContract {
	var out []jsonapi.JsDisclosedContract
	for _, d := range ds {
		out = append(out, jsonapi.JsDisclosedContract{ContractID: d.ContractID, CreatedEventBlob: base64.StdEncoding.EncodeToString(d.Blob)})
	}
	return out
}
