package ledger

import (
	"fmt"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
)

// Name syntaxes of Daml-LF that the request rules need and that identity
// does not already check (identity.ValidateLedgerString, ValidatePartyString
// and ValidateUserID cover the others).
//
// TODO(merge): daml/lf is getting the one definition of the LF name
// syntaxes; once it has its package-id check, call it here and delete this.

// maxPackageIDLength is the longest Daml-LF PackageId.
const maxPackageIDLength = 64

// checkPackageID checks a Daml-LF PackageId: 1 to 64 US-ASCII characters
// from letters, digits, '-', '_' and space.
func checkPackageID(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("PackageId is empty")
	case len(s) > maxPackageIDLength:
		return fmt.Errorf("PackageId %q is longer than %d characters", apierr.Quote(s), maxPackageIDLength)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_ ", c) >= 0) {
			return fmt.Errorf("non expected character 0x%x in Daml-LF PackageId %q", c, apierr.Quote(s))
		}
	}
	return nil
}

// validPackageID refuses a malformed package id as Canton's package
// service does: INVALID_ARGUMENT "Invalid package id: …".
func validPackageID(id string) error {
	if err := checkPackageID(id); err != nil {
		return apierr.InvalidArgument.New("Invalid package id: %v", err)
	}
	return nil
}
