package value

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/internal/jsontext"
)

// Limits that CheckValue applies to hostile input.
const (
	// maxValueDepth is the deepest JSON nesting accepted (arrays and
	// objects).
	maxValueDepth = 1000
	// maxValueBytes is the largest JSON value accepted, in bytes.
	maxValueBytes = 32 << 20
	// maxCanonicalBytes is the largest canonical output produced, in bytes
	// (a Numeric 37 written as the JSON number 0 grows twentyfold).
	maxCanonicalBytes = 64 << 20
	// maxCheckDepth bounds the recursion of the checker, which may visit
	// one JSON value several times (Optional wrappers, type variables).
	maxCheckDepth = 10 * maxValueDepth
	// maxTypeSteps bounds the expansion of type variables and synonyms at
	// the head of one type (a cyclic synonym would loop forever).
	maxTypeSteps = 10000
)

// TypeOf returns the type of the data type module:name of package pkgID
// applied to args, one per type parameter of the data type (none for the
// payload record of a template, which has no parameters):
//
//	value.TypeOf(pkgID, "Main", "Iou")
//	value.TypeOf(pkgID, "DA.Types", "Tuple2", intType, textType)
//
// The result is what CheckValue expects for a create argument. Choice
// arguments and results, keys and interface views already have a Type in
// the decoded package (Choice.ArgType, Choice.ReturnType,
// TemplateKey.Type, Interface.View).
func TypeOf(pkgID, module, name string, args ...lf.Type) lf.Type {
	var t lf.Type = &lf.TCon{ID: lf.TypeConID{PackageID: pkgID, Module: module, Name: name}}
	for _, a := range args {
		t = &lf.TApp{Fun: t, Arg: a}
	}
	return t
}

// PackageLookup returns a lookup function over pkgs, by package id, for
// CheckValue. Later packages win over earlier ones with the same id; nil
// packages are skipped.
func PackageLookup(pkgs ...*lf.Package) func(pkgID string) *lf.Package {
	m := make(map[string]*lf.Package, len(pkgs))
	for _, p := range pkgs {
		if p != nil {
			m[p.ID] = p
		}
	}
	return func(id string) *lf.Package { return m[id] }
}

// CheckValue validates the JSON value v against the Daml-LF type t the way
// Canton 3.5's JSON Ledger API, Ledger API value validation
// (ValueValidator) and Daml engine preprocessing (ValueTranslator) together
// do for a command argument, and returns the value's canonical encoding:
// what Canton prints back for it. Data types named by t are resolved
// through lookup (package id to decoded package; see PackageLookup), type
// variables are bound from the arguments of each data type, and type
// synonyms are expanded.
//
// The canonical encoding is compact JSON with:
//   - Unit as {} (any JSON is accepted for Unit and ignored);
//   - Int64 as a decimal string ("42");
//   - Numeric n as a string with exactly n decimals, and a trailing "."
//     for n = 0 ("1.5000000000", "42.");
//   - Timestamp in UTC with a Z, seconds always shown, and a fraction of
//     at most 6 digits with trailing zeros removed (input may carry an
//     offset or [zone] and up to 9 fraction digits; sub-microsecond digits
//     are truncated);
//   - Date as YYYY-MM-DD; Text, Party and ContractId as strings;
//   - Optional as null or the plain value, except where t writes an
//     Optional literally inside an Optional: then each level is a 0- or
//     1-element array ([] None, [[]] Some None, [[x]] Some (Some x)). The
//     nesting is decided on the types as written, before type variables
//     are substituted, so Optional a with a = Optional Int64 uses the null
//     rule at both levels (Some None prints as null);
//   - List as an array; TextMap as an object with sorted keys; GenMap as
//     an array of [key, value] pairs sorted by Daml-LF value order, the
//     last of duplicated keys winning;
//   - records as objects in declaration order, with the trailing fields
//     whose value prints as null omitted (other Nones print as null);
//     variants as {"tag":"Con","value":…}; enums as the constructor name.
//
// Record input follows the upgrade rules: a missing Optional field is
// None, an unknown field whose value is null is ignored, an unknown field
// with another value is rejected. As in Canton's codec, a field whose type
// is a nested Optional as written must be present (as an array), and it
// is never omitted from the output.
//
// Every error is an *Error whose Error() text ends with the JSON path of
// the fault, " at '<path>'". path is the prefix naming v (for example
// "createArguments"; "" stands for "$"); below it fields are ".name", list
// and array elements "[3]", TextMap entries ".key" or ["key"], and a
// variant's value ".tag(Con)". The kinds follow Canton's codes:
//   - KindInvalid (INVALID_ARGUMENT): an unknown non-null record field
//     ("Unexpected fields: …"), a variant that is not {"tag","value"} or
//     has an unknown tag, an Int64 string that is not a 64-bit integer, a
//     malformed Numeric string ("Could not read Numeric string …"), an
//     invalid party or contract id, a date or timestamp out of range, a
//     duplicated TextMap key;
//   - KindPreprocessing (COMMAND_PREPROCESSING_FAILED): a missing
//     non-optional record field, a Numeric with more decimals than its
//     scale or out of its bounds, a local or relative contract id.
//
// Where Canton's JSON codec fails with a generic exception and answers
// 500 LEDGER_API_INTERNAL_ERROR, CheckValue deliberately returns
// KindInvalid (400) with a message saying what was expected: a JSON value
// of the wrong kind (a number for Int64 or Text, a non-object record, a
// non-array list), null for a non-optional type, an unknown enum
// constructor, a malformed date or timestamp string, a GenMap entry that
// is not a [key, value] array. It also rejects, with KindInvalid, input
// that Canton's parser would read in a parser-dependent way: malformed
// JSON, invalid UTF-8, unpaired surrogate escapes, and duplicate keys in a
// record or TextMap object or duplicate "tag"/"value" keys in a variant.
// Int64 and Numeric digits must be ASCII. Zone names in timestamps
// ("[Europe/Paris]") are checked for syntax only; the offset before them
// fixes the instant.
//
// Hostile input is bounded: v may be at most 32 MiB and nest at most 1000
// levels, the canonical output at most 64 MiB, and the work spent on
// sorting GenMap keys is proportional to the input size; beyond these
// limits the error is KindInvalid. A type that has no JSON encoding (a
// function, Any, an unknown package or data type, an unbound type
// variable) is a fault of the caller, not of the value: the error is
// KindType (LEDGER_API_INTERNAL_ERROR).
func CheckValue(v json.RawMessage, t lf.Type, path string, lookup func(pkgID string) *lf.Package) (json.RawMessage, error) {
	c, root, err := newChecker(v, t, path, lookup)
	if err != nil {
		return nil, err
	}
	c.out = make([]byte, 0, len(v)+len(v)/4+16)
	if err := c.check(0, t, nil, root, 0); err != nil {
		return nil, err
	}
	return json.RawMessage(c.out), nil
}

// newChecker checks the size and syntax of v and that there is a type
// (the errors of CheckValue before it looks at the type), and returns a
// printing checker of v with the path of v (path, or "$").
func newChecker(v []byte, t lf.Type, path string, lookup func(pkgID string) *lf.Package) (*checker, *vpath, error) {
	if path == "" {
		path = "$"
	}
	pc, _ := checkers.Get().(*pooledChecker)
	if pc == nil {
		pc = new(pooledChecker)
	}
	// The checker is zero (new, or cleared by putChecker): its members
	// are set one by one (assigning a whole literal would build it aside
	// and copy it); the buffers are not cleared, only written before
	// they are read.
	c := &pc.c
	c.lookup, c.budget, c.root = lookup, 1<<20+64*len(v), vpath{name: path}
	c.pooled, c.parties, c.paths = pc, &pc.parties, pc.pathsBuf[:]
	if len(v) > maxValueBytes {
		return nil, nil, newError(KindInvalid, &c.root, "the JSON value has %d bytes, more than the limit of %d", len(v), maxValueBytes)
	}
	if pc.toks == nil {
		pc.toks = pc.toksBuf[:0]
	}
	if serr := tokenizeInto(v, &c.tape, pc.toks); serr != nil {
		return nil, nil, newError(KindInvalid, &c.root, "malformed JSON: %s (byte %d)", serr.msg, serr.off)
	}
	if n := cap(c.tape.toks); n > cap(pc.toks) && n <= maxPooledTokens {
		pc.toks = c.tape.toks[:0] // grown for v: kept for the next values
	}
	if t == nil {
		return nil, nil, newError(KindType, &c.root, "no type to check the value against")
	}
	c.tp = &c.tape
	return c, &c.root, nil
}

// checkers are the pooledCheckers of finished FromJSONAt calls
// (putChecker), for newChecker.
var checkers sync.Pool

// pooledChecker is a checker newChecker made, with its first slab of
// paths, room for the tokens of a small value, and the parties it found
// valid, which stay for the next value.
type pooledChecker struct {
	c        checker
	pathsBuf [2]vpath
	// toks is the room for a value's tokens: toksBuf's, or the larger
	// array an earlier value grew it to (up to maxPooledTokens).
	toks    []tok
	toksBuf [16]tok
	parties knownParties
	// lastDT is the data type the id lastID (a TCon's, never changed)
	// named in lastPkg when a value resolved it (dataTypeID): the next
	// values, of the same type, find it without the package's maps.
	lastID  *lf.TypeConID
	lastPkg *lf.Package
	lastDT  *lf.DataType
	// lastNamesPlain says that lastDT's field names are jsontext.Plain: a
	// record of it counts their JSON strings without a look at them.
	lastNamesPlain bool
}

// maxPooledTokens bounds the room for tokens a pooledChecker keeps.
const maxPooledTokens = 256

// putChecker keeps c, a checker of newChecker whose value has been
// built, cleared, for the next newChecker. Nothing keeps a
// reference into c once its value is built: the values hold copies of
// the JSON's strings and type ids of their own or their TCon's, never
// c's (dataTypeID), the errors hold their path as text (newError), and
// the tape's tokens and the path slabs are only c's. The parties c
// accepted stay for the next value.
func putChecker(c *checker) {
	pc := c.pooled
	*c = checker{}
	pc.pathsBuf = [2]vpath{}
	checkers.Put(pc)
}

// ---------------------------------------------------------------------
// JSON tape: a strict RFC 8259 tokenizer producing a flat token array in
// which every value knows where the next one starts, so that values can be
// visited in any order and skipped in O(1).

type tokKind uint8

const (
	tkNull tokKind = iota + 1
	tkFalse
	tkTrue
	tkNumber
	tkString
	tkArray
	tkObject
)

// tok is one JSON value (or object key) of a tape.
type tok struct {
	kind tokKind
	// esc marks a string containing escapes.
	esc bool
	// start and end delimit the value's text (quotes and brackets
	// included).
	start, end uint32
	// next is the index of the token after the value and all its
	// children. The children of a container are the tokens from its index
	// plus one to next; an object's are key, value, key, value, ...
	next uint32
}

// tape is a tokenized JSON text.
type tape struct {
	src  []byte
	toks []tok
	// strBytes counts the bytes of the strings that are values (object
	// keys left out).
	strBytes int
	// shared is src as a string, made by the first keep of a tape mostly
	// made of strings (but of a short string first, keptOne).
	shared string
	// keptOne says that keep has copied a string of its own.
	keptOne bool
}

type syntaxError struct {
	off int
	msg string
}

type tokenizer struct {
	src  []byte
	pos  int
	toks []tok
	err  *syntaxError
	// strBytes is tape.strBytes.
	strBytes int
}

// tokenize checks src as one JSON value (surrounding whitespace allowed)
// and returns its tape.
func tokenize(src []byte) (*tape, *syntaxError) {
	tp := new(tape)
	if err := tokenizeInto(src, tp, nil); err != nil {
		return nil, err
	}
	return tp, nil
}

// tokenizeInto is tokenize into tp (a checker's own: no allocation), its
// tokens in buf when they fit.
func tokenizeInto(src []byte, tp *tape, buf []tok) *syntaxError {
	toks := buf[:0]
	// Every token starts at a byte of its own, so a text no longer than
	// buf's room fits in it; a short text outgrowing a given buf grows it
	// as it is read rather than being counted first.
	if len(src) > cap(buf) && (buf == nil || len(src) > maxGrownTokensText) {
		if n := maxTokens(src); n > cap(buf) {
			toks = make([]tok, 0, n)
		}
	}
	z := &tokenizer{src: src, toks: toks}
	if !z.value(0) {
		return z.err
	}
	z.ws()
	if z.pos != len(src) {
		return &syntaxError{z.pos, "unexpected data after the value"}
	}
	*tp = tape{src: src, toks: z.toks, strBytes: z.strBytes}
	return nil
}

// maxGrownTokensText is the longest text whose tokens tokenizeInto
// appends to a given buffer without counting them first.
const maxGrownTokensText = 4096

// maxTokens bounds the number of tokens of src, for sizing its tape:
// every value but the first follows a '[', '{', ',' or ':' (each key a
// '{' or ','). The bound counts those bytes in strings too, so it is
// capped (hostile input grows the tape as it is read).
func maxTokens(src []byte) int {
	n := 1
	for _, c := range []byte("[{,:") {
		n += bytes.Count(src, []byte{c})
	}
	return min(n, 1<<16)
}

func (z *tokenizer) fail(msg string) bool {
	if z.err == nil {
		z.err = &syntaxError{z.pos, msg}
	}
	return false
}

// ws skips whitespace. Compact JSON has none: the test of the next byte
// is inlined, the loop (skipWS) called only when that byte may be
// whitespace.
func (z *tokenizer) ws() {
	if z.pos < len(z.src) && z.src[z.pos] > ' ' {
		return
	}
	z.skipWS()
}

func (z *tokenizer) skipWS() {
	for z.pos < len(z.src) {
		switch z.src[z.pos] {
		case ' ', '\t', '\n', '\r':
			z.pos++
		default:
			return
		}
	}
}

// push appends a token for the value starting at the current position.
func (z *tokenizer) push(kind tokKind) int {
	z.toks = append(z.toks, tok{kind: kind, start: uint32(z.pos)})
	return len(z.toks) - 1
}

// done closes token idx at the current position.
func (z *tokenizer) done(idx int) {
	z.toks[idx].end = uint32(z.pos)
	z.toks[idx].next = uint32(len(z.toks))
}

// leaf appends the token of a value without children (a string, number
// or literal, or an object key) that started at start and ends at the
// current position: one append, once it is read.
func (z *tokenizer) leaf(kind tokKind, start int, esc bool) {
	z.toks = append(z.toks, tok{kind: kind, esc: esc, start: uint32(start), end: uint32(z.pos), next: uint32(len(z.toks) + 1)})
}

func (z *tokenizer) value(depth int) bool {
	z.ws()
	if z.pos >= len(z.src) {
		return z.fail("unexpected end of input")
	}
	start := z.pos
	var kind tokKind
	switch c := z.src[z.pos]; {
	case c == '{':
		idx := z.push(tkObject)
		if !z.object(depth + 1) {
			return false
		}
		z.done(idx)
		return true
	case c == '[':
		idx := z.push(tkArray)
		if !z.array(depth + 1) {
			return false
		}
		z.done(idx)
		return true
	case c == '"':
		esc, ok := z.str()
		if !ok {
			return false
		}
		z.leaf(tkString, start, esc)
		z.strBytes += z.pos - start
		return true
	case c == 't':
		kind = tkTrue
		if !z.literal("true") {
			return false
		}
	case c == 'f':
		kind = tkFalse
		if !z.literal("false") {
			return false
		}
	case c == 'n':
		kind = tkNull
		if !z.literal("null") {
			return false
		}
	case c == '-' || isDigit(c):
		kind = tkNumber
		if !z.number() {
			return false
		}
	default:
		return z.fail(fmt.Sprintf("invalid character %q looking for a value", rune(c)))
	}
	z.leaf(kind, start, false)
	return true
}

func (z *tokenizer) literal(lit string) bool {
	if !bytes.HasPrefix(z.src[z.pos:], []byte(lit)) {
		return z.fail("invalid literal")
	}
	z.pos += len(lit)
	return true
}

func (z *tokenizer) object(depth int) bool {
	if depth > maxValueDepth {
		return z.fail(fmt.Sprintf("nested more than %d levels deep", maxValueDepth))
	}
	z.pos++ // {
	z.ws()
	if z.pos < len(z.src) && z.src[z.pos] == '}' {
		z.pos++
		return true
	}
	for {
		z.ws()
		if z.pos >= len(z.src) || z.src[z.pos] != '"' {
			return z.fail("expected a string object key")
		}
		start := z.pos
		esc, ok := z.str()
		if !ok {
			return false
		}
		z.leaf(tkString, start, esc)
		z.ws()
		if z.pos >= len(z.src) || z.src[z.pos] != ':' {
			return z.fail("expected ':' after an object key")
		}
		z.pos++
		if !z.value(depth) {
			return false
		}
		z.ws()
		if z.pos >= len(z.src) {
			return z.fail("unexpected end of input in an object")
		}
		switch z.src[z.pos] {
		case ',':
			z.pos++
		case '}':
			z.pos++
			return true
		default:
			return z.fail("expected ',' or '}' in an object")
		}
	}
}

func (z *tokenizer) array(depth int) bool {
	if depth > maxValueDepth {
		return z.fail(fmt.Sprintf("nested more than %d levels deep", maxValueDepth))
	}
	z.pos++ // [
	z.ws()
	if z.pos < len(z.src) && z.src[z.pos] == ']' {
		z.pos++
		return true
	}
	for {
		if !z.value(depth) {
			return false
		}
		z.ws()
		if z.pos >= len(z.src) {
			return z.fail("unexpected end of input in an array")
		}
		switch z.src[z.pos] {
		case ',':
			z.pos++
		case ']':
			z.pos++
			return true
		default:
			return z.fail("expected ',' or ']' in an array")
		}
	}
}

// str scans a string starting at its opening quote; it reports whether
// the string has escapes.
func (z *tokenizer) str() (esc, ok bool) {
	z.pos++ // "
	for {
		z.pos += jsontext.PlainPrefix(z.src[min(z.pos, len(z.src)):])
		if z.pos >= len(z.src) {
			return esc, z.fail("unterminated string")
		}
		c := z.src[z.pos]
		switch {
		case c == '"':
			z.pos++
			return esc, true
		case c == '\\':
			esc = true
			if z.pos+1 >= len(z.src) {
				return esc, z.fail("unterminated string")
			}
			switch z.src[z.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				z.pos += 2
			case 'u':
				r, ok := hex4(z.src, z.pos+2)
				if !ok {
					return esc, z.fail(`invalid \u escape`)
				}
				if utf16.IsSurrogate(r) {
					if r >= 0xdc00 {
						return esc, z.fail("unpaired surrogate escape")
					}
					lo, ok := rune(0), false
					if z.pos+7 < len(z.src) && z.src[z.pos+6] == '\\' && z.src[z.pos+7] == 'u' {
						lo, ok = hex4(z.src, z.pos+8)
					}
					if !ok || lo < 0xdc00 || lo > 0xdfff {
						return esc, z.fail("unpaired surrogate escape")
					}
					z.pos += 6
				}
				z.pos += 6
			default:
				return esc, z.fail("invalid escape in string")
			}
		case c < 0x20:
			return esc, z.fail("control character in string")
		case c < utf8.RuneSelf:
			z.pos++
		default:
			r, size := utf8.DecodeRune(z.src[z.pos:])
			if r == utf8.RuneError && size <= 1 {
				return esc, z.fail("invalid UTF-8 in string")
			}
			z.pos += size
		}
	}
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

func (z *tokenizer) number() bool {
	if z.src[z.pos] == '-' {
		z.pos++
	}
	digits := func() int {
		n := 0
		for z.pos < len(z.src) && isDigit(z.src[z.pos]) {
			z.pos++
			n++
		}
		return n
	}
	switch {
	case z.pos < len(z.src) && z.src[z.pos] == '0':
		z.pos++
	case z.pos < len(z.src) && isDigit(z.src[z.pos]):
		digits()
	default:
		return z.fail("invalid number")
	}
	if z.pos < len(z.src) && z.src[z.pos] == '.' {
		z.pos++
		if digits() == 0 {
			return z.fail("invalid number")
		}
	}
	if z.pos < len(z.src) && (z.src[z.pos] == 'e' || z.src[z.pos] == 'E') {
		z.pos++
		if z.pos < len(z.src) && (z.src[z.pos] == '+' || z.src[z.pos] == '-') {
			z.pos++
		}
		if digits() == 0 {
			return z.fail("invalid number")
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// kind returns the kind of token i; 0 for i < 0 (an absent field).
func (tp *tape) kind(i int) tokKind {
	if i < 0 {
		return 0
	}
	return tp.toks[i].kind
}

// next returns the index after value i.
func (tp *tape) next(i int) int { return int(tp.toks[i].next) }

// count returns the number of elements of array i.
func (tp *tape) count(i int) int {
	n := 0
	for e := i + 1; e < tp.next(i); e = tp.next(e) {
		n++
	}
	return n
}

// raw returns the text of token i.
func (tp *tape) raw(i int) []byte { return tp.src[tp.toks[i].start:tp.toks[i].end] }

// str returns the contents of string token i, unescaped.
func (tp *tape) str(i int) string {
	t := tp.toks[i]
	body := tp.src[t.start+1 : t.end-1]
	if !t.esc {
		return string(body)
	}
	return unescape(body)
}

// keep is str for a string the caller keeps (a built value's): a tape
// whose string values make up half its text or more gives parts of one
// copy of the text, made once for all of them, rather than a copy each
// (which a kept part keeps alive at most twice over). The first string
// kept, when short, is copied on its own all the same: the allocator packs
// such a copy with others, and a value often keeps no other (a create's
// parties are mostly known ones, knownParties, not kept).
func (tp *tape) keep(i int) string {
	t := tp.toks[i]
	if t.esc {
		return tp.str(i)
	}
	if tp.shared == "" {
		body := tp.src[t.start+1 : t.end-1]
		if 2*tp.strBytes < len(tp.src) || !tp.keptOne && len(body) < maxTinyKeep {
			tp.keptOne = true
			return string(body)
		}
		tp.shared = string(tp.src)
	}
	return tp.shared[t.start+1 : t.end-1]
}

// maxTinyKeep bounds the strings the runtime's tiny allocator copies
// (noscan, under 16 bytes), which keep copies on their own first.
const maxTinyKeep = 16

// unescape decodes the escapes of a string body checked by the tokenizer.
func unescape(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			sb.WriteByte(c)
			continue
		}
		i++
		switch b[i] {
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, _ := hex4(b, i+1)
			i += 4
			if utf16.IsSurrogate(r) {
				lo, _ := hex4(b, i+3)
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			sb.WriteRune(r)
		default: // " \ /
			sb.WriteByte(b[i])
		}
	}
	return sb.String()
}

// plainStr returns the contents of string token i when it has no
// escapes (without allocating), or ok = false.
func (tp *tape) plainStr(i int) (body []byte, ok bool) {
	t := tp.toks[i]
	if t.esc {
		return nil, false
	}
	return tp.src[t.start+1 : t.end-1], true
}

// keyIs reports whether string token i equals s.
func (tp *tape) keyIs(i int, s string) bool {
	if body, ok := tp.plainStr(i); ok {
		return string(body) == s
	}
	return tp.str(i) == s
}

// kindName describes the JSON kind of token i for messages.
func (tp *tape) kindName(i int) string {
	switch tp.kind(i) {
	case tkNull:
		return "null"
	case tkFalse, tkTrue:
		return "a boolean"
	case tkNumber:
		return "a number"
	case tkString:
		return "a string"
	case tkArray:
		return "an array"
	case tkObject:
		return "an object"
	}
	return "nothing (the field is missing)"
}

// appendJSONString appends s as a JSON string, escaping only '"', '\' and
// control characters (as Canton's JSON writer does).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := jsontext.PlainPrefix(s); i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = jsontext.AppendEscape(append(b, s[start:i]...), c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonStringLen returns len(appendJSONString(nil, s)).
func jsonStringLen(s string) int {
	n := len(s) + 2
	// Plain bytes are written as they are; PlainPrefix passes over them
	// eight at a time.
	for i := jsontext.PlainPrefix(s); i < len(s); i++ {
		switch c := s[i]; {
		case c == '"', c == '\\', c == '\n', c == '\r', c == '\t', c == '\b', c == '\f':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}

// ---------------------------------------------------------------------
// Paths.

// vpath is a JSON path, built lazily: it is rendered only for errors.
type vpath struct {
	parent *vpath
	// kind: 0 the root (name), 'f' a field (.name), 'i' an element
	// ([index]), 'k' a TextMap key (.key or ["key"]), 't' a variant value
	// (.tag(name)).
	kind  byte
	name  string
	index int
}

func (p *vpath) String() string {
	if p == nil {
		return ""
	}
	var segs []*vpath
	for q := p; q != nil; q = q.parent {
		segs = append(segs, q)
	}
	var sb strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		s := segs[i]
		switch s.kind {
		case 0:
			sb.WriteString(s.name)
		case 'f':
			sb.WriteByte('.')
			sb.WriteString(s.name)
		case 'i':
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(s.index))
			sb.WriteByte(']')
		case 'k':
			if isIdentifier(s.name) {
				sb.WriteByte('.')
				sb.WriteString(s.name)
			} else {
				sb.WriteByte('[')
				sb.WriteString(quoteShort(s.name))
				sb.WriteByte(']')
			}
		case 't':
			sb.WriteString(".tag(")
			sb.WriteString(s.name)
			sb.WriteByte(')')
		}
	}
	return sb.String()
}

// isIdentifier reports whether s is a Daml-LF name ([A-Za-z_$][A-Za-z0-9_$]*).
func isIdentifier(s string) bool {
	if s == "" || len(s) > 1000 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_', c == '$':
		case isDigit(c) && i > 0:
		default:
			return false
		}
	}
	return true
}

// quoteShort quotes s for a message, cutting it after 64 bytes.
func quoteShort(s string) string {
	const limit = 64
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// nameList joins user-supplied names for a message: at most 10, quoted
// when they are not identifiers.
func nameList(names []string) string {
	var parts []string
	for i, n := range names {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(names)-10))
			break
		}
		if isIdentifier(n) {
			parts = append(parts, n)
		} else {
			parts = append(parts, quoteShort(n))
		}
	}
	return strings.Join(parts, ", ")
}

// ---------------------------------------------------------------------
// Type environments.

// tclosure is a type with the environment its variables are bound in.
type tclosure struct {
	t   lf.Type
	env *tenv
}

// tenv binds the type parameters of one data type or synonym.
type tenv struct {
	names []string
	vals  []tclosure
}

func (e *tenv) lookup(name string) (tclosure, bool) {
	if e == nil {
		return tclosure{}, false
	}
	for i, n := range e.names {
		if n == name {
			return e.vals[i], true
		}
	}
	return tclosure{}, false
}

// bind binds params to args read in env. An argument that is itself a
// variable is bound to that variable's closure, so that chains of
// variables never grow.
func bind(params []lf.TypeParam, args []lf.Type, env *tenv) *tenv {
	if len(params) == 0 {
		return nil
	}
	ne := &tenv{names: make([]string, len(params)), vals: make([]tclosure, len(params))}
	for k, p := range params {
		ne.names[k] = p.Name
		cl := tclosure{args[k], env}
		if v, ok := args[k].(*lf.TVar); ok {
			if r, ok := env.lookup(v.Name); ok {
				cl = r
			}
		}
		ne.vals[k] = cl
	}
	return ne
}

// ---------------------------------------------------------------------
// The checker.

type checker struct {
	tp     *tape
	lookup func(string) *lf.Package
	// out is the canonical encoding printed so far.
	out []byte
	// count makes value count the canonical encoding in n rather than
	// print it to out (except GenMaps, see checkGenMap); out is empty
	// whenever count is set. Counting needs build (a field printing null
	// is told by its Value).
	count bool
	// n is the length of the canonical encoding counted, not printed.
	n int
	// build makes value return the typed Value.
	build bool
	// budget is the work left for GenMap key sorting and copying.
	budget int
	dts    map[lf.TypeConID]dataTypeEntry
	// last is the last data type resolved, and lastCon the TCon that
	// named it when dataTypeOf resolved it (else nil).
	lastCon *lf.TCon
	last    dataTypeEntry
	// root is the path of the whole value.
	root vpath
	// paths is the slab path allocates from; its first pathsUsed
	// entries are in use.
	paths     []vpath
	pathsUsed int
	fidx      map[*lf.DataType]map[string]int
	// tcons caches the data types of the TCons dataTypeOf resolved, by
	// pointer: the types of a package's fields are shared nodes, and
	// hashing a pointer is much cheaper than hashing a TypeConID's three
	// strings (and resolving them through lookup).
	tcons map[*lf.TCon]dataTypeEntry
	// tape is tp for a checker newChecker made, allocated with it.
	tape tape
	// pooled is the pooledChecker of a checker newChecker made (nil
	// otherwise), whose parties are parties: the last parties validParty
	// accepted (the values of a node name the same few parties again and
	// again), kept from one value to the next (putChecker).
	pooled  *pooledChecker
	parties *knownParties
	// plainDT is the data type whose records appendRecordAs printed last,
	// and plainNames says whether its field names are jsontext.Plain
	// (namesPlain): a JSONAppender prints the records of one type again
	// and again.
	plainDT    *lf.DataType
	plainNames bool
}

// knownParties are the last few valid parties met, not checked again,
// with their values once built: a Party in an interface is an allocation
// of its own, and the values of a node name the same few parties again
// and again.
type knownParties struct {
	p    [4]string
	v    [4]Value // Party(p[j]), or nil until a value needs it
	next uint8
}

// validPartyAt is validParty(s), remembering the last valid parties (k
// nil: none), and returns the index of s among k's parties (-1: none).
func (k *knownParties) validPartyAt(s string) (string, int) {
	if k == nil {
		return validParty(s), -1
	}
	if s != "" {
		for j := range k.p {
			if k.p[j] == s {
				return "", j
			}
		}
	}
	msg := validParty(s)
	if msg != "" {
		return msg, -1
	}
	j := int(k.next % uint8(len(k.p)))
	k.p[j], k.v[j] = s, nil
	k.next++
	return "", j
}

// known returns the index of the party b among k's parties (k nil: none),
// -1 when it is not one of them; the empty string is none.
func (k *knownParties) known(b []byte) int {
	if k == nil || len(b) == 0 {
		return -1
	}
	for j := range k.p {
		if k.p[j] == string(b) {
			return j
		}
	}
	return -1
}

// value returns Party(s), where s is k's party j (validPartyAt), built
// once (j -1: built anew).
func (k *knownParties) value(s string, j int) Value {
	if j < 0 {
		return Party(s)
	}
	if k.v[j] == nil {
		k.v[j] = Party(s)
	}
	return k.v[j]
}

// dataTypeEntry is a resolved data type and its id, shared by the values
// that FromJSON builds of that type.
type dataTypeEntry struct {
	dt *lf.DataType
	id *lf.TypeConID
}

func (c *checker) invalid(p *vpath, format string, args ...any) error {
	return newError(KindInvalid, p, format, args...)
}

func (c *checker) preprocessing(p *vpath, format string, args ...any) error {
	return newError(KindPreprocessing, p, format, args...)
}

func (c *checker) internal(p *vpath, format string, args ...any) error {
	return newError(KindType, p, format, args...)
}

// wrongKind reports a JSON value of the wrong kind (Canton: 500).
func (c *checker) wrongKind(i int, p *vpath, want, typ string) error {
	return c.invalid(p, "expected %s for %s, got %s", want, typ, c.tp.kindName(i))
}

func (c *checker) spend(n int, p *vpath) error {
	c.budget -= n
	if c.budget < 0 {
		return c.invalid(p, "the value is too complex to check")
	}
	return nil
}

// path returns a copy of v from c's slab of paths. The checker makes a
// path for each container it visits, needed only until the call that
// made it returns (errors render their path at once), so paths are
// freed in reverse order of their making (free) and their slots reused.
func (c *checker) path(v vpath) *vpath {
	if c.pathsUsed == len(c.paths) {
		// A new slab; the paths in use stay in the old one.
		c.paths = make([]vpath, min(max(2, 2*len(c.paths)), 256))
		c.pathsUsed = 0
	}
	p := &c.paths[c.pathsUsed]
	c.pathsUsed++
	*p = v
	return p
}

// free gives back the slot of p if it is the last path made (otherwise
// the slot is not reused).
func (c *checker) free(p *vpath) {
	if c.pathsUsed > 0 && p == &c.paths[c.pathsUsed-1] {
		c.pathsUsed--
	}
}

// maxCachedTCons bounds a checker's cache of TCons.
const maxCachedTCons = 1024

// dataTypeOf is dataTypeID for the data type h names, telling the last
// one by its TCon (a list of records names the same data type again and
// again).
func (c *checker) dataTypeOf(h *lf.TCon, p *vpath) (*lf.DataType, *lf.TypeConID, error) {
	if h == c.lastCon {
		return c.last.dt, c.last.id, nil
	}
	if e, ok := c.tcons[h]; ok {
		c.lastCon, c.last = h, e
		return e.dt, e.id, nil
	}
	prevCon, prev := c.lastCon, c.last
	// The values share h's own id: types are never changed once made.
	dt, id, err := c.dataTypeID(h.ID, &h.ID, p)
	if err == nil {
		// The map is made for the second TCon: most values have one.
		if c.tcons != nil {
			if len(c.tcons) >= maxCachedTCons {
				// A JSONAppender kept across many values sees a fresh
				// TCon in each type made for the occasion (TypeOf):
				// the cache stays bounded.
				clear(c.tcons)
			}
			c.tcons[h] = c.last
		} else if prevCon != nil {
			c.tcons = map[*lf.TCon]dataTypeEntry{prevCon: prev, h: c.last}
		}
		c.lastCon = h
	}
	return dt, id, err
}

// dataType resolves a data type through lookup, with a cache.
func (c *checker) dataType(id lf.TypeConID, p *vpath) (*lf.DataType, error) {
	dt, _, err := c.dataTypeID(id, nil, p)
	return dt, err
}

// dataTypeID is dataType that also returns a pointer to id, the same for
// every call of this checker: idp if the data type was not resolved
// before (a copy of id if idp is nil).
func (c *checker) dataTypeID(id lf.TypeConID, idp *lf.TypeConID, p *vpath) (*lf.DataType, *lf.TypeConID, error) {
	if c.last.id != nil && *c.last.id == id {
		return c.last.dt, c.last.id, nil
	}
	if e, ok := c.dts[id]; ok {
		c.lastCon, c.last = nil, e
		return e.dt, e.id, nil
	}
	var pkg *lf.Package
	if c.lookup != nil {
		pkg = c.lookup(id.PackageID)
	}
	if pkg == nil {
		return nil, nil, c.internal(p, "package %s of data type %s:%s is not known", id.PackageID, id.Module, id.Name)
	}
	var dt *lf.DataType
	if pc := c.pooled; pc != nil && idp != nil && pc.lastID == idp && pc.lastPkg == pkg {
		dt = pc.lastDT // what the same id in the same package gave before
	} else {
		dt = pkg.DataType(id.Module, id.Name)
		if pc != nil && idp != nil && dt != nil {
			pc.lastID, pc.lastPkg, pc.lastDT, pc.lastNamesPlain = idp, pkg, dt, namesPlain(dt)
		}
	}
	if dt == nil {
		return nil, nil, c.internal(p, "data type %s:%s is not defined in package %s", id.Module, id.Name, id.PackageID)
	}
	if idp == nil {
		idp = new(lf.TypeConID)
		*idp = id
	}
	e := dataTypeEntry{dt: dt, id: idp}
	// The map is made for the second data type: most values have one.
	if c.last.id != nil {
		if c.dts == nil {
			c.dts = map[lf.TypeConID]dataTypeEntry{*c.last.id: c.last}
		}
		c.dts[id] = e
	}
	c.lastCon, c.last = nil, e
	return e.dt, e.id, nil
}

// namesPlain reports whether the names of dt's fields are all
// jsontext.Plain (Daml-LF's names are).
func namesPlain(dt *lf.DataType) bool {
	for _, f := range dt.Fields {
		if !jsontext.Plain(f.Name) {
			return false
		}
	}
	return true
}

// synonym resolves a type synonym through lookup.
func (c *checker) synonym(id lf.TypeConID) *lf.TypeSynonym {
	if c.lookup == nil {
		return nil
	}
	pkg := c.lookup(id.PackageID)
	if pkg == nil {
		return nil
	}
	m := pkg.Module(id.Module)
	if m == nil {
		return nil
	}
	return m.Synonym(id.Name)
}

// fieldIndex returns the index of the record field (or variant
// constructor) name, or -1.
func (c *checker) fieldIndex(dt *lf.DataType, name string) int {
	if len(dt.Fields) <= 8 {
		for i, f := range dt.Fields {
			if f.Name == name {
				return i
			}
		}
		return -1
	}
	if i, ok := c.fieldMap(dt)[name]; ok {
		return i
	}
	return -1
}

// fieldIndexBytes is fieldIndex without allocating a string.
func (c *checker) fieldIndexBytes(dt *lf.DataType, name []byte) int {
	if len(dt.Fields) <= 8 {
		for i, f := range dt.Fields {
			if f.Name == string(name) {
				return i
			}
		}
		return -1
	}
	if i, ok := c.fieldMap(dt)[string(name)]; ok {
		return i
	}
	return -1
}

// fieldMap returns the field index of a data type with many fields.
func (c *checker) fieldMap(dt *lf.DataType) map[string]int {
	m, ok := c.fidx[dt]
	if !ok {
		m = make(map[string]int, len(dt.Fields))
		for i, f := range dt.Fields {
			if _, dup := m[f.Name]; !dup {
				m[f.Name] = i
			}
		}
		if c.fidx == nil {
			c.fidx = map[*lf.DataType]map[string]int{}
		}
		c.fidx[dt] = m
	}
	return m
}

// targs are the arguments of a type application, held without
// allocating for up to two.
type targs struct {
	n    int
	a    [2]lf.Type
	more []lf.Type // all arguments when there are more than two
}

// at returns argument k.
func (x targs) at(k int) lf.Type {
	if x.more != nil {
		return x.more[k]
	}
	return x.a[k]
}

// list returns the arguments as a new slice.
func (x targs) list() []lf.Type {
	if x.more != nil {
		return x.more
	}
	return append([]lf.Type(nil), x.a[:x.n]...)
}

// splitArgs is SplitApp without allocating for up to two arguments.
func splitArgs(t lf.Type) (lf.Type, targs) {
	n := 0
	for u := t; ; n++ {
		a, ok := u.(*lf.TApp)
		if !ok {
			break
		}
		u = a.Fun
	}
	var x targs
	x.n = n
	if n > 2 {
		h, args := lf.SplitApp(t)
		x.more = args
		return h, x
	}
	head := t
	for k := n - 1; k >= 0; k-- {
		a := head.(*lf.TApp)
		x.a[k] = a.Arg
		head = a.Fun
	}
	return head, x
}

// whnf resolves the type variables and synonyms at the head of t: it
// returns the head (a *TBuiltin, *TCon or *TNat) with its arguments and
// the environment the arguments are read in.
func (c *checker) whnf(t lf.Type, env *tenv, p *vpath) (lf.Type, targs, *tenv, error) {
	var none targs
	switch t.(type) {
	case *lf.TBuiltin, *lf.TCon, *lf.TNat:
		// A head without arguments (most fields' types): what the loop
		// returns, without splitting t.
		return t, none, env, nil
	}
	for range maxTypeSteps {
		head, args := splitArgs(t)
		switch h := head.(type) {
		case *lf.TBuiltin, *lf.TCon, *lf.TNat:
			return head, args, env, nil
		case *lf.TVar:
			if args.n > 0 {
				return nil, none, nil, c.internal(p, "type %s applies a type variable and has no JSON encoding", t)
			}
			cl, ok := env.lookup(h.Name)
			if !ok {
				return nil, none, nil, c.internal(p, "type variable %s is not bound", h.Name)
			}
			t, env = cl.t, cl.env
		case *lf.TSyn:
			syn := c.synonym(h.ID)
			if syn == nil {
				return nil, none, nil, c.internal(p, "type synonym %s:%s is not defined in package %s", h.ID.Module, h.ID.Name, h.ID.PackageID)
			}
			if args.n > 0 || len(syn.Params) != len(h.Args) {
				return nil, none, nil, c.internal(p, "type synonym %s is not applied to %d arguments", h.ID, len(syn.Params))
			}
			env = bind(syn.Params, h.Args, env)
			t = syn.Type
		case nil:
			return nil, none, nil, c.internal(p, "missing type")
		default:
			return nil, none, nil, c.internal(p, "type %s has no JSON encoding", t)
		}
	}
	return nil, none, nil, c.internal(p, "type %s does not resolve (cyclic type synonym?)", t)
}

// asOptional reports whether t, as written (synonyms expanded, type
// variables not substituted), is Optional elem.
func (c *checker) asOptional(t lf.Type, env *tenv) (lf.Type, *tenv, bool) {
	for range maxTypeSteps {
		head, args := splitArgs(t)
		switch h := head.(type) {
		case *lf.TBuiltin:
			if h.Builtin == lf.BuiltinOptional && args.n == 1 {
				return args.at(0), env, true
			}
			return nil, nil, false
		case *lf.TSyn:
			syn := c.synonym(h.ID)
			if syn == nil || args.n > 0 || len(syn.Params) != len(h.Args) {
				return nil, nil, false
			}
			env = bind(syn.Params, h.Args, env)
			t = syn.Type
		default:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// isOptional reports whether t resolves to an Optional type (a record
// field of such a type may be missing).
func (c *checker) isOptional(t lf.Type, env *tenv, p *vpath) (bool, error) {
	head, args, _, err := c.whnf(t, env, p)
	if err != nil {
		return false, err
	}
	b, ok := head.(*lf.TBuiltin)
	return ok && b.Builtin == lf.BuiltinOptional && args.n == 1, nil
}

// builtinArity returns the number of arguments a serializable builtin
// takes, or -1 for a builtin that has no JSON encoding.
func builtinArity(b lf.BuiltinType) int {
	switch b {
	case lf.BuiltinUnit, lf.BuiltinBool, lf.BuiltinInt64, lf.BuiltinDate, lf.BuiltinTimestamp, lf.BuiltinParty, lf.BuiltinText:
		return 0
	case lf.BuiltinNumeric, lf.BuiltinContractID, lf.BuiltinOptional, lf.BuiltinList, lf.BuiltinTextMap:
		return 1
	case lf.BuiltinGenMap:
		return 2
	}
	return -1
}

// check validates value i (-1: an absent record field) against t read in
// env and appends its canonical encoding to c.out (see value).
func (c *checker) check(i int, t lf.Type, env *tenv, p *vpath, depth int) error {
	_, err := c.value(i, t, env, p, depth)
	return err
}

// value validates value i (-1: an absent record field) against t read in
// env. It appends the value's canonical encoding to c.out or, when
// c.count is set, adds the encoding's length to c.n without printing it
// (GenMaps are printed even then: their keys are sorted on their
// encodings). When c.build is set it also returns the value as a Value;
// otherwise the Value is nil. CheckValue and FromJSON both run it, so that
// they accept the same values and fail with the same errors.
func (c *checker) value(i int, t lf.Type, env *tenv, p *vpath, depth int) (Value, error) {
	if depth > maxCheckDepth {
		return nil, c.invalid(p, "the value is nested too deeply")
	}
	if c.size() > maxCanonicalBytes {
		return nil, c.invalid(p, "the canonical value exceeds %d bytes", maxCanonicalBytes)
	}
	// A head without arguments (most fields' types) is its own whnf.
	head, aenv := t, env
	var args targs
	switch t.(type) {
	case *lf.TBuiltin, *lf.TCon, *lf.TNat:
	default:
		var err error
		if head, args, aenv, err = c.whnf(t, env, p); err != nil {
			return nil, err
		}
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		if n := builtinArity(h.Builtin); n < 0 {
			return nil, c.internal(p, "type %s is not serializable", h.Builtin)
		} else if n != args.n {
			return nil, c.internal(p, "type %s is applied to %d arguments instead of %d", h.Builtin, args.n, n)
		}
		return c.checkBuiltin(i, h.Builtin, &args, aenv, p, depth)
	case *lf.TCon:
		dt, id, err := c.dataTypeOf(h, p)
		if err != nil {
			return nil, err
		}
		if args.n != len(dt.Params) {
			return nil, c.internal(p, "data type %s:%s has %d parameters but is applied to %d arguments", h.ID.Module, h.ID.Name, len(dt.Params), args.n)
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		switch dt.Variety {
		case lf.RecordVariety:
			return c.checkRecord(i, id, dt, denv, p, depth)
		case lf.VariantVariety:
			return c.checkVariant(i, id, dt, denv, p, depth)
		case lf.EnumVariety:
			return c.checkEnum(i, id, dt, p)
		}
		return nil, c.internal(p, "%s:%s is an interface, not a serializable data type", h.ID.Module, h.ID.Name)
	}
	return nil, c.internal(p, "type %s is not a type of values", head)
}

// size returns the length of the canonical encoding so far, printed or
// counted.
func (c *checker) size() int { return c.n + len(c.out) }

// emit adds s to the canonical encoding.
func (c *checker) emit(s string) {
	if c.count {
		c.n += len(s)
		return
	}
	c.out = append(c.out, s...)
}

// emitQuoted adds s to the canonical encoding as a JSON string.
func (c *checker) emitQuoted(s string) {
	if c.count {
		c.n += jsonStringLen(s)
		return
	}
	c.out = appendJSONString(c.out, s)
}

// emitString adds string token i, whose contents are s, to the canonical
// encoding as a JSON string.
func (c *checker) emitString(i int, s string) {
	if _, plain := c.tp.plainStr(i); plain {
		// Without escapes the string is already canonical.
		if c.count {
			c.n += len(c.tp.raw(i))
		} else {
			c.out = append(c.out, c.tp.raw(i)...)
		}
		return
	}
	c.emitQuoted(s)
}

// str is the contents of string token i, kept (tape.keep) when c builds
// values.
func (c *checker) str(i int) string {
	if c.build {
		return c.tp.keep(i)
	}
	return c.tp.str(i)
}

func (c *checker) checkBuiltin(i int, b lf.BuiltinType, args *targs, env *tenv, p *vpath, depth int) (Value, error) {
	tp := c.tp
	switch b {
	case lf.BuiltinUnit:
		if i < 0 {
			return nil, c.wrongKind(i, p, "a JSON value", "Unit")
		}
		c.emit("{}")
		return Unit{}, nil

	case lf.BuiltinBool:
		switch tp.kind(i) {
		case tkTrue:
			c.emit("true")
			return Bool(true), nil
		case tkFalse:
			c.emit("false")
			return Bool(false), nil
		}
		return nil, c.wrongKind(i, p, "a JSON boolean", "Bool")

	case lf.BuiltinInt64:
		if tp.kind(i) != tkString {
			return nil, c.wrongKind(i, p, "a JSON string (e.g. \"42\")", "Int64")
		}
		n, ok := tp.int64At(i)
		if !ok {
			return nil, c.invalid(p, "could not read Int64 string %s: not a 64-bit integer", quoteShort(tp.str(i)))
		}
		if c.count {
			c.n += 2 + int64Len(n)
		} else {
			c.out = append(c.out, '"')
			c.out = strconv.AppendInt(c.out, n, 10)
			c.out = append(c.out, '"')
		}
		if !c.build {
			return nil, nil
		}
		return Int64(n), nil

	case lf.BuiltinNumeric:
		scale, err := c.scale(args.at(0), env, p)
		if err != nil {
			return nil, err
		}
		var s string
		switch tp.kind(i) {
		case tkString:
			s = tp.str(i)
		case tkNumber:
			s = javaDoubleString(string(tp.raw(i)))
		default:
			return nil, c.wrongKind(i, p, "a JSON string (e.g. \"1.5\")", "Numeric "+strconv.Itoa(scale))
		}
		out, kind, msg := canonicalNumeric(s, scale)
		switch kind {
		case numMalformed:
			return nil, c.invalid(p, "%s", msg)
		case numPreprocessing:
			return nil, c.preprocessing(p, "%s", msg)
		}
		if c.count {
			c.n += len(out) + 2
		} else {
			c.out = append(c.out, '"')
			c.out = append(c.out, out...)
			c.out = append(c.out, '"')
		}
		if !c.build {
			return nil, nil
		}
		return Numeric(out), nil

	case lf.BuiltinText:
		if tp.kind(i) != tkString {
			return nil, c.wrongKind(i, p, "a JSON string", "Text")
		}
		var s string
		if c.build {
			s = tp.keep(i)
		} else if _, plain := tp.plainStr(i); !plain {
			s = tp.str(i)
		}
		c.emitString(i, s)
		if !c.build {
			return nil, nil
		}
		return Text(s), nil

	case lf.BuiltinParty:
		if tp.kind(i) != tkString {
			return nil, c.wrongKind(i, p, "a JSON string", "Party")
		}
		// A party met before is found by the token's bytes: its string
		// is not made (kept) again.
		if body, plain := tp.plainStr(i); plain {
			if k := c.parties.known(body); k >= 0 {
				c.emitString(i, "")
				if !c.build {
					return nil, nil
				}
				return c.parties.value(c.parties.p[k], k), nil
			}
		}
		s := c.str(i)
		msg, k := c.parties.validPartyAt(s)
		if msg != "" {
			return nil, c.invalid(p, "%s", msg)
		}
		c.emitString(i, s)
		if !c.build {
			return nil, nil
		}
		return c.parties.value(s, k), nil

	case lf.BuiltinContractID:
		if tp.kind(i) != tkString {
			return nil, c.wrongKind(i, p, "a JSON string", "ContractId")
		}
		s := c.str(i)
		if msg, pre := validContractID(s); msg != "" {
			if pre {
				return nil, c.preprocessing(p, "%s", msg)
			}
			return nil, c.invalid(p, "%s", msg)
		}
		c.emitString(i, s)
		if !c.build {
			return nil, nil
		}
		return ContractID(s), nil

	case lf.BuiltinDate:
		if tp.kind(i) != tkString {
			return nil, c.wrongKind(i, p, "a JSON string (YYYY-MM-DD)", "Date")
		}
		s := tp.str(i)
		y, m, d, rest, ok := parseISODate(s)
		if !ok || rest != "" {
			return nil, c.invalid(p, "malformed Date %s: expected an ISO-8601 local date YYYY-MM-DD", quoteShort(s))
		}
		if y < 1 || y > 9999 {
			return nil, c.invalid(p, "out of bound Date %s: the range is 0001-01-01 to 9999-12-31", quoteShort(s))
		}
		if c.count {
			c.n += len(`"YYYY-MM-DD"`) // the year has 4 digits in range
		} else {
			c.out = fmt.Appendf(c.out, `"%04d-%02d-%02d"`, y, m, d)
		}
		if !c.build {
			return nil, nil
		}
		return Date(DaysFromCivil(y, m, d)), nil

	case lf.BuiltinTimestamp:
		if tp.kind(i) != tkString {
			return nil, c.wrongKind(i, p, "a JSON string (ISO-8601 with an offset)", "Timestamp")
		}
		s := tp.str(i)
		micros, inRange, ok := parseTimestamp(s)
		if !ok {
			return nil, c.invalid(p, "malformed Timestamp %s: expected an ISO-8601 date-time with an offset, e.g. 2023-04-06T04:30:23.123456Z", quoteShort(s))
		}
		if !inRange {
			return nil, c.invalid(p, "out of bound Timestamp %s: the range is 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z", quoteShort(s))
		}
		if c.count {
			c.n += 2 + timestampLen(micros)
		} else {
			c.out = append(c.out, '"')
			c.out = appendTimestamp(c.out, micros)
			c.out = append(c.out, '"')
		}
		if !c.build {
			return nil, nil
		}
		return Timestamp(micros), nil

	case lf.BuiltinOptional:
		elem := args.at(0)
		_, _, nested := c.asOptional(elem, env)
		return c.checkOptional(i, elem, env, p, depth, nested)

	case lf.BuiltinList:
		if tp.kind(i) != tkArray {
			return nil, c.wrongKind(i, p, "a JSON array", "List")
		}
		var out List
		if c.build {
			out = make(List, 0, tp.count(i))
		}
		c.emit("[")
		ep := c.path(vpath{parent: p, kind: 'i'})
		for e, n := i+1, 0; e < tp.next(i); e, n = tp.next(e), n+1 {
			if n > 0 {
				c.emit(",")
			}
			ep.index = n
			v, err := c.value(e, args.at(0), env, ep, depth+1)
			if err != nil {
				return nil, err
			}
			if c.build {
				out = append(out, v)
			}
		}
		c.free(ep)
		c.emit("]")
		if !c.build {
			return nil, nil
		}
		return out, nil

	case lf.BuiltinTextMap:
		return c.checkTextMap(i, args.at(0), env, p, depth)

	case lf.BuiltinGenMap:
		return c.checkGenMap(i, args.at(0), args.at(1), env, p, depth)
	}
	return nil, c.internal(p, "type %s is not serializable", b)
}

// scale resolves the scale argument of Numeric.
func (c *checker) scale(t lf.Type, env *tenv, p *vpath) (int, error) {
	head, _, _, err := c.whnf(t, env, p)
	if err != nil {
		return 0, err
	}
	n, ok := head.(*lf.TNat)
	if !ok || n.N < 0 || n.N > 37 {
		return 0, c.internal(p, "Numeric is applied to %s instead of a scale 0..37", head)
	}
	return n.N, nil
}

// checkOptional checks an Optional elem. In nested mode (the Optional
// written inside another one, or itself containing one as written) each
// level is a 0- or 1-element array; otherwise null is None.
func (c *checker) checkOptional(i int, elem lf.Type, env *tenv, p *vpath, depth int, nested bool) (Value, error) {
	tp := c.tp
	if !nested {
		if i < 0 || tp.kind(i) == tkNull {
			c.emit("null")
			return Optional{}, nil
		}
		v, err := c.value(i, elem, env, p, depth+1)
		if err != nil || !c.build {
			return nil, err
		}
		return Optional{Value: v}, nil
	}
	if tp.kind(i) != tkArray {
		return nil, c.wrongKind(i, p, "a JSON array ([] for None, [x] for Some x)", "a nested Optional")
	}
	first := i + 1
	if first >= tp.next(i) {
		c.emit("[]")
		return Optional{Nested: true}, nil
	}
	c.emit("[")
	ip := c.path(vpath{parent: p, kind: 'i'})
	var v Value
	var err error
	if inner, ienv, ok := c.asOptional(elem, env); ok {
		v, err = c.checkOptional(first, inner, ienv, ip, depth+1, true)
	} else {
		v, err = c.value(first, elem, env, ip, depth+1)
	}
	if err != nil {
		return nil, err
	}
	c.free(ip)
	c.emit("]")
	if !c.build {
		return nil, nil
	}
	return Optional{Value: v, Nested: true}, nil
}

func (c *checker) checkRecord(i int, id *lf.TypeConID, dt *lf.DataType, env *tenv, p *vpath, depth int) (Value, error) {
	tp := c.tp
	if tp.kind(i) != tkObject {
		return nil, c.wrongKind(i, p, "a JSON object", "record "+id.Module+":"+id.Name)
	}
	// vals holds the token of each field's value (-1: absent), on the
	// stack for up to 16 fields.
	var small [16]int
	var vals []int
	if len(dt.Fields) > len(small) {
		vals = make([]int, len(dt.Fields))
	} else {
		vals = small[:len(dt.Fields)]
	}
	for k := range vals {
		vals[k] = -1
	}
	var unexpected []string
	var unknown map[string]bool
	found := 0 // fields with a value
	for k := i + 1; k < tp.next(i); k = tp.next(k + 1) {
		v := k + 1
		var key string
		fi := -1
		if body, ok := tp.plainStr(k); ok {
			fi = c.fieldIndexBytes(dt, body)
		} else {
			key = tp.str(k)
			fi = c.fieldIndex(dt, key)
		}
		if fi >= 0 {
			if vals[fi] >= 0 {
				return nil, c.invalid(p, "duplicate field %s", nameList([]string{dt.Fields[fi].Name}))
			}
			vals[fi] = v
			found++
			continue
		}
		if key == "" {
			key = tp.str(k)
		}
		if unknown[key] {
			return nil, c.invalid(p, "duplicate field %s", nameList([]string{key}))
		}
		if unknown == nil {
			unknown = map[string]bool{}
		}
		unknown[key] = true
		if tp.kind(v) != tkNull {
			unexpected = append(unexpected, key)
		}
	}
	var missing []string
	if found < len(dt.Fields) { // else every field has a value
		for fi, f := range dt.Fields {
			if vals[fi] >= 0 {
				continue
			}
			opt, err := c.isOptional(f.Type, env, p)
			if err != nil {
				return nil, err
			}
			if !opt {
				missing = append(missing, f.Name)
			}
		}
	}
	if len(missing) > 0 {
		return nil, c.preprocessing(p, "Missing non-optional fields: %s", strings.Join(missing, ", "))
	}
	if len(unexpected) > 0 {
		return nil, c.invalid(p, "Unexpected fields: %s", nameList(unexpected))
	}
	var out Record
	if c.build {
		out = Record{RecordID: id, Fields: make([]RecordField, len(dt.Fields))}
	}
	c.emit("{")
	// keep is the size after the last field that does not print as null:
	// the trailing fields printed as null are left out.
	keep := c.size()
	fp := c.path(vpath{parent: p, kind: 'f'})
	// Counted, the names of the pooled checker's last data type are known
	// plain (lastNamesPlain): a name's JSON string is its length and two
	// quotes.
	plainNames := c.count && c.pooled != nil && c.pooled.lastDT == dt && c.pooled.lastNamesPlain
	for fi, f := range dt.Fields {
		if fi > 0 {
			c.emit(",")
		}
		if plainNames {
			c.n += len(f.Name) + 2
		} else {
			c.emitQuoted(f.Name)
		}
		c.emit(":")
		vs := c.size()
		fp.name = f.Name
		v, err := c.value(vals[fi], f.Type, env, fp, depth+1)
		if err != nil {
			return nil, err
		}
		if c.count {
			// Only a None Optional printed with the null rule is null.
			if o, ok := v.(Optional); !ok || o.Value != nil || o.Nested {
				keep = c.size()
			}
		} else if string(c.out[vs-c.n:]) != "null" {
			keep = c.size()
		}
		if c.build {
			out.Fields[fi] = RecordField{Label: f.Name, Value: v}
		}
	}
	c.free(fp)
	if c.count {
		c.n = keep
	} else {
		c.out = c.out[:keep-c.n]
	}
	c.emit("}")
	if !c.build {
		return nil, nil
	}
	return out, nil
}

func (c *checker) checkVariant(i int, id *lf.TypeConID, dt *lf.DataType, env *tenv, p *vpath, depth int) (Value, error) {
	tp := c.tp
	const shape = "Variant type json must have 'tag' and 'value' fields"
	if tp.kind(i) != tkObject {
		return nil, c.invalid(p, "%s, got %s", shape, tp.kindName(i))
	}
	tagI, valI := -1, -1
	for k := i + 1; k < tp.next(i); k = tp.next(k + 1) {
		switch {
		case tp.keyIs(k, "tag"):
			if tagI >= 0 {
				return nil, c.invalid(p, "duplicate variant key \"tag\"")
			}
			tagI = k + 1
		case tp.keyIs(k, "value"):
			if valI >= 0 {
				return nil, c.invalid(p, "duplicate variant key \"value\"")
			}
			valI = k + 1
		}
	}
	if tagI < 0 || valI < 0 {
		return nil, c.invalid(p, "%s", shape)
	}
	if tp.kind(tagI) != tkString {
		return nil, c.wrongKind(tagI, &vpath{parent: p, kind: 'f', name: "tag"}, "a JSON string", "a variant tag")
	}
	fi := -1
	if body, ok := tp.plainStr(tagI); ok {
		fi = c.fieldIndexBytes(dt, body)
	} else {
		fi = c.fieldIndex(dt, tp.str(tagI))
	}
	if fi < 0 {
		return nil, c.invalid(&vpath{parent: p, kind: 'f', name: "tag"}, "Unexpected variant tag: %s", nameList([]string{tp.str(tagI)}))
	}
	// The value keeps the type's constructor, the string the tag names.
	tag := dt.Fields[fi].Name
	c.emit(`{"tag":`)
	c.emitQuoted(tag)
	c.emit(`,"value":`)
	vp := c.path(vpath{parent: p, kind: 't', name: tag})
	v, err := c.value(valI, dt.Fields[fi].Type, env, vp, depth+1)
	if err != nil {
		return nil, err
	}
	c.free(vp)
	c.emit("}")
	if !c.build {
		return nil, nil
	}
	return Variant{VariantID: id, Constructor: tag, Rank: fi, Value: v}, nil
}

func (c *checker) checkEnum(i int, id *lf.TypeConID, dt *lf.DataType, p *vpath) (Value, error) {
	tp := c.tp
	if tp.kind(i) != tkString {
		return nil, c.wrongKind(i, p, "a JSON string naming a constructor", "enum "+id.Module+":"+id.Name)
	}
	rank := -1
	if body, ok := tp.plainStr(i); ok {
		rank = slices.IndexFunc(dt.Constructors, func(con string) bool { return con == string(body) })
	} else {
		rank = slices.Index(dt.Constructors, tp.str(i))
	}
	if rank < 0 {
		return nil, c.invalid(p, "Unexpected enum constructor %s of %s:%s: expected one of %s", quoteShort(tp.str(i)), id.Module, id.Name, nameList(dt.Constructors))
	}
	// The value keeps the type's constructor, the string it names.
	s := dt.Constructors[rank]
	c.emitQuoted(s)
	if !c.build {
		return nil, nil
	}
	return Enum{EnumID: id, Constructor: s, Rank: rank}, nil
}

func (c *checker) checkTextMap(i int, elem lf.Type, env *tenv, p *vpath, depth int) (Value, error) {
	tp := c.tp
	if tp.kind(i) != tkObject {
		return nil, c.wrongKind(i, p, "a JSON object", "TextMap")
	}
	type entry struct {
		key string
		val int
	}
	var entries []entry
	for k := i + 1; k < tp.next(i); k = tp.next(k + 1) {
		entries = append(entries, entry{c.str(k), k + 1})
	}
	// Sorting first lets the values be written in their final order.
	slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	for k := 1; k < len(entries); k++ {
		if entries[k].key == entries[k-1].key {
			return nil, c.invalid(p, "duplicate TextMap key %s", quoteShort(entries[k].key))
		}
	}
	var out TextMap
	if c.build {
		out = make(TextMap, 0, len(entries))
	}
	c.emit("{")
	kp := c.path(vpath{parent: p, kind: 'k'})
	for n, e := range entries {
		if n > 0 {
			c.emit(",")
		}
		c.emitQuoted(e.key)
		c.emit(":")
		kp.name = e.key
		v, err := c.value(e.val, elem, env, kp, depth+1)
		if err != nil {
			return nil, err
		}
		if c.build {
			out = append(out, TextMapEntry{Key: e.key, Value: v})
		}
	}
	c.free(kp)
	c.emit("}")
	if !c.build {
		return nil, nil
	}
	return out, nil
}

// checkGenMap checks a GenMap kt vt. Its keys are deduplicated and sorted
// on their canonical encodings, so the map is printed to c.out even when
// c.count is set (and then counted once done).
func (c *checker) checkGenMap(i int, kt, vt lf.Type, env *tenv, p *vpath, depth int) (Value, error) {
	tp := c.tp
	if tp.kind(i) != tkArray {
		return nil, c.wrongKind(i, p, "a JSON array of [key, value] arrays", "GenMap")
	}
	counting := c.count
	c.count = false
	type entry struct{ ks, ke, ve, at int }
	var entries []entry
	var kvs []GenMapEntry // the built entries, by input position
	start := len(c.out)
	ep := c.path(vpath{parent: p, kind: 'i'})
	for e, n := i+1, 0; e < tp.next(i); e, n = tp.next(e), n+1 {
		ep.index = n
		if tp.kind(e) != tkArray {
			return nil, c.wrongKind(e, ep, "a [key, value] array", "a GenMap entry")
		}
		k := e + 1
		if k >= tp.next(e) || tp.next(k) >= tp.next(e) {
			return nil, c.invalid(ep, "expected a [key, value] array for a GenMap entry, got an array of fewer than 2 elements")
		}
		ks := len(c.out)
		kp := c.path(vpath{parent: ep, kind: 'i', index: 0})
		kv, err := c.value(k, kt, env, kp, depth+1)
		if err != nil {
			return nil, err
		}
		c.free(kp)
		ke := len(c.out)
		vp := c.path(vpath{parent: ep, kind: 'i', index: 1})
		vv, err := c.value(tp.next(k), vt, env, vp, depth+1)
		if err != nil {
			return nil, err
		}
		c.free(vp)
		entries = append(entries, entry{ks, ke, len(c.out), len(kvs)})
		if c.build {
			kvs = append(kvs, GenMapEntry{Key: kv, Value: vv})
		}
	}
	c.free(ep)
	if len(entries) == 0 {
		c.out = append(c.out, '[', ']')
		c.endGenMap(counting)
		if !c.build {
			return nil, nil
		}
		return GenMap{}, nil
	}
	mid := len(c.out)
	if err := c.spend(3*(mid-start), p); err != nil {
		return nil, err
	}
	// The last of equal keys wins; equal values have equal encodings.
	type sorted struct {
		e   entry
		key *tape
	}
	index := make(map[string]int, len(entries))
	var uniq []sorted
	for _, e := range entries {
		k := string(c.out[e.ks:e.ke])
		if j, ok := index[k]; ok {
			uniq[j].e = e
			continue
		}
		ktp, serr := tokenize(c.out[e.ks:e.ke])
		if serr != nil {
			return nil, c.internal(p, "canonical GenMap key does not parse: %s", serr.msg)
		}
		index[k] = len(uniq)
		uniq = append(uniq, sorted{e, ktp})
	}
	var cmpErr error
	slices.SortStableFunc(uniq, func(a, b sorted) int {
		if cmpErr != nil {
			return 0
		}
		r, err := c.compare(a.key, 0, b.key, 0, kt, env, p, 0)
		if err != nil {
			cmpErr = err
		}
		return r
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	var out GenMap
	if c.build {
		out = make(GenMap, len(uniq))
	}
	c.out = append(c.out, '[')
	for n, u := range uniq {
		if n > 0 {
			c.out = append(c.out, ',')
		}
		c.out = append(c.out, '[')
		c.out = append(c.out, c.out[u.e.ks:u.e.ke]...)
		c.out = append(c.out, ',')
		c.out = append(c.out, c.out[u.e.ke:u.e.ve]...)
		c.out = append(c.out, ']')
		if c.build {
			out[n] = kvs[u.e.at]
		}
	}
	c.out = append(c.out, ']')
	n := copy(c.out[start:], c.out[mid:])
	c.out = c.out[:start+n]
	c.endGenMap(counting)
	if !c.build {
		return nil, nil
	}
	return out, nil
}

// endGenMap ends the printing of a GenMap: when the checker was counting
// before it (c.out then held only the map), the map is counted and
// c.out emptied.
func (c *checker) endGenMap(counting bool) {
	if !counting {
		return
	}
	c.n += len(c.out)
	c.out = c.out[:0]
	c.count = true
}

// ---------------------------------------------------------------------
// Daml-LF value order on canonical encodings (for GenMap keys).

// compare orders canonical values a[ai] and b[bi] of type t (-1 stands for
// an absent record field, that is None).
func (c *checker) compare(a *tape, ai int, b *tape, bi int, t lf.Type, env *tenv, p *vpath, depth int) (int, error) {
	if err := c.spend(1, p); err != nil {
		return 0, err
	}
	if depth > maxCheckDepth {
		return 0, c.invalid(p, "the value is nested too deeply")
	}
	head, args, aenv, err := c.whnf(t, env, p)
	if err != nil {
		return 0, err
	}
	switch h := head.(type) {
	case *lf.TBuiltin:
		switch h.Builtin {
		case lf.BuiltinUnit:
			return 0, nil
		case lf.BuiltinBool:
			return cmpBool(a.kind(ai) == tkTrue, b.kind(bi) == tkTrue), nil
		case lf.BuiltinInt64:
			x, _ := strconv.ParseInt(a.str(ai), 10, 64)
			y, _ := strconv.ParseInt(b.str(bi), 10, 64)
			return cmp.Compare(x, y), nil
		case lf.BuiltinNumeric:
			return cmpDecimal(a.str(ai), b.str(bi)), nil
		case lf.BuiltinText, lf.BuiltinParty, lf.BuiltinContractID, lf.BuiltinDate:
			return strings.Compare(a.str(ai), b.str(bi)), nil
		case lf.BuiltinTimestamp:
			x, _, _ := parseTimestamp(a.str(ai))
			y, _, _ := parseTimestamp(b.str(bi))
			return cmp.Compare(x, y), nil
		case lf.BuiltinOptional:
			_, _, nested := c.asOptional(args.at(0), aenv)
			return c.compareOptional(a, ai, b, bi, args.at(0), aenv, nested, p, depth)
		case lf.BuiltinList:
			return c.compareSeq(a, ai, b, bi, false, func(x, y int) (int, error) {
				return c.compare(a, x, b, y, args.at(0), aenv, p, depth+1)
			})
		case lf.BuiltinTextMap:
			return c.compareSeq(a, ai, b, bi, true, func(x, y int) (int, error) {
				// x and y are keys; the values follow them.
				if r := strings.Compare(a.str(x), b.str(y)); r != 0 {
					return r, nil
				}
				return c.compare(a, x+1, b, y+1, args.at(0), aenv, p, depth+1)
			})
		case lf.BuiltinGenMap:
			return c.compareSeq(a, ai, b, bi, false, func(x, y int) (int, error) {
				// x and y are [key, value] pairs.
				if r, err := c.compare(a, x+1, b, y+1, args.at(0), aenv, p, depth+1); r != 0 || err != nil {
					return r, err
				}
				return c.compare(a, a.next(x+1), b, b.next(y+1), args.at(1), aenv, p, depth+1)
			})
		}
	case *lf.TCon:
		dt, err := c.dataType(h.ID, p)
		if err != nil {
			return 0, err
		}
		if args.n != len(dt.Params) {
			return 0, c.internal(p, "data type %s:%s is applied to %d arguments", h.ID.Module, h.ID.Name, args.n)
		}
		var denv *tenv
		if args.n > 0 {
			denv = bind(dt.Params, args.list(), aenv)
		}
		switch dt.Variety {
		case lf.RecordVariety:
			for _, f := range dt.Fields {
				r, err := c.compare(a, member(a, ai, f.Name), b, member(b, bi, f.Name), f.Type, denv, p, depth+1)
				if r != 0 || err != nil {
					return r, err
				}
			}
			return 0, nil
		case lf.VariantVariety:
			at, bt := member(a, ai, "tag"), member(b, bi, "tag")
			if at < 0 || bt < 0 {
				return 0, c.internal(p, "canonical variant without a tag")
			}
			x, y := c.fieldIndex(dt, a.str(at)), c.fieldIndex(dt, b.str(bt))
			if x < 0 || y < 0 {
				return 0, c.internal(p, "canonical variant with an unknown tag")
			}
			if x != y {
				return cmp.Compare(x, y), nil
			}
			return c.compare(a, member(a, ai, "value"), b, member(b, bi, "value"), dt.Fields[x].Type, denv, p, depth+1)
		case lf.EnumVariety:
			return cmp.Compare(slices.Index(dt.Constructors, a.str(ai)), slices.Index(dt.Constructors, b.str(bi))), nil
		}
	}
	return 0, c.internal(p, "type %s has no order", t)
}

func (c *checker) compareOptional(a *tape, ai int, b *tape, bi int, elem lf.Type, env *tenv, nested bool, p *vpath, depth int) (int, error) {
	if !nested {
		an, bn := ai < 0 || a.kind(ai) == tkNull, bi < 0 || b.kind(bi) == tkNull
		if an || bn {
			return cmpBool(!an, !bn), nil
		}
		return c.compare(a, ai, b, bi, elem, env, p, depth+1)
	}
	an, bn := ai < 0 || a.next(ai) == ai+1, bi < 0 || b.next(bi) == bi+1
	if an || bn {
		return cmpBool(!an, !bn), nil
	}
	if inner, ienv, ok := c.asOptional(elem, env); ok {
		return c.compareOptional(a, ai+1, b, bi+1, inner, ienv, true, p, depth+1)
	}
	return c.compare(a, ai+1, b, bi+1, elem, env, p, depth+1)
}

// compareSeq orders two containers lexicographically by their children;
// for objects the children are the keys, and f reads the values after
// them.
func (c *checker) compareSeq(a *tape, ai int, b *tape, bi int, object bool, f func(x, y int) (int, error)) (int, error) {
	if ai < 0 || bi < 0 {
		return cmpBool(ai >= 0, bi >= 0), nil
	}
	step := func(tp *tape, i int) int {
		if object {
			return tp.next(i + 1)
		}
		return tp.next(i)
	}
	x, y := ai+1, bi+1
	for x < a.next(ai) && y < b.next(bi) {
		r, err := f(x, y)
		if r != 0 || err != nil {
			return r, err
		}
		x, y = step(a, x), step(b, y)
	}
	return cmpBool(x < a.next(ai), y < b.next(bi)), nil
}

// member returns the value of key in object i, or -1.
func member(tp *tape, i int, key string) int {
	if i < 0 || tp.kind(i) != tkObject {
		return -1
	}
	for k := i + 1; k < tp.next(i); k = tp.next(k + 1) {
		if tp.keyIs(k, key) {
			return k + 1
		}
	}
	return -1
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// cmpDecimal orders two canonical Numeric strings of the same scale.
func cmpDecimal(a, b string) int {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	a, b = strings.TrimPrefix(a, "-"), strings.TrimPrefix(b, "-")
	r := cmp.Compare(strings.IndexByte(a, '.'), strings.IndexByte(b, '.'))
	if r == 0 {
		r = strings.Compare(a, b)
	}
	if na {
		return -r
	}
	return r
}

// ---------------------------------------------------------------------
// Scalars.

// int64At parses string token i as parseInt64 does, without copying a
// short string without escapes.
func (tp *tape) int64At(i int) (int64, bool) {
	body, plain := tp.plainStr(i)
	if !plain || len(body) > 18 {
		return parseInt64(tp.str(i))
	}
	return parseShortInt64(body)
}

// parseShortInt64 is parseInt64 for at most 18 bytes (a sign and 17
// digits, or 18 digits: never out of range).
func parseShortInt64(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, d := range b {
		if !isDigit(d) {
			return 0, false
		}
		n = n*10 + int64(d-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseInt64 parses a Java Long.parseLong string with ASCII digits.
func parseInt64(s string) (int64, bool) {
	i := 0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		i = 1
	}
	if i == len(s) {
		return 0, false
	}
	for k := i; k < len(s); k++ {
		if !isDigit(s[k]) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// javaDoubleString renders a JSON number the way Canton's codec does: as
// Java's Double.toString of its double value (plain notation in
// [1e-3, 1e7), computerized scientific notation such as "1.0E7" outside).
func javaDoubleString(lit string) string {
	f, _ := strconv.ParseFloat(lit, 64)
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(exp, "+-")
	exp = strings.TrimLeft(exp, "0")
	if exp == "" {
		exp = "0"
	}
	if neg {
		exp = "-" + exp
	}
	return mant + "E" + exp
}

// Outcomes of canonicalNumeric.
const (
	numOK = iota
	numMalformed
	numPreprocessing
)

// canonicalNumeric checks s as a Numeric of the given scale: the Ledger
// API's syntax and 38-digit precision (malformed otherwise), then the
// engine's scale and bounds (preprocessing errors). It returns the
// canonical form: exactly scale decimals, "42." for scale 0.
func canonicalNumeric(s string, scale int) (string, int, string) {
	bad := func() (string, int, string) {
		return "", numMalformed, "Could not read Numeric string " + quoteShort(s)
	}
	i := 0
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i = 1
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	intPart, frac := s[i:j], ""
	if len(intPart) < 1 || len(intPart) > 38 {
		return bad()
	}
	if j < len(s) {
		if s[j] != '.' {
			return bad()
		}
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k != len(s) || k-(j+1) > 37 {
			return bad()
		}
		frac = s[j+1:]
	}
	intSig := strings.TrimLeft(intPart, "0")
	fracSig := strings.TrimRight(frac, "0")
	if len(intSig)+len(fracSig) > 38 {
		return bad()
	}
	if len(fracSig) > scale {
		return "", numPreprocessing, fmt.Sprintf("Cannot represent %s as (Numeric %d) without loss of precision", quoteShort(s), scale)
	}
	if len(intSig) > 38-scale {
		return "", numPreprocessing, fmt.Sprintf("Out-of-bounds (Numeric %d) %s", scale, quoteShort(s))
	}
	var b strings.Builder
	b.Grow(len(intSig) + scale + 3)
	if neg && (intSig != "" || fracSig != "") {
		b.WriteByte('-')
	}
	if intSig == "" {
		b.WriteByte('0')
	} else {
		b.WriteString(intSig)
	}
	b.WriteByte('.')
	b.WriteString(fracSig)
	for n := len(fracSig); n < scale; n++ {
		b.WriteByte('0')
	}
	return b.String(), numOK, ""
}

// validParty checks a Daml-LF party string with daml/lf's party syntax
// (lf.CheckParty: 1 to 255 characters of [a-zA-Z0-9:_ -]); it returns the
// problem in daml/value's words (the input quoted short), or "".
func validParty(s string) string {
	err := lf.CheckParty(s)
	if err == nil {
		return ""
	}
	var se *lf.SyntaxError
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Problem {
	case lf.SyntaxEmpty:
		return "Daml-LF Party is empty"
	case lf.SyntaxTooLong:
		return fmt.Sprintf("Daml-LF Party %s is too long (max: %d)", quoteShort(s), se.Max)
	default:
		return fmt.Sprintf("non expected character 0x%x in Daml-LF Party %s", se.Char, quoteShort(s))
	}
}

// validContractID checks a V1 or V2 contract id (lowercase hex) with
// daml/lf's contract-id syntax. It returns the problem, or "", and whether
// the problem is the engine's (a local or relative id) rather than a
// syntax error.
func validContractID(s string) (string, bool) {
	c, err := lf.ParseContractID(s)
	if err != nil {
		msg := "cannot parse ContractId " + quoteShort(s)
		var se *lf.SyntaxError
		if errors.As(err, &se) && se.Detail != "" {
			msg += ": " + se.Detail
		}
		return msg, false
	}
	switch {
	case c.IsLocal() && c.Version == lf.ContractIDV1:
		return fmt.Sprintf("Illegal Contract ID %s: non-suffixed V1 contract ids are forbidden", quoteShort(s)), true
	case c.IsLocal():
		return fmt.Sprintf("Illegal Contract ID %s: local contract ids are forbidden", quoteShort(s)), true
	case c.IsRelative():
		return fmt.Sprintf("Illegal Contract ID %s: relative contract ids are forbidden", quoteShort(s)), true
	}
	return "", false
}

// parseISODate parses Java's ISO_LOCAL_DATE (strict) at the start of s:
// a year of 4 digits, or a sign and 4 to 10 digits ("+" only with more
// than 4), then -MM-DD, validated in the proleptic Gregorian calendar.
func parseISODate(s string) (y int64, m, d int, rest string, ok bool) {
	i := 0
	signed, neg := false, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		signed, neg = true, s[i] == '-'
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) && j-i < 10 {
		j++
	}
	nd := j - i
	if nd < 4 || (!signed && nd > 4) || (signed && !neg && nd <= 4) {
		return 0, 0, 0, "", false
	}
	y, _ = strconv.ParseInt(s[i:j], 10, 64)
	if neg {
		if y == 0 {
			return 0, 0, 0, "", false
		}
		y = -y
	}
	if y > 999_999_999 || y < -999_999_999 {
		return 0, 0, 0, "", false
	}
	s = s[j:]
	if len(s) < 6 || s[0] != '-' || s[3] != '-' {
		return 0, 0, 0, "", false
	}
	m, ok1 := twoDigits(s[1:3])
	d, ok2 := twoDigits(s[4:6])
	if !ok1 || !ok2 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, "", false
	}
	return y, m, d, s[6:], true
}

func twoDigits(s string) (int, bool) {
	if len(s) != 2 || !isDigit(s[0]) || !isDigit(s[1]) {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

func daysIn(y int64, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// DaysFromCivil returns the days since 1970-01-01 of a proleptic
// Gregorian date (month 1–12; H. Hinnant's algorithm, valid for any year).
// It does not check the range of Date.
func DaysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays is the inverse of DaysFromCivil: the proleptic Gregorian
// year, month (1–12) and day of a day count since 1970-01-01.
func CivilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// The Timestamp range, in seconds since the epoch.
var (
	minTimestampSec = DaysFromCivil(1, 1, 1) * 86400
	maxTimestampSec = DaysFromCivil(9999, 12, 31)*86400 + 86399
)

// parseTimestamp parses Java's ISO_DATE_TIME into a ZonedDateTime: a
// local date-time (seconds and fraction optional, up to 9 fraction
// digits), a mandatory offset (Z or ±HH:MM[:SS]) and an optional [zone].
// It returns the microseconds since the epoch (sub-microseconds
// truncated), whether they are in the Daml-LF range, and whether s
// parsed.
func parseTimestamp(s string) (micros int64, inRange, ok bool) {
	y, mo, d, s, ok := parseISODate(s)
	if !ok || len(s) < 6 || (s[0] != 'T' && s[0] != 't') || s[3] != ':' {
		return 0, false, false
	}
	hh, ok1 := twoDigits(s[1:3])
	mm, ok2 := twoDigits(s[4:6])
	if !ok1 || !ok2 || hh > 23 || mm > 59 {
		return 0, false, false
	}
	s = s[6:]
	ss, nanos := 0, int64(0)
	if len(s) > 0 && s[0] == ':' {
		var ok bool
		if len(s) < 3 {
			return 0, false, false
		}
		if ss, ok = twoDigits(s[1:3]); !ok || ss > 59 {
			return 0, false, false
		}
		s = s[3:]
		if len(s) > 0 && s[0] == '.' {
			k := 1
			for k < len(s) && isDigit(s[k]) && k <= 9 {
				nanos = nanos*10 + int64(s[k]-'0')
				k++
			}
			for n := k - 1; n < 9; n++ {
				nanos *= 10
			}
			s = s[k:]
		}
	}
	if s == "" {
		return 0, false, false // a local date-time has no instant
	}
	off := int64(0)
	switch s[0] {
	case 'Z':
		s = s[1:]
	case '+', '-':
		if len(s) < 6 || s[3] != ':' {
			return 0, false, false
		}
		oh, ok1 := twoDigits(s[1:3])
		om, ok2 := twoDigits(s[4:6])
		if !ok1 || !ok2 || oh > 18 || om > 59 {
			return 0, false, false
		}
		off = int64(oh*3600 + om*60)
		rest := s[6:]
		if len(rest) >= 3 && rest[0] == ':' {
			os, ok := twoDigits(rest[1:3])
			if !ok || os > 59 {
				return 0, false, false
			}
			off += int64(os)
			rest = rest[3:]
		}
		if off > 18*3600 {
			return 0, false, false
		}
		if s[0] == '-' {
			off = -off
		}
		s = rest
	default:
		return 0, false, false
	}
	if s != "" {
		if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' || !validZoneRegion(s[1:len(s)-1]) {
			return 0, false, false
		}
	}
	sec := DaysFromCivil(y, mo, d)*86400 + int64(hh*3600+mm*60+ss) - off
	if sec < minTimestampSec || sec > maxTimestampSec {
		return 0, false, true
	}
	return sec*1_000_000 + nanos/1000, true, true
}

// validZoneRegion checks the syntax of a zone region id such as
// Europe/Paris or UTC (Java's ZoneId: [A-Za-z][A-Za-z0-9~/._+-]+, and
// prefixed offsets like UTC+01:00).
func validZoneRegion(z string) bool {
	if len(z) < 1 || len(z) > 100 {
		return false
	}
	for i := 0; i < len(z); i++ {
		c := z[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && (isDigit(c) || strings.IndexByte("~/._+-:", c) >= 0):
		default:
			return false
		}
	}
	return true
}

// int64Len returns len(strconv.AppendInt(nil, n, 10)).
func int64Len(n int64) int {
	l := 1
	if n < 0 {
		l++ // the sign; -n may overflow, so count on n/10
		if n /= 10; n == 0 {
			return l
		}
		n = -n
		l++
	}
	for ; n >= 10; n /= 10 {
		l++
	}
	return l
}

// timestampLen returns len(appendTimestamp(nil, micros)) for a Timestamp
// in the Daml-LF range (its year has 4 digits).
func timestampLen(micros int64) int {
	n := len("YYYY-MM-DDTHH:MM:SSZ")
	frac := micros - floorDiv(micros, 1_000_000)*1_000_000
	if frac > 0 {
		n += 7 // the point and 6 digits, less the trailing zeros
		for ; frac%10 == 0; frac /= 10 {
			n--
		}
	}
	return n
}

// appendTimestamp appends micros since the epoch as ISO-8601 UTC: seconds
// always, a fraction of up to 6 digits without trailing zeros, then Z.
func appendTimestamp(b []byte, micros int64) []byte {
	sec := floorDiv(micros, 1_000_000)
	frac := micros - sec*1_000_000
	days := floorDiv(sec, 86400)
	sod := sec - days*86400
	y, m, d := CivilFromDays(days)
	b = fmt.Appendf(b, "%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, sod/3600, sod/60%60, sod%60)
	if frac > 0 {
		f := fmt.Sprintf("%06d", frac)
		b = append(b, '.')
		b = append(b, strings.TrimRight(f, "0")...)
	}
	return append(b, 'Z')
}
