package lf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	e "github.com/ledgernode/ledgernode/daml/lf/internal/lfenc"
	"google.golang.org/protobuf/encoding/protowire"
)

const testPkgID = "1111111111111111111111111111111111111111111111111111111111111111"

// testDecoder returns a decoder of LF version lf with small tables:
// strings x, y, M, T, 1.50, hello, C, "bad name"; dotted names M, T; the
// interned type 0 = Int64; and the given interned expressions.
func testDecoder(t testing.TB, lf LFVersion, exprs ...[]byte) *decoder {
	t.Helper()
	d := newDecoder(testPkgID, lf)
	d.strs = []string{"x", "y", "M", "T", "1.50", "hello", "C", "bad name", "1x"}
	d.dnames = []string{"M", "T"}
	d.types = []Type{&TBuiltin{Builtin: BuiltinInt64}}
	d.typeSizes = []int{1}
	if err := d.internExprs(exprs); err != nil {
		t.Fatalf("interned expressions: %v", err)
	}
	return d
}

// Raw messages for the tests.
var (
	xVar   = e.Msg(2, 0)                                                // var x
	yVar   = e.Msg(2, 1)                                                // var y
	int64T = e.Msg(8, 0)                                                // interned type 0
	tcID   = e.Msg(1, e.Msg(1, e.Msg(1, []byte{}), 2, 0), 2, 1)         // self:M:T
	tyCon  = e.Msg(1, tcID)                                             // Type.Con{tycon}
	unitE  = e.Msg(5, 0)                                                // ()
	one    = e.Msg(6, e.Msg(1, 2))                                      // 1 (zig-zag 2)
	vwt    = func(name int) []byte { return e.Msg(3, name, 2, int64T) } // VarWithType
)

func timestampLit(us int64) []byte {
	b := protowire.AppendTag(nil, 2, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, uint64(us))
}

func upd(kv ...any) []byte { return e.Msg(23, e.Msg(kv...)) }

func TestDecodeExprCases(t *testing.T) {
	id := TypeConID{testPkgID, "M", "T"}
	i64 := &TBuiltin{Builtin: BuiltinInt64}
	x, y := &EVar{Name: "x"}, &EVar{Name: "y"}
	unit := &EBuiltinCon{Con: ConUnit}
	tests := []struct {
		name string
		lf   LFVersion
		b    []byte
		want Expr
	}{
		{"var", LF21, xVar, x},
		{"val", LF21, e.Msg(3, tcID), &EVal{Ref: id}},
		{"builtin", LF21, e.Msg(4, 7), &EBuiltinFun{Fun: BuiltinAddInt64}},
		{"builtin 2.3", LF23, e.Msg(4, 73), &EBuiltinFun{Fun: BuiltinSecp256k1ValidateKey}},
		{"builtin_con", LF21, e.Msg(5, 2), &EBuiltinCon{Con: ConTrue}},
		{"location is dropped", LF21, e.Msg(1, e.Msg(2, e.Msg(1, 3)), 2, 0), x},
		{"int64", LF21, e.Msg(6, e.Msg(1, 5)), &EInt64{Value: -3}},
		{"numeric", LF21, e.Msg(6, e.Msg(3, 4)), &ENumeric{Text: "1.50", Scale: 2}},
		{"text", LF21, e.Msg(6, e.Msg(4, 5)), &EText{Value: "hello"}},
		{"timestamp", LF21, e.Msg(6, timestampLit(-1)), &ETimestamp{Micros: -1}},
		{"date", LF21, e.Msg(6, e.Msg(5, 19000)), &EDate{Days: 19000}},
		{"failure category", LF21, e.Msg(6, e.Msg(6, 1)), &EFailureCategory{Category: InvalidGivenCurrentSystemStateOther}},
		{"rec_con", LF21, e.Msg(7, e.Msg(1, tyCon, 2, e.Msg(3, 0, 2, one))),
			&ERecCon{Type: TypeConApp{ID: id}, Fields: []FieldExpr{{"x", &EInt64{Value: 1}}}}},
		{"rec_con with type args", LF21, e.Msg(7, e.Msg(1, e.Msg(1, tcID, 2, int64T))),
			&ERecCon{Type: TypeConApp{ID: id, Args: []Type{i64}}}},
		{"rec_proj", LF21, e.Msg(8, e.Msg(1, tyCon, 4, 1, 3, xVar)), &ERecProj{Type: TypeConApp{ID: id}, Field: "y", Record: x}},
		{"rec_upd", LF21, e.Msg(9, e.Msg(1, tyCon, 2, 1, 3, xVar, 4, yVar)), &ERecUpd{Type: TypeConApp{ID: id}, Field: "y", Record: x, Update: y}},
		{"variant_con", LF21, e.Msg(10, e.Msg(1, tyCon, 2, 6, 3, xVar)), &EVariantCon{Type: TypeConApp{ID: id}, Con: "C", Arg: x}},
		{"enum_con", LF21, e.Msg(11, e.Msg(1, tcID, 2, 6)), &EEnumCon{ID: id, Con: "C"}},
		{"struct_con", LF21, e.Msg(12, e.Msg(1, e.Msg(3, 1, 2, xVar))), &EStructCon{Fields: []FieldExpr{{"y", x}}}},
		{"struct_proj", LF21, e.Msg(13, e.Msg(1, 0, 2, yVar)), &EStructProj{Field: "x", Struct: y}},
		{"struct_upd", LF21, e.Msg(14, e.Msg(1, 0, 2, yVar, 3, xVar)), &EStructUpd{Field: "x", Struct: y, Update: x}},
		{"app, two args (2.1)", LF21, e.Msg(15, e.Msg(1, xVar, 2, yVar, 2, unitE)), &EApp{Fun: x, Args: []Expr{y, unit}}},
		{"ty_app", LF22, e.Msg(16, e.Msg(1, xVar, 2, int64T)), &ETyApp{Expr: x, Types: []Type{i64}}},
		{"abs", LF21, e.Msg(17, e.Msg(1, vwt(0), 1, vwt(1), 2, xVar)),
			&EAbs{Params: []VarWithType{{"x", i64}, {"y", i64}}, Body: x}},
		{"ty_abs", LF21, e.Msg(18, e.Msg(1, e.Msg(3, 0, 2, e.Msg(1, []byte{})), 2, unitE)),
			&ETyAbs{Params: []TypeParam{{"x", &Kind{Sort: KindStar}}}, Body: unit}},
		{"case", LF21, e.Msg(19, e.Msg(1, xVar,
			2, e.Msg(1, unitE, 3, e.Msg(1, tcID, 2, 6, 3, 1)),
			2, e.Msg(1, unitE, 9, e.Msg(1, tcID, 2, 6)),
			2, e.Msg(1, unitE, 4, 1),
			2, e.Msg(1, unitE, 5, []byte{}),
			2, e.Msg(1, yVar, 6, e.Msg(1, 0, 2, 1)),
			2, e.Msg(1, unitE, 7, []byte{}),
			2, e.Msg(1, unitE, 8, e.Msg(1, 1)),
			2, e.Msg(1, unitE, 2, []byte{}))),
			&ECase{Scrut: x, Alts: []CaseAlt{
				{&PVariant{ID: id, Con: "C", Binder: "y"}, unit},
				{&PEnum{ID: id, Con: "C"}, unit},
				{&PBuiltinCon{Con: ConFalse}, unit},
				{&PNil{}, unit},
				{&PCons{Head: "x", Tail: "y"}, y},
				{&POptionalNone{}, unit},
				{&POptionalSome{Binder: "y"}, unit},
				{&PDefault{}, unit},
			}}},
		{"let", LF21, e.Msg(20, e.Msg(1, e.Msg(1, vwt(0), 2, one), 2, xVar)),
			&ELet{Bindings: []Binding{{VarWithType{"x", i64}, &EInt64{Value: 1}}}, Body: x}},
		{"nil", LF21, e.Msg(21, e.Msg(1, int64T)), &ENil{Type: i64}},
		{"cons", LF21, e.Msg(22, e.Msg(1, int64T, 2, xVar, 2, yVar, 3, e.Msg(21, e.Msg(1, int64T)))),
			&ECons{Type: i64, Front: []Expr{x, y}, Tail: &ENil{Type: i64}}},
		{"optional_none", LF21, e.Msg(25, e.Msg(1, int64T)), &EOptionalNone{Type: i64}},
		{"optional_some", LF21, e.Msg(26, e.Msg(1, int64T, 2, xVar)), &EOptionalSome{Type: i64, Value: x}},
		{"to_any", LF21, e.Msg(27, e.Msg(1, int64T, 2, xVar)), &EToAny{Type: i64, Expr: x}},
		{"from_any", LF21, e.Msg(28, e.Msg(1, int64T, 2, xVar)), &EFromAny{Type: i64, Expr: x}},
		{"type_rep", LF21, e.Msg(29, int64T), &ETypeRep{Type: i64}},
		{"to_any_exception", LF21, e.Msg(30, e.Msg(1, int64T, 2, xVar)), &EToAnyException{Type: i64, Expr: x}},
		{"from_any_exception", LF21, e.Msg(31, e.Msg(1, int64T, 2, xVar)), &EFromAnyException{Type: i64, Expr: x}},
		{"throw", LF21, e.Msg(32, e.Msg(1, int64T, 2, int64T, 3, xVar)), &EThrow{ReturnType: i64, ExceptionType: i64, Exception: x}},
		{"to_interface", LF21, e.Msg(33, e.Msg(1, tcID, 2, tcID, 3, xVar)), &EToInterface{Interface: id, Template: id, Expr: x}},
		{"from_interface", LF21, e.Msg(34, e.Msg(1, tcID, 2, tcID, 3, xVar)), &EFromInterface{Interface: id, Template: id, Expr: x}},
		{"call_interface", LF21, e.Msg(35, e.Msg(1, tcID, 2, 6, 3, xVar)), &ECallInterface{Interface: id, Method: "C", Expr: x}},
		{"signatory_interface", LF21, e.Msg(36, e.Msg(1, tcID, 2, xVar)), &ESignatoryInterface{Interface: id, Expr: x}},
		{"observer_interface", LF21, e.Msg(37, e.Msg(1, tcID, 2, xVar)), &EObserverInterface{Interface: id, Expr: x}},
		{"view_interface", LF21, e.Msg(38, e.Msg(1, tcID, 2, xVar)), &EViewInterface{Interface: id, Expr: x}},
		{"unsafe_from_interface (2.1)", LF21, e.Msg(39, e.Msg(1, tcID, 2, tcID, 3, yVar, 4, xVar)),
			&EUnsafeFromInterface{Interface: id, Template: id, ContractID: y, Expr: x}},
		{"interface_template_type_rep", LF21, e.Msg(40, e.Msg(1, tcID, 2, xVar)), &EInterfaceTemplateTypeRep{Interface: id, Expr: x}},
		{"to_required_interface", LF21, e.Msg(41, e.Msg(1, tcID, 2, tcID, 3, xVar)), &EToRequiredInterface{Required: id, Requiring: id, Expr: x}},
		{"from_required_interface", LF21, e.Msg(42, e.Msg(1, tcID, 2, tcID, 3, xVar)), &EFromRequiredInterface{Required: id, Requiring: id, Expr: x}},
		{"unsafe_from_required_interface", LF21, e.Msg(43, e.Msg(1, tcID, 2, tcID, 3, yVar, 4, xVar)),
			&EUnsafeFromRequiredInterface{Required: id, Requiring: id, ContractID: y, Expr: x}},
		{"interned_expr", LF22, e.Msg(44, 1), &EOptionalSome{Type: i64, Value: x}},
		{"experimental (dev)", LF2Dev, e.Msg(9999, e.Msg(1, "ANSWER", 2, int64T)), &EExperimental{Name: "ANSWER", Type: i64}},
		{"rounding mode (dev)", LF2Dev, e.Msg(6, e.Msg(1001, 6)), &ERoundingMode{Mode: RoundingHalfEven}},

		{"pure", LF21, upd(1, e.Msg(1, int64T, 2, xVar)), &EUpdate{&UPure{Type: i64, Expr: x}}},
		{"block", LF21, upd(2, e.Msg(1, e.Msg(1, vwt(0), 2, yVar), 2, xVar)),
			&EUpdate{&UBlock{Bindings: []Binding{{VarWithType{"x", i64}, y}}, Body: x}}},
		{"create", LF21, upd(3, e.Msg(1, tcID, 2, xVar)), &EUpdate{&UCreate{Template: id, Expr: x}}},
		{"exercise", LF21, upd(4, e.Msg(1, tcID, 6, 6, 3, xVar, 5, yVar)), &EUpdate{&UExercise{Template: id, Choice: "C", ContractID: x, Arg: y}}},
		{"fetch", LF21, upd(5, e.Msg(1, tcID, 2, xVar)), &EUpdate{&UFetch{Template: id, ContractID: x}}},
		{"get_time", LF21, upd(6, []byte{}), &EUpdate{&UGetTime{}}},
		{"embed_expr", LF21, upd(7, e.Msg(1, int64T, 2, xVar)), &EUpdate{&UEmbedExpr{Type: i64, Expr: x}}},
		{"lookup_by_key (dev)", LF2Dev, upd(8, e.Msg(1, tcID)), &EUpdate{&ULookupByKey{Template: id}}},
		{"fetch_by_key (2.3)", LF23, upd(9, e.Msg(1, tcID)), &EUpdate{&UFetchByKey{Template: id}}},
		{"exercise_by_key (2.3)", LF23, upd(10, e.Msg(1, tcID, 2, 6, 3, xVar, 4, yVar)), &EUpdate{&UExerciseByKey{Template: id, Choice: "C", Key: x, Arg: y}}},
		{"try_catch", LF21, upd(11, e.Msg(1, int64T, 2, xVar, 3, 1, 4, yVar)), &EUpdate{&UTryCatch{ReturnType: i64, Try: x, Var: "y", Catch: y}}},
		{"create_interface", LF21, upd(12, e.Msg(1, tcID, 2, xVar)), &EUpdate{&UCreateInterface{Interface: id, Expr: x}}},
		{"exercise_interface", LF21, upd(13, e.Msg(1, tcID, 2, 6, 3, xVar, 4, yVar)), &EUpdate{&UExerciseInterface{Interface: id, Choice: "C", ContractID: x, Arg: y}}},
		{"exercise_interface guard (dev)", LF2Dev, upd(13, e.Msg(1, tcID, 2, 6, 3, xVar, 4, yVar, 5, unitE)),
			&EUpdate{&UExerciseInterface{Interface: id, Choice: "C", ContractID: x, Arg: y, Guard: unit}}},
		{"fetch_interface", LF21, upd(14, e.Msg(1, tcID, 2, xVar)), &EUpdate{&UFetchInterface{Interface: id, ContractID: x}}},
		{"ledger_time_lt", LF21, upd(15, xVar), &EUpdate{&ULedgerTimeLT{Expr: x}}},
		{"query_n_by_key (2.3)", LF23, upd(16, e.Msg(1, tcID)), &EUpdate{&UQueryNByKey{Template: id}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var interned [][]byte
			if tt.lf.atLeast(LF22) {
				interned = [][]byte{xVar, e.Msg(26, e.Msg(1, int64T, 2, e.Msg(44, 0)))}
			}
			d := testDecoder(t, tt.lf, interned...)
			got, err := d.expr(tt.b, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeExprErrors(t *testing.T) {
	deep := xVar
	for range maxExprDepth + 5 {
		deep = e.Msg(26, e.Msg(1, int64T, 2, deep))
	}
	tests := []struct {
		name string
		lf   LFVersion
		b    []byte
		want string
	}{
		{"empty", LF21, nil, "Expr.SUM_NOT_SET"},
		{"unknown case", LF21, e.Msg(24, []byte{}), "unknown field 24"},
		{"choice_controller", LF2Dev, e.Msg(1001, []byte{}), "choice_controller is not supported"},
		{"var with wire type bytes", LF21, e.Msg(2, "x"), "wire type"},
		{"var not a name", LF21, e.Msg(2, 7), `invalid name "bad name"`},
		{"string index out of range", LF21, e.Msg(2, 99), "invalid internedString table index 99"},
		{"unknown builtin", LF21, e.Msg(4, 999), "BuiltinFunction.UNRECOGNIZED (999)"},
		{"2.3 builtin in 2.1", LF21, e.Msg(4, 73), "not supported by Daml-LF 2.1"},
		{"dev builtin in 2.2", LF22, e.Msg(4, 2001), "not supported by Daml-LF 2.2"},
		{"bad builtin_con", LF21, e.Msg(5, 3), "BuiltinCon.UNRECOGNIZED"},
		{"lit not set", LF21, e.Msg(6, []byte{}), "BuiltinLit.SUM_NOT_SET"},
		{"bad numeric", LF21, e.Msg(6, e.Msg(3, 8)), `invalid numeric literal "1x"`},
		{"date out of range", LF21, e.Msg(6, e.Msg(5, 9999999)), "date literal 9999999 out of range"},
		{"timestamp out of range", LF21, e.Msg(6, timestampLit(maxTimestamp+1)), "timestamp literal 253402300800000000 out of range"},
		{"timestamp as varint", LF21, e.Msg(6, e.Msg(2, 1)), "wire type"},
		{"rec_proj as varint", LF21, e.Msg(8, 1), "Expr.rec_proj field 8 has wire type 0"},
		{"abs param as varint", LF21, e.Msg(17, e.Msg(1, 1, 2, xVar)), "Expr.Abs field 1 has wire type 0"},
		{"rounding mode in 2.1", LF21, e.Msg(6, e.Msg(1001, 1)), "rounding_mode literals are not supported"},
		{"empty app args", LF21, e.Msg(15, e.Msg(1, xVar)), "Unexpected empty Expr.App.args"},
		{"app without fun", LF21, e.Msg(15, e.Msg(2, xVar)), "Expr.SUM_NOT_SET"},
		{"two lambda params in 2.2", LF22, e.Msg(17, e.Msg(1, vwt(0), 1, vwt(1), 2, xVar)), "exactly one"},
		{"empty cons front", LF21, e.Msg(22, e.Msg(1, int64T, 3, xVar)), "Unexpected empty Expr.Cons.front"},
		{"empty let", LF21, e.Msg(20, e.Msg(2, xVar)), "Unexpected empty Expr.Block.bindings"},
		{"case alt without pattern", LF21, e.Msg(19, e.Msg(1, xVar, 2, e.Msg(1, xVar))), "CaseAlt.SUM_NOT_SET"},
		{"type not interned", LF21, e.Msg(21, e.Msg(1, e.Msg(3, e.Msg(1, 2)))), "BUILTIN is not supported outside type interning table"},
		{"unknown field in message", LF21, e.Msg(13, e.Msg(1, 0, 2, yVar, 5, 1)), "Expr.StructProj has unknown field 5"},
		{"update not set", LF21, e.Msg(23, []byte{}), "Update.SUM_NOT_SET"},
		{"unsafe_from_interface in 2.2", LF22, e.Msg(39, e.Msg(1, tcID, 2, tcID, 3, yVar, 4, xVar)), "unsafe_from_interface is not supported by Daml-LF 2.2"},
		{"exercise_by_key in 2.2", LF22, upd(10, e.Msg(1, tcID)), "exercise_by_key is not supported by Daml-LF 2.2"},
		{"fetch_by_key in 2.1", LF21, upd(9, e.Msg(1, tcID)), "fetch_by_key is not supported by Daml-LF 2.1"},
		{"lookup_by_key in 2.3", LF23, upd(8, e.Msg(1, tcID)), "lookup_by_key is not supported by Daml-LF 2.3"},
		{"guard in 2.1", LF21, upd(13, e.Msg(1, tcID, 2, 6, 3, xVar, 4, yVar, 5, unitE)), "guards are not supported"},
		{"experimental in 2.1", LF21, e.Msg(9999, e.Msg(1, "ANSWER", 2, int64T)), "experimental is not supported"},
		{"interned_expr in 2.1", LF21, e.Msg(44, 0), "interned expressions are not supported by Daml-LF 2.1"},
		{"interned_expr out of range", LF22, e.Msg(44, 7), "invalid internedExprs table index 7"},
		{"truncated", LF21, e.Msg(2, 0)[:1], "malformed protobuf"},
		{"nested too deeply", LF21, deep, "nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := testDecoder(t, tt.lf)
			got, err := d.expr(tt.b, 0)
			if err == nil {
				t.Fatalf("decoded %s, want an error with %q", FormatExpr(got, 5), tt.want)
			}
			if _, ok := err.(*parseError); !ok {
				t.Errorf("error %T, want *parseError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestInternedExprTable(t *testing.T) {
	d := newDecoder(testPkgID, LF22)
	d.strs = []string{"x"}
	d.types = []Type{&TBuiltin{Builtin: BuiltinInt64}}
	d.typeSizes = []int{1}
	for _, tt := range []struct {
		name  string
		table [][]byte
		want  string
	}{
		{"forward reference", [][]byte{e.Msg(26, e.Msg(1, int64T, 2, e.Msg(44, 1))), xVar}, "interned expression 0: invalid internedExprs table index 1"},
		{"self reference", [][]byte{e.Msg(26, e.Msg(1, int64T, 2, e.Msg(44, 0)))}, "invalid internedExprs table index 0"},
		{"immediate", [][]byte{xVar, e.Msg(44, 0)}, "Immediate InternedExpr in interning table (entry 1)"},
		{"deep chain", chain(maxExprTreeDepth/10 + 5), "nested too deeply through interned expressions"},
	} {
		err := d.internExprs(tt.table)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// chain returns an interned-expression table whose entry i is
// Some(Some(...(Some entry i-1))), ten levels deep: each entry is shallow,
// the chain is not.
func chain(n int) [][]byte {
	table := [][]byte{xVar}
	for i := 1; i < n; i++ {
		x := e.Msg(44, i-1)
		for range 10 {
			x = e.Msg(26, e.Msg(1, int64T, 2, x))
		}
		table = append(table, x)
	}
	return table
}

// An interned expression shared by reference is decoded once.
func TestInternedExprShared(t *testing.T) {
	d := testDecoder(t, LF22, e.Msg(26, e.Msg(1, int64T, 2, xVar)))
	got, err := d.expr(e.Msg(15, e.Msg(1, e.Msg(44, 0), 2, e.Msg(44, 0))), 0)
	if err != nil {
		t.Fatal(err)
	}
	app := got.(*EApp)
	if app.Fun != app.Args[0] || app.Fun != d.exprs[0] {
		t.Error("interned expression decoded twice")
	}
}

// Decoding errors in module-level expressions name the definition.
func TestDecodeExprErrorPath(t *testing.T) {
	p := simplePkg("app", "1.0.0")
	p.Modules[0].Values = []e.Value{{Name: "v", Type: e.B(e.Int64), RawBody: e.Msg(15, e.Msg(1, e.Msg(5, 0)))}}
	_, dalf := e.Dalf(p)
	_, err := DecodeArchive(dalf, ReadOptions{})
	if code(err) != "DAR_PARSE_ERROR" || !strings.Contains(err.Error(), "module Main: value v: Unexpected empty Expr.App.args") {
		t.Errorf("got %v, want DAR_PARSE_ERROR naming module Main, value v", err)
	}
	p.Modules[0].Values[0].RawBody = e.Msg(5, 1)
	_, dalf = e.Dalf(p)
	pkg, err := DecodeArchive(dalf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v := pkg.Module("Main").Value("v")
	if v == nil || FormatExpr(v.Body(), 3) != "False" || v.Type.String() != "Int64" {
		t.Errorf("value v = %+v", v)
	}
}
