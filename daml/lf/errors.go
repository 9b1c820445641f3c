package lf

import "fmt"

// ErrorKind says which check an *Error comes from. The ledger maps each
// kind to one Canton error code.
type ErrorKind int

// The kinds of *Error.
const (
	// KindInvalidDAR: the DAR is not a readable zip, or its manifest is
	// missing, invalid or of an unsupported format.
	KindInvalidDAR ErrorKind = iota + 1
	// KindInvalidZipEntry: a zip entry is unusable: a path trick, a
	// duplicate, a corrupt or truncated entry, or a dalf the manifest lists
	// but the DAR lacks. Entry names it.
	KindInvalidZipEntry
	// KindZipBomb: an entry, or the DAR as a whole, inflates beyond the size
	// limits of ReadOptions. Entry names the entry when one is to blame.
	KindZipBomb
	// KindParse: a dalf or payload is not a well-formed Daml-LF archive
	// (malformed protobuf, mismatching hashes, unknown LF version, a
	// package that does not decode). Dalf names the dalf inside a DAR.
	KindParse
	// KindLanguageVersion: a package uses an LF version the ReadOptions do
	// not accept. PackageID and LanguageVersion say which.
	KindLanguageVersion
	// KindDependencies: a DAR's packages are not exactly the transitive
	// dependencies of its main package. MainPackageID, Missing and Extra
	// say how.
	KindDependencies
	// KindIdentifier: a string is not a valid identifier
	// (<package>:<module>:<entity>); Field says which part is bad. See
	// SplitIdentifier and Identifier.Validate.
	KindIdentifier
)

var kindNames = map[ErrorKind]string{
	KindInvalidDAR:      "InvalidDAR",
	KindInvalidZipEntry: "InvalidZipEntry",
	KindZipBomb:         "ZipBomb",
	KindParse:           "Parse",
	KindLanguageVersion: "LanguageVersion",
	KindDependencies:    "Dependencies",
	KindIdentifier:      "Identifier",
}

// String returns the kind's Go name without the Kind prefix ("ZipBomb").
func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is the error type of the DAR, archive and identifier functions of
// this package. Message is the complete human-readable explanation (the
// ledger sends it as the cause); the other fields are the structured
// context of the kinds that have one, and are empty otherwise.
type Error struct {
	// Kind says which check failed.
	Kind ErrorKind
	// Message explains the failure.
	Message string

	// Entry is the zip entry at fault (KindInvalidZipEntry, KindZipBomb),
	// or "".
	Entry string
	// Dalf is the path of the dalf that does not decode, when it was read
	// from a DAR (KindParse), or "".
	Dalf string
	// PackageID and LanguageVersion name the package whose LF version is
	// refused (KindLanguageVersion).
	PackageID       string
	LanguageVersion string
	// MainPackageID is the DAR's main package; Missing are the ids it
	// needs that the DAR lacks, Extra the packages of the DAR it does not
	// need, both sorted (KindDependencies).
	MainPackageID string
	Missing       []string
	Extra         []string
	// Field is the part of an identifier that is invalid
	// (KindIdentifier): "module_name", "entity_name" or "package
	// reference"; "" when the identifier does not have three parts.
	Field string

	// Err is the underlying error, if any (e.g. the zip reader's).
	Err error
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// newError builds an *Error of kind k with a formatted message.
func newError(k ErrorKind, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Kind: k, Message: msg}
}

// wrapError is newError keeping err as the underlying error.
func wrapError(k ErrorKind, err error, format string, args ...any) *Error {
	e := newError(k, format, args...)
	e.Err = err
	return e
}

// entryError is an *Error of kind k about the zip entry name.
func entryError(k ErrorKind, name, format string, args ...any) *Error {
	e := newError(k, format, args...)
	e.Entry = name
	return e
}

// withErr sets e's underlying error and returns e.
func withErr(e *Error, err error) *Error {
	e.Err = err
	return e
}
