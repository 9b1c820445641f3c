package lfenc

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
)

// ZeroBomb returns a zip whose first entry, name, is deflated and inflates
// to size NUL bytes while its header declares declared bytes (declared ==
// size for an honest header; a smaller value makes the header lie), followed
// by the extra files. The compressed stream is built from one deflated MiB
// of zeros repeated, so that a 512 MiB bomb costs about 0.5 MB and a few
// milliseconds, never size bytes of memory.
func ZeroBomb(name string, size, declared int64, extra ...File) []byte {
	const chunk = 1 << 20
	zeros := make([]byte, chunk)
	deflated := func(n int) []byte { // a non-final, byte-aligned run of n zeros
		var b bytes.Buffer
		fw, _ := flate.NewWriter(&b, flate.BestCompression)
		fw.Write(zeros[:n])
		fw.Flush()
		return b.Bytes()
	}
	full := deflated(chunk)
	var comp bytes.Buffer
	crc := uint32(0)
	for left := size; left > 0; {
		n := int(min(left, chunk))
		if n == chunk {
			comp.Write(full)
		} else {
			comp.Write(deflated(n))
		}
		crc = crc32.Update(crc, crc32.IEEETable, zeros[:n])
		left -= int64(n)
	}
	var final bytes.Buffer // an empty final block ends the stream
	fw, _ := flate.NewWriter(&final, flate.BestCompression)
	fw.Close()
	comp.Write(final.Bytes())

	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	ew, err := w.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: uint64(declared)})
	if err != nil {
		panic(err)
	}
	if _, err := ew.Write(comp.Bytes()); err != nil {
		panic(err)
	}
	writeFiles(w, extra)
	return buf.Bytes()
}
