package lf

import (
	"slices"
	"strconv"
	"strings"
)

// validName reports whether s is a Daml-LF Name: [A-Za-z_$][A-Za-z0-9_$]*,
// at most 1000 characters.
func validName(s string) bool {
	if s == "" || len(s) > 1000 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// validPackageID reports whether s is a Daml-LF PackageId: 1 to 64
// characters of [A-Za-z0-9_- ].
func validPackageID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ' ') {
			return false
		}
	}
	return true
}

// validPackageName reports whether s can be a package name: non-empty, at
// most 255 characters of [A-Za-z0-9_-.]. (Real names: daml-prim,
// canton-builtin-admin-workflow-ping, ghc-stdlib-DA-Internal-Any.)
func validPackageName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

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
