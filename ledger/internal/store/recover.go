package store

import (
	"os"
	"path/filepath"
	"strings"

	badger "github.com/dgraph-io/badger/v4"
)

// removeEmptyLogFiles deletes the empty (0-byte) memtable and value-log
// files of a Badger directory. A process killed between creating such a
// file and its first write leaves it behind, and badger.Open then fails
// with z.NewFile ("Create a new file") although the file holds nothing
// (dgraph-io/badger#2207, unfixed in v4). An empty file holds no entry
// and no value pointer refers to it, so removing it loses nothing; Badger
// creates the files it needs again.
func removeEmptyLogFiles(opts badger.Options) error {
	if opts.InMemory {
		return nil
	}
	for _, dir := range []string{opts.Dir, opts.ValueDir} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return err
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !(strings.HasSuffix(name, ".mem") || strings.HasSuffix(name, ".vlog")) {
				continue
			}
			info, err := e.Info()
			if err != nil {
				return err
			}
			if info.Size() == 0 {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
