package lf

import (
	"fmt"
	"sync"
)

// bodySource decodes the bodies of a decoded package's values on demand:
// the package's decoder, with the tables it decoded (strings, names,
// kinds, types, the bytes and depths of the interned expressions) and the
// interned expressions decoded since. Its lock serializes the decodings.
type bodySource struct {
	mu sync.Mutex
	d  *decoder
}

// keep decodes v's body, keeps it in v and returns it.
func (s *bodySource) keep(v *DefValue) Expr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := v.body.Load(); b != nil {
		return b.e // another caller decoded it meanwhile
	}
	e := mustDecodeBody(s.d, v)
	v.body.Store(&exprBox{e})
	return e
}

// fork returns a decoder for a BodyReader: the tables are s's, read only
// and shared; the memos and the decoded nodes are its own.
func (s *bodySource) fork() *decoder {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := *s.d
	f.exprState = exprState{rawExprs: s.d.rawExprs, heights: s.d.heights, kept: map[int]Expr{}}
	f.refs, f.tyCons, f.shortTyCons = map[string]bool{}, map[string]TypeConID{}, nil
	return &f
}

// mustDecodeBody decodes v's body with d. The package's decoding decoded
// the same bytes with the same tables without error, so that an error
// here is a bug of the decoder.
func mustDecodeBody(d *decoder, v *DefValue) Expr {
	e, err := d.expr(d.bytes(v.raw), 0)
	if err != nil {
		panic(fmt.Sprintf("lf: decoding again the body of value %s of package %s, which decoded before: %v", v.Name, d.id, err))
	}
	return e
}

// A BodyReader reads the bodies of one package's values once each, for a
// walk over the whole package (the type checker's): a body the package has
// not decoded yet is decoded for the reader, with the interned expressions
// it refers to, and the package does not keep it. The reader's decodings
// are garbage with it. A BodyReader is for one goroutine.
type BodyReader struct {
	src  *bodySource
	d    *decoder
	read map[*DefValue]Expr // what it decoded, for a second walk
}

// NewBodyReader returns a reader of p's bodies.
func (p *Package) NewBodyReader() *BodyReader { return &BodyReader{src: p.bodies} }

// Body returns v's body: the one v keeps, or one decoded for the reader
// when v is a value of the reader's package not decoded yet, or else
// v.Body().
func (r *BodyReader) Body(v *DefValue) Expr {
	if b := v.body.Load(); b != nil {
		return b.e
	}
	if v.src != r.src || r.src == nil {
		return v.Body()
	}
	if e, ok := r.read[v]; ok {
		return e
	}
	if r.d == nil {
		r.d, r.read = r.src.fork(), map[*DefValue]Expr{}
	}
	e := mustDecodeBody(r.d, v)
	r.read[v] = e
	return e
}
