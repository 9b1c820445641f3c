package script

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// daFailTypesPkg is the stable package daml-stdlib-DA-Internal-Fail-Types,
// which defines the FailureStatus record of failWithStatus,
// tryFailureStatus and SubmitError.FailureStatusError.
const daFailTypesPkg = "7adc4c2d07fa3a51173c843cba36e610c1168b2dbbf53076e20c0092eae8763d"

var failureStatusID = lf.TypeConID{PackageID: daFailTypesPkg, Module: "DA.Internal.Fail.Types", Name: "FailureStatus"}

// unhandledCategory is the Canton category of the FailureStatus an
// unhandled exception becomes: InvalidGivenCurrentSystemStateOther.
const unhandledCategory = 9

// failWithStatus answers FailWithStatus {status : FailureStatus}: it
// never answers. The script fails with the status as an *engine.Error of
// kind ErrFailureStatus, the error FAIL_WITH_STATUS raises in Daml code;
// the JVM runner likewise fails with the interpreter's FailureStatus
// error. Being an interpretation error and not a failed question, Catch
// and TryCommands let it through; TryFailureStatus catches it.
func (s *session) failWithStatus(_ context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	fs, err := readFailureStatus(field(p, "status"))
	if err != nil {
		return nil, err
	}
	return nil, fs
}

// readFailureStatus reads a FailureStatus {errorId, category, message,
// meta} (the category is the Int64 Canton category id a FailureCategory
// literal evaluates to).
func readFailureStatus(v engine.Value) (*engine.Error, error) {
	r, err := asRecord(v, "FailureStatus")
	if err != nil {
		return nil, err
	}
	id, ok1 := field(r, "errorId").(engine.Text)
	cat, ok2 := field(r, "category").(engine.Int64)
	msg, ok3 := field(r, "message").(engine.Text)
	meta, ok4 := field(r, "meta").(*engine.Map)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, fmt.Errorf("FailureStatus: expected {errorId : Text, category : FailureCategory, message : Text, meta : TextMap Text}, got %v", r.Type.Fields)
	}
	fs := &engine.Error{Kind: engine.ErrFailureStatus, ErrorID: string(id), Category: int64(cat), Message: string(msg),
		Metadata: make(map[string]string, len(meta.Keys))}
	for i, k := range meta.Keys {
		kt, ok1 := k.(engine.Text)
		vt, ok2 := meta.Values[i].(engine.Text)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("FailureStatus meta: expected (Text, Text), got (%T, %T)", k, meta.Values[i])
		}
		fs.Metadata[string(kt)] = string(vt)
	}
	return fs, nil
}

// failureStatusValue builds the stable FailureStatus record.
func (s *session) failureStatusValue(errorID string, category int64, message string, meta map[string]string) engine.Value {
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	m := &engine.Map{Text: true, Keys: make([]engine.Value, len(keys)), Values: make([]engine.Value, len(keys))}
	for i, k := range keys {
		m.Keys[i], m.Values[i] = engine.Text(k), engine.Text(meta[k])
	}
	return s.recordOf(failureStatusID, map[string]engine.Value{"errorId": engine.Text(errorID),
		"category": engine.Int64(category), "message": engine.Text(message), "meta": m})
}

// tryFailureStatus runs act () nested (TryFailureStatus {act, dummy}):
// Right v, or Left the FailureStatus it failed with. A FailureStatus is a
// FailWithStatus question, FAIL_WITH_STATUS in Daml code, or an exception
// nothing caught (thrown by a Throw question or in Daml code), which
// becomes UNHANDLED_EXCEPTION/<Module>:<Name> in category 9, as a Canton
// ledger reports it. A failed question is not one and propagates, as do
// the other interpretation errors.
func (s *session) tryFailureStatus(ctx context.Context, p *engine.Record, _ engine.Value) (engine.Value, error) {
	act := field(p, "act")
	if act == nil {
		return nil, fmt.Errorf("TryFailureStatus: no act field in %v", p.Type.Fields)
	}
	script, err := s.eng.Apply(ctx, act, engine.Unit{})
	var v engine.Value
	if err == nil {
		v, err = s.runScript(ctx, script)
	}
	if err == nil {
		return s.either(1, v), nil
	}
	var qe *QuestionError
	if errors.As(err, &qe) {
		return nil, err
	}
	var te *ThrowError
	if errors.As(err, &te) {
		return s.either(0, s.failureStatusValue("UNHANDLED_EXCEPTION/"+typeName(te.Exception.Type), unhandledCategory, te.Message, nil)), nil
	}
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Kind == engine.ErrFailureStatus {
		return s.either(0, s.failureStatusValue(ee.ErrorID, ee.Category, ee.Message, ee.Metadata)), nil
	}
	return nil, err
}

// pseudoExceptionMessage is the message of the user-management
// pseudo-exceptions of the library (plain records from 3.3 on, which
// have no message function): the JVM runner's fixed texts.
func (s *session) pseudoExceptionMessage(exc *engine.Any) (string, bool) {
	tc, ok := exc.Type.(*lf.TCon)
	r, ok2 := exc.Value.(*engine.Record)
	if !ok || !ok2 || tc.ID.PackageID != s.ds || tc.ID.Module != "Daml.Script.Internal.Questions.UserManagement" {
		return "", false
	}
	userID := func() (string, bool) {
		u, ok := field(r, "userId").(*engine.Record)
		if !ok || len(u.Fields) != 1 {
			return "", false
		}
		id, ok := u.Fields[0].(engine.Text)
		return string(id), ok
	}
	switch tc.ID.Name {
	case "InvalidUserId":
		m, ok := field(r, "m").(engine.Text)
		return string(m), ok
	case "UserAlreadyExists":
		id, ok := userID()
		return "User already exists: " + id, ok
	case "UserNotFound":
		id, ok := userID()
		return "User not found: " + id, ok
	}
	return "", false
}
