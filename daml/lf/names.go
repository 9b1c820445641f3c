package lf

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/internal/word"
)

// validName reports whether s is a Daml-LF Name (IsName).
func validName(s string) bool { return IsName(s) }

// validPackageID reports whether s is a Daml-LF PackageId (IsPackageID).
func validPackageID(s string) bool { return IsPackageID(s) }

// validPackageName reports whether s is a package name (IsPackageName).
func validPackageName(s string) bool { return IsPackageName(s) }

// parseVersion parses a package version: non-negative decimal integers
// separated by dots ("1.0.0", "3.4.0.20251020.14338.0").
func parseVersion(s string) ([]int64, bool) {
	if s == "" {
		return nil, false
	}
	parts := strings.Split(s, ".")
	out := make([]int64, len(parts))
	for i, p := range parts {
		if p == "" || len(p) > 18 {
			return nil, false
		}
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' {
				return nil, false
			}
		}
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// CompareVersions compares two package versions segment by segment,
// numerically ("1.10.0" > "1.9.0"; "1.0" < "1.0.0"). Unparseable versions
// sort before parseable ones and among themselves as strings. It returns
// -1, 0 or +1.
func CompareVersions(a, b string) int {
	va, oka := parseVersion(a)
	vb, okb := parseVersion(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	return slices.Compare(va, vb)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The Daml-LF string syntaxes (Canton's
// community/daml-lf/data/src/main/scala/com/digitalasset/daml/lf/data/IdString.scala).
// Each is defined here once; identity, ledger and the value codec call
// these. Every syntax is non-empty US-ASCII.

// The length limits of the string syntaxes.
const (
	MaxNameLength         = 1000
	MaxDottedNameLength   = 1000
	MaxPackageIDLength    = 64
	MaxPackageNameLength  = 255
	MaxPartyLength        = 255
	MaxLedgerStringLength = 255
	MaxUserIDLength       = 128
)

// SyntaxProblem says how a string fails its syntax.
type SyntaxProblem int

// The problems a *SyntaxError reports.
const (
	// SyntaxEmpty: the string is empty.
	SyntaxEmpty SyntaxProblem = iota + 1
	// SyntaxTooLong: the string is longer than Max.
	SyntaxTooLong
	// SyntaxBadChar: Char (at Index) is not allowed there.
	SyntaxBadChar
	// SyntaxBadForm: the string does not have the syntax's shape (a
	// contract id that is not lowercase hex of a known version, a user id
	// that does not match its pattern); Detail may say more.
	SyntaxBadForm
)

// SyntaxError says why a string is not of a Daml-LF string syntax. Its
// Error text is Canton's (IdString.scala); callers with texts of their own
// build them from the fields.
type SyntaxError struct {
	// Syntax is Canton's description of the syntax, e.g. "Daml-LF Party".
	Syntax string
	// Input is the string checked.
	Input string
	// Problem says what is wrong.
	Problem SyntaxProblem
	// Max is the length limit (SyntaxTooLong).
	Max int
	// Char is the first character not allowed and Index its byte offset
	// (SyntaxBadChar).
	Char  byte
	Index int
	// Detail explains a SyntaxBadForm when there is more to say, or "".
	Detail string
	// msg is the Error text.
	msg string
}

// Error returns Canton's text for the problem.
func (e *SyntaxError) Error() string { return e.msg }

// charSet is a set of ASCII characters, indexed by any byte (those of
// 128 and up are never in it) so that has needs no range check.
type charSet [256]bool

func newCharSet(extra string) *charSet {
	var s charSet
	for c := byte('a'); c <= 'z'; c++ {
		s[c], s[c-'a'+'A'] = true, true
	}
	for c := byte('0'); c <= '9'; c++ {
		s[c] = true
	}
	for i := 0; i < len(extra); i++ {
		s[extra[i]] = true
	}
	return &s
}

func (cs *charSet) has(c byte) bool { return cs[c] }

var (
	partyChars        = newCharSet(":-_ ")
	packageIDChars    = newCharSet("-_ ")
	packageNameChars  = newCharSet("-_")
	ledgerStringChars = newCharSet("._:-#/ ")
	nameFirstChars    = newCharSet("$_")
	nameChars         = newCharSet("$_")
	userIDChars       = newCharSet("@^$.!`-#+'~_|:()")
)

func init() {
	for c := '0'; c <= '9'; c++ {
		nameFirstChars[c] = false
	}
}

// checkChars is Canton's ConcatenableMatchingString check: non-empty, at
// most max bytes, every byte in cs.
func checkChars(desc, s string, max int, cs *charSet) error {
	if s == "" {
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxEmpty, msg: desc + " is empty"}
	}
	if len(s) > max {
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxTooLong, Max: max,
			msg: fmt.Sprintf("%s is too long (max: %d)", desc, max)}
	}
	if i := badChar(s, cs); i >= 0 {
		c := s[i]
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxBadChar, Char: c, Index: i,
			msg: fmt.Sprintf(`non expected character 0x%x in %s "%s"`, c, desc, s)}
	}
	return nil
}

// badChar returns the index of s's first byte not in cs, or -1. cs must
// hold [0-9A-Za-z], as every set checkChars is given does, so eight bytes that are all letters and
// digits pass at once; of eight ASCII bytes with others (the ':' of a
// party id, say), only those others are looked up in the table. Party ids
// and package ids are mostly hex, so this is the common case on every
// command.
func badChar(s string, cs *charSet) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8] // one bounds check, so the eight loads become one
		w := word.Load64(b)
		if w&highs == 0 {
			// Every byte is ASCII, so adding at most 0x80 to one does not
			// carry into the next: byte x of (w + ones*(0x80-lo)) has its
			// high bit set iff x >= lo, and of (w + ones*(0x7f-hi)) iff
			// x > hi. Setting 0x20 folds 'A'-'Z' onto 'a'-'z' and nothing
			// else onto them.
			l := w | ones*0x20
			digit := (w + ones*(0x80-'0')) &^ (w + ones*(0x7f-'9'))
			letter := (l + ones*(0x80-'a')) &^ (l + ones*(0x7f-'z'))
			// The high bits of the bytes that are neither, lowest first.
			for other := ^(digit | letter) & highs; other != 0; other &= other - 1 {
				if j := bits.TrailingZeros64(other) >> 3; !cs.has(b[j]) {
					return i + j
				}
			}
			continue
		}
		for j, c := range []byte(b) {
			if !cs.has(c) {
				return i + j
			}
		}
	}
	for ; i < len(s); i++ {
		if !cs.has(s[i]) {
			return i
		}
	}
	return -1
}

// CheckName checks a Daml-LF Name (a field, choice, variable or module
// segment name): [A-Za-z_$][A-Za-z0-9_$]*, at most 1000 characters.
func CheckName(s string) error {
	const desc = "Daml-LF Name"
	switch {
	case s == "":
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxEmpty, msg: desc + " is empty"}
	case len(s) > MaxNameLength:
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxTooLong, Max: MaxNameLength,
			msg: fmt.Sprintf("Name is too long (max: %d)", MaxNameLength)}
	case !nameFirstChars.has(s[0]):
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxBadChar, Char: s[0],
			msg: fmt.Sprintf(`non expected first character 0x%x in %s "%s"`, s[0], desc, s)}
	}
	if i := badChar(s[1:], nameChars) + 1; i > 0 {
		c := s[i]
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxBadChar, Char: c, Index: i,
			msg: fmt.Sprintf(`non expected non first character 0x%x in %s "%s"`, c, desc, s)}
	}
	return nil
}

// IsName reports whether s is a Daml-LF Name (CheckName).
func IsName(s string) bool { return CheckName(s) == nil }

// CheckDottedName checks a Daml-LF DottedName (a module or entity name):
// Names joined by '.', at most 1000 characters in all. The error of a bad
// segment is the segment's CheckName error.
func CheckDottedName(s string) error {
	const desc = "DottedName"
	if s == "" {
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxEmpty, msg: "Expected a non-empty string"}
	}
	for seg := range strings.SplitSeq(s, ".") {
		if err := CheckName(seg); err != nil {
			return err
		}
	}
	if len(s) > MaxDottedNameLength {
		return &SyntaxError{Syntax: desc, Input: s, Problem: SyntaxTooLong, Max: MaxDottedNameLength,
			msg: fmt.Sprintf("DottedName is too long (max: %d)", MaxDottedNameLength)}
	}
	return nil
}

// IsDottedName reports whether s is a Daml-LF DottedName (CheckDottedName).
func IsDottedName(s string) bool { return CheckDottedName(s) == nil }

// CheckPackageID checks a Daml-LF PackageId: 1 to 64 characters of
// [A-Za-z0-9_- ] (in practice 64 lowercase hex).
func CheckPackageID(s string) error {
	return checkChars("Daml-LF Package ID", s, MaxPackageIDLength, packageIDChars)
}

// IsPackageID reports whether s is a Daml-LF PackageId (CheckPackageID).
func IsPackageID(s string) bool { return CheckPackageID(s) == nil }

// CheckPackageName checks a Daml-LF PackageName: 1 to 255 characters of
// [A-Za-z0-9_-] (daml-prim, canton-builtin-admin-workflow-ping).
func CheckPackageName(s string) error {
	return checkChars("Daml-LF Package Name", s, MaxPackageNameLength, packageNameChars)
}

// IsPackageName reports whether s is a Daml-LF PackageName
// (CheckPackageName).
func IsPackageName(s string) bool { return CheckPackageName(s) == nil }

// CheckParty checks a Daml-LF Party string: 1 to 255 characters of
// [A-Za-z0-9:-_ ]. (Whether it is also a Canton party id, hint::namespace,
// is the identity package's rule.)
func CheckParty(s string) error { return checkChars("Daml-LF Party", s, MaxPartyLength, partyChars) }

// IsParty reports whether s is a Daml-LF Party string (CheckParty).
func IsParty(s string) bool { return CheckParty(s) == nil }

// CheckLedgerString checks a Daml-LF LedgerString (command, submission,
// workflow, update and identity-provider ids): 1 to 255 characters of
// [A-Za-z0-9._:-#/ ].
func CheckLedgerString(s string) error {
	return checkChars("Daml-LF Ledger String", s, MaxLedgerStringLength, ledgerStringChars)
}

// IsLedgerString reports whether s is a Daml-LF LedgerString
// (CheckLedgerString).
func IsLedgerString(s string) bool { return CheckLedgerString(s) == nil }

// CheckUserID checks a participant user id (Ref.UserId): 1 to 128
// characters of [a-zA-Z0-9@^$.!`\-#+'~_|:()].
func CheckUserID(s string) error {
	if s != "" && len(s) <= MaxUserIDLength && badChar(s, userIDChars) < 0 {
		return nil
	}
	return &SyntaxError{Syntax: "User ID", Input: s, Problem: SyntaxBadForm,
		msg: fmt.Sprintf(`User ID "%s" does not match regex "%s"`, s, userIDRegex)}
}

// userIDRegex is Canton's pattern for user ids, as its error text shows it.
const userIDRegex = "[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}"

// IsUserID reports whether s is a participant user id (CheckUserID).
func IsUserID(s string) bool { return CheckUserID(s) == nil }
