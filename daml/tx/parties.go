package tx

import (
	"slices"
	"strings"
)

// sortedSet returns the parties sorted, without duplicates, in a new
// slice (nil for none).
func sortedSet(ps []string) []string {
	if len(ps) == 0 {
		return nil
	}
	out := slices.Clone(ps)
	slices.Sort(out)
	return slices.Compact(out)
}

// sortedSets2 returns sortedSet(a), sortedSet(b) in one allocation: two
// slices of one array, each clipped to its own part.
func sortedSets2(a, b []string) ([]string, []string) {
	if len(a) == 0 || len(b) == 0 {
		return sortedSet(a), sortedSet(b)
	}
	buf := make([]string, len(a)+len(b))
	x, y := buf[:len(a):len(a)], buf[len(a):]
	copy(x, a)
	copy(y, b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Compact(x), slices.Compact(y)
}

// sigsAndStakeholders returns sortedSet(signatories) and
// union(sortedSet(signatories), observers) as two slices of one array,
// each clipped to its own part: buf's when 2·len(signatories) +
// len(observers) fit in its capacity, else one allocated.
func sigsAndStakeholders(buf, signatories, observers []string) (sigs, stk []string) {
	if len(signatories) == 0 {
		return nil, union(observers)
	}
	if n := 2*len(signatories) + len(observers); n > cap(buf) {
		buf = make([]string, 0, n)
	}
	buf = append(buf[:0], signatories...)
	if !isSortedSet(buf) { // the engine's are sets already
		slices.Sort(buf)
		buf = slices.Compact(buf)
	}
	sigs = slices.Clip(buf)
	stk = buf[len(sigs):len(sigs)]
	if !isSortedSet(observers) {
		stk = append(append(stk, sigs...), observers...)
		slices.Sort(stk)
		return sigs, slices.Compact(stk)
	}
	// Two sets: merged, rather than appended, sorted and compacted.
	i, j := 0, 0
	for i < len(sigs) && j < len(observers) {
		switch a, b := sigs[i], observers[j]; {
		case a < b:
			stk = append(stk, a)
			i++
		case b < a:
			stk = append(stk, b)
			j++
		default:
			stk = append(stk, a)
			i, j = i+1, j+1
		}
	}
	return sigs, append(append(stk, sigs[i:]...), observers[j:]...)
}

// isSortedSet reports whether ps is sorted and without duplicates.
func isSortedSet(ps []string) bool {
	for i := 1; i < len(ps); i++ {
		if ps[i-1] >= ps[i] {
			return false
		}
	}
	return true
}

// union returns a ∪ b of sorted sets, sorted.
func union(sets ...[]string) []string {
	n := 0
	for _, s := range sets {
		n += len(s)
	}
	if n == 0 {
		return nil
	}
	all := make([]string, 0, n)
	for _, s := range sets {
		all = append(all, s...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// has reports whether the sorted set b holds x: a few parties (a
// create's) compared for equality, which tells most parties apart by
// their lengths, more searched.
func has(b []string, x string) bool {
	if len(b) <= 4 {
		for _, y := range b {
			if y == x {
				return true
			}
		}
		return false
	}
	_, ok := slices.BinarySearch(b, x)
	return ok
}

// subset reports a ⊆ b for sorted sets.
func subset(a, b []string) bool {
	for _, x := range a {
		if !has(b, x) {
			return false
		}
	}
	return true
}

// intersect returns a ∩ b of sorted sets, sorted.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if has(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// diff returns a − b of sorted sets, sorted (nil when empty). When the
// result is one run of a's elements (a create's observers, say, next to
// its signatories among its stakeholders), it is that part of a, capped:
// sets are never changed in place, and a create's Observers need no
// allocation of their own.
func diff(a, b []string) []string {
	start, end := -1, -1 // a[start:end] while the result is one run
	var out []string     // else the result, copied
	for i, x := range a {
		if has(b, x) {
			continue
		}
		switch {
		case out != nil:
			out = append(out, x)
		case start < 0:
			start, end = i, i+1
		case end == i:
			end++
		default:
			out = append(slices.Clone(a[start:end]), x)
		}
	}
	if out != nil || start < 0 {
		return out
	}
	return a[start:end:end]
}

// scalaSet prints a party set as Scala prints a Set: "Set(a, b)".
func scalaSet(ps []string) string { return "Set(" + strings.Join(ps, ", ") + ")" }
