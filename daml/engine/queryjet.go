package engine

import (
	"slices"

	"github.com/ledgernode/ledgernode/daml/lf"
)

// daml-script's query (Daml.Script.Internal.Questions.Query) gives the
// active contracts of a template, converting each (ContractId Unit,
// AnyTemplate) pair the ledger answers with a Daml lambda:
//
//	query dicts dHasEnsure dIsParties p =
//	  let convert = map (\(cid, tpl) -> (coerceContractId cid, fromSome (fromAnyTemplate dicts.s_3 tpl)))
//	  in convert <$> lift $sc_query_2 $fIsQuestionQueryACS[]
//	       (QueryACS {parties = toParties p, tplId = templateTypeRep dicts.s_1})
//
// (<$> being the Script Functor's $cfmap2). The lambda is the Daml code of
// the Splice Amulet suite's scripts that takes the most machine steps:
// entered for every contract of every query, an eighth of their steps
// (DS_PROF-style count). The jet
// computes the same, in the same order (a record's fields last first, an
// application's argument before its function), with the conversion
// native: it applies the template's fromAnyTemplate method to every
// contract, from the last to the first as map does, and when one gives
// None applies daml-stdlib's fromSome to it for the error it fails with.
const (
	queryModule = "Daml.Script.Internal.Questions.Query"
	queryType   = "forall (t : *). forall (p : *). <s_1 : DA.Internal.Template.Functions:HasTemplateTypeRep t, s_2 : DA.Internal.Template.Functions:HasToAnyTemplate t, s_3 : DA.Internal.Template.Functions:HasFromAnyTemplate t> -> DA.Internal.Template.Functions:HasEnsure t -> DA.Internal.Template.Functions:IsParties p -> p -> Daml.Script.Internal.LowLevel:Script (List (DA.Types:Tuple2 (ContractId t) t))"
	queryBody   = "cfe17084f3f64d878d53d51b9aeee0dfc039db4f2fa488b1c7e946f0b40c2329"
)

func addQueryJet(jets map[[2]string]scriptJet) {
	jets[[2]string{queryModule, "query"}] = scriptJet{typ: queryType, body: queryBody, make: makeQuery}
}

// queryJet is the query jet of a daml-script package: the top-level
// values its body uses, and the types of the records it builds.
type queryJet struct {
	fmap, lift, dIP, isQuestion, templateTypeRep, fromSome topRef
	queryACS, tuple                                        lf.TypeConID
	convert                                                *builtin
}

func makeQuery(p *lf.Package, def *lf.DefValue) (Value, bool) {
	x := &queryJet{}
	refs := map[string]*lf.TypeConID{
		lowLevelModule + ":$$cfmap2":                       &x.fmap.id,
		lowLevelModule + ":lift":                           &x.lift.id,
		queryModule + ":$$$$sc_query_2":                    &x.dIP.id,
		queryModule + ":$$fIsQuestionQueryACS$u005b$u005d": &x.isQuestion.id,
		"DA.Internal.Template.Functions:templateTypeRep":   &x.templateTypeRep.id,
		"DA.Optional:fromSome":                             &x.fromSome.id,
	}
	lf.Inspect(def.Body(), func(n any) bool {
		switch n := n.(type) {
		case *lf.EVal:
			if r, ok := refs[n.Ref.Module+":"+n.Ref.Name]; ok {
				*r = n.Ref
			}
		case *lf.ERecCon:
			switch {
			case n.Type.ID.Module == queryModule && n.Type.ID.Name == "QueryACS":
				x.queryACS = n.Type.ID
			case n.Type.ID.Module == "DA.Types" && n.Type.ID.Name == "Tuple2":
				x.tuple = n.Type.ID
			}
		}
		return true
	})
	for _, r := range refs {
		if r.PackageID == "" {
			return nil, false
		}
	}
	if x.queryACS.PackageID == "" || x.tuple.PackageID == "" {
		return nil, false
	}
	x.convert = &builtin{name: queryModule + ":query.convert", arity: 2, fn: x.runConvert}
	return jetPAP(queryModule+":query", 4, x.run), true
}

// run (dicts, dHasEnsure, dIsParties, p) starts with the last field of
// QueryACS: templateTypeRep dicts.s_1.
func (x *queryJet) run(m *Machine, a []Value) {
	dFrom, ok := structField(m, a[0], "s_3")
	if !ok {
		return
	}
	dRep, ok := structField(m, a[0], "s_1")
	if !ok {
		return
	}
	k := &kQuery{x: x, dFrom: dFrom, dIsParties: a[2], p: a[3]}
	m.push(k)
	m.push(&kApplyTo{args: []Value{dRep}})
	x.templateTypeRep.eval(m)
}

// kQuery is the rest of a query: the steps after the template's type
// representation (tplId), one per resume.
type kQuery struct {
	x                   *queryJet
	dFrom, dIsParties   Value
	p                   Value
	step                int
	tplId, acs          Value
	dIP, isQuestion, sc Value
}

func (k *kQuery) resume(m *Machine, v Value) {
	x := k.x
	k.step++
	switch k.step {
	case 1: // tplId: then parties = dIsParties.m_toParties () p
		k.tplId = v
		toParties, ok := structField(m, k.dIsParties, "m_toParties")
		if !ok {
			return
		}
		m.push(k)
		m.apply(toParties, []Value{Unit{}, k.p})
	case 2: // parties: the record, then lift's function
		rt, err := m.e.recordType(x.queryACS)
		if err != nil {
			m.fail(err)
			return
		}
		r := newRecord(rt)
		for i, f := range rt.Fields {
			switch f {
			case "parties":
				r.Fields[i] = v
			case "tplId":
				r.Fields[i] = k.tplId
			default:
				m.fail(crash("query: QueryACS has a field %s", f))
				return
			}
		}
		k.acs = r
		m.push(k)
		x.isQuestion.eval(m)
	case 3:
		k.isQuestion = v
		m.push(k)
		x.dIP.eval(m)
	case 4:
		k.dIP = v
		m.push(k)
		x.lift.eval(m)
	case 5: // lift dIP isQuestion acs
		m.push(k)
		m.apply(v, []Value{k.dIP, k.isQuestion, k.acs})
	case 6: // the script: then <$>'s function
		k.sc = v
		m.push(k)
		x.fmap.eval(m)
	case 7: // convert <$> script
		m.apply(v, []Value{pap1(x.convert, k.dFrom, 2), k.sc})
	default:
		m.fail(crash("query: step %d", k.step))
	}
}

// runConvert (dFrom, xs) converts the pairs of xs from the last to the
// first, as map does.
func (x *queryJet) runConvert(m *Machine, a []Value) {
	xs, ok := asList(m, "query", a[1])
	if !ok {
		return
	}
	if xs == nil {
		m.ret(xs)
		return
	}
	method, ok := structField(m, a[0], "m__fromAnyTemplate")
	if !ok {
		return
	}
	rt, err := m.e.recordType(x.tuple)
	if err != nil {
		m.fail(err)
		return
	}
	i1, i2 := slices.Index(rt.Fields, "_1"), slices.Index(rt.Fields, "_2")
	if i1 < 0 || i2 < 0 || len(rt.Fields) != 2 {
		m.fail(crash("query: %s is not a pair", x.tuple))
		return
	}
	vs := xs.Slice()
	k := &kConvert{x: x, method: method, xs: vs, cells: newCells(len(vs), nil), rt: rt, i1: i1, i2: i2}
	k.next(m)
}

// kConvert is the conversion's frame, as kMap: xs are the pairs still to
// convert, cells the converted ones from cells[len(xs)] on; cid is the
// contract id of the pair being converted.
type kConvert struct {
	x      *queryJet
	method Value
	xs     []Value
	cells  []List
	cid    Value
	rt     *RecordType
	i1, i2 int
	none   bool
	// args is the argument list of a call of method, as kMap's.
	args [2]Value
}

func (k *kConvert) next(m *Machine) {
	pair, ok := k.xs[len(k.xs)-1].(*Record)
	if !ok || len(pair.Fields) != 2 {
		m.fail(crash("query: a contract of %T", k.xs[len(k.xs)-1]))
		return
	}
	popLast(&k.xs)
	// The pair's fields by the index of the tuple type's.
	k.cid = pair.Fields[k.i1]
	tpl, ok := pair.Fields[k.i2].(*Record)
	if !ok || len(tpl.Fields) != 1 {
		m.fail(crash("query: a template of %T", pair.Fields[k.i2]))
		return
	}
	m.push(k)
	k.args = [2]Value{Unit{}, tpl.Fields[0]}
	m.apply(k.method, k.args[:])
	k.args = [2]Value{}
}

func (k *kConvert) resume(m *Machine, v Value) {
	if k.none { // fromSome None returned: it cannot
		m.fail(crash("query: fromSome None gave a value"))
		return
	}
	o, ok := v.(Optional)
	if !ok {
		m.fail(crash("query: fromAnyTemplate gave %T", v))
		return
	}
	if o.Value == nil {
		// fromSome None: the Daml definition's error.
		k.none = true
		m.push(k)
		m.push(&kApplyTo{args: []Value{o}})
		k.x.fromSome.eval(m)
		return
	}
	r := newRecord(k.rt)
	r.Fields[k.i1], r.Fields[k.i2] = k.cid, o.Value
	k.cells[len(k.xs)].Head = r
	if len(k.xs) == 0 {
		m.ret(&k.cells[0])
		return
	}
	k.next(m)
}
