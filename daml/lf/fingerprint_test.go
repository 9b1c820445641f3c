package lf

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// TestDecodeFingerprint checks a change of the decoder against the tree
// before it, without outputs stored in the repository: with
// LF_FINGERPRINT=file set, it writes, for every real DAR, the outcome of
// ReadDAR (with and without AllowDevLF) and a hash of each decoded
// package, then the outcome of decoding mutated payloads of every distinct
// dalf (errors in full). Run it on both trees and compare the files; they
// must be identical. It takes about a minute.
func TestDecodeFingerprint(t *testing.T) {
	out := os.Getenv("LF_FINGERPRINT")
	if out == "" {
		t.Skip("set LF_FINGERPRINT to a file to write the fingerprint to")
	}
	files, err := filepath.Glob(filepath.Join(darDir, "*.dar"))
	if err != nil || len(files) == 0 {
		t.Skipf("no real DARs in %s", darDir)
	}
	var buf bytes.Buffer
	seen := map[[sha256.Size]byte]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, dev := range []bool{false, true} {
			dar, err := ReadDAR(data, ReadOptions{AllowDevLF: dev})
			fmt.Fprintf(&buf, "%s dev=%v err=%v\n", filepath.Base(file), dev, err)
			if err == nil {
				for _, p := range dar.Packages {
					fmt.Fprintf(&buf, "  %s %s\n", p.ID, treeHash(p))
				}
			}
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue
		}
		for _, zf := range zr.File {
			if filepath.Ext(zf.Name) != ".dalf" {
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			dalf, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			if sum := sha256.Sum256(dalf); seen[sum] {
				continue
			} else {
				seen[sum] = true
			}
			fingerprintMutations(&buf, zf.Name, dalf)
		}
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fingerprintMutations writes the outcome of decoding 150 mutations of the
// payload of dalf: bytes flipped or replaced, truncations.
func fingerprintMutations(w io.Writer, name string, dalf []byte) {
	p, err := decodeArchive(dalf)
	if err != nil {
		fmt.Fprintf(w, " %s err=%v\n", name, err)
		return
	}
	rng := rand.New(rand.NewSource(1))
	for i := range 150 {
		m := bytes.Clone(p.Payload)
		switch rng.Intn(4) {
		case 0:
			m[rng.Intn(len(m))] ^= byte(1 << rng.Intn(8))
		case 1:
			m[rng.Intn(len(m))] = byte(rng.Intn(256))
		case 2:
			m = m[:rng.Intn(len(m))]
		default:
			m[rng.Intn(len(m))] = byte(rng.Intn(256))
			m[rng.Intn(len(m))] = byte(rng.Intn(3))
		}
		if q, err := decodePayload("x", m); err != nil {
			fmt.Fprintf(w, " %s/%d err=%v\n", name, i, err)
		} else {
			fmt.Fprintf(w, " %s/%d ok %s\n", name, i, treeHash(q))
		}
	}
}

// treeHash hashes everything reachable from x, unexported fields and the
// sharing of pointers included (a pointer met again is hashed as the
// order in which it was first met).
func treeHash(x any) string {
	h := &treeHasher{h: sha256.New(), seen: map[uintptr]int{}}
	h.value(reflect.ValueOf(x))
	return fmt.Sprintf("%x", h.h.Sum(nil))
}

type treeHasher struct {
	h    hash.Hash
	seen map[uintptr]int
}

func (h *treeHasher) printf(format string, args ...any) { fmt.Fprintf(h.h, format, args...) }

func (h *treeHasher) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		h.printf("invalid")
	case reflect.Pointer:
		if v.IsNil() {
			h.printf("nil")
			return
		}
		if id, ok := h.seen[v.Pointer()]; ok {
			h.printf("@%d", id)
			return
		}
		h.seen[v.Pointer()] = len(h.seen)
		h.printf("&")
		h.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			h.printf("nil interface")
			return
		}
		h.printf("%s", v.Elem().Type())
		h.value(v.Elem())
	case reflect.Struct:
		h.printf("%s{", v.Type())
		for i := range v.NumField() {
			h.printf("%s:", v.Type().Field(i).Name)
			h.value(v.Field(i))
			h.printf(",")
		}
		h.printf("}")
	case reflect.Slice:
		if v.IsNil() {
			h.printf("nil slice")
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			h.printf("bytes %x", sha256.Sum256(v.Bytes()))
			return
		}
		h.printf("[%d:", v.Len())
		for i := range v.Len() {
			h.value(v.Index(i))
			h.printf(",")
		}
		h.printf("]")
	case reflect.Array:
		for i := range v.Len() {
			h.value(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			h.printf("nil map")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		h.printf("map %d{", len(keys))
		for _, k := range keys {
			h.value(k)
			h.printf(":")
			h.value(v.MapIndex(k))
			h.printf(",")
		}
		h.printf("}")
	case reflect.String:
		h.printf("%q", v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		h.printf("%d", v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		h.printf("%d", v.Uint())
	case reflect.Bool:
		h.printf("%v", v.Bool())
	default:
		panic("treeHash: unexpected kind " + v.Kind().String())
	}
}
