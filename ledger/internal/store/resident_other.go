//go:build !linux

package store

// trimSupported reports whether trimMapped can work here: the mapped
// pages are Linux's /proc/self/smaps and madvise.
const trimSupported = false

func fileRSS() int64 { return 0 }

func residentMappings() []mapping { return nil }

func dontNeed(start, end uintptr) bool { return false }

func pageOut(start, end uintptr) bool { return false }
