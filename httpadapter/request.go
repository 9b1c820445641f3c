package httpadapter

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/julienschmidt/httprouter"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/internal/jsontext"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// request is what a handler decodes from.
type request struct {
	w       http.ResponseWriter
	r       *http.Request
	ctx     context.Context // the request context with the Principal attached
	params  httprouter.Params
	maxBody int64
	q       url.Values // parsed query, lazily
	reply   jsonReply  // a handler's JSON answer, written in place (submitAndWait's)

	// The block a submission's body is decoded into (block), in the
	// request's allocation.
	blk      commandsBlock
	blkTaken bool
}

// block returns the block fastJsCommands decodes a submission into: rq's
// own, once (a new one for a nil rq).
func (rq *request) block() *commandsBlock {
	if rq == nil || rq.blkTaken {
		return new(commandsBlock)
	}
	rq.blkTaken = true
	return &rq.blk
}

// jsonReply is a JSON answer (and its newline) a handler wrote in its
// request's own bytes: returned as a *jsonReply, respond writes body with
// status 200. It spares a submit-and-wait answer an allocation for its
// bytes and one for the interface holding its result.
type jsonReply struct {
	body []byte
	buf  [128]byte // body's first bytes
}

// newRequest returns the record of a request to decode, in e's allocation
// (once) when the request has an access-log entry.
func newRequest(e *accessEntry) *request {
	if e != nil && !e.rqTaken {
		e.rqTaken = true
		return &e.rq
	}
	return new(request)
}

// decodeError is a failure to decode a body, path, query or header value.
// It is answered as Canton's tapir layer does: 400 text/plain
// "Invalid value for: <what> (<detail>)".
type decodeError struct {
	what   string // "body", "path parameter party", "query parameter pageSize", …
	detail string
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("Invalid value for: %s (%s)", e.what, e.detail)
}

func invalidBody(detail string) error { return &decodeError{"body", detail} }

func invalidPath(name, detail string) error {
	return &decodeError{"path parameter " + name, detail}
}

func invalidQuery(name, detail string) error {
	return &decodeError{"query parameter " + name, detail}
}

func invalidHeader(name, detail string) error {
	return &decodeError{"header " + name, detail}
}

// pathParam returns the named path parameter, percent-decoded (the router
// matches on the escaped path).
func (rq *request) pathParam(name string) (string, error) {
	v, err := url.PathUnescape(rq.params.ByName(name))
	if err != nil {
		return "", invalidPath(name, err.Error())
	}
	return v, nil
}

func (rq *request) values() url.Values {
	if rq.q == nil {
		// parseQuery has run before the handler (checkQuery): a query it
		// cannot decode never reaches here.
		rq.q, _ = parseQuery(rq.r.URL.RawQuery)
	}
	return rq.q
}

// parseQuery decodes a raw query string: "&"-separated name=value pairs,
// percent-encoded, "+" for a space. A pair holding a ";" is dropped, as
// net/http's Query drops it. A name or value that cannot be
// percent-decoded (?identity-provider-id=%zz) is a decodeError naming the
// parameter (400 text/plain, as for any query value tapir cannot decode).
//
// A query without a pair is nil (which reads as empty): most requests
// have none, and need no map.
func parseQuery(raw string) (url.Values, error) {
	if raw == "" {
		return nil, nil // most requests: no pair to look for
	}
	var vs url.Values
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			return nil, &decodeError{"query", err.Error()}
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			return nil, invalidQuery(name, err.Error())
		}
		if vs == nil {
			vs = url.Values{}
		}
		vs[name] = append(vs[name], value)
	}
	return vs, nil
}

// checkQuery wraps a handler so that the request's query string is
// decoded before anything else of the request: an undecodable one is a
// 400 text/plain on every route, whether or not the route reads a query
// parameter.
func checkQuery(h handlerFunc) handlerFunc {
	return func(a *adapter, rq *request) (any, error) {
		q, err := parseQuery(rq.r.URL.RawQuery)
		if err != nil {
			return nil, err
		}
		rq.q = q
		return h(a, rq)
	}
}

// query returns the first value of a query parameter ("" when absent).
func (rq *request) query(name string) string { return rq.values().Get(name) }

// queryAll returns every value of a repeated query parameter (?p=a&p=b).
func (rq *request) queryAll(name string) []string { return rq.values()[name] }

// has reports whether the query names a parameter (with any value).
func (rq *request) has(name string) bool { return len(rq.values()[name]) > 0 }

// queryInt32 parses an optional int32 query parameter (0 when absent).
func (rq *request) queryInt32(name string) (int32, error) {
	v, err := rq.queryInt(name, 32)
	return int32(v), err
}

// queryInt64 parses an optional int64 query parameter (0 when absent).
func (rq *request) queryInt64(name string) (int64, error) { return rq.queryInt(name, 64) }

func (rq *request) queryInt(name string, bits int) (int64, error) {
	s, ok := rq.values()[name]
	if !ok || len(s) == 0 {
		return 0, nil
	}
	v, err := strconv.ParseInt(s[0], 10, bits)
	if err != nil {
		// The message of Java's NumberFormatException, which Canton prints.
		return 0, invalidQuery(name, fmt.Sprintf("For input string: %q", apierr.Quote(s[0])))
	}
	return v, nil
}

// queryBool parses an optional boolean query parameter ("true"/"false"),
// returning def when it is absent.
func (rq *request) queryBool(name string, def bool) (bool, error) {
	s, ok := rq.values()[name]
	if !ok || len(s) == 0 {
		return def, nil
	}
	switch s[0] {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, invalidQuery(name, fmt.Sprintf("For input string: %q", apierr.Quote(s[0])))
}

// readBody reads the request body up to the adapter's limit. A larger body
// is a REQUEST_ENTITY_TOO_LARGE error (413).
func (rq *request) readBody() ([]byte, error) {
	tooLarge := func() error {
		return apierr.RequestTooLarge.New("The request body exceeds the limit of %d bytes", rq.maxBody)
	}
	if rq.r.ContentLength > rq.maxBody {
		return nil, tooLarge()
	}
	var data []byte
	var err error
	if _, ok := rq.w.(*timeoutWriter); ok && sized(rq.r.ContentLength) {
		// What http.MaxBytesReader reads, without its allocation: its
		// requestTooLarge call is for net/http's own writer only.
		l := bodyLimit{r: rq.r.Body, max: rq.maxBody, n: rq.maxBody}
		data, err = readSized(l.read, rq.r.ContentLength)
	} else {
		data, err = readAll(http.MaxBytesReader(rq.w, rq.r.Body, rq.maxBody), rq.r.ContentLength)
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge()
		}
		return nil, invalidBody(err.Error())
	}
	return data, nil
}

// readAll is io.ReadAll, its buffer sized for a body of the announced
// length (when known, -1 otherwise): the body and the read that finds its
// end fit without growing it.
func readAll(r io.Reader, length int64) ([]byte, error) {
	if !sized(length) {
		return io.ReadAll(r)
	}
	return readSized(r.Read, length)
}

// sized reports whether readSized reads a body of the announced length:
// a known one under 1 MiB.
func sized(length int64) bool { return length >= 0 && length < 1<<20 }

// readSized is readAll for a sized length, reading with read.
func readSized(read func([]byte) (int, error), length int64) ([]byte, error) {
	b := make([]byte, 0, length+1)
	for {
		n, err := read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // a body longer than announced
		}
	}
}

// bodyLimit is http.MaxBytesReader's limit, for a writer without its
// requestTooLarge (a value, not an allocation).
type bodyLimit struct {
	r      io.Reader
	max, n int64 // the limit (positive), the bytes left
	err    error // sticky
}

// read is the Read of http.MaxBytesReader.
func (l *bodyLimit) read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	// Past the limit, one byte more tells that the body is too large.
	if int64(len(p))-1 > l.n {
		p = p[:l.n+1]
	}
	n, err := l.r.Read(p)
	if int64(n) <= l.n {
		l.n -= int64(n)
		l.err = err
		return n, err
	}
	n = int(l.n)
	l.n = 0
	l.err = &http.MaxBytesError{Limit: l.max}
	return n, l.err
}

// decodeBody reads and decodes the JSON request body into a Req. Any
// Content-Type (or none) is accepted; unknown fields are ignored.
func decodeBody[Req any](rq *request) (Req, error) {
	var v Req
	err := decodeBodyInto(rq, &v)
	return v, err
}

// decodeBodyInto is decodeBody into *v, set only when the body decodes: a
// submission (a large record) is decoded where its handler keeps it, not
// copied from result to result on the way.
func decodeBodyInto[Req any](rq *request, v *Req) error {
	data, err := rq.readBody()
	if err != nil {
		return err
	}
	return decodeJSONInto(data, rq, v)
}

// decodeJSON decodes one JSON value into a T. Failures are decodeErrors
// for the body ("Invalid value for: body (…)"). The body must be UTF-8, as
// for Canton's parser (encoding/json would silently turn invalid bytes
// into U+FFFD). A struct target needs a JSON object, as Canton's decoders
// do (null and other values are rejected); unknown fields are ignored.
func decodeJSON[T any](data []byte) (T, error) {
	var v T
	err := decodeJSONInto(data, nil, &v)
	return v, err
}

// decodeJSONInto is decodeJSON into *v (set only when data decodes) for
// the body of rq (nil: none), whose allocation holds what a submission
// decodes into (request.block).
func decodeJSONInto[T any](data []byte, rq *request, v *T) error {
	// JSON's whitespace only (RFC 8259): bytes.TrimSpace would also drop
	// \v, \f and Unicode spaces, which no JSON parser accepts.
	trimmed := jsontext.TrimSpace(data)
	if len(trimmed) == 0 {
		return invalidBody("the body is empty, expected a JSON value")
	}
	// A submission's fast path checks the UTF-8 of what it reads itself
	// (a body it decodes is valid UTF-8, an object): the look at every
	// byte below is for the bodies it leaves.
	c, commands := any(v).(*jsonapi.JsCommands)
	if commands && trimmed[0] == '{' && fastJsCommandsIn(trimmed, c, rq.block()) {
		return nil
	}
	if !utf8.Valid(trimmed) {
		return invalidBody("malformed JSON: the body is not valid UTF-8")
	}
	if reflect.TypeFor[T]().Kind() == reflect.Struct && trimmed[0] != '{' {
		if err := json.Unmarshal(trimmed, new(any)); err != nil {
			return invalidBody(describeJSONError(err))
		}
		return invalidBody(fmt.Sprintf("expected a JSON object, got %s", jsonKind(trimmed[0])))
	}
	// A value of its own for json.Unmarshal, which keeps *v as it was
	// when the body does not decode, and v on the caller's stack.
	p := new(T)
	if err := json.Unmarshal(trimmed, p); err != nil {
		return invalidBody(describeJSONError(err))
	}
	*v = *p
	return nil
}

// describeJSONError turns an encoding/json error into a detail naming the
// JSON path, like Canton's "<problem> at '<path>'".
func describeJSONError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ce base64.CorruptInputError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON: %s at offset %d", strings.TrimPrefix(se.Error(), "json: "), se.Offset)
	case errors.As(err, &te):
		at := te.Field
		if at == "" {
			at = "."
		}
		if o, ok := oneOfOf(te.Type); ok && te.Value == "object" {
			// An object naming none of the one-of's variants.
			return fmt.Sprintf("expected one of %s at '%s'", strings.Join(o.Variants(), ", "), apierr.Quote(at))
		}
		return fmt.Sprintf("expected %s, got %s at '%s'", jsonTypeName(te.Type), apierr.Quote(te.Value), apierr.Quote(at))
	case errors.As(err, &ce):
		// A bytes field (preparedTransaction, signature, …), in the words
		// of Canton's bytes codec (JsSchema.BYTE_STRING_PARSE_ERROR_TEMPLATE).
		return "The string is not a valid Base64: " + ce.Error()
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: unexpected end of input"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonTypeName names the JSON type a Go type decodes from.
func jsonTypeName(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer (" + t.Kind().String() + ")"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer (" + t.Kind().String() + ")"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

// jsonKind names the JSON value starting with byte c.
func jsonKind(c byte) string {
	switch {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return "a number"
}

// oneOfOf returns the jsonapi.OneOf a decoded type is (t may be nil).
func oneOfOf(t reflect.Type) (jsonapi.OneOf, bool) {
	if t == nil || t.Kind() != reflect.Struct {
		return nil, false
	}
	o, ok := reflect.Zero(t).Interface().(jsonapi.OneOf)
	return o, ok
}
