package lf

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/ledgernode/ledgernode/internal/parallel"
	"github.com/ledgernode/ledgernode/internal/quote"
)

// The default size limits of ReadDAR, as in Canton.
const (
	// DefaultMaxEntrySize is the largest uncompressed zip entry accepted:
	// 1 GiB.
	DefaultMaxEntrySize int64 = 1 << 30
	// DefaultMaxTotalSize is the largest total uncompressed size of a DAR
	// accepted: 2 GiB.
	DefaultMaxTotalSize int64 = 2 << 30
)

// ManifestPath is the path of the DAR manifest inside the zip.
const ManifestPath = "META-INF/MANIFEST.MF"

// MaxManifestSize is the largest manifest ReadDAR reads: 1 MiB (a real one
// is under a few KB). A larger one is INVALID_DAR, refused before it is
// inflated; one whose header lies about its size is a ZIP_BOMB as soon as
// it inflates beyond what it declared.
const MaxManifestSize = 1 << 20

// ReadOptions tunes ReadDAR and DecodeArchive. The zero value is Canton's
// default configuration.
type ReadOptions struct {
	// MaxEntrySize bounds the uncompressed size of any zip entry (0 means
	// DefaultMaxEntrySize). Larger entries give KindZipBomb.
	MaxEntrySize int64
	// MaxTotalSize bounds the total uncompressed size of the DAR's entries
	// (0 means DefaultMaxTotalSize). Beyond it: KindZipBomb.
	MaxTotalSize int64
	// AllowDevLF accepts packages of Daml-LF 2.dev (Canton's
	// alpha-version-support). LF 1.x is never accepted.
	AllowDevLF bool
	// Cache, when set, serves packages already decoded (by package id)
	// and keeps the ones decoded now (see Cache).
	//
	// ReadDAR also keeps, in the cache, the last DARs it read
	// successfully, by the SHA-256 of their bytes: reading one of them
	// again, under options that give the same outcome, costs hashing its
	// bytes.
	Cache *Cache
}

func (o ReadOptions) limits() (entry, total int64) {
	entry, total = o.MaxEntrySize, o.MaxTotalSize
	if entry <= 0 {
		entry = DefaultMaxEntrySize
	}
	if total <= 0 {
		total = DefaultMaxTotalSize
	}
	return entry, total
}

// Manifest is the content of a DAR's META-INF/MANIFEST.MF.
type Manifest struct {
	// MainDalf is the path of the main package's dalf.
	MainDalf string
	// Dalfs are the paths of the other dalfs, in manifest order (the main
	// dalf removed).
	Dalfs []string
	// Format is the Format attribute; always "daml-lf" in a DAR ReadDAR
	// accepts.
	Format string
	// Name is the Name attribute (e.g. "canton-builtin-admin-workflow-ping-3.4.0"),
	// or "".
	Name string
	// SdkVersion is the Sdk-Version attribute, or "".
	SdkVersion string
	// Attributes are all main-section attributes by name as written, with
	// continuation lines joined.
	Attributes map[string]string
}

// DAR is a decoded DAR: its manifest and its packages.
type DAR struct {
	// Manifest is the DAR's manifest.
	Manifest Manifest
	// Main is the main package.
	Main *Package
	// Packages are all distinct packages of the DAR: the main package first,
	// then the others in manifest order.
	Packages []*Package
	// DalfPaths maps each package id to the dalf path it was read from.
	DalfPaths map[string]string

	byID map[string]*Package
}

// clone returns a copy of d that shares its packages (immutable) but none
// of its slices and maps.
func (d *DAR) clone() *DAR {
	c := *d
	c.Manifest.Dalfs = slices.Clone(d.Manifest.Dalfs)
	c.Manifest.Attributes = maps.Clone(d.Manifest.Attributes)
	c.Packages = slices.Clone(d.Packages)
	c.DalfPaths = maps.Clone(d.DalfPaths)
	c.byID = maps.Clone(d.byID)
	return &c
}

// Package returns the DAR's package with the given id, or nil.
func (d *DAR) Package(id string) *Package { return d.byID[id] }

// PackageIDs returns the ids of the DAR's packages, main first.
func (d *DAR) PackageIDs() []string {
	ids := make([]string, len(d.Packages))
	for i, p := range d.Packages {
		ids[i] = p.ID
	}
	return ids
}

// ReadDAR reads and decodes a DAR: the zip, its manifest and every dalf the
// manifest lists, then applies the LF version policy. It does not check
// dependencies (see CheckDependencies) or types.
//
// Memory: ReadDAR holds data, at most MaxManifestSize bytes of manifest and
// the inflated dalfs the manifest lists, which the size limits bound: an
// entry is inflated into a buffer that grows (by doubling) up to its
// declared size and no further, content beyond it being refused. Other
// entries are never inflated.
//
// The dalfs are inflated and decoded concurrently, on up to GOMAXPROCS
// goroutines; the outcome, errors included, is that of reading them one
// after the other in manifest order and stopping at the first failure.
//
// Errors are *Error values of kind KindInvalidDAR (not a zip, missing,
// oversized or invalid manifest, unsupported format), KindInvalidZipEntry
// (path tricks, duplicate or corrupt entries, a listed dalf missing),
// KindZipBomb (size limits, by header or by actual content), KindParse (a
// malformed dalf) and KindLanguageVersion.
func ReadDAR(data []byte, opts ReadOptions) (*DAR, error) {
	maxEntry, maxTotal := opts.limits()
	var sum [sha256.Size]byte
	if opts.Cache != nil {
		sum = sha256.Sum256(data)
		if d := opts.Cache.dar(sum, opts); d != nil {
			return d, nil
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, wrapError(KindInvalidDAR, err, "The DAR is not a valid zip archive: %v", err)
	}
	entries := make(map[string]*zip.File, len(zr.File))
	var declared, maxDeclared uint64
	for _, f := range zr.File {
		if msg := badPath(f.Name); msg != "" {
			return nil, entryError(KindInvalidZipEntry, truncateInput(f.Name), "Invalid zip entry %s: %s", quoteInput(f.Name), msg)
		}
		if entries[f.Name] != nil {
			return nil, entryError(KindInvalidZipEntry, truncateInput(f.Name), "Duplicate zip entry %s", quoteInput(f.Name))
		}
		entries[f.Name] = f
		if f.UncompressedSize64 > uint64(maxEntry) {
			return nil, entryError(KindZipBomb, truncateInput(f.Name), "Zip entry %s is %d bytes uncompressed, above the limit of %d bytes",
				quoteInput(f.Name), f.UncompressedSize64, maxEntry)
		}
		declared += f.UncompressedSize64
		maxDeclared = max(maxDeclared, f.UncompressedSize64)
		if declared > uint64(maxTotal) {
			return nil, newError(KindZipBomb, "The DAR is more than %d bytes uncompressed", maxTotal)
		}
	}

	mf := entries[ManifestPath]
	if mf == nil {
		return nil, newError(KindInvalidDAR, "The DAR has no %s", ManifestPath)
	}
	if mf.UncompressedSize64 > MaxManifestSize {
		return nil, newError(KindInvalidDAR, "Invalid manifest: %s is %d bytes uncompressed, above the limit of %d bytes",
			ManifestPath, mf.UncompressedSize64, MaxManifestSize)
	}
	raw, err := readEntry(data, mf, min(maxEntry, maxTotal))
	if err != nil {
		return nil, err
	}
	man, err := parseManifest(raw)
	if err != nil {
		return nil, err
	}

	// The dalfs are independent archives: they are inflated and decoded
	// concurrently, and the outcome is that of reading them one after the
	// other in manifest order, stopping at the first failure. Each entry's
	// limit is what remains of the total budget after the manifest and
	// the dalfs before it (an entry read without error holds exactly its
	// declared size).
	paths := append([]string{man.MainDalf}, man.Dalfs...)
	files := make([]*zip.File, len(paths))
	limits := make([]int64, len(paths))
	budget := maxTotal - int64(len(raw))
	for i, path := range paths {
		files[i] = entries[path]
		limits[i] = min(maxEntry, budget)
		if files[i] != nil {
			budget -= int64(files[i].UncompressedSize64)
		}
	}
	pkgs := make([]*Package, len(paths))
	fresh := make([]bool, len(paths))
	err = parallel.FirstError(len(paths), func(i int) int64 {
		if files[i] == nil {
			return 0
		}
		return int64(files[i].UncompressedSize64)
	}, func(i int) error {
		f := files[i]
		if f == nil {
			return entryError(KindInvalidZipEntry, truncateInput(paths[i]), "The dalf %s listed in the manifest is not in the DAR", quoteInput(paths[i]))
		}
		b, err := readEntry(data, f, limits[i])
		if err != nil {
			return err
		}
		if pkgs[i], fresh[i], err = opts.Cache.find(b); err != nil {
			return parseErr(err, paths[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	dar := &DAR{Manifest: man, DalfPaths: map[string]string{}, byID: map[string]*Package{}}
	for i, p := range pkgs {
		if fresh[i] {
			p = opts.Cache.add(p) // in manifest order: the cache's order stays deterministic
		}
		if i == 0 {
			dar.Main = p
		}
		if dar.byID[p.ID] != nil {
			continue // the same archive twice
		}
		dar.byID[p.ID] = p
		dar.DalfPaths[p.ID] = paths[i]
		dar.Packages = append(dar.Packages, p)
	}
	dev := false // a package is admitted only with AllowDevLF
	for _, p := range dar.Packages {
		if err := checkLanguageVersion(p, opts); err != nil {
			return nil, err
		}
		dev = dev || (opts.AllowDevLF && checkLanguageVersion(p, ReadOptions{}) != nil)
	}
	opts.Cache.putDAR(sum, cachedDAR{dar: dar, maxEntry: int64(maxDeclared), total: max(int64(declared), maxTotal-budget), dev: dev})
	return dar, nil
}

// badPath returns why a zip entry name is unsafe, or "".
func badPath(name string) string {
	switch {
	case name == "":
		return "empty name"
	case strings.ContainsRune(name, 0):
		return "NUL in name"
	case strings.Contains(name, `\`):
		return "backslash in path"
	case strings.HasPrefix(name, "/"):
		return "absolute path"
	case len(name) >= 2 && name[1] == ':':
		return "absolute path"
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return `".." in path`
		}
	}
	return ""
}

// readEntry inflates a zip entry of the zip data, never holding more than
// limit bytes nor more than the size its header declares: content beyond
// either is a KindZipBomb, whatever the header says.
func readEntry(data []byte, f *zip.File, limit int64) ([]byte, error) {
	declared := f.UncompressedSize64
	if declared > uint64(limit) {
		return nil, entryError(KindZipBomb, truncateInput(f.Name), "Zip entry %s is %d bytes uncompressed, above the remaining limit of %d bytes",
			quoteInput(f.Name), declared, limit)
	}
	// The entry's bytes as a reader the inflater reads directly rather
	// than through a buffer of its own; OpenRaw (which reads the local
	// header again, as DataOffset did) only when they are not in data.
	var raw io.Reader
	if off, err := f.DataOffset(); err == nil && data != nil && off >= 0 && uint64(off) <= uint64(len(data)) && f.CompressedSize64 <= uint64(len(data))-uint64(off) {
		raw = bytes.NewReader(data[off : off+int64(f.CompressedSize64)])
	} else if raw, err = f.OpenRaw(); err != nil {
		return nil, withErr(entryError(KindInvalidZipEntry, truncateInput(f.Name), "Cannot open zip entry %s: %v", quoteInput(f.Name), err), err)
	}
	var r io.Reader
	switch f.Method {
	case zip.Store:
		r = raw
	case zip.Deflate:
		fr := newInflater(raw)
		defer freeInflater(fr)
		r = fr
	default:
		return nil, entryError(KindInvalidZipEntry, truncateInput(f.Name), "Zip entry %s uses unsupported compression method %d", quoteInput(f.Name), f.Method)
	}
	// The buffer grows as content arrives: a header that lies upwards costs
	// only what really inflates, or at most inflateGuess times the entry's
	// compressed size (which the DAR's bytes hold already), and content
	// beyond the declared size (which is within limit) is never held.
	b, err := readUpTo(r, int64(declared), int64(min(declared, max(64<<10, inflateGuess*f.CompressedSize64))))
	if err != nil {
		return nil, withErr(entryError(KindInvalidZipEntry, truncateInput(f.Name), "Corrupt zip entry %s: %v", quoteInput(f.Name), err), err)
	}
	var one [1]byte
	if uint64(len(b)) == declared {
		if k, _ := io.ReadFull(r, one[:]); k > 0 {
			return nil, entryError(KindZipBomb, truncateInput(f.Name), "Zip entry %s inflates beyond the %d bytes its header declares", quoteInput(f.Name), declared)
		}
	}
	if n := len(b); uint64(n) < declared {
		return nil, entryError(KindInvalidZipEntry, truncateInput(f.Name), "Zip entry %s is truncated: %d of %d bytes", quoteInput(f.Name), n, declared)
	}
	if f.CRC32 != 0 && crc32.ChecksumIEEE(b) != f.CRC32 {
		return nil, entryError(KindInvalidZipEntry, truncateInput(f.Name), "Zip entry %s fails its checksum", quoteInput(f.Name))
	}
	return b, nil
}

// inflateGuess is how many times its compressed size readEntry expects an
// entry to inflate to at most: dalfs compress 4 to 5 times, so most are
// read into one buffer of their declared size, without growing it.
const inflateGuess = 8

// inflaters are flate readers for reuse (newInflater, freeInflater): each
// holds a 32 KiB window and Huffman tables, which a DAR of dozens of dalfs
// would otherwise allocate per dalf.
var inflaters sync.Pool

// newInflater returns a flate reader of r, reused if one is free. The
// reader is klauspost/compress's (the decompressor of the standard
// library's compress/flate, made faster): inflating is a sixth of
// decoding a DAR, and with it decoding the Splice Amulet DAR takes ~5 %
// fewer instructions (BENCHMARKS.md, issue 21 session 3).
func newInflater(r io.Reader) io.ReadCloser {
	if fr, ok := inflaters.Get().(io.ReadCloser); ok && fr.(flate.Resetter).Reset(r, nil) == nil {
		return fr
	}
	return flate.NewReader(r)
}

// freeInflater closes fr and keeps it for reuse; Reset clears all of its
// state, so it keeps nothing of what it read.
func freeInflater(fr io.ReadCloser) {
	fr.Close()
	inflaters.Put(fr)
}

// readUpTo reads r until EOF or n bytes, into a buffer that starts at
// start bytes (at most n) and doubles up to n: never more than n bytes of
// capacity.
func readUpTo(r io.Reader, n, start int64) ([]byte, error) {
	b := make([]byte, 0, min(n, max(start, 1)))
	for int64(len(b)) < n {
		if len(b) == cap(b) {
			nb := make([]byte, len(b), min(n, 2*int64(cap(b))))
			copy(nb, b)
			b = nb
		}
		k, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// quoteInput quotes outside input for an error cause: in full up to
// 100 bytes, beyond that its first 100 bytes and its length (internal/quote's
// Go form, the one implementation shared with the ledger's errors).
func quoteInput[T string | []byte](s T) string { return quote.Go(s) }

// truncateInput cuts outside input to 100 bytes for an error context.
func truncateInput(s string) string { return quote.Truncate(s) }

// parseManifest reads a Java manifest's main section and the DAR
// attributes (DarManifestReader). It walks the lines of b in place (CRLF,
// CR and LF end a line) and copies only attribute names and values; a bad
// line is quoted truncated.
func parseManifest(b []byte) (Manifest, error) {
	invalid := func(format string, args ...any) error {
		return newError(KindInvalidDAR, "Invalid manifest: "+format, args...)
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	m := Manifest{Attributes: map[string]string{}}
	lower := map[string]string{}
	var name string
	var value strings.Builder
	flush := func() {
		if name != "" {
			m.Attributes[name] = value.String()
			lower[strings.ToLower(name)] = name
		}
		name = ""
		value.Reset()
	}
	for len(b) > 0 {
		var line []byte
		end := bytes.IndexAny(b, "\r\n")
		switch {
		case end < 0:
			line, b = b, nil
		case b[end] == '\r' && end+1 < len(b) && b[end+1] == '\n':
			line, b = b[:end], b[end+2:]
		default:
			line, b = b[:end], b[end+1:]
		}
		if len(line) == 0 {
			break // end of the main section
		}
		if line[0] == ' ' {
			if name == "" {
				return Manifest{}, invalid("continuation line without an attribute")
			}
			value.Write(line[1:])
			continue
		}
		flush()
		n, v, ok := bytes.Cut(line, []byte(": "))
		if !ok {
			n, ok = bytes.CutSuffix(line, []byte(":"))
			v = nil
		}
		if !ok || !validAttributeName(n) {
			return Manifest{}, invalid("bad line %s", quoteInput(line))
		}
		name = string(n)
		value.Write(v)
	}
	flush()
	get := func(key string) (string, bool) {
		name, ok := lower[strings.ToLower(key)]
		if !ok {
			return "", false
		}
		return strings.TrimSpace(m.Attributes[name]), true
	}
	var ok bool
	if m.MainDalf, ok = get("Main-Dalf"); !ok {
		return Manifest{}, invalid("Cannot find attribute: Main-Dalf")
	}
	all, ok := get("Dalfs")
	if !ok {
		return Manifest{}, invalid("Cannot find attribute: Dalfs")
	}
	if m.Format, ok = get("Format"); !ok {
		return Manifest{}, invalid("Cannot find attribute: Format")
	}
	if m.Format != "daml-lf" {
		return Manifest{}, newError(KindInvalidDAR, "Unsupported format: %s", truncateInput(m.Format))
	}
	if m.MainDalf == "" {
		return Manifest{}, invalid("empty Main-Dalf")
	}
	m.Name, _ = get("Name")
	m.SdkVersion, _ = get("Sdk-Version")
	seen := map[string]bool{m.MainDalf: true}
	for _, d := range strings.Split(all, ",") {
		d = strings.TrimSpace(d)
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		m.Dalfs = append(m.Dalfs, d)
	}
	return m, nil
}

// validAttributeName: a Java manifest header name, [A-Za-z0-9_-]{1,70}.
func validAttributeName(s []byte) bool {
	if len(s) == 0 || len(s) > 70 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
