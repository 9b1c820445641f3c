// Package jsontext writes JSON strings byte for byte as encoding/json
// does, with or without its HTML escaping, without reflection: the
// node's stored forms are json.Marshal's (HTML-safe), the JSON API's
// answers its encoder's with SetEscapeHTML(false), as Canton's are.
package jsontext

import "unicode/utf8"

// AppendString appends s as a JSON string as encoding/json writes it: '"',
// '\' and control characters escaped (\b, \f, \n, \r, \t, else \u00XX),
// U+2028 and U+2029 escaped, invalid UTF-8 replaced by \ufffd; with html
// also <, > and & (as \u003c, \u003e, \u0026), json.Marshal's default.
func AppendString(dst []byte, s string, html bool) []byte {
	dst = append(dst, '"')
	dst = AppendStringBody(dst, s, html)
	return append(dst, '"')
}

// AppendStringBody is AppendString without the quotes.
func AppendStringBody(dst []byte, s string, html bool) []byte {
	const hex = "0123456789abcdef"
	safe := &plainSafe
	if html {
		safe = &htmlSafe
	}
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if safe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control bytes; with html, <, > and &
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// plainSafe and htmlSafe mark the ASCII bytes encoding/json copies into a
// string as they are, without and with HTML escaping.
var plainSafe, htmlSafe = func() (plain, html [utf8.RuneSelf]bool) {
	for b := range utf8.RuneSelf {
		plain[b] = b >= 0x20 && b != '"' && b != '\\'
		html[b] = plain[b] && b != '<' && b != '>' && b != '&'
	}
	return plain, html
}()
