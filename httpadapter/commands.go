package httpadapter

import (
	"encoding/base64"
	"fmt"
)

// The rules of the command, update and state bodies (one-of variants,
// identifiers, enum names, timestamps) are the Node's (ledger/checks.go),
// applied to every caller alike; a violation reaches the adapter as an
// apierr.Malformed error, which fail answers as Canton's 400 text/plain
// decode failure. Only what is part of reading JSON is done here: a bytes
// field is base64.

// canonicalBase64 checks a bytes field (a page or continuation token) and
// returns it in the padded standard form the Node reads. Like Java's
// Base64 decoder, it accepts the standard alphabet with or without
// padding; "" is no token.
func canonicalBase64(s, at string) (string, error) {
	if s == "" {
		return "", nil
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		var rawErr error
		if b, rawErr = base64.RawStdEncoding.Strict().DecodeString(s); rawErr != nil {
			return "", invalidBody(fmt.Sprintf("The string is not a valid Base64: %v at '%s'", err, at))
		}
	}
	return base64.StdEncoding.EncodeToString(b), nil
}
