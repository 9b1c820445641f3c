package script

import (
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/tx"
	"github.com/ledgernode/ledgernode/daml/value"
)

// dsID is a type of the script's daml-script package.
func (s *session) dsID(module, name string) lf.TypeConID {
	return lf.TypeConID{PackageID: s.ds, Module: "Daml.Script.Internal." + module, Name: name}
}

// record builds a record of type id; a wrong field count is a runner bug
// and panics (the engine's record types come from the packages).
func (s *session) record(id lf.TypeConID, fields ...engine.Value) *engine.Record {
	r, err := s.eng.NewRecord(id, fields...)
	if err != nil {
		panic(fmt.Sprintf("script: building %s: %v", id, err))
	}
	return r
}

// field returns the field name of a record, or nil when its type has no
// such field. Payloads and answers whose shape changed between daml-script
// library lines are read by field name, never by position: a field was
// added in the middle of Submission (sPrefetchKeys) and renamed in
// AllocateParty (displayName, then requestedName).
func field(r *engine.Record, name string) engine.Value {
	if r == nil || r.Type == nil {
		return nil
	}
	for i, n := range r.Type.Fields {
		if n == name && i < len(r.Fields) {
			return r.Fields[i]
		}
	}
	return nil
}

// recordOf builds a record of type id from its fields by name, in the
// order the library's definition declares them; a field the definition
// has and vals lacks is a runner bug and panics.
func (s *session) recordOf(id lf.TypeConID, vals map[string]engine.Value) *engine.Record {
	dt := s.dataType(id)
	fields := make([]engine.Value, len(dt.Fields))
	for i, f := range dt.Fields {
		v, ok := vals[f.Name]
		if !ok {
			panic(fmt.Sprintf("script: no value for field %s of %s", f.Name, id))
		}
		fields[i] = v
	}
	return s.record(id, fields...)
}

// dataType is the definition of the data type id; an unknown one is a
// runner bug and panics.
func (s *session) dataType(id lf.TypeConID) *lf.DataType {
	p := s.r.pkgs.Package(id.PackageID)
	if p == nil {
		panic(fmt.Sprintf("script: unknown package of %s", id))
	}
	dt := p.DataType(id.Module, id.Name)
	if dt == nil {
		panic(fmt.Sprintf("script: unknown data type %s", id))
	}
	return dt
}

// hasConstructor reports whether the variant id has the constructor con.
func (s *session) hasConstructor(id lf.TypeConID, con string) bool {
	return slices.ContainsFunc(s.dataType(id).Fields, func(f lf.Field) bool { return f.Name == con })
}

// variant builds the constructor con of the variant id.
func (s *session) variant(id lf.TypeConID, con string, v engine.Value) *engine.Variant {
	for i, f := range s.dataType(id).Fields {
		if f.Name == con {
			return &engine.Variant{ID: id, Con: con, Rank: i, Value: v}
		}
	}
	panic(fmt.Sprintf("script: variant %s has no constructor %s", id, con))
}

func (s *session) either(rank int, v engine.Value) engine.Value {
	con := "Left"
	if rank == 1 {
		con = "Right"
	}
	return &engine.Variant{ID: eitherID, Con: con, Rank: rank, Value: v}
}

func (s *session) tuple2(a, b engine.Value) engine.Value { return s.record(tuple2ID, a, b) }

func (s *session) tuple3(a, b, c engine.Value) engine.Value { return s.record(tuple3ID, a, b, c) }

func (s *session) templateTypeRep(id lf.TypeConID) engine.Value {
	return s.record(templateTypeRepID, engine.TypeRep{Type: &lf.TCon{ID: id}})
}

func (s *session) anyTemplate(id lf.TypeConID, arg engine.Value) engine.Value {
	return s.record(anyTemplateID, &engine.Any{Type: &lf.TCon{ID: id}, Value: arg})
}

func (s *session) anyContractID(id lf.TypeConID, cid string) engine.Value {
	return s.record(s.dsID("Questions.Util", "AnyContractId"), s.templateTypeRep(id), engine.ContractID(cid))
}

func some(v engine.Value) engine.Value { return engine.Some(v) }

func list(vs []engine.Value) engine.Value { return engine.ListOf(vs...) }

// fromValue converts a ledger value to the engine's.
func (s *session) fromValue(v value.Value) (engine.Value, error) {
	if v == nil {
		return engine.Unit{}, nil
	}
	return s.eng.FromValue(v)
}

// contractArg returns the argument of c as the engine's value, converted
// once per session: the Amulet suites query the same contracts after
// every step, and the engine's values are immutable.
func (s *session) contractArg(c *engine.Contract) (engine.Value, error) {
	k := argKey{cid: c.ID, tpl: c.TemplateID}
	if v, ok := s.args[k]; ok {
		return v, nil
	}
	v, err := s.fromValue(c.Arg)
	if err != nil {
		return nil, err
	}
	s.keepArg(k, v)
	return v, nil
}

// rememberArg keeps the argument of a contract the script's transaction
// created, as converted for its tree, for the queries that read the
// contract later (contractArg): the ledger stores the transaction's
// value, whose conversion it is.
func (s *session) rememberArg(n *tx.Create, arg engine.Value) {
	s.keepArg(argKey{cid: engine.ContractID(n.ContractID), tpl: n.TemplateID}, arg)
}

// keepArg keeps v as the converted argument k (contractArg).
func (s *session) keepArg(k argKey, v engine.Value) {
	if s.args == nil {
		s.args = make(map[argKey]engine.Value)
	}
	s.args[k] = v
}

// Readers of payload values.

func asText(v engine.Value) (string, error) {
	t, ok := v.(engine.Text)
	if !ok {
		return "", fmt.Errorf("expected Text, got %T", v)
	}
	return string(t), nil
}

func asRecord(v engine.Value, what string) (*engine.Record, error) {
	r, ok := v.(*engine.Record)
	if !ok {
		return nil, fmt.Errorf("%s: expected a record, got %T", what, v)
	}
	return r, nil
}

// parties reads a parties argument (as the JVM runner's
// script/Converter.scala toParties does): a non-empty [Party], or a bare
// Party.
func parties(v engine.Value) ([]string, error) {
	switch x := v.(type) {
	case engine.Party:
		return []string{string(x)}, nil
	case *engine.List:
		var out []string
		for _, e := range x.Slice() {
			p, ok := e.(engine.Party)
			if !ok {
				return nil, fmt.Errorf("expected a Party, got %T", e)
			}
			out = append(out, string(p))
		}
		if len(out) == 0 {
			return nil, runnerErrorf("Expected non-empty SList of parties")
		}
		return out, nil
	}
	return nil, runnerErrorf("Expected non-empty SList of parties, got %T", v)
}

// typeRepID reads a TemplateTypeRep record's type constructor.
func typeRepID(v engine.Value) (lf.TypeConID, error) {
	r, err := asRecord(v, "TemplateTypeRep")
	if err != nil {
		return lf.TypeConID{}, err
	}
	if len(r.Fields) != 1 {
		return lf.TypeConID{}, fmt.Errorf("TemplateTypeRep: %d fields", len(r.Fields))
	}
	tr, ok := r.Fields[0].(engine.TypeRep)
	if !ok {
		return lf.TypeConID{}, fmt.Errorf("TemplateTypeRep: expected a TypeRep, got %T", r.Fields[0])
	}
	c, ok := tr.Type.(*lf.TCon)
	if !ok {
		return lf.TypeConID{}, fmt.Errorf("TemplateTypeRep: expected a type constructor, got %v", tr.Type)
	}
	return c.ID, nil
}

// contractKey reads a contract key argument: the stable library's
// AnyContractKey {getAnyContractKey : Any, …} of every library before
// 3.5's Submit v2, or that library's own AnyContractKey
// {getAnyContractKey : LedgerValue, …}, which holds the bare key value.
func contractKey(v engine.Value) (engine.Value, error) {
	r, err := asRecord(v, "AnyContractKey")
	if err != nil {
		return nil, err
	}
	k := field(r, "getAnyContractKey")
	if k == nil && len(r.Fields) > 0 {
		k = r.Fields[0]
	}
	if a, ok := k.(*engine.Any); ok {
		return a.Value, nil
	}
	if k == nil {
		return nil, fmt.Errorf("AnyContractKey: no key field")
	}
	return k, nil
}

// anyOf reads the Any of an AnyTemplate / AnyChoice / AnyContractKey
// record (field 0): its type constructor and value.
func anyOf(v engine.Value, what string) (lf.TypeConID, engine.Value, error) {
	r, err := asRecord(v, what)
	if err != nil {
		return lf.TypeConID{}, nil, err
	}
	a, ok := r.Fields[0].(*engine.Any)
	if !ok {
		return lf.TypeConID{}, nil, fmt.Errorf("%s: expected an Any, got %T", what, r.Fields[0])
	}
	switch t := a.Type.(type) {
	case *lf.TCon:
		return t.ID, a.Value, nil
	case *lf.TStruct:
		// Legacy AnyChoice: a struct whose first field is the choice type
		// and whose value's first field is the argument.
		if len(t.Fields) > 0 {
			if c, ok := t.Fields[0].Type.(*lf.TCon); ok {
				if sv, ok := a.Value.(*engine.Struct); ok && len(sv.Values) > 0 {
					return c.ID, sv.Values[0], nil
				}
			}
		}
	}
	return lf.TypeConID{}, nil, fmt.Errorf("%s: unsupported Any of type %v", what, a.Type)
}

// toValue converts an engine value to a ledger value.
func toValue(v engine.Value, what string) (value.Value, error) {
	x, err := engine.ToValue(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return x, nil
}
