package lf

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
)

// The LF minors the decoder recognises (DamlLfVersion.scala). LF 1 minors
// can be read but no participant accepts them.
var (
	lf1Minors = map[string]bool{"6": true, "7": true, "8": true, "11": true, "12": true,
		"13": true, "14": true, "15": true, "17": true, "dev": true}
	lf2Minors            = map[string]bool{"1": true, "2": true, "3": true, "dev": true}
	lf2DiscontinuedMinor = map[string]bool{"3-rc1": true, "3-rc2": true}
)

// DecodeArchive decodes one dalf (a serialized Daml-LF Archive): it checks
// the hash, reads the LF version and decodes the LF 2 package, then applies
// the LF version policy of opts. Errors are *Error values of kind
// KindParse or KindLanguageVersion.
func DecodeArchive(dalf []byte, opts ReadOptions) (*Package, error) {
	p, err := decodeArchive(dalf)
	if err != nil {
		return nil, parseErr(err, "")
	}
	if err := checkLanguageVersion(p, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// DecodePayload decodes a serialized ArchivePayload (the bytes the Ledger
// API serves as a package); the package id is its SHA-256. The LF version
// policy of opts applies as in DecodeArchive.
func DecodePayload(payload []byte, opts ReadOptions) (*Package, error) {
	sum := sha256.Sum256(payload)
	p, err := decodePayload(hex.EncodeToString(sum[:]), payload)
	if err != nil {
		return nil, parseErr(err, "")
	}
	if err := checkLanguageVersion(p, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// PackageID returns the package id of a serialized ArchivePayload: the
// lowercase hex SHA-256 of its bytes.
func PackageID(payload []byte) string {
	sum := sha256.Sum256(payload)
	return hex.EncodeToString(sum[:])
}

// decodeArchive decodes an Archive message; the returned package of an
// LF 1 archive carries only its id, version and payload.
func decodeArchive(b []byte) (*Package, error) {
	var hashFn int32
	var payload []byte
	var hash string
	hasPayload := false
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case 1:
			hashFn, err = f.int32Of("Archive.hash_function")
		case 3:
			payload, err = f.bytesOf("Archive.payload")
			hasPayload = true
		case 4:
			hash, err = f.str("Archive.hash")
		default:
			return unknownField("Archive", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	if hashFn != 0 {
		return nil, errorf("Archive.hash_function %d is not supported (only SHA256)", hashFn)
	}
	if !hasPayload {
		return nil, errorf("Archive.payload is missing")
	}
	id := PackageID(payload)
	if !validPackageID(hash) || hash != id {
		return nil, errorf("Mismatching hashes! Expected %s but got %s", hash, id)
	}
	return decodePayload(id, payload)
}

// decodePayload decodes an ArchivePayload whose package id is id.
func decodePayload(id string, b []byte) (*Package, error) {
	var minor string
	var patch int32
	var sum field
	hasSum := false
	if err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case 2, 4:
			_, err = f.bytesOf("ArchivePayload")
			sum, hasSum = f, true
		case 3:
			minor, err = f.str("ArchivePayload.minor")
		case 5:
			patch, err = f.int32Of("ArchivePayload.patch")
		default:
			return unknownField("ArchivePayload", f)
		}
		return err
	}); err != nil {
		return nil, err
	}
	if !hasSum {
		return nil, errorf("Unrecognized or Unsupported LF version")
	}
	if sum.num == 2 {
		if !lf1Minors[minor] {
			return nil, errorf("Unrecognized or Unsupported LF version 1.%s", minor)
		}
		if patch != 0 {
			return nil, errorf("LF 1.%s archive with patch %d is not supported", minor, patch)
		}
		// LF 1 packages are never accepted; their content is not decoded.
		return &Package{ID: id, LanguageVersion: LFVersion{1, minor}, Payload: b}, nil
	}
	if lf2DiscontinuedMinor[minor] {
		return nil, errorf("LF version 2.%s is discontinued", minor)
	}
	if !lf2Minors[minor] {
		return nil, errorf("Unrecognized or Unsupported LF version 2.%s", minor)
	}
	if patch != 0 {
		return nil, errorf("LF 2.%s archive with patch %d is not supported", minor, patch)
	}
	p, err := decodePackage(id, LFVersion{2, minor}, sum.b)
	if err != nil {
		return nil, err
	}
	p.Payload = b
	return p, nil
}

// allowedRange returns the lowest and highest LF versions opts accepts.
func allowedRange(opts ReadOptions) (LFVersion, LFVersion) {
	if opts.AllowDevLF {
		return LF21, LF2Dev
	}
	return LF21, LF23
}

// checkLanguageVersion applies the LF version policy: 2.1–2.3, plus 2.dev
// with AllowDevLF; stable packages are exempt.
func checkLanguageVersion(p *Package, opts ReadOptions) error {
	if IsStablePackage(p.ID) {
		return nil
	}
	lo, hi := allowedRange(opts)
	v := p.LanguageVersion
	if v.Major == 2 && lf2Minors[v.Minor] && (!v.IsDev() || opts.AllowDevLF) {
		return nil
	}
	e := newError(KindLanguageVersion,
		"Disallowed language version in package %s: Expected version between %s and %s but got %s",
		p.ID, lo, hi, v)
	e.PackageID, e.LanguageVersion = p.ID, v.String()
	return e
}

// parseErr turns a decoding failure of the dalf at path dalf ("" outside
// a DAR) into a KindParse *Error.
func parseErr(err error, dalf string) error {
	var pe *parseError
	if !errors.As(err, &pe) {
		return err
	}
	e := &Error{Kind: KindParse, Message: pe.msg, Dalf: truncateInput(dalf), Err: err}
	if dalf != "" {
		e.Message = "Failed to parse " + truncateInput(dalf) + ": " + pe.msg
	}
	return e
}
