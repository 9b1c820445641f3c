package lf

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// Identifier names a template, interface or other top-level definition:
// a package reference, a module and an entity. Its text form is
// "<package>:<Module.Name>:<Entity.Name>", where the package is a package
// id or "#" followed by a package name (Canton's TypeConRef).
type Identifier struct {
	// PackageID is the package id, or "" when the package is named by
	// PackageName.
	PackageID string
	// PackageName is the package name of a "#name" reference, or "".
	PackageName string
	// Module is the module's dotted name.
	Module string
	// Entity is the entity's dotted name.
	Entity string
}

// identifierFormat is the shape Canton's JSON codec names in its error.
const identifierFormat = "<package>:<moduleName>:<entityName>"

// SplitIdentifier splits s into its three parts as Canton's JSON codec
// does (Java's String.split(":"), which drops trailing empty parts): there
// must be exactly three parts, which may be empty. A first part starting
// with '#' is a package name. It does not check the parts' syntax
// (Validate does). The error is a KindIdentifier *Error whose message is
// Canton's: "Invalid identifier format (s) not matching the expected
// format (<package>:<moduleName>:<entityName>)".
func SplitIdentifier(s string) (Identifier, error) {
	// Split's dropped trailing empty parts are the trailing colons; cut
	// rather than split, as stored ids are split on every read.
	pkg, rest, ok := strings.Cut(strings.TrimRight(s, ":"), ":")
	mod, entity, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || strings.Contains(entity, ":") {
		return Identifier{}, newError(KindIdentifier,
			"Invalid identifier format (%s) not matching the expected format (%s)", s, identifierFormat)
	}
	id := Identifier{Module: mod, Entity: entity}
	if name, ok := strings.CutPrefix(pkg, "#"); ok {
		id.PackageName = name
	} else {
		id.PackageID = pkg
	}
	return id, nil
}

// ParseIdentifier parses and validates an identifier: SplitIdentifier,
// then Validate.
func ParseIdentifier(s string) (Identifier, error) {
	id, err := SplitIdentifier(s)
	if err != nil {
		return Identifier{}, err
	}
	if err := id.Validate(); err != nil {
		return Identifier{}, err
	}
	return id, nil
}

// Validate checks the parts' syntax in Canton's order
// (FieldValidator.validateTypeConRef): the module and the entity are
// DottedNames, the package a PackageId or a PackageName. The error is a
// KindIdentifier *Error; Field names the part ("module_name",
// "entity_name" or "package reference") and Err is the part's
// *SyntaxError. The message is "Invalid field <field>: <syntax error>".
func (id Identifier) Validate() error {
	bad := func(field string, err error) error {
		e := wrapError(KindIdentifier, err, "Invalid field %s: %v", field, err)
		e.Field = field
		return e
	}
	if err := CheckDottedName(id.Module); err != nil {
		return bad("module_name", err)
	}
	if err := CheckDottedName(id.Entity); err != nil {
		return bad("entity_name", err)
	}
	var err error
	if id.PackageID != "" || id.PackageName == "" {
		err = CheckPackageID(id.PackageID)
	} else {
		err = CheckPackageName(id.PackageName)
	}
	if err != nil {
		return bad("package reference", err)
	}
	return nil
}

// ByName reports whether the identifier names its package by name.
func (id Identifier) ByName() bool { return id.PackageID == "" && id.PackageName != "" }

// PackageRef returns the package part of the text form: the package id,
// or "#" and the package name.
func (id Identifier) PackageRef() string {
	if id.ByName() {
		return "#" + id.PackageName
	}
	return id.PackageID
}

// QualifiedName returns "<Module>:<Entity>".
func (id Identifier) QualifiedName() string { return id.Module + ":" + id.Entity }

// String returns the text form "<package>:<Module>:<Entity>".
func (id Identifier) String() string { return id.PackageRef() + ":" + id.Module + ":" + id.Entity }

// ContractIDVersion is the version of a contract id, its first byte.
type ContractIDVersion byte

// The contract-id versions (contract-id.rst).
const (
	// ContractIDV1: 0x00, a 32-byte discriminator, a suffix of at most 94
	// bytes. Canton 3.5 submits V1 ids.
	ContractIDV1 ContractIDVersion = 0x00
	// ContractIDV2: 0x01, a 12-byte local part (5-byte time prefix and
	// discriminator), a suffix of at most 33 bytes whose first byte is 0x00
	// (relative) or 0x80 (absolute).
	ContractIDV2 ContractIDVersion = 0x01
)

// ContractID is a parsed contract id.
type ContractID struct {
	// Version is the id's version.
	Version ContractIDVersion
	// Local is the discriminator (V1) or local part (V2).
	Local []byte
	// Suffix is the suffix; empty for an id not yet committed (a local id).
	Suffix []byte
}

// The sizes of the parts of contract ids.
const (
	v1LocalSize     = 32
	v1MaxSuffixSize = 94
	v2LocalSize     = 12
	v2MaxSuffixSize = 33
)

// ParseContractID parses the text form of a contract id: lowercase hex of
// a V1 or V2 id (contract-id.rst). Local (unsuffixed) and relative ids
// parse; whether they are allowed is the caller's rule (IsLocal,
// IsRelative). The error is a *SyntaxError with Problem SyntaxBadForm;
// its Detail says when the suffix is too long.
func ParseContractID(s string) (ContractID, error) {
	bad := func(detail string) error {
		msg := fmt.Sprintf(`cannot parse ContractId "%s"`, s)
		if detail != "" {
			msg += ": " + detail
		}
		return &SyntaxError{Syntax: "ContractId", Input: s, Problem: SyntaxBadForm, Detail: detail, msg: msg}
	}
	if len(s) < 2 || len(s)%2 != 0 {
		return ContractID{}, bad("")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return ContractID{}, bad("")
		}
	}
	b, _ := hex.DecodeString(s)
	var local, max int
	switch v := ContractIDVersion(b[0]); v {
	case ContractIDV1:
		local, max = v1LocalSize, v1MaxSuffixSize
	case ContractIDV2:
		local, max = v2LocalSize, v2MaxSuffixSize
	default:
		return ContractID{}, bad("")
	}
	if len(b) < 1+local {
		return ContractID{}, bad("")
	}
	if n := len(b) - 1 - local; n > max {
		return ContractID{}, bad(fmt.Sprintf("the suffix is too long, expected at most %d bytes, but got %d", max, n))
	}
	return ContractID{Version: ContractIDVersion(b[0]), Local: b[1 : 1+local], Suffix: b[1+local:]}, nil
}

// IsContractID reports whether s is the text form of a V1 or V2 contract
// id (ParseContractID).
func IsContractID(s string) bool {
	_, err := ParseContractID(s)
	return err == nil
}

// IsLocal reports whether the id has no suffix: an id of a contract
// created by the transaction being built, not yet committed.
func (c ContractID) IsLocal() bool { return len(c.Suffix) == 0 }

// IsRelative reports whether a V2 id's suffix is relative (its first byte
// is below 0x80). V1 ids are never relative.
func (c ContractID) IsRelative() bool {
	return c.Version == ContractIDV2 && len(c.Suffix) > 0 && c.Suffix[0] < 0x80
}

// String returns the text form, lowercase hex.
func (c ContractID) String() string {
	b := make([]byte, 0, 1+len(c.Local)+len(c.Suffix))
	b = append(append(append(b, byte(c.Version)), c.Local...), c.Suffix...)
	return hex.EncodeToString(b)
}
