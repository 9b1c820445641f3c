package identity

import (
	"errors"
	"regexp"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
)

// MaxAnnotationsSize is the largest total size, in UTF-8 bytes of keys and
// values, of a resource's annotations (256 KiB).
const MaxAnnotationsSize = 256 * 1024

// ErrAnnotationsTooLarge is wrapped by the KindAnnotationsTooLarge *Error
// ValidateAnnotations returns when the annotations exceed
// MaxAnnotationsSize.
var ErrAnnotationsTooLarge = errors.New("annotations exceed the maximum size of 256kb")

var (
	annotationName  = regexp.MustCompile(`^([a-zA-Z0-9]+[a-zA-Z0-9.\-_]*)?[a-zA-Z0-9]+$`)
	dnsLabelPattern = regexp.MustCompile(`^([a-zA-Z0-9]+[a-zA-Z0-9-]*)?[a-zA-Z0-9]+$`)
)

// ValidateAnnotationKey checks a key of the form [prefix/]name: name has at
// most 63 characters, alphanumeric at both ends with '.', '-', '_' inside;
// prefix is a DNS subdomain of at most 253 characters.
func ValidateAnnotationKey(key string) error {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		name, prefix = key, ""
	}
	if len(name) > 63 || !annotationName.MatchString(name) {
		return newError(KindInvalid, "invalid annotation key %q: the name segment must be 1 to 63 characters [a-zA-Z0-9._-] starting and ending alphanumeric", apierr.Quote(key))
	}
	if hasPrefix {
		if len(prefix) > 253 || prefix == "" {
			return newError(KindInvalid, "invalid annotation key %q: the prefix must be a DNS subdomain of 1 to 253 characters", apierr.Quote(key))
		}
		for _, label := range strings.Split(prefix, ".") {
			if !dnsLabelPattern.MatchString(label) {
				return newError(KindInvalid, "invalid annotation key %q: the prefix must be a DNS subdomain", apierr.Quote(key))
			}
		}
	}
	return nil
}

// ValidateAnnotations checks annotation keys and the total size. On create
// (forUpdate false) an empty value is an error; on update an empty value
// means "delete this key" and does not count towards the size. Errors are
// *Error values of kind KindInvalid or KindAnnotationsTooLarge.
func ValidateAnnotations(annotations map[string]string, forUpdate bool) error {
	size := 0
	for k, v := range annotations {
		if err := ValidateAnnotationKey(k); err != nil {
			return err
		}
		if v == "" {
			if !forUpdate {
				return newError(KindInvalid, "the value of annotation %q is empty", apierr.Quote(k))
			}
			continue
		}
		size += len(k) + len(v)
	}
	if size > MaxAnnotationsSize {
		return wrapError(KindAnnotationsTooLarge, ErrAnnotationsTooLarge, "%v: %d bytes", ErrAnnotationsTooLarge, size)
	}
	return nil
}
